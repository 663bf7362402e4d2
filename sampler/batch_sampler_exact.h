// The exact batched sampling routines of sampling_batch.h: W lanes of one sampling instruction at
// once, for the common state (2D views of 8-bit RGBA/BGRA UNORM or sRGB, R8/RG8 UNORM, 16- and
// 32-bit float R, RG and RGBA, 16-bit float RGB, BC1 UNORM, NEAREST/LINEAR filters and mipmap modes, REPEAT / MIRRORED_REPEAT /
// CLAMP_TO_EDGE, no compare, no border).
//
// Bit-identical to the reference (reference_sampler.cpp) by construction, not by tolerance:
//  - the LOD is the arithmetic of the reference's lambdaFromGradients and selectLevels on arrays
//    of lanes, except log2, which runs per lane and is glibc's as in the reference (no vector
//    log2 rounds as it does); lanes of a quad often share ρ_max and then one log2;
//  - everything after the LOD is the reference's double arithmetic, in the same order, on
//    arrays of lanes that the compiler turns into vectors: (u,v) = (s,t) x size + offset,
//    floor, the clamp to ±2^30, the wrap (integer modulus done in double: every value is an
//    integer below 2^46, so it is exact), the weights (1 - α)(1 - β) ..., the sums 0 + w τ + ...
//    in the reference's texel order, the mip lerp 0 + (1 - δ) τ_hi + δ τ_lo, then float;
//  - texels convert as the reference's "Format Conversion" does: 8-bit ones through the same
//    256-entry tables (or the division they hold), halves and floats exactly (every half and
//    float is a double), missing components 0 and alpha 1;
//  - a NaN result is the canonical NaN, as the reference makes it (which NaN an operation on
//    two NaNs passes on depends on operand order, which the compiler chooses).
// The routines are instantiated per lane count W in batch_sampler_exact_<W>.cpp (three files
// that compile side by side: as one they took a quarter of an hour); batch_sampler.cpp joins
// their tables. Every file that includes this header is compiled with -ffp-contract=off (no
// fused multiply-adds, which would round once where the reference rounds twice),
// -fno-trapping-math (lets floor vectorize; no value changes) and -O3, the routines in clones
// for x86-64, x86-64-v3 (AVX2) and x86-64-v4 (AVX-512).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "batch_lanes.h"
#include "block_decoders.h"
#include "routine_clones.h"
#include "sampler_internal.h"
#include "tessera/sampling_batch.h"

