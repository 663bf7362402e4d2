// The provoking vertex mode (VK_EXT_provoking_vertex) through the loader with validation, on
// Tessera and on lavapipe in one instance (dual_driver.h).
//
// "Flat Shading": a flat input takes the value of the primitive's provoking vertex, which
// "Primitive Topologies" gives per topology for VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT and
// VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT (and, with a geometry stage, the output topology's:
// its line and triangle strips). Each scene draws the same primitives three times into a
// 96x32 RGBA32_UINT target, one 32x32 viewport each: a pipeline without the structure (FIRST
// by default), one with FIRST and one with LAST, in one render pass instance
// (provokingVertexModePerPipeline). The vertex stage's flat output is its VertexIndex (the
// geometry stage's: its vertex's number in the strip), so a pixel inside each primitive shows
// which vertex provoked it: the test computes every primitive and its provoking vertex from the
// spec's equations here and requires the pixel at its centroid (a line's midpoint) to hold it,
// on both drivers, and the two drivers' images to agree everywhere. Clipping must keep the
// provoking vertex's values even when the clip removes that vertex ("Primitive Clipping").
// The mode must change nothing else: on Tessera every scene's LAST box must cover the same
// texels as its FIRST box, and with bit-identical smooth values and depths where a scene
// writes them (expectOnlyFlatValuesChange). lavapipe 22.3 agrees with the spec's tables in
// every case here.
//
// "Transform Feedback Capture" with transformFeedbackPreservesProvokingVertex: the provoking
// vertex is written first (FIRST) or last (LAST), the winding that of the topology, fans
// included (transformFeedbackPreservesTriangleFanProvokingVertex). The order of each captured
// primitive is computed here from the equations and required from both drivers.
//
// api_tests.reference_raster repeats these on the reference draw path.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kBox = 32;                  // one viewport per pipeline
constexpr uint32_t kWidth = 3 * kBox, kHeight = kBox;
using Image = std::vector<uint32_t>;           // kWidth x kHeight texels of 4 words

enum Mode : uint32_t { kNoStructure = 0, kFirst = 1, kLast = 2 };
const char* const kModeNames[3] = {"no structure", "FIRST", "LAST"};

// "Primitive Topologies": the vertices of primitive i, as the topology's equation lists the
// ones that are rasterized (an adjacency primitive's line or triangle), and its provoking vertex
// in each mode.
struct SpecPrimitive {
  std::vector<uint32_t> vertices;
  uint32_t first, last;
};

std::vector<SpecPrimitive> specPrimitives(VkPrimitiveTopology t, uint32_t n) {
  std::vector<SpecPrimitive> out;
  switch (t) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
      for (uint32_t i = 0; i < n; ++i) out.push_back({{i}, i, i});
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:
      for (uint32_t i = 0; i < n / 2; ++i) out.push_back({{2 * i, 2 * i + 1}, 2 * i, 2 * i + 1});
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:
      for (uint32_t i = 0; i + 1 < n; ++i) out.push_back({{i, i + 1}, i, i + 1});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:
      for (uint32_t i = 0; i < n / 3; ++i) out.push_back({{3 * i, 3 * i + 1, 3 * i + 2}, 3 * i, 3 * i + 2});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
      for (uint32_t i = 0; i + 2 < n; ++i) out.push_back({{i, i + (1 + i % 2), i + (2 - i % 2)}, i, i + 2});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:
      for (uint32_t i = 0; i + 2 < n; ++i) out.push_back({{i + 1, i + 2, 0}, i + 1, i + 2});
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
      for (uint32_t i = 0; i < n / 4; ++i) out.push_back({{4 * i + 1, 4 * i + 2}, 4 * i + 1, 4 * i + 2});
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
      for (uint32_t i = 0; i + 3 < n; ++i) out.push_back({{i + 1, i + 2}, i + 1, i + 2});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
      for (uint32_t i = 0; i < n / 6; ++i) out.push_back({{6 * i, 6 * i + 2, 6 * i + 4}, 6 * i, 6 * i + 4});
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
      // The triangle is the 1st, 3rd and 5th vertex of p_i: v(2i), then v(2i+2) and v(2i+4),
      // swapped for odd i.
      for (uint32_t i = 0; n >= 4 && i < (n - 4) / 2; ++i)
        out.push_back({{2 * i, 2 * i + 2 + 2 * (i % 2), 2 * i + 4 - 2 * (i % 2)}, 2 * i, 2 * i + 4});
      break;
    default:
      break;
  }
  return out;
}

