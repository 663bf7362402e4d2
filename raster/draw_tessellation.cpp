// The tessellation stages of a draw, shared by both paths ("Tessellation"): the index list cut
// into patches of patchControlPoints vertices ("Patch Lists"; an incomplete last patch is
// dropped, and with primitive restart each run between restarts is cut on its own,
// forEachPatch), and per patch, in order: the control shader (one invocation per output vertex,
// spirv_jit's runTessControlPatch), the fixed-function tessellator on the levels it wrote
// (tessellator.h) and the evaluation shader on each generated coordinate. The generated
// points, lines or triangles, with the patch's index as PrimitiveId, are what the geometry
// stage or the rasterizer then takes ("Tessellation Primitive Ordering": a patch's primitives
// before the next patch's).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "draw_internal.h"
#include "draw_memory_bound.h"
#include "tessellator.h"
#include "tessera/thread_pool.h"

namespace tessera::raster {

namespace {

TessMode tessMode(const TessellationInterface& t) {
  TessMode m;
  m.domain = t.domain == 2 ? TessDomain::Quads : t.domain == 3 ? TessDomain::Isolines : TessDomain::Triangles;
  m.spacing = t.spacing == 2 ? TessSpacing::FractionalEven : t.spacing == 3 ? TessSpacing::FractionalOdd : TessSpacing::Equal;
  m.clockwise = t.clockwise;
  m.pointMode = t.pointMode;
  m.lowerLeftOrigin = t.lowerLeftOrigin;
  return m;
}

}  // namespace

void runTessellationStages(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                           const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in, GeometryOutput& out,
                           StageUnits units) {
  const TessellationInterface& t = s.tessellation;
  const uint32_t W = s.simdWidth;
  // The evaluation stage's outputs that the next stage reads.
  const uint8_t* next = s.geometryShader ? s.geometry.inputComponents : s.fragment.inputComponents;
  ShadedVertices& v = out.vertices;
  v.clear();
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
    if (t.evalOutputComponents[l] && (next[l] || (!s.geometryShader && keepsFeedbackLocation(s, l)))) v.locations.push_back(l);
  v.setLayout(t.evalClipDistances, t.evalCullDistances);
  out.primitives.clear();
  out.otherStreams.clear();
  // "Layer", "ViewportIndex" from the evaluation stage, when no geometry stage follows (the last
  // pre-rasterization stage controls them): per generated vertex, the provoking one's per primitive.
  const bool layered = !s.geometryShader && (t.evalWritesLayer || t.evalWritesViewportIndex);
  const uint32_t n = t.patchControlPoints;
  if (n == 0 || n > abi::kMaxPatchVertices || t.outputVertices == 0 || !s.tessControlShader || !s.tessEvalShader ||
      !t.runControl)
    return;

  thread_local abi::TessPatch input, output;
  thread_local std::vector<uint8_t> patchMemory;
  thread_local std::vector<uint32_t> outputs;
  thread_local std::vector<float> position, pointSize, clip, cull, coords;
  thread_local std::vector<uint32_t> layerViewport;
  thread_local Tessellation tess;
  // The control kernel reads the patch's n vertices and nothing past them (its prologue copies
  // PatchVertices elements, translate_tessellation.cpp): those rows start at zero (the words
  // of locations the vertex stage does not write read as 0), not all kMaxPatchVertices.
  std::memset(&input, 0, offsetof(abi::TessPatch, position));
  std::memset(input.vertex, 0, n * sizeof(input.vertex[0]));
  std::memset(input.distances, 0, n * sizeof(input.distances[0]));
  patchMemory.assign(size_t(t.patchBytes) + 64, 0);
  uint8_t* memory = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(patchMemory.data()) + 63) & ~uintptr_t(63));
  outputs.assign(abi::kMaxInterfaceLocations * 4 * W, 0);
  position.assign(4 * W, 0.0f);
  pointSize.assign(W, 1.0f);
  clip.assign(abi::kMaxClipDistances * W, 0.0f);
  cull.assign(abi::kMaxClipDistances * W, 0.0f);
  coords.assign(3 * W, 0.0f);
  layerViewport.assign(2 * W, 0);
  const TessMode mode = tessMode(t);

  abi::VertexBatch batch{};
  batch.resources = s.resources;
  batch.position = position.data();
  batch.pointSize = pointSize.data();
  batch.clipDistance = clip.data();
  batch.cullDistance = cull.data();
  batch.outputs = outputs.data();
  batch.tessCoord = coords.data();
  batch.patch = &output;
  batch.patchVertices = t.outputVertices;
  batch.layerViewport = layerViewport.data();

  // PrimitiveId counts the patches drawn so far (restarts do not reset it).
  uint32_t patch = 0;
  forEachPatch(isRestart, count, n, [&](uint32_t firstPosition) {
    const uint32_t patchIndex = patch++;
    if (patchIndex < units.begin || patchIndex >= units.end) return;
    // The control shader's inputs: the patch's vertices as the vertex stage left them.
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t slot = slotOf(firstPosition + k);
      std::memcpy(input.position[k], in.position(slot), 16);
      input.pointSize[k] = in.pointSize.empty() ? 1.0f : in.pointSize[slot];
      const uint32_t* o = in.outputs(slot);
      for (size_t i = 0; i < in.locations.size(); ++i) std::memcpy(&input.vertex[k][in.locations[i] * 4], &o[4 * i], 16);
      std::copy_n(in.clipDistance(slot), in.clipDistances, input.distances[k]);
      std::copy_n(in.cullDistance(slot), in.cullDistances, input.distances[k] + abi::kMaxClipDistances);
    }
    // Levels a shader leaves unwritten are undefined: 0 here, which discards the patch.
    std::memset(output.tessLevelOuter, 0, sizeof(output.tessLevelOuter));
    std::memset(output.tessLevelInner, 0, sizeof(output.tessLevelInner));
    for (float& size : output.pointSize) size = 1.0f;
    std::memset(memory, 0, t.patchBytes);
    abi::TessControlBatch control{};
    control.resources = s.resources;
    control.outputVertices = t.outputVertices;
    control.primitiveId = patchIndex;
    control.patchVertices = n;
    control.patchMemory = memory;
    control.in = &input;
    control.out = &output;
    t.runControl(s.tessControlShader, W, t.usesBarrier, t.controlStackBytes, &control);
    countStatistic(s, kTessellationControlShaderPatches, 1);

    if (!tessellate(mode, output.tessLevelOuter, output.tessLevelInner, tess)) return;  // "Tessellator Patch Discard"
    const uint32_t firstSlot = uint32_t(v.words.size() / v.stride);
    const uint32_t vertices = uint32_t(tess.coords.size());
    countStatistic(s, kTessellationEvaluationShaderInvocations, vertices);
    requireDrawMemory(uint64_t(firstSlot) + vertices, uint64_t(v.stride) * 4 + 4);
    v.words.resize(size_t(firstSlot + vertices) * v.stride);
    v.pointSize.resize(firstSlot + vertices, 1.0f);
    if (layered) v.layerViewport.resize(2 * size_t(firstSlot + vertices), 0);
    batch.primitiveId = patchIndex;
    for (uint32_t first = 0; first < vertices; first += W) {
      const uint32_t active = std::min(W, vertices - first);
      batch.count = active;
      for (uint32_t lane = 0; lane < W; ++lane) {
        const TessCoord& c = tess.coords[std::min(first + lane, vertices - 1)];
        coords[0 * W + lane] = c.u;
        coords[1 * W + lane] = c.v;
        coords[2 * W + lane] = c.w;
        pointSize[lane] = 1.0f;
      }
      s.tessEvalShader(&batch);
      for (uint32_t lane = 0; lane < active; ++lane) {
        uint32_t* words = &v.words[size_t(firstSlot + first + lane) * v.stride];
        for (uint32_t comp = 0; comp < 4; ++comp) std::memcpy(&words[comp], &position[comp * W + lane], 4);
        for (size_t k = 0; k < v.locations.size(); ++k)
          for (uint32_t comp = 0; comp < 4; ++comp) words[4 + 4 * k + comp] = outputs[(v.locations[k] * 4 + comp) * W + lane];
        uint32_t* distances = words + v.distanceWord();
        for (uint32_t d = 0; d < v.clipDistances; ++d) std::memcpy(&distances[d], &clip[d * W + lane], 4);
        for (uint32_t d = 0; d < v.cullDistances; ++d) std::memcpy(&distances[v.clipDistances + d], &cull[d * W + lane], 4);
        v.pointSize[firstSlot + first + lane] = pointSize[lane];
        if (layered) {
          v.layerViewport[2 * size_t(firstSlot + first + lane)] = t.evalWritesLayer ? layerViewport[lane] : 0;
          v.layerViewport[2 * size_t(firstSlot + first + lane) + 1] = t.evalWritesViewportIndex ? layerViewport[W + lane] : 0;
        }
      }
    }
    const uint32_t per = tess.verticesPerPrimitive;
    for (size_t i = 0; i + per <= tess.indices.size(); i += per) {
      GeometryPrimitive p{per, {}, patchIndex, 0};
      for (uint32_t k = 0; k < 3; ++k) p.slots[k] = firstSlot + tess.indices[i + (k < per ? k : 0)];
      // "Flat Shading": with tessellation and no geometry stage "the provoking vertex may be
      // any of the vertices in each primitive"; the first or, in LAST mode, the last in the
      // tessellator's winding order, so that transform feedback writes it first or last.
      p.provoking = s.provokingVertexLast ? per - 1 : 0;
      if (layered) {
        const size_t pv = p.slots[p.provoking];
        p.layer = v.layerViewport[2 * pv];
        p.viewport = v.layerViewport[2 * pv + 1];
      }
      out.primitives.push_back(p);
    }
  });
}

