// Transform feedback capture (raster/transform_feedback.cpp) against the spec's rules, on
// hand-made shaded vertices: "Transform Feedback Capture" (each primitive's vertices written in
// order at written + k * XfbStride + Offset; strips and fans decomposed into their individual
// primitives, incomplete ones not recorded; a primitive that does not fit whole is not written
// and the counters stay; the stream query counts primitives written and needed) with the
// vertex orders of "Primitive Topologies" ("Triangle Strips", "Triangle Fans", "Line Strips",
// "Primitive Restart"). Expected bytes are computed here from those formulas.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "draw_internal.h"

namespace tessera::raster {
namespace {

// Vertex v has position (v, 10 v, 100 v, 1) and location 2 = (1000 + v, 0, 0, 0).
ShadedVertices numberedVertices(uint32_t count) {
  ShadedVertices v;
  v.locations = {2};
  v.stride = 8;
  v.words.assign(size_t(count) * v.stride, 0);
  for (uint32_t i = 0; i < count; ++i) {
    const float p[4] = {float(i), 10.0f * i, 100.0f * i, 1.0f};
    std::memcpy(&v.words[size_t(i) * v.stride], p, 16);
    v.words[size_t(i) * v.stride + 4] = 1000 + i;
  }
  return v;
}

// Captures location 2's first word at Offset 0 and Position.y at Offset 4 of a 12-byte stride
// (the last 4 bytes of every record are not written).
FeedbackLayout twoOutputLayout() {
  FeedbackLayout l;
  l.enabled = true;
  l.bufferMask = 1;
  l.stride[0] = 12;
  l.locationMask = 1u << 2;
  l.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::Location, 0, 1, 2 * 4, 0});
  l.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::Position, 0, 1, 1, 4});
  return l;
}

constexpr uint32_t kUntouched = 0xDEADBEEF;

struct Capture {
  FeedbackLayout layout = twoOutputLayout();
  FeedbackTargets targets;
  std::vector<uint32_t> memory;
  DrawState state;
  explicit Capture(size_t bytes, VkPrimitiveTopology topology) : memory(bytes / 4, kUntouched) {
    targets.capturing = true;
    targets.buffers[0].base = reinterpret_cast<uint8_t*>(memory.data());
    targets.buffers[0].size = bytes;
    state.topology = topology;
    state.feedbackLayout = &layout;
    state.feedback = &targets;
  }
  void run(const std::vector<uint8_t>& isRestart, uint32_t count) {
    const ShadedVertices v = numberedVertices(count);
    captureAssembled(state, isRestart, count, [](uint32_t p) { return p; }, v);
  }
  // The records the spec gives for these vertex numbers, in order.
  std::vector<uint32_t> expected(const std::vector<uint32_t>& vertices, size_t words) const {
    std::vector<uint32_t> out(words, kUntouched);
    for (size_t k = 0; k < vertices.size(); ++k) {
      out[3 * k] = 1000 + vertices[k];
      const float y = 10.0f * vertices[k];
      std::memcpy(&out[3 * k + 1], &y, 4);
    }
    return out;
  }
};

TEST(TransformFeedback, TriangleStripIsCapturedAsItsTrianglesInSpecOrder) {
  // "Triangle Strips": triangle i has vertices i, i + (1 + i % 2), i + (2 - i % 2).
  Capture c(4 * 3 * 12, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP);
  c.run({}, 5);
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < 3; ++i) order.insert(order.end(), {i, i + 1 + i % 2, i + 2 - i % 2});
  EXPECT_EQ(c.memory, c.expected(order, c.memory.size()));
  EXPECT_EQ(c.targets.buffers[0].written, 9u * 12);
  EXPECT_EQ(c.targets.primitivesWritten[0], 3u);
  EXPECT_EQ(c.targets.primitivesNeeded[0], 3u);
}