// One scene: the positions of its vertices in box pixels (x, y, clip z), the geometry stage
// (null: none) and what it emits per input point, and the primitives to probe with the value
// each mode must give.
struct Probe {
  uint32_t x, y;            // box pixel
  uint32_t value[2];        // the flat word there: FIRST, LAST
};
struct Scene {
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const char* geometryShader = nullptr;
  VkPolygonMode polygonMode = VK_POLYGON_MODE_FILL;
  std::vector<std::array<float, 3>> positions;
  std::vector<float> w;  // clip w of each vertex (empty: 1), the position scaled by it
  // provoking_mixed.vert/.frag instead of gs_passthrough.vert/gs_words.frag: a smooth value and
  // the depth beside the flat word (no geometry stage).
  bool mixed = false;
  std::vector<Probe> probes;
};

// A pixel whose centre lies inside the primitive with these corners (box pixels): a point's or
// a line's midpoint's pixel, a triangle's centroid's; for a triangle the test requires the
// centre a quarter pixel inside every edge, so that no rasterization rule could leave it out.
std::array<uint32_t, 2> probeOf(const std::vector<std::array<float, 2>>& corners) {
  float cx = 0, cy = 0;
  for (const auto& c : corners) cx += c[0], cy += c[1];
  cx /= float(corners.size()), cy /= float(corners.size());
  const std::array<uint32_t, 2> pixel = {uint32_t(std::floor(cx)), uint32_t(std::floor(cy))};
  if (corners.size() == 3) {
    const float px = float(pixel[0]) + 0.5f, py = float(pixel[1]) + 0.5f;
    // Signed distances of the centre from the three edges, all of one sign and >= 1/4.
    float sign = 0;
    for (int e = 0; e < 3; ++e) {
      const auto& a = corners[e];
      const auto& b = corners[(e + 1) % 3];
      const float length = std::hypot(b[0] - a[0], b[1] - a[1]);
      const float d = ((b[0] - a[0]) * (py - a[1]) - (b[1] - a[1]) * (px - a[0])) / length;
      if (sign == 0) sign = d > 0 ? 1.0f : -1.0f;
      EXPECT_GE(d * sign, 0.25f) << "probe (" << pixel[0] << ", " << pixel[1] << ") is not well inside its triangle";
    }
  }
  return pixel;
}

// Probes for every primitive of the scene's topology over its positions (no geometry stage):
// the spec's primitives and provoking vertices, flat word = VertexIndex.
void probeTopology(Scene& s) {
  for (const SpecPrimitive& p : specPrimitives(s.topology, uint32_t(s.positions.size()))) {
    std::vector<std::array<float, 2>> corners;
    for (uint32_t v : p.vertices) corners.push_back({s.positions[v][0], s.positions[v][1]});
    const std::array<uint32_t, 2> at = probeOf(corners);
    s.probes.push_back({at[0], at[1], {p.first, p.last}});
  }
}