namespace {

// Runs `stage(units, out)` over units [0, count): as one range, or, with a pool of several
// threads and at least two chunks' worth of units, in consecutive ranges of at least
// `minUnits` over the pool (a few per thread, for balance), then copied into `out` in order,
// each range's part on its own thread. The parts and `out` keep their buffers from draw to draw
// (fresh ones cost a page fault per 4 KiB written, more than the copy: measured slower than one
// range at two threads); the parts hold the largest draw's output until the recording thread
// ends, as the draw paths' other per-thread scratch does.
template <typename Stage>
void runInRanges(ThreadPool* pool, uint64_t count, uint64_t minUnits, GeometryOutput& out, Stage&& stage) {
  const uint32_t threads = pool ? pool->threadCount() : 1;
  if (threads <= 1 || count < 2 * minUnits) return stage(StageUnits{}, out);
  const uint64_t ranges = std::min<uint64_t>(4 * uint64_t(threads), count / minUnits);
  const uint64_t per = (count + ranges - 1) / ranges;
  // The recording thread's, named by a reference: the pool's threads reading `parts` itself
  // would see their own.
  thread_local std::vector<GeometryOutput> recordingThreadParts;
  std::vector<GeometryOutput>& parts = recordingThreadParts;
  if (parts.size() < ranges) parts.resize(ranges);
  pool->parallelFor(ranges, [&](size_t k) { stage(StageUnits{k * per, std::min(count, (k + 1) * per)}, parts[k]); });
  // Where each part's vertices and primitives go.
  std::vector<size_t> slots(ranges + 1, 0), primitives(ranges + 1, 0), others(ranges + 1, 0);
  for (size_t k = 0; k < ranges; ++k) {
    slots[k + 1] = slots[k] + parts[k].vertices.words.size() / parts[k].vertices.stride;
    primitives[k + 1] = primitives[k] + parts[k].primitives.size();
    others[k + 1] = others[k] + parts[k].otherStreams.size();
  }
  const ShadedVertices& layout = parts[0].vertices;
  ShadedVertices& v = out.vertices;
  v.clear();
  v.locations = layout.locations;
  v.setLayout(layout.clipDistances, layout.cullDistances);
  requireDrawMemory(slots[ranges], uint64_t(v.stride) * 4 + 4);
  v.words.resize(slots[ranges] * v.stride);
  const bool pointSizes = !layout.pointSize.empty(), layered = !layout.layerViewport.empty();
  if (pointSizes) v.pointSize.resize(slots[ranges]);
  if (layered) v.layerViewport.resize(2 * slots[ranges]);
  out.primitives.resize(primitives[ranges]);
  out.otherStreams.resize(others[ranges]);
  pool->parallelFor(ranges, [&](size_t k) {
    const ShadedVertices& w = parts[k].vertices;
    std::copy(w.words.begin(), w.words.end(), v.words.begin() + slots[k] * v.stride);
    if (pointSizes) std::copy(w.pointSize.begin(), w.pointSize.end(), v.pointSize.begin() + slots[k]);
    if (layered) std::copy(w.layerViewport.begin(), w.layerViewport.end(), v.layerViewport.begin() + 2 * slots[k]);
    auto move = [&](const std::vector<GeometryPrimitive>& from, GeometryPrimitive* to) {
      for (GeometryPrimitive p : from) {
        for (uint32_t& slot : p.slots) slot += uint32_t(slots[k]);
        *to++ = p;
      }
    };
    move(parts[k].primitives, out.primitives.data() + primitives[k]);
    move(parts[k].otherStreams, out.otherStreams.data() + others[k]);
  });
}

// Units per range: a patch is tens to thousands of evaluation invocations; a geometry
// invocation emits up to maxVertices vertices (a range of 256 is 16 batches at W = 16).
constexpr uint64_t kPatchesPerRange = 4;
constexpr uint64_t kGeometryLanesPerRange = 256;

void tessellationInRanges(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                          const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in, GeometryOutput& out,
                          ThreadPool* pool) {
  uint64_t patches = 0;
  forEachPatch(isRestart, count, s.tessellation.patchControlPoints, [&](uint32_t) { ++patches; });
  runInRanges(pool, patches, kPatchesPerRange, out,
              [&](StageUnits units, GeometryOutput& part) { runTessellationStages(s, isRestart, count, slotOf, in, part, units); });
}

void geometryInRanges(const DrawState& s, const std::vector<uint32_t>& inputSlots, const ShadedVertices& in,
                      GeometryOutput& out, ThreadPool* pool) {
  const uint64_t primitives = s.geometry.inputVertices ? inputSlots.size() / s.geometry.inputVertices : 0;
  runInRanges(pool, primitives * s.geometry.invocations, kGeometryLanesPerRange, out,
              [&](StageUnits units, GeometryOutput& part) { shadeGeometryLanes(s, inputSlots, in, part, units); });
}

}  // namespace

