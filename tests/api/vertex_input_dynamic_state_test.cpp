// VK_EXT_vertex_input_dynamic_state through the loader with validation, on Tessera and on
// lavapipe in the same test ("Vertex Input Description": with VK_DYNAMIC_STATE_VERTEX_INPUT_EXT
// the bindings and attributes come from vkCmdSetVertexInputEXT). One command buffer draws two
// triangles with one pipeline and two vertex input states: the first interleaved in one
// binding (position R32G32B32_SFLOAT, colour R32G32B32A32_SFLOAT at offset 12, stride 28), the
// second from two bindings (positions R32G32B32_SFLOAT at offset 4 of a 16-byte stride; the
// colour R8G8B8A8_UNORM per instance). The image must equal what two pipelines with those
// states as static state draw, on Tessera, and lavapipe's static image; the ctest variant
// api_tests.reference_raster repeats it on the reference path.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;

// The two vertex input states, as the dynamic command and as static state take them.
struct InputState {
  std::vector<VkVertexInputBindingDescription> bindings;
  std::vector<VkVertexInputAttributeDescription> attributes;
};
InputState interleaved() {
  return {{{0, 28, VK_VERTEX_INPUT_RATE_VERTEX}},
          {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 0}, {1, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 12}}};
}
InputState separate() {
  return {{{0, 16, VK_VERTEX_INPUT_RATE_VERTEX}, {1, 4, VK_VERTEX_INPUT_RATE_INSTANCE}},
          {{0, 0, VK_FORMAT_R32G32B32_SFLOAT, 4}, {1, 1, VK_FORMAT_R8G8B8A8_UNORM, 0}}};
}

