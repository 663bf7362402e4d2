// A render pass clear applied to one tile's part of an attachment (Scene::addClear): rows of
// the repeated encoded texel, every sample of each pixel (a pixel's samples are adjacent).
#include <cstring>

#include "draw_internal.h"

namespace tessera::raster {

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
      for (size_t i = 0; i < texels; ++i) std::memcpy(row + i * 4, &pattern, 4);  // vectorizes
    } else if (size <= sizeof c.texel) {
      for (size_t i = 0; i < texels; ++i) std::memcpy(row + i * size, c.texel, size);
    }
  }
}

}  // namespace tessera::raster
