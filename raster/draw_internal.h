// Pieces of a draw shared between its files and between its two paths (draw_reference.cpp,
// draw_binned.cpp): vertex indices, shaded vertices, primitive assembly and the fragment stage.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include <atomic>

#include "default_init_allocator.h"
#include "tessera/draw.h"
#include "tessera/format.h"
#include "tessera/raster.h"
#include "tessera/texel_codec.h"
#include "polygon.h"
#include "tile_depth_bounds.h"

namespace tessera {
class ThreadPool;
}

namespace tessera::raster {

// The vertex stage's results for one instance: per vertex (slot), 4 position words, then 4
// words for each location in `locations` (the outputs the fragment stage reads), then
// ClipDistance[0, clipDistances) and CullDistance[0, cullDistances) as the stage wrote them.
struct ShadedVertices {
  std::vector<uint32_t> locations;
  uint32_t clipDistances = 0, cullDistances = 0;
  uint32_t stride = 4;
  // Every stage that fills them writes every word of its slots, so growing them leaves the new
  // words unwritten (a zero fill was a serial pass over the whole draw's vertices).
  UninitializedVector<uint32_t> words;
  std::vector<float> pointSize;  // per slot, when the topology is points
  // Per slot, Layer at 2 * slot and ViewportIndex at 2 * slot + 1, when the stage that shaded
  // them writes either (abi::VertexBatch::layerViewport); empty otherwise.
  std::vector<uint32_t> layerViewport;
  const float* position(uint32_t slot) const { return reinterpret_cast<const float*>(&words[size_t(slot) * stride]); }
  const uint32_t* outputs(uint32_t slot) const { return &words[size_t(slot) * stride + 4]; }
  // Where a slot's clip distances start, and its cull distances after them.
  uint32_t distanceWord() const { return 4 + 4 * uint32_t(locations.size()); }
  const float* clipDistance(uint32_t slot) const {
    return reinterpret_cast<const float*>(&words[size_t(slot) * stride + distanceWord()]);
  }
  const float* cullDistance(uint32_t slot) const { return clipDistance(slot) + clipDistances; }
  // Per slot, its projection for viewport 0 when the binned path sets triangles up from
  // projected vertices (draw_binned.cpp, projectsVertices); empty otherwise.
  std::vector<ProjectedVertex> projected;
  // Empties every per-slot array for a new draw's vertices. The objects are reused from draw to
  // draw (the binned path swaps the primitive stages' outputs with its pooled vertex buffers),
  // and what one keeps is read as this draw's: set-up takes `projected` whenever it is not empty.
  void clear() {
    locations.clear();
    words.clear();
    pointSize.clear();
    layerViewport.clear();
    projected.clear();
    setLayout(0, 0);
  }
  // Sets the layout: `locations` already chosen, then the distances.
  void setLayout(uint32_t clip, uint32_t cull) {
    clipDistances = clip, cullDistances = cull;
    stride = 4 + 4 * uint32_t(locations.size()) + clip + cull;
  }
};

// Whether the draw's device has cancelled its work (abi::BoundResources::cancel: the device is
// lost): the draw loops then take no more work.
inline bool cancelled(const DrawState& s) { return s.resources && abi::cancelRequested(s.resources->cancel); }

// "Pipeline Statistics Queries": adds n to statistic `which` of the draw's active query.
inline void countStatistic(const DrawState& s, PipelineStatistic which, uint64_t n) {
  if (s.statistics && n) std::atomic_ref<uint64_t>(s.statistics[which]).fetch_add(n, std::memory_order_relaxed);
}
// The primitives input assembly makes of one instance's vertices (the topology, restarts,
// patches of patchControlPoints): INPUT_ASSEMBLY_PRIMITIVES per instance.
uint64_t inputPrimitives(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t vertexCount);
// "Primitives Generated Queries": adds n primitives emitted by the last pre-rasterization stage
// to the draw's active query. Both paths count where transform feedback would capture them
// (before rasterizer discard): without a tessellation or geometry stage the primitives
// assemblePrimitives makes (inputPrimitives), else the stage's GeometryOutput::primitives.
// Vertex streams (`stream` 0..3) count separately: s.primitivesGenerated holds one counter per
// stream.
inline void countGenerated(const DrawState& s, uint64_t n, uint32_t stream = 0) {
  if (s.primitivesGenerated && n && stream < kMaxTransformFeedbackStreams)
    std::atomic_ref<uint64_t>(s.primitivesGenerated[stream]).fetch_add(n, std::memory_order_relaxed);
}

// "Controlling the Viewport": the raster state of a primitive sent to viewport `index`
// (ViewportIndex selects the viewport and the scissor). An index outside [0, viewportCount)
// gives undefined results ("Multiple Viewports"): viewport 0 then.
inline RasterState viewportRaster(const DrawState& s, uint32_t index) {
  RasterState r = s.raster;
  if (index > 0 && index < s.viewportCount && index < kMaxViewports) {
    r.viewport = s.viewports[index];
    r.scissor = s.scissors[index];
  }
  return r;
}

// "Primitive Clipping" and "CullDistance" for one primitive of `v` with `n` vertices at `slots`:
// false when its cull distances discard it; otherwise copies the clip distances into `clip`
// (a ClipTriangle's or ClipLine's) and sets `count`.
inline bool userClipping(const ShadedVertices& v, const uint32_t* slots, uint32_t n, uint32_t& count,
                         float (*clip)[kMaxUserClipPlanes]) {
  count = v.clipDistances;
  if (v.cullDistances) {
    const float* cull[3];
    for (uint32_t k = 0; k < n; ++k) cull[k] = v.cullDistance(slots[k]);
    if (culledByCullDistances(cull, n, v.cullDistances)) return false;
  }
  for (uint32_t k = 0; k < n && count; ++k) std::copy_n(v.clipDistance(slots[k]), count, clip[k]);
  return true;
}
// The same for a point: kept whole or discarded whole (pointInsideClipDistances).
inline bool pointSurvivesUserClipping(const ShadedVertices& v, uint32_t slot) {
  const float* cull = v.cullDistance(slot);
  if (v.cullDistances && culledByCullDistances(&cull, 1, v.cullDistances)) return false;
  return pointInsideClipDistances(v.clipDistance(slot), v.clipDistances);
}

// Sizes `out` for `count` slots (locations, stride, zeroed words and point sizes).
void prepareShadedVertices(const DrawState& s, size_t count, ShadedVertices& out);
// Shades slots [begin, end) of one instance; slot i has VertexIndex vertexIndices[i]. Ranges of
// one ShadedVertices may be shaded concurrently (each writes only its own slots).
void shadeVertexRange(const DrawState& s, const DrawCall& c, uint32_t instance, const uint32_t* vertexIndices,
                      size_t begin, size_t end, ShadedVertices& out);

// The draw's index list ("Programmable Primitive Shading": VertexIndex of each vertex, the
// vertex offset added) and which entries are primitive restarts (empty without restart),
// read in ranges over `pool` when one is given.
struct VertexIndexList {
  std::vector<uint32_t> vertexIndex;
  std::vector<uint8_t> isRestart;
};
void readVertexIndices(const DrawState& s, const DrawCall& c, VertexIndexList& out, ThreadPool* pool = nullptr);

// The primitives a restart-free run of n vertices of `topology` makes (0 for patch lists).
inline uint32_t runPrimitiveCount(VkPrimitiveTopology topology, uint32_t n) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST: return n;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST: return n / 2;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP: return n >= 2 ? n - 1 : 0;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST: return n / 3;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN: return n >= 3 ? n - 2 : 0;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY: return n / 4;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY: return n >= 4 ? n - 3 : 0;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY: return n / 6;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: return n >= 6 ? (n - 4) / 2 : 0;
    default: return 0;  // patch lists: only with tessellation (draw_tessellation.cpp)
  }
}

