// Tessellation ("Tessellation", "Tessellation Control Shaders", "Tessellation Evaluation
// Shaders") through the loader with validation, on Tessera and on lavapipe in one instance
// (dual_driver.h). Every draw renders into a 32x32 RGBA32_UINT target whose texels are the
// words the evaluation (or geometry) stage passed on (tests/shaders/tess_*.tesc/.tese,
// gs_words.frag). Where the image does not depend on how an implementation triangulates a
// patch (the union of a quad patch's triangles is its rectangle, of a triangle patch its
// triangle; point mode's points and isolines' lines lie where the chapter's rules put them),
// the test computes it from the spec and requires it from both drivers; otherwise (a
// displaced surface) it requires the two drivers to agree.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
using Image = std::vector<uint32_t>;  // kSize x kSize texels of 4 words, 0 where nothing was drawn

struct TessellationSetup {
  const char* controlShader = "tess_levels_tesc";
  const char* evaluationShader = "tess_quad_equal_tese";
  const char* geometryShader = nullptr;
  float outer[4] = {1, 1, 1, 1};
  float inner[2] = {1, 1};
  float displacement = 0;  // pixels (tess_quad_*.tese)
  uint32_t patchControlPoints = 4;
  std::vector<std::array<float, 4>> positions;  // binding 0, one per control point
  uint32_t layers = 1;    // of the target (a 2D array view when more than 1), all read back
  uint32_t viewMask = 0;  // multiview (dynamic rendering's viewMask), with multiviewTessellationShader
  // An indexed draw of these 32-bit indices with primitive restart (0xFFFFFFFF) enabled,
  // primitiveTopologyPatchListRestart; when empty, a plain draw of every position.
  std::vector<uint32_t> indices;
};

std::array<float, 4> pixel(float x, float y) { return {x / 16.0f - 1.0f, y / 16.0f - 1.0f, 0.0f, 1.0f}; }

