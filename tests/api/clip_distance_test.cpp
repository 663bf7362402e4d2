// Client-defined clip and cull distances (shaderClipDistance, shaderCullDistance) through the
// loader with validation, on Tessera and on lavapipe in the same test.
//
// The scene (tests/shaders/clip_distance.*, w = 1, a 24x24 RGBA8 target cleared to black): three
// horizontal bands of 8 rows, one instance each, two triangles per band.
//   band 0 (rows 0-7): ClipDistance (x_d + 0.5, 0.6 - x_d): "Primitive Clipping" keeps the part
//     where every interpolated distance is >= 0, -0.5 <= x_d <= 0.6 (pixel columns 6 to 18;
//     no pixel centre lies on either plane);
//   band 1 (rows 8-15): CullDistance[0] = -1 at every vertex: "the primitive is culled" (a
//     distance negative at every vertex of the primitive), so nothing is drawn;
//   band 2 (rows 16-23): CullDistance[0] = x_d, negative at the left vertices only: kept whole.
// The fragment shader writes its interpolated ClipDistance[0], [1] and CullDistance[0] as the
// colour (0.5 d0, 0.5 d1, 0.5 c0 + 0.5), so the distances' interpolation is checked too: with
// w = 1 each is linear in x_d at the pixel centre. The same scene is drawn with the distances
// passed through a geometry stage and through tessellation (level 1: the same triangles), which
// read them from gl_in[] and write them again. The expected image is computed from the rules
// above; lavapipe's must agree with it too. The ctest variant api_tests.reference_raster
// repeats it on the reference path.
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

constexpr uint32_t kSize = 24;

enum class Stages { Vertex, Geometry, Tessellation };

std::vector<uint8_t> render(VkPhysicalDevice pd, Stages stages) {
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  EXPECT_TRUE(supported.shaderClipDistance);
  EXPECT_TRUE(supported.shaderCullDistance);
  if (!supported.shaderClipDistance || !supported.shaderCullDistance) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.shaderClipDistance = features.shaderCullDistance = VK_TRUE;
  features.geometryShader = stages == Stages::Geometry;
  features.tessellationShader = stages == Stages::Tessellation;
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

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stageInfos;
  auto addStage = [&](VkShaderStageFlagBits stage, const char* name) {
    modules.push_back(device.createShaderModule(loadCorpusShader(name)));
    stageInfos.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  };
  addStage(VK_SHADER_STAGE_VERTEX_BIT, "clip_distance_vert");
  if (stages == Stages::Geometry) addStage(VK_SHADER_STAGE_GEOMETRY_BIT, "clip_distance_geom");
  if (stages == Stages::Tessellation) {
    addStage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "clip_distance_tesc");
    addStage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "clip_distance_tese");
  }
  addStage(VK_SHADER_STAGE_FRAGMENT_BIT, "clip_distance_frag");
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = stages == Stages::Tessellation ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0, 3};
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
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
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &colorFormat};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = uint32_t(stageInfos.size());
  gpci.pStages = stageInfos.data();
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pTessellationState = stages == Stages::Tessellation ? &ts : nullptr;
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
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  vkCmdDraw(cmd, 6, 3, 0, 0);
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

// Pixel (x, y) of the scene in the header comment, by the spec; {0, 0, 0, 0} where nothing is drawn.
std::array<uint8_t, 4> expectedPixel(uint32_t x, uint32_t y) {
  const double xd = (x + 0.5) / (kSize / 2.0) - 1;
  const uint32_t band = y / (kSize / 3);
  double clip0 = 1, clip1 = 1, cull0 = 1;
  if (band == 0) {
    clip0 = xd + 0.5, clip1 = 0.6 - xd;
    if (clip0 < 0 || clip1 < 0) return {0, 0, 0, 0};  // "Primitive Clipping"
  } else if (band == 1) {
    return {0, 0, 0, 0};  // culled: CullDistance[0] < 0 at every vertex
  } else {
    cull0 = xd;
  }
  return {unorm8(clip0 * 0.5), unorm8(clip1 * 0.5), unorm8(cull0 * 0.5 + 0.5), 255};
}

void checkStages(Stages stages) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = render(drivers.tessera, stages);
  ASSERT_EQ(ours.size(), size_t(kSize * kSize * 4));
  std::vector<uint8_t> reference;
  if (drivers.lavapipe) {
    reference = render(drivers.lavapipe, stages);
    ASSERT_EQ(reference.size(), ours.size());
  }
  int failures = 0, drawn = 0;
  for (uint32_t y = 0; y < kSize && failures < 8; ++y)
    for (uint32_t x = 0; x < kSize && failures < 8; ++x) {
      const std::array<uint8_t, 4> want = expectedPixel(x, y);
      drawn += want[3] != 0;
      const size_t at = (y * kSize + x) * 4;
      for (int k = 0; k < 4; ++k) {
        // One step of rounding: the interpolated distance is a float, the expectation exact.
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
  EXPECT_EQ(drawn, 13 * 8 + 24 * 8);  // band 0: columns 6-18; band 2: every column
}

TEST(DrawClipDistance, ClipAndCullDistancesMatchTheSpecAndLavapipe) { checkStages(Stages::Vertex); }
TEST(DrawClipDistance, ThroughAGeometryStage) { checkStages(Stages::Geometry); }
TEST(DrawClipDistance, ThroughTessellation) { checkStages(Stages::Tessellation); }

}  // namespace
}  // namespace tessera_test