// Primitives [first, last) of a restart-free run that starts at position `begin` (last at most
// runPrimitiveCount of the run's vertices), in order, through callbacks as assemblePrimitives' below (line:
// a, b, startsStrip; triangle: a, b, c, and where LAST mode's provoking vertex is). Primitive i
// is a function of i alone, so a long run can be assembled in ranges, in parallel.
template <typename Point, typename Line, typename Triangle>
void emitRunPrimitives(VkPrimitiveTopology topology, uint32_t begin, uint32_t first, uint32_t last, Point&& point,
                       Line&& line, Triangle&& triangle) {
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_POINT_LIST:
      for (uint32_t i = first; i < last; ++i) point(begin + i);
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST:  // provoking v(2i), LAST: v(2i+1)
      for (uint32_t i = first; i < last; ++i) line(begin + 2 * i, begin + 2 * i + 1, true);
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP:  // provoking v(i), LAST: v(i+1)
      for (uint32_t i = first; i < last; ++i) line(begin + i, begin + i + 1, i == 0);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST:  // provoking v(3i), LAST: v(3i+2), the third
      for (uint32_t i = first; i < last; ++i) triangle(begin + 3 * i, begin + 3 * i + 1, begin + 3 * i + 2, 2u);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP:
      // Triangle i: v(i), v(i + (1 + i % 2)), v(i + (2 - i % 2)); provoking v(i), LAST:
      // v(i+2), the third for even i, the second for odd i.
      for (uint32_t i = first; i < last; ++i) triangle(begin + i, begin + i + 1 + i % 2, begin + i + 2 - i % 2, 2 - i % 2);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN:  // v(i+1), v(i+2), v(0); provoking v(i+1), LAST: v(i+2)
      for (uint32_t i = first; i < last; ++i) triangle(begin + i + 1, begin + i + 2, begin, 1u);
      break;
    // Without a geometry stage, a topology with adjacency draws the primitives it describes
    // ("Line Lists With Adjacency" ...: the 2nd and 3rd vertices; triangles the 1st, 3rd
    // and 5th of each primitive, v(2i) first); the adjacent vertices are only shaded.
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:  // provoking v(4i+1), LAST: v(4i+2)
      for (uint32_t i = first; i < last; ++i) line(begin + 4 * i + 1, begin + 4 * i + 2, true);
      break;
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:  // provoking v(i+1), LAST: v(i+2)
      for (uint32_t i = first; i < last; ++i) line(begin + i + 1, begin + i + 2, i == 0);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:  // provoking v(6i), LAST: v(6i+4)
      for (uint32_t i = first; i < last; ++i) triangle(begin + 6 * i, begin + 6 * i + 2, begin + 6 * i + 4, 2u);
      break;
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY:
      // Odd i: v(2i), v(2i+4), v(2i+2); provoking v(2i), LAST: v(2i+4), the third for even
      // i, the second for odd i.
      for (uint32_t i = first; i < last; ++i)
        triangle(begin + 2 * i, begin + 2 * i + 2 + 2 * (i % 2), begin + 2 * i + 4 - 2 * (i % 2), 2 - i % 2);
      break;
    default:  // patch lists: only with tessellation (draw_tessellation.cpp)
      break;
  }
}

// A line's provoking vertex ("Flat Shading"): a, or b in LAST mode.
inline uint32_t lineProvokingVertex(const DrawState& s) { return s.provokingVertexLast ? 1u : 0u; }

