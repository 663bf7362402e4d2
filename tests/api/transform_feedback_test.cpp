// Transform feedback (VK_EXT_transform_feedback, "Transform Feedback") through the loader with
// validation, on Tessera and on lavapipe in one instance (dual_driver.h). Each scenario records
// draws that capture into host-visible buffers filled with a marker byte, and reads back the
// buffers, the counter buffers and the stream-0 queries. Where the spec fixes the bytes (the
// vertex and geometry stages' primitives in order, "Transform Feedback Capture" with the
// vertex orders of "Primitive Topologies"; the overflow rule; counter buffers; the byte-count
// draw), the test computes them and requires them from both drivers; the tessellator's order
// of primitives is the implementation's, so there the captured triangles are compared with
// lavapipe's as sets.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint8_t kMarker = 0xAB;  // bytes nothing captured into

// VK_EXT_transform_feedback's commands (the loader exports no extension commands).
struct FeedbackCommands {
  PFN_vkCmdBindTransformFeedbackBuffersEXT bind = nullptr;
  PFN_vkCmdBeginTransformFeedbackEXT begin = nullptr;
  PFN_vkCmdEndTransformFeedbackEXT end = nullptr;
  PFN_vkCmdBeginQueryIndexedEXT beginQuery = nullptr;
  PFN_vkCmdEndQueryIndexedEXT endQuery = nullptr;
  PFN_vkCmdDrawIndirectByteCountEXT drawByteCount = nullptr;
  explicit FeedbackCommands(VkDevice dev) {
    bind = reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(vkGetDeviceProcAddr(dev, "vkCmdBindTransformFeedbackBuffersEXT"));
    begin = reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginTransformFeedbackEXT"));
    end = reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndTransformFeedbackEXT"));
    beginQuery = reinterpret_cast<PFN_vkCmdBeginQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginQueryIndexedEXT"));
    endQuery = reinterpret_cast<PFN_vkCmdEndQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndQueryIndexedEXT"));
    drawByteCount = reinterpret_cast<PFN_vkCmdDrawIndirectByteCountEXT>(vkGetDeviceProcAddr(dev, "vkCmdDrawIndirectByteCountEXT"));
  }
  bool complete() const { return bind && begin && end && beginQuery && endQuery && drawByteCount; }
};

// Vertex v's position: exact small values, so that every driver computes the same floats.
std::array<float, 4> position(uint32_t v) { return {float(v), 2.0f * float(v) - 3.0f, 0.25f * float(v), 1.0f}; }

// What one scenario leaves: the capture buffers' bytes, the counter buffer, the query results.
struct Captured {
  std::vector<uint8_t> buffers[2];
  std::array<uint32_t, 4> counters{};
  std::vector<uint64_t> queries;  // per query: primitives written, primitives needed
};

enum class Scenario { VertexStage, GeometryStage, Tessellation, Doubles };

class FeedbackRun {
 public:
  FeedbackRun(VkPhysicalDevice pd, bool rasterizerDiscard) : discard_(rasterizerDiscard), device_(pd, features(), chain(), {"VK_EXT_transform_feedback"}) {}

