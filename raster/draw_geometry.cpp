// The geometry stage of a draw, shared by both paths ("Geometry Shading"): input assembly of
// every topology (adjacency included, "Primitive Topologies"), one kernel lane per geometry
// shader invocation (input primitive x invocation number), and the decomposition of the
// emitted strips into the points, lines and triangles the rest of the draw rasterizes.
#include <algorithm>
#include <cstring>
#include <vector>

#include "draw_internal.h"
#include "zeroed_slices.h"

namespace tessera::raster {

void assembleGeometryInputs(VkPrimitiveTopology topology, const std::vector<uint8_t>& isRestart, uint32_t count,
                            const std::function<void(const uint32_t* positions, uint32_t n)>& primitive) {
  auto emitRun = [&](uint32_t begin, uint32_t n) {
    uint32_t p[6];
    auto emit = [&](std::initializer_list<uint32_t> offsets) {
      uint32_t k = 0;
      for (uint32_t o : offsets) p[k++] = begin + o;
      primitive(p, k);
    };
    switch (topology) {
      case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:  // "Line Lists With Adjacency"
        for (uint32_t i = 0; i + 3 < n; i += 4) emit({i, i + 1, i + 2, i + 3});
        break;
      case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:  // "Line Strips With Adjacency"
        for (uint32_t i = 0; i + 3 < n; ++i) emit({i, i + 1, i + 2, i + 3});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:  // "Triangle Lists With Adjacency"
        for (uint32_t i = 0; i + 5 < n; i += 6) emit({i, i + 1, i + 2, i + 3, i + 4, i + 5});
        break;
      case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
        // "Triangle Strips With Adjacency": n = floor(max(0, count - 4) / 2) primitives, each
        // given by the spec's equations in the order the shader takes them (the triangle is
        // the 1st, 3rd and 5th; the provoking vertex v(2i) always first, odd primitives'
        // order altered so that the winding stays that of the strip).
        const uint32_t triangles = n >= 4 ? (n - 4) / 2 : 0;
        if (triangles == 1) {
          emit({0, 1, 2, 5, 4, 3});
          break;
        }
        for (uint32_t i = 0; i < triangles; ++i) {
          const uint32_t t = 2 * i;
          const bool last = i + 1 == triangles;
          if (i == 0) emit({0, 1, 2, 6, 4, 3});
          else if (i % 2 == 1) emit({t, t + 3, t + 4, last ? t + 5 : t + 6, t + 2, t - 2});
          else emit({t, t - 2, t + 2, last ? t + 5 : t + 6, t + 4, t + 3});
        }
        break;
      }
      default:
        break;
    }
  };
  switch (topology) {
    case VK_PRIMITIVE_TOPOLOGY_LINE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_LINE_STRIP_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST_WITH_ADJACENCY:
    case VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP_WITH_ADJACENCY: {
      uint32_t runStart = 0;
      if (!isRestart.empty())
        for (uint32_t i = 0; i < count; ++i) {
          if (!isRestart[i]) continue;
          emitRun(runStart, i - runStart);
          runStart = i + 1;
        }
      emitRun(runStart, count - runStart);
      return;
    }
    default: {
      // The topologies without adjacency give the geometry stage the primitives the
      // rasterizer would see, in the same vertex order.
      uint32_t p[3];
      assemblePrimitives(
          topology, isRestart, count, [&](uint32_t a) { p[0] = a, primitive(p, 1); },
          [&](uint32_t a, uint32_t b) { p[0] = a, p[1] = b, primitive(p, 2); },
          [&](uint32_t a, uint32_t b, uint32_t c) { p[0] = a, p[1] = b, p[2] = c, primitive(p, 3); });
      return;
    }
  }
}