// "Primitive Topologies": calls point(a) / line(a, b) / triangle(a, b, c) with positions in the
// index list, in primitive order, restart-delimited runs, every primitive in the vertex order
// of its topology's equation (whatever the provoking vertex mode: the order decides the
// winding, the clipped polygon's fan and the interpolation's base vertex, so coverage and
// smooth values never depend on the mode). A line callback taking a third argument is told
// whether the line starts a strip (every line of a list, the first of each strip: where "Line
// Stipple" resets its counter). A triangle callback taking a fourth argument is told which of
// a, b, c (0, 1, 2) is the provoking vertex ("Flat Shading"): the first with the default
// VK_PROVOKING_VERTEX_MODE_FIRST_VERTEX_EXT, the one the topology's section names for
// VK_PROVOKING_VERTEX_MODE_LAST_VERTEX_EXT when `provokingVertexLast`. A line's provoking vertex
// is a, or b in LAST mode (lineProvokingVertex).
template <typename Point, typename Line, typename Triangle>
void assemblePrimitives(VkPrimitiveTopology topology, const std::vector<uint8_t>& isRestart, uint32_t count,
                        Point&& point, Line&& lineCallback, Triangle&& triangleCallback, bool provokingVertexLast = false) {
  auto line = [&](uint32_t a, uint32_t b, bool startsStrip) {
    if constexpr (std::is_invocable_v<Line&, uint32_t, uint32_t, bool>) lineCallback(a, b, startsStrip);
    else lineCallback(a, b);
  };
  // `lastAt`: where the equation's order puts LAST mode's provoking vertex.
  const bool last = provokingVertexLast;
  auto triangle = [&](uint32_t a, uint32_t b, uint32_t c, uint32_t lastAt) {
    if constexpr (std::is_invocable_v<Triangle&, uint32_t, uint32_t, uint32_t, uint32_t>)
      triangleCallback(a, b, c, last ? lastAt : 0u);
    else triangleCallback(a, b, c);
  };
  auto emitRun = [&](uint32_t begin, uint32_t end) {
    emitRunPrimitives(topology, begin, 0, runPrimitiveCount(topology, end - begin), point, line, triangle);
  };
  uint32_t runStart = 0;
  if (!isRestart.empty())
    for (uint32_t i = 0; i < count; ++i) {
      if (!isRestart[i]) continue;
      emitRun(runStart, i);
      runStart = i + 1;
    }
  emitRun(runStart, count);
}

// "Patch Lists" with "Primitive Restart" (primitiveTopologyPatchListRestart): calls
// patch(first) with the position in the index list of each complete patch of n vertices, in
// order, each restart-delimited run cut into patches on its own (a run's incomplete last patch
// is dropped, as a list's incomplete primitive is).
template <typename Patch>
void forEachPatch(const std::vector<uint8_t>& isRestart, uint32_t count, uint32_t n, Patch&& patch) {
  if (n == 0) return;
  auto emitRun = [&](uint32_t begin, uint32_t end) {
    for (uint32_t first = begin; uint64_t(first) + n <= end; first += n) patch(first);
  };
  uint32_t runStart = 0;
  if (!isRestart.empty())
    for (uint32_t i = 0; i < count; ++i) {
      if (!isRestart[i]) continue;
      emitRun(runStart, i);
      runStart = i + 1;
    }
  emitRun(runStart, count);
}

// "Geometry Shading": the geometry stage's results for one instance. Its emitted vertices as
// shaded vertices (position, then the outputs the fragment stage reads; point sizes when it
// emits points), and the primitives made from its strips, in rasterization order ("Geometry
// Shader Primitive Ordering": input primitive by input primitive, each one's invocations in
// increasing order), each in its output topology's vertex order.
struct GeometryPrimitive {
  uint32_t vertexCount;  // 1 point, 2 line, 3 triangle
  uint32_t slots[3];
  uint32_t primitiveId;  // PrimitiveId for the fragment stage: the provoking vertex's
  uint32_t layer;        // Layer (the provoking vertex's): the attachment layer it renders to
  uint32_t viewport;     // ViewportIndex (the provoking vertex's): the viewport it is sent to
  // A line that starts a strip ("Line Stipple" resets its counter): the first line of each
  // strip a geometry stage emits; every line the tessellator makes (isolines are drawn as
  // independent segments).
  bool startsStrip = true;
  // "Flat Shading": which of slots is the provoking vertex (as assemblePrimitives tells it for
  // a triangle): the output topology's first or, in LAST mode, last vertex of each primitive.
  uint32_t provoking = 0;
  // The vertex stream the geometry stage emitted it to (OpEmitStreamVertex): 0 is rasterized
  // (rasterizationStream; transformFeedbackRasterizationStreamSelect is not offered), every
  // stream is captured and counted by its queries.
  uint32_t stream = 0;
};

// "Line Stipple": s at the first vertex of each line primitive of a draw, in primitive order.
// "s is reset to 0 at the start of each strip (for line strips), and before every line segment
// in a group of independent segments"; along a strip it carries on by each earlier segment's
// lineStippleAdvance (computed only when a strip goes on). Both draw paths take the counters
// from here, in order, before any line is set up, so clipping and tiles never change them.
class LineStippleCounter {
 public:
  // The counter for the line from position a to b (clip space) with the raster state of its
  // viewport; 0 while stippling is off.
  double next(bool startsStrip, const float* a, const float* b, const RasterState& r) {
    if (!r.lineStippleEnable) return 0;
    if (startsStrip) counter_ = 0;
    else if (havePrevious_) counter_ += lineStippleAdvance(previous_[0], previous_[1], previousRaster_);
    std::copy_n(a, 4, previous_[0]);
    std::copy_n(b, 4, previous_[1]);
    previousRaster_ = r;
    havePrevious_ = true;
    return counter_;
  }

 private:
  double counter_ = 0;
  bool havePrevious_ = false;
  float previous_[2][4] = {};
  RasterState previousRaster_;
};
struct GeometryOutput {
  ShadedVertices vertices;
  std::vector<GeometryPrimitive> primitives;  // stream 0's: rasterized and captured
  // The primitives of vertex streams 1..3 (GeometryPrimitive::stream), in order within each
  // stream: captured and counted, never rasterized. Their vertices are in `vertices` too.
  std::vector<GeometryPrimitive> otherStreams;
  std::vector<uint32_t> primitiveIdScratch, layerScratch, viewportScratch;  // per emitted vertex of one lane
  std::vector<uint32_t> streamScratch;  // one stream's vertices of one lane, in emission order
};
// "Primitives Generated Queries": each stream's primitives of one instance's stage output
// counted for that stream's query.
void countGeneratedStreams(const DrawState& s, const GeometryOutput& g);
// A range of one instance's primitive-stage work: geometry shader invocations (input primitive
// x invocation number, in that order) or patches. The outputs of consecutive ranges, joined in
// order (each range's vertices after the earlier ranges', its primitives' slots moved with
// them), are the output of their union: ranges can run on different threads
// (runPrimitiveStages).
struct StageUnits {
  uint64_t begin = 0, end = UINT64_MAX;
};
// The geometry stage's input primitives of one instance (assembled from the index list with
// `topology`, adjacency included; slotOf maps an index-list position to its slot in `in`), as
// slots of `in`, geometry.inputVertices per primitive; raster/draw_geometry.cpp.
std::vector<uint32_t> geometryInputSlots(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                                         const std::function<uint32_t(uint32_t)>& slotOf);
// Runs the geometry shader invocations `units` of those primitives into `out`.
void shadeGeometryLanes(const DrawState& s, const std::vector<uint32_t>& inputSlots, const ShadedVertices& in,
                        GeometryOutput& out, StageUnits units = {});
