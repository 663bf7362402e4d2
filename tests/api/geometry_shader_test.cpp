// Geometry shaders ("Geometry Shading") through the loader with validation, on Tessera and on
// lavapipe in one instance (dual_driver.h). Every draw renders into a 32x32 RGBA32_UINT target
// whose texels are the words the geometry stage emitted (tests/shaders/gs_*.geom,
// gs_words.frag), so results are exact integers: each test computes the image the spec's rules
// give where the geometry is pixel-aligned (squares, rectangles, single-pixel points) and
// requires it from both drivers, and the drivers to agree.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
// kSize x kSize texels of 4 words per layer, 0 where nothing was drawn.
using Image = std::vector<uint32_t>;

struct Draw {
  uint32_t firstVertex = 0, vertexCount = 0;
  uint32_t row = 0;  // the geometry stage's push constant (gs_adj_*.geom, gs_in_triangles.geom)
};

struct GeometrySetup {
  const char* geometryShader = "gs_quads_geom";  // null: none
  const char* fragmentShader = "gs_words_frag";
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  VkCullModeFlags cullMode = VK_CULL_MODE_NONE;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  std::vector<std::array<float, 4>> positions;  // binding 0, one per vertex
  std::vector<Draw> draws;
  uint32_t layers = 1;  // of the target (a 2D array view when more than 1), all read back
  uint32_t viewMask = 0;  // multiview (dynamic rendering's viewMask), with multiviewGeometryShader
  // Before the draws: a rendering of two indexed draws without the geometry stage, each naming
  // every vertex three times (the binned path projects such vertices once per slot), and the
  // draws rendered twice, each time in a rendering of its own (the image is the last one's).
  bool sharedIndexedPassFirst = false;
};

// Positions in pixels of the target (viewport = the whole target) as clip coordinates.
std::array<float, 4> pixel(float x, float y) { return {x / 16.0f - 1.0f, y / 16.0f - 1.0f, 0.0f, 1.0f}; }