namespace tessera::sampler_detail::exact {

using namespace sampler_detail::batch;


using namespace sampler_detail;
using namespace sampler_detail::batch;

// How a view code's texels become RGBA.
struct TexelFormat {
  enum Kind { Bytes, Half, Float, Unorm16, Unorm24, Bc1 } kind = Bytes;
  uint32_t components = 4;  // in memory; the rest are 0 (alpha 1), as "Conversion to RGBA" says
  uint32_t size = 4;        // bytes per texel (Bc1: per 4x4 block)
  bool bc1Alpha = false;    // Bc1: BC1 with alpha (the three-colour mode's code 3 is transparent)
  const float* rgb = nullptr;    // Bytes: R, G, B table
  const float* alpha = nullptr;  // Bytes: A table (always UNORM)
  uint32_t r = 0, b = 2;         // Bytes: byte index of R and B in a texel
  bool rgbDivides = false;       // Bytes: rgb holds float(c) / 255.0f for every byte c, see below
  bool alphaDivides = false;
  // The view's "Component Swizzle" (VK_COMPONENT_SWIZZLE_ZERO..A), applied to every texel read,
  // as the reference does, when `swizzled`.
  bool swizzled = false;
  uint32_t swizzle[4] = {};
};

// The codec decodes a UNORM byte as float(c / 255.0); if that equals float(c) / 255.0f for all
// 256 values (checked here, once, not assumed), a vector division of floats gives the table's
// bits for a whole row of lanes, where the table would take a load per component and lane.
inline bool unormTableIsDivision() {
  static const bool same = [] {
    const float* table = unorm8Table();
    for (uint32_t c = 0; c < 256; ++c) {
      const float f = float(c) / 255.0f;
      if (std::memcmp(&f, &table[c], 4) != 0) return false;
    }
    return true;
  }();
  return same;
}

inline TexelFormat texelFormat(uint32_t code) {
  TexelFormat f;
  switch (code) {
    case kRgba16Sfloat: f.kind = TexelFormat::Half, f.size = 8; return f;
    case kR16Sfloat: f.kind = TexelFormat::Half, f.size = 2, f.components = 1; return f;
    case kRgba32Sfloat: f.kind = TexelFormat::Float, f.size = 16; return f;
    case kR32Sfloat: f.kind = TexelFormat::Float, f.size = 4, f.components = 1; return f;
    case kRg16Sfloat: f.kind = TexelFormat::Half, f.size = 4, f.components = 2; return f;
    case kRgb16Sfloat: f.kind = TexelFormat::Half, f.size = 6, f.components = 3; return f;
    case kRg32Sfloat: f.kind = TexelFormat::Float, f.size = 8, f.components = 2; return f;
    // "Conversion to RGBA" of depth gives [D, 0, 0, 1], as of a one-component colour format.
    case kDepth16Unorm: f.kind = TexelFormat::Unorm16, f.size = 2, f.components = 1; return f;
    case kDepth24Unorm: f.kind = TexelFormat::Unorm24, f.size = 4, f.components = 1; return f;
    case kDepth32Sfloat: f.kind = TexelFormat::Float, f.size = 4, f.components = 1; return f;
    case kBc1RgbUnorm: f.kind = TexelFormat::Bc1, f.size = 8; return f;
    case kBc1RgbaUnorm: f.kind = TexelFormat::Bc1, f.size = 8, f.bc1Alpha = true; return f;
    default: break;
  }
  const bool srgb = code == kRgba8Srgb || code == kBgra8Srgb, bgra = code == kBgra8Unorm || code == kBgra8Srgb;
  const bool divides = unormTableIsDivision();
  f.components = code == kR8Unorm ? 1 : code == kRg8Unorm ? 2 : 4;
  f.size = f.components;
  f.rgb = srgb ? srgb8Table() : unorm8Table();
  f.alpha = unorm8Table();
  f.r = bgra ? 2 : 0;
  f.b = bgra ? 0 : 2;
  f.rgbDivides = divides && !srgb;
  f.alphaDivides = divides;
  return f;
}

// An IEEE binary16 value as a float, exactly (every half is a float; subnormals scale by 2^-24).
inline float halfToFloat(uint32_t h) {
  const uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  uint32_t bits;
  if (exponent == 0x1F) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  } else {
    const float f = float(mantissa) * 0x1p-24f;
    std::memcpy(&bits, &f, 4);
    bits |= sign;
  }
  float out;
  std::memcpy(&out, &bits, 4);
  return out;
}

constexpr double kIntLimit = 1073741824.0;  // the reference's clamp of texel coordinates, 2^30

// The reference's floorToInt as a double: 0 for NaN, else floor(x) clamped to ±2^30
// (`fx` is floor(x)).
inline double floorClamped(double x, double fx) {
  const double c = fx < -kIntLimit ? -kIntLimit : (kIntLimit < fx ? kIntLimit : fx);
  return x != x ? 0.0 : c;
}


// One level per lane: its size and its first texel in the lane's layer.
template <uint32_t N>
struct LevelLanes {
  alignas(64) double width[N], height[N];
  const uint8_t* base[N];
  uint64_t rowPitch[N];
};

template <uint32_t N>
struct Rgba {
  alignas(64) double c[4][N];
};

// "Wrapping Operation" on integer-valued doubles: REPEAT i mod size; MIRRORED_REPEAT
// (size - 1) - mirror((i mod 2 size) - size); CLAMP_TO_EDGE clamp(i, 0, size - 1). |i| <= 2^30 + 1
// and size <= 2^16, so i / size rounds to a double whose floor is the integer quotient.
template <uint32_t N>
__attribute__((always_inline)) inline void wrap(double* x, const double* size, uint32_t mode) {
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT) {
    for (uint32_t k = 0; k < N; ++k) x[k] = x[k] - std::floor(x[k] / size[k]) * size[k];
  } else if (mode == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT) {
    for (uint32_t k = 0; k < N; ++k) {
      const double twice = size[k] * 2;
      const double n = (x[k] - std::floor(x[k] / twice) * twice) - size[k];
      const double mirrored = n >= 0 ? n : -(1 + n);
      x[k] = (size[k] - 1) - mirrored;
    }
  } else {  // CLAMP_TO_EDGE
    for (uint32_t k = 0; k < N; ++k) {
      const double hi = size[k] - 1;
      x[k] = x[k] < 0 ? 0.0 : (x[k] > hi ? hi : x[k]);
    }
  }
}

