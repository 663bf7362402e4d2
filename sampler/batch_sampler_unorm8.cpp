// The fixed-point sampling routines for 2D (and 2D-array) views of R8G8B8A8 / B8G8R8A8 UNORM,
// the format most textured programs sample, of R8 / R8G8 UNORM (video planes) and of BC1 UNORM
// (block-compressed colour, every texel decoded to four UNORM bytes: loadBc1Texels): W lanes at
// once, in 32-bit integers where the exact routines of batch_sampler_exact.h compute every texel
// weight and sum in double.
//
// What they compute, and how it relates to the spec ("Texel Filtering", "Texel Mipmap
// Filtering"):
//  - λ, the levels and δ are the reference's arithmetic (batch_lanes.h's selectLaneLevels), but
//    for log2, which is a vectorized series within 2^-40 of glibc's (vectorLog2);
//  - NEAREST within a level: the texel (floor(u), floor(v)) of the reference, found with the
//    same exact double arithmetic (u = s × width + offset is exact in double);
//  - LINEAR within a level: u - 1/2 is snapped to the nearest multiple of 2^-8 texel before
//    i0 = floor and α = frac are taken, as subTexelPrecisionBits = 8 allows ("Sub-texel values
//    calculated during image sampling will snap to these locations"); the snapping is exact
//    (u - 1/2 times 256 is exact in double), so α and β are integers in [0, 255] / 256;
//  - LINEAR between levels: δ is snapped to the nearest multiple of 2^-8 likewise
//    (mipmapPrecisionBits = 8);
//  - with the snapped weights every UNORM byte c stands for c / 255 exactly, so the filtered
//    value is an integer sum S over 255 × 2^16 (one level) or 255 × 2^24 (two levels), computed
//    exactly in 32-bit integers, then divided once: one level in float (S < 2^24 and the
//    divisor are exact floats, so the quotient is correctly rounded; NEAREST gives exactly the
//    reference's c / 255), two levels in double, then rounded to float.
// Lanes whose texel coordinates are NaN or beyond ±2^22 (where 32-bit fixed point would not
// hold them; no real draw samples there) run the reference instead, whole.
// batch_sampler_test.cpp checks every routine against an oracle written from the spec's
// formulas with these snapped weights, and against the reference within the snapping bound.
#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstring>

#include <immintrin.h>

#include "batch_lanes.h"
#include "batch_sampler_unorm8_uniform.h"
#include "bc1_bytes.h"
#include "block_decoders.h"
#include "routine_clones.h"

namespace tessera {
namespace {

using namespace sampler_detail;
using namespace sampler_detail::batch;

// Fixed-point coordinates: texels times 256. Beyond ±2^30 (2^22 texels) they fall back.
constexpr double kFixedLimit = 1073741824.0;

// Texel sources of the routines: kSource 1, 2 or 4 is that many UNORM bytes a texel (R8,
// R8G8, RGBA/BGRA); kBc1Source is a BC1 view, whose texels loadBc1Texels decodes to 4 bytes.
constexpr uint32_t kBc1Source = 8;
constexpr uint32_t componentsOf(uint32_t source) { return source == kBc1Source ? 4 : source; }

// One level per lane, as the integer addressing needs it.
template <uint32_t N>
struct FixedLevelLanes {
  alignas(64) int32_t width[N], height[N];
  alignas(64) float invWidth[N], invHeight[N];  // 1 / size, to find i mod size in float
  alignas(64) double widthD[N], heightD[N];
  const uint8_t* base[N];
  uint64_t rowPitch[N];  // BC1: between rows of blocks
  bool bc1Alpha;         // BC1_RGBA: the three-colour mode's code 3 is transparent
};

// i mod size for |i| < 2^23, 0 < size <= 2^16: i is exact in float and the product rounds once,
// so the quotient's floor is off by at most one: too small when i / size is an integer the
// product falls just short of (the second correction; the tests reach it); too large only if
// the product could round up to an integer i / size falls short of, which needs |i| > 2^24: the
// first correction is a guard that keeps every index in range regardless.
template <uint32_t N>
__attribute__((always_inline)) inline void modulo(int32_t* x, const int32_t* size, const float* inv) {
  for (uint32_t k = 0; k < N; ++k) {
    int32_t r = x[k] - int32_t(std::floor(float(x[k]) * inv[k])) * size[k];
    r = r < 0 ? r + size[k] : r;
    r = r >= size[k] ? r - size[k] : r;
    x[k] = r;
  }
}

// "Wrapping Operation" on int32 coordinates (the same three modes as the exact routines).
template <uint32_t N>
__attribute__((always_inline)) inline void wrapFixed(int32_t* x, const int32_t* size, const float* inv,
                                                     uint32_t mode) {
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT) {
    modulo<N>(x, size, inv);
  } else if (mode == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT) {
    // (size - 1) - mirror((i mod 2 size) - size) is t = i mod 2 size when t < size, else
    // 2 size - 1 - t.
    int32_t twice[N];
    float halfInv[N];
    for (uint32_t k = 0; k < N; ++k) twice[k] = 2 * size[k], halfInv[k] = inv[k] * 0.5f;
    modulo<N>(x, twice, halfInv);
    for (uint32_t k = 0; k < N; ++k) x[k] = x[k] < size[k] ? x[k] : twice[k] - 1 - x[k];
  } else {  // CLAMP_TO_EDGE
    for (uint32_t k = 0; k < N; ++k) x[k] = std::clamp(x[k], 0, size[k] - 1);
  }
}

// Hardware gathers of 4-byte texels at 32-bit byte offsets from one base. GCC does not
// vectorize the per-lane loads below into gathers, so these are written out, each for the
// instruction set it needs (chosen at run time by what the host has, not by the clone).
__attribute__((target("avx512f"))) void gather16(const uint8_t* base, const int32_t* offsets, uint32_t* out) {
  const __m512i index = _mm512_loadu_si512(offsets);
  _mm512_storeu_si512(out, _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), __mmask16(0xFFFF), index, base, 1));
}
__attribute__((target("avx2"))) void gather8(const uint8_t* base, const int32_t* offsets, uint32_t* out) {
  const __m256i index = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(offsets));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                      _mm256_mask_i32gather_epi32(_mm256_setzero_si256(), reinterpret_cast<const int*>(base), index,
                                                  _mm256_set1_epi32(-1), 1));
}
// __builtin_cpu_init first: these run as static initializers, possibly before GCC's own.
const bool kHostAvx512 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") != 0;
}();
const bool kHostAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();

