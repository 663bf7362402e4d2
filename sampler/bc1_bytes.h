// BC1 texels as four UNORM bytes: the rule the fixed-point routines (batch_sampler_unorm8.cpp
// loadBc1Texels) read BC1 texels by, and decoded_texture.cpp decodes whole blocks by, so that
// both give the same bytes. Compiled with -ffp-contract=off wherever it is included: bc1Byte's
// product and sum must not fuse.
#pragma once

#include <cmath>
#include <cstdint>

#include "block_decoders.h"

namespace tessera::sampler_detail {

// s3tcPaletteEntry (the reference's rule) as sums of products, without the conditional
// expressions GCC 12 leaves as control flow, so that a loop over lanes vectorizes: code 0
// (1, 0, 1), 1 (0, 1, 1), 2 (2, 1, 3) or (1, 1, 2), 3 (1, 2, 3) or (0, 0, 1); `four` is 1 or 0.
constexpr uint32_t bc1Weight0(uint32_t code, uint32_t four) {
  return uint32_t(code == 0) + uint32_t(code == 2) * (1 + four) + uint32_t(code == 3) * four;
}
constexpr uint32_t bc1Weight1(uint32_t code, uint32_t four) {
  return uint32_t(code == 1) + uint32_t(code == 2) + uint32_t(code == 3) * 2 * four;
}
constexpr uint32_t bc1Denominator(uint32_t code, uint32_t four) {
  return 1 + uint32_t(code == 2) * (1 + four) + uint32_t(code == 3) * 2 * four;
}
constexpr bool bc1WeightsAreThePaletteRule() {
  for (uint32_t code = 0; code < 4; ++code)
    for (uint32_t four = 0; four < 2; ++four) {
      const S3tcMix m = s3tcPaletteEntry(code, four != 0);
      if (uint32_t(m.w0) != bc1Weight0(code, four) || uint32_t(m.w1) != bc1Weight1(code, four) ||
          uint32_t(m.den) != bc1Denominator(code, four))
        return false;
    }
  return true;
}
static_assert(bc1WeightsAreThePaletteRule());

// The nearest UNORM byte to n / d, d = den (2^b - 1) (b = 5 or 6, den = 1, 2 or 3), halves up:
// floor(255 n × (1 / d) + 1/2 + 2^-10) in float, with 1 / d the float constant of (b, den)
// (`inverse`). 255 n / d <= 255 is either exactly a half (5/6 of 255 is 212.5) or at least
// 1/(2 d) >= 1/378 from one; the float product and sum stray from 255 n / d + 1/2 by less than
// 5 x 10^-5, so the 2^-10 lifts a half over its integer and moves nothing else across one: the
// floor is the exact rational's rounding, halves up. (A division per component and texel was
// a tenth of a BC1 batch's time.)
inline __attribute__((always_inline)) uint32_t bc1Byte(uint32_t n, float inverse) {
  return uint32_t(int32_t(std::floor(float(int32_t(255 * n)) * inverse + (0.5f + 0x1p-10f))));
}
// 1 / (den (2^b - 1)) for den = 1, 2, 3, as floats.
inline __attribute__((always_inline)) float bc1Inverse(uint32_t den, uint32_t bits) {
  const float one = bits == 5 ? 1.0f / 31.0f : 1.0f / 63.0f, two = bits == 5 ? 1.0f / 62.0f : 1.0f / 126.0f,
              three = bits == 5 ? 1.0f / 93.0f : 1.0f / 189.0f;
  // As products with 0 or 1 rather than a conditional expression, which GCC 12 keeps as control
  // flow (and then does not vectorize the loop over lanes).
  return one * float(den == 1) + two * float(den == 2) + three * float(den == 3);
}

// The texel of 2-bit `code` in a block whose colours are colour_0 and colour_1 (RGB565), as
// R | G << 8 | B << 16 | A << 24: each component the nearest byte (bc1Byte) of its palette
// entry; alpha 255, or 0 for code 3 of a three-colour block when `transparentDrop` is 255
// (BC1_RGBA; 0 for BC1_RGB).
inline __attribute__((always_inline)) uint32_t bc1TexelWord(uint32_t color0, uint32_t color1, uint32_t code,
                                                            uint32_t transparentDrop) {
  const uint32_t four = color0 > color1;
  const uint32_t w0 = bc1Weight0(code, four), w1 = bc1Weight1(code, four), den = bc1Denominator(code, four);
  const float inverse5 = bc1Inverse(den, 5), inverse6 = bc1Inverse(den, 6);
  const uint32_t r = bc1Byte(w0 * (color0 >> 11) + w1 * (color1 >> 11), inverse5);
  const uint32_t g = bc1Byte(w0 * (color0 >> 5 & 63) + w1 * (color1 >> 5 & 63), inverse6);
  const uint32_t b = bc1Byte(w0 * (color0 & 31) + w1 * (color1 & 31), inverse5);
  const uint32_t a = 255u - uint32_t(code == 3) * (1 - four) * transparentDrop;
  return r | g << 8 | b << 16 | a << 24;
}

}  // namespace tessera::sampler_detail