// BC1 texels ("S3TC Compressed Texture Image Formats", BC1 with and without alpha, as
// bc_decode.cpp's decodeS3tcColor decodes a whole block): a level's rows of memory are rows of
// 8-byte blocks of 4x4 texels (rowPitch bytes apart); texel (i, j) takes its block's 2-bit code
// at bit 2 (4 (j mod 4) + (i mod 4)) of the block's last 32 bits, which picks colour_0,
// colour_1 or a mix of them; each component is the exact rational (w0 c0 + w1 c1) / (den (2^b
// - 1)) in double, rounded to float once, as the reference's. Those rationals are few (b is 5
// or 6, den 1, 2 or 3, the numerator at most 3 x 63), so they are read from a table of the
// reference's own quotients: a division per component and lane was most of a BC1 batch's time.
struct Bc1Quotients {
  float value[2][3][192];  // [6-bit component][den - 1][numerator]
  Bc1Quotients() : value() {
    for (int wide = 0; wide < 2; ++wide)
      for (int den = 1; den <= 3; ++den)
        for (int n = 0; n <= den * (wide ? 63 : 31); ++n)
          value[wide][den - 1][n] = float(double(n) / double(den * (wide ? 63 : 31)));
  }
};
inline const Bc1Quotients kBc1Quotients;

template <uint32_t N>
__attribute__((always_inline)) inline void readBc1Texels(const LevelLanes<N>& lv, const int32_t* ii, const int32_t* jj,
                                                         uint32_t active, const TexelFormat& f, Rgba<N>& out) {
  alignas(64) uint64_t block[N];
  for (uint32_t k = 0; k < N; ++k) {
    block[k] = 0;
    if (active >> k & 1)
      std::memcpy(&block[k],
                  lv.base[k] + uint64_t(uint32_t(jj[k]) / 4) * lv.rowPitch[k] + uint64_t(uint32_t(ii[k]) / 4) * 8, 8);
  }
  alignas(64) uint32_t numerator[3][N], den[N], transparent[N];
  for (uint32_t k = 0; k < N; ++k) {
    const uint32_t color0 = uint32_t(block[k] & 0xFFFF), color1 = uint32_t(block[k] >> 16 & 0xFFFF);
    const uint32_t shift = 2 * (4 * (uint32_t(jj[k]) & 3) + (uint32_t(ii[k]) & 3));
    const uint32_t code = uint32_t(block[k] >> 32 >> shift) & 3;
    const bool four = color0 > color1;
    const S3tcMix m = s3tcPaletteEntry(code, four);
    const uint32_t w0 = uint32_t(m.w0), w1 = uint32_t(m.w1);
    den[k] = uint32_t(m.den);
    numerator[0][k] = w0 * (color0 >> 11) + w1 * (color1 >> 11);
    numerator[1][k] = w0 * (color0 >> 5 & 63) + w1 * (color1 >> 5 & 63);
    numerator[2][k] = w0 * (color0 & 31) + w1 * (color1 & 31);
    transparent[k] = !four && code == 3;
  }
  for (uint32_t c = 0; c < 3; ++c)
    for (uint32_t k = 0; k < N; ++k) out.c[c][k] = kBc1Quotients.value[c == 1][den[k] - 1][numerator[c][k]];
  for (uint32_t k = 0; k < N; ++k) out.c[3][k] = f.bc1Alpha && transparent[k] ? 0.0 : 1.0;
}