// The texel (i, j) of each lane, its kBytes bytes in the low bytes of a word. 4-byte texels:
// where every lane's byte offset from the first lane's level fits 32 bits (always, but for
// huge images), one or two gathers. Otherwise, and for 1- and 2-byte texels (a 4-byte gather
// could read past the image's last texel), a load of kBytes per lane.
template <uint32_t N, uint32_t kBytes>
__attribute__((always_inline)) inline void loadTexels(const FixedLevelLanes<N>& lv, const int32_t* i, const int32_t* j,
                                                      uint32_t* texel) {
  if constexpr (kBytes != 4) {
    for (uint32_t k = 0; k < N; ++k) {
      texel[k] = 0;
      std::memcpy(&texel[k], lv.base[k] + uint64_t(uint32_t(j[k])) * lv.rowPitch[k] + uint64_t(uint32_t(i[k])) * kBytes,
                  kBytes);
    }
    return;
  }
  alignas(64) int64_t offset[N];
  const uint8_t* base = lv.base[0];
  for (uint32_t k = 0; k < N; ++k)
    offset[k] = (lv.base[k] - base) + int64_t(uint32_t(j[k])) * int64_t(lv.rowPitch[k]) + int64_t(uint32_t(i[k])) * 4;
  bool fits = true;
  alignas(64) int32_t offset32[N];
  for (uint32_t k = 0; k < N; ++k) {
    fits &= offset[k] == int64_t(int32_t(offset[k]));
    offset32[k] = int32_t(offset[k]);
  }
  if (fits && N % 16 == 0 && kHostAvx512) {
    for (uint32_t k = 0; k < N; k += 16) gather16(base, offset32 + k, texel + k);
    return;
  }
  if (fits && N % 8 == 0 && kHostAvx2) {
    for (uint32_t k = 0; k < N; k += 8) gather8(base, offset32 + k, texel + k);
    return;
  }
  for (uint32_t k = 0; k < N; ++k)
    std::memcpy(&texel[k], lv.base[k] + uint64_t(uint32_t(j[k])) * lv.rowPitch[k] + uint64_t(uint32_t(i[k])) * 4, 4);
}

// BC1 texels (i, j) of each lane as 4 UNORM bytes, R in the low byte. Texel (i, j) lies in the
// block at row j / 4, column i / 4 of the level's 8-byte blocks and takes the 2-bit code at bit
// 2 (4 (j mod 4) + (i mod 4)) of the block's last 32 bits, which picks colour_0, colour_1 or a mix
// of them by the reference's rule (s3tcPaletteEntry); each component is rounded to the nearest
// byte (bc1Byte), within 1/510 of the exact decode the reference and the exact routines use
// (decoders commonly round BC1 colours to 8 bits: lavapipe's does; Direct3D allows a tolerance
// around the exact thirds), so that BC1 filters as RGBA8 does. Alpha is 255, or 0 for BC1_RGBA's
// transparent code.
template <uint32_t N>
__attribute__((always_inline)) inline void loadBc1Texels(const FixedLevelLanes<N>& lv, const int32_t* i, const int32_t* j,
                                                         uint32_t* texel) {
  alignas(64) uint32_t colours[N], codes[N];
  alignas(64) int64_t offset[N];
  const uint8_t* base = lv.base[0];
  for (uint32_t k = 0; k < N; ++k)
    offset[k] = (lv.base[k] - base) + int64_t(uint32_t(j[k]) >> 2) * int64_t(lv.rowPitch[k]) +
                int64_t(uint32_t(i[k]) >> 2) * 8;
  bool fits = true;
  alignas(64) int32_t low[N], high[N];
  for (uint32_t k = 0; k < N; ++k) {
    fits &= (offset[k] >= INT32_MIN) & (offset[k] + 4 <= INT32_MAX);
    low[k] = int32_t(offset[k]);
    high[k] = int32_t(offset[k] + 4);
  }
  if (fits && N % 16 == 0 && kHostAvx512) {
    for (uint32_t k = 0; k < N; k += 16) gather16(base, low + k, colours + k), gather16(base, high + k, codes + k);
  } else if (fits && N % 8 == 0 && kHostAvx2) {
    for (uint32_t k = 0; k < N; k += 8) gather8(base, low + k, colours + k), gather8(base, high + k, codes + k);
  } else {
    for (uint32_t k = 0; k < N; ++k) {
      std::memcpy(&colours[k], base + offset[k], 4);
      std::memcpy(&codes[k], base + offset[k] + 4, 4);
    }
  }
  const uint32_t transparentDrop = lv.bc1Alpha ? 255u : 0u;  // what code 3 of three colours takes from alpha
  for (uint32_t k = 0; k < N; ++k) {
    const uint32_t color0 = colours[k] & 0xFFFF, color1 = colours[k] >> 16;
    const uint32_t code = codes[k] >> (2 * (4 * (uint32_t(j[k]) & 3) + (uint32_t(i[k]) & 3))) & 3;
    texel[k] = bc1TexelWord(color0, color1, code, transparentDrop);
  }
}

