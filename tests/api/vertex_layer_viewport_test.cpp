// Layer and ViewportIndex written by the vertex and the tessellation evaluation stage
// (VK_EXT_shader_viewport_index_layer, promoted to Vulkan 1.2 as shaderOutputLayer and
// shaderOutputViewportIndex) through the loader with validation, on Tessera and lavapipe in one
// test. The spec's "Layer" and "ViewportIndex" built-ins: the last active pre-rasterization stage
// controls both; the layer selects the framebuffer layer ("Layered Rendering"), the viewport index
// the viewport transform and scissor ("Controlling the Viewport"); the fragment stage reads the
// primitive's values back.
//
// The scene: a 32x32 R8G8B8A8_UINT 2D array target of 4 layers cleared to 0; viewport v the 16x16
// quadrant (16 (v % 2), 16 (v / 2)), its scissor the same quadrant. One draw of 16 triangles
// (tests/shaders/vertex_layer_viewport.vert): triangle t covers the lower-left part of viewport
// t % 4 (clip corners (-1, -1), (1.1, -1), (-1, 1.1): the pixels of the quadrant with local
// x + y <= 15, no pixel centre on an edge) in layer (t / 4 + t) % 4, and the fragment writes
// (t + 1, Layer, ViewportIndex, 255) (vertex_layer_viewport.frag). Each (layer, viewport) pair is
// drawn by exactly one triangle, and the lanes of one SIMD batch disagree. Variants: an indexed
// draw listing the triangles backwards, the same from the tessellation evaluation stage
// (tess_layer_viewport.*: patch t makes triangle t), a vertex stage writing ViewportIndex only
// (every triangle then lands in layer 0, the later one of a viewport's four winning), and that
// vertex stage under multiview with all four views, every view's layer getting what layer 0 got
// alone (the fragment writes ViewIndex rather than Layer, vertex_viewport_view.frag: a shader
// writing Layer is invalid with a view mask, VUID-VkGraphicsPipelineCreateInfo-renderPass-06059,
// while ViewportIndex is allowed; multiviewPerViewViewports is not offered). The expected texels
// are computed from those rules; lavapipe must give the same, except under multiview, which is
// checked against the rules only: lavapipe 22.3 gets it wrong, differently from view to view
// (seen: the first of a viewport's four identical triangles winning in some views and the last
// in others; with one triangle per viewport, views whose quadrant stays empty). The ctest
// variant api_tests.reference_raster repeats it on the reference path.
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

constexpr uint32_t kSize = 32, kLayers = 4, kViewports = 4, kTriangles = 16;

enum class Variant { Vertex, VertexIndexed, TessEval, VertexViewportOnly, MultiviewViewportOnly };

VkViewport viewportOf(uint32_t v) { return {float(16 * (v % 2)), float(16 * (v / 2)), 16.0f, 16.0f, 0.0f, 1.0f}; }
VkRect2D scissorOf(uint32_t v) { return {{int32_t(16 * (v % 2)), int32_t(16 * (v / 2))}, {16, 16}}; }

// kLayers layers of kSize x kSize texels (4 bytes each); empty on failure.
std::vector<uint8_t> render(VkPhysicalDevice pd, Variant variant) {
  const bool tess = variant == Variant::TessEval, multiview = variant == Variant::MultiviewViewportOnly;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v12};
  vkGetPhysicalDeviceFeatures2(pd, &supported);
  EXPECT_TRUE(v12.shaderOutputLayer && v12.shaderOutputViewportIndex) << "shaderOutputLayer / shaderOutputViewportIndex";
  if (!v12.shaderOutputLayer || !v12.shaderOutputViewportIndex) return {};
  v13 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
  v11.multiview = multiview;
  v12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v11};
  v12.shaderOutputLayer = v12.shaderOutputViewportIndex = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  // The fragment stage's Layer and ViewportIndex inputs need the Geometry and MultiViewport capabilities.
  features.multiViewport = features.geometryShader = VK_TRUE;
  features.tessellationShader = tess;
  TestDevice device(pd, &features, &v12);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R8G8B8A8_UINT;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = kLayers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage image;
  vkCreateImage(dev, &ici, nullptr, &image);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  const size_t bytes = size_t(kSize) * kSize * 4 * kLayers;
  void *readMap, *indexMap;
  VkBuffer readback = device.createMappedBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  VkBuffer indices = device.createMappedBuffer(4 * 3 * kTriangles, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &indexMap);
  for (uint32_t t = 0; t < kTriangles; ++t)  // the triangles backwards, each one's vertices in order
    for (uint32_t k = 0; k < 3; ++k) static_cast<uint32_t*>(indexMap)[3 * t + k] = 3 * (kTriangles - 1 - t) + k;

  std::vector<const char*> names;
  switch (variant) {
    case Variant::TessEval:
      names = {"tess_layer_viewport_vert", "tess_layer_viewport_tesc", "tess_layer_viewport_tese"};
      break;
    case Variant::VertexViewportOnly:
    case Variant::MultiviewViewportOnly: names = {"vertex_viewport_only_vert"}; break;
    default: names = {"vertex_layer_viewport_vert"}; break;
  }
  names.push_back(multiview ? "vertex_viewport_view_frag" : "vertex_layer_viewport_frag");
  const VkShaderStageFlagBits stageBits[] = {VK_SHADER_STAGE_VERTEX_BIT, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT,
                                             VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT};
  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (size_t i = 0; i < names.size(); ++i) {
    modules.push_back(device.createShaderModule(loadCorpusShader(names[i])));
    const VkShaderStageFlagBits stage = i + 1 == names.size() ? VK_SHADER_STAGE_FRAGMENT_BIT : stageBits[i];
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  }
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = tess ? VK_PRIMITIVE_TOPOLOGY_PATCH_LIST : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0, 3};
  VkViewport viewports[kViewports];
  VkRect2D scissors[kViewports];
  for (uint32_t v = 0; v < kViewports; ++v) viewports[v] = viewportOf(v), scissors[v] = scissorOf(v);
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, kViewports,
                                       viewports, kViewports, scissors};
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
  const uint32_t viewMask = multiview ? (1u << kLayers) - 1 : 0;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, viewMask, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = uint32_t(stages.size());
  gpci.pStages = stages.data();
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pTessellationState = tess ? &ts : nullptr;
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
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
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
  ri.layerCount = kLayers;  // ignored with a view mask
  ri.viewMask = viewMask;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAttachment;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  if (variant == Variant::VertexIndexed) {
    vkCmdBindIndexBuffer(cmd, indices, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, 3 * kTriangles, 1, 0, 0, 0);
  } else {
    vkCmdDraw(cmd, 3 * kTriangles, 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
  b.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  b.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  b.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &b);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, kLayers};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint8_t> texels(bytes);
  std::memcpy(texels.data(), readMap, bytes);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyBuffer(dev, indices, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return pipeline ? texels : std::vector<uint8_t>{};
}