// The formats other than 4-byte 8-bit ones: each lane's texel as raw words (up to 16 bytes),
// then per component.
template <uint32_t N>
__attribute__((always_inline)) inline void readOtherTexels(const LevelLanes<N>& lv, const int32_t* ii,
                                                           const int32_t* jj, uint32_t active, const TexelFormat& f,
                                                           Rgba<N>& out) {
  if (f.kind == TexelFormat::Bc1) return readBc1Texels<N>(lv, ii, jj, active, f, out);
  uint32_t raw[4][N];
  // One copy of a size known at compile time per lane (a copy of f.size bytes is a call to
  // memcpy per lane and texel).
  auto readAll = [&]<uint32_t kSize>() {
    for (uint32_t k = 0; k < N; ++k) {
      uint32_t words[4] = {0, 0, 0, 0};
      if (active >> k & 1)
        std::memcpy(words, lv.base[k] + uint64_t(uint32_t(jj[k])) * lv.rowPitch[k] + uint64_t(uint32_t(ii[k])) * kSize,
                    kSize);
      for (int w = 0; w < 4; ++w) raw[w][k] = words[w];
    }
  };
  switch (f.size) {
    case 1: readAll.template operator()<1>(); break;
    case 2: readAll.template operator()<2>(); break;
    case 4: readAll.template operator()<4>(); break;
    case 6: readAll.template operator()<6>(); break;
    case 8: readAll.template operator()<8>(); break;
    default: readAll.template operator()<16>(); break;
  }
  for (uint32_t c = 0; c < 4; ++c) {
    if (c >= f.components) {
      for (uint32_t k = 0; k < N; ++k) out.c[c][k] = c == 3 ? 1.0 : 0.0;
      continue;
    }
    if (f.kind == TexelFormat::Float) {
      for (uint32_t k = 0; k < N; ++k) {
        float v;
        std::memcpy(&v, &raw[c][k], 4);
        out.c[c][k] = v;
      }
    } else if (f.kind == TexelFormat::Half) {
      for (uint32_t k = 0; k < N; ++k) out.c[c][k] = halfToFloat((raw[c / 2][k] >> (16 * (c % 2))) & 0xFFFF);
    } else if (f.kind == TexelFormat::Unorm16 || f.kind == TexelFormat::Unorm24) {
      // The codec's unormToFloat, c / (2^b - 1) in double rounded to float (X8_D24: the low 24
      // bits; the others are not the depth), as one float division: c and 2^b - 1 are exact
      // floats (b <= 24) and a quotient rounded to double then to float is the quotient rounded
      // to float (53 >= 2 x 24 + 2 bits). Written as the double division, GCC 12 at -O3 dropped
      // the rounding to float here (found by BatchSampler.MatchesReference).
      const uint32_t mask = f.kind == TexelFormat::Unorm16 ? 0xFFFFu : 0xFFFFFFu;
      for (uint32_t k = 0; k < N; ++k) out.c[c][k] = float(raw[0][k] & mask) / float(mask);
    } else {  // R8, R8G8 UNORM
      for (uint32_t k = 0; k < N; ++k) {
        const uint32_t byte = (raw[0][k] >> (8 * c)) & 0xFF;
        out.c[c][k] = f.rgbDivides ? double(float(byte) / 255.0f) : double(f.rgb[byte]);
      }
    }
  }
}

// "Component Swizzle" of texels already converted to RGBA (before filtering, as the reference).
template <uint32_t N>
__attribute__((always_inline)) inline void swizzleTexels(const TexelFormat& f, Rgba<N>& texels) {
  const Rgba<N> rgba = texels;
  for (uint32_t c = 0; c < 4; ++c) {
    const uint32_t s = f.swizzle[c];
    if (s >= VK_COMPONENT_SWIZZLE_R) std::memcpy(texels.c[c], rgba.c[s - VK_COMPONENT_SWIZZLE_R], sizeof(double) * N);
    else
      for (uint32_t k = 0; k < N; ++k) texels.c[c][k] = s == VK_COMPONENT_SWIZZLE_ONE ? 1.0 : 0.0;
  }
}

// The texels of the formats other than 4-byte 8-bit ones, swizzled, compiled once per lane
// count and ISA and called, not inlined, by every level filter: inlined into the 4 reads of each
// LINEAR level of each routine, this one switch over sizes and kinds made each
// batch_sampler_exact_<W>.cpp take GCC 9 minutes (36 under ASan), which timed CI out. From a
// clone, GCC calls the callee's clone of the same ISA directly: a call costs a call.
template <uint32_t N>
TESSERA_ROUTINE_CLONES __attribute__((noinline)) void readOtherTexelsOutOfLine(const LevelLanes<N>& lv,
                                                                              const double* i, const double* j,
                                                                              uint32_t active, const TexelFormat& f,
                                                                              Rgba<N>& out) {
  int32_t ii[N], jj[N];
  for (uint32_t k = 0; k < N; ++k) ii[k] = int32_t(i[k]), jj[k] = int32_t(j[k]);
  readOtherTexels<N>(lv, ii, jj, active, f, out);
  if (f.swizzled) swizzleTexels<N>(f, out);
}

