// readFeedbackLayout (spirv_jit/feedback_layout.cpp) on glslang's output for the transform
// feedback test shaders (tests/shaders/xfb_capture.*): "Transform Feedback Capture" takes the
// outputs decorated with Offset, in the buffer their XfbBuffer names, with that buffer's
// XfbStride; Offset decorations of block members (gl_PerVertex) count as the variable's.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera::jit {
namespace {

std::vector<uint32_t> loadShader(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

bool has(const FeedbackLayout& l, FeedbackOutput::Source source, uint32_t buffer, uint32_t first, uint32_t words,
         uint32_t offset) {
  for (const FeedbackOutput& o : l.outputs)
    if (o.source == source && o.buffer == buffer && o.first == first && o.words == words && o.offset == offset) return true;
  return false;
}

TEST(FeedbackLayout, VertexStageOutputsAndPerVertexMembers) {
  const std::vector<uint32_t> words = loadShader("xfb_capture_vert");
  ASSERT_FALSE(words.empty());
  const FeedbackLayout l = readFeedbackLayout(words, "main", GraphicsStage::Vertex);
  ASSERT_TRUE(l.enabled);
  EXPECT_EQ(l.outputs.size(), 3u);
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Position, 0, 0, 4, 0));
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 0, 0 * 4, 4, 16));  // scaled: location 0
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 1, 1 * 4, 2, 4));   // ids: location 1
  EXPECT_EQ(l.stride[0], 32u);
  EXPECT_EQ(l.stride[1], 12u);
  EXPECT_EQ(l.bufferMask, 3u);
  EXPECT_EQ(l.locationMask, 3u);
  EXPECT_FALSE(l.pointSize);  // gl_PointSize has no Offset
  EXPECT_FALSE(l.unsupportedOutputs);
  // Not the stage the module's entry point is for, or another entry point name: nothing.
  EXPECT_FALSE(readFeedbackLayout(words, "main", GraphicsStage::Geometry).enabled);
  EXPECT_FALSE(readFeedbackLayout(words, "other", GraphicsStage::Vertex).enabled);
}

// "Transform Feedback Capture" with vertex streams (xfb_streams.geom): every output is
// captured whatever its Stream, and each buffer belongs to the stream of its outputs (a
// variable's Stream decoration, or a block's for its members), so that the draw writes stream
// s's vertices to stream s's buffers only.
TEST(FeedbackLayout, EachBufferBelongsToItsOutputsStream) {
  const FeedbackLayout g = readFeedbackLayout(loadShader("xfb_streams_geom"), "main", GraphicsStage::Geometry);
  ASSERT_TRUE(g.enabled);
  EXPECT_FALSE(g.unsupportedOutputs);
  EXPECT_EQ(g.outputs.size(), 5u);
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Position, 0, 0, 4, 0));  // gl_PerVertex, stream 0
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Location, 0, 0 * 4, 1, 16));
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Location, 1, 1 * 4, 2, 0));
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Location, 2, 2 * 4, 1, 4));
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Location, 3, 3 * 4, 4, 0));
  EXPECT_EQ(g.bufferMask, 0xFu);
  EXPECT_EQ(g.streamMask, 0xFu);
  for (uint32_t b = 0; b < 4; ++b) EXPECT_EQ(g.bufferStream[b], b) << "buffer " << b;
  EXPECT_EQ(g.stride[0], 20u);
  EXPECT_EQ(g.stride[1], 8u);
  EXPECT_EQ(g.stride[2], 12u);
  EXPECT_EQ(g.stride[3], 16u);
  // A stage without streams: every buffer is stream 0's.
  const FeedbackLayout one = readFeedbackLayout(loadShader("xfb_capture_geom"), "main", GraphicsStage::Geometry);
  EXPECT_EQ(one.streamMask, 1u);
  EXPECT_EQ(one.bufferStream[0], 0u);
}

TEST(FeedbackLayout, GeometryAndTessellationEvaluationStages) {
  const FeedbackLayout g = readFeedbackLayout(loadShader("xfb_capture_geom"), "main", GraphicsStage::Geometry);
  ASSERT_TRUE(g.enabled);
  EXPECT_EQ(g.outputs.size(), 2u);
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Position, 0, 0, 4, 0));
  EXPECT_TRUE(has(g, FeedbackOutput::Source::Location, 0, 0, 1, 16));
  EXPECT_EQ(g.stride[0], 20u);
  const FeedbackLayout t = readFeedbackLayout(loadShader("xfb_capture_tese"), "main", GraphicsStage::TessEval);
  ASSERT_TRUE(t.enabled);
  EXPECT_TRUE(has(t, FeedbackOutput::Source::Location, 0, 3 * 4, 2, 0));
  EXPECT_TRUE(has(t, FeedbackOutput::Source::Position, 0, 0, 4, 8));
  EXPECT_EQ(t.stride[0], 24u);
  EXPECT_EQ(t.locationMask, 1u << 3);
}