  // byteCountOffset: vkCmdDrawIndirectByteCountEXT's counterOffset in the vertex scenario.
  Captured run(Scenario scenario, uint32_t byteCountOffset = 0) {
    Captured out;
    const VkDevice dev = device_.dev;
    EXPECT_NE(dev, VK_NULL_HANDLE) << "vkCreateDevice with transformFeedback";
    if (!dev) return out;
    FeedbackCommands xfb(dev);
    EXPECT_TRUE(xfb.complete()) << "a VK_EXT_transform_feedback command is missing";
    if (!xfb.complete()) return out;

    void *vertexMap, *map0, *map1, *counterMap;
    const VkBuffer vertices = device_.createMappedBuffer(16 * 16, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
    for (uint32_t v = 0; v < 16; ++v) std::memcpy(static_cast<uint8_t*>(vertexMap) + 16 * v, position(v).data(), 16);
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT;
    const VkBuffer buffer0 = device_.createMappedBuffer(1024, usage, &map0);
    const VkBuffer buffer1 = device_.createMappedBuffer(256, usage, &map1);
    const VkBuffer counters = device_.createMappedBuffer(
        16, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT | VK_BUFFER_USAGE_INDIRECT_BUFFER_BIT, &counterMap);
    std::memset(map0, kMarker, 1024);
    std::memset(map1, kMarker, 256);
    std::memset(counterMap, 0, 16);

    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
    qpci.queryCount = 2;
    VkQueryPool queries;
    vkCreateQueryPool(dev, &qpci, nullptr, &queries);

    const VkPushConstantRange push{VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, 24};
    VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.pushConstantRangeCount = scenario == Scenario::Tessellation ? 1 : 0;
    plci.pPushConstantRanges = &push;
    VkPipelineLayout layout;
    vkCreatePipelineLayout(dev, &plci, nullptr, &layout);

    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    vkCreateCommandPool(dev, &cpci, nullptr, &pool);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(dev, &cbai, &cmd);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    vkCmdResetQueryPool(cmd, queries, 0, 2);
    const VkDeviceSize zero = 0;
    const VkBuffer counterBuffers[2] = {counters, counters};
    const VkDeviceSize counterOffsets[2] = {0, 4};
    const VkBuffer both[2] = {buffer0, buffer1};

    if (scenario == Scenario::VertexStage) {
      const VkPipeline strip = pipeline(layout, {{VK_SHADER_STAGE_VERTEX_BIT, "xfb_capture_vert"}}, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
      const VkPipeline points = pipeline(layout, {{VK_SHADER_STAGE_VERTEX_BIT, "xfb_capture_vert"}}, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
      // 1. A strip of 5 vertices (3 triangles) into buffer 0 (16 records) and buffer 1 bound
      //    with room for 7 records: the third triangle does not fit.
      const VkDeviceSize offsets[2] = {0, 16}, sizes[2] = {512, 84};
      beginRendering(cmd);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, strip);
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
      xfb.bind(cmd, 0, 2, both, offsets, sizes);
      xfb.beginQuery(cmd, queries, 0, 0, 0);
      xfb.begin(cmd, 0, 0, nullptr, nullptr);
      vkCmdDraw(cmd, 5, 1, 0, 0);
      xfb.end(cmd, 0, 2, counterBuffers, counterOffsets);
      xfb.endQuery(cmd, queries, 0, 0);
      vkCmdEndRendering(cmd);
      counterBarrier(cmd);
      // 2. Resumed from the counters: three points, of which buffer 1 holds one more.
      beginRendering(cmd);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, points);
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
      xfb.bind(cmd, 0, 2, both, offsets, sizes);
      xfb.beginQuery(cmd, queries, 1, 0, 0);
      xfb.begin(cmd, 0, 2, counterBuffers, counterOffsets);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      xfb.end(cmd, 0, 2, counterBuffers, counterOffsets);
      xfb.endQuery(cmd, queries, 1, 0);
      vkCmdEndRendering(cmd);
      counterBarrier(cmd);
      // 3. vkCmdDrawIndirectByteCountEXT from buffer 0's counter (224 bytes, less
      //    byteCountOffset, in 32-byte vertices), two instances from InstanceIndex 1, into fresh
      //    ranges; buffer 1 holds 10 records.
      const VkDeviceSize fresh[2] = {512, 128}, freshSizes[2] = {512, 128};
      beginRendering(cmd);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, points);
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
      xfb.bind(cmd, 0, 2, both, fresh, freshSizes);
      xfb.begin(cmd, 0, 0, nullptr, nullptr);
      xfb.drawByteCount(cmd, 2, 1, counters, 0, byteCountOffset, 32);
      xfb.end(cmd, 0, 0, nullptr, nullptr);
      vkCmdEndRendering(cmd);
    } else {
      const bool tess = scenario == Scenario::Tessellation;
      const VkPipeline p =
          scenario == Scenario::Doubles
              ? pipeline(layout, {{VK_SHADER_STAGE_VERTEX_BIT, "xfb_doubles_vert"}, {VK_SHADER_STAGE_GEOMETRY_BIT, "xfb_doubles_geom"}},
                         VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST)
          : tess ? pipeline(layout,
                          {{VK_SHADER_STAGE_VERTEX_BIT, "tess_passthrough_vert"},
                           {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, "tess_levels_tesc"},
                           {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, "xfb_capture_tese"}},
                          VK_PRIMITIVE_TOPOLOGY_PATCH_LIST)
               : pipeline(layout,
                          {{VK_SHADER_STAGE_VERTEX_BIT, "gs_passthrough_vert"}, {VK_SHADER_STAGE_GEOMETRY_BIT, "xfb_capture_geom"}},
                          VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
      const VkDeviceSize offsets[2] = {0, 0}, sizes[2] = {1024, 256};
      beginRendering(cmd);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, p);
      vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
      if (tess) {
        const float levels[6] = {2, 2, 2, 2, 2, 2};  // outer, inner: 8 triangles
        vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, 0, 24, levels);
      }
      xfb.bind(cmd, 0, 1, both, offsets, sizes);
      xfb.beginQuery(cmd, queries, 0, 0, 0);
      xfb.begin(cmd, 0, 1, counterBuffers, counterOffsets);  // a zeroed counter: from byte 0
      vkCmdDraw(cmd, tess ? 4 : 3, 1, tess ? 4 : 0, 0);
      xfb.end(cmd, 0, 1, counterBuffers, counterOffsets);
      xfb.endQuery(cmd, queries, 0, 0);
      vkCmdEndRendering(cmd);
    }
    VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                         VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT,
                         VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr,
                         0, nullptr);
    vkEndCommandBuffer(cmd);
    device_.submitAndWait(cmd);

    out.buffers[0].assign(static_cast<uint8_t*>(map0), static_cast<uint8_t*>(map0) + 1024);
    out.buffers[1].assign(static_cast<uint8_t*>(map1), static_cast<uint8_t*>(map1) + 256);
    std::memcpy(out.counters.data(), counterMap, 16);
    const uint32_t queryCount = scenario == Scenario::VertexStage ? 2 : 1;
    out.queries.assign(2 * queryCount, ~0ull);
    EXPECT_EQ(vkGetQueryPoolResults(dev, queries, 0, queryCount, out.queries.size() * 8, out.queries.data(), 16,
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
              VK_SUCCESS);

    for (VkPipeline p : pipelines_) vkDestroyPipeline(dev, p, nullptr);
    for (VkShaderModule m : modules_) vkDestroyShaderModule(dev, m, nullptr);
    vkDestroyPipelineLayout(dev, layout, nullptr);
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyQueryPool(dev, queries, nullptr);
    for (VkBuffer b : {vertices, buffer0, buffer1, counters}) vkDestroyBuffer(dev, b, nullptr);
    return out;
  }

 private:
  const VkPhysicalDeviceFeatures* features() {
    features_.geometryShader = VK_TRUE;
    features_.tessellationShader = VK_TRUE;
    features_.shaderFloat64 = VK_TRUE;
    features_.shaderTessellationAndGeometryPointSize = VK_TRUE;
    return &features_;
  }
  const void* chain() {
    feedback_.transformFeedback = VK_TRUE;
    v13_.pNext = &feedback_;
    v13_.dynamicRendering = VK_TRUE;
    return &v13_;
  }

  // A render pass instance without attachments over 16 x 16 pixels (capture needs one).
  void beginRendering(VkCommandBuffer cmd) {
    VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
    ri.renderArea = {{0, 0}, {16, 16}};
    ri.layerCount = 1;
    vkCmdBeginRendering(cmd, &ri);
  }

  // The counters an End wrote, read by the next Begin and by the byte-count draw.
  static void counterBarrier(VkCommandBuffer cmd) {
    VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT,
                      VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_READ_BIT_EXT | VK_ACCESS_INDIRECT_COMMAND_READ_BIT};
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT,
                         VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_DRAW_INDIRECT_BIT, 0, 1, &b, 0,
                         nullptr, 0, nullptr);
  }

  VkPipeline pipeline(VkPipelineLayout layout, std::vector<std::pair<VkShaderStageFlagBits, const char*>> stageShaders,
                      VkPrimitiveTopology topology) {
    std::vector<VkPipelineShaderStageCreateInfo> stages;
    for (const auto& [stage, name] : stageShaders) {
      const VkShaderModule m = device_.createShaderModule(loadCorpusShader(name));
      modules_.push_back(m);
      stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, m, "main", nullptr});
    }
    const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
    const VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
    VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
    vi.vertexBindingDescriptionCount = 1;
    vi.pVertexBindingDescriptions = &binding;
    vi.vertexAttributeDescriptionCount = 1;
    vi.pVertexAttributeDescriptions = &attribute;
    VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
    ia.topology = topology;
    VkPipelineTessellationStateCreateInfo ts{VK_STRUCTURE_TYPE_PIPELINE_TESSELLATION_STATE_CREATE_INFO};
    ts.patchControlPoints = 4;
    VkViewport viewport{0, 0, 16, 16, 0, 1};
    VkRect2D scissor{{0, 0}, {16, 16}};
    VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
    VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO};
    rs.rasterizerDiscardEnable = discard_;
    rs.polygonMode = VK_POLYGON_MODE_FILL;
    rs.cullMode = VK_CULL_MODE_NONE;
    rs.lineWidth = 1.0f;
    VkPipelineMultisampleStateCreateInfo ms{VK_STRUCTURE_TYPE_PIPELINE_MULTISAMPLE_STATE_CREATE_INFO};
    ms.rasterizationSamples = VK_SAMPLE_COUNT_1_BIT;
    VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO};
    VkGraphicsPipelineCreateInfo gpci{VK_STRUCTURE_TYPE_GRAPHICS_PIPELINE_CREATE_INFO, &rendering};
    gpci.stageCount = uint32_t(stages.size());
    gpci.pStages = stages.data();
    gpci.pVertexInputState = &vi;
    gpci.pInputAssemblyState = &ia;
    gpci.pTessellationState = topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST ? &ts : nullptr;
    gpci.pViewportState = &vp;
    gpci.pRasterizationState = &rs;
    gpci.pMultisampleState = &ms;
    gpci.layout = layout;
    VkPipeline p = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateGraphicsPipelines(device_.dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &p), VK_SUCCESS);
    pipelines_.push_back(p);
    return p;
  }

  bool discard_;
  VkPhysicalDeviceFeatures features_{};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT};
  VkPhysicalDeviceVulkan13Features v13_{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  TestDevice device_;
  std::vector<VkShaderModule> modules_;
  std::vector<VkPipeline> pipelines_;
};