// "Tessellation" (raster/draw_tessellation.cpp): the patches of one instance (an index list of
// `count` entries cut into patchControlPoints; slotOf maps a position to its slot in `in`)
// through the control shader, the tessellator and the evaluation shader; the generated
// primitives and vertices in `out`, as a geometry stage would leave them.
// `units` restricts the run to those patches (counted as PrimitiveId counts them).
void runTessellationStages(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count, const std::function<uint32_t(uint32_t)>& slotOf,
                           const ShadedVertices& in, GeometryOutput& out, StageUnits units = {});
// The stages between vertex shading and rasterization that make new primitives: tessellation,
// then the geometry stage (on the tessellated primitives when both are there; `scratch` holds
// those).
//
// "Layer", "ViewportIndex": a vertex stage that is the last pre-rasterization stage and writes
// either (shaderOutputLayer, shaderOutputViewportIndex) takes the same path, its assembled
// primitives turned into GeometryPrimitives that carry the provoking vertex's values
// (raster/vertex_layer_viewport.cpp), so that layered rendering and the per-primitive viewport
// reuse the geometry stage's plumbing on both draw paths.
inline bool vertexStageIsLast(const DrawState& s) { return !s.geometryShader && !s.tessControlShader; }
inline bool vertexSelectsLayerOrViewport(const DrawState& s) {
  return vertexStageIsLast(s) && (s.vertexWritesLayer || s.vertexWritesViewportIndex);
}
inline bool hasPrimitiveStages(const DrawState& s) {
  return s.geometryShader || s.tessControlShader || vertexSelectsLayerOrViewport(s);
}
// Whether the last pre-rasterization stage writes Layer ("Layered Rendering": the draw is split
// by layer; "The last active pre-rasterization shader stage (in pipeline order) controls the
// Layer that is used").
inline bool lastStageWritesLayer(const DrawState& s) {
  return s.geometryShader ? s.geometry.writesLayer
         : s.tessControlShader ? s.tessellation.evalWritesLayer
                               : s.vertexWritesLayer;
}
// The assembled primitives of one instance's vertex-shaded `in` as GeometryPrimitives (`in`
// copied into out.vertices), each with its provoking vertex's Layer and ViewportIndex.
void vertexLayerViewportPrimitives(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                                   const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in,
                                   GeometryOutput& out);
// With a pool, an instance with enough patches or geometry shader invocations runs them in
// ranges over the pool (called from outside the pool's tasks), joined in order: the same
// output as one range.
void runPrimitiveStages(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                        const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in, GeometryOutput& out,
                        GeometryOutput& scratch, ThreadPool* pool = nullptr);
// "Transform Feedback" (raster/transform_feedback.cpp). Whether the last pre-rasterization
// stage's shaded vertices must keep location `location` / point sizes for capture.
bool keepsFeedbackLocation(const DrawState& s, uint32_t location);
bool keepsFeedbackPointSize(const DrawState& s);
// Writes the primitives of one set of shaded vertices, in the order given, into
// s.feedback's buffers as s.feedbackLayout says ("Transform Feedback Capture"): a primitive of
// vertex stream s into the buffers of stream s only. Counts them for stream s's queries. Does
// nothing without an active capture or query.
class FeedbackWriter {
 public:
  FeedbackWriter(const DrawState& s, const ShadedVertices& v);
  bool active() const { return active_; }
  // One primitive by its slots of v in its topology's order, as assemblePrimitives and the
  // primitive stages give them, slots[provoking] its provoking vertex: written in that
  // winding order from the provoking vertex, or ending with it when
  // DrawState::provokingVertexLast.
  void primitive(uint32_t vertexCount, const uint32_t* slots, uint32_t provoking, uint32_t stream = 0);

 private:
  const DrawState& s_;
  const ShadedVertices& v_;
  bool active_ = false;
  int32_t locationIndex_[abi::kMaxInterfaceLocations] = {};  // v.locations' index of each location, -1: not kept
};
// The primitives of the draw's topology over an index list ("Primitive Topologies": strips and
// fans decomposed), captured; slotOf maps a position to its slot.
void captureAssembled(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                      const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& v);
// A tessellation or geometry stage's primitives of one instance (their vertices `v`, which
// the binned path has moved out of g.vertices), captured in order, each stream's in its
// buffers.
void captureGeometry(const DrawState& s, const GeometryOutput& g, const ShadedVertices& v);
// The outputs of the last stage before rasterization, by location (component bits): the
// geometry stage's when there is one, else the tessellation evaluation stage's, else the
// vertex stage's.
inline const uint8_t* rasterizedOutputs(const DrawState& s) {
  return s.geometryShader      ? s.geometry.outputComponents
         : s.tessControlShader ? s.tessellation.evalOutputComponents
                               : s.vertexOutputComponents;
}
// "Layered Rendering": the number of layers a geometry stage's Layer may select (the fewest of
// the attachments'), and the draw's state for the primitives sent to `layer`: every
// attachment's base moved to that layer and the resources (copied into *resources) naming it
// for the fragment stage's Layer.
uint32_t drawLayerCount(const DrawState& s);
DrawState layerState(const DrawState& s, uint32_t layer, abi::BoundResources* resources);
// "Primitive Topologies" for a geometry stage's input: calls primitive(positions, n) with the
// index-list positions of each input primitive in the order the shader's input arrays take
// them (gl_in[0..n)), in primitive order, restart-delimited runs.
void assembleGeometryInputs(VkPrimitiveTopology topology, const std::vector<uint8_t>& isRestart, uint32_t count,
                            const std::function<void(const uint32_t* positions, uint32_t n)>& primitive);