// Renders the scene with the three pipelines (kNoStructure, kFirst, kLast), draw k into the
// viewport of box k.
Image render(VkPhysicalDevice pd, const Scene& scene) {
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &provoking};
  vkGetPhysicalDeviceFeatures2(pd, &query);
  EXPECT_TRUE(provoking.provokingVertexLast);
  if (!provoking.provokingVertexLast) return {};
  provoking.transformFeedbackPreservesProvokingVertex = VK_FALSE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &provoking};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.geometryShader = VK_TRUE;   // adjacency topologies, geometry stages
  features.fillModeNonSolid = VK_TRUE;  // polygon mode LINE
  TestDevice device(pd, &features, &v13, {"VK_EXT_provoking_vertex"});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with provokingVertexLast";
  if (!dev) return {};

  const VkFormat format = VK_FORMAT_R32G32B32A32_UINT;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kWidth, kHeight, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
  VkImage color;
  vkCreateImage(dev, &ici, nullptr, &color);
  device.bindMemory(color);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = color;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view;
  vkCreateImageView(dev, &vci, nullptr, &view);
  void *vertexMap, *readbackMap;
  const size_t count = std::max<size_t>(scene.positions.size(), 1);
  const VkBuffer vertices = device.createMappedBuffer(count * 16, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  for (size_t v = 0; v < scene.positions.size(); ++v) {
    // Box pixels to clip coordinates of a 32x32 viewport.
    const float w = v < scene.w.size() ? scene.w[v] : 1.0f;
    const float clip[4] = {w * (scene.positions[v][0] / 16.0f - 1.0f), w * (scene.positions[v][1] / 16.0f - 1.0f),
                           w * scene.positions[v][2], w};
    std::memcpy(static_cast<uint8_t*>(vertexMap) + 16 * v, clip, 16);
  }
  const VkBuffer readback = device.createMappedBuffer(kWidth * kHeight * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readbackMap);

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  const std::pair<VkShaderStageFlagBits, const char*> stageShaders[3] = {
      {VK_SHADER_STAGE_VERTEX_BIT, scene.mixed ? "provoking_mixed_vert" : "gs_passthrough_vert"},
      {VK_SHADER_STAGE_GEOMETRY_BIT, scene.geometryShader},
      {VK_SHADER_STAGE_FRAGMENT_BIT, scene.mixed ? "provoking_mixed_frag" : "gs_words_frag"}};
  for (const auto& [stage, name] : stageShaders) {
    if (!name) continue;
    const VkShaderModule m = device.createShaderModule(loadCorpusShader(name));
    modules.push_back(m);
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, m, "main", nullptr});
  }
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
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
  ia.topology = scene.topology;
  VkRect2D scissor{{0, 0}, {kWidth, kHeight}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, nullptr, 1, &scissor};
  const VkDynamicState dynamicViewport = VK_DYNAMIC_STATE_VIEWPORT;
  VkPipelineDynamicStateCreateInfo dyn{VK_STRUCTURE_TYPE_PIPELINE_DYNAMIC_STATE_CREATE_INFO, nullptr, 0, 1, &dynamicViewport};
  VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
  ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
  VkPipelineColorBlendAttachmentState blend{};
  blend.colorWriteMask = 0xF;
  VkPipelineColorBlendStateCreateInfo cb{VK_STRUCTURE_TYPE_PIPELINE_COLOR_BLEND_STATE_CREATE_INFO};
  cb.attachmentCount = 1;
  cb.pAttachments = &blend;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
  VkPipeline pipelines[3] = {};
  for (uint32_t mode = 0; mode < 3; ++mode) {
    VkPipelineRasterizationProvokingVertexStateCreateInfoEXT pv{
        VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
    pv.provokingVertexMode = mode == kLast ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.pNext = mode == kNoStructure ? nullptr : &pv;
    rs.polygonMode = scene.polygonMode;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = uint32_t(stages.size());
    gpci.pStages = stages.data();
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.pDynamicState = &dyn;
    gpci.layout = layout;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipelines[mode]), VK_SUCCESS);
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
  ri.renderArea = scissor;
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &colorAtt;
  vkCmdBeginRendering(cmd, &ri);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
  for (uint32_t mode = 0; mode < 3; ++mode) {
    const VkViewport viewport{float(mode * kBox), 0, float(kBox), float(kBox), 0, 1};
    vkCmdSetViewport(cmd, 0, 1, &viewport);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[mode]);
    vkCmdDraw(cmd, uint32_t(scene.positions.size()), 1, 0, 0);
  }
  vkCmdEndRendering(cmd);
  VkImageMemoryBarrier toTransfer = toAttachment;
  toTransfer.srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  toTransfer.dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  toTransfer.oldLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  toTransfer.newLayout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0,
                       nullptr, 1, &toTransfer);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kWidth, kHeight, 1};
  vkCmdCopyImageToBuffer(cmd, color, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  Image texels(size_t(kWidth) * kHeight * 4);
  std::memcpy(texels.data(), readbackMap, texels.size() * 4);

  for (VkPipeline p : pipelines) vkDestroyPipeline(dev, p, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, color, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  return texels;
}

const uint32_t* texel(const Image& img, uint32_t x, uint32_t y) { return &img[size_t(y * kWidth + x) * 4]; }

// The probes of every box: the box without the structure and the FIRST one hold the FIRST
// values, the LAST one the LAST values; a probed pixel was drawn (word 3 is 1).
void expectProbes(const char* driver, const Image& img, const Scene& scene) {
  ASSERT_EQ(img.size(), size_t(kWidth) * kHeight * 4) << driver;
  for (uint32_t mode = 0; mode < 3; ++mode)
    for (const Probe& p : scene.probes) {
      const uint32_t* t = texel(img, mode * kBox + p.x, p.y);
      const uint32_t want = p.value[mode == kLast ? 1 : 0];
      EXPECT_EQ(t[3], 1u) << driver << ", " << kModeNames[mode] << ": nothing drawn at (" << p.x << ", " << p.y << ")";
      EXPECT_EQ(t[0], want) << driver << ", " << kModeNames[mode] << ": the flat value at (" << p.x << ", " << p.y << ")";
    }
}

// Tessera's image against lavapipe's: the flat word (0) and whether a fragment was written
// (3) everywhere; the smooth value and depth of provoking_mixed.frag may differ in rounding.
// In polygon mode LINE the drivers draw slanted edges differently (Tessera non-strict
// parallelograms, lavapipe rectangles: tests/api/draw_test.cpp PolygonModeLineMatchesLavapipe),
// so there only the texels both drew must agree, and at most `oneSided` are drawn by one alone.
void expectSameImage(const Image& got, const Image& want, uint32_t oneSided = 0) {
  ASSERT_EQ(got.size(), want.size());
  uint32_t different = 0, drawnByOne = 0;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth; ++x) {
      const uint32_t* a = texel(got, x, y);
      const uint32_t* b = texel(want, x, y);
      if (oneSided && a[3] != b[3]) {
        ++drawnByOne;
        continue;
      }
      if (a[0] == b[0] && a[3] == b[3]) continue;
      if (++different <= 6)
        ADD_FAILURE() << "Tessera against lavapipe: texel (" << x << ", " << y << ") is " << a[0] << "/" << a[3] << ", lavapipe's "
                      << b[0] << "/" << b[3];
    }
  EXPECT_EQ(different, 0u) << "texels that differ from lavapipe's";
  EXPECT_LE(drawnByOne, oneSided) << "texels only one driver drew";
}

