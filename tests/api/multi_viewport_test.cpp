// Several viewports (multiViewport) through the loader with validation, on Tessera and on
// lavapipe in the same test. "Controlling the Viewport": a primitive's ViewportIndex (here the
// geometry stage's, one invocation per viewport: tests/shaders/multi_viewport.geom) selects the
// viewport transform and the scissor rectangle it is rasterized with, and the fragment stage
// reads the same ViewportIndex back ("Built-In Variables").
//
// The scene: a 32x32 RGBA8 target cleared to black; one triangle covering the whole clip volume
// (tests/shaders/fullscreen.vert, z = 0) sent to 4 viewports, viewport i the quadrant
// (16 (i % 2), 16 (i / 2)) of 16x16 pixels with depth range [0.1 i, 0.1 i + 0.5]; scissor i its
// quadrant, except scissor 2: the 8x8 pixels at (4, 20). The fragment writes
// ((i + 1) / 4, 0.25, FragCoord.z, 1): FragCoord.z = 0.1 i (z_f = p_z z_d + o_z with z_d = 0
// and o_z viewport i's minDepth). Expected pixels are computed from those rules; lavapipe must agree with them too.
// Once with the viewports in the pipeline, once set dynamically (vkCmdSetViewport/Scissor in two
// calls each, with their first indices), once with their counts dynamic too (the *WithCount
// commands, Vulkan 1.3). The ctest variant api_tests.reference_raster repeats it on
// the reference path.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32, kViewports = 4;

VkViewport viewportOf(uint32_t i) {
  return {float(16 * (i % 2)), float(16 * (i / 2)), 16.0f, 16.0f, 0.1f * float(i), 0.1f * float(i) + 0.5f};
}
VkRect2D scissorOf(uint32_t i) {
  if (i == 2) return {{4, 20}, {8, 8}};
  return {{int32_t(16 * (i % 2)), int32_t(16 * (i / 2))}, {16, 16}};
}

enum class Source { Pipeline, Dynamic, DynamicWithCount };

std::vector<uint8_t> render(VkPhysicalDevice pd, Source source) {
  const bool dynamic = source != Source::Pipeline, withCount = source == Source::DynamicWithCount;
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  VkPhysicalDeviceProperties properties{};
  vkGetPhysicalDeviceProperties(pd, &properties);
  EXPECT_TRUE(supported.multiViewport);
  EXPECT_GE(properties.limits.maxViewports, 16u);
  if (!supported.multiViewport || !supported.geometryShader) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.multiViewport = features.geometryShader = VK_TRUE;
  TestDevice device(pd, &features, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = colorFormat;
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
  vci.format = colorFormat;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);

  VkShaderModule modules[3] = {device.createShaderModule(loadCorpusShader("fullscreen_vert")),
                               device.createShaderModule(loadCorpusShader("multi_viewport_geom")),
                               device.createShaderModule(loadCorpusShader("multi_viewport_frag"))};
  const VkPipelineShaderStageCreateInfo stages[3] = {
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_VERTEX_BIT, modules[0], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_GEOMETRY_BIT, modules[1], "main", nullptr},
      {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_FRAGMENT_BIT, modules[2], "main", nullptr}};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkViewport viewports[kViewports];
  VkRect2D scissors[kViewports];
  for (uint32_t i = 0; i < kViewports; ++i) viewports[i] = viewportOf(i), scissors[i] = scissorOf(i);
  // With VIEWPORT_WITH_COUNT / SCISSOR_WITH_COUNT the counts come from the command buffer (0 here).
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, withCount ? 0 : kViewports,
                                       dynamic ? nullptr : viewports, withCount ? 0 : kViewports, dynamic ? nullptr : scissors};
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
  const VkDynamicState dynamicStates[2] = {withCount ? VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT : VK_DYNAMIC_STATE_VIEWPORT,
                                           withCount ? VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT : VK_DYNAMIC_STATE_SCISSOR};
  VkPipelineDynamicStateCreateInfo ds{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 2, dynamicStates};
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = 3;
  gpci.pStages = stages;
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.pDynamicState = dynamic ? &ds : nullptr;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
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
  colorAttachment.clearValue.color = {{0, 0, 0, 0}};
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (withCount) {
    vkCmdSetViewportWithCount(cmd, kViewports, viewports);
    vkCmdSetScissorWithCount(cmd, kViewports, scissors);
  } else if (dynamic) {
    // Set in two calls with a first index each, so that firstViewport/firstScissor count.
    vkCmdSetViewport(cmd, 0, 2, viewports);
    vkCmdSetViewport(cmd, 2, 2, viewports + 2);
    vkCmdSetScissor(cmd, 0, 3, scissors);
    vkCmdSetScissor(cmd, 3, 1, scissors + 3);
  }
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
  std::vector<uint8_t> pixels(kSize * kSize * 4);
  std::memcpy(pixels.data(), readMap, pixels.size());

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return pixels;
}