// Sample `sample` of pixel (x, y) of an attachment: a pixel's samples are stored one after another.
inline uint8_t* texelAt(const AttachmentView& v, int32_t x, int32_t y, uint32_t sample = 0) {
  return v.base + uint64_t(y) * v.rowPitch + (uint64_t(x) * v.samples + sample) * v.texelSize;
}

// Scene::addClear's work for one tile: `c` over `r` (inside c.rect), raster/clear_region.cpp.
void fillClearRegion(const ClearRegion& c, const Rect& r);

// "Conversion From Floating-Point to Normalized Fixed-Point" for 8 bits, as the texel codec
// computes it: NaN -> 0, clamp to [0, 1], times 255 (exact in double), rounded to nearest even
// (adding and subtracting 2^52 rounds in the default mode, as the codec's std::nearbyint does).
// Written as two selects (NaN fails the first comparison) so that lane loops vectorize.
// `maxValue` is 2^b - 1 for b <= 24 bits, so the product is exact in double.
inline uint32_t floatToUnorm(float f, double maxValue) {
  const double atLeastZero = double(f) > 0.0 ? double(f) : 0.0;
  const double clamped = atLeastZero < 1.0 ? atLeastZero : 1.0;
  constexpr double kRound = 4503599627370496.0;  // 2^52
  return uint32_t(int32_t((clamped * maxValue + kRound) - kRound));
}

// One texel of an 8-bit RGBA or BGRA attachment, UNORM or sRGB, from a fragment's RGBA as
// encodeTexel writes it (clamped, rounded to nearest even; sRGB colour through the codec's own
// table, linearToSrgb8); false, writing nothing, for any other format. The loop's unblended
// writes (draw_fragments.cpp) use it where the generic codec would look the format up per texel.
inline bool encodeBytes8(VkFormat format, const float rgba[4], uint8_t out[4]) {
  const bool srgb = format == VK_FORMAT_R8G8B8A8_SRGB || format == VK_FORMAT_B8G8R8A8_SRGB;
  const bool bgra = format == VK_FORMAT_B8G8R8A8_UNORM || format == VK_FORMAT_B8G8R8A8_SRGB;
  if (!srgb && !bgra && format != VK_FORMAT_R8G8B8A8_UNORM) return false;
  for (uint32_t c = 0; c < 4; ++c)
    out[bgra && c != 3 ? 2 - c : c] = srgb && c != 3 ? linearToSrgb8(rgba[c]) : uint8_t(floatToUnorm(rgba[c], 255.0));
  return true;
}

// 8-bit UNORM encode of W lanes' RGBA outputs (out[c * W + lane]) into 32-bit texels, component
// c at bit shift[c], rounding as the texel codec does (draw_blocks.cpp, vectorized).
void encodeUnorm8(uint32_t w, const float* out, const uint32_t shift[4], uint32_t* texels);

// R8G8B8A8_UINT texels of W lanes' outputs (out[c * W + lane]): each component clamped to
// [0, 255] in byte c, as the texel codec encodes it (draw_blocks.cpp, vectorized).
void encodeUint8(uint32_t w, const uint32_t* out, uint32_t* texels);

// "Blending" of W lanes for an 8-bit UNORM attachment: src is RGBA per lane ([c * W + lane]),
// src1 the second source of "Dual-Source Blending" laid out alike, current the attachment's
// texels (component c at bit shift[c]), k the blend constants as bytes (blendInputUnorm8); the texels the 8-bit
// fixed-point rule (tessera/blend_unorm8.h) gives, in vector form (draw_blocks.cpp).
void blendUnorm8(uint32_t w, const BlendAttachment& blend, const uint32_t k[4], const float* src, const float* src1,
                 const uint32_t* current, const uint32_t shift[4], uint32_t* texels);

// The lanes among `laneMask` whose bits[lane] is not 0 (vectorized, draw_blocks.cpp).
uint32_t lanesWithBits(uint32_t w, const uint32_t* bits, uint32_t laneMask);

// "Depth Test" of W lanes with D32_SFLOAT depth: the lanes among laneMask whose z passes `op`
// against `stored` (draw_blocks.cpp, vectorized).
uint32_t depthPassLanes(uint32_t w, VkCompareOp op, const float* z, const float* stored, uint32_t laneMask);

// One 4x4 block of a triangle as the block walker computes it (draw_blocks.cpp), per block lane
// (quads in rows, pixels in a quad as FragmentBatch orders them).
struct BlockEdges;  // draw_blocks.cpp: a triangle's edge values stepped over 4x4 blocks

// The block walker rasterizes with 1 or 4 samples (FragmentStage::walksBlocks); the other
// counts take the quad path (rasterizeTriangle), which handles every count.
inline constexpr uint32_t kBlockMaxSamples = 4;

struct BlockPixels {
  uint32_t coverage;                // bit l: pixel l has a covered sample
  bool singleSample;                // the triangle is rasterized with one sample
  uint32_t sampleCoverage[16];      // per lane: its covered samples
  float z[16], invW[16];            // at the centre
  float sampleZ[kBlockMaxSamples][16];  // with 4 samples: the depth at each sample
  // The weight sets (pixel_weights.h): interpolation (pixel::interpolate) reads rows 1 and 2
  // only, so the weight functions leave row 0 unwritten.
  float persp[3][16], linear[3][16];
  float centroidPersp[3][16], centroidLinear[3][16];  // with Centroid inputs and 4 samples
  uint32_t passedSamples[16];       // with 4 samples and blockDepthTest: the samples that passed
};

// What the block walker's batches must carry besides coverage (FragmentStage::laneNeeds_): each
// costs whole-vector stores per batch, so a pipeline that reads none of them pays for none.
enum LaneNeed : uint32_t {
  kLanePixels = 1u << 0,   // LaneState px/py: per-fragment tests and colour writes done by the loop
  kLaneFragXY = 1u << 1,   // FragCoord.xy for the shader
  kLaneFragZW = 1u << 2,   // FragCoord.zw for the shader
  kLaneSampleZ = 1u << 3,  // each lane's depth for the per-fragment tests
};