Image render(VkPhysicalDevice pd, const GeometrySetup& setup) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
  v11.multiview = v11.multiviewGeometryShader = setup.viewMask != 0;
  VkPhysicalDeviceFeatures features{};
  features.geometryShader = VK_TRUE;
  TestDevice device(pd, &features, &v11);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with geometryShader";
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R32G32B32A32_UINT;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = setup.layers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage color;
  vkCreateImage(dev, &ici, nullptr, &color);
  device.bindMemory(color);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = color;
  vci.viewType = setup.layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, setup.layers};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void *vertexMap, *readbackMap;
  const size_t vertexBytes = std::max<size_t>(setup.positions.size() * 16, 16);
  const VkBuffer vertices = device.createMappedBuffer(vertexBytes, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  if (!setup.positions.empty()) std::memcpy(vertexMap, setup.positions.data(), setup.positions.size() * 16);
  const VkBuffer readback =
      device.createMappedBuffer(kSize * kSize * 16 * setup.layers, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readbackMap);

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  const std::pair<VkShaderStageFlagBits, const char*> stageShaders[3] = {{VK_SHADER_STAGE_VERTEX_BIT, "gs_passthrough_vert"},
                                                                         {VK_SHADER_STAGE_GEOMETRY_BIT, setup.geometryShader},
                                                                         {VK_SHADER_STAGE_FRAGMENT_BIT, setup.fragmentShader}};
  for (const auto& [stage, name] : stageShaders) {
    if (!name) continue;  // no geometry stage
    const VkShaderModule m = device.createShaderModule(loadCorpusShader(name));
    modules.push_back(m);
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, m, "main", nullptr});
  }
  const VkPushConstantRange push{VK_SHADER_STAGE_GEOMETRY_BIT, 0, 4};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = setup.geometryShader ? 1 : 0;
  plci.pPushConstantRanges = &push;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &binding;
  vi.vertexAttributeDescriptionCount = 1;
  vi.pVertexAttributeDescriptions = &attribute;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = setup.topology;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = setup.cullMode;
  rs.frontFace = setup.frontFace;
  rs.lineWidth = 1.0f;
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, setup.viewMask, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = uint32_t(stages.size());
  gpci.pStages = stages.data();
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pViewportState = &vp;
  gpci.pRasterizationState = &rs;
  gpci.pMultisampleState = &ms;
  gpci.pColorBlendState = &cb;
  gpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
  // sharedIndexedPassFirst: the same pipeline without its geometry stage, drawing a triangle
  // list of every vertex twice, the slots (in order of first use) other vertices than the
  // draws' own: vertex (k + 6) mod n is the k-th named.
  VkPipeline indexedPipeline = VK_NULL_HANDLE;
  VkBuffer indices = VK_NULL_HANDLE;
  if (setup.sharedIndexedPassFirst) {
    std::vector<VkPipelineShaderStageCreateInfo> noGeometry;
    for (const auto& st : stages)
      if (st.stage != VK_SHADER_STAGE_GEOMETRY_BIT) noGeometry.push_back(st);
    VkPipelineInputAssemblyStateCreateInfo list = ia;
    list.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    VkGraphicsPipelineCreateInfo indexed = gpci;
    indexed.stageCount = uint32_t(noGeometry.size());
    indexed.pStages = noGeometry.data();
    indexed.pInputAssemblyState = &list;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &indexed, nullptr, &indexedPipeline), VK_SUCCESS);
    void* indexMap;
    const uint32_t n = uint32_t(setup.positions.size());
    indices = device.createMappedBuffer(std::max(2 * n, 1u) * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &indexMap);
    for (uint32_t k = 0; k < 2 * n; ++k) static_cast<uint32_t*>(indexMap)[k] = (k % n + 6) % n;
  }

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  VkImageMemoryBarrier toAttachment{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  toAttachment.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toAttachment.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  toAttachment.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toAttachment.srcQueueFamilyIndex = toAttachment.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  toAttachment.image = color;
  toAttachment.subresourceRange = vci.subresourceRange;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toAttachment);
  VkRenderingAttachmentInfo colorAtt{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  colorAtt.imageView = view;
  colorAtt.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  colorAtt.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  colorAtt.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = setup.layers;
  ri.viewMask = setup.viewMask;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  const VkDeviceSize offset = 0;
  if (setup.sharedIndexedPassFirst) {
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, indexedPipeline);
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
    vkCmdBindIndexBuffer(cmd, indices, 0, VK_INDEX_TYPE_UINT32);
    for (int k = 0; k < 2; ++k) vkCmdDrawIndexed(cmd, 2 * uint32_t(setup.positions.size()), 1, 0, 0, 0);
    vkCmdEndRendering(cmd);
  }
  for (int pass = 0; pass < (setup.sharedIndexedPassFirst ? 2 : 1); ++pass) {
    if (pass > 0) {
      // The earlier rendering's writes before this one's clear.
      VkMemoryBarrier again{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT,
                            VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT};
      vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0,
                           1, &again, 0, nullptr, 0, nullptr);
    }
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
    for (const Draw& d : setup.draws) {
      if (setup.geometryShader) vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_GEOMETRY_BIT, 0, 4, &d.row);
      vkCmdDraw(cmd, d.vertexCount, 1, d.firstVertex, 0);
    }
    vkCmdEndRendering(cmd);
  }
  VkImageMemoryBarrier toTransfer = toAttachment;
  toTransfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  toTransfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toTransfer);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, setup.layers};
  copy.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  Image texels(kSize * kSize * 4 * setup.layers);
  std::memcpy(texels.data(), readbackMap, texels.size() * 4);

  vkDestroyPipeline(dev, pipeline, nullptr);
  if (indexedPipeline) vkDestroyPipeline(dev, indexedPipeline, nullptr);
  if (indices) vkDestroyBuffer(dev, indices, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, color, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return texels;
}

uint32_t* texel(Image& img, uint32_t x, uint32_t y, uint32_t layer = 0) {
  return &img[size_t((layer * kSize + y) * kSize + x) * 4];
}

void expectSameImage(const char* what, const Image& got, const Image& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  uint32_t different = 0;
  for (uint32_t y = 0; y < got.size() / (4 * kSize); ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t* a = &got[size_t(y * kSize + x) * 4];
      const uint32_t* b = &want[size_t(y * kSize + x) * 4];
      if (std::memcmp(a, b, 16) == 0) continue;
      if (++different <= 6)
        ADD_FAILURE() << what << ": texel (" << x << ", " << y % kSize << ") of layer " << y / kSize << " is " << std::hex << a[0] << "," << a[1] << "," << a[2]
                      << "," << a[3] << ", expected " << b[0] << "," << b[1] << "," << b[2] << "," << b[3] << std::dec;
    }
  EXPECT_EQ(different, 0u) << what << ": texels that differ";
}