// "Flat Shading": the provoking vertex mode chooses where flat values come from and nothing
// else, so the box drawn without the structure equals the FIRST one, and the LAST box covers
// the same texels with bit-identical smooth values and depths (words 1 to 3); only flat words
// may differ. (Tessera keeps every primitive's vertex order, its clipped polygon's fan and its
// interpolation's base vertex whatever the mode, draw_internal.h assemblePrimitives.)
void expectOnlyFlatValuesChange(const Image& img) {
  ASSERT_EQ(img.size(), size_t(kWidth) * kHeight * 4);
  uint32_t different = 0;
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kBox; ++x) {
      const uint32_t* none = texel(img, kNoStructure * kBox + x, y);
      const uint32_t* first = texel(img, kFirst * kBox + x, y);
      const uint32_t* last = texel(img, kLast * kBox + x, y);
      if (std::memcmp(none, first, 16) == 0 && std::memcmp(first + 1, last + 1, 12) == 0) continue;
      if (++different <= 6)
        ADD_FAILURE() << "box texel (" << x << ", " << y << "): without the structure " << none[0] << "/" << none[1] << "/"
                      << none[2] << "/" << none[3] << ", FIRST " << first[0] << "/" << first[1] << "/" << first[2] << "/"
                      << first[3] << ", LAST " << last[0] << "/" << last[1] << "/" << last[2] << "/" << last[3];
    }
  EXPECT_EQ(different, 0u) << "texels where the mode changed more than the flat value";
}

void checkBothDrivers(const Scene& scene, uint32_t oneSided = 0) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Image ours = render(drivers.tessera, scene);
  expectProbes("Tessera", ours, scene);
  expectOnlyFlatValuesChange(ours);
  if (!drivers.lavapipe) return;
  const Image theirs = render(drivers.lavapipe, scene);
  expectProbes("lavapipe", theirs, scene);
  expectSameImage(ours, theirs, oneSided);
}

#define SKIP_WHEN_OTHER_DRIVER() \
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself"