// With a geometry stage after tessellation, the generated primitives are its input
// primitives, as a list of the generated kind ("Geometry Shading" after "Tessellation").
void runPrimitiveStages(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                        const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in, GeometryOutput& out,
                        GeometryOutput& scratch, ThreadPool* pool) {
  if (vertexSelectsLayerOrViewport(s)) {
    vertexLayerViewportPrimitives(s, isRestart, count, slotOf, in, out);
    return;
  }
  if (!s.tessControlShader) {
    geometryInRanges(s, geometryInputSlots(s, isRestart, count, slotOf), in, out, pool);
    return;
  }
  if (!s.geometryShader) {
    tessellationInRanges(s, isRestart, count, slotOf, in, out, pool);
    return;
  }
  tessellationInRanges(s, isRestart, count, slotOf, in, scratch, pool);
  std::vector<uint32_t> list;
  list.reserve(scratch.primitives.size() * 3);
  uint32_t per = 1;
  for (const GeometryPrimitive& p : scratch.primitives) {
    per = p.vertexCount;
    for (uint32_t k = 0; k < p.vertexCount; ++k) list.push_back(p.slots[k]);
  }
  DrawState listed = s;
  listed.topology = per == 1 ? VK_PRIMITIVE_TOPOLOGY_POINT_LIST
                    : per == 2 ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST
                               : VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  geometryInRanges(listed, geometryInputSlots(listed, {}, uint32_t(list.size()), [&](uint32_t position) { return list[position]; }),
                   scratch.vertices, out, pool);
}

}  // namespace tessera::raster