// Renders on Tessera and on lavapipe (when installed); both must give `expected` (when given),
// and each other. Returns Tessera's image.
Image checkBothDrivers(const GeometrySetup& setup, const Image* expected) {
  DualDriverInstance drivers;
  EXPECT_NE(drivers.tessera, VK_NULL_HANDLE);
  if (!drivers.tessera) return {};
  const Image ours = render(drivers.tessera, setup);
  if (expected) expectSameImage("Tessera against the spec", ours, *expected);
  if (!drivers.lavapipe) return ours;
  const Image theirs = render(drivers.lavapipe, setup);
  if (expected) expectSameImage("lavapipe against the spec", theirs, *expected);
  expectSameImage("Tessera against lavapipe", ours, theirs);
  return ours;
}

// Every texel of [x0, x1) x [y0, y1) set to `words` (a pixel-aligned rectangle covers exactly
// the pixels whose centres it contains: "Polygon Rasterization").
void fillRect(Image& img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, std::array<uint32_t, 4> words,
              uint32_t layer = 0) {
  for (uint32_t y = y0; y < y1; ++y)
    for (uint32_t x = x0; x < x1; ++x) std::memcpy(texel(img, x, y, layer), words.data(), 16);
}

#define SKIP_WHEN_OTHER_DRIVER() \
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself"

// "Geometry Shading": a geometry stage expanding each input point into a 4-vertex triangle
// strip (a 6x6 square around the point) with the point's own output value.
TEST(GeometryShader, ExpandsPointsToSquares) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_quads_geom";
  const uint32_t centres[4][2] = {{8, 8}, {24, 8}, {8, 24}, {20, 26}};
  for (const auto& c : centres) setup.positions.push_back(pixel(float(c[0]), float(c[1])));
  setup.draws = {{0, 4, 0}};
  Image expected(kSize * kSize * 4, 0);
  for (uint32_t i = 0; i < 4; ++i)
    fillRect(expected, centres[i][0] - 3, centres[i][1] - 3, centres[i][0] + 3, centres[i][1] + 3, {i + 1, 0, 0, 1});
  checkBothDrivers(setup, &expected);
}

// A draw with enough geometry invocations (1,000 > 2 x 256) runs them in ranges over the
// pool, joined in order (raster/draw_tessellation.cpp runInRanges): "Geometry Shading" keeps
// the primitives of earlier input primitives before later ones, so where squares overlap the
// last one drawn shows ("Primitive Order"), as one range would leave them.
TEST(GeometryShader, ManyPointsExpandedInRangesKeepTheirOrder) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_quads_geom";
  constexpr uint32_t kPoints = 1000;
  Image expected(kSize * kSize * 4, 0);
  uint32_t state = 12345;
  for (uint32_t i = 0; i < kPoints; ++i) {
    state = state * 1664525u + 1013904223u;
    const uint32_t x = 3 + (state >> 8) % 27, y = 3 + (state >> 20) % 27;
    setup.positions.push_back(pixel(float(x), float(y)));
    fillRect(expected, x - 3, y - 3, x + 3, y + 3, {i + 1, 0, 0, 1});
  }
  setup.draws = {{0, kPoints, 0}};
  checkBothDrivers(setup, &expected);
}

// Two rectangles of two triangles each (a triangle list of 12 vertices), passed through the
// PrimitiveId geometry shader (gs_primitive_id.geom) to gs_primitive_id.frag.
constexpr float kIdRects[2][4] = {{2, 2, 14, 12}, {16, 4, 30, 28}};
GeometrySetup primitiveIdRectangles() {
  GeometrySetup setup;
  setup.geometryShader = "gs_primitive_id_geom";
  setup.fragmentShader = "gs_primitive_id_frag";
  setup.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  for (const auto& r : kIdRects)
    for (auto [x, y] : {std::pair{r[0], r[1]}, {r[0], r[3]}, {r[2], r[1]}, {r[2], r[1]}, {r[0], r[3]}, {r[2], r[3]}})
      setup.positions.push_back(pixel(x, y));
  setup.draws = {{0, 12, 0}};
  return setup;
}