void put(std::vector<uint8_t>& bytes, size_t at, const void* data, size_t n) {
  ASSERT_LE(at + n, bytes.size());
  std::memcpy(bytes.data() + at, data, n);
}

// xfb_capture.vert's records of vertex v: buffer 0 (32 bytes) position then
// position * 2 + v; buffer 1 (12 bytes from byte 4 of the record) v, instance.
void vertexRecords(Captured& c, size_t at0, size_t at1, uint32_t v, uint32_t instance) {
  const std::array<float, 4> p = position(v);
  std::array<float, 4> scaled;
  for (int i = 0; i < 4; ++i) scaled[i] = p[i] * 2.0f + float(v);
  put(c.buffers[0], at0, p.data(), 16);
  put(c.buffers[0], at0 + 16, scaled.data(), 16);
  const uint32_t ids[2] = {v, instance};
  put(c.buffers[1], at1 + 4, ids, 8);
}

void expectSameBytes(const char* what, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  int shown = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (got[i] != want[i] && ++shown <= 8)
      ADD_FAILURE() << what << ": byte " << i << " is " << int(got[i]) << ", expected " << int(want[i]);
}

void expectSame(const std::string& what, const Captured& got, const Captured& want) {
  expectSameBytes((what + ", buffer 0").c_str(), got.buffers[0], want.buffers[0]);
  expectSameBytes((what + ", buffer 1").c_str(), got.buffers[1], want.buffers[1]);
  EXPECT_EQ(got.counters, want.counters) << what << ": counter buffer";
  EXPECT_EQ(got.queries, want.queries) << what << ": stream 0 queries (written, needed)";
}