// One interpolated input component of a triangle, as the block walker prepares it: where it
// goes in the fragment inputs, its vertices' terms and which weight set it uses.
struct BlockInput {
  uint32_t word;         // (location * 4 + component) * W
  float v0, d1, d2;      // v0, v1 - v0, v2 - v0 (pixel::interpolate's terms)
  uint32_t weights;      // 0 perspective, 1 window-space, 2 centroid perspective, 3 centroid window-space
};

// Rasterizes primitives and shades their fragments in batches of W/4 quads, then runs the
// per-fragment operations and writes the attachments (draw_fragments.cpp). One FragmentStage
// is used by one thread; several may run at once on disjoint tiles.
class FragmentStage {
 public:
  // `blocks`: walk single-sample triangles in 4x4 blocks (draw_blocks.cpp), the binned path's
  // choice; the reference path walks quads (coverage.cpp) and stays the oracle.
  explicit FragmentStage(const DrawState& state, bool blocks = false);
  // One triangle by its vertices' slots in its topology's order; `provoking` says which of
  // them (0 a, 1 b, 2 c) is the provoking vertex (assemblePrimitives).
  void triangle(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t c, uint32_t provoking,
                uint32_t primitiveId, std::vector<SetupTriangle>& scratch);
  // One line by its endpoints' slots (a provoking, or b with DrawState::provokingVertexLast:
  // lineProvokingVertex), one point by its slot; pointSize from the vertex stage.
  // stippleCounter: "Line Stipple"'s s at a (LineStippleCounter).
  void line(const ShadedVertices& vertices, uint32_t a, uint32_t b, uint32_t primitiveId, std::vector<SetupLine>& scratch,
            double stippleCounter = 0);
  void point(const ShadedVertices& vertices, uint32_t slot, float pointSize, uint32_t primitiveId);

  // The same for primitives already set up, restricted to the pixels of `tile` (corners even).
  // slots[provoking] is the provoking vertex, whose outputs Flat inputs take ("Flat Shading").
  void setUpTriangle(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking, uint32_t primitiveId,
                     const SetupTriangle& st, const Rect& tile);
  // A line's slots are {a, b, a} (its third weight is 0), a point's {slot, slot, slot}; an
  // edge or vertex of a polygon drawn in polygon mode LINE or POINT has the triangle's three,
  // and the triangle's provoking vertex ("Polygon Mode": its edges and vertices are drawn with
  // the polygon's flat values).
  void setUpLine(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking, uint32_t primitiveId,
                 const SetupLine& sl, const Rect& tile);
  void setUpPoint(const ShadedVertices& vertices, const uint32_t slots[3], uint32_t provoking, uint32_t primitiveId,
                  const SetupPoint& p, const Rect& tile);
  // Shades what is batched and adds the samples counted for an occlusion query to the draw's
  // counter (atomically: tiles of one draw finish on several threads).
  void flush();
  // Continues with another draw's state (flushing what the previous one batched): one stage
  // serves a tile's draws one after another without reallocating.
  void retarget(const DrawState& state);
  // The binned path's tile pass: the primitives that follow are drawn into `tile` of the
  // scene's grid, whose attachments hold what everything before them left there (called at
  // each tile and after the tile's clears and resolves). Until the next call the stage may keep
  // bounds of the tile's stored depths (depthBounds_), which only its own drawing changes.
  void beginTile(const Rect& tile) { depthBounds_.begin(tile); }
  // The viewport (ViewportIndex) of the primitives that follow: their set-up's viewport and
  // scissor (the reference path), FragDepth's clamp and the fragment stage's ViewportIndex.
  // Retargeting returns to viewport 0.
  void setViewport(uint32_t index) {
    if (index == viewport_) return;
    if (!quads_.empty()) shadeBatch();  // a batch is one primitive's: one ViewportIndex
    viewport_ = index;
    viewportRaster_ = viewportRaster(*s_, index);
  }

