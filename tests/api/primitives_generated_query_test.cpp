// Primitives generated queries (VK_EXT_primitives_generated_query) through the loader with
// validation, on Tessera and on lavapipe in the same test.
//
// "Primitives Generated Queries": while a VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT query is
// active, "the primitives-generated count is incremented every time a primitive emitted to the
// (vertex) stream reaches the transform feedback stage, whether or not transform feedback is
// active". The transform feedback stage comes "before any other fixed-function vertex
// post-processing", so clipping and culling do not change the count, rasterizer discard does
// not either (primitivesGeneratedQueryWithRasterizerDiscard), and the count is that of the last
// pre-rasterization stage: the topology's primitives ("Primitive Topologies": strips, fans and
// adjacency decomposed), the geometry stage's emitted primitives, or tessellation's. The
// scenes below fix those counts from the spec; each run draws once outside any query (not
// counted), then once in each of two queries in a row, and reads both results as 64-bit with
// VK_QUERY_RESULT_WAIT_BIT and as 32-bit with availability. Both raster paths (api_tests.reference_raster).
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 16;

struct Scene {
  std::string vertex = "fullscreen_vert", geometry, control, evaluation, fragment = "solid_red_frag";
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  uint32_t vertexCount = 3, instanceCount = 1, viewports = 1;
  VkCullModeFlags cull = VK_CULL_MODE_NONE;
  bool rasterizerDiscard = false;
  bool indexedBegin = false;  // vkCmdBeginQueryIndexedEXT / vkCmdEndQueryIndexedEXT with index 0
};

struct Result {  // of each of the two queries
  uint64_t value64[2] = {~0ull, ~0ull};
  uint32_t value32[2] = {~0u, ~0u}, available32[2] = {~0u, ~0u};
};

bool needsGeometryFeature(VkPrimitiveTopology t) {
  return t == VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY || t == VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY ||
         t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY || t == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY;
}

// Draws the scene once, then once inside each of two primitives generated queries.
bool run(VkPhysicalDevice pd, const Scene& scene, Result& out) {
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 query{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &generated};
  vkGetPhysicalDeviceFeatures2(pd, &query);
  EXPECT_TRUE(generated.primitivesGeneratedQuery);
  EXPECT_TRUE(generated.primitivesGeneratedQueryWithRasterizerDiscard);
  if (!generated.primitivesGeneratedQuery || !generated.primitivesGeneratedQueryWithRasterizerDiscard) return false;
  generated.primitivesGeneratedQueryWithNonZeroStreams = VK_FALSE;
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
                                                        &generated};
  feedback.transformFeedback = VK_TRUE;  // vkCmdBeginQueryIndexedEXT is VK_EXT_transform_feedback's
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &feedback};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.geometryShader = !scene.geometry.empty() || needsGeometryFeature(scene.topology);
  features.multiViewport = scene.viewports > 1;
  features.tessellationShader = !scene.control.empty();
  features.shaderClipDistance = features.shaderCullDistance = !scene.control.empty();
  TestDevice device(pd, &features, &v13, {"VK_EXT_primitives_generated_query", "VK_EXT_transform_feedback"});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return false;
  auto beginIndexed =
      reinterpret_cast<PFN_vkCmdBeginQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginQueryIndexedEXT"));
  auto endIndexed = reinterpret_cast<PFN_vkCmdEndQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndQueryIndexedEXT"));
  EXPECT_TRUE(beginIndexed && endIndexed);
  if (!beginIndexed || !endIndexed) return false;

  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
  qpci.queryCount = 2;
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

  std::vector<VkShaderModule> modules;
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  auto addStage = [&](VkShaderStageFlagBits stage, const std::string& name) {
    if (name.empty()) return;
    modules.push_back(device.createShaderModule(loadCorpusShader(name)));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  };
  addStage(VK_SHADER_STAGE_VERTEX_BIT, scene.vertex);
  addStage(VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, scene.control);
  addStage(VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, scene.evaluation);
  addStage(VK_SHADER_STAGE_GEOMETRY_BIT, scene.geometry);
  addStage(VK_SHADER_STAGE_FRAGMENT_BIT, scene.fragment);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = scene.topology;
  VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO, nullptr, 0, 3};
  std::vector<VkViewport> viewports(scene.viewports, VkViewport{0, 0, float(kSize), float(kSize), 0, 1});
  std::vector<VkRect2D> scissors(scene.viewports, VkRect2D{{0, 0}, {kSize, kSize}});
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, scene.viewports,
                                       viewports.data(), scene.viewports, scissors.data()};
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
  rs.rasterizerDiscardEnable = scene.rasterizerDiscard;
  rs.polygonMode = VK_POLYGON_MODE_FILL;
  rs.cullMode = scene.cull;
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
  vkCmdResetQueryPool(cmd, queryPool, 0, 2);
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
  vkCmdDraw(cmd, scene.vertexCount, scene.instanceCount, 0, 0);  // outside the queries: not counted
  for (uint32_t q = 0; q < 2; ++q) {  // two queries one after the other, each counting its own draw
    if (scene.indexedBegin) beginIndexed(cmd, queryPool, q, 0, 0);
    else vkCmdBeginQuery(cmd, queryPool, q, 0);
    vkCmdDraw(cmd, scene.vertexCount, scene.instanceCount, 0, 0);
    if (scene.indexedBegin) endIndexed(cmd, queryPool, q, 0);
    else vkCmdEndQuery(cmd, queryPool, q);
  }
  vkCmdEndRendering(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  EXPECT_EQ(vkGetQueryPoolResults(dev, queryPool, 0, 2, 16, out.value64, 8, VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS);
  uint32_t words[4] = {~0u, ~0u, ~0u, ~0u};
  EXPECT_EQ(vkGetQueryPoolResults(dev, queryPool, 0, 2, 16, words, 8, VK_QUERY_RESULT_WITH_AVAILABILITY_BIT), VK_SUCCESS);
  for (uint32_t q = 0; q < 2; ++q) out.value32[q] = words[2 * q], out.available32[q] = words[2 * q + 1];

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, image, nullptr);
  vkDestroyQueryPool(dev, queryPool, nullptr);
  return true;
}

