// Geometry shader vertex streams with transform feedback (geometryStreams,
// VK_EXT_transform_feedback; "Geometry Shading", "Transform Feedback", "Transform Feedback
// Queries", "Primitives Generated Queries") through the loader with validation, on Tessera and
// on lavapipe in the same test (dual_driver.h), on both draw paths (the suite's name puts it in
// api_tests.reference_raster and the SIMD-width runs).
//
// tests/shaders/xfb_streams.geom emits points to streams 0..3, each stream's outputs captured
// into the buffer of its number. The spec fixes every byte and count:
//  - "Transform Feedback Capture": the vertices of stream s are written to the buffers whose
//    outputs are in stream s, in "Geometry Shader Primitive Ordering" (input point by input
//    point, each in emission order), each at its Offset within records of XfbStride bytes;
//    bytes no output covers are left alone;
//  - a primitive that would overflow one of its stream's buffers is written nowhere, and other
//    streams go on ("Transform Feedback": "any primitive ... that would overflow");
//  - the counter buffers receive each buffer's bytes written;
//  - a VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT query of index s counts the primitives of
//    stream s written and needed; a VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT query of index s
//    the primitives emitted to stream s, with transform feedback active or not;
//  - only stream 0 is rasterized (rasterizationStream 0, given explicitly through
//    VkPipelineRasterizationStateStreamCreateInfoEXT).
// The results are required from both drivers, and Tessera's bytes are compared with lavapipe's.
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

constexpr uint32_t kSize = 16;        // the colour target, pixels
constexpr uint32_t kStreams = 4;
constexpr uint8_t kMarker = 0xAB;     // bytes nothing captured into
constexpr uint32_t kBufferBytes = 256;
constexpr uint32_t kBuffer2Range = 90;  // stream 2's binding: room for 7 of its 12-byte records
constexpr uint32_t kCapturedPoints = 3, kSecondDrawPoints = 2;

struct Result {
  std::array<std::vector<uint8_t>, kStreams> buffers;
  std::array<uint32_t, kStreams> counters{};
  std::array<uint64_t, 2 * kStreams> feedbackQueries{};  // per stream: written, needed
  std::array<uint64_t, 2 * kStreams> generated{};        // draw 1's streams 0..3, then draw 2's
  std::vector<uint8_t> pixels;                           // RGBA8, kSize x kSize
};