 private:
  void flushOcclusion();
  // Per lane of a batch: the pixel, the samples still covered, and each sample's depth.
  struct LaneState {
    int32_t px[abi::kMaxSimdWidth], py[abi::kMaxSimdWidth];
    uint32_t sampleBits[abi::kMaxSimdWidth];
    float sampleZ[kMaxSamples][abi::kMaxSimdWidth];  // per sample, lanes contiguous (vector loops)
    float lineCoverage[abi::kMaxSimdWidth];  // smooth lines: Quad::lineCoverage (smoothLine_)
  };
  void shadeBatch();
  bool walksBlocks(const SetupTriangle& st) const;
  // VK_EXT_sample_locations: the draw's own sample locations, or null for the standard ones.
  const SampleLocations* customLocations() const {
    return s_->raster.customSampleLocations && s_->raster.samples > 1 ? &s_->raster.customLocations : nullptr;
  }
  // Sample k's location in the pixel (x, y from its top-left corner): the draw's own (in
  // sixteenths) or the standard one.
  std::array<float, 2> sampleLocation(uint32_t samples, uint32_t k) const {
    if (const SampleLocations* c = customLocations(); c && k < samples) return {c->x[k] / 16.0f, c->y[k] / 16.0f};
    const float* l = standardSampleLocation(samples, k);
    return {l[0], l[1]};
  }
  void blockTriangle(const SetupTriangle& st, const Rect& tile);
  template <bool CullBlocks, bool MarkWrites>
  void walkTriangleBlocks(const SetupTriangle& st, const Rect& region, const DepthInterval& depths);
  // Lanes [first, first + W) of a 4x4 block at (bx, by) (draw_blocks.cpp); `coverage` from lane
  // `first` on; the arrays are per block lane.
  // testsDone: blockDepthTest ran the early tests; `coverage` holds the lanes that passed.
  void shadeBlockBatch(uint32_t coverage, int32_t bx, int32_t by, uint32_t first, const BlockPixels& b,
                       bool testsDone = false);
  // Interpolates the fragment inputs of `lane` with the given weights (Centroid locations in
  // `centroidLocations` with the centroid weights).
  void interpolate(uint32_t lane, const float* persp, const float* linear, uint32_t centroidLocations,
                   const float* centroidPersp, const float* centroidLinear);
  // Calls f(input word, vertex word) for each ClipDistance and CullDistance element the fragment
  // shader reads and the primitive's vertices carry: its word in FragmentBatch::inputs (times W)
  // and in a shaded vertex (abi::kFragmentDistanceWords).
  template <typename F>
  void forEachDistanceInput(F&& f) const {
    const uint32_t clip = std::min<uint32_t>(s_->fragment.clipDistances, vertices_->clipDistances);
    const uint32_t cull = std::min<uint32_t>(s_->fragment.cullDistances, vertices_->cullDistances);
    const uint32_t base = vertices_->distanceWord();
    for (uint32_t d = 0; d < clip; ++d) f(abi::kFragmentDistanceWords + d, base + d);
    for (uint32_t d = 0; d < cull; ++d)
      f(abi::kFragmentDistanceWords + abi::kMaxClipDistances + d, base + vertices_->clipDistances + d);
  }
  // Shades the batch's covered lanes and runs the per-sample operations on lanes.sampleBits.
  void runFragments(abi::FragmentBatch& fb, LaneState& lanes);
  // runFragments in two steps: the early per-fragment tests (false: nothing left to shade),
  // then shading, the late tests, coverage changes and the attachment writes. The block walker
  // interpolates inputs between the two, so fragments that fail early cost no interpolation.
  bool earlyTests(abi::FragmentBatch& fb, LaneState& lanes);
  // The same with the lanes that have samples already known (`covered`).
  bool earlyTests(abi::FragmentBatch& fb, LaneState& lanes, uint32_t covered);
  void shadeAndWrite(abi::FragmentBatch& fb, LaneState& lanes);
  bool sampleTests(const LaneState& lanes, uint32_t lane, uint32_t sample, float z, const int32_t* stencilRef = nullptr);
  void runTests(LaneState& lanes, uint32_t laneMask, const float* fragDepth, const int32_t* stencilRef = nullptr);
  uint32_t lanesWithSamples(const LaneState& lanes, uint32_t laneMask) const;
  // Writes colour attachment `attachment` (8-bit UNORM RGBA or BGRA, or R8G8B8A8_UINT) for the
  // `alive` lanes (binned path; the reference goes through the texel codec).
  void writeRgba8(uint32_t attachment, uint32_t alive, const LaneState& lanes);
  // With logicOpEnable: attachment i of format f takes logicOp of the lanes' values and its
  // texels (writeLogicOp), or, where the operation does not apply, the values unblended
  // (writeUnblended); both keep the components the write mask leaves out.
  void writeLogicOp(uint32_t attachment, uint32_t alive, const LaneState& lanes, const FormatInfo& f);
  void writeUnblended(uint32_t attachment, uint32_t alive, const LaneState& lanes, const FormatInfo& f);
  // The depth plane's texels (draw_fragments.cpp): through the texel codec, or with the binned
  // path the same arithmetic inline for D32, D16 and D24.
  float loadDepth(const uint8_t* texel) const;
  void storeDepth(float z, uint8_t* texel) const;
  float quantizeDepth(float z) const;

  // Per colour attachment, what writeRgba8 needs that is fixed for a draw: the memory bit of
  // each component (R, G, B, A), the bits the write mask keeps, the clamped blend constants
  // (for the kernel) and their bytes (blendInputUnorm8: the 8-bit blend's inputs).
  struct Unorm8Target {
    uint32_t shift[4];
    uint32_t keep;
    float constants[4];
    uint32_t constantBytes[4];
  };
  Unorm8Target unorm8_[abi::kMaxColorAttachments] = {};
  // Colour attachments the fragment kernel writes itself in the block walker's batches
  // (FragmentBatch::direct): 8-bit UNORM RGBA or BGRA, the samples and blend state the kernel
  // was compiled for, and nothing after the shader that could still change which samples are
  // written (bit i: attachment i).
  uint32_t directColor_ = 0;
  // The block walker computes depth and 1/w at pixel centres only when something reads them:
  // the per-fragment tests, FragCoord.z or .w, or the interpolation weights.
  bool needCentreDepth_ = true;
  uint32_t laneNeeds_ = ~0u;  // LaneNeed bits
  // Nothing but the kernel touches a wholly covered single-sample block: no tests, every
  // written attachment written by the kernel, no coverage change after it. Such blocks skip
  // the per-lane bookkeeping (shadeWholeBlock).
  bool wholeBlocksInKernel_ = false;
  // The same for blocks of any coverage (1 sample, or 4 with a kernel compiled for them),
  // after the block depth test where the pipeline has one (blockDepthTests_): every attachment
  // write is the kernel's and nothing after it changes coverage, so a partly covered block needs
  // only its coverage and samples, not the per-lane state shadeBlockBatch builds
  // (shadeKernelBlock; testsDone: the block depth test ran).
  bool kernelBlocks_ = false;
  void shadeKernelBlock(int32_t bx, int32_t by, const BlockPixels& b, bool testsDone);
  uint32_t runKernelBatch(int32_t bx, int32_t by, uint32_t first, const BlockPixels& b,
                          const float (*const* weightSets)[16], uint32_t covered);
  void shadeWholeBlock(int32_t bx, int32_t by, const BlockPixels& b);
  void beginWholeBlocks();
  void shadeWholeBlockBatches(int32_t bx, int32_t by, const BlockPixels& b);
  void shadeWholeSquare(const SetupTriangle& st, const BlockEdges& edges, int32_t x0, int32_t y0, int32_t x1,
                        int32_t y1, bool weights, BlockPixels& b);
  void setDirectRows(abi::FragmentBatch& fb, int32_t bx, int32_t by, uint32_t first) const;
  // shadeWholeSquare's blocks when the kernel is all there is to do per block (no weights,
  // inputs or FragCoord to compute, nothing to count): each block sets the attachment rows
  // and calls the kernel.
  bool kernelOnlyBlocks(bool weights) const;
  void shadeKernelOnlySquare(int32_t x0, int32_t y0, int32_t x1, int32_t y1);