// Box pixels, z = 0. Lines are off the pixel centres' rows and columns (x.2 / y.3), so no
// rule's tie decides the probed pixels.
std::array<float, 3> at(float x, float y, float z = 0.0f) { return {x, y, z}; }

// "Point Lists", "Line Lists", "Line Strips": the provoking vertex of a point is itself; of line
// i v(2i) / v(2i+1) in a list, v(i) / v(i+1) in a strip.
TEST(ProvokingVertex, PointsAndLinesTakeTheirTopologysProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene points;
  points.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  points.positions = {at(4.5f, 4.5f), at(9.5f, 6.5f), at(20.5f, 27.5f)};
  probeTopology(points);
  checkBothDrivers(points);
  Scene list;
  list.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  list.positions = {at(2.2f, 4.3f), at(28.2f, 4.3f), at(29.2f, 9.3f), at(3.2f, 9.3f), at(5.2f, 12.2f), at(5.2f, 30.2f)};
  probeTopology(list);
  checkBothDrivers(list);
  Scene strip;
  strip.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
  strip.positions = {at(2.2f, 3.3f), at(28.2f, 3.3f), at(28.2f, 28.3f), at(4.2f, 28.3f), at(4.2f, 8.3f)};
  probeTopology(strip);
  checkBothDrivers(strip);
}

// "Triangle Lists", "Triangle Strips", "Triangle Fans": v(3i) / v(3i+2), v(i) / v(i+2),
// v(i+1) / v(i+2).
TEST(ProvokingVertex, TrianglesTakeTheirTopologysProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene list;
  list.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  list.positions = {at(2, 2), at(28, 3), at(3, 14), at(30, 17), at(29, 31), at(4, 30)};
  probeTopology(list);
  checkBothDrivers(list);
  Scene strip;  // a zigzag of six triangles
  strip.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  for (uint32_t k = 0; k < 8; ++k) strip.positions.push_back(at(2.0f + 4.0f * float(k), k % 2 ? 26.0f : 3.0f));
  probeTopology(strip);
  checkBothDrivers(strip);
  Scene fan;  // five triangles around (16, 16)
  fan.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
  fan.positions = {at(16, 16), at(31, 16), at(27, 29), at(10, 31), at(1, 20), at(5, 3), at(24, 1)};
  probeTopology(fan);
  checkBothDrivers(fan);
}

// The four adjacency topologies without a geometry stage draw their lines and triangles with
// the provoking vertices of "Line Lists With Adjacency" (v(4i+1) / v(4i+2)), "Line Strips With
// Adjacency" (v(i+1) / v(i+2)), "Triangle Lists With Adjacency" (v(6i) / v(6i+4)) and
// "Triangle Strips With Adjacency" (v(2i) / v(2i+4)); the adjacent vertices lie far outside.
TEST(ProvokingVertex, AdjacencyTopologiesTakeTheirProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  const std::array<float, 3> far = at(-300.0f, 900.0f);
  Scene lineList;
  lineList.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY;
  lineList.positions = {far, at(2.2f, 5.3f), at(29.2f, 5.3f), far, far, at(3.2f, 20.3f), at(27.2f, 24.3f), far};
  probeTopology(lineList);
  checkBothDrivers(lineList);
  Scene lineStrip;
  lineStrip.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
  lineStrip.positions = {far, at(2.2f, 3.3f), at(28.2f, 3.3f), at(28.2f, 29.3f), at(3.2f, 29.3f), far};
  probeTopology(lineStrip);
  checkBothDrivers(lineStrip);
  Scene triangleList;
  triangleList.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
  triangleList.positions = {at(2, 2), far, at(28, 3), far, at(3, 14), far, at(30, 17), far, at(29, 31), far, at(4, 30), far};
  probeTopology(triangleList);
  checkBothDrivers(triangleList);
  Scene triangleStrip;  // v0, v2, v4, ... a zigzag of four triangles
  triangleStrip.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
  for (uint32_t v = 0; v < 12; ++v)
    triangleStrip.positions.push_back(v % 2 ? far : at(2.0f + 6.0f * float(v / 2), (v / 2) % 2 ? 28.0f : 3.0f));
  probeTopology(triangleStrip);
  checkBothDrivers(triangleStrip);
}