// A texel source's texels (i, j) of each lane, as 4-byte words of UNORM bytes.
template <uint32_t N, uint32_t kSource>
__attribute__((always_inline)) inline void loadSourceTexels(const FixedLevelLanes<N>& lv, const int32_t* i,
                                                            const int32_t* j, uint32_t* texel) {
  if constexpr (kSource == kBc1Source) loadBc1Texels<N>(lv, i, j, texel);
  else loadTexels<N, kSource>(lv, i, j, texel);
}

// Per lane and byte of the texel, the filtered value of one level times 255 × 2^16, exactly:
// `sum[b]` holds byte b (R, G, B, A in RGBA order; B, G, R, A in BGRA; R, G of R8G8) of every
// lane, for the componentsOf(kSource) bytes a texel has. Lanes whose coordinates do not fit the fixed
// point are added to `fallback` (their sums are meaningless).
// Compiled once per lane count, source, filter pair and ISA and called, not inlined: inlined into
// the 128 routines (two levels for LINEAR mipmaps, several places in the anisotropic ones) it
// made this file take GCC 11 minutes; the call costs a call (GCC calls the callee's clone of
// the caller's ISA directly) next to a level's four texel loads per lane.
template <uint32_t N, uint32_t kSource, uint32_t kMag, uint32_t kMin>
TESSERA_ROUTINE_CLONES __attribute__((noinline)) void filterLevelFixed(const abi::ImageViewState& view,
                                                                       const abi::SamplerState& sampler,
                                                                       const Lanes<N>& in, const uint32_t* level,
                                                                       uint32_t linearLanes, uint32_t (*sum)[N],
                                                                       uint32_t& fallback) {
  constexpr uint32_t kComponents = componentsOf(kSource);
  FixedLevelLanes<N> lv;
  lv.bc1Alpha = view.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  for (uint32_t k = 0; k < N; ++k) {
    const abi::ImageLevel& l = view.levels[level[k]];
    lv.width[k] = int32_t(l.width);
    lv.height[k] = int32_t(l.height);
    lv.widthD[k] = l.width;
    lv.heightD[k] = l.height;
    lv.base[k] = l.base + uint64_t(in.layer[k]) * l.layerPitch;
    lv.rowPitch[k] = l.rowPitch;
  }
  for (uint32_t k = 0; k < N; ++k) lv.invWidth[k] = 1.0f / float(lv.width[k]), lv.invHeight[k] = 1.0f / float(lv.height[k]);

  // Fixed-point coordinates: LINEAR lanes round (u - 1/2) × 256 to an integer (halves up);
  // NEAREST lanes take floor(u) × 256, so i0 = floor(u) and α = 0.
  constexpr bool kAllLinear = kMag == VK_FILTER_LINEAR && kMin == VK_FILTER_LINEAR;
  constexpr bool kAllNearest = kMag == VK_FILTER_NEAREST && kMin == VK_FILTER_NEAREST;
  alignas(64) int32_t fx[N], fy[N];
  uint32_t outside = 0;
  for (uint32_t k = 0; k < N; ++k) {
    const double u = in.s[k] * lv.widthD[k] + in.offI[k], v = in.t[k] * lv.heightD[k] + in.offJ[k];
    const bool linear = kAllLinear || (!kAllNearest && (linearLanes >> k & 1));
    const double x = linear ? std::floor((u - 0.5) * 256.0 + 0.5) : std::floor(u) * 256.0;
    const double y = linear ? std::floor((v - 0.5) * 256.0 + 0.5) : std::floor(v) * 256.0;
    const bool fits = std::fabs(x) < kFixedLimit && std::fabs(y) < kFixedLimit;  // false for NaN
    outside |= uint32_t(!fits) << k;
    fx[k] = fits ? int32_t(x) : 0;
    fy[k] = fits ? int32_t(y) : 0;
  }
  fallback |= outside;

  if constexpr (kAllNearest) {
    alignas(64) int32_t i[N], j[N];
    for (uint32_t k = 0; k < N; ++k) i[k] = fx[k] >> 8, j[k] = fy[k] >> 8;
    wrapFixed<N>(i, lv.width, lv.invWidth, sampler.addressMode[0]);
    wrapFixed<N>(j, lv.height, lv.invHeight, sampler.addressMode[1]);
    alignas(64) uint32_t t[N];
    loadSourceTexels<N, kSource>(lv, i, j, t);
    for (uint32_t c = 0; c < kComponents; ++c)
      for (uint32_t k = 0; k < N; ++k) sum[c][k] = ((t[k] >> (8 * c)) & 0xFF) << 16;
    return;
  }
  alignas(64) int32_t i0[N], i1[N], j0[N], j1[N], a[N], b[N];
  for (uint32_t k = 0; k < N; ++k) {
    i0[k] = fx[k] >> 8, j0[k] = fy[k] >> 8;  // arithmetic shifts: floor of the texel coordinate
    a[k] = fx[k] & 0xFF, b[k] = fy[k] & 0xFF;
    i1[k] = i0[k] + 1, j1[k] = j0[k] + 1;
  }
  wrapFixed<N>(i0, lv.width, lv.invWidth, sampler.addressMode[0]);
  wrapFixed<N>(i1, lv.width, lv.invWidth, sampler.addressMode[0]);
  wrapFixed<N>(j0, lv.height, lv.invHeight, sampler.addressMode[1]);
  wrapFixed<N>(j1, lv.height, lv.invHeight, sampler.addressMode[1]);
  alignas(64) uint32_t t00[N], t10[N], t01[N], t11[N];
  loadSourceTexels<N, kSource>(lv, i0, j0, t00);
  loadSourceTexels<N, kSource>(lv, i1, j0, t10);
  loadSourceTexels<N, kSource>(lv, i0, j1, t01);
  loadSourceTexels<N, kSource>(lv, i1, j1, t11);
  // (c00 (256 - α) + c10 α)(256 - β) + (c01 (256 - α) + c11 α) β <= 255 × 2^16: exact in 32 bits.
  for (uint32_t c = 0; c < kComponents; ++c)
    for (uint32_t k = 0; k < N; ++k) {
      const uint32_t ua = uint32_t(a[k]), ub = uint32_t(b[k]);
      const uint32_t row0 = ((t00[k] >> (8 * c)) & 0xFF) * (256 - ua) + ((t10[k] >> (8 * c)) & 0xFF) * ua;
      const uint32_t row1 = ((t01[k] >> (8 * c)) & 0xFF) * (256 - ua) + ((t11[k] >> (8 * c)) & 0xFF) * ua;
      sum[c][k] = row0 * (256 - ub) + row1 * ub;
    }
}