  const DrawState* s_ = nullptr;
  uint32_t simdWidth_ = 0;
  uint32_t viewport_ = 0;        // setViewport
  RasterState viewportRaster_;   // viewportRaster(*s_, viewport_) when viewport_ > 0
  const RasterState& raster() const { return viewport_ ? viewportRaster_ : s_->raster; }
  const bool blocks_;
  enum class DepthKind : uint8_t { Codec, Float32, Unorm16, Unorm24 };
  const FormatInfo* depthInfo_ = nullptr;  // the depth attachment's format, null without one
  DepthKind depthKind_ = DepthKind::Codec;
  bool testsEnabled_ = false;  // some depth, stencil or depth bounds test applies
  // The only test is a depth test on D32_SFLOAT: runTests does it for all lanes at once
  // (runDepthTestD32).
  bool depthOnlyD32_ = false;
  void runDepthTestD32(LaneState& lanes, uint32_t laneMask, const float* fragDepth);
  // That test runs early with one sample per pixel (sample 0 in the sample mask) or with 4, and
  // no side effects: the block walker runs it, with its writes, on a whole block's covered
  // samples at once (blockDepthTest, raster/block_depth.h) before any per-lane batch state is
  // built, skips a block where none passes (most blocks of a scene drawn front to back) and
  // shades the rest with the tests done (with 4 samples, BlockPixels::passedSamples).
  bool blockDepthTests_ = false;
  uint32_t blockDepthUnormBits_ = 0;  // 24 or 16: blockDepthTests_ on a D24 or D16 plane, else 0
  // blockDepthTests_ on a single-sample D32 plane without stencil: the host's block test itself
  // (block_depth.h), which blockTriangle calls directly (blockDepthTest's dispatch and its
  // loads of the draw state were a tenth of a small triangle's block test).
  uint32_t (*blockDepthD32_)(uint8_t*, uint64_t, int32_t, int32_t, const float*, uint32_t, VkCompareOp, bool) = nullptr;
  // Hierarchical Z for blockDepthTests_' pipelines (tile_depth_bounds.h): blockTriangle drops a
  // triangle or block whose fragments fail the depth test against the whole area, and marks
  // what the block depth test writes. Every other path that may write the depth attachment
  // (another draw's state, lines, points, quads) forgets it.
  TileDepthBounds depthBounds_;
  // The stencil test is on (with or without a depth test, any depth format, 1 or 4 samples), no
  // depth bounds test: runTests does the tests for all lanes of a batch at once, sample by
  // sample (runDepthStencilLanes, depth_stencil_lanes.cpp), not lane by lane (sampleTests).
  bool depthStencilLanes_ = false;
  void runDepthStencilLanes(LaneState& lanes, uint32_t laneMask, const float* fragDepth, const int32_t* stencilRef);
  // With one sample, an S8 stencil texel and D32 or no depth, the stencil tests run early and
  // without side effects go to the block walker too (blockStencilTestS8, block_stencil.h).
  bool blockStencilTests_ = false;
  uint32_t blockDepthTest(int32_t bx, int32_t by, BlockPixels& b) const;
  bool early_ = false;         // and runs before the fragment shader
  // "Sample Counting" with the EarlyFragmentTests execution mode: the samples that passed the
  // early tests are counted before fragment shading and multisample coverage (the shader's
  // SampleMask output, alpha to coverage, discard), as the spec says they "should" be
  // (countSamplesBeforeShading).
  bool countBeforeShading_ = false;
  // Whether some fragment input is interpolated with perspective / window-space weights.
  bool needPerspective_ = false, needLinear_ = false;
  const ShadedVertices* vertices_ = nullptr;
  uint32_t slots_[3] = {};
  uint32_t flatSlot_ = 0;  // slots_[provoking]: the provoking vertex, whose values Flat inputs take
  uint32_t primitiveId_ = 0;
  bool frontFacing_ = true;
  bool isPoint_ = false;
  // The primitive is a RECTANGULAR_SMOOTH line ("Smooth Lines"): its pixels' coverage values
  // multiply colour location 0's alpha after shading, when the shader writes a float or
  // normalized colour there (scalesAlphaZero: not an integer attachment 0).
  bool smoothLine_ = false;
  bool scalesAlphaZero() const;
  uint64_t occlusionSamples_ = 0;  // counted here, added to the draw's counter by flush()
  // occlusionSamples_ += the samples of `lanes`' lanes in `covered` (lanes.sampleBits).
  void countSamples(const uint32_t* sampleBits, uint32_t covered) {
    for (; covered; covered &= covered - 1) occlusionSamples_ += uint32_t(__builtin_popcount(sampleBits[__builtin_ctz(covered)]));
  }
  uint64_t fragmentInvocations_ = 0;  // likewise, for an active pipeline statistics query
  std::vector<Quad> quads_;  // the batch being filled (one triangle)
  std::vector<uint32_t> inputs_, outputs_;
  // The block walker's batch, its per-draw fields filled once (draw_blocks.cpp).
  std::unique_ptr<abi::FragmentBatch> blockBatch_;
  // The block walker's inline sampling entries (shader_abi.h InlineSampleState), whose keys
  // retarget clears: a view or sampler may be destroyed and another made at its address
  // between draws. Null with TESSERA_INLINE_SAMPLING=0 (every sample takes the runtime call).
  std::unique_ptr<abi::InlineSampleState[]> inlineSampling_;
  // The block walker's interpolated input components of the current triangle (flat ones are
  // written into inputs_ once per triangle).
  std::vector<BlockInput> blockInputs_;
  // Sets up blockInputs_ (and writes the flat inputs) and the block batch's per-triangle fields
  // (facing, PrimitiveId, ViewportIndex, the input and output arrays) for the current triangle,
  // before its first block is shaded.
  void prepareBlockInputs(uint32_t samples);
};

}  // namespace tessera::raster