// "Format Conversion" of texels (i, j) of each lane in `active`; other lanes read nothing (and
// hold zero bits). One load per lane and component word, then the components of every lane at
// once. kRgba8: the view is a 4-byte 8-bit format (chosen per batch, compiled apart: the
// general path's code slowed the common one by ~12%).
template <uint32_t N, bool kRgba8>
__attribute__((always_inline)) inline void readTexels(const LevelLanes<N>& lv, const double* i, const double* j,
                                                      uint32_t active, const TexelFormat& f, Rgba<N>& out) {
  if constexpr (kRgba8) {
    int32_t ii[N], jj[N];
    for (uint32_t k = 0; k < N; ++k) ii[k] = int32_t(i[k]), jj[k] = int32_t(j[k]);
    uint32_t texel[N];
    for (uint32_t k = 0; k < N; ++k) {
      texel[k] = 0;
      if (active >> k & 1)
        std::memcpy(&texel[k], lv.base[k] + uint64_t(uint32_t(jj[k])) * lv.rowPitch[k] + uint64_t(uint32_t(ii[k])) * 4,
                    4);
    }
    const uint32_t shift[4] = {8 * f.r, 8, 8 * f.b, 24};
    for (int c = 0; c < 4; ++c) {
      const bool divides = c == 3 ? f.alphaDivides : f.rgbDivides;
      const float* table = c == 3 ? f.alpha : f.rgb;
      if (divides) {
        for (uint32_t k = 0; k < N; ++k) out.c[c][k] = double(float((texel[k] >> shift[c]) & 0xFF) / 255.0f);
      } else {
        for (uint32_t k = 0; k < N; ++k) out.c[c][k] = table[(texel[k] >> shift[c]) & 0xFF];
      }
    }
    if (f.swizzled) swizzleTexels<N>(f, out);
  } else {
    readOtherTexelsOutOfLine(lv, i, j, active, f, out);
  }
}

// "Texel Filtering", NEAREST: the texel (floor(u), floor(v)), wrapped.
template <uint32_t N, bool kRgba8>
__attribute__((always_inline)) inline void nearestLevel(const Lanes<N>& in, const LevelLanes<N>& lv,
                                                        const uint32_t* modes, uint32_t active, const TexelFormat& f,
                                                        Rgba<N>& out) {
  alignas(64) double i[N], j[N];
  for (uint32_t k = 0; k < N; ++k) {
    const double u = in.s[k] * lv.width[k] + in.offI[k], v = in.t[k] * lv.height[k] + in.offJ[k];
    i[k] = floorClamped(u, std::floor(u));
    j[k] = floorClamped(v, std::floor(v));
  }
  wrap<N>(i, lv.width, modes[0]);
  wrap<N>(j, lv.height, modes[1]);
  readTexels<N, kRgba8>(lv, i, j, active, f, out);
}

// "Texel Filtering", LINEAR: i0 = floor(u - 0.5), α = frac(u - 0.5), likewise j0 and β; the
// reference's sum over (i0,j0), (i1,j0), (i0,j1), (i1,j1) with weights (1-α)(1-β), α(1-β),
// (1-α)β, αβ (its third factor, 1 - 0 for 2D, is exactly 1 and left out).
template <uint32_t N, bool kRgba8>
__attribute__((always_inline)) inline void linearLevel(const Lanes<N>& in, const LevelLanes<N>& lv,
                                                       const uint32_t* modes, uint32_t active, const TexelFormat& f,
                                                       Rgba<N>& out) {
  alignas(64) double i0[N], i1[N], j0[N], j1[N], alpha[N], beta[N];
  for (uint32_t k = 0; k < N; ++k) {
    const double x = (in.s[k] * lv.width[k] + in.offI[k]) - 0.5;
    const double y = (in.t[k] * lv.height[k] + in.offJ[k]) - 0.5;
    const double fx = std::floor(x), fy = std::floor(y);
    i0[k] = floorClamped(x, fx);
    j0[k] = floorClamped(y, fy);
    i1[k] = i0[k] + 1;
    j1[k] = j0[k] + 1;
    alpha[k] = x - fx;
    beta[k] = y - fy;
  }
  wrap<N>(i0, lv.width, modes[0]);
  wrap<N>(i1, lv.width, modes[0]);
  wrap<N>(j0, lv.height, modes[1]);
  wrap<N>(j1, lv.height, modes[1]);
  Rgba<N> t00, t10, t01, t11;
  readTexels<N, kRgba8>(lv, i0, j0, active, f, t00);
  readTexels<N, kRgba8>(lv, i1, j0, active, f, t10);
  readTexels<N, kRgba8>(lv, i0, j1, active, f, t01);
  readTexels<N, kRgba8>(lv, i1, j1, active, f, t11);
  for (uint32_t k = 0; k < N; ++k) {
    const double a = alpha[k], b = beta[k];
    const double w00 = (1 - a) * (1 - b), w10 = a * (1 - b), w01 = (1 - a) * b, w11 = a * b;
    for (int c = 0; c < 4; ++c) {
      double sum = 0.0 + w00 * t00.c[c][k];
      sum = sum + w10 * t10.c[c][k];
      sum = sum + w01 * t01.c[c][k];
      out.c[c][k] = sum + w11 * t11.c[c][k];
    }
  }
}