// A quad patch's control points: 0 top left, 1 top right, 2 bottom right, 3 bottom left.
void addQuad(TessellationSetup& s, float x0, float y0, float x1, float y1) {
  for (auto [x, y] : {std::pair{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}) s.positions.push_back(pixel(x, y));
}

Image render(VkPhysicalDevice pd, const TessellationSetup& setup) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v13};
  v11.multiview = v11.multiviewTessellationShader = setup.viewMask != 0;
  VkPhysicalDeviceFeatures features{};
  features.tessellationShader = VK_TRUE;
  features.geometryShader = setup.geometryShader != nullptr;
  // Primitive restart in a patch list needs VK_EXT_primitive_topology_list_restart's features.
  VkPhysicalDevicePrimitiveTopologyListRestartFeaturesEXT listRestart{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVE_TOPOLOGY_LIST_RESTART_FEATURES_EXT, &v11};
  listRestart.primitiveTopologyListRestart = listRestart.primitiveTopologyPatchListRestart = VK_TRUE;
  const bool indexed = !setup.indices.empty();
  TestDevice device(pd, &features, indexed ? static_cast<const void*>(&listRestart) : &v11,
                    indexed ? std::vector<const char*>{VK_EXT_PRIMITIVE_TOPOLOGY_LIST_RESTART_EXTENSION_NAME}
                            : std::vector<const char*>{});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with tessellationShader";
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
  void* indexMap;
  const VkBuffer indexBuffer =
      indexed ? device.createMappedBuffer(setup.indices.size() * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &indexMap) : VK_NULL_HANDLE;
  if (indexed) std::memcpy(indexMap, setup.indices.data(), setup.indices.size() * 4);

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  const std::pair<VkShaderStageFlagBits, const char*> stageShaders[] = {
      {VK_SHADER_STAGE_VERTEX_BIT, "tess_passthrough_vert"},
      {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, setup.controlShader},
      {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, setup.evaluationShader},
      {VK_SHADER_STAGE_GEOMETRY_BIT, setup.geometryShader},
      {VK_SHADER_STAGE_FRAGMENT_BIT, "gs_words_frag"}};
  for (const auto& [stage, name] : stageShaders) {
    if (!name) continue;
    const VkShaderModule m = device.createShaderModule(loadCorpusShader(name));
    modules.push_back(m);
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, m, "main", nullptr});
  }
  const VkShaderStageFlags pushStages = VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT | VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT;
  const VkPushConstantRange push{pushStages, 0, 36};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.pushConstantRangeCount = 1;
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
  ia.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  ia.primitiveRestartEnable = indexed;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
  ts.patchControlPoints = setup.patchControlPoints;
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
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, setup.viewMask, 1, &format};
  VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
  gpci.stageCount = uint32_t(stages.size());
  gpci.pStages = stages.data();
  gpci.pVertexInputState = &vi;
  gpci.pInputAssemblyState = &ia;
  gpci.pTessellationState = &ts;
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
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize offset = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &offset);
  float constants[9] = {setup.outer[0], setup.outer[1], setup.outer[2], setup.outer[3], setup.inner[0], setup.inner[1], 0, 0,
                        setup.displacement};
  vkCmdPushConstants(cmd, layout, pushStages, 0, 36, constants);
  if (indexed) {
    vkCmdBindIndexBuffer(cmd, indexBuffer, 0, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(cmd, uint32_t(setup.indices.size()), 1, 0, 0, 0);
  } else {
    vkCmdDraw(cmd, uint32_t(setup.positions.size()), 1, 0, 0);
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
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, color, nullptr);
  vkDestroyBuffer(dev, vertices, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  if (indexBuffer) vkDestroyBuffer(dev, indexBuffer, nullptr);
  return texels;
}

uint32_t* texel(Image& img, uint32_t x, uint32_t y) { return &img[size_t(y * kSize + x) * 4]; }

void expectSameImage(const std::string& what, const Image& got, const Image& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  uint32_t different = 0;
  for (uint32_t y = 0; y < got.size() / (4 * kSize); ++y)  // rows of every layer
    for (uint32_t x = 0; x < kSize; ++x) {
      const uint32_t* a = &got[size_t(y * kSize + x) * 4];
      const uint32_t* b = &want[size_t(y * kSize + x) * 4];
      if (std::memcmp(a, b, 16) == 0) continue;
      if (++different <= 6)
        ADD_FAILURE() << what << ": texel (" << x << ", " << y << ") is " << a[0] << "," << a[1] << "," << a[2] << ","
                      << a[3] << ", expected " << b[0] << "," << b[1] << "," << b[2] << "," << b[3];
    }
  EXPECT_EQ(different, 0u) << what << ": texels that differ";
}

// Renders on Tessera and on lavapipe (when installed); both must give `expected` (when given),
// and each other. Returns Tessera's image.
Image checkBothDrivers(const std::string& what, const TessellationSetup& setup, const Image* expected) {
  DualDriverInstance drivers;
  EXPECT_NE(drivers.tessera, VK_NULL_HANDLE);
  if (!drivers.tessera) return {};
  const Image ours = render(drivers.tessera, setup);
  if (expected) expectSameImage(what + ", Tessera against the spec", ours, *expected);
  if (!drivers.lavapipe) return ours;
  const Image theirs = render(drivers.lavapipe, setup);
  if (expected) expectSameImage(what + ", lavapipe against the spec", theirs, *expected);
  expectSameImage(what + ", Tessera against lavapipe", ours, theirs);
  return ours;
}

void fillRect(Image& img, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1, std::array<uint32_t, 4> words) {
  for (uint32_t y = y0; y < y1; ++y)
    for (uint32_t x = x0; x < x1; ++x) std::memcpy(texel(img, x, y), words.data(), 16);
}

#define SKIP_WHEN_OTHER_DRIVER() \
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself"

// "Quad Tessellation": whatever the levels and the spacing, the triangles cover the rectangle
// exactly once, so a pixel-aligned patch fills its pixels; the control stage's patch output
// (PrimitiveId + 1) and the evaluation stage's PrimitiveId ("the index of the patch") reach
// every fragment of their patch.
TEST(Tessellation, QuadPatchesCoverTheirRectanglesInEverySpacing) {
  SKIP_WHEN_OTHER_DRIVER();
  struct Levels {
    float outer[4], inner[2];
  };
  const Levels levels[] = {{{1, 1, 1, 1}, {1, 1}}, {{3, 2.5f, 4, 5.5f}, {2.2f, 3.7f}}, {{7, 7, 7, 7}, {7, 7}},
                           {{1, 9, 2, 1}, {1, 1}}};
  for (const char* shader : {"tess_quad_equal_tese", "tess_quad_even_tese", "tess_quad_odd_tese"})
    for (const Levels& l : levels) {
      TessellationSetup setup;
      setup.evaluationShader = shader;
      std::copy(l.outer, l.outer + 4, setup.outer);
      std::copy(l.inner, l.inner + 2, setup.inner);
      addQuad(setup, 2, 2, 14, 14);
      addQuad(setup, 16, 4, 30, 20);
      Image expected(kSize * kSize * 4, 0);
      fillRect(expected, 2, 2, 14, 14, {1, 0, 0, 1});
      fillRect(expected, 16, 4, 30, 20, {2, 1, 0, 1});
      checkBothDrivers(std::string(shader) + " outer " + std::to_string(l.outer[0]), setup, &expected);
    }
}

// "Tessellator Patch Discard": an outer level of 0 discards the patch; an incomplete patch at
// the end of the draw ("Patch Lists") is not drawn.
TEST(Tessellation, DiscardedAndIncompletePatchesDrawNothing) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.outer[2] = 0.0f;
  addQuad(setup, 2, 2, 14, 14);
  const Image nothing(kSize * kSize * 4, 0);
  checkBothDrivers("outer level 0", setup, &nothing);
  TessellationSetup incomplete;
  addQuad(incomplete, 2, 2, 14, 14);
  for (auto [x, y] : {std::pair{20.0f, 20.0f}, {28.0f, 20.0f}, {28.0f, 28.0f}}) incomplete.positions.push_back(pixel(x, y));
  Image one(kSize * kSize * 4, 0);
  fillRect(one, 2, 2, 14, 14, {1, 0, 0, 1});
  checkBothDrivers("incomplete patch", incomplete, &one);
}

