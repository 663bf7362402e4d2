// Pipeline statistics queries (pipelineStatisticsQuery) through the loader with validation, on
// Tessera and on lavapipe in the same test: "Pipeline Statistics Queries" defines each counter;
// the scenes below are built so that the spec fixes the counts (or bounds them, where it lets
// an implementation shade a vertex once for several indices), and a query with every statistic
// enabled reads them back in bit order.
//
// Scenes (a 32x32 RGBA8 target, tests/shaders/fullscreen.vert's triangle covering it, no depth
// test, so every pixel is shaded exactly once per triangle):
//  - two instances of the triangle: 6 input vertices, 2 primitives, 6 vertex shader
//    invocations, 2 clipping invocations and primitives, 2 x 1024 fragment shader invocations;
//  - the same with back faces culled and a back-facing triangle: clipping primitives 0, no
//    fragment shader invocation;
//  - an indexed draw of the triangle with its 3 vertices named twice (6 indices): 6 input
//    vertices, 2 primitives, 3 to 6 vertex shader invocations;
//  - a geometry stage of 4 invocations per triangle (tests/shaders/multi_viewport.geom, 4
//    viewports over the whole target): 4 geometry shader invocations and primitives a triangle,
//    4 x 1024 fragment shader invocations;
//  - tessellation of 3-vertex patches at level 1 (tests/shaders/clip_distance.*): 6 patches,
//    3 evaluation invocations each;
//  - a dispatch of 2x3x1 workgroups of 8x2x1 invocations: 96 compute shader invocations.
// lavapipe must give the same counts where the spec fixes them.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 32;
constexpr uint32_t kStatistics = 11;  // VkQueryPipelineStatisticFlagBits 0..10
enum Stat : uint32_t {
  kIaVertices, kIaPrimitives, kVsInvocations, kGsInvocations, kGsPrimitives, kClipInvocations, kClipPrimitives,
  kFsInvocations, kTcsPatches, kTesInvocations, kCsInvocations
};
using Counts = std::array<uint64_t, kStatistics>;

struct Scene {
  std::string vertex = "fullscreen_vert", geometry, control, evaluation, fragment = "solid_red_frag";
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint32_t vertexCount = 3, instanceCount = 2, viewports = 1;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  VkFrontFace frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  bool indexed = false;  // indices 0 1 2 0 1 2
  bool compute = false;  // a dispatch instead of a draw
};

