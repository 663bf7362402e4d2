// Transform feedback ("Transform Feedback", VK_EXT_transform_feedback): what the last
// pre-rasterization stage captures (read from its SPIR-V decorations by spirv_jit), and the
// buffers a draw captures into (bound and made active by the Vulkan front, icd/). Plain data
// shared by spirv_jit (which fills the layout), raster (which captures) and icd (which owns
// both).
#pragma once

#include <cstdint>
#include <vector>

namespace tessera {

constexpr uint32_t kMaxTransformFeedbackBuffers = 4;  // maxTransformFeedbackBuffers
constexpr uint32_t kMaxTransformFeedbackStreams = 4;  // maxTransformFeedbackStreams (geometry vertex streams)

// One captured run of 32-bit words of a vertex: `words` words of the source written at byte
// `offset` of the vertex's record in buffer `buffer` (the Offset decoration, plus the element's
// position inside an array, matrix or structure: "written tightly packed in order").
struct FeedbackOutput {
  enum class Source : uint8_t {
    Location,   // interface word location * 4 + component and on (ShadedVertices' locations)
    Position,   // BuiltIn Position, component `first` and on
    PointSize,  // BuiltIn PointSize
    ClipDistance,  // BuiltIn ClipDistance, element `first` and on
    CullDistance,  // BuiltIn CullDistance, element `first` and on
  };
  Source source = Source::Location;
  uint8_t buffer = 0;
  uint16_t words = 0;
  uint32_t first = 0;   // Location: location * 4 + component; Position: component; distances: element
  uint32_t offset = 0;  // bytes into the vertex's record
};

// The Xfb execution mode's captures of one stage ("Transform Feedback Capture").
struct FeedbackLayout {
  bool enabled = false;  // the stage declares Xfb
  uint32_t bufferMask = 0;  // bit b: some output goes to buffer b (or it has an XfbStride)
  uint32_t stride[kMaxTransformFeedbackBuffers] = {};  // XfbStride per buffer
  // The vertex stream each buffer captures (the Stream of its outputs, 0 when undecorated):
  // the vertices of stream s go to the buffers of stream s only.
  uint8_t bufferStream[kMaxTransformFeedbackBuffers] = {};
  uint32_t streamMask = 0;  // bit s: some buffer captures stream s
  uint32_t locationMask = 0;  // bit l: interface location l is captured (kept by the draw)
  bool pointSize = false;     // PointSize is captured
  // Outputs the draw does not keep (built-ins other than Position, PointSize, ClipDistance and
  // CullDistance, buffers beyond the last): their bytes
  // are left as they are. Reported so that the pipeline can say so.
  bool unsupportedOutputs = false;
  std::vector<FeedbackOutput> outputs;
};

// The capture state of a command buffer's execution (icd's ExecContext): per buffer the
// memory bound by vkCmdBindTransformFeedbackBuffersEXT and the bytes written so far (the
// counter vkCmdEndTransformFeedbackEXT stores), and per vertex stream the running counts the
// transform feedback queries take their differences of.
struct FeedbackTargets {
  bool capturing = false;  // between vkCmdBegin- and vkCmdEndTransformFeedbackEXT (else queries only count)
  struct Buffer {
    uint8_t* base = nullptr;  // buffer memory + bound offset; null: not bound
    uint64_t size = 0;        // bytes from base (pSizes or the rest of the buffer)
    uint64_t written = 0;     // byte offset of the next vertex record from base
  } buffers[kMaxTransformFeedbackBuffers];
  // VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT per stream: the first value (primitives
  // written to the stream's buffers) and the second (every primitive of the stream that
  // reached the stage while capture or a query was active).
  uint64_t primitivesWritten[kMaxTransformFeedbackStreams] = {};
  uint64_t primitivesNeeded[kMaxTransformFeedbackStreams] = {};
};

}  // namespace tessera