// The binned path reuses its vertex buffers from draw to draw and swaps a geometry stage's
// output with one of them: an earlier indexed draw's per-slot projections (kept where vertices
// are shared) must not be read as the geometry stage's vertices two renderings later (CTS
// pipeline.monolithic.interface_matching *_geom_* cases lost triangles after
// input_assembly.primitive_restart ones). The image must be the one a fresh device renders.
TEST(GeometryShader, AnEarlierIndexedDrawLeavesNothingInItsPrimitives) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup = primitiveIdRectangles();
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Image fresh = render(drivers.tessera, setup);
  ASSERT_EQ(fresh.size(), kSize * kSize * 4);
  setup.sharedIndexedPassFirst = true;
  checkBothDrivers(setup, &fresh);
}

// "Geometry Shading" and "Built-In Variables": triangles passed through with PrimitiveId
// written as 2 * PrimitiveIdIn + 1; the fragment stage reads that value (the provoking
// vertex's). Two rectangles of two triangles each: together they cover exactly the
// rectangles, each triangle's part with its own id (the diagonal's pixels as both drivers'
// rasterizers decide, which must agree).
TEST(GeometryShader, PassesTrianglesWithPrimitiveIdToTheFragmentStage) {
  SKIP_WHEN_OTHER_DRIVER();
  const GeometrySetup setup = primitiveIdRectangles();
  const Image ours = checkBothDrivers(setup, nullptr);
  ASSERT_EQ(ours.size(), kSize * kSize * 4);
  // Coverage: the rectangles exactly; values: PrimitiveId 2p + 1 of triangle p (+ 100), and
  // the provoking (first) vertex's VertexIndex, 3p, in the second word.
  std::map<uint32_t, uint32_t> pixelsPerPrimitive;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t* t = &ours[size_t(y * kSize + x) * 4];
      bool inside = false;
      for (const auto& r : kIdRects) inside |= x >= r[0] && x < r[2] && y >= r[1] && y < r[3];
      if (!inside) {
        EXPECT_EQ(t[3], 0u) << "(" << x << ", " << y << ") outside the triangles was drawn";
        continue;
      }
      ASSERT_EQ(t[3], 1u) << "(" << x << ", " << y << ") inside a rectangle was not drawn";
      const uint32_t id = t[0] - 100;
      ASSERT_TRUE(id % 2 == 1 && id / 2 < 4) << "PrimitiveId " << id << " at (" << x << ", " << y << ")";
      EXPECT_EQ(t[1], 3 * (id / 2)) << "the provoking vertex's value at (" << x << ", " << y << ")";
      ++pixelsPerPrimitive[id / 2];
    }
  EXPECT_EQ(pixelsPerPrimitive.size(), 4u) << "every triangle covers pixels";
}

// "Geometry Shading" output strips: EndPrimitive ends a strip (nothing joins the next strip to
// it; a strip of 2 vertices makes no triangle), and the triangles of a strip take the vertex
// order of "Triangle Strips" (odd triangles' second and third vertices swapped), so that all
// of them have the winding of the first: with back faces culled, counter-clockwise front
// faces show both strips whole ("Basic Polygon Rasterization": positive area), clockwise
// ones nothing.
TEST(GeometryShader, TriangleStripsEndAtEndPrimitiveAndKeepTheirWinding) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_strips_geom";
  setup.positions = {pixel(16, 16)};
  setup.draws = {{0, 1, 0}};
  setup.cullMode = VK_CULL_MODE_BACK_BIT;
  Image expected(kSize * kSize * 4, 0);
  fillRect(expected, 2, 2, 14, 8, {1, 0, 0, 1});
  fillRect(expected, 2, 10, 8, 16, {2, 0, 0, 1});
  checkBothDrivers(setup, &expected);
  setup.frontFace = VK_FRONT_FACE_CLOCKWISE;
  const Image none(kSize * kSize * 4, 0);
  checkBothDrivers(setup, &none);
}

// The words gs_adj_*.geom / gs_in_triangles.geom write for input primitive p whose input
// vertices are `vertices` (VertexIndex values, in the input array's order), at (p, row).
void expectInputPrimitive(Image& img, uint32_t row, uint32_t p, std::vector<uint32_t> vertices) {
  uint32_t* t = texel(img, p, row);
  t[0] = t[1] = 0;
  for (size_t k = 0; k < vertices.size(); ++k) t[k / 3] |= vertices[k] << (8 * (k % 3));
  t[2] = p, t[3] = 1;
}

