// resolveAttachment (draw.h): the multisample resolve operations at the end of a subpass or of
// dynamic rendering ("Render Pass" > "Multisample resolve operations"; VkResolveModeFlagBits).
//
// Colour goes through vkCmdResolveImage's arithmetic (sampler/resolve.cpp, resolveRegion): its
// choice by format is exactly the mode the spec allows for a colour attachment (AVERAGE of the
// decoded samples for float and normalized formats, SAMPLE_ZERO for integer ones). Depth and
// stencil: SAMPLE_ZERO copies sample 0, MIN and MAX take the extreme sample, AVERAGE (depth)
// the mean.
#include <algorithm>
#include <cstring>

#include "tessera/blit.h"
#include "tessera/draw.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera::raster {
namespace {

uint8_t* pixelAt(const AttachmentView& v, uint32_t layer, int32_t x, int32_t y, uint32_t sample) {
  return v.base + layer * v.layerPitch + uint64_t(y) * v.rowPitch + (uint64_t(x) * v.samples + sample) * v.texelSize;
}

// One pixel of a depth or stencil plane (colour goes to resolveRegion).
void resolveDepthStencilPixel(const AttachmentView& src, const AttachmentView& dst, const FormatInfo& sf,
                              const FormatInfo& df, bool stencil, VkResolveModeFlagBits mode, uint32_t layer, int32_t x,
                              int32_t y) {
  uint8_t* out = pixelAt(dst, layer, x, y, 0);
  const uint32_t n = std::max(src.samples, 1u);
  if (mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT && &sf == &df) {
    for (uint32_t k = 0; k < std::max(dst.samples, 1u); ++k)
      std::memcpy(pixelAt(dst, layer, x, y, k), pixelAt(src, layer, x, y, 0), dst.texelSize);
    return;
  }
  if (stencil) {
    uint8_t v = *pixelAt(src, layer, x, y, 0);
    for (uint32_t k = 1; k < n && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++k) {
      const uint8_t s = *pixelAt(src, layer, x, y, k);
      v = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(v, s) : mode == VK_RESOLVE_MODE_MAX_BIT ? std::max(v, s) : v;
    }
    *out = v;
    return;
  }
  float v = decodeDepth(sf, pixelAt(src, layer, x, y, 0));
  for (uint32_t k = 1; k < n && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++k) {
    const float d = decodeDepth(sf, pixelAt(src, layer, x, y, k));
    v = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(v, d) : mode == VK_RESOLVE_MODE_MAX_BIT ? std::max(v, d) : v + d;
  }
  if (mode == VK_RESOLVE_MODE_AVERAGE_BIT) v /= float(n);
  encodeDepth(df, v, out);
}

}  // namespace

void resolveAttachment(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlags aspect,
                       VkResolveModeFlagBits mode, const Rect& area, uint32_t layers) {
  if (!src.base || !dst.base || mode == VK_RESOLVE_MODE_NONE) return;
  const FormatInfo* sf = formatInfo(src.format);
  const FormatInfo* df = formatInfo(dst.format);
  if (!sf || !df) return;
  layers = std::min({layers, src.layerCount, dst.layerCount});
  if (!(aspect & (VK_IMAGE_ASPECT_DEPTH_BIT | VK_IMAGE_ASPECT_STENCIL_BIT))) {
    // The attachments cover the render area, so its far corner bounds both extents.
    const VkExtent3D extent{uint32_t(area.x1), uint32_t(area.y1), 1};
    const VkOffset3D at{area.x0, area.y0, 0};
    for (uint32_t layer = 0; layer < layers; ++layer) {
      const SubresourceView s{src.base + layer * src.layerPitch, sf, VK_IMAGE_ASPECT_COLOR_BIT, extent, src.samples,
                              src.rowPitch, 0};
      const SubresourceView d{dst.base + layer * dst.layerPitch, df, VK_IMAGE_ASPECT_COLOR_BIT, extent, dst.samples,
                              dst.rowPitch, 0};
      resolveRegion(s, d, at, at, {uint32_t(area.x1 - area.x0), uint32_t(area.y1 - area.y0), 1});
    }
    return;
  }
  const bool stencil = (aspect & VK_IMAGE_ASPECT_STENCIL_BIT) != 0;
  for (uint32_t layer = 0; layer < layers; ++layer)
    for (int32_t y = area.y0; y < area.y1; ++y)
      for (int32_t x = area.x0; x < area.x1; ++x) resolveDepthStencilPixel(src, dst, *sf, *df, stencil, mode, layer, x, y);
}

}  // namespace tessera::raster
