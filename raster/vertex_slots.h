// Which vertices a draw shades ("Programmable Primitive Shading": "If the same vertex is
// specified multiple times in a draw command ... the implementation may reuse the results of
// vertex shading"): the binned path's map from index-list positions to shading slots.
#pragma once

#include <cstdint>
#include <vector>

#include "draw_internal.h"

namespace tessera {
class ThreadPool;
}

namespace tessera::raster {

// Slots to shade: VertexIndex per slot, and the slot of every position of the index list.
struct VertexSlots {
  std::vector<uint32_t> vertexIndex;  // per slot
  std::vector<uint32_t> slotOf;       // per index-list position; empty: slot == position
  uint32_t slot(uint32_t position) const { return slotOf.empty() ? position : slotOf[position]; }
};

// Distinct VertexIndex values of an indexed draw get one slot each, in increasing order, when
// they span a range not much larger than the index list (`table`, scratch over the range, maps
// them); otherwise, and for a draw without indices, every position is its own slot (slotOf
// empty) and the list's indices move to `out` (the draw reads only the list's restart flags
// afterwards; the two vectors trade their memory from draw to draw). Restart positions get no
// slot (slotOf 0). Unused vertices are never shaded. The passes run in ranges over `pool`; the
// result does not depend on the pool's size.
void mapVertexSlots(const DrawCall& c, VertexIndexList& list, VertexSlots& out, std::vector<uint32_t>& table,
                    ThreadPool& pool);

}  // namespace tessera::raster