// Both drivers must count `expected`.
void expectGenerated(const Scene& scene, uint64_t expected) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* driver = pd == drivers.tessera ? "Tessera" : "lavapipe";
    Result r;
    ASSERT_TRUE(run(pd, scene, r)) << driver;
    for (uint32_t q = 0; q < 2; ++q) {
      EXPECT_EQ(r.value64[q], expected) << driver << ": 64-bit result of query " << q;
      EXPECT_EQ(r.value32[q], uint32_t(expected)) << driver << ": 32-bit result of query " << q;
      EXPECT_EQ(r.available32[q], 1u) << driver << ": availability of query " << q;
    }
  }
}

// "Triangle Lists": one primitive per instance; culling comes after the count.
TEST(PrimitivesGeneratedQuery, CountsEveryInstancesPrimitivesCulledOrNot) {
  Scene scene;
  scene.instanceCount = 3;
  expectGenerated(scene, 3);
  scene.cull = VK_CULL_MODE_FRONT_AND_BACK;
  expectGenerated(scene, 3);
}

// "Primitive Topologies": max(0, n - 2) triangles of a strip or a fan, max(0, n - 3) lines of a
// line strip with adjacency, floor(n / 6) triangles of a list with adjacency, floor(n / 2)
// lines of a list (an incomplete last primitive is not one); with vkCmdBeginQueryIndexedEXT
// index 0 for the strip.
TEST(PrimitivesGeneratedQuery, CountsTheTopologysPrimitives) {
  Scene scene;
  scene.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  scene.vertexCount = 7;
  scene.indexedBegin = true;
  expectGenerated(scene, 5);
  scene.indexedBegin = false;
  scene.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
  scene.vertexCount = 6;
  expectGenerated(scene, 4);
  scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY;
  expectGenerated(scene, 3);
  scene.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY;
  scene.vertexCount = 13;
  expectGenerated(scene, 2);
  scene.topology = VK_PRIMITIVE_TOPOLOGY_LINE_LIST;
  scene.vertexCount = 7;
  expectGenerated(scene, 3);
}

// primitivesGeneratedQueryWithRasterizerDiscard: discarded primitives are counted as well.
TEST(PrimitivesGeneratedQuery, CountsWithRasterizerDiscard) {
  Scene scene;
  scene.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
  scene.vertexCount = 7;
  scene.instanceCount = 2;
  scene.rasterizerDiscard = true;
  expectGenerated(scene, 10);
}

// With a geometry stage, its emitted primitives (multi_viewport.geom: 4 invocations, one
// triangle each), not the input's.
TEST(PrimitivesGeneratedQuery, CountsTheGeometryStagesPrimitives) {
  Scene scene;
  scene.geometry = "multi_viewport_geom";
  scene.fragment = "multi_viewport_frag";
  scene.viewports = 4;
  scene.instanceCount = 2;
  expectGenerated(scene, 8);
}

// With tessellation, its generated primitives (clip_distance.tesc/.tese at level 1: one triangle
// per 3-vertex patch), whatever the clip and cull distances do after the count.
TEST(PrimitivesGeneratedQuery, CountsTheTessellatedPrimitives) {
  Scene scene;
  scene.vertex = "clip_distance_vert";
  scene.control = "clip_distance_tesc";
  scene.evaluation = "clip_distance_tese";
  scene.fragment = "clip_distance_frag";
  scene.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
  scene.vertexCount = 6;
  scene.instanceCount = 3;
  expectGenerated(scene, 6);
}

}  // namespace
}  // namespace tessera_test