// The reference for the lanes in `lanesMask`, one at a time, written over `out`.
template <uint32_t N>
void referenceLanes(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                    uint32_t lanesMask, uint32_t* out) {
  for (uint32_t k = 0; k < N; ++k) {
    if (!(lanesMask >> k & 1)) continue;
    SampleRequest r;
    r.s = lanes.s[k], r.t = lanes.t[k];
    if (lanes.layer) r.layer = lanes.layer[k];
    r.hasLod = lanes.lod != nullptr;
    if (lanes.lod) r.lod = lanes.lod[k];
    r.hasGrad = !lanes.lod && lanes.dPdx[0];
    if (r.hasGrad)
      r.dPdx[0] = lanes.dPdx[0][k], r.dPdx[1] = lanes.dPdx[1][k], r.dPdy[0] = lanes.dPdy[0][k],
      r.dPdy[1] = lanes.dPdy[1][k];
    if (lanes.bias) r.bias = lanes.bias[k];
    r.hasMinLod = lanes.minLod != nullptr;
    if (lanes.minLod) r.minLod = lanes.minLod[k];
    if (lanes.offset[0]) r.offset[0] = lanes.offset[0][k];
    if (lanes.offset[1]) r.offset[1] = lanes.offset[1][k];
    const TexelValue v = sampleImage(view, sampler, r);
    for (uint32_t c = 0; c < 4; ++c) out[c * N + k] = v.u[c];
  }
}

// "Component Swizzle" on a routine's result (component c of lane k at out[c * N + k]), taken after
// filtering where the spec swizzles each texel before it: the same numbers, because these
// routines filter each component on its own with integer weights that sum to the divisor exactly
// (2^16 per level, 2^24 over two), so a component moved to another place is the same sum, and a
// constant 0 or 1 filters to exactly 0 or 1. Lanes outside `active` stay 0. (The 16-lane AVX-512
// routine does the same in its registers.)
template <uint32_t N>
void swizzleResult(const abi::ImageViewState& view, uint32_t active, uint32_t* out) {
  alignas(64) uint32_t rgba[4 * N];
  std::memcpy(rgba, out, sizeof rgba);
  for (uint32_t c = 0; c < 4; ++c) {
    uint32_t* component = out + c * N;
    switch (VkComponentSwizzle(view.swizzle[c])) {
      case VK_COMPONENT_SWIZZLE_ZERO: std::memset(component, 0, N * sizeof(uint32_t)); break;
      case VK_COMPONENT_SWIZZLE_ONE:
        for (uint32_t k = 0; k < N; ++k) component[k] = (active >> k & 1) ? 0x3F800000u : 0u;
        break;
      case VK_COMPONENT_SWIZZLE_R:
      case VK_COMPONENT_SWIZZLE_G:
      case VK_COMPONENT_SWIZZLE_B:
      case VK_COMPONENT_SWIZZLE_A:
        std::memcpy(component, rgba + (view.swizzle[c] - VK_COMPONENT_SWIZZLE_R) * N, N * sizeof(uint32_t));
        break;
      default: break;  // IDENTITY (resolved when the view state was made: shader_abi.h)
    }
  }
}