// Runs the scene between vkCmdBeginQuery and vkCmdEndQuery of a pool with every statistic.
std::vector<uint64_t> run(VkPhysicalDevice pd, const Scene& scene) {
  VkPhysicalDeviceFeatures supported{};
  vkGetPhysicalDeviceFeatures(pd, &supported);
  EXPECT_TRUE(supported.pipelineStatisticsQuery);
  if (!supported.pipelineStatisticsQuery) return {};
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  v13.maintenance4 = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.pipelineStatisticsQuery = VK_TRUE;
  features.geometryShader = !scene.geometry.empty();
  features.multiViewport = scene.viewports > 1;
  features.tessellationShader = !scene.control.empty();
  features.shaderClipDistance = features.shaderCullDistance = !scene.control.empty();
  TestDevice device(pd, &features, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_PIPELINE_STATISTICS;
  qpci.queryCount = 1;
  qpci.pipelineStatistics = (1u << kStatistics) - 1;
  VkQueryPool queryPool;
  EXPECT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &queryPool), VK_SUCCESS);

  const VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = colorFormat;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
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
  void* indexMap;
  VkBuffer indices = device.createMappedBuffer(64, VK_BUFFER_USAGE_INDEX_BUFFER_BIT, &indexMap);
  const uint32_t indexData[6] = {0, 1, 2, 0, 1, 2};
  std::memcpy(indexMap, indexData, sizeof(indexData));

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  auto addStage = [&](VkShaderStageFlagBits stage, const std::string& name) {
    if (name.empty()) return;
    modules.push_back(device.createShaderModule(loadCorpusShader(name)));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  };
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (scene.compute) {
    addStage(VK_SHADER_STAGE_COMPUTE_BIT, "stats_workgroup");
    VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage = stages[0];
    cpci.layout = layout;
    EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
  } else {
    addStage(VK_SHADER_STAGE_VERTEX_BIT, scene.vertex);
    addStage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, scene.control);
    addStage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, scene.evaluation);
    addStage(VK_SHADER_STAGE_GEOMETRY_BIT, scene.geometry);
    addStage(VK_SHADER_STAGE_FRAGMENT_BIT, scene.fragment);
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = scene.topology;
    VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0, 3};
    std::vector<VkViewport> viewports(scene.viewports, VkViewport{0, 0, float(kSize), float(kSize), 0, 1});
    std::vector<VkRect2D> scissors(scene.viewports, VkRect2D{{0, 0}, {kSize, kSize}});
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, scene.viewports,
                                         viewports.data(), scene.viewports, scissors.data()};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = scene.cull;
    rs.frontFace = scene.frontFace;
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
    gpci.stageCount = uint32_t(stages.size());
    gpci.pStages = stages.data();
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pTessellationState = scene.control.empty() ? nullptr : &ts;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.pColorBlendState = &cb;
    gpci.layout = layout;
    EXPECT_EQ(vkCreateGraphicsPipelines(dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &pipeline), VK_SUCCESS);
  }

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdResetQueryPool(cmd, queryPool, 0, 1);
  if (scene.compute) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBeginQuery(cmd, queryPool, 0, 0);
    vkCmdDispatch(cmd, 2, 3, 1);
    vkCmdEndQuery(cmd, queryPool, 0);
  } else {
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
    b.dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, 0, 0, nullptr,
                         0, nullptr, 1, &b);
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
    vkCmdBeginQuery(cmd, queryPool, 0, 0);
    vkCmdBeginRendering(cmd, &ri);
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    if (scene.indexed) {
      vkCmdBindIndexBuffer(cmd, indices, 0, VK_INDEX_TYPE_UINT32);
      vkCmdDrawIndexed(cmd, 6, scene.instanceCount, 0, 0, 0);
    } else {
      vkCmdDraw(cmd, scene.vertexCount, scene.instanceCount, 0, 0);
    }
    vkCmdEndRendering(cmd);
    vkCmdEndQuery(cmd, queryPool, 0);
  }
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<uint64_t> values(kStatistics, ~0ull);
  EXPECT_EQ(vkGetQueryPoolResults(dev, queryPool, 0, 1, values.size() * 8, values.data(), 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyBuffer(dev, indices, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  vkDestroyQueryPool(dev, queryPool, nullptr);
  return values;
}

const char* const kNames[kStatistics] = {"input assembly vertices", "input assembly primitives", "vertex shader invocations",
                                         "geometry shader invocations", "geometry shader primitives", "clipping invocations",
                                         "clipping primitives", "fragment shader invocations", "tessellation control patches",
                                         "tessellation evaluation invocations", "compute shader invocations"};

// Each statistic of both drivers within [lo, hi] (the spec's count, or its bounds); lavapipe's
// statistics in `lavapipeDeviates` (bits) are not compared (each caller says why).
void expectCounts(const Scene& scene, const Counts& lo, const Counts& hi, uint32_t lavapipeDeviates = 0) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* driver = pd == drivers.tessera ? "Tessera" : "lavapipe";
    const std::vector<uint64_t> got = run(pd, scene);
    ASSERT_EQ(got.size(), size_t(kStatistics)) << driver;
    for (uint32_t i = 0; i < kStatistics; ++i) {
      if (pd == drivers.lavapipe && (lavapipeDeviates >> i & 1)) continue;
      EXPECT_GE(got[i], lo[i]) << driver << ": " << kNames[i];
      EXPECT_LE(got[i], hi[i]) << driver << ": " << kNames[i];
    }
  }
}

// The counts the spec fixes for the scene, and the freedom it leaves: "Various device
// architectures will count these values differently" - a primitive clipped against the guard
// band may leave as several (here at most 4), and helper invocations may be counted as
// fragment shader invocations (at most one helper per covered pixel here). Tessera counts
// exactly the primitives that leave clipping and the covered fragments shaded.
void expectSpecCounts(const Scene& scene, const Counts& counts, uint32_t lavapipeDeviates = 0) {
  Counts hi = counts;
  hi[kClipPrimitives] *= 4;
  hi[kFsInvocations] *= 2;
  expectCounts(scene, counts, hi, lavapipeDeviates);
}