// "Primitive Topologies": the vertices each input primitive of a geometry stage receives, in
// order, written out from the spec's definitions: line lists with adjacency (4i .. 4i + 3),
// line strips with adjacency (i .. i + 3), triangle lists with adjacency (6i .. 6i + 5).
// PrimitiveIdIn counts the input primitives of the draw from 0.
TEST(GeometryShader, AdjacencyListsAndLineStripsFeedTheSpecsVertices) {
  SKIP_WHEN_OTHER_DRIVER();
  std::vector<std::array<float, 4>> positions(32, pixel(1, 1));
  {
    GeometrySetup setup;
    setup.geometryShader = "gs_adj_lines_geom";
    setup.positions = positions;
    setup.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
    setup.draws = {{0, 8, 0}, {3, 9, 1}};  // 2 lines; 2 lines (a ninth vertex left over)
    Image expected(kSize * kSize * 4, 0);
    expectInputPrimitive(expected, 0, 0, {0, 1, 2, 3});
    expectInputPrimitive(expected, 0, 1, {4, 5, 6, 7});
    expectInputPrimitive(expected, 1, 0, {3, 4, 5, 6});
    expectInputPrimitive(expected, 1, 1, {7, 8, 9, 10});
    SCOPED_TRACE("line lists with adjacency");
    checkBothDrivers(setup, &expected);
  }
  {
    GeometrySetup setup;
    setup.geometryShader = "gs_adj_lines_geom";
    setup.positions = positions;
    setup.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
    setup.draws = {{0, 6, 0}, {10, 4, 1}, {20, 3, 2}};  // 3 lines; 1 line; none
    Image expected(kSize * kSize * 4, 0);
    for (uint32_t i = 0; i < 3; ++i) expectInputPrimitive(expected, 0, i, {i, i + 1, i + 2, i + 3});
    expectInputPrimitive(expected, 1, 0, {10, 11, 12, 13});
    SCOPED_TRACE("line strips with adjacency");
    checkBothDrivers(setup, &expected);
  }
  {
    GeometrySetup setup;
    setup.geometryShader = "gs_adj_triangles_geom";
    setup.positions = positions;
    setup.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
    setup.draws = {{0, 12, 0}, {2, 11, 1}};  // 2 triangles; 1 (five vertices left over)
    Image expected(kSize * kSize * 4, 0);
    expectInputPrimitive(expected, 0, 0, {0, 1, 2, 3, 4, 5});
    expectInputPrimitive(expected, 0, 1, {6, 7, 8, 9, 10, 11});
    expectInputPrimitive(expected, 1, 0, {2, 3, 4, 5, 6, 7});
    SCOPED_TRACE("triangle lists with adjacency");
    checkBothDrivers(setup, &expected);
  }
}