// The first steps of every routine here: the view's level count, the active lanes, where each
// byte of a texel goes in the result (`row`: BGRA's bytes 0 and 2 trade places), an all-ones
// or all-zeros mask per lane (`keep`: lanes out of `active` give 0) and the lanes' operands.
template <uint32_t N>
struct RoutineStart {
  uint32_t levelCount, active;
  uint32_t row[4];
  alignas(64) uint32_t keep[N];
  Lanes<N> in;
  __attribute__((always_inline)) RoutineStart(const abi::ImageViewState& view, const SampleLanes& lanes)
      : levelCount(std::min(view.levelCount, abi::kMaxImageLevels)), active(lanes.active & ((1u << N) - 1)) {
    const bool bgra = view.fastSampling == kBgra8Unorm;
    row[0] = bgra ? 2u : 0u, row[1] = 1u, row[2] = bgra ? 0u : 2u, row[3] = 3u;
    for (uint32_t k = 0; k < N; ++k) keep[k] = 0u - (active >> k & 1);
    prepareLanes<N>(view, lanes, active, in);
  }
};

// The last steps of every routine here, on its filtered components (out[c * N + k] for the
// source's kComponents): "Conversion to RGBA" (components the format lacks 0, alpha 1), the
// view's swizzle, and the reference for the `fallback` lanes; lanes outside `active` (`keep` 0)
// stay 0.
template <uint32_t N, uint32_t kComponents>
__attribute__((always_inline)) inline void finishResult(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                                        const SampleLanes& lanes, uint32_t active, const uint32_t* keep,
                                                        uint32_t fallback, uint32_t* out) {
  for (uint32_t c = kComponents; c < 4; ++c)
    for (uint32_t k = 0; k < N; ++k) out[c * N + k] = (c == 3 ? 0x3F800000u : 0u) & keep[k];
  if (!identitySwizzle(view)) swizzleResult<N>(view, active, out);
  if (fallback) [[unlikely]]
    referenceLanes<N>(view, sampler, lanes, fallback, out);
}

// mipmapMode NEAREST, one filter, implicit LOD (the derivatives the only LOD operands): each
// lane's level, from the thread's NearestLevelRanges (batch_lanes.h) where every active lane's
// float ρ_max² lies in the range of the level the thread's previous such batch took, else from
// selectLaneLevels; a batch whose active lanes all took one level then predicts it for the next.
// The levels are selectLaneLevels' either way (the ranges' exactness argument), so the results
// are too (BatchSampler.PredictedLevelsAreTheFullSelections holds the two to the same bits).
struct PredictedLevel {
  NearestLevelRanges ranges;
  uint32_t level = ~0u;
};
template <uint32_t N>
__attribute__((always_inline)) inline void predictedNearestLevels(const abi::ImageViewState& view,
                                                                  const abi::SamplerState& sampler, const SampleLanes& lanes,
                                                                  uint32_t active, uint32_t levelCount, uint32_t* levelHi) {
  thread_local PredictedLevel p;
  const bool derivativesOnly = !lanes.lod && lanes.dPdx[0] && lanes.dPdy[0] && !lanes.bias && !lanes.minLod;
  if (derivativesOnly) {
    const NearestLevelRanges::Context context = rangeContext(sampler, levelCount);
    if (!p.ranges.haveContext || !(p.ranges.context == context))
      p.ranges.context = context, p.ranges.haveContext = true, p.ranges.known = 0, p.level = ~0u;
    const uint32_t level = p.level;
    if (level < levelCount && (p.ranges.known >> level & 1)) {
      const float w = float(view.levels[0].width), h = float(view.levels[0].height);
      const float lo = p.ranges.lo[level], hi = p.ranges.hi[level];
      const float *dx0 = lanes.dPdx[0], *dx1 = lanes.dPdx[1], *dy0 = lanes.dPdy[0], *dy1 = lanes.dPdy[1];
      uint32_t inside = 0;
      for (uint32_t k = 0; k < N; ++k) {
        const float mx0 = std::fabs(dx0[k]) * w, mx1 = std::fabs(dx1[k]) * h;
        const float my0 = std::fabs(dy0[k]) * w, my1 = std::fabs(dy1[k]) * h;
        const float sumX = mx0 * mx0 + mx1 * mx1, sumY = my0 * my0 + my1 * my1;
        const float rho2 = sumX < sumY ? sumY : sumX;
        inside |= uint32_t(rho2 >= lo && rho2 < hi) << k;  // false for NaN
      }
      if ((inside & active) == active) {
        for (uint32_t k = 0; k < N; ++k) levelHi[k] = level;
        return;
      }
    }
  }
  uint32_t levelLo[N], linearLanes;
  alignas(64) double delta[N];
  selectLaneLevels<N, true>(view, sampler, lanes, active, levelCount, false, levelHi, levelLo, delta, linearLanes);
  if (!derivativesOnly || active == 0) return;
  const uint32_t first = levelHi[std::countr_zero(active)];
  for (uint32_t k = 0; k < N; ++k)
    if ((active >> k & 1) && levelHi[k] != first) return;
  if (first >= levelCount) return;
  if (!(p.ranges.known >> first & 1)) {
    nearestLevelRange(sampler, levelCount, first, p.ranges.lo[first], p.ranges.hi[first]);
    p.ranges.known |= 1u << first;
  }
  p.level = first;
}