#define SKIP_WHEN_OTHER_DRIVER() \
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself"

// What the vertex scenario must leave ("Transform Feedback Capture"): the strip's triangles in
// the order of "Triangle Strips" ((0, 1, 2), then (1, 3, 2)); a primitive that would overflow
// any bound buffer written to none and not counted as written (the query's second value counts
// it); End stores each buffer's byte position in its counter buffer and Begin resumes from
// it; vkCmdDrawIndirectByteCountEXT draws floor((counter - counterOffset) / vertexStride)
// vertices per instance.
Captured vertexScenarioExpected(uint32_t byteCountOffset) {
  Captured expected;
  expected.buffers[0].assign(1024, kMarker);
  expected.buffers[1].assign(256, kMarker);
  const uint32_t strip[6] = {0, 1, 2, 1, 3, 2};  // the two triangles that fit buffer 1's 7 records
  for (uint32_t k = 0; k < 6; ++k) vertexRecords(expected, 32 * k, 16 + 12 * k, strip[k], 0);
  vertexRecords(expected, 32 * 6, 16 + 12 * 6, 0, 0);  // the one point of three that fits
  const uint32_t perInstance = (224 - byteCountOffset) / 32;
  for (uint32_t k = 0; k < 10; ++k)
    vertexRecords(expected, 512 + 32 * k, 128 + 12 * k, k % perInstance, 1 + k / perInstance);
  expected.counters = {224, 84, 0, 0};
  expected.queries = {2, 3, 1, 3};
  return expected;
}

