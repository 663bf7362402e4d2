// "Transform Feedback Capture": the primitives leaving the last pre-rasterization stage are
// written, vertex by vertex, into the bound transform feedback buffers. Both draw paths call
// this on the queue's thread in primitive order (before binning and rasterizer discard), so
// what is written does not depend on threads or SIMD width.
#include <cstring>

#include "draw_internal.h"

namespace tessera::raster {

bool keepsFeedbackLocation(const DrawState& s, uint32_t location) {
  return s.feedbackLayout && s.feedbackLayout->enabled && (s.feedbackLayout->locationMask >> location & 1);
}

bool keepsFeedbackPointSize(const DrawState& s) {
  return s.feedbackLayout && s.feedbackLayout->enabled && s.feedbackLayout->pointSize;
}

FeedbackWriter::FeedbackWriter(const DrawState& s, const ShadedVertices& v) : s_(s), v_(v) {
  active_ = s.feedback && s.feedbackLayout && s.feedbackLayout->enabled;
  if (!active_) return;
  std::fill(std::begin(locationIndex_), std::end(locationIndex_), -1);
  for (size_t k = 0; k < v.locations.size(); ++k)
    if (v.locations[k] < abi::kMaxInterfaceLocations) locationIndex_[v.locations[k]] = int32_t(k);
}

void FeedbackWriter::primitive(uint32_t vertexCount, const uint32_t* slots, uint32_t provoking, uint32_t stream) {
  if (!active_ || stream >= kMaxTransformFeedbackStreams) return;
  FeedbackTargets& t = *s_.feedback;
  const FeedbackLayout& layout = *s_.feedbackLayout;
  ++t.primitivesNeeded[stream];
  if (!t.capturing) return;
  // The buffers of this vertex stream: "the vertices of each primitive emitted to stream s are
  // written to the buffers whose outputs are in stream s".
  uint32_t buffers = 0;
  for (uint32_t b = 0; b < kMaxTransformFeedbackBuffers; ++b)
    if ((layout.bufferMask >> b & 1) && layout.bufferStream[b] == stream) buffers |= 1u << b;
  // "Any primitive for which ... would overflow" a buffer is not written, in any buffer of its
  // stream; the counters stay where they are. A buffer the shader writes that is not bound
  // takes nothing.
  for (uint32_t b = 0; b < kMaxTransformFeedbackBuffers; ++b) {
    if (!(buffers >> b & 1) || !t.buffers[b].base) continue;
    const uint64_t need = uint64_t(vertexCount) * layout.stride[b];
    if (t.buffers[b].written > t.buffers[b].size || need > t.buffers[b].size - t.buffers[b].written) return;
  }
  // "Transform Feedback" with transformFeedbackPreservesProvokingVertex (always honoured): the
  // vertices in their topology's winding order, rotated so that the provoking vertex is
  // written first, or last with VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT; fans too
  // (transformFeedbackPreservesTriangleFanProvokingVertex).
  const uint32_t start = vertexCount ? (provoking + (s_.provokingVertexLast ? 1 : 0)) % vertexCount : 0;
  for (uint32_t k = 0; k < vertexCount; ++k) {
    const uint32_t slot = slots[(start + k) % vertexCount];
    for (const FeedbackOutput& o : layout.outputs) {
      FeedbackTargets::Buffer& buf = t.buffers[o.buffer];
      if (!buf.base || !(buffers >> o.buffer & 1)) continue;
      const uint64_t at = buf.written + uint64_t(k) * layout.stride[o.buffer] + o.offset;
      for (uint32_t w = 0; w < o.words; ++w) {
        if (at + 4 * w + 4 > buf.size) break;  // an Offset beyond the stride: never past the range
        uint32_t word = 0;
        switch (o.source) {
          case FeedbackOutput::Source::Position:
            if (o.first + w < 4) word = v_.words[size_t(slot) * v_.stride + o.first + w];
            break;
          case FeedbackOutput::Source::PointSize: {
            const float size = slot < v_.pointSize.size() ? v_.pointSize[slot] : 1.0f;
            std::memcpy(&word, &size, 4);
            break;
          }
          case FeedbackOutput::Source::ClipDistance:
            if (o.first + w < v_.clipDistances) std::memcpy(&word, &v_.clipDistance(slot)[o.first + w], 4);
            break;
          case FeedbackOutput::Source::CullDistance:
            if (o.first + w < v_.cullDistances) std::memcpy(&word, &v_.cullDistance(slot)[o.first + w], 4);
            break;
          case FeedbackOutput::Source::Location: {
            const uint32_t index = o.first + w;
            const uint32_t location = index / 4;
            if (location < abi::kMaxInterfaceLocations && locationIndex_[location] >= 0)
              word = v_.outputs(slot)[4 * uint32_t(locationIndex_[location]) + index % 4];
            break;
          }
        }
        std::memcpy(buf.base + at + 4 * w, &word, 4);
      }
    }
  }
  for (uint32_t b = 0; b < kMaxTransformFeedbackBuffers; ++b)
    if ((buffers >> b & 1) && t.buffers[b].base) t.buffers[b].written += uint64_t(vertexCount) * layout.stride[b];
  ++t.primitivesWritten[stream];
}

void captureAssembled(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                      const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& v) {
  FeedbackWriter writer(s, v);
  if (!writer.active()) return;
  uint32_t slots[3];
  assemblePrimitives(
      s.topology, isRestart, count, [&](uint32_t a) { slots[0] = slotOf(a), writer.primitive(1, slots, 0); },
      [&](uint32_t a, uint32_t b) {
        slots[0] = slotOf(a), slots[1] = slotOf(b), writer.primitive(2, slots, lineProvokingVertex(s));
      },
      [&](uint32_t a, uint32_t b, uint32_t c, uint32_t provoking) {
        slots[0] = slotOf(a), slots[1] = slotOf(b), slots[2] = slotOf(c), writer.primitive(3, slots, provoking);
      },
      s.provokingVertexLast);
}

void captureGeometry(const DrawState& s, const GeometryOutput& g, const ShadedVertices& v) {
  FeedbackWriter writer(s, v);
  if (!writer.active()) return;
  // Streams have separate buffers and counts, so stream 0's primitives, then the others' (each
  // stream's in emission order), write what interleaving them would.
  for (const GeometryPrimitive& p : g.primitives) writer.primitive(p.vertexCount, p.slots, p.provoking);
  for (const GeometryPrimitive& p : g.otherStreams) writer.primitive(p.vertexCount, p.slots, p.provoking, p.stream);
}

}  // namespace tessera::raster