// VK_EXT_transform_feedback's commands (the loader exports no extension commands).
struct Commands {
  PFN_vkCmdBindTransformFeedbackBuffersEXT bind;
  PFN_vkCmdBeginTransformFeedbackEXT begin;
  PFN_vkCmdEndTransformFeedbackEXT end;
  PFN_vkCmdBeginQueryIndexedEXT beginQuery;
  PFN_vkCmdEndQueryIndexedEXT endQuery;
  explicit Commands(VkDevice dev)
      : bind(reinterpret_cast<PFN_vkCmdBindTransformFeedbackBuffersEXT>(vkGetDeviceProcAddr(dev, "vkCmdBindTransformFeedbackBuffersEXT"))),
        begin(reinterpret_cast<PFN_vkCmdBeginTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginTransformFeedbackEXT"))),
        end(reinterpret_cast<PFN_vkCmdEndTransformFeedbackEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndTransformFeedbackEXT"))),
        beginQuery(reinterpret_cast<PFN_vkCmdBeginQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdBeginQueryIndexedEXT"))),
        endQuery(reinterpret_cast<PFN_vkCmdEndQueryIndexedEXT>(vkGetDeviceProcAddr(dev, "vkCmdEndQueryIndexedEXT"))) {}
  bool complete() const { return bind && begin && end && beginQuery && endQuery; }
};

// The driver must offer what the test uses: four streams and buffers, stream queries, and
// primitives generated queries of every stream.
bool supportsStreams(VkPhysicalDevice pd, const char* driver) {
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
                                                        &generated};
  VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &feedback};
  vkGetPhysicalDeviceFeatures2(pd, &features);
  VkPhysicalDeviceTransformFeedbackPropertiesEXT limits{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &limits};
  vkGetPhysicalDeviceProperties2(pd, &properties);
  EXPECT_TRUE(feedback.transformFeedback && feedback.geometryStreams) << driver;
  EXPECT_TRUE(generated.primitivesGeneratedQuery && generated.primitivesGeneratedQueryWithNonZeroStreams) << driver;
  EXPECT_GE(limits.maxTransformFeedbackStreams, kStreams) << driver;
  EXPECT_GE(limits.maxTransformFeedbackBuffers, kStreams) << driver;
  EXPECT_TRUE(limits.transformFeedbackQueries) << driver;
  // Points only on streams other than 0, and only stream 0 rasterized: what both drivers say.
  EXPECT_FALSE(limits.transformFeedbackStreamsLinesTriangles) << driver;
  EXPECT_FALSE(limits.transformFeedbackRasterizationStreamSelect) << driver;
  return feedback.transformFeedback && feedback.geometryStreams && generated.primitivesGeneratedQueryWithNonZeroStreams &&
         limits.maxTransformFeedbackStreams >= kStreams && limits.maxTransformFeedbackBuffers >= kStreams &&
         limits.transformFeedbackQueries;
}

VkPipeline createPipeline(TestDevice& device, VkPipelineLayout layout, std::vector<VkShaderModule>& modules) {
  const std::pair<VkShaderStageFlagBits, const char*> shaders[3] = {{VK_SHADER_STAGE_VERTEX_BIT, "gs_passthrough_vert"},
                                                                    {VK_SHADER_STAGE_GEOMETRY_BIT, "xfb_streams_geom"},
                                                                    {VK_SHADER_STAGE_FRAGMENT_BIT, "solid_red_frag"}};
  std::vector<VkPipelineShaderStageCreateInfo> stages;
  for (const auto& [stage, name] : shaders) {
    modules.push_back(device.createShaderModule(loadCorpusShader(name)));
    stages.push_back({VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, stage, modules.back(), "main", nullptr});
  }
  const VkVertexInputBindingDescription binding{0, 16, VK_VERTEX_INPUT_RATE_VERTEX};
  const VkVertexInputAttributeDescription attribute{0, 0, VK_FORMAT_R32G32B32A32_SFLOAT, 0};
  VkPipelineVertexInputStateCreateInfo vi{VK_STRUCTURE_TYPE_PIPELINE_VERTEX_INPUT_STATE_CREATE_INFO};
  vi.vertexBindingDescriptionCount = 1;
  vi.pVertexBindingDescriptions = &binding;
  vi.vertexAttributeDescriptionCount = 1;
  vi.pVertexAttributeDescriptions = &attribute;
  VkPipelineInputAssemblyStateCreateInfo ia{VK_STRUCTURE_TYPE_PIPELINE_INPUT_ASSEMBLY_STATE_CREATE_INFO};
  ia.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
  VkViewport viewport{0, 0, float(kSize), float(kSize), 0, 1};
  VkRect2D scissor{{0, 0}, {kSize, kSize}};
  VkPipelineViewportStateCreateInfo vp{VK_STRUCTURE_TYPE_PIPELINE_VIEWPORT_STATE_CREATE_INFO, nullptr, 0, 1, &viewport, 1, &scissor};
  // Stream 0 rasterized, said explicitly (the default without the structure).
  VkPipelineRasterizationStateStreamCreateInfoEXT stream{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_STREAM_CREATE_INFO_EXT};
  stream.rasterizationStream = 0;
  VkPipelineRasterizationStateCreateInfo rs{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_STATE_CREATE_INFO, &stream};
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
  const VkFormat format = VK_FORMAT_R8G8B8A8_UNORM;
  VkPipelineRenderingCreateInfo rendering{VK_STRUCTURE_TYPE_PIPELINE_RENDERING_CREATE_INFO, nullptr, 0, 1, &format};
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
  VkPipeline p = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateGraphicsPipelines(device.dev, VK_NULL_HANDLE, 1, &gpci, nullptr, &p), VK_SUCCESS);
  return p;
}

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags src,
                  VkAccessFlags dst, VkPipelineStageFlags srcStage, VkPipelineStageFlags dstStage) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  b.oldLayout = from;
  b.newLayout = to;
  b.srcAccessMask = src;
  b.dstAccessMask = dst;
  vkCmdPipelineBarrier(cmd, srcStage, dstStage, 0, 0, nullptr, 0, nullptr, 1, &b);
}