template <uint32_t N, uint32_t kSource, uint32_t kMag, uint32_t kMin, bool kMipLinear, bool kUniform16 = true>
__attribute__((always_inline)) inline void sampleUnorm8(const abi::ImageViewState& view,
                                                        const abi::SamplerState& sampler, const SampleLanes& lanes,
                                                        uint32_t* out) {
  // The common case of a textured draw in AVX-512 registers (batch_sampler_unorm8_uniform.cpp):
  // the same results, when the batch is one it takes.
  if constexpr (kUniform16 && N == 16 && kSource == 4 && kMag == kMin) {
    static const bool uniform16 = hostRunsUniform16();
    uint32_t fallback = 0;
    if (uniform16 && sampleRgba8Uniform16<kMag == VK_FILTER_LINEAR, kMipLinear>(view, sampler, lanes, out, &fallback)) {
      if (fallback) [[unlikely]]
        referenceLanes<N>(view, sampler, lanes, fallback, out);
      return;
    }
  }
  constexpr uint32_t kComponents = componentsOf(kSource);
  const RoutineStart<N> start(view, lanes);
  const uint32_t levelCount = start.levelCount, active = start.active;
  const uint32_t* row = start.row;
  const uint32_t* keep = start.keep;
  const Lanes<N>& in = start.in;
  uint32_t levelHi[N], levelLo[N], linearLanes;
  alignas(64) double delta[N];
  if constexpr (!kMipLinear && kMag == kMin) {
    // One filter: every active lane's is kMag, whatever its λ (selectLaneLevels' linearLanes).
    predictedNearestLevels<N>(view, sampler, lanes, active, levelCount, levelHi);
    linearLanes = kMag == VK_FILTER_LINEAR ? active : 0;
  } else {
    selectLaneLevels<N, true>(view, sampler, lanes, active, levelCount, kMipLinear, levelHi, levelLo, delta,
                              linearLanes);
  }

  uint32_t fallback = 0;
  alignas(64) uint32_t hi[kComponents][N];
  filterLevelFixed<N, kSource, kMag, kMin>(view, sampler, in, levelHi, linearLanes, hi, fallback);
  if constexpr (kMipLinear) {
    alignas(64) uint32_t lo[kComponents][N];
    filterLevelFixed<N, kSource, kMag, kMin>(view, sampler, in, levelLo, linearLanes, lo, fallback);
    // δ snapped to 2^-8 (0 <= δ < 1, so 0 <= δ8 <= 256); S_hi (256 - δ8) + S_lo δ8 < 2^32.
    alignas(64) uint32_t d8[N];
    for (uint32_t k = 0; k < N; ++k) d8[k] = uint32_t(int32_t(std::floor(delta[k] * 256.0 + 0.5)));
    constexpr double kScale = 255.0 * 16777216.0;
    for (uint32_t c = 0; c < kComponents; ++c)
      for (uint32_t k = 0; k < N; ++k) {
        const uint32_t total = hi[c][k] * (256 - d8[k]) + lo[c][k] * d8[k];
        out[row[c] * N + k] = std::bit_cast<uint32_t>(float(double(total) / kScale)) & keep[k];
      }
  } else {
    for (uint32_t c = 0; c < kComponents; ++c)
      for (uint32_t k = 0; k < N; ++k) {
        const float f = float(int32_t(hi[c][k])) / 16711680.0f;  // 255 × 2^16
        out[row[c] * N + k] = std::bit_cast<uint32_t>(f) & keep[k];
      }
  }
  finishResult<N, kComponents>(view, sampler, lanes, active, keep, fallback & active, out);
}

