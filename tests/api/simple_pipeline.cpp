#include "simple_pipeline.h"

#include <gtest/gtest.h>

#include <cstring>

#include "compute_fixture.h"
#include "test_device.h"

namespace tessera_test {

VkPipeline createSimplePipeline(VkDevice device, const SimplePipeline& desc) {
  const VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, desc.vertex, "main",
       nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, desc.fragmentStageNext, 0, VK_SHADER_STAGE_FRAGMENT_BIT,
       desc.fragment, "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = desc.topology;
  const VkViewport viewport{0, 0, float(desc.width), float(desc.height), 0, 1};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1,
                                       nullptr};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = VK_CULL_MODE_NONE;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  const VkDynamicState scissor = VK_DYNAMIC_STATE_SCISSOR;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &scissor};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1,
                                          &desc.colorFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = &dyn;
  gpci.layout = desc.layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(device, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
  return pipeline;
}

std::vector<uint8_t> drawCorpusTriangle(VkPhysicalDevice pd, const char* vertex, const char* fragment, VkFormat format,
                                        uint32_t size, uint32_t texelBytes, VkPhysicalDeviceVulkan13Features v13,
                                        const void* fragmentStageNext, void* moreFeatures,
                                        const std::vector<const char*>& extensions, VkFormat pipelineFormat) {
  v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
  v13.pNext = moreFeatures;
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, nullptr, &v13, extensions);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const TestDevice::Attachment target = device.createAttachment(
      format, size, size, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader(vertex));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader(fragment));
  SimplePipeline desc{vs, fs, layout, size, size};
  desc.colorFormat = pipelineFormat == VK_FORMAT_MAX_ENUM ? format : pipelineFormat;
  desc.fragmentStageNext = fragmentStageNext;
  const VkPipeline pipeline = createSimplePipeline(dev, desc);
  void* map;
  const VkDeviceSize bytes = VkDeviceSize(size) * size * texelBytes;
  VkBuffer readback = device.createMappedBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &map);
  VkCommandBuffer cmd = device.beginCommands();
  recordDrawAndReadback(cmd, target, size, size, readback, [&](VkCommandBuffer c) {
    vkCmdBindPipeline(c, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(c, 3, 1, 0, 0);
  });
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> texels(bytes);
  std::memcpy(texels.data(), map, bytes);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : {vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return texels;
}

}  // namespace tessera_test