// "Texel Filtering" of one level per lane (`level`), with the lane's filter: magFilter where
// λ <= 0, minFilter elsewhere (`linearLanes`: lanes whose filter is LINEAR).
// Out of line for the same reason as readOtherTexelsOutOfLine: 8 per lane count and ISA, where
// inlined they were 48 (16 routines, the two format paths, two levels for LINEAR mipmaps and two
// calls in the anisotropic routines).
template <uint32_t N, uint32_t kMag, uint32_t kMin, bool kRgba8>
TESSERA_ROUTINE_CLONES __attribute__((noinline)) void filterLevel(const abi::ImageViewState& view,
                                                                  const abi::SamplerState& sampler, const Lanes<N>& in,
                                                                  const uint32_t* level, uint32_t active,
                                                                  uint32_t linearLanes, const TexelFormat& format,
                                                                  Rgba<N>& result) {
  LevelLanes<N> lv;
  for (uint32_t k = 0; k < N; ++k) {
    const abi::ImageLevel& l = view.levels[level[k]];
    lv.width[k] = l.width;
    lv.height[k] = l.height;
    lv.base[k] = l.base + uint64_t(in.layer[k]) * l.layerPitch;
    lv.rowPitch[k] = l.rowPitch;
  }
  if constexpr (kMag == kMin) {
    if constexpr (kMag == VK_FILTER_LINEAR) linearLevel<N, kRgba8>(in, lv, sampler.addressMode, active, format, result);
    else nearestLevel<N, kRgba8>(in, lv, sampler.addressMode, active, format, result);
  } else {
    Rgba<N> nearest;
    linearLevel<N, kRgba8>(in, lv, sampler.addressMode, active & linearLanes, format, result);
    nearestLevel<N, kRgba8>(in, lv, sampler.addressMode, active & ~linearLanes, format, nearest);
    for (int c = 0; c < 4; ++c)
      for (uint32_t k = 0; k < N; ++k)
        if (!(linearLanes >> k & 1)) result.c[c][k] = nearest.c[c][k];
  }
}


// "Texel Filtering" of the level(s) and "Texel Mipmap Filtering" of the lanes in `active`.
template <uint32_t N, uint32_t kMag, uint32_t kMin, bool kMipLinear, bool kRgba8>
__attribute__((always_inline)) inline void filterMipmapped(const abi::ImageViewState& view,
                                                           const abi::SamplerState& sampler, const Lanes<N>& in,
                                                           const uint32_t* levelHi, const uint32_t* levelLo,
                                                           const double* delta, uint32_t active, uint32_t linearLanes,
                                                           const TexelFormat& format, Rgba<N>& result) {
  filterLevel<N, kMag, kMin, kRgba8>(view, sampler, in, levelHi, active, linearLanes, format, result);
  if constexpr (kMipLinear) {
    // "Texel Mipmap Filtering", LINEAR: τ = (1 - δ) τ_hi + δ τ_lo, summed from 0 as the
    // reference's Reduction does.
    Rgba<N> lo;
    filterLevel<N, kMag, kMin, kRgba8>(view, sampler, in, levelLo, active, linearLanes, format, lo);
    for (int c = 0; c < 4; ++c)
      for (uint32_t k = 0; k < N; ++k)
        result.c[c][k] = (0.0 + (1.0 - delta[k]) * result.c[c][k]) + delta[k] * lo.c[c][k];
  }
}

template <uint32_t N>
__attribute__((always_inline)) inline void storeResult(const Rgba<N>& result, uint32_t active, uint32_t* out) {
  for (int c = 0; c < 4; ++c)
    for (uint32_t k = 0; k < N; ++k) out[c * N + k] = (active >> k & 1) ? canonicalFloatBits(result.c[c][k]) : 0u;
}