// Anisotropic samplers (SamplerState::fastSampling 9-16, equal filters) on the RGBA/BGRA and BC1
// sources: "Texel Anisotropic Filtering" with the exact routines' footprint (the reference's
// scaleFactors and anisotropicFootprint per lane: η, N = ceil(η) samples along the major axis,
// λ_base = log2(ρ_max / η)), the levels from λ_base as the isotropic routines select them, and
// sample i of N filtered by filterLevelFixed with those levels at (s, t) + (i / (N + 1) - 1/2)
// times the major axis's derivatives, as the reference places it. The samples' exact integer
// sums (each over 255 × 2^24) are added and divided by N once, where the spec averages the N
// filtered values: the same number but for the last rounding. An explicit LOD has no footprint
// and samples isotropically, as in the reference.
template <uint32_t N, uint32_t kSource, uint32_t kFilter, bool kMipLinear>
__attribute__((always_inline)) inline void sampleUnorm8Anisotropic(const abi::ImageViewState& view,
                                                                   const abi::SamplerState& sampler,
                                                                   const SampleLanes& lanes, uint32_t* out) {
  if (lanes.lod) return sampleUnorm8<N, kSource, kFilter, kFilter, kMipLinear, false>(view, sampler, lanes, out);
  constexpr uint32_t kComponents = componentsOf(kSource);
  const RoutineStart<N> start(view, lanes);
  const uint32_t levelCount = start.levelCount, active = start.active;
  const uint32_t* row = start.row;
  const uint32_t* keep = start.keep;
  const Lanes<N>& in = start.in;

  LaneFootprints<N> fp;
  laneFootprints<N>(view, sampler, lanes, active, fp);
  // A batch of isotropic footprints (η = 1, N = 1: one sample at (s, t) at λ_base = log2(ρ_max))
  // is what the isotropic routine samples, which has λ_base from vectorLog2 (within 2^-40) and
  // the AVX-512 common case; the kernel's inline sampling takes such batches too
  // (inline_sample_state.cpp), with the isotropic routine's bits. In a mixed batch the isotropic
  // lanes take that routine's λ_base too, so that no lane's result depends on its batch-mates
  // (which the SIMD width and the thread count decide).
  if (fp.most == 1) return sampleUnorm8<N, kSource, kFilter, kFilter, kMipLinear>(view, sampler, lanes, out);
  isotropicLanesLambdaBase<N>(view, lanes, active, fp);
  const uint32_t* samples = fp.samples;
  const double *axisS = fp.axisS, *axisT = fp.axisT;
  uint32_t levelHi[N], levelLo[N], linearLanes;
  alignas(64) double delta[N];
  levelsFromLambdaBase<N>(sampler, lanes, fp.lambdaBase, active, levelCount, kMipLinear, levelHi, levelLo, delta,
                          linearLanes);
  alignas(64) uint32_t d8[N];
  for (uint32_t k = 0; k < N; ++k) d8[k] = kMipLinear ? uint32_t(int32_t(std::floor(delta[k] * 256.0 + 0.5))) : 0;

  // Σ over the samples of S_hi (256 - δ8) + S_lo δ8 (one level: S × 256), each below 255 × 2^24.
  alignas(64) uint64_t total[kComponents][N] = {};
  uint32_t fallback = 0;
  for (uint32_t i = 1; i <= fp.most; ++i) {
    Lanes<N> at = in;
    uint32_t taking = 0;
    for (uint32_t k = 0; k < N; ++k) {
      if (!(active >> k & 1) || samples[k] < i) continue;
      taking |= 1u << k;
      if (samples[k] == 1) continue;  // the isotropic sample at (s, t) itself
      const double offset = double(i) / double(samples[k] + 1) - 0.5;
      at.s[k] = in.s[k] + offset * axisS[k];
      at.t[k] = in.t[k] + offset * axisT[k];
    }
    uint32_t outside = 0;
    alignas(64) uint32_t hi[kComponents][N];
    filterLevelFixed<N, kSource, kFilter, kFilter>(view, sampler, at, levelHi, linearLanes, hi, outside);
    if constexpr (kMipLinear) {
      alignas(64) uint32_t lo[kComponents][N];
      filterLevelFixed<N, kSource, kFilter, kFilter>(view, sampler, at, levelLo, linearLanes, lo, outside);
      for (uint32_t c = 0; c < kComponents; ++c)
        for (uint32_t k = 0; k < N; ++k)
          total[c][k] += (taking >> k & 1) ? uint64_t(hi[c][k] * (256 - d8[k]) + lo[c][k] * d8[k]) : 0;
    } else {
      for (uint32_t c = 0; c < kComponents; ++c)
        for (uint32_t k = 0; k < N; ++k) total[c][k] += (taking >> k & 1) ? uint64_t(hi[c][k]) << 8 : 0;
    }
    fallback |= outside & taking;
  }
  constexpr double kScale = 255.0 * 16777216.0;
  for (uint32_t c = 0; c < kComponents; ++c)
    for (uint32_t k = 0; k < N; ++k)
      out[row[c] * N + k] =
          std::bit_cast<uint32_t>(float(double(total[c][k]) / (kScale * double(samples[k])))) & keep[k];
  finishResult<N, kComponents>(view, sampler, lanes, active, keep, fallback, out);
}

#define TESSERA_UNORM8_ROUTINE(N, B, MAG, MIN, MIP)                                                                 \
  TESSERA_ROUTINE_CLONES void                                                                                        \
      unorm8_##N##_##B##_##MAG##_##MIN##_##MIP(const abi::ImageViewState& view, const abi::SamplerState& sampler,   \
                                               const SampleLanes& lanes, uint32_t* out) {                           \
    sampleUnorm8<N, B, MAG, MIN, MIP>(view, sampler, lanes, out);                                                  \
  }
#define TESSERA_UNORM8_ROUTINES_N(N, B)    \
  TESSERA_UNORM8_ROUTINE(N, B, 0, 0, false) \
  TESSERA_UNORM8_ROUTINE(N, B, 1, 0, false) \
  TESSERA_UNORM8_ROUTINE(N, B, 0, 1, false) \
  TESSERA_UNORM8_ROUTINE(N, B, 1, 1, false) \
  TESSERA_UNORM8_ROUTINE(N, B, 0, 0, true)  \
  TESSERA_UNORM8_ROUTINE(N, B, 1, 0, true)  \
  TESSERA_UNORM8_ROUTINE(N, B, 0, 1, true)  \
  TESSERA_UNORM8_ROUTINE(N, B, 1, 1, true)
#define TESSERA_UNORM8_ROUTINES(B) TESSERA_UNORM8_ROUTINES_N(4, B) TESSERA_UNORM8_ROUTINES_N(8, B) TESSERA_UNORM8_ROUTINES_N(16, B)
TESSERA_UNORM8_ROUTINES(1)
TESSERA_UNORM8_ROUTINES(2)
TESSERA_UNORM8_ROUTINES(4)
TESSERA_UNORM8_ROUTINES(8)  // kBc1Source

#define TESSERA_UNORM8_ANISO_ROUTINE(N, B, F, MIP)                                                                  \
  TESSERA_ROUTINE_CLONES void                                                                                        \
      unorm8aniso_##N##_##B##_##F##_##MIP(const abi::ImageViewState& view, const abi::SamplerState& sampler,        \
                                          const SampleLanes& lanes, uint32_t* out) {                                \
    sampleUnorm8Anisotropic<N, B, F, MIP>(view, sampler, lanes, out);                                              \
  }