TEST(TransformFeedback, TriangleFanAndRestartedLineStripFollowTheirTopologies) {
  // "Triangle Fans": triangle i has vertices i + 1, i + 2, 0.
  Capture fan(4 * 3 * 12, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN);
  fan.run({}, 5);
  std::vector<uint32_t> order;
  for (uint32_t i = 0; i < 3; ++i) order.insert(order.end(), {i + 1, i + 2, 0});
  EXPECT_EQ(fan.memory, fan.expected(order, fan.memory.size()));
  // "Line Strips" with "Primitive Restart": 0-1, 1-2, then (after the restart at 3) 4-5; the
  // incomplete strip of vertex 7 alone (after the restart at 6) records nothing.
  Capture strip(4 * 6 * 12, VK_PRIMITIVE_TOPOLOGY_LINE_STRIP);
  strip.run({0, 0, 0, 1, 0, 0, 1, 0}, 8);
  EXPECT_EQ(strip.memory, strip.expected({0, 1, 1, 2, 4, 5}, strip.memory.size()));
  EXPECT_EQ(strip.targets.primitivesWritten[0], 3u);
}

TEST(TransformFeedback, APrimitiveThatDoesNotFitIsNotWrittenAndCountersStay) {
  // Room for two triangles and two more vertices: the third triangle would overflow.
  Capture c(8 * 12 + 4, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST);
  c.run({}, 12);
  std::vector<uint32_t> order{0, 1, 2, 3, 4, 5};
  EXPECT_EQ(c.memory, c.expected(order, c.memory.size()));
  EXPECT_EQ(c.targets.buffers[0].written, 6u * 12);
  EXPECT_EQ(c.targets.primitivesWritten[0], 2u);
  EXPECT_EQ(c.targets.primitivesNeeded[0], 4u);
}

TEST(TransformFeedback, CaptureResumesAtTheWrittenByteCount) {
  Capture c(4 * 4 * 12, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  c.targets.buffers[0].written = 2 * 12;  // as a counter buffer would resume it
  c.run({}, 2);
  std::vector<uint32_t> want(c.memory.size(), kUntouched);
  const std::vector<uint32_t> records = c.expected({0, 1}, 6);
  std::copy(records.begin(), records.end(), want.begin() + 6);
  EXPECT_EQ(c.memory, want);
  EXPECT_EQ(c.targets.buffers[0].written, 4u * 12);
}

TEST(TransformFeedback, InactiveCaptureOnlyCountsForTheQuery) {
  Capture c(4 * 4 * 12, VK_PRIMITIVE_TOPOLOGY_LINE_LIST);
  c.targets.capturing = false;
  c.run({}, 6);
  EXPECT_EQ(c.memory, std::vector<uint32_t>(c.memory.size(), kUntouched));
  EXPECT_EQ(c.targets.primitivesWritten[0], 0u);
  EXPECT_EQ(c.targets.primitivesNeeded[0], 3u);
}

// ClipDistance and CullDistance are captured element by element from where the shaded vertex
// keeps them (after its locations): ClipDistance[1..2] at Offset 0, CullDistance[0] at Offset 8,
// a 16-byte stride; an element the stage does not write (ClipDistance[3] of a stage with 3) is
// captured as 0.
TEST(TransformFeedback, ClipAndCullDistancesAreCapturedElementByElement) {
  Capture c(2 * 16, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  c.layout = FeedbackLayout{};
  c.layout.enabled = true;
  c.layout.bufferMask = 1;
  c.layout.stride[0] = 16;
  c.layout.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::ClipDistance, 0, 3, 1, 0});
  c.layout.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::CullDistance, 0, 1, 0, 12});
  ShadedVertices v = numberedVertices(2);
  std::vector<uint32_t> words(v.words.begin(), v.words.end());
  v.setLayout(3, 1);  // location 2, then ClipDistance[0..2], CullDistance[0]
  v.words.assign(2 * size_t(v.stride), 0);
  for (uint32_t i = 0; i < 2; ++i) {
    std::copy_n(&words[i * 8], 8, &v.words[i * v.stride]);
    const float d[4] = {0.5f + i, -1.5f - i, 2.25f * i, -8.0f + i};
    std::memcpy(&v.words[i * v.stride + v.distanceWord()], d, 16);
  }
  captureAssembled(c.state, {}, 2, [](uint32_t p) { return p; }, v);
  for (uint32_t i = 0; i < 2; ++i) {
    float got[4];
    std::memcpy(got, &c.memory[4 * i], 16);
    EXPECT_EQ(got[0], -1.5f - i) << i;   // ClipDistance[1]
    EXPECT_EQ(got[1], 2.25f * i) << i;   // ClipDistance[2]
    EXPECT_EQ(c.memory[4 * i + 2], 0u);  // ClipDistance[3]: not written by the stage
    EXPECT_EQ(got[3], -8.0f + i) << i;   // CullDistance[0]
  }
  EXPECT_EQ(c.targets.primitivesWritten[0], 2u);
}