// Draw 1: three points with capture into the four buffers, inside a transform feedback and a
// primitives generated query of each stream. Draw 2: two points without capture, inside a
// primitives generated query of each stream.
bool run(VkPhysicalDevice pd, const char* driver, Result& out) {
  if (!supportsStreams(pd, driver)) return false;
  VkPhysicalDevicePrimitivesGeneratedQueryFeaturesEXT generated{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PRIMITIVES_GENERATED_QUERY_FEATURES_EXT};
  generated.primitivesGeneratedQuery = VK_TRUE;
  generated.primitivesGeneratedQueryWithNonZeroStreams = VK_TRUE;
  VkPhysicalDeviceTransformFeedbackFeaturesEXT feedback{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_FEATURES_EXT,
                                                        &generated};
  feedback.transformFeedback = VK_TRUE;
  feedback.geometryStreams = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, &feedback};
  v13.dynamicRendering = VK_TRUE;
  VkPhysicalDeviceFeatures features{};
  features.geometryShader = VK_TRUE;
  features.shaderTessellationAndGeometryPointSize = VK_TRUE;
  TestDevice device(pd, &features, &v13, {"VK_EXT_transform_feedback", "VK_EXT_primitives_generated_query"});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE) << driver;
  if (!dev) return false;
  const Commands xfb(dev);
  EXPECT_TRUE(xfb.complete()) << driver;
  if (!xfb.complete()) return false;

  void* vertexMap;
  const VkBuffer vertices = device.createMappedBuffer(16 * kCapturedPoints, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT, &vertexMap);
  std::memset(vertexMap, 0, 16 * kCapturedPoints);  // the geometry stage places the points itself
  std::array<VkBuffer, kStreams> buffers;
  std::array<void*, kStreams> maps;
  for (uint32_t b = 0; b < kStreams; ++b) {
    buffers[b] = device.createMappedBuffer(kBufferBytes, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_BUFFER_BIT_EXT, &maps[b]);
    std::memset(maps[b], kMarker, kBufferBytes);
  }
  void* counterMap;
  const VkBuffer counters = device.createMappedBuffer(4 * kStreams, VK_BUFFER_USAGE_TRANSFORM_FEEDBACK_COUNTER_BUFFER_BIT_EXT, &counterMap);
  std::memset(counterMap, 0xFF, 4 * kStreams);
  void* pixelMap;
  const VkBuffer pixels = device.createMappedBuffer(kSize * kSize * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &pixelMap);
  const TestDevice::Attachment target =
      device.createAttachment(VK_FORMAT_R8G8B8A8_UNORM, kSize, kSize,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);

  VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
  qpci.queryType = VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT;
  qpci.queryCount = kStreams;
  VkQueryPool feedbackPool, generatedPool;
  EXPECT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &feedbackPool), VK_SUCCESS);
  qpci.queryType = VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
  qpci.queryCount = 2 * kStreams;
  EXPECT_EQ(vkCreateQueryPool(dev, &qpci, nullptr, &generatedPool), VK_SUCCESS);

  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  std::vector<VkShaderModule> modules;
  const VkPipeline pipeline = createPipeline(device, layout, modules);

  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdResetQueryPool(cmd, feedbackPool, 0, kStreams);
  vkCmdResetQueryPool(cmd, generatedPool, 0, 2 * kStreams);
  imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
  VkRenderingAttachmentInfo color{VK_STRUCTURE_TYPE_RENDERING_ATTACHMENT_INFO};
  color.imageView = target.view;
  color.imageLayout = VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  color.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  VkRenderingInfo ri{VK_STRUCTURE_TYPE_RENDERING_INFO};
  ri.renderArea = {{0, 0}, {kSize, kSize}};
  ri.layerCount = 1;
  ri.colorAttachmentCount = 1;
  ri.pColorAttachments = &color;
  vkCmdBeginRendering(cmd, &ri);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
  const VkDeviceSize zero = 0;
  vkCmdBindVertexBuffers(cmd, 0, 1, &vertices, &zero);
  const VkDeviceSize offsets[kStreams] = {0, 0, 0, 0};
  const VkDeviceSize sizes[kStreams] = {VK_WHOLE_SIZE, VK_WHOLE_SIZE, kBuffer2Range, VK_WHOLE_SIZE};
  xfb.bind(cmd, 0, kStreams, buffers.data(), offsets, sizes);
  for (uint32_t s = 0; s < kStreams; ++s) {
    xfb.beginQuery(cmd, feedbackPool, s, 0, s);
    xfb.beginQuery(cmd, generatedPool, s, 0, s);
  }
  xfb.begin(cmd, 0, 0, nullptr, nullptr);
  vkCmdDraw(cmd, kCapturedPoints, 1, 0, 0);
  const VkBuffer counterBuffers[kStreams] = {counters, counters, counters, counters};
  const VkDeviceSize counterOffsets[kStreams] = {0, 4, 8, 12};
  xfb.end(cmd, 0, kStreams, counterBuffers, counterOffsets);
  for (uint32_t s = 0; s < kStreams; ++s) {
    xfb.endQuery(cmd, feedbackPool, s, s);
    xfb.endQuery(cmd, generatedPool, s, s);
  }
  for (uint32_t s = 0; s < kStreams; ++s) xfb.beginQuery(cmd, generatedPool, kStreams + s, 0, s);
  vkCmdDraw(cmd, kSecondDrawPoints, 1, 0, 0);
  for (uint32_t s = 0; s < kStreams; ++s) xfb.endQuery(cmd, generatedPool, kStreams + s, s);
  vkCmdEndRendering(cmd);
  imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
               VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {kSize, kSize, 1};
  vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, pixels, 1, &region);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr,
                       VK_ACCESS_TRANSFORM_FEEDBACK_WRITE_BIT_EXT | VK_ACCESS_TRANSFORM_FEEDBACK_COUNTER_WRITE_BIT_EXT |
                           VK_ACCESS_TRANSFER_WRITE_BIT,
                       VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFORM_FEEDBACK_BIT_EXT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  for (uint32_t b = 0; b < kStreams; ++b)
    out.buffers[b].assign(static_cast<uint8_t*>(maps[b]), static_cast<uint8_t*>(maps[b]) + kBufferBytes);
  std::memcpy(out.counters.data(), counterMap, 4 * kStreams);
  out.pixels.assign(static_cast<uint8_t*>(pixelMap), static_cast<uint8_t*>(pixelMap) + kSize * kSize * 4);
  EXPECT_EQ(vkGetQueryPoolResults(dev, feedbackPool, 0, kStreams, sizeof(out.feedbackQueries), out.feedbackQueries.data(), 16,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS)
      << driver;
  EXPECT_EQ(vkGetQueryPoolResults(dev, generatedPool, 0, 2 * kStreams, sizeof(out.generated), out.generated.data(), 8,
                                  VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
            VK_SUCCESS)
      << driver;

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  for (VkShaderModule m : modules) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyQueryPool(dev, feedbackPool, nullptr);
  vkDestroyQueryPool(dev, generatedPool, nullptr);
  for (VkBuffer b : buffers) vkDestroyBuffer(dev, b, nullptr);
  for (VkBuffer b : {vertices, counters, pixels}) vkDestroyBuffer(dev, b, nullptr);
  return true;
}

// What xfb_streams.geom emits to stream s for the input point of VertexIndex v, in order.
uint32_t pointsOf(uint32_t stream, uint32_t v) { return stream < 3 ? stream + 1 : v % 3; }

float pixelCoordinate(uint32_t p) { return (float(p) + 0.5f) / 8.0f - 1.0f; }

void put(std::vector<uint8_t>& bytes, size_t at, const void* data, size_t n) {
  ASSERT_LE(at + n, bytes.size());
  std::memcpy(bytes.data() + at, data, n);
}

// The spec's result of run(): buffers, counters, queries and pixels.
Result expected() {
  Result r;
  const uint32_t stride[kStreams] = {20, 8, 12, 16};
  const uint32_t fits[kStreams] = {~0u, ~0u, kBuffer2Range / 12, ~0u};  // records a binding holds
  std::array<uint32_t, kStreams> records{}, needed{};
  for (uint32_t s = 0; s < kStreams; ++s) r.buffers[s].assign(kBufferBytes, kMarker);
  for (uint32_t v = 0; v < kCapturedPoints; ++v)  // "Geometry Shader Primitive Ordering"
    for (uint32_t s = 0; s < kStreams; ++s)
      for (uint32_t k = 0; k < pointsOf(s, v); ++k) {
        ++needed[s];
        if (records[s] == fits[s]) continue;  // would overflow: written nowhere
        const size_t at = size_t(records[s]++) * stride[s];
        if (s == 0) {
          const float position[4] = {pixelCoordinate(2 * v + 1), pixelCoordinate(1), 0.0f, 1.0f};
          const uint32_t word = v * 16 + k;
          put(r.buffers[0], at, position, 16);
          put(r.buffers[0], at + 16, &word, 4);
        } else if (s == 1) {
          const uint32_t words[2] = {v, k};
          put(r.buffers[1], at, words, 8);
        } else if (s == 2) {
          const float value = float(v * 10 + k) + 0.5f;
          put(r.buffers[2], at + 4, &value, 4);
        } else {
          const float value[4] = {float(v), float(k), -1.0f, float(1u << k)};
          put(r.buffers[3], at, value, 16);
        }
      }
  for (uint32_t s = 0; s < kStreams; ++s) {
    r.counters[s] = records[s] * stride[s];
    r.feedbackQueries[2 * s] = records[s];
    r.feedbackQueries[2 * s + 1] = needed[s];
    for (uint32_t v = 0; v < kCapturedPoints; ++v) r.generated[s] += pointsOf(s, v);
    for (uint32_t v = 0; v < kSecondDrawPoints; ++v) r.generated[kStreams + s] += pointsOf(s, v);
  }
  // Stream 0's points cover pixel (2v + 1, 1); the other streams' positions (row 9) are never
  // rasterized.
  r.pixels.assign(kSize * kSize * 4, 0);
  for (uint32_t v = 0; v < kCapturedPoints; ++v) {
    const uint8_t red[4] = {255, 0, 0, 255};
    put(r.pixels, (size_t(1) * kSize + 2 * v + 1) * 4, red, 4);
  }
  return r;
}

// Word by word (a float where the stream's output is one, else the bytes' value).
void expectSameWords(const std::string& what, const std::vector<uint8_t>& got, const std::vector<uint8_t>& want) {
  ASSERT_EQ(got.size(), want.size()) << what;
  uint32_t mismatches = 0;
  for (size_t at = 0; at + 4 <= got.size(); at += 4) {
    uint32_t g, w;
    std::memcpy(&g, &got[at], 4);
    std::memcpy(&w, &want[at], 4);
    if (g == w) continue;
    float gf, wf;
    std::memcpy(&gf, &g, 4);
    std::memcpy(&wf, &w, 4);
    if (++mismatches <= 8)
      ADD_FAILURE() << what << " byte " << at << ": 0x" << std::hex << g << " (" << gf << "), want 0x" << w << " (" << wf << ")";
  }
  EXPECT_EQ(mismatches, 0u) << what;
}

void expectSame(const std::string& who, const Result& got, const Result& want) {
  for (uint32_t s = 0; s < kStreams; ++s) {
    expectSameWords(who + ": buffer " + std::to_string(s), got.buffers[s], want.buffers[s]);
    EXPECT_EQ(got.counters[s], want.counters[s]) << who << ": counter of buffer " << s;
    EXPECT_EQ(got.feedbackQueries[2 * s], want.feedbackQueries[2 * s]) << who << ": stream " << s << " primitives written";
    EXPECT_EQ(got.feedbackQueries[2 * s + 1], want.feedbackQueries[2 * s + 1]) << who << ": stream " << s << " primitives needed";
    EXPECT_EQ(got.generated[s], want.generated[s]) << who << ": stream " << s << " primitives generated with capture";
    EXPECT_EQ(got.generated[kStreams + s], want.generated[kStreams + s])
        << who << ": stream " << s << " primitives generated without capture";
  }
  expectSameWords(who + ": pixels", got.pixels, want.pixels);
}

TEST(TransformFeedbackStreams, EachStreamCapturesIntoItsBuffersAndCountsInItsQueries) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Result want = expected();
  // The expectation itself, in the numbers the spec gives for this shader.
  ASSERT_EQ(want.counters[0], 3u * 20u);
  ASSERT_EQ(want.feedbackQueries[2 * 2], 7u);      // stream 2: 9 points, room for 7
  ASSERT_EQ(want.feedbackQueries[2 * 2 + 1], 9u);
  ASSERT_EQ(want.generated[3], 3u);                // stream 3: v % 3 points for v = 0, 1, 2
  Result tessera;
  ASSERT_TRUE(run(drivers.tessera, "Tessera", tessera));
  expectSame("Tessera", tessera, want);
  if (!drivers.lavapipe) return;
  Result lavapipe;
  ASSERT_TRUE(run(drivers.lavapipe, "lavapipe", lavapipe));
  expectSame("lavapipe", lavapipe, want);
  expectSame("Tessera against lavapipe", tessera, lavapipe);
}

}  // namespace
}  // namespace tessera_test
