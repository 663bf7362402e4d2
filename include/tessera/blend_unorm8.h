// "Blending" into attachments whose every component is 8-bit UNORM (R8, R8G8, R8G8B8A8,
// B8G8R8A8, A8B8G8R8, ...), in 8-bit fixed point. The spec requires blending to be "performed
// with a precision and dynamic range no lower than that used to represent destination
// components": here every input is held at the destination's precision (8 bits), the products
// and their sum are exact, and the result is rounded once. lavapipe blends such attachments in
// 8 bits as well (with each product rounded on its own). The rule is one implementation: the
// reference draw loop (raster/draw_fragments.cpp) calls these functions, the binned loop's lane
// version (raster/draw_blocks.cpp) and the fragment kernels' own blending
// (spirv_jit/unorm8_blend.cpp) are tested against them bit for bit, and
// tests/unit/raster/blend_unorm8_test.cpp checks them against the spec's formulas in real
// arithmetic within that precision.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vulkan/vulkan_core.h>

#include "tessera/format.h"

namespace tessera {

// Whether attachments of format f blend by this rule: every component 8-bit UNORM (not sRGB,
// whose blending happens on linear values).
inline bool blendsInUnorm8(const FormatInfo& f) {
  if (f.componentCount == 0 || f.isCompressed() || f.isDepthStencil()) return false;
  for (uint8_t i = 0; i < f.componentCount; ++i)
    if (f.components[i].bits != 8 || f.components[i].numeric != NumericFormat::UNorm) return false;
  return true;
}

// A blend input (source, second source, constant, or the destination's decoded value) at the
// destination's precision: "the components of the source and destination values and blend
// factors are each clamped to [0,1]" (NaN to 0), then "Conversion From Floating-Point to
// Normalized Fixed-Point": f x 255 rounded to a float, then to the nearest integer (ties to
// even) -- one of "the two unsigned binary integer values ... closest to" f x 255, as that
// section allows, and two vector instructions in the kernels (VMULPS, VCVTPS2DQ). The decoded
// destination c / 255 comes back as c for every byte c.
inline uint32_t blendInputUnorm8(float f) {
  f = f > 0.0f ? f : 0.0f;
  f = f < 1.0f ? f : 1.0f;
  return uint32_t(std::nearbyint(f * 255.0f));
}

// round(t / 255) for 0 <= t <= 255 x 255, never a tie (2t = 255 (2n + 1) has no integer
// solution): ((t + 128) x 257) >> 16, exact over that range (checked for every t by the
// rule's test); the high half of a 16-bit product (PMULHUW) in the kernels.
inline uint32_t divide255Rounded(uint32_t t) { return (t + 128) * 257 >> 16; }

// "Blend Factors" at 8 bits: 255 stands for 1. s the source, s1 the second source
// ("Dual-Source Blending"), d the destination, k the blend constants, each 0 .. 255.
inline uint32_t blendFactorUnorm8(VkBlendFactor f, const uint32_t* s, const uint32_t* s1, const uint32_t* d,
                                  const uint32_t* k, int c, bool alpha) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 255;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 255 - s[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 255 - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 255 - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 255 - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 255 - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 255 - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return alpha ? 255 : std::min(s[3], 255 - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 255 - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 255 - s1[3];
    default: return 0;
  }
}

// "Blend Operations" at 8 bits: the products (at most 255 x 255) and their sum or difference
// exact, clamped to [0, 255 x 255] (a fixed-point attachment's [0, 1]), rounded once.
inline uint32_t blendOpUnorm8(VkBlendOp op, uint32_t s, uint32_t sf, uint32_t d, uint32_t df) {
  const uint32_t a = s * sf, b = d * df;
  switch (op) {
    case VK_BLEND_OP_SUBTRACT: return divide255Rounded(a > b ? a - b : 0);
    case VK_BLEND_OP_REVERSE_SUBTRACT: return divide255Rounded(b > a ? b - a : 0);
    case VK_BLEND_OP_MIN: return std::min(s, d);
    case VK_BLEND_OP_MAX: return std::max(s, d);
    default: return divide255Rounded(std::min(a + b, 255u * 255u));  // ADD
  }
}

// One texel's four components (R, G, B, A order; a component the format lacks as the
// destination's "Component Substitution" gives it) blended; out[c] in 0 .. 255. Blend is
// raster::BlendAttachment or anything with its factor and operation fields.
template <class Blend>
void blendUnorm8Texel(const Blend& blend, const uint32_t s[4], const uint32_t s1[4], const uint32_t d[4],
                      const uint32_t k[4], uint32_t out[4]) {
  for (int c = 0; c < 4; ++c) {
    const bool alpha = c == 3;
    const uint32_t sf = blendFactorUnorm8(alpha ? blend.srcAlpha : blend.srcColor, s, s1, d, k, c, alpha);
    const uint32_t df = blendFactorUnorm8(alpha ? blend.dstAlpha : blend.dstColor, s, s1, d, k, c, alpha);
    out[c] = blendOpUnorm8(alpha ? blend.alphaOp : blend.colorOp, s[c], sf, d[c], df);
  }
}

}  // namespace tessera