namespace {

// Appends one lane's emitted vertices to `out` and its strips' primitives ("Geometry
// Shading", output primitives: a line strip of k vertices is k - 1 lines, a triangle strip
// k - 2 triangles with the vertex order of "Triangle Strips"), each with its provoking vertex
// ("Flat Shading": the output topology's, first or, with DrawState::provokingVertexLast, the
// strip's v(i+1) of line i and v(i+2) of triangle i), whose PrimitiveId, Layer and
// ViewportIndex the primitive takes. With vertex streams each stream's vertices form their own
// strips (a record says its stream and whether it starts a strip of that stream): stream 0's
// primitives go to out.primitives, the others' to out.otherStreams.
// Where collectLane finds what it keeps in a vertex record: the record word of each of
// out.vertices' locations (ShadedVertices::locations order) and of the first clip or cull
// distance. The same for every lane of a draw, so computed once per shadeGeometryLanes call (a
// scan of every location per lane was a fifth of that function's time on gs_particles).
struct RecordLayout {
  uint32_t outputWord[abi::kMaxInterfaceLocations];
  uint32_t distanceWord;
};

RecordLayout recordLayout(const GeometryInterface& g, const ShadedVertices& v) {
  RecordLayout r{};
  // The shader's outputs in increasing location order after the header, then the distances.
  uint32_t locationWord[abi::kMaxInterfaceLocations] = {};
  r.distanceWord = abi::kGeometryRecordHeader;
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
    if (g.outputComponents[l]) locationWord[l] = r.distanceWord, r.distanceWord += 4;
  for (size_t i = 0; i < v.locations.size() && i < abi::kMaxInterfaceLocations; ++i)
    r.outputWord[i] = locationWord[v.locations[i]];
  return r;
}

void collectLane(const DrawState& s, const RecordLayout& layout, const uint32_t* records, uint32_t lane,
                 uint32_t emitted, GeometryOutput& out) {
  const GeometryInterface& g = s.geometry;
  const uint32_t W = s.simdWidth;
  ShadedVertices& v = out.vertices;
  auto word = [&](uint32_t k, uint32_t w) { return records[(size_t(k) * g.vertexWords + w) * W + lane]; };
  const uint32_t firstSlot = uint32_t(v.words.size() / v.stride);
  std::vector<uint32_t>& primitiveIds = out.primitiveIdScratch;
  primitiveIds.resize(emitted);
  std::vector<uint32_t>& layers = out.layerScratch;
  layers.resize(emitted);
  std::vector<uint32_t>& viewports = out.viewportScratch;
  viewports.resize(emitted);
  const size_t first = v.words.size();
  v.words.resize(first + size_t(emitted) * v.stride);  // every word written below
  const size_t locations = std::min<size_t>(v.locations.size(), abi::kMaxInterfaceLocations);
  const uint32_t distances = v.clipDistances + v.cullDistances;
  for (uint32_t k = 0; k < emitted; ++k) {
    uint32_t* const to = v.words.data() + first + size_t(k) * v.stride;
    for (uint32_t c = 0; c < 4; ++c) to[c] = word(k, abi::kGeometryPosition + c);
    for (size_t i = 0; i < locations; ++i)
      for (uint32_t c = 0; c < 4; ++c) to[4 + 4 * i + c] = word(k, layout.outputWord[i] + c);
    for (uint32_t d = 0; d < distances; ++d) to[v.distanceWord() + d] = word(k, layout.distanceWord + d);
    if (g.outputTopology == 0 || keepsFeedbackPointSize(s)) {
      float size;
      const uint32_t bits = word(k, abi::kGeometryPointSize);
      std::memcpy(&size, &bits, 4);
      v.pointSize.push_back(size);
    }
    primitiveIds[k] = word(k, abi::kGeometryPrimitiveId);
    layers[k] = word(k, abi::kGeometryLayer);
    viewports[k] = word(k, abi::kGeometryViewportIndex);
  }
  // Strips, per stream: a vertex flagged kGeometryStripStart starts a new strip of its stream.
  // `order` holds the stream's vertices (lane-relative) in emission order.
  std::vector<uint32_t>& order = out.streamScratch;
  uint32_t stream = 0;
  uint32_t stripStart = 0;  // index into order
  auto finishStrip = [&](uint32_t end) {
    const uint32_t n = end - stripStart;
    std::vector<GeometryPrimitive>& dst = stream == 0 ? out.primitives : out.otherStreams;
    // a, b, c: positions in the strip; p: which of them is the provoking vertex.
    auto add = [&](uint32_t count, uint32_t a, uint32_t b, uint32_t c, uint32_t p, bool startsStrip = true) {
      a = order[stripStart + a], b = order[stripStart + b], c = order[stripStart + c];
      const uint32_t pv = p == 0 ? a : p == 1 ? b : c;
      dst.push_back(GeometryPrimitive{count, {firstSlot + a, firstSlot + b, firstSlot + c}, primitiveIds[pv], layers[pv],
                                      viewports[pv], startsStrip, p, stream});
    };
    const bool last = s.provokingVertexLast;
    switch (g.outputTopology) {
      case 0:
        for (uint32_t i = 0; i < n; ++i) add(1, i, i, i, 0);
        break;
      case 1:  // line i: v(i), v(i+1); provoking v(i), LAST: v(i+1)
        for (uint32_t i = 0; i + 1 < n; ++i) add(2, i, i + 1, i, last ? 1 : 0, i == 0);
        break;
      default:  // triangle i: v(i), v(i + 1 + i % 2), v(i + 2 - i % 2); provoking v(i), LAST: v(i+2)
        for (uint32_t i = 0; i + 2 < n; ++i) add(3, i, i + 1 + i % 2, i + 2 - i % 2, last ? 2 - i % 2 : 0);
        break;
    }
  };
  uint32_t streams = 0;  // bit s: the lane emitted to stream s
  for (uint32_t k = 0; k < emitted; ++k) streams |= 1u << abi::geometryStream(word(k, abi::kGeometryFlags));
  for (stream = 0; stream < abi::kMaxVertexStreams; ++stream) {
    if (!(streams >> stream & 1)) continue;
    order.clear();
    for (uint32_t k = 0; k < emitted; ++k) {
      const uint32_t flags = word(k, abi::kGeometryFlags);
      if (abi::geometryStream(flags) != stream) continue;
      if (!order.empty() && (flags & abi::kGeometryStripStart)) {
        finishStrip(uint32_t(order.size()));
        stripStart = uint32_t(order.size());
      }
      order.push_back(k);
    }
    finishStrip(uint32_t(order.size()));
    stripStart = 0;
  }
}

}  // namespace