#define TESSERA_UNORM8_ANISO_ROUTINES_N(N, B)                                              \
  TESSERA_UNORM8_ANISO_ROUTINE(N, B, 0, false) TESSERA_UNORM8_ANISO_ROUTINE(N, B, 1, false) \
  TESSERA_UNORM8_ANISO_ROUTINE(N, B, 0, true) TESSERA_UNORM8_ANISO_ROUTINE(N, B, 1, true)
#define TESSERA_UNORM8_ANISO_ROUTINES(B) \
  TESSERA_UNORM8_ANISO_ROUTINES_N(4, B) TESSERA_UNORM8_ANISO_ROUTINES_N(8, B) TESSERA_UNORM8_ANISO_ROUTINES_N(16, B)
TESSERA_UNORM8_ANISO_ROUTINES(4)
TESSERA_UNORM8_ANISO_ROUTINES(8)  // kBc1Source

// The same 16-lane RGBA8 routines without the AVX-512 common case (unorm8GeneralRoutine16): the
// oracle the tests hold that case to.
#define TESSERA_UNORM8_GENERAL16(MAG, MIN, MIP)                                                                    \
  TESSERA_ROUTINE_CLONES void                                                                                        \
      unorm8general_##MAG##_##MIN##_##MIP(const abi::ImageViewState& view, const abi::SamplerState& sampler,        \
                                          const SampleLanes& lanes, uint32_t* out) {                                \
    sampleUnorm8<16, 4, MAG, MIN, MIP, false>(view, sampler, lanes, out);                                          \
  }
TESSERA_UNORM8_GENERAL16(0, 0, false)
TESSERA_UNORM8_GENERAL16(1, 0, false)
TESSERA_UNORM8_GENERAL16(0, 1, false)
TESSERA_UNORM8_GENERAL16(1, 1, false)
TESSERA_UNORM8_GENERAL16(0, 0, true)
TESSERA_UNORM8_GENERAL16(1, 0, true)
TESSERA_UNORM8_GENERAL16(0, 1, true)
TESSERA_UNORM8_GENERAL16(1, 1, true)
const SampleRoutine kUnorm8General16[8] = {&unorm8general_0_0_false, &unorm8general_1_0_false, &unorm8general_0_1_false,
                                           &unorm8general_1_1_false, &unorm8general_0_0_true,  &unorm8general_1_0_true,
                                           &unorm8general_0_1_true,  &unorm8general_1_1_true};

#define TESSERA_UNORM8_ROW(N, B)                                                                                 \
  {&unorm8_##N##_##B##_0_0_false, &unorm8_##N##_##B##_1_0_false, &unorm8_##N##_##B##_0_1_false,                  \
   &unorm8_##N##_##B##_1_1_false, &unorm8_##N##_##B##_0_0_true,  &unorm8_##N##_##B##_1_0_true,                   \
   &unorm8_##N##_##B##_0_1_true,  &unorm8_##N##_##B##_1_1_true}
#define TESSERA_UNORM8_TABLE(B) {TESSERA_UNORM8_ROW(4, B), TESSERA_UNORM8_ROW(8, B), TESSERA_UNORM8_ROW(16, B)}
// [source: 1, 2, 4 bytes per texel, BC1][lane count: 4, 8, 16][sampler class - 1]
const SampleRoutine kUnorm8Routines[4][3][8] = {TESSERA_UNORM8_TABLE(1), TESSERA_UNORM8_TABLE(2),
                                                TESSERA_UNORM8_TABLE(4), TESSERA_UNORM8_TABLE(8)};
// [source: RGBA/BGRA, BC1][lane count][sampler class - 9], null where the two filters differ.
#define TESSERA_UNORM8_ANISO_ROW(N, B)                                                                        \
  {&unorm8aniso_##N##_##B##_0_false, nullptr, nullptr, &unorm8aniso_##N##_##B##_1_false,                     \
   &unorm8aniso_##N##_##B##_0_true,  nullptr, nullptr, &unorm8aniso_##N##_##B##_1_true}
#define TESSERA_UNORM8_ANISO_TABLE(B) \
  {TESSERA_UNORM8_ANISO_ROW(4, B), TESSERA_UNORM8_ANISO_ROW(8, B), TESSERA_UNORM8_ANISO_ROW(16, B)}
const SampleRoutine kUnorm8AnisoRoutines[2][3][8] = {TESSERA_UNORM8_ANISO_TABLE(4), TESSERA_UNORM8_ANISO_TABLE(8)};

}  // namespace

namespace sampler_detail::batch {

SampleRoutine unorm8GeneralRoutine16(uint32_t samplerClass) { return kUnorm8General16[samplerClass - 1]; }

SampleRoutine unorm8Routine(uint32_t viewCode, uint32_t widthRow, uint32_t samplerClass) {
  uint32_t source;
  switch (viewCode) {
    case kR8Unorm: source = 0; break;
    case kRg8Unorm: source = 1; break;
    case kRgba8Unorm:
    case kBgra8Unorm: source = 2; break;
    case kBc1RgbUnorm:
    case kBc1RgbaUnorm: source = 3; break;
    default: return nullptr;
  }
  if (samplerClass > 8) return source >= 2 ? kUnorm8AnisoRoutines[source - 2][widthRow][samplerClass - 9] : nullptr;
  return kUnorm8Routines[source][widthRow][samplerClass - 1];
}

}  // namespace sampler_detail::batch
}  // namespace tessera