// The vertex scenario with and without rasterizer discard, on both drivers.
TEST(TransformFeedback, VertexStageCapturesInOrderWithOverflowCountersAndByteCountDraw) {
  SKIP_WHEN_OTHER_DRIVER();
  const Captured expected = vertexScenarioExpected(0);
  for (bool discard : {true, false}) {
    SCOPED_TRACE(discard ? "rasterizer discard" : "rasterized");
    DualDriverInstance drivers;
    ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
    expectSame("Tessera against the spec", FeedbackRun(drivers.tessera, discard).run(Scenario::VertexStage), expected);
    if (drivers.lavapipe)
      expectSame("lavapipe against the spec", FeedbackRun(drivers.lavapipe, discard).run(Scenario::VertexStage), expected);
  }
}

// vkCmdDrawIndirectByteCountEXT subtracts counterOffset from the byte count ("the effective
// vertexCount": (224 - 32) / 32 = 6 vertices per instance). Against the spec only: lavapipe
// (Mesa 22.3) draws 224 / 32 = 7, as if counterOffset were 0.
TEST(TransformFeedback, ByteCountDrawSubtractsCounterOffset) {
  SKIP_WHEN_OTHER_DRIVER();
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  expectSame("Tessera against the spec", FeedbackRun(drivers.tessera, true).run(Scenario::VertexStage, 32),
             vertexScenarioExpected(32));
}

// A geometry stage's output strips are captured as their triangles ("Geometry Shading" output
// strips with the vertex order of "Triangle Strips"), input point by input point; the strip of
// one vertex after EndPrimitive is incomplete and not recorded.
TEST(TransformFeedback, GeometryStageStripsAreCapturedAsTriangles) {
  SKIP_WHEN_OTHER_DRIVER();
  Captured expected;
  expected.buffers[0].assign(1024, kMarker);
  expected.buffers[1].assign(256, kMarker);
  const uint32_t order[6] = {0, 1, 2, 1, 3, 2};
  size_t at = 0;
  for (uint32_t p = 0; p < 3; ++p)
    for (uint32_t k : order) {
      std::array<float, 4> pos = position(p);
      pos[0] += float(k), pos[1] += float(k * k);
      const uint32_t word = p * 16 + k;
      put(expected.buffers[0], at, pos.data(), 16);
      put(expected.buffers[0], at + 16, &word, 4);
      at += 20;
    }
  expected.counters = {uint32_t(at), 0, 0, 0};
  expected.queries = {6, 6};
  for (bool discard : {true, false}) {
    SCOPED_TRACE(discard ? "rasterizer discard" : "rasterized");
    DualDriverInstance drivers;
    ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
    expectSame("Tessera against the spec", FeedbackRun(drivers.tessera, discard).run(Scenario::GeometryStage), expected);
    if (drivers.lavapipe)
      expectSame("lavapipe against the spec", FeedbackRun(drivers.lavapipe, discard).run(Scenario::GeometryStage), expected);
  }
}