// Texel (x, y) of `layer` by the rules in the header comment.
std::array<uint8_t, 4> expectedTexel(Variant variant, uint32_t x, uint32_t y, uint32_t layer) {
  const uint32_t v = (x / 16) + 2 * (y / 16);
  if ((x % 16) + (y % 16) > 15) return {0, 0, 0, 0};  // outside the triangle
  if (variant == Variant::VertexViewportOnly) {
    // Every triangle of viewport v in layer 0; the last of them (t = 12 + v) drawn last.
    if (layer != 0) return {0, 0, 0, 0};
    return {uint8_t(12 + v + 1), 0, uint8_t(v), 255};
  }
  if (variant == Variant::MultiviewViewportOnly)  // as layer 0 above, in every view's layer, with its ViewIndex
    return {uint8_t(12 + v + 1), uint8_t(layer), uint8_t(v), 255};
  const uint32_t k = (layer + 4 - v) % 4;  // triangle t = v + 4k has layer (k + v) % 4
  return {uint8_t(v + 4 * k + 1), uint8_t(layer), uint8_t(v), 255};
}

void check(Variant variant) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = render(drivers.tessera, variant);
  ASSERT_EQ(ours.size(), size_t(kSize) * kSize * 4 * kLayers);
  std::vector<uint8_t> reference;
  if (drivers.lavapipe && variant != Variant::MultiviewViewportOnly) {  // see the header comment
    reference = render(drivers.lavapipe, variant);
    ASSERT_EQ(reference.size(), ours.size());
  }
  int failures = 0;
  uint32_t drawn = 0;
  for (uint32_t layer = 0; layer < kLayers; ++layer)
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize && failures < 8; ++x) {
        const std::array<uint8_t, 4> want = expectedTexel(variant, x, y, layer);
        drawn += want[3] != 0;
        const size_t at = ((size_t(layer) * kSize + y) * kSize + x) * 4;
        using Result = std::pair<const char*, const std::vector<uint8_t>*>;
        for (const auto& [driver, texels] : {Result{"Tessera", &ours}, Result{"lavapipe", &reference}}) {
          if (texels->empty()) continue;
          const uint8_t* got = texels->data() + at;
          if (std::memcmp(got, want.data(), 4) != 0 && failures++ < 8)
            ADD_FAILURE() << driver << ": texel (" << x << ", " << y << ") of layer " << layer << " is (" << int(got[0])
                          << ", " << int(got[1]) << ", " << int(got[2]) << ", " << int(got[3]) << "), the spec gives ("
                          << int(want[0]) << ", " << int(want[1]) << ", " << int(want[2]) << ", " << int(want[3]) << ")";
        }
      }
  // 136 texels (x + y <= 15) per quadrant, 4 quadrants per layer.
  EXPECT_EQ(drawn, (variant == Variant::VertexViewportOnly ? 1u : kLayers) * kViewports * 136u);
}

TEST(DrawVertexLayerViewport, VertexStageSelectsLayerAndViewport) { check(Variant::Vertex); }
TEST(DrawVertexLayerViewport, IndexedDrawTakesEachPrimitivesOwnValues) { check(Variant::VertexIndexed); }
TEST(DrawVertexLayerViewport, TessellationEvaluationStageSelectsLayerAndViewport) { check(Variant::TessEval); }
TEST(DrawVertexLayerViewport, ViewportIndexAloneKeepsTheFirstLayer) { check(Variant::VertexViewportOnly); }
TEST(DrawVertexLayerViewport, ViewportIndexUnderMultiviewInEveryView) { check(Variant::MultiviewViewportOnly); }

}  // namespace
}  // namespace tessera_test