TEST(PipelineStatistics, TwoInstancesOfAFullScreenTriangle) {
  expectSpecCounts(Scene{}, {6, 2, 6, 0, 0, 2, 2, 2 * kSize * kSize, 0, 0, 0});
}

TEST(PipelineStatistics, CulledTrianglesReachClippingAndLeaveNothing) {
  Scene scene;
  // fullscreen.vert's triangle is clockwise in framebuffer coordinates: a back face here.
  scene.cull = VK_CULL_MODE_BACK_BIT;
  expectSpecCounts(scene, {6, 2, 6, 0, 0, 2, 0, 0, 0, 0, 0});
}

TEST(PipelineStatistics, IndexedDrawShadesEachVertexAtLeastOnce) {
  Scene scene;
  scene.indexed = true;
  scene.instanceCount = 1;
  // "vertex shader invocations": between the distinct vertices (3) and the indices (6).
  expectCounts(scene, {6, 2, 3, 0, 0, 2, 2, 2 * kSize * kSize, 0, 0, 0},
               {6, 2, 6, 0, 0, 2, 8, 4 * kSize * kSize, 0, 0, 0});
}

TEST(PipelineStatistics, GeometryStageInvocationsAndPrimitives) {
  Scene scene;
  scene.geometry = "multi_viewport_geom";
  scene.viewports = 4;
  scene.instanceCount = 1;
  scene.fragment = "multi_viewport_frag";
  // "In the case of instanced geometry shaders, the geometry shader invocations count is
  // incremented for each separate instanced invocation": 4. lavapipe 22.3 counts 1 per input
  // primitive.
  expectSpecCounts(scene, {3, 1, 3, 4, 4, 4, 4, 4 * kSize * kSize, 0, 0, 0}, 1u << kGsInvocations);
}

TEST(PipelineStatistics, TessellationPatchesAndEvaluations) {
  Scene scene;
  scene.vertex = "clip_distance_vert";
  scene.control = "clip_distance_tesc";
  scene.evaluation = "clip_distance_tese";
  scene.fragment = "clip_distance_frag";
  scene.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  scene.vertexCount = 6;
  scene.instanceCount = 3;
  // 6 patches of 3 control points; level 1: one triangle of 3 evaluated vertices each; the
  // clip and cull distances remove some (clip_distance_test), so what leaves clipping and the
  // fragments are only bounded here.
  Counts lo{18, 6, 18, 0, 0, 6, 0, 0, 6, 18, 0}, hi = lo;
  hi[kClipPrimitives] = 4 * 6;
  hi[kFsInvocations] = 2 * 3 * kSize * kSize;
  expectCounts(scene, lo, hi);
}

// "Pipeline Statistics Queries": clipping primitives counts the primitives that leave
// clipping. A point is kept whole when its position is inside the clip volume ("Primitive
// Clipping"), so the two on the volume's corners leave it, whatever pixels their squares then
// cover; the one at x = 2w does not. Fragments: the centre point's pixel, and at most one
// more for each corner point. lavapipe 22.3 counts all 4 points as leaving clipping (it does
// not clip points against the view volume) and 32 fragment shader invocations (measured;
// "various device architectures will count these values differently"): neither is compared
// for it. (The CTS's
// query_pool.statistics_query.*clipping_primitives*point_list cases need the corner points
// counted.)
TEST(PipelineStatistics, PointsInsideTheClipVolumeLeaveClippingCoveringPixelsOrNot) {
  Scene scene;
  scene.vertex = "stats_corner_points_vert";
  scene.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  scene.vertexCount = 4;
  scene.instanceCount = 1;
  expectCounts(scene, {4, 4, 4, 0, 0, 4, 3, 1, 0, 0, 0}, {4, 4, 4, 0, 0, 4, 3, 3, 0, 0, 0},
               1u << kClipPrimitives | 1u << kFsInvocations);
}

TEST(PipelineStatistics, ComputeShaderInvocations) {
  Scene scene;
  scene.compute = true;
  expectSpecCounts(scene, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2 * 3 * 8 * 2});
}

}  // namespace
}  // namespace tessera_test