// One captured triangle of xfb_capture.tese: three 24-byte records, rotated so that the
// smallest record comes first (the winding stays; the tessellator may start anywhere).
using Triangle = std::array<std::array<uint8_t, 24>, 3>;
std::vector<Triangle> capturedTriangles(const std::vector<uint8_t>& bytes, uint32_t count) {
  std::vector<Triangle> out;
  for (uint32_t t = 0; t < count; ++t) {
    Triangle tri;
    for (int k = 0; k < 3; ++k) std::memcpy(tri[k].data(), bytes.data() + 24 * (3 * t + k), 24);
    std::rotate(tri.begin(), std::min_element(tri.begin(), tri.end()), tri.end());
    out.push_back(tri);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The tessellation evaluation stage's primitives are captured ("Transform Feedback": the last
// pre-rasterization stage): a quad patch at levels 2 makes 8 triangles of 3 vertices, whose
// TessCoords are multiples of 1/2 ("Tessellator Spacing", equal). Which triangles, and in
// which order, is the implementation's: the set must be lavapipe's.
TEST(TransformFeedback, TessellationEvaluationStagePrimitivesAreCaptured) {
  SKIP_WHEN_OTHER_DRIVER();
  for (bool discard : {true, false}) {
    SCOPED_TRACE(discard ? "rasterizer discard" : "rasterized");
    DualDriverInstance drivers;
    ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
    const Captured ours = FeedbackRun(drivers.tessera, discard).run(Scenario::Tessellation);
    EXPECT_EQ(ours.queries, (std::vector<uint64_t>{8, 8}));
    EXPECT_EQ(ours.counters[0], 8u * 3 * 24);
    ASSERT_EQ(ours.buffers[0].size(), 1024u);
    for (uint32_t r = 0; r < 24; ++r) {
      float coord[2];
      std::memcpy(coord, ours.buffers[0].data() + 24 * r, 8);
      for (float c : coord) EXPECT_TRUE(c == 0.0f || c == 0.5f || c == 1.0f) << "record " << r << ": TessCoord " << c;
    }
    EXPECT_TRUE(std::all_of(ours.buffers[0].begin() + 24 * 24, ours.buffers[0].end(), [](uint8_t b) { return b == kMarker; }))
        << "bytes after the 24 records were written";
    if (!drivers.lavapipe) continue;
    const Captured theirs = FeedbackRun(drivers.lavapipe, discard).run(Scenario::Tessellation);
    EXPECT_EQ(theirs.queries, ours.queries);
    EXPECT_EQ(theirs.counters, ours.counters);
    EXPECT_TRUE(capturedTriangles(ours.buffers[0], 8) == capturedTriangles(theirs.buffers[0], 8))
        << "the captured triangles differ from lavapipe's";
  }
}

// 64-bit outputs and inputs between stages ("Location Assignment": two components per double,
// two locations for a dvec3) and in the capture: the vertex stage's doubles reach the geometry
// stage unchanged and are captured at the offsets "Transform Feedback Capture" and the block's
// layout give (a structure member holding doubles starts at a multiple of 8 bytes). Every value
// is one correctly rounded double operation, so the spec fixes the bytes; lavapipe must agree.
// The geometry stage, fed a triangle, also reads the vertex stage's PointSize
// (gl_in[].gl_PointSize, whatever the topology) and writes its own as a point per input vertex
// (shaderTessellationAndGeometryPointSize), which is captured.
TEST(TransformFeedback, DoublesAndPointSizesTravelBetweenStagesAndAreCapturedAtTheirOffsets) {
  SKIP_WHEN_OTHER_DRIVER();
  auto check = [](const char* driver, const Captured& got) {
    ASSERT_EQ(got.buffers[0].size(), 1024u) << driver;
    for (uint32_t k = 0; k < 3; ++k) {
      const uint8_t* record = got.buffers[0].data() + 48 * k;
      uint32_t id;
      double v[3], s;
      float pointSize;
      std::memcpy(&id, record, 4);
      std::memcpy(v, record + 8, 24);
      std::memcpy(&s, record + 32, 8);
      std::memcpy(&pointSize, record + 40, 4);
      EXPECT_EQ(pointSize, 2.0f * (1.0f + float(k))) << driver << " record " << k << " PointSize";
      EXPECT_EQ(id, k) << driver << " record " << k;
      const std::array<float, 4> p = position(k);
      for (int c = 0; c < 3; ++c) EXPECT_EQ(v[c], double(p[c]) * 1.0000000001) << driver << " record " << k << " v." << c;
      EXPECT_EQ(s, double(k) + 0.1) << driver << " record " << k;
    }
    for (size_t i = 144; i < 1024; ++i)
      if (got.buffers[0][i] != kMarker) {
        ADD_FAILURE() << driver << ": byte " << i << " written after the three records";
        break;
      }
    EXPECT_EQ(got.counters[0], 144u) << driver;
    EXPECT_EQ(got.queries, (std::vector<uint64_t>{3, 3})) << driver;
  };
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  check("Tessera", FeedbackRun(drivers.tessera, true).run(Scenario::Doubles));
  if (drivers.lavapipe) check("lavapipe", FeedbackRun(drivers.lavapipe, true).run(Scenario::Doubles));
}

}  // namespace
}  // namespace tessera_test