// "Primitive Restart" in a patch list (primitiveTopologyPatchListRestart): each run of indices
// between restarts is cut into patches on its own, an incomplete patch before a restart or at
// the end dropped like a list's incomplete primitive. Quads A, B and C are positions 0-3, 4-7
// and 8-11; the indices {8, 9, R, A, R, B, 8, 9} draw A and B only (read across the restarts
// they would make other patches). PrimitiveId counts the patches drawn: A is 0, B is 1
// ("Restarting a primitive topology using primitive restart has no effect on the value of
// variables decorated with PrimitiveId", "Built-In Variables"). lavapipe draws the same patches
// but starts PrimitiveId again at 0 after a restart (measured here), so only where it draws is
// compared with it.
TEST(Tessellation, PatchListRestartStartsNewPatches) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  addQuad(setup, 2, 2, 14, 14);
  addQuad(setup, 18, 2, 30, 14);
  addQuad(setup, 2, 18, 14, 30);
  const uint32_t R = 0xFFFFFFFFu;
  setup.indices = {8, 9, R, 0, 1, 2, 3, R, 4, 5, 6, 7, 8, 9};
  Image expected(kSize * kSize * 4, 0);
  fillRect(expected, 2, 2, 14, 14, {1, 0, 0, 1});
  fillRect(expected, 18, 2, 30, 14, {2, 1, 0, 1});
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Image ours = render(drivers.tessera, setup);
  expectSameImage("patch list restart, Tessera against the spec", ours, expected);
  if (!drivers.lavapipe) return;
  auto drawn = [](const Image& img) {
    Image covered(img.size(), 0);
    for (size_t i = 3; i < img.size(); i += 4) covered[i] = img[i];  // the evaluation stage's 1
    return covered;
  };
  expectSameImage("patch list restart, where lavapipe draws", drawn(render(drivers.lavapipe, setup)), drawn(expected));
}