// "Triangle Strips With Adjacency": the spec's equations for the vertices of primitive p(i)
// in the order the geometry stage takes them, for n = 1, and for the first, middle odd, middle
// even, last odd and last even primitives of longer strips (odd ones altered to keep the
// strip's winding, v(2i) always first). And "Triangle Strips" without adjacency: odd
// triangles are (i, i + 2, i + 1).
TEST(GeometryShader, TriangleStripsWithAndWithoutAdjacencyFeedTheSpecsVertices) {
  SKIP_WHEN_OTHER_DRIVER();
  std::vector<std::array<float, 4>> positions(32, pixel(1, 1));
  {
    GeometrySetup setup;
    setup.geometryShader = "gs_adj_triangles_geom";
    setup.positions = positions;
    setup.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
    // 4 primitives (12 vertices); n = 1 (6 vertices, and 7: one left over); 5 primitives (14
    // vertices: the last one even).
    setup.draws = {{0, 12, 0}, {0, 6, 1}, {0, 7, 2}, {0, 14, 3}};
    Image expected(kSize * kSize * 4, 0);
    // i = 0: {v2i, v2i+1, v2i+2, v2i+6, v2i+4, v2i+3}
    expectInputPrimitive(expected, 0, 0, {0, 1, 2, 6, 4, 3});
    // middle, i = 1 (odd): {v2i, v2i+3, v2i+4, v2i+6, v2i+2, v2i-2}
    expectInputPrimitive(expected, 0, 1, {2, 5, 6, 8, 4, 0});
    // middle, i = 2 (even): {v2i, v2i-2, v2i+2, v2i+6, v2i+4, v2i+3}
    expectInputPrimitive(expected, 0, 2, {4, 2, 6, 10, 8, 7});
    // last, i = 3 (odd): {v2i, v2i+3, v2i+4, v2i+5, v2i+2, v2i-2}
    expectInputPrimitive(expected, 0, 3, {6, 9, 10, 11, 8, 4});
    // n = 1: {v0, v1, v2, v5, v4, v3}
    expectInputPrimitive(expected, 1, 0, {0, 1, 2, 5, 4, 3});
    expectInputPrimitive(expected, 2, 0, {0, 1, 2, 5, 4, 3});
    // 5 primitives: i = 0, middles 1 (odd), 2 (even), 3 (odd), last 4 (even):
    // {v2i, v2i-2, v2i+2, v2i+5, v2i+4, v2i+3}
    expectInputPrimitive(expected, 3, 0, {0, 1, 2, 6, 4, 3});
    expectInputPrimitive(expected, 3, 1, {2, 5, 6, 8, 4, 0});
    expectInputPrimitive(expected, 3, 2, {4, 2, 6, 10, 8, 7});
    expectInputPrimitive(expected, 3, 3, {6, 9, 10, 12, 8, 4});
    expectInputPrimitive(expected, 3, 4, {8, 6, 10, 13, 12, 11});
    SCOPED_TRACE("triangle strips with adjacency");
    checkBothDrivers(setup, &expected);
  }
  {
    GeometrySetup setup;
    setup.geometryShader = "gs_in_triangles_geom";
    setup.positions = positions;
    setup.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
    setup.draws = {{0, 5, 0}};
    Image expected(kSize * kSize * 4, 0);
    expectInputPrimitive(expected, 0, 0, {0, 1, 2});
    expectInputPrimitive(expected, 0, 1, {1, 3, 2});
    expectInputPrimitive(expected, 0, 2, {2, 3, 4});
    SCOPED_TRACE("triangle strips");
    checkBothDrivers(setup, &expected);
  }
}

// "Geometry Shader Instancing": Invocations = 3 runs the shader three times per input
// primitive with InvocationId 0, 1, 2, and "Geometry Shader Primitive Ordering": the
// primitives of one input primitive's invocations are rasterized in increasing invocation
// order, so the shared pixel keeps invocation 2's point.
TEST(GeometryShader, InvocationsRunPerInputPrimitiveInOrder) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_invocations_geom";
  setup.positions = std::vector<std::array<float, 4>>(5, pixel(1, 1));
  setup.draws = {{0, 5, 0}};
  Image expected(kSize * kSize * 4, 0);
  for (uint32_t p = 0; p < 5; ++p) {
    for (uint32_t i = 0; i < 3; ++i) {
      uint32_t* t = texel(expected, 3 * p + i, 0);
      t[0] = i, t[1] = p, t[2] = 7, t[3] = 1;
    }
    uint32_t* t = texel(expected, p, 1);
    t[0] = 2, t[1] = p, t[2] = 8, t[3] = 1;
  }
  checkBothDrivers(setup, &expected);
}

// "Layered Rendering": a geometry stage writing Layer sends each primitive to that layer of a
// 3-layer attachment, and the fragment stage reads the same Layer. Three squares at one
// place land in three layers (nothing else is drawn over them there).
TEST(GeometryShader, LayerSelectsTheAttachmentLayer) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_layers_geom";
  setup.fragmentShader = "gs_layer_frag";
  setup.layers = 3;
  const uint32_t centres[6][2] = {{8, 8}, {8, 8}, {8, 8}, {24, 24}, {8, 24}, {24, 8}};
  for (const auto& c : centres) setup.positions.push_back(pixel(float(c[0]), float(c[1])));
  setup.draws = {{0, 6, 0}};
  Image expected(kSize * kSize * 4 * 3, 0);
  for (uint32_t i = 0; i < 6; ++i)
    fillRect(expected, centres[i][0] - 3, centres[i][1] - 3, centres[i][0] + 3, centres[i][1] + 3, {i + 1, i % 3, 0, 1},
             i % 3);
  checkBothDrivers(setup, &expected);
}