uint8_t unorm8(double v) { return uint8_t(std::lround(std::clamp(v, 0.0, 1.0) * 255.0)); }

// Pixel (x, y) by the rules in the header comment: the viewport whose scissor holds it (the
// quadrants do not overlap), or nothing.
std::array<uint8_t, 4> expectedPixel(uint32_t x, uint32_t y) {
  for (uint32_t i = 0; i < kViewports; ++i) {
    const VkRect2D s = scissorOf(i);
    const VkViewport v = viewportOf(i);
    const bool inScissor = int32_t(x) >= s.offset.x && int32_t(x) < s.offset.x + int32_t(s.extent.width) &&
                           int32_t(y) >= s.offset.y && int32_t(y) < s.offset.y + int32_t(s.extent.height);
    const bool inViewport = x >= v.x && x < v.x + v.width && y >= v.y && y < v.y + v.height;
    if (inScissor && inViewport) {
      const double zf = double(v.minDepth);  // "Controlling the Viewport": o_z = minDepth, z_d = 0
      return {unorm8((i + 1) / 4.0), unorm8(0.25), unorm8(zf), 255};
    }
  }
  return {0, 0, 0, 0};
}

void check(Source source) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = render(drivers.tessera, source);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize * 4));
  std::vector<uint8_t> reference;
  if (drivers.lavapipe) {
    reference = render(drivers.lavapipe, source);
    ASSERT_EQ(reference.size(), ours.size());
  }
  int failures = 0, drawn = 0;
  for (uint32_t y = 0; y < kSize && failures < 8; ++y)
    for (uint32_t x = 0; x < kSize && failures < 8; ++x) {
      const std::array<uint8_t, 4> want = expectedPixel(x, y);
      drawn += want[3] != 0;
      const size_t at = (y * kSize + x) * 4;
      for (int k = 0; k < 4; ++k) {
        if (std::abs(int(ours[at + k]) - int(want[k])) > 1) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << k << ": Tessera " << int(ours[at + k])
                        << ", the spec " << int(want[k]);
          ++failures;
        }
        if (!reference.empty() && std::abs(int(reference[at + k]) - int(want[k])) > 1) {
          ADD_FAILURE() << "pixel (" << x << ", " << y << ") component " << k << ": lavapipe " << int(reference[at + k])
                        << ", the spec " << int(want[k]);
          ++failures;
        }
      }
    }
  EXPECT_EQ(drawn, 3 * 16 * 16 + 8 * 8);
}

TEST(DrawMultiViewport, GeometryStageViewportIndexSelectsViewportAndScissor) { check(Source::Pipeline); }
TEST(DrawMultiViewport, DynamicViewportsAndScissors) { check(Source::Dynamic); }
TEST(DrawMultiViewport, DynamicViewportsAndScissorsWithCount) { check(Source::DynamicWithCount); }

}  // namespace
}  // namespace tessera_test