// Vertex streams ("Transform Feedback Capture", geometryStreams): a primitive of stream s is
// written to the buffers of stream s only (FeedbackLayout::bufferStream), the overflow rule
// applies to its stream's buffers only, and each stream counts its own primitives written and
// needed. Buffer 0 (stream 0) takes location 2's word, buffer 1 (stream 1) Position.y with room
// for two of its three points.
TEST(TransformFeedback, EachStreamWritesItsOwnBuffersAndCountsItsOwnPrimitives) {
  Capture c(64, VK_PRIMITIVE_TOPOLOGY_POINT_LIST);
  std::vector<uint32_t> memory1(4, kUntouched);  // 16 bytes: two 8-byte records
  c.layout = FeedbackLayout{};
  c.layout.enabled = true;
  c.layout.bufferMask = 3;
  c.layout.stride[0] = 4;
  c.layout.stride[1] = 8;
  c.layout.bufferStream[1] = 1;
  c.layout.streamMask = 3;
  c.layout.locationMask = 1u << 2;
  c.layout.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::Location, 0, 1, 2 * 4, 0});
  c.layout.outputs.push_back(FeedbackOutput{FeedbackOutput::Source::Position, 1, 1, 1, 4});
  c.targets.buffers[1].base = reinterpret_cast<uint8_t*>(memory1.data());
  c.targets.buffers[1].size = 16;
  GeometryOutput g;
  g.vertices = numberedVertices(6);
  // Vertices 0, 2, 4 on stream 0; 1, 3, 5 on stream 1.
  for (uint32_t k = 0; k < 6; ++k) {
    GeometryPrimitive p{1, {k, k, k}, 0, 0, 0};
    p.stream = k % 2;
    (k % 2 ? g.otherStreams : g.primitives).push_back(p);
  }
  captureGeometry(c.state, g, g.vertices);
  for (uint32_t i = 0; i < 3; ++i) EXPECT_EQ(c.memory[i], 1000 + 2 * i) << "stream 0's point " << i;
  EXPECT_EQ(c.memory[3], kUntouched);
  for (uint32_t i = 0; i < 2; ++i) {
    EXPECT_EQ(memory1[2 * i], kUntouched) << "bytes 0..3 of stream 1's records are not an output";
    float y;
    std::memcpy(&y, &memory1[2 * i + 1], 4);
    EXPECT_EQ(y, 10.0f * float(2 * i + 1)) << "stream 1's point " << i;
  }
  EXPECT_EQ(c.targets.buffers[0].written, 12u);
  EXPECT_EQ(c.targets.buffers[1].written, 16u);  // the third point would overflow: not written
  EXPECT_EQ(c.targets.primitivesWritten[0], 3u);
  EXPECT_EQ(c.targets.primitivesNeeded[0], 3u);
  EXPECT_EQ(c.targets.primitivesWritten[1], 2u);
  EXPECT_EQ(c.targets.primitivesNeeded[1], 3u);
  EXPECT_EQ(c.targets.primitivesNeeded[2], 0u);
}

}  // namespace
}  // namespace tessera::raster
