// "Layer" and "ViewportIndex" written by the vertex stage (VK_EXT_shader_viewport_index_layer,
// shaderOutputLayer / shaderOutputViewportIndex) when it is the last pre-rasterization stage.
// The spec asks the same value of every vertex of a primitive; the provoking vertex's is taken,
// as the geometry stage's strips take theirs. Turning the assembled primitives into the geometry
// stage's output form lets both draw paths reuse what they do for a geometry stage's Layer and
// ViewportIndex (a draw split by layer, set-up per viewport) rather than grow a second route.
#include "draw_internal.h"

namespace tessera::raster {

void vertexLayerViewportPrimitives(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t count,
                                   const std::function<uint32_t(uint32_t)>& slotOf, const ShadedVertices& in,
                                   GeometryOutput& out) {
  out.vertices = in;
  out.primitives.clear();
  out.otherStreams.clear();
  const std::vector<uint32_t>& lv = in.layerViewport;
  uint32_t primitiveId = 0;
  auto add = [&](uint32_t n, uint32_t a, uint32_t b, uint32_t c, uint32_t provoking, bool startsStrip) {
    GeometryPrimitive p{n, {slotOf(a), slotOf(b), slotOf(c)}, primitiveId++, 0, 0, startsStrip, provoking};
    const uint32_t pv = p.slots[provoking];
    if (2 * size_t(pv) + 1 < lv.size()) {
      // A stage that writes only one of the two leaves the other at its default: layer 0, viewport 0.
      p.layer = s.vertexWritesLayer ? lv[2 * size_t(pv)] : 0;
      p.viewport = s.vertexWritesViewportIndex ? lv[2 * size_t(pv) + 1] : 0;
    }
    out.primitives.push_back(p);
  };
  assemblePrimitives(
      s.topology, isRestart, count, [&](uint32_t a) { add(1, a, a, a, 0, true); },
      [&](uint32_t a, uint32_t b, bool startsStrip) { add(2, a, b, a, lineProvokingVertex(s), startsStrip); },
      [&](uint32_t a, uint32_t b, uint32_t c, uint32_t provoking) { add(3, a, b, c, provoking, true); },
      s.provokingVertexLast);
}

}  // namespace tessera::raster