// A surface displaced by sin(pi u): its outline follows the outer edges' vertices, which with
// equal spacing are at k / n on every implementation ("Tessellator Spacing"); the drivers must
// agree.
TEST(Tessellation, DisplacedGridMatchesLavapipe) {
  SKIP_WHEN_OTHER_DRIVER();
  for (float level : {2.0f, 5.0f, 8.0f}) {
    TessellationSetup setup;
    setup.evaluationShader = "tess_quad_equal_tese";
    setup.displacement = 5.0f;
    std::fill(setup.outer, setup.outer + 4, level);
    std::fill(setup.inner, setup.inner + 2, level);
    addQuad(setup, 3, 3, 29, 20);
    checkBothDrivers("displaced level " + std::to_string(level), setup, nullptr);
  }
}

// "Triangle Tessellation": the triangles cover the patch's triangle once, whatever the levels
// (fractional odd here): the pixels whose centres lie inside it.
TEST(Tessellation, TrianglePatchCoversItsTriangle) {
  SKIP_WHEN_OTHER_DRIVER();
  const float v[3][2] = {{2.752f, 2.655f}, {29.696f, 3.216f}, {5.472f, 29.899f}};  // no centre within 0.02 px of an edge
  Image expected(kSize * kSize * 4, 0);
  auto edge = [](const float* a, const float* b, float x, float y) { return (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]); };
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const float cx = x + 0.5f, cy = y + 0.5f;
      const float e[3] = {edge(v[0], v[1], cx, cy), edge(v[1], v[2], cx, cy), edge(v[2], v[0], cx, cy)};
      for (float d : e) ASSERT_GT(std::abs(d), 0.5f) << "a pixel centre too close to an edge for an exact oracle";
      if (e[0] > 0 && e[1] > 0 && e[2] > 0) std::memcpy(texel(expected, x, y), std::array<uint32_t, 4>{1, 0, 2, 1}.data(), 16);
    }
  for (const auto& [outer, inner] : {std::pair{std::array<float, 3>{1, 1, 1}, 1.0f}, {{3, 2, 4.5f}, 5.2f}, {{7.1f, 1, 2}, 1.0f}}) {
    TessellationSetup setup;
    setup.evaluationShader = "tess_triangle_tese";
    setup.patchControlPoints = 3;
    std::copy(outer.begin(), outer.end(), setup.outer);
    setup.inner[0] = inner;
    for (const auto& p : v) setup.positions.push_back(pixel(p[0], p[1]));
    checkBothDrivers("triangle inner " + std::to_string(inner), setup, &expected);
  }
}

// "Isoline Tessellation": TessLevelOuter[0] lines at v = j / n, none at v = 1. The patch puts
// them on pixel-centre rows 4.5 + 6 j (j < 4); the drivers must agree on the lines' pixels.
TEST(Tessellation, IsolinesLieOnTheirRows) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.evaluationShader = "tess_isolines_tese";
  setup.outer[0] = 4;
  setup.outer[1] = 3;
  addQuad(setup, 4.5f, 4.5f, 28.5f, 28.5f);
  const Image img = checkBothDrivers("isolines", setup, nullptr);
  std::set<uint32_t> rows;
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x)
      if (img[size_t(y * kSize + x) * 4 + 3]) rows.insert(y);
  EXPECT_EQ(rows, (std::set<uint32_t>{4, 10, 16, 22}));
}

// "Tessellator Spacing", point mode: one point per distinct vertex; equal spacing puts the
// quad's vertices on the (n + 1) x (n + 1) grid, here pixel centres 6 apart.
TEST(Tessellation, PointModeDrawsEachVertexOnce) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.evaluationShader = "tess_points_tese";
  std::fill(setup.outer, setup.outer + 4, 4.0f);
  std::fill(setup.inner, setup.inner + 2, 4.0f);
  addQuad(setup, 4.5f, 4.5f, 28.5f, 28.5f);
  Image expected(kSize * kSize * 4, 0);
  for (uint32_t j = 0; j <= 4; ++j)
    for (uint32_t i = 0; i <= 4; ++i) std::memcpy(texel(expected, 4 + 6 * i, 4 + 6 * j), std::array<uint32_t, 4>{1, 0, 4, 1}.data(), 16);
  checkBothDrivers("point mode", setup, &expected);
}

