// "Pipeline Statistics Queries": the counts the draw paths share (draw_internal.h).
#include "draw_internal.h"

namespace tessera::raster {

uint64_t inputPrimitives(const DrawState& s, const std::vector<uint8_t>& isRestart, uint32_t vertexCount) {
  // "Patch Lists": complete patches of patchControlPoints vertices (between restarts).
  if (s.topology == VK_PRIMITIVE_TOPOLOGY_PATCH_LIST) {
    uint64_t patches = 0;
    forEachPatch(isRestart, vertexCount, s.tessellation.patchControlPoints, [&](uint32_t) { ++patches; });
    return patches;
  }
  uint64_t primitives = 0;
  assemblePrimitives(
      s.topology, isRestart, vertexCount, [&](uint32_t) { ++primitives; }, [&](uint32_t, uint32_t) { ++primitives; },
      [&](uint32_t, uint32_t, uint32_t) { ++primitives; });
  return primitives;
}

}  // namespace tessera::raster