uint32_t drawLayerCount(const DrawState& s) {
  uint32_t layers = UINT32_MAX;
  auto fewer = [&](const AttachmentView& a) {
    if (a.base) layers = std::min(layers, std::max(a.layerCount, 1u));
  };
  for (uint32_t i = 0; i < s.colorCount; ++i) fewer(s.color[i]);
  fewer(s.depth);
  fewer(s.stencil);
  return layers == UINT32_MAX ? 1 : layers;
}

DrawState layerState(const DrawState& s, uint32_t layer, abi::BoundResources* resources) {
  DrawState out = s;
  auto move = [&](AttachmentView& a) {
    if (a.base) a.base += uint64_t(layer) * a.layerPitch;
  };
  for (uint32_t i = 0; i < out.colorCount; ++i) move(out.color[i]);
  move(out.depth);
  move(out.stencil);
  *resources = s.resources ? *s.resources : abi::BoundResources{};
  resources->layer = layer;
  out.resources = resources;
  return out;
}

std::vector<uint32_t> geometryInputSlots(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                                         const std::function<uint32_t(uint32_t)>& slotOf) {
  // A topology that gives fewer vertices than the shader's input takes repeats its first: the
  // spec requires them to match, a mismatch must not crash.
  const uint32_t inputVertices = s.geometry.inputVertices;
  std::vector<uint32_t> inputSlots;
  assembleGeometryInputs(s.topology, isRestart, count, [&](const uint32_t* positions, uint32_t n) {
    for (uint32_t k = 0; k < inputVertices; ++k) inputSlots.push_back(slotOf(positions[k < n ? k : 0]));
  });
  return inputSlots;
}

