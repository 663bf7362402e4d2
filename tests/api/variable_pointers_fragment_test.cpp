// Variable pointers (variablePointers) in a graphics stage, through the loader with validation,
// on Tessera and lavapipe in one test: the feature is per device, not per stage, and a fragment
// kernel's lanes are the quads' pixels. tests/shaders/var_ptr_frag.spvasm reads, at each pixel
// of a 32x32 R8G8B8A8_UINT target drawn by one full-screen triangle (fullscreen.vert), through
// OpSelect((x ^ y) & 1, &A[32 y + x], &B[32 y + x]); B's descriptor covers only its first
// kBound elements and the device enables robustBufferAccess2 (VK_EXT_robustness2:
// "out-of-bounds reads return zero"), so neighbouring lanes of one quad read different buffers,
// some of them out of range. The expected texels are computed from that; lavapipe must agree.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32, kBound = 640;

uint32_t aValue(uint32_t i) { return 0x1100 + 3 * i; }
uint32_t bValue(uint32_t i) { return 0x2200 + 5 * i; }

std::vector<uint8_t> render(VkPhysicalDevice pd) {
  VkPhysicalDeviceRobustness2FeaturesEXT r2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &r2};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(v11.variablePointers && r2.robustBufferAccess2);
  if (!v11.variablePointers || !r2.robustBufferAccess2) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  r2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_FEATURES_EXT, &v13};
  r2.robustBufferAccess2 = VK_TRUE;
  v11 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &r2};
  v11.variablePointersStorageBuffer = v11.variablePointers = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.robustBufferAccess = VK_TRUE;
  TestDevice device(pd, &features, &v11, {VK_EXT_ROBUSTNESS_2_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R8G8B8A8_UINT;
  const TestDevice::Attachment target = device.createAttachment(
      format, kSize, kSize, VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  const VkImage image = target.image;
  const VkImageView view = target.view;
  void *readMap, *maps[2];
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  VkBuffer buffers[2];
  for (uint32_t b = 0; b < 2; ++b) {
    buffers[b] = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &maps[b]);
    for (uint32_t i = 0; i < kSize * kSize; ++i) static_cast<uint32_t*>(maps[b])[i] = b == 0 ? aValue(i) : bValue(i);
  }

  VkDescriptorSetLayoutBinding bindings[2];
  for (uint32_t b = 0; b < 2; ++b) bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  const VkDescriptorBufferInfo infos[2] = {{buffers[0], 0, VK_WHOLE_SIZE}, {buffers[1], 0, 4 * kBound}};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                             nullptr, infos};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  VkShaderModule modules[2] = {device.createShaderModule(loadCorpusShader("fullscreen_vert")),
                               device.createShaderModule(loadCorpusShader("var_ptr_frag"))};
  const VkPipelineShaderStageCreateInfo stages[2] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[0], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[1], "main", nullptr}};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  const VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
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
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 2;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  VkRenderingAttachmentInfo colorAttachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAttachment.imageView = view;
  colorAttachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAttachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAttachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set, 0, nullptr);
  vkCmdDraw(cmd, 3, 1, 0, 0);
  vkCmdEndRendering(cmd);
  b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> texels(kSize * kSize * 4);
  std::memcpy(texels.data(), readMap, texels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  for (VkBuffer buffer : buffers) vkDestroyBuffer(dev, buffer, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return pipeline ? texels : std::vector<uint8_t>{};
}

TEST(DrawVariablePointers, FragmentLanesReadThroughTheirOwnPointers) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<std::pair<const char*, std::vector<uint8_t>>> results{{"Tessera", render(drivers.tessera)}};
  if (drivers.lavapipe) results.emplace_back("lavapipe", render(drivers.lavapipe));
  for (const auto& [driver, texels] : results) {
    ASSERT_EQ(texels.size(), size_t(kSize) * kSize * 4) << driver;
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint32_t i = y * kSize + x;
        const uint32_t v = (x ^ y) & 1 ? aValue(i) : i < kBound ? bValue(i) : 0;  // past B's range: zero
        const std::array<uint8_t, 4> want{uint8_t(v & 255), uint8_t(v >> 8 & 255), 0, 255};
        ASSERT_EQ(0, std::memcmp(&texels[4 * i], want.data(), 4))
            << driver << ": texel (" << x << ", " << y << ") is (" << int(texels[4 * i]) << ", " << int(texels[4 * i + 1])
            << ", " << int(texels[4 * i + 2]) << ", " << int(texels[4 * i + 3]) << "), want (" << int(want[0]) << ", "
            << int(want[1]) << ", 0, 255)";
      }
  }
}

}  // namespace
}  // namespace tessera_test