// "Tessellation Control Shaders": 32 output vertices (more than one SIMD batch); after the
// barrier invocation 0 reads every invocation's per-vertex output (1 + 2 + ... + 32 = 528).
TEST(Tessellation, ControlBarrierSeesEveryInvocationsOutput) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.controlShader = "tess_barrier_tesc";
  addQuad(setup, 4, 6, 20, 26);
  Image expected(kSize * kSize * 4, 0);
  fillRect(expected, 4, 6, 20, 26, {528, 0, 0, 1});
  checkBothDrivers("barrier", setup, &expected);
}

// A draw of 147 patches runs them in ranges over the pool (raster/draw_tessellation.cpp
// runInRanges), joined in order: "Tessellation Primitive Ordering" puts a patch's primitives
// before the next patch's, so where patches overlap the last one shows, with its own
// PrimitiveId, as one range would leave it; likewise with a geometry stage after them.
TEST(Tessellation, ManyPatchesInRangesKeepTheirOrderAndPrimitiveIds) {
  SKIP_WHEN_OTHER_DRIVER();
  for (const char* geometry : {static_cast<const char*>(nullptr), "tess_then_geometry_geom"}) {
    TessellationSetup setup;
    setup.geometryShader = geometry;
    std::fill(setup.outer, setup.outer + 4, 3.0f);
    std::fill(setup.inner, setup.inner + 2, 3.0f);
    Image expected(kSize * kSize * 4, 0);
    uint32_t patch = 0;
    for (uint32_t offset = 0; offset < 3; ++offset)
      for (uint32_t row = 0; row < 7; ++row)
        for (uint32_t column = 0; column < 7; ++column, ++patch) {
          const uint32_t x = offset + 4 * column, y = offset + 4 * row;
          addQuad(setup, float(x), float(y), float(x + 4), float(y + 4));
          fillRect(expected, x, y, x + 4, y + 4, {patch + 1, patch, geometry ? 9u : 0u, 1});
        }
    checkBothDrivers(geometry ? "147 patches, then geometry" : "147 patches", setup, &expected);
  }
}

// A geometry stage after tessellation ("Geometry Shading" on the tessellated triangles).
TEST(Tessellation, GeometryStageTakesTheTessellatedTriangles) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.geometryShader = "tess_then_geometry_geom";
  std::fill(setup.outer, setup.outer + 4, 3.0f);
  std::fill(setup.inner, setup.inner + 2, 2.0f);
  addQuad(setup, 6, 2, 26, 30);
  Image expected(kSize * kSize * 4, 0);
  fillRect(expected, 6, 2, 26, 30, {1, 0, 9, 1});
  checkBothDrivers("tessellation then geometry", setup, &expected);
}

// Multiview (multiviewTessellationShader): the draw runs once per view of the view mask, the
// evaluation stage reading ViewIndex; views 0 and 1 each into their layer.
TEST(Tessellation, MultiviewRunsTheStagesPerViewWithViewIndex) {
  SKIP_WHEN_OTHER_DRIVER();
  TessellationSetup setup;
  setup.evaluationShader = "tess_view_index_tese";
  std::fill(setup.outer, setup.outer + 4, 3.0f);
  std::fill(setup.inner, setup.inner + 2, 2.0f);
  setup.layers = 2;
  setup.viewMask = 0b11;
  addQuad(setup, 4, 6, 22, 28);
  Image expected(kSize * kSize * 4 * 2, 0);
  for (uint32_t view : {0u, 1u})
    for (uint32_t y = 6; y < 28; ++y)
      for (uint32_t x = 4; x < 22; ++x) {
        const uint32_t words[4] = {1, view, 5, 1};
        std::memcpy(&expected[size_t((view * kSize + y) * kSize + x) * 4], words, 16);
      }
  checkBothDrivers("multiview", setup, &expected);
}

}  // namespace
}  // namespace tessera_test