std::vector<uint32_t> render(VkPhysicalDevice pd, bool dynamic) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVertexInputDynamicStateFeaturesEXT vids{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_INPUT_DYNAMIC_STATE_FEATURES_EXT,
                                                          &v13};
  vids.vertexInputDynamicState = VK_TRUE;
  TestDevice device(pd, nullptr, dynamic ? static_cast<const void*>(&vids) : static_cast<const void*>(&v13),
                    dynamic ? std::vector<const char*>{VK_EXT_VERTEX_INPUT_DYNAMIC_STATE_EXTENSION_NAME} : std::vector<const char*>{});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  // Triangle 1, interleaved: three vertices of 7 floats. Triangle 2: positions at offset 4 of
  // 16-byte records (the first word is padding), and one RGBA8 colour for its one instance.
  const float first[3][7] = {{-0.9f, -0.9f, 0.5f, 64 / 255.0f, 128 / 255.0f, 1, 1},
                             {0.2f, -0.8f, 0.5f, 64 / 255.0f, 128 / 255.0f, 1, 1},
                             {-0.7f, 0.9f, 0.5f, 64 / 255.0f, 128 / 255.0f, 1, 1}};
  const float second[3][4] = {{0, 0.1f, -0.5f, 0.5f}, {0, 0.95f, 0.2f, 0.5f}, {0, 0.3f, 0.95f, 0.5f}};
  const uint8_t color[4] = {200, 30, 90, 255};
  uint8_t* mapped;
  VkBuffer vertices = device.createMappedBuffer(sizeof(first) + sizeof(second) + sizeof(color), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT,
                                                reinterpret_cast<void**>(&mapped));
  std::memcpy(mapped, first, sizeof(first));
  std::memcpy(mapped + sizeof(first), second, sizeof(second));
  std::memcpy(mapped + sizeof(first) + sizeof(second), color, sizeof(color));

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("draw_basic_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("draw_basic_frag"));
  auto makePipeline = [&](const InputState* input) {
    VkPipelineShaderStageCreateInfo stages[2] = {
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, vs, "main", nullptr},
        {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, fs, "main", nullptr}};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    if (input) {
      vi.vertexBindingDescriptionCount = uint32_t(input->bindings.size());
      vi.pVertexBindingDescriptions = input->bindings.data();
      vi.vertexAttributeDescriptionCount = uint32_t(input->attributes.size());
      vi.pVertexAttributeDescriptions = input->attributes.data();
    }
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
    VkRect2D scissor{{0, 0}, {kSize, kSize}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineColorBlendAttachmentState blend{};
    blend.colorWriteMask = 0xF;
    VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
    cb.attachmentCount = 1;
    cb.pAttachments = &blend;
    const VkDynamicState dynamicState = VK_DYNAMIC_STATE_VERTEX_INPUT_EXT;
    VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicState};
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = 2;
    gpci.pStages = stages;
    gpci.pVertexInputState = input ? &vi : nullptr;  // ignored (and may be absent) when dynamic
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.pDynamicState = input ? nullptr : &dyn;
    gpci.layout = layout;
    VkPipeline pipeline = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
    return pipeline;
  };
  const InputState states[2] = {interleaved(), separate()};
  VkPipeline pipelines[2];
  if (dynamic) pipelines[0] = pipelines[1] = makePipeline(nullptr);
  else pipelines[0] = makePipeline(&states[0]), pipelines[1] = makePipeline(&states[1]);
  auto setVertexInput = reinterpret_cast<PFN_vkCmdSetVertexInputEXT>(vkGetDeviceProcAddr(dev, "vkCmdSetVertexInputEXT"));
  EXPECT_TRUE(!dynamic || setVertexInput);
  if (dynamic && !setVertexInput) return {};

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
  VkRenderingAttachmentInfo attachment{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  attachment.imageView = view;
  attachment.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  attachment.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  attachment.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  attachment.clearValue.color = {{0, 0, 0, 1}};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &attachment;
  vkCmdBeginRendering(cmd, &ri);
  for (int t = 0; t < 2; ++t) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[t]);
    if (dynamic) {
      std::vector<VkVertexInputBindingDescription2EXT> bindings;
      for (const VkVertexInputBindingDescription& d : states[t].bindings)
        bindings.push_back({VK_STRUCTURE_TYPE_VERTEX_INPUT_BINDING_DESCRIPTION_2_EXT, nullptr, d.binding, d.stride, d.inputRate, 1});
      std::vector<VkVertexInputAttributeDescription2EXT> attributes;
      for (const VkVertexInputAttributeDescription& a : states[t].attributes)
        attributes.push_back({VK_STRUCTURE_TYPE_VERTEX_INPUT_ATTRIBUTE_DESCRIPTION_2_EXT, nullptr, a.location, a.binding, a.format, a.offset});
      setVertexInput(cmd, uint32_t(bindings.size()), bindings.data(), uint32_t(attributes.size()), attributes.data());
    }
    if (t == 0) {
      const VkDeviceSize offset = 0;
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
    } else {
      const VkBuffer buffers[2] = {vertices, vertices};
      const VkDeviceSize offsets[2] = {sizeof(first), sizeof(first) + sizeof(second)};
      vkCmdBindVertexBuffers(cmd, 0, 2, buffers, offsets);
    }
    vkCmdDraw(cmd, 3, 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
  b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  std::vector<uint32_t> out(kSize * kSize);
  std::memcpy(out.data(), readMap, out.size() * 4);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipelines[0], nullptr);
  if (!dynamic) vkDestroyPipeline(dev, pipelines[1], nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyShaderModule(dev, vs, nullptr);
  vkDestroyShaderModule(dev, fs, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return out;
}

TEST(VertexInputDynamicState, TwoLayoutsInOneCommandBufferDrawWhatStaticStateDraws) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint32_t> ours = render(drivers.tessera, true), ourStatic = render(drivers.tessera, false);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize));
  EXPECT_EQ(ours, ourStatic) << "Tessera: dynamic vertex input draws what the static states draw";
  // Both triangles are there, in their colours (RGBA8 read as little-endian words).
  uint32_t firstPixels = 0, secondPixels = 0;
  for (uint32_t p : ours) firstPixels += p == 0xFFFF8040u, secondPixels += p == 0xFF5A1EC8u;
  EXPECT_GT(firstPixels, 50u);
  EXPECT_GT(secondPixels, 50u);
  if (drivers.lavapipe) {
    EXPECT_EQ(ours, render(drivers.lavapipe, false)) << "Tessera vs lavapipe's static states";
    EXPECT_EQ(ours, render(drivers.lavapipe, true)) << "Tessera vs lavapipe's dynamic vertex input";
  }
}

}  // namespace
}  // namespace tessera_test