// An array of output blocks with XfbBuffer b on the variable: element i goes to buffer b + i at
// the members' Offsets, its members at the locations after the previous element's (GLSL 4.60
// "Transform Feedback Layout Qualifiers": arrayed blocks take consecutive buffers; the CTS's
// transform_feedback.fuzz.*instance_array* cases check the same).
TEST(FeedbackLayout, ArrayedBlocksTakeConsecutiveBuffers) {
  const FeedbackLayout l = readFeedbackLayout(loadShader("xfb_block_array_vert"), "main", GraphicsStage::Vertex);
  ASSERT_TRUE(l.enabled);
  EXPECT_EQ(l.outputs.size(), 2u);
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 1, 2 * 4, 2, 4));
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 2, 3 * 4, 2, 4));
  EXPECT_EQ(l.stride[1], 12u);
  EXPECT_EQ(l.stride[2], 12u);
  EXPECT_EQ(l.bufferMask, 0b110u);
  EXPECT_EQ(l.locationMask, 0b1100u);
}

TEST(FeedbackLayout, AModuleWithoutXfbCapturesNothingAndBadWordsAreRefused) {
  EXPECT_FALSE(readFeedbackLayout(loadShader("gs_passthrough_vert"), "main", GraphicsStage::Vertex).enabled);
  std::vector<uint32_t> words = loadShader("xfb_capture_vert");
  words.resize(30);  // the module cut short after its entry point and execution modes
  words.back() = 0xFFFF0000u | 71;
  EXPECT_FALSE(readFeedbackLayout(words, "main", GraphicsStage::Vertex).enabled);
  EXPECT_FALSE(readFeedbackLayout(std::vector<uint32_t>{1, 2}, "main", GraphicsStage::Vertex).enabled);
}

// 64-bit members of a structure without Offsets of their own start at a multiple of 8 bytes (the
// GLSL xfb_offset rules glslang lays blocks out by; the CTS's transform_feedback.fuzz cases with
// doubles in structures check the same), and a double takes 8 bytes and two components.
TEST(FeedbackLayout, DoublesInStructuresStartAtMultiplesOfEight) {
  const FeedbackLayout l = readFeedbackLayout(loadShader("xfb_double_struct_vert"), "main", GraphicsStage::Vertex);
  ASSERT_TRUE(l.enabled);
  EXPECT_EQ(l.outputs.size(), 6u);
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 0, 0, 3, 0));  // mA: 12 bytes
  for (uint32_t column = 0; column < 4; ++column)  // mB: dvec3 columns of 24 bytes from byte 16
    EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 0, (1 + 2 * column) * 4, 6, 16 + 24 * column)) << column;
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Location, 1, 9 * 4, 6, 8));  // after: locations 9-10
  EXPECT_EQ(l.stride[0], 112u);
  EXPECT_EQ(l.stride[1], 32u);
  EXPECT_FALSE(l.unsupportedOutputs);
}

// ClipDistance and CullDistance members of gl_PerVertex with an Offset are captured as runs of
// their elements ("Transform Feedback Capture": arrays tightly packed).
TEST(FeedbackLayout, ClipAndCullDistancesAreCaptured) {
  const FeedbackLayout l = readFeedbackLayout(loadShader("xfb_distances_vert"), "main", GraphicsStage::Vertex);
  ASSERT_TRUE(l.enabled);
  EXPECT_EQ(l.outputs.size(), 3u);
  EXPECT_TRUE(has(l, FeedbackOutput::Source::Position, 0, 0, 4, 0));
  EXPECT_TRUE(has(l, FeedbackOutput::Source::ClipDistance, 0, 0, 2, 16));
  EXPECT_TRUE(has(l, FeedbackOutput::Source::CullDistance, 0, 0, 1, 24));
  EXPECT_EQ(l.stride[0], 28u);  // the module's XfbStride (glslang gives 28 for this block)
  EXPECT_FALSE(l.unsupportedOutputs);
}

}  // namespace
}  // namespace tessera::jit
