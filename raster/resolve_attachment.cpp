// resolveAttachment (draw.h): the multisample resolve operations at the end of a subpass or of
// dynamic rendering ("Render Pass" > "Multisample resolve operations"; VkResolveModeFlagBits).
//
// AVERAGE averages the decoded samples (linear values for sRGB formats, as the texel codec
// decodes them) and encodes with the codec's rounding, the same choice vkCmdResolveImage makes
// (sampler/resolve.cpp); SAMPLE_ZERO copies sample 0; MIN and MAX take the smallest or largest
// sample (offered for nothing today, but cheap and well defined).
#include <algorithm>
#include <cstring>

#include "tessera/draw.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera::raster {
namespace {

uint8_t* pixelAt(const AttachmentView& v, uint32_t layer, int32_t x, int32_t y, uint32_t sample) {
  return v.base + layer * v.layerPitch + uint64_t(y) * v.rowPitch + (uint64_t(x) * v.samples + sample) * v.texelSize;
}

enum class Plane { Color, Depth, Stencil };

Plane planeOf(VkImageAspectFlags aspect) {
  if (aspect & VK_IMAGE_ASPECT_DEPTH_BIT) return Plane::Depth;
  if (aspect & VK_IMAGE_ASPECT_STENCIL_BIT) return Plane::Stencil;
  return Plane::Color;
}

void resolvePixel(const AttachmentView& src, const AttachmentView& dst, const FormatInfo& sf, const FormatInfo& df,
                  Plane plane, VkResolveModeFlagBits mode, uint32_t layer, int32_t x, int32_t y) {
  uint8_t* out = pixelAt(dst, layer, x, y, 0);
  const uint32_t n = std::max(src.samples, 1u);
  if (mode == VK_RESOLVE_MODE_SAMPLE_ZERO_BIT && &sf == &df) {
    for (uint32_t k = 0; k < std::max(dst.samples, 1u); ++k) std::memcpy(pixelAt(dst, layer, x, y, k), pixelAt(src, layer, x, y, 0), dst.texelSize);
    return;
  }
  switch (plane) {
    case Plane::Depth: {
      float v = decodeDepth(sf, pixelAt(src, layer, x, y, 0));
      for (uint32_t k = 1; k < n && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++k) {
        const float d = decodeDepth(sf, pixelAt(src, layer, x, y, k));
        v = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(v, d) : mode == VK_RESOLVE_MODE_MAX_BIT ? std::max(v, d) : v + d;
      }
      if (mode == VK_RESOLVE_MODE_AVERAGE_BIT) v /= float(n);
      encodeDepth(df, v, out);
      return;
    }
    case Plane::Stencil: {
      uint8_t v = *pixelAt(src, layer, x, y, 0);
      for (uint32_t k = 1; k < n && mode != VK_RESOLVE_MODE_SAMPLE_ZERO_BIT; ++k) {
        const uint8_t s = *pixelAt(src, layer, x, y, k);
        v = mode == VK_RESOLVE_MODE_MIN_BIT ? std::min(v, s) : mode == VK_RESOLVE_MODE_MAX_BIT ? std::max(v, s) : v;
      }
      *out = v;
      return;
    }
    case Plane::Color: {
      TexelValue v{};
      decodeTexel(sf, pixelAt(src, layer, x, y, 0), v);
      if (mode == VK_RESOLVE_MODE_AVERAGE_BIT && texelKind(sf) == TexelKind::Float) {
        for (uint32_t k = 1; k < n; ++k) {
          TexelValue s{};
          decodeTexel(sf, pixelAt(src, layer, x, y, k), s);
          for (int c = 0; c < 4; ++c) v.f[c] += s.f[c];
        }
        for (int c = 0; c < 4; ++c) v.f[c] /= float(n);
      } else if (mode == VK_RESOLVE_MODE_MIN_BIT || mode == VK_RESOLVE_MODE_MAX_BIT) {
        const TexelKind kind = texelKind(sf);
        for (uint32_t k = 1; k < n; ++k) {
          TexelValue s{};
          decodeTexel(sf, pixelAt(src, layer, x, y, k), s);
          for (int c = 0; c < 4; ++c) {
            const bool less = kind == TexelKind::Float ? s.f[c] < v.f[c]
                              : kind == TexelKind::SInt ? int32_t(s.u[c]) < int32_t(v.u[c])
                                                         : s.u[c] < v.u[c];
            if (less == (mode == VK_RESOLVE_MODE_MIN_BIT)) v.u[c] = s.u[c];
          }
        }
      }
      encodeTexel(df, v, out);
      return;
    }
  }
}

}  // namespace

void resolveAttachment(const AttachmentView& src, const AttachmentView& dst, VkImageAspectFlags aspect,
                       VkResolveModeFlagBits mode, const Rect& area, uint32_t layers) {
  if (!src.base || !dst.base || mode == VK_RESOLVE_MODE_NONE) return;
  const FormatInfo* sf = formatInfo(src.format);
  const FormatInfo* df = formatInfo(dst.format);
  if (!sf || !df) return;
  const Plane plane = planeOf(aspect);
  if (plane == Plane::Color && (!hasColorCodec(*sf) || !hasColorCodec(*df))) return;
  layers = std::min({layers, src.layerCount, dst.layerCount});
  for (uint32_t layer = 0; layer < layers; ++layer)
    for (int32_t y = area.y0; y < area.y1; ++y)
      for (int32_t x = area.x0; x < area.x1; ++x) resolvePixel(src, dst, *sf, *df, plane, mode, layer, x, y);
}

}  // namespace tessera::raster