// "Primitive Clipping": a triangle whose provoking vertex is cut away by the near plane
// (z_c < 0; its values "are those of the provoking vertex" still: clipping makes new vertices,
// not a new provoking vertex). Triangle 0 loses v0, FIRST's provoking vertex; triangle 1 loses
// v5, LAST's. The probes lie in the parts that remain (z >= 0 at the centroids).
TEST(ProvokingVertex, ClippingKeepsTheProvokingVertexsValues) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene s;
  s.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  s.positions = {at(2, 2, -1), at(30, 2, 1), at(2, 30, 1), at(31, 4, 1), at(31, 31, 1), at(4, 31, -1)};
  probeTopology(s);
  checkBothDrivers(s);
}

// "Flat Shading" and "Primitive Clipping": the mode changes the flat values alone. Smooth
// values (perspective-correct: every vertex has its own w) and depths must come out
// bit-identical in FIRST and LAST mode, and every texel covered the same, also where the near
// plane cuts triangles into polygons (expectOnlyFlatValuesChange, run on every scene; these
// scenes add a smooth value and the depth to the target: provoking_mixed.frag).
TEST(ProvokingVertex, ModeChangesOnlyFlatValues) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene clipped;
  clipped.mixed = true;
  clipped.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  clipped.positions = {at(2, 2, -1), at(30, 2, 0.9f), at(2, 30, 0.7f), at(31, 4, 0.8f), at(31, 31, 0.3f), at(4, 31, -1)};
  clipped.w = {1.0f, 2.5f, 0.75f, 1.5f, 3.0f, 1.25f};
  probeTopology(clipped);
  checkBothDrivers(clipped);
  Scene strip;
  strip.mixed = true;
  strip.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  for (uint32_t k = 0; k < 8; ++k) {
    strip.positions.push_back(at(2.0f + 4.0f * float(k), k % 2 ? 26.0f : 3.0f, k == 3 ? -0.5f : 0.1f * float(k)));
    strip.w.push_back(1.0f + 0.3f * float(k % 3));
  }
  probeTopology(strip);
  std::erase_if(strip.probes, [](const Probe& p) { return p.value[0] == 1 || p.value[0] == 2 || p.value[0] == 3; });
  checkBothDrivers(strip);
  Scene fan;
  fan.mixed = true;
  fan.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
  fan.positions = {at(16, 16, 0.5f), at(31, 16, 0.1f), at(27, 29, 0.9f), at(10, 31, 0.2f), at(1, 20, 0.6f), at(5, 3, 0.3f), at(24, 1, 0.8f)};
  fan.w = {1.0f, 2.0f, 0.5f, 1.5f, 3.0f, 0.8f, 1.2f};
  probeTopology(fan);
  checkBothDrivers(fan);
}

// "Polygon Mode" LINE and POINT: the edges and vertices of a triangle are its own, so they take
// the triangle's provoking vertex (v(3i) / v(3i+2)); the probes lie on the horizontal and
// vertical edges, and on the vertices.
TEST(ProvokingVertex, PolygonModeEdgesAndVerticesTakeTheTrianglesProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene s;
  s.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  s.polygonMode = VK_POLYGON_MODE_LINE;
  s.positions = {at(2.2f, 2.3f), at(28.2f, 2.3f), at(2.2f, 14.3f), at(2.2f, 17.3f), at(28.2f, 17.3f), at(2.2f, 29.3f)};
  s.probes = {{15, 2, {0, 2}}, {2, 8, {0, 2}}, {15, 17, {3, 5}}, {2, 23, {3, 5}}};
  checkBothDrivers(s, 24);
  // POINT: each vertex drawn as a point with the triangle's flat values, not its own.
  s.polygonMode = VK_POLYGON_MODE_POINT;
  s.probes.clear();
  for (uint32_t v = 0; v < 6; ++v)
    s.probes.push_back({uint32_t(s.positions[v][0]), uint32_t(s.positions[v][1]), {v < 3 ? 0u : 3u, v < 3 ? 2u : 5u}});
  checkBothDrivers(s);
}