void shadeGeometryLanes(const DrawState& s, const std::vector<uint32_t>& inputSlots, const ShadedVertices& in,
                        GeometryOutput& out, StageUnits units) {
  const GeometryInterface& g = s.geometry;
  const uint32_t W = s.simdWidth;
  // The emitted vertices keep the outputs the fragment stage reads.
  ShadedVertices& v = out.vertices;
  v.clear();
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l)
    if (rasterizedOutputs(s)[l] && (s.fragment.inputComponents[l] || keepsFeedbackLocation(s, l))) v.locations.push_back(l);
  v.setLayout(g.clipDistances, g.cullDistances);
  out.primitives.clear();
  out.otherStreams.clear();
  const RecordLayout layout = recordLayout(g, v);

  const uint32_t primitives = g.inputVertices ? uint32_t(inputSlots.size() / g.inputVertices) : 0;
  const uint64_t lanes = std::min<uint64_t>(uint64_t(primitives) * g.invocations, units.end);
  if (lanes <= units.begin) return;
  countStatistic(s, kGeometryShaderInvocations, lanes - units.begin);

  // Each input vertex's words by location are zero except the locations `in` has (written
  // below, for every input vertex the shader takes); positions and point sizes are written
  // for every input vertex the shader takes, so they are set only when the width changes;
  // distances are zero except those `in` has, cleared when a previous draw wrote any.
  thread_local ZeroedSlices inputSlices;
  thread_local std::vector<uint32_t> records;
  thread_local std::vector<float> position, pointSize, distances;
  thread_local bool distancesWritten = false;
  uint32_t* const inputs = inputSlices.reset(size_t(abi::kMaxGeometryInputVertices) * abi::kMaxInterfaceLocations, 4 * W);
  for (uint32_t k = 0; k < g.inputVertices; ++k)
    for (const uint32_t location : in.locations) inputSlices.markWritten(k * abi::kMaxInterfaceLocations + location);
  if (position.size() != size_t(abi::kMaxGeometryInputVertices) * 4 * W) {
    position.assign(size_t(abi::kMaxGeometryInputVertices) * 4 * W, 0.0f);
    pointSize.assign(size_t(abi::kMaxGeometryInputVertices) * W, 1.0f);
    distances.assign(size_t(abi::kMaxGeometryInputVertices) * 2 * abi::kMaxClipDistances * W, 0.0f);
  } else if (distancesWritten) {
    std::fill(distances.begin(), distances.end(), 0.0f);
  }
  distancesWritten = in.clipDistances || in.cullDistances;
  records.resize(size_t(g.maxVertices) * g.vertexWords * W);
  abi::GeometryBatch batch{};
  batch.resources = s.resources;
  batch.inPosition = position.data();
  batch.inPointSize = pointSize.data();
  batch.inputs = inputs;
  batch.inDistances = distances.data();
  batch.vertices = records.data();
  for (uint64_t first = units.begin; first < lanes; first += W) {
    const uint32_t active = uint32_t(std::min<uint64_t>(W, lanes - first));
    batch.count = active;
    std::memset(batch.emitted, 0, sizeof(batch.emitted));
    std::memset(batch.stripOpen, 0, sizeof(batch.stripOpen));
    for (uint32_t lane = 0; lane < active; ++lane) {
      const uint32_t primitive = uint32_t((first + lane) / g.invocations);
      batch.primitiveIdIn[lane] = primitive;
      batch.invocationId[lane] = uint32_t((first + lane) % g.invocations);
      for (uint32_t k = 0; k < g.inputVertices; ++k) {
        const uint32_t slot = inputSlots[size_t(primitive) * g.inputVertices + k];
        const float* p = in.position(slot);
        for (uint32_t c = 0; c < 4; ++c) position[(k * 4 + c) * W + lane] = p[c];
        pointSize[k * W + lane] = in.pointSize.empty() ? 1.0f : in.pointSize[slot];
        const uint32_t* o = in.outputs(slot);
        for (size_t i = 0; i < in.locations.size(); ++i)
          for (uint32_t c = 0; c < 4; ++c)
            inputs[((k * abi::kMaxInterfaceLocations + in.locations[i]) * 4 + c) * W + lane] = o[4 * i + c];
        float* d = &distances[k * 2 * abi::kMaxClipDistances * W + lane];
        for (uint32_t i = 0; i < in.clipDistances; ++i) d[i * W] = in.clipDistance(slot)[i];
        for (uint32_t i = 0; i < in.cullDistances; ++i) d[(abi::kMaxClipDistances + i) * W] = in.cullDistance(slot)[i];
      }
    }
    s.geometryShader(&batch);
    for (uint32_t lane = 0; lane < active; ++lane)
      collectLane(s, layout, records.data(), lane, std::min(batch.emitted[lane], g.maxVertices), out);
  }
  // "each time the geometry shader emits a primitive": every stream's.
  countStatistic(s, kGeometryShaderPrimitives, out.primitives.size() + out.otherStreams.size());
}

void countGeneratedStreams(const DrawState& s, const GeometryOutput& g) {
  if (!s.primitivesGenerated) return;
  countGenerated(s, g.primitives.size());
  for (const GeometryPrimitive& p : g.otherStreams) countGenerated(s, 1, p.stream);
}

}  // namespace tessera::raster
