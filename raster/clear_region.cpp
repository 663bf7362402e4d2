// A render pass clear applied to one tile's part of an attachment (Scene::addClear): rows of
// the repeated encoded texel, every sample of each pixel (a pixel's samples are adjacent).
#include <cstring>

#include "draw_internal.h"

namespace tessera::raster {

namespace {

// `count` copies of a 32-bit pattern. A long row (a 64-pixel tile row of a 4-sample attachment
// is 1 KiB) is one `rep stosl`: the processor's fast-string stores write whole cache lines
// without reading them first, where vector stores read every line of a tile that is not in
// cache before overwriting it (the demo scene's per-tile clears of two 4-sample attachments
// ran ~3% faster this way, measured alternating 4 runs each).
inline void fillRow32(uint8_t* row, size_t count, uint32_t pattern) {
#if defined(__x86_64__)
  if (count >= 64) {
    void* d = row;
    asm volatile("rep stosl" : "+D"(d), "+c"(count) : "a"(pattern) : "memory");
    return;
  }
#endif
  for (size_t i = 0; i < count; ++i) std::memcpy(row + i * 4, &pattern, 4);  // vectorizes
}

}  // namespace

void fillClearRegion(const ClearRegion& c, const Rect& r) {
  const AttachmentView& t = c.target;
  if (!t.base || r.x0 >= r.x1 || r.y0 >= r.y1) return;
  const uint32_t size = t.texelSize;
  const size_t texels = size_t(r.x1 - r.x0) * std::max(t.samples, 1u);
  for (int32_t y = r.y0; y < r.y1; ++y) {
    uint8_t* row = texelAt(t, r.x0, y);
    if (size == 4) {
      uint32_t pattern;
      std::memcpy(&pattern, c.texel, 4);
      fillRow32(row, texels, pattern);
    } else if (size <= sizeof c.texel) {
      for (size_t i = 0; i < texels; ++i) std::memcpy(row + i * size, c.texel, size);
    }
  }
}

}  // namespace tessera::raster