// With a geometry stage the provoking vertex is that of its output topology ("Flat Shading"):
// a triangle strip's v(i) / v(i+2) (provoking_strips.geom: three triangles, words 100 + k) and
// a line strip's v(i) / v(i+1) (provoking_lines.geom: two lines, words 200 + k).
TEST(ProvokingVertex, GeometryStageStripsTakeTheOutputTopologysProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  Scene triangles;
  triangles.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  triangles.geometryShader = "provoking_strips_geom";
  triangles.positions = {at(2, 4), at(2, 18)};
  for (const auto& origin : triangles.positions) {
    std::vector<std::array<float, 2>> strip;
    for (uint32_t k = 0; k < 5; ++k) strip.push_back({origin[0] + 6.0f * float(k), origin[1] + (k % 2 ? 12.0f : 0.0f)});
    for (const SpecPrimitive& p : specPrimitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 5)) {
      const std::array<uint32_t, 2> px = probeOf({strip[p.vertices[0]], strip[p.vertices[1]], strip[p.vertices[2]]});
      triangles.probes.push_back({px[0], px[1], {100 + p.first, 100 + p.last}});
    }
  }
  checkBothDrivers(triangles);
  Scene lines;
  lines.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  lines.geometryShader = "provoking_lines_geom";
  lines.positions = {at(2.2f, 3.3f), at(16.2f, 18.3f)};
  for (const auto& origin : lines.positions) {
    const std::array<float, 2> strip[3] = {{origin[0], origin[1]}, {origin[0] + 12.1f, origin[1]}, {origin[0] + 12.1f, origin[1] + 10.2f}};
    for (const SpecPrimitive& p : specPrimitives(VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 3)) {
      const std::array<uint32_t, 2> px = probeOf({strip[p.vertices[0]], strip[p.vertices[1]]});
      lines.probes.push_back({px[0], px[1], {200 + p.first, 200 + p.last}});
    }
  }
  checkBothDrivers(lines);
}

// ---- Transform feedback ----

// The order "Transform Feedback Capture" requires of primitive p with
// transformFeedbackPreservesProvokingVertex: the topology's winding (the equation's cyclic
// order) with the provoking vertex first (FIRST) or last (LAST).
std::vector<uint32_t> captureOrder(const SpecPrimitive& p, bool last) {
  std::vector<uint32_t> v = p.vertices;  // the equation's order: its provoking vertex (FIRST) is first
  if (last) {
    const auto provoking = std::find(v.begin(), v.end(), p.last);
    std::rotate(v.begin(), provoking + 1, v.end());  // ... then ends with LAST's
  }
  return v;
}

// Captures the VertexIndex of every vertex written (provoking_xfb.vert) or the geometry stage's
// words (provoking_xfb.geom), with rasterizer discard, in mode FIRST or LAST.
std::vector<uint32_t> capture(VkPhysicalDevice pd, VkPrimitiveTopology topology, uint32_t vertexCount, bool last,
                              bool geometryStage) {
  VkPhysicalDeviceProvokingVertexFeaturesEXT provoking{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_FEATURES_EXT};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT, &provoking};
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feedback};
  vkGetPhysicalDeviceFeatures2(pd, &query);
  VkPhysicalDeviceProvokingVertexPropertiesEXT properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &properties};
  vkGetPhysicalDeviceProperties2(pd, &props);
  EXPECT_TRUE(provoking.transformFeedbackPreservesProvokingVertex && feedback.transformFeedback);
  EXPECT_TRUE(properties.provokingVertexModePerPipeline);
  EXPECT_TRUE(properties.transformFeedbackPreservesTriangleFanProvokingVertex);
  if (!provoking.transformFeedbackPreservesProvokingVertex || !feedback.transformFeedback) return {};
  feedback.geometryStreams = VK_FALSE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &feedback};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.geometryShader = VK_TRUE;
  TestDevice device(pd, &features, &v13, {"VK_EXT_provoking_vertex", "VK_EXT_transform_feedback"});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  auto bind = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(vkGetDeviceProcAddr(dev, "vkCmdBindTransformFeedbackBuffersEXT"));
  auto begin = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginTransformFeedbackEXT"));
  auto end = reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndTransformFeedbackEXT"));
  EXPECT_TRUE(bind && begin && end);
  if (!bind || !begin || !end) return {};

  void *vertexMap, *captureMap;
  const VkBuffer vertices = device.createMappedBuffer(16 * vertexCount, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  for (uint32_t v = 0; v < vertexCount; ++v) {
    const float p[4] = {0.1f * float(v), -0.05f * float(v), 0.5f, 1.0f};
    std::memcpy(static_cast<uint8_t*>(vertexMap) + 16 * v, p, 16);
  }
  const VkBuffer buffer = device.createMappedBuffer(1024, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, &captureMap);
  std::memset(captureMap, 0xFF, 1024);
  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (const auto& [stage, name] : {std::pair{VK_SHADER_STAGE_VERTEX_BIT, geometryStage ? "gs_passthrough_vert" : "provoking_xfb_vert"},
                                    std::pair{VK_SHADER_STAGE_GEOMETRY_BIT, geometryStage ? "provoking_xfb_geom" : nullptr}}) {
    if (!name) continue;
    modules.push_back(device.createShaderModule(loadCorpusShader(name)));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  }
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO, nullptr, 0, 1, &binding, 1, &attribute};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = topology;
  VkPipelineRasterizationProvokingVertexStateCreateInfoEXT pv{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_PROVOKING_VERTEX_STATE_CREATE_INFO_EXT};
  pv.provokingVertexMode = last ? VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT : VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, &pv};
  rs.rasterizerDiscardEnable = VK_TRUE;
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.lineWidth = 1.0f;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = uint32_t(stages.size());
  gpci.pStages = stages.data();
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pRasterizationState = &rs;
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
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {16, 16}};
  ri.layerCount = 1;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize zero = 0, size = 1024;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  bind(cmd, 0, 1, &buffer, &zero, &size);
  begin(cmd, 0, 0, nullptr, nullptr);
  vkCmdDraw(cmd, vertexCount, 1, 0, 0);
  end(cmd, 0, 0, nullptr, nullptr);
  vkCmdEndRendering(cmd);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                       nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint32_t> words(256);
  std::memcpy(words.data(), captureMap, 1024);
  words.erase(std::find(words.begin(), words.end(), 0xFFFFFFFFu), words.end());  // what was written

  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  vkDestroyBuffer(dev, buffer, nullptr);
  return words;
}