// "Geometry Shading": the fragment stage's inputs come from the geometry stage's outputs, also
// at locations the vertex stage does not write. A smooth one across a square (w = 1, so
// perspective interpolation is linear, "Polygon Interpolation"): at pixel centre k of a row
// or column, 0.25 + 0.5 (k + 1/2) / 6, read back times 1000 rounded (no value near a .5 tie).
TEST(GeometryShader, SmoothOutputsOnlyTheGeometryStageWrites) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_smooth_geom";
  setup.fragmentShader = "gs_smooth_frag";
  setup.positions = {pixel(8, 8), pixel(20, 24)};
  setup.draws = {{0, 2, 0}};
  Image expected(kSize * kSize * 4, 0);
  const uint32_t ramp[6] = {292, 375, 458, 542, 625, 708};
  for (const auto& [x0, y0] : {std::pair{5u, 5u}, {17u, 21u}})
    for (uint32_t j = 0; j < 6; ++j)
      for (uint32_t i = 0; i < 6; ++i) fillRect(expected, x0 + i, y0 + j, x0 + i + 1, y0 + j + 1, {ramp[i], 500, ramp[j], 1000});
  checkBothDrivers(setup, &expected);
}

// "Triangle Strips With Adjacency" without a geometry stage (allowed with geometryShader): the
// triangles drawn are the 1st, 3rd and 5th vertices of each primitive, v(2i) first and odd
// ones as v(2i), v(2i+4), v(2i+2), so that with back faces culled a strip whose first triangle
// is front-facing ("Basic Polygon Rasterization": positive area with counter-clockwise front
// faces) covers its whole rectangle; the adjacent vertices, placed far off, draw nothing.
TEST(GeometryShader, AdjacencyTopologiesWithoutAGeometryStageDrawTheirPrimitives) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = nullptr;
  setup.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
  setup.cullMode = VK_CULL_MODE_BACK_BIT;
  // v0 (2, 2), v2 (2, 10), v4 (10, 2), v6 (10, 10), v8 (18, 2), v10 (18, 10); odd ones far off.
  for (uint32_t v = 0; v < 12; ++v)
    setup.positions.push_back(v % 2 ? pixel(-100.0f * float(v), 300.0f) : pixel(2.0f + 8.0f * float(v / 4), v % 4 ? 10.0f : 2.0f));
  setup.draws = {{0, 12, 0}};
  const Image ours = checkBothDrivers(setup, nullptr);
  ASSERT_EQ(ours.size(), kSize * kSize * 4);
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t* t = &ours[size_t(y * kSize + x) * 4];
      const bool inside = x >= 2 && x < 18 && y >= 2 && y < 10;
      EXPECT_EQ(t[3], inside ? 1u : 0u) << "(" << x << ", " << y << ")";
      // Flat: the provoking vertex v(2i) of triangle i.
      if (inside) {
        EXPECT_TRUE(t[0] == 0 || t[0] == 2 || t[0] == 4 || t[0] == 6) << t[0] << " at (" << x << ", " << y << ")";
      }
    }
}

// "Multiview" with a geometry stage (multiviewGeometryShader): the draw runs once per view of
// the view mask into that view's layer, and the geometry stage sees ViewIndex (here it moves
// the squares right by 8 pixels per view and writes the index).
TEST(GeometryShader, MultiviewRunsTheGeometryStagePerView) {
  SKIP_WHEN_OTHER_DRIVER();
  GeometrySetup setup;
  setup.geometryShader = "gs_view_geom";
  setup.layers = 2;
  setup.viewMask = 0b11;
  const uint32_t centres[2][2] = {{6, 8}, {10, 24}};
  for (const auto& c : centres) setup.positions.push_back(pixel(float(c[0]), float(c[1])));
  setup.draws = {{0, 2, 0}};
  Image expected(kSize * kSize * 4 * 2, 0);
  for (uint32_t view : {0u, 1u})
    for (uint32_t i = 0; i < 2; ++i) {
      const uint32_t x = centres[i][0] + 8 * view, y = centres[i][1];
      fillRect(expected, x - 3, y - 3, x + 3, y + 3, {i + 1, view, 0, 1}, view);
    }
  checkBothDrivers(setup, &expected);
}

}  // namespace
}  // namespace tessera_test
