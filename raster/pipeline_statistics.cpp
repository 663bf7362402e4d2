// "Pipeline Statistics Queries": the counts the draw paths share (draw_internal.h).
#include "draw_internal.h"

namespace tessera::raster {

uint64_t inputPrimitives(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t vertexCount) {
  // "Patch Lists": complete patches of patchControlPoints vertices.
  if (s.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) {
    const uint32_t n = s.tessellation.patchControlPoints;
    return n ? vertexCount / n : 0;
  }
  uint64_t primitives = 0;
  assemblePrimitives(
      s.topology, isRestart, vertexCount, [&](uint32_t) { ++primitives; }, [&](uint32_t, uint32_t) { ++primitives; },
      [&](uint32_t, uint32_t, uint32_t) { ++primitives; });
  return primitives;
}

}  // namespace tessera::raster