// Every topology's primitives, captured in both modes.
TEST(ProvokingVertex, TransformFeedbackWritesTheProvokingVertexFirstOrLast) {
  SKIP_WHEN_OTHER_DRIVER();
  const std::pair<VkPrimitiveTopology, uint32_t> topologies[] = {
      {VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 3},
      {VK_PRIMITIVE_TOPOLOGY_LINE_LIST, 6},
      {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, 5},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, 9},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 7},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, 6},
      {VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY, 8},
      {VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY, 6},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY, 12},
      {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY, 12},
  };
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const auto& [topology, count] : topologies)
    for (bool last : {false, true}) {
      SCOPED_TRACE("topology " + std::to_string(topology) + (last ? ", LAST" : ", FIRST"));
      std::vector<uint32_t> expected;
      for (const SpecPrimitive& p : specPrimitives(topology, count))
        for (uint32_t v : captureOrder(p, last)) expected.push_back(v);
      EXPECT_EQ(capture(drivers.tessera, topology, count, last, false), expected) << "Tessera";
      if (drivers.lavapipe) {
        EXPECT_EQ(capture(drivers.lavapipe, topology, count, last, false), expected) << "lavapipe";
      }
    }
}

// A geometry stage's triangle strips (provoking_xfb.geom: two triangles per input point, words
// 16 p + k) are captured in the output topology's order with the provoking vertex first or last.
TEST(ProvokingVertex, TransformFeedbackOfGeometryStageStripsKeepsTheProvokingVertex) {
  SKIP_WHEN_OTHER_DRIVER();
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (bool last : {false, true}) {
    SCOPED_TRACE(last ? "LAST" : "FIRST");
    std::vector<uint32_t> expected;
    for (uint32_t point = 0; point < 2; ++point)
      for (const SpecPrimitive& p : specPrimitives(VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP, 4))
        for (uint32_t k : captureOrder(p, last)) expected.push_back(16 * point + k);
    EXPECT_EQ(capture(drivers.tessera, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 2, last, true), expected) << "Tessera";
    if (drivers.lavapipe) {
      EXPECT_EQ(capture(drivers.lavapipe, VK_PRIMITIVE_TOPOLOGY_POINT_LIST, 2, last, true), expected) << "lavapipe";
    }
  }
}

}  // namespace
}  // namespace tessera_test