// "Texel Anisotropic Filtering" as reference_sampler.cpp takes it: each lane's footprint from
// the reference's own functions (scaleFactors, anisotropicFootprint: η, N = ceil(η), the major
// axis, λ_base = log2(ρ_max / η)), its level(s) from that λ_base as every routine selects them;
// a lane with N = 1 is one isotropic sample, as there; the others average N isotropic samples
// at P + (i / (N + 1) - 1/2) ∂P along the major axis, i = 1..N, each weighted 1/N and summed
// from 0 in that order (the reference's Reduction). Lanes of one batch may take different N:
// sample i is taken for the lanes with N >= i.
template <uint32_t N, uint32_t kMag, uint32_t kMin, bool kMipLinear, bool kRgba8>
__attribute__((always_inline)) inline void anisotropicAndStore(const abi::ImageViewState& view,
                                                               const abi::SamplerState& sampler,
                                                               const SampleLanes& lanes, const Lanes<N>& in,
                                                               uint32_t active, uint32_t levelCount,
                                                               const TexelFormat& format, uint32_t* out) {
  LaneFootprints<N> fp;
  laneFootprints<N>(view, sampler, lanes, active, fp);
  const uint32_t* samples = fp.samples;
  const double *axisS = fp.axisS, *axisT = fp.axisT;
  const uint32_t most = fp.most;
  uint32_t single = 0;
  for (uint32_t k = 0; k < N; ++k) single |= uint32_t(samples[k] <= 1) << k;
  uint32_t levelHi[N], levelLo[N], linearLanes;
  alignas(64) double delta[N];
  levelsFromLambdaBase<N>(sampler, lanes, fp.lambdaBase, active, levelCount, kMipLinear, levelHi, levelLo, delta,
                          linearLanes);
  Rgba<N> result;
  filterMipmapped<N, kMag, kMin, kMipLinear, kRgba8>(view, sampler, in, levelHi, levelLo, delta, active & single,
                                                     linearLanes, format, result);
  const uint32_t several = active & ~single;
  if (several) {
    Rgba<N> sum{};
    for (uint32_t i = 1; i <= most; ++i) {
      Lanes<N> at = in;
      uint32_t taking = 0;
      for (uint32_t k = 0; k < N; ++k) {
        if (!(several >> k & 1) || samples[k] < i) continue;
        taking |= 1u << k;
        const double offset = double(i) / double(samples[k] + 1) - 0.5;
        at.s[k] = in.s[k] + offset * axisS[k];
        at.t[k] = in.t[k] + offset * axisT[k];
      }
      Rgba<N> sample;
      filterMipmapped<N, kMag, kMin, kMipLinear, kRgba8>(view, sampler, at, levelHi, levelLo, delta, taking,
                                                         linearLanes, format, sample);
      for (int c = 0; c < 4; ++c)
        for (uint32_t k = 0; k < N; ++k)
          if (taking >> k & 1) sum.c[c][k] += (1.0 / double(samples[k])) * sample.c[c][k];
    }
    for (int c = 0; c < 4; ++c)
      for (uint32_t k = 0; k < N; ++k)
        if (several >> k & 1) result.c[c][k] = sum.c[c][k];
  }
  storeResult<N>(result, active, out);
}

// The routine: N lanes, the sampler's filters and mipmap mode fixed at compile time; kAniso: a
// sampler with anisotropy (SamplerState::fastSampling 9-16), sampled so where the operands
// carry derivatives (an explicit LOD has no footprint: isotropic, as in the reference).
template <uint32_t N, uint32_t kMag, uint32_t kMin, bool kMipLinear, bool kAniso = false>
__attribute__((always_inline)) inline void sampleBatch(const abi::ImageViewState& view,
                                                       const abi::SamplerState& sampler, const SampleLanes& lanes,
                                                       uint32_t* out) {
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  TexelFormat format = texelFormat(view.fastSampling);
  if (!identitySwizzle(view)) {
    format.swizzled = true;
    for (uint32_t c = 0; c < 4; ++c)
      format.swizzle[c] = view.swizzle[c] == VK_COMPONENT_SWIZZLE_IDENTITY ? VK_COMPONENT_SWIZZLE_R + c : view.swizzle[c];
  }
  const uint32_t active = lanes.active & ((1u << N) - 1);

  // Per lane: coordinates, offsets, layer (the reference's selectLayer), then LOD and levels.
  Lanes<N> in;
  prepareLanes<N>(view, lanes, active, in);
  const bool rgba8 = format.kind == TexelFormat::Bytes && format.size == 4;
  if constexpr (kAniso) {
    if (!lanes.lod) {
      if (rgba8) anisotropicAndStore<N, kMag, kMin, kMipLinear, true>(view, sampler, lanes, in, active, levelCount, format, out);
      else anisotropicAndStore<N, kMag, kMin, kMipLinear, false>(view, sampler, lanes, in, active, levelCount, format, out);
      return;
    }
  }
  uint32_t levelHi[N], levelLo[N], linearLanes;
  alignas(64) double delta[N];
  selectLaneLevels<N>(view, sampler, lanes, active, levelCount, kMipLinear, levelHi, levelLo, delta, linearLanes);
  Rgba<N> result;
  if (rgba8)
    filterMipmapped<N, kMag, kMin, kMipLinear, true>(view, sampler, in, levelHi, levelLo, delta, active, linearLanes,
                                                     format, result);
  else
    filterMipmapped<N, kMag, kMin, kMipLinear, false>(view, sampler, in, levelHi, levelLo, delta, active, linearLanes,
                                                      format, result);
  storeResult<N>(result, active, out);
}

}  // namespace tessera::sampler_detail::exact

namespace tessera::sampler_detail::batch {

// The routines of one lane count (batch_sampler_exact_<W>.cpp): `isotropic` by [sampler class -
// 1], `anisotropic` by [sampler class - 9] (null where the filters differ).
struct ExactRoutineRows {
  const SampleRoutine* isotropic;
  const SampleRoutine* anisotropic;
};
ExactRoutineRows exactRoutines4();
ExactRoutineRows exactRoutines8();
ExactRoutineRows exactRoutines16();

}  // namespace tessera::sampler_detail::batch

// One non-template entry per routine, each cloned for the host's vector width.
#define TESSERA_SAMPLE_ROUTINE(N, MAG, MIN, MIP)                                                                \
  TESSERA_ROUTINE_CLONES void                                                                                    \
      routine_##N##_##MAG##_##MIN##_##MIP(const abi::ImageViewState& view, const abi::SamplerState& sampler,    \
                                          const SampleLanes& lanes, uint32_t* out) {                            \
    sampleBatch<N, MAG, MIN, MIP>(view, sampler, lanes, out);                                                  \
  }
#define TESSERA_SAMPLE_ROUTINES_N(N)              \
  TESSERA_SAMPLE_ROUTINE(N, 0, 0, false)          \
  TESSERA_SAMPLE_ROUTINE(N, 1, 0, false)          \
  TESSERA_SAMPLE_ROUTINE(N, 0, 1, false)          \
  TESSERA_SAMPLE_ROUTINE(N, 1, 1, false)          \
  TESSERA_SAMPLE_ROUTINE(N, 0, 0, true)           \
  TESSERA_SAMPLE_ROUTINE(N, 1, 0, true)           \
  TESSERA_SAMPLE_ROUTINE(N, 0, 1, true)           \
  TESSERA_SAMPLE_ROUTINE(N, 1, 1, true)

// Anisotropic samplers: equal magnification and minification filters only (what such samplers
// use; the others take the reference).
#define TESSERA_ANISO_ROUTINE(N, F, MIP)                                                                        \
  TESSERA_ROUTINE_CLONES void                                                                                    \
      anisoRoutine_##N##_##F##_##MIP(const abi::ImageViewState& view, const abi::SamplerState& sampler,         \
                                     const SampleLanes& lanes, uint32_t* out) {                                 \
    sampleBatch<N, F, F, MIP, true>(view, sampler, lanes, out);                                                 \
  }
#define TESSERA_ANISO_ROUTINES_N(N) \
  TESSERA_ANISO_ROUTINE(N, 0, false) TESSERA_ANISO_ROUTINE(N, 1, false) TESSERA_ANISO_ROUTINE(N, 0, true) TESSERA_ANISO_ROUTINE(N, 1, true)

// A row of routines for W = N, indexed by [sampler class - 1], the class being
// 1 + magFilter + 2 minFilter + 4 mipmapMode (VkFilter / VkSamplerMipmapMode: 0 or 1).
#define TESSERA_ROUTINE_ROW(N)                                                                            \
  {&routine_##N##_0_0_false, &routine_##N##_1_0_false, &routine_##N##_0_1_false, &routine_##N##_1_1_false, \
   &routine_##N##_0_0_true, &routine_##N##_1_0_true, &routine_##N##_0_1_true, &routine_##N##_1_1_true}
// The anisotropic row for W = N, indexed by [sampler class - 9]; null where the filters differ.
#define TESSERA_ANISO_ROW(N)                                                                  \
  {&anisoRoutine_##N##_0_false, nullptr, nullptr, &anisoRoutine_##N##_1_false, &anisoRoutine_##N##_0_true, nullptr, \
   nullptr, &anisoRoutine_##N##_1_true}

