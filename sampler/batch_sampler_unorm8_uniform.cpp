// The fixed-point RGBA8/BGRA8 routine's common case in AVX-512 registers: 16 lanes whose LOD
// operands are the same across each 2x2 quad (implicit LOD: a quad shares its derivatives) and
// whose quads all select the same level (or pair of levels), with one filter for
// magnification and minification. That is nearly every batch of a textured draw; the others
// are left to the general routine (batch_sampler_unorm8.cpp), which computes everything per
// lane in memory.
//
// The results are the general routine's, bit for bit (batch_sampler_test.cpp compares the two
// on random batches of every kind, and both against the snapped-spec oracle):
//  - λ, the levels and δ are selectLaneLevels' operations (quadLevels: the same IEEE operations
//    in the same order, four quads to a vector), run once per quad on the quad's operands: the
//    lanes of a quad would compute the same values from the same bits;
//  - the coordinates are the same double operations in the same order (no contraction: this
//    file is compiled with -ffp-contract=off like the general routine), the wraps the same
//    integer and float operations;
//  - UNORM sums are divided by their scale with one multiplication and two fused
//    multiply-adds instead of a division: q = S r, e = S - q D exactly, q + e r, which is the
//    correctly rounded S / D for every S in [0, 255 x 2^16] (checked exhaustively when this was
//    written; the one-level sums never exceed that); two-level sums are multiplied by the
//    double reciprocal (twoLevelQuotient says why that rounds as the division does).
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>

#include <immintrin.h>
#include <x86intrin.h>  // __rdtsc

#include "batch_lanes.h"
#include "batch_sampler_unorm8_uniform.h"
#include "tessera/cpu_info.h"

namespace tessera::sampler_detail::batch {

namespace {

#define TESSERA_AVX512 __attribute__((target("avx512f,avx512dq,avx512bw,avx512vl,fma,bmi,bmi2")))

constexpr uint32_t N = 16;

// The level a batch samples, as scalars: every lane of the batch uses it.
struct UniformLevel {
  int32_t width, height;
  float invWidth, invHeight;  // 1 / size in float, as the general routine's modulo uses
  double widthD, heightD;
  const uint8_t* base;
  int32_t rowPitch, layerPitch;
};

// The level `index` when every byte offset the batch can form fits an int32 (the gathers'
// indices); false otherwise.
bool uniformLevel(const abi::ImageViewState& view, uint32_t index, UniformLevel& out) {
  const abi::ImageLevel& l = view.levels[index];
  const uint64_t layers = view.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? std::max(view.layerCount, 1u) : 1u;
  if (uint64_t(l.layerPitch) * layers >= (uint64_t(1) << 31) || l.rowPitch >= (uint64_t(1) << 31) ||
      uint64_t(l.rowPitch) * l.height >= (uint64_t(1) << 31))
    return false;
  out.width = int32_t(l.width), out.height = int32_t(l.height);
  out.invWidth = 1.0f / float(out.width), out.invHeight = 1.0f / float(out.height);
  out.widthD = l.width, out.heightD = l.height;
  out.base = l.base;
  out.rowPitch = int32_t(l.rowPitch), out.layerPitch = int32_t(l.layerPitch);
  return true;
}

// texelLoads(): -1 until measured, else a TexelLoads.
std::atomic<int> chosenTexelLoads{-1};

// Whether this batch's loads are gathers (TexelLoads, batch_sampler_unorm8_uniform.h).
inline bool gatherTexels() { return chosenTexelLoads.load(std::memory_order_relaxed) == int(TexelLoads::Gather); }

// The 4-byte texels at byte offsets `offset` from `base` for the lanes in `load` (0 elsewhere):
// sixteen scalar loads, or one masked gather (`gather`).
TESSERA_AVX512 inline __m512i loadTexels(const uint8_t* base, __m512i offset, __mmask16 load, bool gather) {
  if (gather) return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), load, offset, base, 1);
  alignas(64) int32_t at[N];
  alignas(64) uint32_t texel[N];
  _mm512_store_si512(at, _mm512_maskz_mov_epi32(load, offset));
  for (uint32_t k = 0; k < N; ++k) std::memcpy(&texel[k], base + at[k], 4);
  return _mm512_maskz_mov_epi32(load, _mm512_load_si512(texel));
}

// The texel at byte offset `offset` and the one after it, for the lanes in `load` (0
// elsewhere): one 8-byte load per lane (two 8-lane gathers of 8 bytes with `gather`). The
// caller knows both lie in the level.
TESSERA_AVX512 inline void loadTexelPairs(const uint8_t* base, __m512i offset, __mmask16 load, bool gather, __m512i& first,
                                          __m512i& second) {
  __m512i lo, hi;
  if (gather) {
    const __m512i at = _mm512_maskz_mov_epi32(load, offset);
    lo = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), __mmask8(load), _mm512_castsi512_si256(at), base, 1);
    hi = _mm512_mask_i32gather_epi64(_mm512_setzero_si512(), __mmask8(load >> 8), _mm512_extracti64x4_epi64(at, 1), base, 1);
  } else {
    alignas(64) int32_t at[N];
    alignas(64) uint64_t pair[N];
    _mm512_store_si512(at, _mm512_maskz_mov_epi32(load, offset));
    for (uint32_t k = 0; k < N; ++k) std::memcpy(&pair[k], base + at[k], 8);
    lo = _mm512_load_si512(pair), hi = _mm512_load_si512(pair + 8);
  }
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2, 0);
  first = _mm512_maskz_mov_epi32(load, _mm512_permutex2var_epi32(lo, even, hi));
  second = _mm512_maskz_mov_epi32(load, _mm512_permutex2var_epi32(lo, _mm512_add_epi32(even, _mm512_set1_epi32(1)), hi));
}

// i mod size as the general routine's modulo computes it (the float quotient, then the two
// corrections); for a power-of-two size that is the two's-complement low bits.
TESSERA_AVX512 inline __m512i modulo(__m512i x, int32_t size, float inv) {
  if ((size & (size - 1)) == 0) return _mm512_and_si512(x, _mm512_set1_epi32(size - 1));
  const __m512 q = _mm512_roundscale_ps(_mm512_mul_ps(_mm512_cvtepi32_ps(x), _mm512_set1_ps(inv)),
                                        _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512i vsize = _mm512_set1_epi32(size);
  __m512i r = _mm512_sub_epi32(x, _mm512_mullo_epi32(_mm512_cvttps_epi32(q), vsize));
  r = _mm512_mask_add_epi32(r, _mm512_cmplt_epi32_mask(r, _mm512_setzero_si512()), r, vsize);
  r = _mm512_mask_sub_epi32(r, _mm512_cmpge_epi32_mask(r, vsize), r, vsize);
  return r;
}

// "Wrapping Operation" for REPEAT, MIRRORED_REPEAT and CLAMP_TO_EDGE (the general routine's
// wrapFixed).
TESSERA_AVX512 inline __m512i wrap(__m512i x, int32_t size, float inv, uint32_t mode) {
  if (mode == VK_SAMPLER_ADDRESS_MODE_REPEAT) return modulo(x, size, inv);
  if (mode == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT) {
    const __m512i t = modulo(x, 2 * size, inv * 0.5f);
    const __m512i mirrored = _mm512_sub_epi32(_mm512_set1_epi32(2 * size - 1), t);
    return _mm512_mask_blend_epi32(_mm512_cmplt_epi32_mask(t, _mm512_set1_epi32(size)), mirrored, t);
  }
  return _mm512_min_epi32(_mm512_max_epi32(x, _mm512_setzero_si512()), _mm512_set1_epi32(size - 1));
}

// Two halves of 8 doubles (lanes 0-7, 8-15) as one vector of 16 int32 (truncating; exact for
// the integral values given).
TESSERA_AVX512 inline __m512i toInt32(__m512d lo, __m512d hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvttpd_epi32(lo)), _mm512_cvttpd_epi32(hi), 1);
}

// A lane's fixed-point coordinate on one axis (texels x 256; the general routine's
// filterLevelFixed): LINEAR floor((u - 1/2) 256 + 1/2), NEAREST floor(u) 256, u = s size + offset
// in double. `fits` gets the lanes where it lies within ±2^30.
template <bool kLinear>
TESSERA_AVX512 inline __m512i fixedCoordinate(__m512 s, __m512i offset, double size, __mmask16& fits) {
  const __m512d vsize = _mm512_set1_pd(size);
  __m512d x[2];
  for (int h = 0; h < 2; ++h) {
    const __m512d sd = _mm512_cvtps_pd(h ? _mm512_extractf32x8_ps(s, 1) : _mm512_castps512_ps256(s));
    const __m512d od = _mm512_cvtepi32_pd(h ? _mm512_extracti64x4_epi64(offset, 1) : _mm512_castsi512_si256(offset));
    const __m512d u = _mm512_add_pd(_mm512_mul_pd(sd, vsize), od);
    if constexpr (kLinear) {
      x[h] = _mm512_roundscale_pd(_mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(u, _mm512_set1_pd(0.5)), _mm512_set1_pd(256.0)),
                                                _mm512_set1_pd(0.5)),
                                  _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    } else {
      x[h] = _mm512_mul_pd(_mm512_roundscale_pd(u, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC), _mm512_set1_pd(256.0));
    }
  }
  // |x| < 2^30 (false for NaN).
  const __m512d limit = _mm512_set1_pd(1073741824.0);
  fits = __mmask16(_mm512_cmp_pd_mask(_mm512_abs_pd(x[0]), limit, _CMP_LT_OQ) |
                   (uint32_t(_mm512_cmp_pd_mask(_mm512_abs_pd(x[1]), limit, _CMP_LT_OQ)) << 8));
  return toInt32(x[0], x[1]);
}

// The lanes whose floored coordinate `f` (|f| < 2^30) and offset (|offset| < 2^20: the
// offsets' valid range is far smaller) keep the integer sums below in int32 without wrapping;
// the others are marked as not fitting, so the general routine samples them (as it does every
// lane the fast path leaves).
TESSERA_AVX512 inline __mmask16 smallOperands(__m512 f, __m512i offset) {
  return _mm512_cmp_ps_mask(_mm512_abs_ps(f), _mm512_set1_ps(1073741824.0f), _CMP_LT_OQ) &
         _mm512_cmp_epi32_mask(_mm512_abs_epi32(offset), _mm512_set1_epi32(1 << 20), _MM_CMPINT_LT);
}

// fixedCoordinate<false> for a power-of-two `size`, in float at full width: s x size is then
// exact in float (a power-of-two scaling; an overflow gives Inf, which does not fit), so
// floor(s size) + offset is the double path's floor(u) exactly, and fits the same test
// (|floor(u)| < 2^22, i.e. |x| < 2^30 for x = floor(u) 256; NaN fits nowhere).
TESSERA_AVX512 inline __m512i nearestCoordinatePow2(__m512 s, __m512i offset, int32_t size, __mmask16& fits) {
  const __m512 f = _mm512_roundscale_ps(_mm512_mul_ps(s, _mm512_set1_ps(float(size))), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __mmask16 small = smallOperands(f, offset);
  const __m512i i = _mm512_add_epi32(_mm512_maskz_cvttps_epi32(small, f), offset);
  fits = small & _mm512_cmp_epi32_mask(_mm512_abs_epi32(i), _mm512_set1_epi32(1 << 22), _MM_CMPINT_LT);
  return _mm512_slli_epi32(i, 8);
}

// fixedCoordinate<true> for a power-of-two `size`, in float at full width. X = s size 256 is
// exact in float (a power-of-two scaling), and the double path's floor((u - 1/2) 256 + 1/2)
// with u = s size + offset is floor(X - 127.5) + 256 offset = floor(X + 1/2) - 128 + 256 offset,
// where floor(X + 1/2) = floor(X) + (X - floor(X) >= 1/2), every step exact in float. Fits the
// same test (|x| < 2^30; NaN and Inf nowhere).
TESSERA_AVX512 inline __m512i linearCoordinatePow2(__m512 s, __m512i offset, int32_t size, __mmask16& fits) {
  const __m512 x = _mm512_mul_ps(s, _mm512_set1_ps(float(size) * 256.0f));
  const __m512 f = _mm512_roundscale_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __mmask16 up = _mm512_cmp_ps_mask(_mm512_sub_ps(x, f), _mm512_set1_ps(0.5f), _CMP_GE_OQ);
  const __mmask16 small = smallOperands(f, offset);
  __m512i i = _mm512_maskz_cvttps_epi32(small, f);
  i = _mm512_mask_add_epi32(i, up, i, _mm512_set1_epi32(1));
  i = _mm512_add_epi32(_mm512_sub_epi32(i, _mm512_set1_epi32(128)), _mm512_slli_epi32(offset, 8));
  fits = small & _mm512_cmp_epi32_mask(_mm512_abs_epi32(i), _mm512_set1_epi32(1 << 30), _MM_CMPINT_LT);
  return i;
}

// S / (255 x 2^16), correctly rounded, for integer sums S in [0, 255 x 2^16] (header comment).
TESSERA_AVX512 inline __m512 unormQuotient(__m512i sum) {
  const __m512 s = _mm512_cvtepi32_ps(sum);
  const __m512 d = _mm512_set1_ps(16711680.0f), r = _mm512_set1_ps(1.0f / 16711680.0f);
  const __m512 q = _mm512_mul_ps(s, r);
  const __m512 e = _mm512_fnmadd_ps(q, d, s);
  return _mm512_fmadd_ps(e, r, q);
}

// float(double(T) / (255 x 2^24)) for eight uint32 sums T, as the general routine rounds it, from
// a multiplication by the double reciprocal: the same float for every T < 2^32 (checked
// exhaustively when this was written). A quotient that is not exactly a float midpoint lies at
// least 2^-32 (relative) from one, far beyond the product's error; where it is one, T is a
// multiple of 255 and the product rounds to it exactly (also checked).
TESSERA_AVX512 inline __m256 twoLevelQuotient(__m256i total) {
  return _mm512_cvtpd_ps(_mm512_mul_pd(_mm512_cvtepu32_pd(total), _mm512_set1_pd(1.0 / (255.0 * 16777216.0))));
}

// Byte c of every lane's texel.
TESSERA_AVX512 inline __m512i texelByte(__m512i texel, int c) {
  return _mm512_and_si512(_mm512_srli_epi32(texel, unsigned(8 * c)), _mm512_set1_epi32(0xFF));
}

// One bilinear row per channel: c_left (256 - α) + c_right α for the texel bytes c of `left` and
// `right`, with `weights` holding (256 - α) in each lane's low word and α in its high word.
// Bytes are paired as words (left's in the low word, right's in the high one: R and B from the
// even bytes, G and A from the odd ones) and multiplied and added in one vpmaddwd per channel.
TESSERA_AVX512 inline void rowSums(__m512i left, __m512i right, __m512i weights, __m512i out[4]) {
  const __m512i evenBytes = _mm512_set1_epi32(0x00FF00FF);
  const __m512i leftRB = _mm512_and_si512(left, evenBytes), rightRB = _mm512_and_si512(right, evenBytes);
  const __m512i leftGA = _mm512_and_si512(_mm512_srli_epi32(left, 8), evenBytes);
  const __m512i rightGA = _mm512_and_si512(_mm512_srli_epi32(right, 8), evenBytes);
  constexpr __mmask32 kHighWords = 0xAAAAAAAAu;
  // Low word from the first operand, high word from the second.
  const __m512i r = _mm512_mask_blend_epi16(kHighWords, leftRB, _mm512_slli_epi32(rightRB, 16));
  const __m512i g = _mm512_mask_blend_epi16(kHighWords, leftGA, _mm512_slli_epi32(rightGA, 16));
  const __m512i b = _mm512_mask_blend_epi16(kHighWords, _mm512_srli_epi32(leftRB, 16), rightRB);
  const __m512i alpha = _mm512_mask_blend_epi16(kHighWords, _mm512_srli_epi32(leftGA, 16), rightGA);
  out[0] = _mm512_madd_epi16(r, weights);
  out[1] = _mm512_madd_epi16(g, weights);
  out[2] = _mm512_madd_epi16(b, weights);
  out[3] = _mm512_madd_epi16(alpha, weights);
}

// Prefetch of the texels a later block will read: the block walker goes on 4 pixels to the
// right (within a 16x16 square), so the lanes' texel rows moved by the texture coordinates'
// change over 8 pixels, two blocks ahead (stepI, stepJ texels; one block ahead measured 4-5%
// slower on tex_nearest and tex_bilinear, four blocks no faster than two). `rows`: 1 for NEAREST, 2 for LINEAR (the row
// below too). The texture's rows are far apart (a row each 4 KiB for a 1024-wide level), so
// without this the first load of each new row waited for memory.
TESSERA_AVX512 inline void prefetchAhead(const UniformLevel& lv, const abi::SamplerState& sampler, __m512i i0, __m512i j0,
                                         __m512i layerOffset, __mmask16 load, int32_t stepI, int32_t stepJ, int rows) {
  const __m512i pi = wrap(_mm512_add_epi32(i0, _mm512_set1_epi32(stepI)), lv.width, lv.invWidth, sampler.addressMode[0]);
  __m512i pj = _mm512_add_epi32(j0, _mm512_set1_epi32(stepJ));
  const __m512i pitch = _mm512_set1_epi32(lv.rowPitch);
  for (int r = 0; r < rows; ++r) {
    const __m512i row = wrap(_mm512_add_epi32(pj, _mm512_set1_epi32(r)), lv.height, lv.invHeight, sampler.addressMode[1]);
    alignas(64) int32_t ahead[N];
    _mm512_store_si512(ahead, _mm512_maskz_mov_epi32(load, _mm512_add_epi32(_mm512_add_epi32(layerOffset, _mm512_mullo_epi32(row, pitch)),
                                                                             _mm512_slli_epi32(pi, 2))));
    for (uint32_t k = 0; k < N; ++k) _mm_prefetch(reinterpret_cast<const char*>(lv.base + ahead[k]), _MM_HINT_T0);
  }
}

// One level's filtered sums, per texel byte (the general routine's filterLevelFixed with every
// lane on `level`): the texel's byte << 16 for NEAREST, the bilinear sum for LINEAR, both
// 255 x 2^16 times the value. False when a lane's byte offset would not fit the gather.
template <bool kLinear>
TESSERA_AVX512 void filterUniformLevel(const UniformLevel& lv, const abi::SamplerState& sampler, __m512 s, __m512 t,
                                       __m512i offI, __m512i offJ, __m512i layerOffset, __mmask16 active,
                                       __m512i sum[4], __mmask16& fallback, int32_t stepI = 0, int32_t stepJ = 0) {
  __mmask16 fitsX, fitsY;
  const bool pow2 = (lv.width & (lv.width - 1)) == 0 && (lv.height & (lv.height - 1)) == 0;
  __m512i fx, fy;
  if (!pow2) {
    fx = fixedCoordinate<kLinear>(s, offI, lv.widthD, fitsX);
    fy = fixedCoordinate<kLinear>(t, offJ, lv.heightD, fitsY);
  } else if constexpr (kLinear) {
    fx = linearCoordinatePow2(s, offI, lv.width, fitsX);
    fy = linearCoordinatePow2(t, offJ, lv.height, fitsY);
  } else {
    fx = nearestCoordinatePow2(s, offI, lv.width, fitsX);
    fy = nearestCoordinatePow2(t, offJ, lv.height, fitsY);
  }
  const __mmask16 fits = fitsX & fitsY;
  fallback |= active & ~fits;
  const __mmask16 load = active & fits;
  const __m512i pitch = _mm512_set1_epi32(lv.rowPitch);
  const __m512i i0 = _mm512_srai_epi32(fx, 8), j0 = _mm512_srai_epi32(fy, 8);
  if constexpr (!kLinear) {
    const __m512i i = wrap(i0, lv.width, lv.invWidth, sampler.addressMode[0]);
    const __m512i j = wrap(j0, lv.height, lv.invHeight, sampler.addressMode[1]);
    const __m512i offset = _mm512_add_epi32(_mm512_add_epi32(layerOffset, _mm512_mullo_epi32(j, pitch)), _mm512_slli_epi32(i, 2));
    const __m512i texel = loadTexels(lv.base, offset, load, gatherTexels());
    for (int c = 0; c < 4; ++c) sum[c] = _mm512_slli_epi32(texelByte(texel, c), 16);
    if (stepI | stepJ) prefetchAhead(lv, sampler, i0, j0, layerOffset, load, stepI, stepJ, 1);
    return;
  }
  const __m512i one = _mm512_set1_epi32(1), byte = _mm512_set1_epi32(0xFF), full = _mm512_set1_epi32(256);
  const __m512i a = _mm512_and_si512(fx, byte), b = _mm512_and_si512(fy, byte);
  const __m512i ia = _mm512_sub_epi32(full, a), ib = _mm512_sub_epi32(full, b);
  const __m512i x0 = _mm512_slli_epi32(wrap(i0, lv.width, lv.invWidth, sampler.addressMode[0]), 2);
  const __m512i x1 = _mm512_slli_epi32(wrap(_mm512_add_epi32(i0, one), lv.width, lv.invWidth, sampler.addressMode[0]), 2);
  const __m512i y0 = _mm512_add_epi32(layerOffset, _mm512_mullo_epi32(wrap(j0, lv.height, lv.invHeight, sampler.addressMode[1]), pitch));
  const __m512i y1 = _mm512_add_epi32(
      layerOffset, _mm512_mullo_epi32(wrap(_mm512_add_epi32(j0, one), lv.height, lv.invHeight, sampler.addressMode[1]), pitch));
  __m512i t00, t10, t01, t11;
  // Where every loaded lane's right texel is the next one in memory (no wrap between them) and
  // a row holds two texels (the inactive lanes' offset 0 reads 8 bytes), each row's pair is one
  // 8-byte load: half the loads.
  const __mmask16 adjacent = _mm512_cmpeq_epi32_mask(x1, _mm512_add_epi32(x0, _mm512_set1_epi32(4)));
  const bool gather = gatherTexels();
  if (lv.width >= 2 && (load & ~adjacent) == 0) {
    loadTexelPairs(lv.base, _mm512_add_epi32(y0, x0), load, gather, t00, t10);
    loadTexelPairs(lv.base, _mm512_add_epi32(y1, x0), load, gather, t01, t11);
  } else {
    t00 = loadTexels(lv.base, _mm512_add_epi32(y0, x0), load, gather);
    t10 = loadTexels(lv.base, _mm512_add_epi32(y0, x1), load, gather);
    t01 = loadTexels(lv.base, _mm512_add_epi32(y1, x0), load, gather);
    t11 = loadTexels(lv.base, _mm512_add_epi32(y1, x1), load, gather);
  }
  if (stepI | stepJ) prefetchAhead(lv, sampler, i0, j0, layerOffset, load, stepI, stepJ, 2);
  // (c00 (256 - α) + c10 α)(256 - β) + (c01 (256 - α) + c11 α) β, exact: each row's sum is one
  // vpmaddwd of the two texels' bytes, as 16-bit pairs, with the pair (256 - α, α) (every term
  // fits a signed 16-bit word; the row sums, at most 255 x 256, an int32), and the vertical step
  // is float arithmetic that is exact here (row (256 - β) and the final sum are integers below
  // 2^24, so the multiplication and the fused multiply-add round nothing). Four vector multiplies
  // per channel and the byte extractions before cost twice the instructions.
  const __m512i horizontal = _mm512_or_si512(ia, _mm512_slli_epi32(a, 16));
  const __m512 verticalIb = _mm512_cvtepi32_ps(ib), verticalB = _mm512_cvtepi32_ps(b);
  __m512i row0[4], row1[4];
  rowSums(t00, t10, horizontal, row0);
  rowSums(t01, t11, horizontal, row1);
  for (int c = 0; c < 4; ++c) {
    const __m512 upper = _mm512_mul_ps(_mm512_cvtepi32_ps(row0[c]), verticalIb);
    sum[c] = _mm512_cvttps_epi32(_mm512_fmadd_ps(_mm512_cvtepi32_ps(row1[c]), verticalB, upper));
  }
}

// The level(s) every active lane of a batch samples, and δ snapped to 2^-8 per lane.
struct BatchLevels {
  uint32_t hi = 0, lo = 0;
  __m512i d8;
};

// The LOD operand arrays in selectLaneLevels' order (null: absent; lod excludes the gradients).
inline void lodOperands(const SampleLanes& lanes, const float* (&operands)[7]) {
  const bool grad = !lanes.lod && lanes.dPdx[0];
  operands[0] = lanes.lod;
  operands[1] = grad ? lanes.dPdx[0] : nullptr;
  operands[2] = grad ? lanes.dPdx[1] : nullptr;
  operands[3] = grad ? lanes.dPdy[0] : nullptr;
  operands[4] = grad ? lanes.dPdy[1] : nullptr;
  operands[5] = lanes.bias;
  operands[6] = lanes.minLod;
}

// Four doubles from `from` where `mask` is set, `to` elsewhere: the conditional expressions of
// selectLaneLevels (a ? b : c), one comparison's mask at a time.
TESSERA_AVX512 inline __m256d select(__mmask8 mask, __m256d from, __m256d to) { return _mm256_mask_mov_pd(to, mask, from); }
TESSERA_AVX512 inline __mmask8 less(__m256d a, __m256d b) { return _mm256_cmp_pd_mask(a, b, _CMP_LT_OQ); }

// a + b y (Estrin's pairs).
TESSERA_AVX512 inline __m256d pairTerm(double a, double b, __m256d y) {
  return _mm256_add_pd(_mm256_set1_pd(a), _mm256_mul_pd(_mm256_set1_pd(b), y));
}

// batch_lanes.h's vectorLog2 on four doubles, operation for operation (the same IEEE
// operations on the same values give the same bits; integer steps as the scalar's bit casts).
TESSERA_AVX512 inline __m256d vectorLog2x4(__m256d x) {
  const __m256i bits = _mm256_castpd_si256(x);
  const __m256d biased = _mm256_sub_pd(
      _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(bits, 52), _mm256_set1_epi64x(0x4330000000000000ll))),
      _mm256_set1_pd(0x1p52));
  __m256d m = _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(bits, _mm256_set1_epi64x(0x000FFFFFFFFFFFFFll)),
                                                  _mm256_set1_epi64x(0x3FF0000000000000ll)));
  const __mmask8 high = _mm256_cmp_pd_mask(m, _mm256_set1_pd(1.4142135623730951), _CMP_GT_OQ);
  m = select(high, _mm256_mul_pd(m, _mm256_set1_pd(0.5)), m);
  const __m256d e = _mm256_add_pd(_mm256_sub_pd(biased, _mm256_set1_pd(1023.0)), _mm256_maskz_mov_pd(high, _mm256_set1_pd(1.0)));
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d z = _mm256_div_pd(_mm256_sub_pd(m, one), _mm256_add_pd(m, one)), z2 = _mm256_mul_pd(z, z);
  constexpr double kTwoOverLn2 = 2.8853900817779268;
  const __m256d z4 = _mm256_mul_pd(z2, z2), z8 = _mm256_mul_pd(z4, z4);
  const __m256d p01 = pairTerm(1.0, 1.0 / 3, z2), p23 = pairTerm(1.0 / 5, 1.0 / 7, z2);
  const __m256d p45 = pairTerm(1.0 / 9, 1.0 / 11, z2), p67 = pairTerm(1.0 / 13, 1.0 / 15, z2);
  const __m256d p = _mm256_add_pd(_mm256_add_pd(p01, _mm256_mul_pd(p23, z4)), _mm256_mul_pd(_mm256_add_pd(p45, _mm256_mul_pd(p67, z4)), z8));
  const __m256d log = _mm256_add_pd(e, _mm256_mul_pd(_mm256_set1_pd(kTwoOverLn2), _mm256_mul_pd(z, p)));
  const __mmask8 passThrough =
      _mm256_cmp_pd_mask(x, x, _CMP_UNORD_Q) | _mm256_cmp_pd_mask(x, _mm256_set1_pd(1.7976931348623157e308), _CMP_GT_OQ);
  const __m256d r = select(passThrough, x, log);
  return select(_mm256_cmp_pd_mask(x, _mm256_setzero_pd(), _CMP_EQ_OQ), _mm256_set1_pd(-HUGE_VAL), r);
}

// |x| (the sign bit cleared, as std::fabs).
TESSERA_AVX512 inline __m256d absolute(__m256d x) {
  return _mm256_castsi256_pd(_mm256_and_si256(_mm256_castpd_si256(x), _mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll)));
}

// Operand `p` of each quad's representative lane (`repIndex`: the four lane numbers), as doubles.
TESSERA_AVX512 inline __m256d quadOperand(const float* p, __m512i repIndex) {
  return _mm256_cvtps_pd(_mm512_castps512_ps128(_mm512_permutexvar_ps(repIndex, _mm512_loadu_ps(p))));
}

// |derivative| x level-0 size per quad (0 without the operand).
TESSERA_AVX512 inline __m256d magnitude(const float* derivative, __m512i repIndex, __m256d size) {
  return derivative ? _mm256_mul_pd(absolute(quadOperand(derivative, repIndex)), size) : _mm256_setzero_pd();
}

// ρ_max² per quad: m_ux = |∂s/∂x| w_base, m_vx = |∂t/∂x| h_base, m_wx = 0, the sums of squares
// (+ m_wx², +0.0, as the scalar sum has it) and the larger of the two (no gradients: 0).
TESSERA_AVX512 inline __m256d squaredRho(const abi::ImageViewState& view, const float* const (&operands)[7], __m512i repIndex) {
  const __m256d w = _mm256_set1_pd(double(view.levels[0].width)), h = _mm256_set1_pd(double(view.levels[0].height));
  const __m256d zero = _mm256_setzero_pd();
  const __m256d mx0 = magnitude(operands[1], repIndex, w), mx1 = magnitude(operands[2], repIndex, h);
  const __m256d my0 = magnitude(operands[3], repIndex, w), my1 = magnitude(operands[4], repIndex, h);
  const __m256d sumX = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(mx0, mx0), _mm256_mul_pd(mx1, mx1)), zero);
  const __m256d sumY = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(my0, my0), _mm256_mul_pd(my1, my1)), zero);
  return select(less(sumX, sumY), sumY, sumX);
}

// The rest of selectLaneLevels<4, true> from λ_base per quad: the same operations in the same
// order. λ' = λ_base + clamp(bias_sampler + bias_shader, ±16); λ = λ' clamped to
// [max(minLod, MinLod), maxLod] (NaN: lod_min); d' = clamp(λ, 0, q); the level(s) and δ.
template <bool kMipLinear>
TESSERA_AVX512 void levelsFromBase(const abi::SamplerState& sampler, const float* const (&operands)[7], __m512i repIndex,
                                   uint32_t levelCount, __m256d lambdaBase, uint32_t* levelHi, uint32_t* levelLo, double* delta) {
  const __m256d shaderBias = operands[5] ? quadOperand(operands[5], repIndex) : _mm256_setzero_pd();
  const __m256d sum = _mm256_add_pd(_mm256_set1_pd(double(sampler.mipLodBias)), shaderBias);
  const __m256d lo16 = _mm256_set1_pd(-16.0), hi16 = _mm256_set1_pd(16.0);
  const __m256d bias = select(less(sum, lo16), lo16, select(less(hi16, sum), hi16, sum));
  const __m256d lambdaPrime = _mm256_add_pd(lambdaBase, bias);
  const __m256d shaderMin = operands[6] ? quadOperand(operands[6], repIndex) : _mm256_setzero_pd();
  const __m256d samplerMin = _mm256_set1_pd(double(sampler.minLod)), lodMax = _mm256_set1_pd(double(sampler.maxLod));
  const __m256d lodMin = select(less(samplerMin, shaderMin), shaderMin, samplerMin);
  // The first true condition of the scalar's if / else if chain wins: applied last.
  __m256d lambda = select(_mm256_cmp_pd_mask(lambdaPrime, lambdaPrime, _CMP_UNORD_Q), lodMin, lambdaPrime);
  lambda = select(less(lambdaPrime, lodMin), lodMin, lambda);
  lambda = select(_mm256_cmp_pd_mask(lambdaPrime, lodMax, _CMP_GT_OQ), lodMax, lambda);
  const __m256d q = _mm256_set1_pd(double(levelCount - 1));
  const __m256d dPrime = select(less(lambda, _mm256_setzero_pd()), _mm256_setzero_pd(), select(less(q, lambda), q, lambda));
  __m128i hi;
  if constexpr (kMipLinear) {
    // d_hi = floor(d'), d_lo = min(d_hi + 1, q), δ = d' - d_hi (unsigned, as the scalar's).
    hi = _mm256_cvttpd_epi32(_mm256_roundscale_pd(dPrime, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
    const __m128i lo = _mm_min_epu32(_mm_add_epi32(hi, _mm_set1_epi32(1)), _mm_set1_epi32(int32_t(levelCount - 1)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(levelLo), lo);
    _mm256_storeu_pd(delta, _mm256_sub_pd(dPrime, _mm256_cvtepu32_pd(hi)));
  } else {
    // d = ceil(d' + 0.5) - 1
    hi = _mm256_cvttpd_epi32(_mm256_sub_pd(
        _mm256_roundscale_pd(_mm256_add_pd(dPrime, _mm256_set1_pd(0.5)), _MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC), _mm256_set1_pd(1.0)));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(levelLo), hi);
    _mm256_storeu_pd(delta, _mm256_setzero_pd());
  }
  _mm_storeu_si128(reinterpret_cast<__m128i*>(levelHi), hi);
}

// selectLaneLevels<4, true> for the batch's four quads, each from its representative lane's
// operands, on four doubles at a time: the same operations in the same order, so the same
// levels and δ bit for bit (batch_sampler_uniform_test.cpp holds the routine to the general
// one's results).
template <bool kMipLinear>
TESSERA_AVX512 void quadLevels(const abi::ImageViewState& view, const abi::SamplerState& sampler, const float* const (&operands)[7],
                               __m512i repIndex, uint32_t levelCount, uint32_t* levelHi, uint32_t* levelLo, double* delta) {
  // λ_base = log2(ρ_max) = log2(ρ_max²) / 2, as the scalar (no gradients: -Inf).
  const __m256d lambdaBase = operands[0] ? quadOperand(operands[0], repIndex)
                                         : _mm256_mul_pd(_mm256_set1_pd(0.5), vectorLog2x4(squaredRho(view, operands, repIndex)));
  levelsFromBase<kMipLinear>(sampler, operands, repIndex, levelCount, lambdaBase, levelHi, levelLo, delta);
}

// ρ_max² of every lane in float, for the range check only (a quad's lanes share their
// derivatives, so checking each lane checks its quad): |d| size, squared, summed, the larger
// sum kept as the exact path keeps it (a NaN sum of x stays NaN). Within 4 float roundings of
// the exact value, so its λ_base is within 2^-22.5 of the exact one: the ranges' 2^-20 margin
// covers it.
TESSERA_AVX512 inline __m512 squaredRhoLanes(const abi::ImageViewState& view, const float* const (&operands)[7]) {
  const __m512 w = _mm512_set1_ps(float(view.levels[0].width)), h = _mm512_set1_ps(float(view.levels[0].height));
  const __m512 mx0 = _mm512_mul_ps(_mm512_abs_ps(_mm512_loadu_ps(operands[1])), w);
  const __m512 mx1 = _mm512_mul_ps(_mm512_abs_ps(_mm512_loadu_ps(operands[2])), h);
  const __m512 my0 = _mm512_mul_ps(_mm512_abs_ps(_mm512_loadu_ps(operands[3])), w);
  const __m512 my1 = _mm512_mul_ps(_mm512_abs_ps(_mm512_loadu_ps(operands[4])), h);
  const __m512 sumX = _mm512_add_ps(_mm512_mul_ps(mx0, mx0), _mm512_mul_ps(mx1, mx1));
  const __m512 sumY = _mm512_add_ps(_mm512_mul_ps(my0, my0), _mm512_mul_ps(my1, my1));
  return _mm512_mask_mov_ps(sumX, _mm512_cmp_ps_mask(sumX, sumY, _CMP_LT_OQ), sumY);
}

// NearestLevelRanges and rangeContext: batch_lanes.h.

// The batch's levels when its LOD operands are the same across each quad's active lanes and
// every active quad selects the same level(s); false otherwise. `predicted`: the level the
// thread's previous batch used (mipmapMode NEAREST batches inside its range take it at once).
template <bool kMipLinear>
TESSERA_AVX512 bool batchLevels(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                                uint32_t active, uint32_t predicted, BatchLevels& out) {
  const float* operands[7];
  lodOperands(lanes, operands);
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  // Per quad: its first active lane stands for the quad's other active lanes when they agree.
  uint32_t rep[4], activeQuads = 0;
  for (uint32_t quad = 0; quad < 4; ++quad) {
    const uint32_t nibble = active >> (4 * quad) & 0xF;
    rep[quad] = 4 * quad + (nibble ? uint32_t(__builtin_ctz(nibble)) : 0);
    activeQuads |= uint32_t(nibble != 0) << quad;
  }
  // Quad q's representative in element q, and lane k's in element k, built in registers (not
  // stored and read back as one vector).
  const __m512i repIndex = _mm512_castsi128_si512(_mm_setr_epi32(int(rep[0]), int(rep[1]), int(rep[2]), int(rep[3])));
  const __m512i index = _mm512_permutexvar_epi32(_mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0), repIndex);
  for (const float* p : operands) {
    if (!p) continue;
    const __m512i v = _mm512_loadu_si512(p);
    if ((_mm512_cmpneq_epi32_mask(v, _mm512_permutexvar_epi32(index, v)) & active) != 0) return false;
  }
  // Implicit LOD (derivatives only) with mipmapMode NEAREST: the predicted level's range of
  // ρ_max², when every active quad lies in it, is the answer (NearestLevelRanges).
  thread_local NearestLevelRanges ranges;
  const bool derivativesOnly = !kMipLinear && operands[1] && !operands[5] && !operands[6];
  if (derivativesOnly) {
    const NearestLevelRanges::Context context = rangeContext(sampler, levelCount);
    if (!ranges.haveContext || !(ranges.context == context)) ranges.context = context, ranges.haveContext = true, ranges.known = 0;
    if (predicted < levelCount && (ranges.known >> predicted & 1)) {
      const __m512 rho2 = squaredRhoLanes(view, operands);
      const __mmask16 inside = _mm512_cmp_ps_mask(rho2, _mm512_set1_ps(ranges.lo[predicted]), _CMP_GE_OQ) &
                               _mm512_cmp_ps_mask(rho2, _mm512_set1_ps(ranges.hi[predicted]), _CMP_LT_OQ);
      if ((inside & active) == active) {
        out.hi = out.lo = predicted;
        out.d8 = _mm512_setzero_si512();
        return true;
      }
    }
  }
  uint32_t hi[4], lo[4];
  alignas(64) double delta[4];
  quadLevels<kMipLinear>(view, sampler, operands, repIndex, levelCount, hi, lo, delta);
  const uint32_t f = uint32_t(__builtin_ctz(activeQuads));
  for (uint32_t quad = 0; quad < 4; ++quad)
    if ((activeQuads >> quad & 1) && (hi[quad] != hi[f] || (kMipLinear && lo[quad] != lo[f]))) return false;
  out.hi = hi[f], out.lo = lo[f];
  if (derivativesOnly && out.hi < levelCount && !(ranges.known >> out.hi & 1)) {
    nearestLevelRange(sampler, levelCount, out.hi, ranges.lo[out.hi], ranges.hi[out.hi]);
    ranges.known |= 1u << out.hi;
  }
  if constexpr (kMipLinear) {
    // δ (0 <= δ < 1) snapped to a multiple of 2^-8 as an integer in [0, 256], floor(δ 256 + 1/2)
    // as the general routine computes it, for the four quads at once; 0 for inactive quads;
    // each quad's value in its four lanes.
    const __m256d snapped = _mm256_roundscale_pd(_mm256_add_pd(_mm256_mul_pd(_mm256_load_pd(delta), _mm256_set1_pd(256.0)),
                                                               _mm256_set1_pd(0.5)),
                                                 _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
    const __m128i quads = _mm_maskz_mov_epi32(__mmask8(activeQuads), _mm256_cvttpd_epi32(snapped));
    out.d8 = _mm512_permutexvar_epi32(_mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0), _mm512_castsi128_si512(quads));
  } else {
    out.d8 = _mm512_setzero_si512();
  }
  return true;
}

// filterUniformLevel on `level` (false when its offsets do not fit the 32-bit indices).
template <bool kLinear>
TESSERA_AVX512 bool fetchLevel(const abi::ImageViewState& view, uint32_t level, const abi::SamplerState& sampler, __m512 s,
                               __m512 t, __m512i offI, __m512i offJ, __m512i layer, __mmask16 active, __m512i* sum,
                               __mmask16& fallback, float aheadS = 0, float aheadT = 0) {
  UniformLevel lv;
  if (!uniformLevel(view, level, lv)) return false;
  fallback = 0;
  // Texels ahead are prefetched only from a level several times the size of a core's L2 cache:
  // a smaller one stays in the caches, where the prefetches are instructions spent for nothing.
  // Measured on an Intel host (2 MiB L2): with them the demo scene's 256 KiB texture took 5% more
  // frame time and tex_nearest/tex_bilinear's 4 MiB level 8% more, while tex_trilinear (a
  // 16 MiB level 0) ran 17% faster; on the AMD host the prefetch was written on (512 KiB L2) they
  // made tex_nearest and tex_bilinear faster.
  static const uint64_t prefetchFrom = 4 * hostCpu().l2CacheBytes;
  if (uint64_t(view.levels[level].rowPitch) * view.levels[level].height < prefetchFrom) aheadS = aheadT = 0;
  const int32_t stepI = int32_t(aheadS * float(lv.width)), stepJ = int32_t(aheadT * float(lv.height));
  filterUniformLevel<kLinear>(lv, sampler, s, t, offI, offJ, _mm512_mullo_epi32(layer, _mm512_set1_epi32(lv.layerPitch)), active,
                              sum, fallback, stepI, stepJ);
  return true;
}

template <bool kLinear, bool kMipLinear>
TESSERA_AVX512 bool uniform16(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                              uint32_t* out, uint32_t* fallbackOut) {
  const uint32_t active = lanes.active & 0xFFFF;
  if (active == 0) return false;
  if (chosenTexelLoads.load(std::memory_order_relaxed) < 0) texelLoads();  // measured at first use
  // The lanes' operands (inactive lanes: +0.0 and offset 0, as prepareLanes clears them).
  const __mmask16 act = __mmask16(active);
  const __m512 s = _mm512_maskz_loadu_ps(act, lanes.s), t = _mm512_maskz_loadu_ps(act, lanes.t);
  const __m512i offI = lanes.offset[0] ? _mm512_maskz_loadu_epi32(act, lanes.offset[0]) : _mm512_setzero_si512();
  const __m512i offJ = lanes.offset[1] ? _mm512_maskz_loadu_epi32(act, lanes.offset[1]) : _mm512_setzero_si512();
  alignas(64) int32_t layers[N] = {};
  if (view.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY)
    for (uint32_t k = 0; k < N; ++k)
      if (active >> k & 1) layers[k] = int32_t(selectLayer(lanes.layer ? lanes.layer[k] : 0.0f, view.layerCount));
  const __m512i layer = _mm512_load_si512(layers);

  // The LOD is a long chain of dependent double operations (square roots, a log2 series with a
  // division) that the texel addresses would wait for. So the texels are fetched first at the
  // level(s) the thread's previous batch used, which the LOD then confirms (nearly always: a
  // draw's neighbouring quads share their levels) or refutes, and the processor overlaps the
  // two chains. A refuted guess fetches again at the right level.
  thread_local uint32_t guessHi = 0, guessLo = 0;
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  const uint32_t predictedHi = std::min(guessHi, levelCount - 1), predictedLo = std::min(guessLo, levelCount - 1);
  __m512i sumHi[4], sumLo[4];
  __mmask16 fallbackHi = 0, fallbackLo = 0;
  float aheadS = 0, aheadT = 0;
  if (lanes.dPdx[0] && !lanes.lod) {
    const uint32_t f = uint32_t(__builtin_ctz(active));
    const float ds = 8.0f * lanes.dPdx[0][f], dt = 8.0f * lanes.dPdx[1][f];
    if (std::fabs(ds) < 1.0f && std::fabs(dt) < 1.0f) aheadS = ds, aheadT = dt;
  }
  BatchLevels levels;
  // One level and one filter (these routines have magFilter = minFilter): level 0 whatever λ is
  // ("Level-of-Detail Operation" clamps d to the view's only level), so no LOD is computed (the
  // blur and filter passes of 2D effects sample such views many times a fragment).
  const bool singleLevel = !kMipLinear && levelCount == 1;
  const bool fetchedHi = fetchLevel<kLinear>(view, predictedHi, sampler, s, t, offI, offJ, layer, act, sumHi, fallbackHi, aheadS, aheadT);
  const bool fetchedLo =
      kMipLinear && fetchLevel<kLinear>(view, predictedLo, sampler, s, t, offI, offJ, layer, act, sumLo, fallbackLo, aheadS, aheadT);
  if (singleLevel) levels.hi = levels.lo = 0, levels.d8 = _mm512_setzero_si512();
  else if (!batchLevels<kMipLinear>(view, sampler, lanes, active, predictedHi, levels)) return false;
  if (!fetchedHi || levels.hi != predictedHi) {
    guessHi = levels.hi;
    if (!fetchLevel<kLinear>(view, levels.hi, sampler, s, t, offI, offJ, layer, act, sumHi, fallbackHi)) return false;
  }
  if (kMipLinear && (!fetchedLo || levels.lo != predictedLo)) {
    guessLo = levels.lo;
    if (!fetchLevel<kLinear>(view, levels.lo, sampler, s, t, offI, offJ, layer, act, sumLo, fallbackLo)) return false;
  }
  const __mmask16 fallback = fallbackHi | (kMipLinear ? fallbackLo : 0);
  // Byte b of a texel is component b of the result, but for BGRA, whose bytes 0 and 2 trade places.
  __m512 byteValue[4];
  if constexpr (kMipLinear) {
    // δ snapped to 2^-8 per quad, then per lane; S_hi (256 - δ8) + S_lo δ8 < 2^32, over
    // 255 x 2^24 in double, rounded to float (the general routine's arithmetic).
    const __m512i d = levels.d8, id = _mm512_sub_epi32(_mm512_set1_epi32(256), d);
    for (int c = 0; c < 4; ++c) {
      const __m512i total = _mm512_add_epi32(_mm512_mullo_epi32(sumHi[c], id), _mm512_mullo_epi32(sumLo[c], d));
      byteValue[c] = _mm512_insertf32x8(_mm512_castps256_ps512(twoLevelQuotient(_mm512_castsi512_si256(total))),
                                        twoLevelQuotient(_mm512_extracti64x4_epi64(total, 1)), 1);
    }
  } else {
    for (int c = 0; c < 4; ++c) byteValue[c] = unormQuotient(sumHi[c]);
  }
  const bool bgra = view.fastSampling == kBgra8Unorm;
  const __m512 red = bgra ? byteValue[2] : byteValue[0], blue = bgra ? byteValue[0] : byteValue[2];
  // "Component Swizzle" of the filtered result (batch_sampler_unorm8.cpp's swizzleResult says
  // why that is the spec's value): each component from its source, or the constant (a switch,
  // not an indexed array, so the four stay in registers).
  for (uint32_t c = 0; c < 4; ++c) {
    __m512 value;
    switch (VkComponentSwizzle(view.swizzle[c])) {
      case VK_COMPONENT_SWIZZLE_ZERO: value = _mm512_setzero_ps(); break;
      case VK_COMPONENT_SWIZZLE_ONE: value = _mm512_set1_ps(1.0f); break;
      case VK_COMPONENT_SWIZZLE_R: value = red; break;
      case VK_COMPONENT_SWIZZLE_G: value = byteValue[1]; break;
      case VK_COMPONENT_SWIZZLE_B: value = blue; break;
      case VK_COMPONENT_SWIZZLE_A: value = byteValue[3]; break;
      default: value = c == 0 ? red : c == 1 ? byteValue[1] : c == 2 ? blue : byteValue[3]; break;  // IDENTITY
    }
    _mm512_storeu_ps(reinterpret_cast<float*>(out + c * N), _mm512_maskz_mov_ps(act, value));
  }
  *fallbackOut = fallback;
  return true;
}

}  // namespace

// The declaration has no target attribute (callers are built for any x86-64): the work is in
// uniform16, called, not inlined.
template <bool kLinear, bool kMipLinear>
bool sampleRgba8Uniform16(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                          uint32_t* out, uint32_t* fallback) {
  return uniform16<kLinear, kMipLinear>(view, sampler, lanes, out, fallback);
}

template bool sampleRgba8Uniform16<false, false>(const abi::ImageViewState&, const abi::SamplerState&, const SampleLanes&,
                                                 uint32_t*, uint32_t*);
template bool sampleRgba8Uniform16<true, false>(const abi::ImageViewState&, const abi::SamplerState&, const SampleLanes&,
                                                uint32_t*, uint32_t*);
template bool sampleRgba8Uniform16<false, true>(const abi::ImageViewState&, const abi::SamplerState&, const SampleLanes&,
                                                uint32_t*, uint32_t*);
template bool sampleRgba8Uniform16<true, true>(const abi::ImageViewState&, const abi::SamplerState&, const SampleLanes&,
                                               uint32_t*, uint32_t*);

}  // namespace tessera::sampler_detail::batch

namespace tessera::sampler_detail::batch {

namespace {

// Cycles (the time-stamp counter) for 4096 batches' texel loads by one method from `texels`
// (64 KiB, in cache after the first pass) at `offsets`, the best of five passes.
TESSERA_AVX512 uint64_t texelLoadCycles(const uint8_t* texels, const int32_t (*offsets)[N], bool gather) {
  static volatile uint32_t sink = 0;
  uint64_t best = ~uint64_t(0);
  for (int pass = 0; pass < 5; ++pass) {
    __m512i acc = _mm512_setzero_si512();
    const uint64_t start = __rdtsc();
    for (int i = 0; i < 4096; ++i) acc = _mm512_xor_si512(acc, loadTexels(texels, _mm512_load_si512(offsets[i & 63]), 0xFFFF, gather));
    best = std::min<uint64_t>(best, __rdtsc() - start);
    sink = sink + uint32_t(_mm512_reduce_add_epi32(acc));
  }
  return best;
}

// The faster method on this host, pseudo-random offsets.
TexelLoads measureTexelLoads() {
  alignas(64) static uint8_t texels[64 * 1024];
  alignas(64) int32_t offsets[64][N];
  uint32_t state = 12345;
  for (auto& batch : offsets)
    for (int32_t& o : batch) o = int32_t(((state = state * 1664525u + 1013904223u) >> 8) % (sizeof texels - 8)) & ~3;
  const uint64_t scalar = texelLoadCycles(texels, offsets, false), gathered = texelLoadCycles(texels, offsets, true);
  // A clear margin: on a host where the two are close, keep the scalar loads (the choice is
  // per process; a near tie would make it flip between runs).
  return gathered * 10 < scalar * 9 ? TexelLoads::Gather : TexelLoads::Scalar;
}

}  // namespace

TexelLoads texelLoads() {
  int v = chosenTexelLoads.load(std::memory_order_relaxed);
  if (v < 0) {
    static const TexelLoads measured = hostRunsUniform16() ? measureTexelLoads() : TexelLoads::Scalar;
    int expected = -1;
    chosenTexelLoads.compare_exchange_strong(expected, int(measured));
    v = chosenTexelLoads.load(std::memory_order_relaxed);
  }
  return TexelLoads(v);
}

void setTexelLoads(TexelLoads loads) { chosenTexelLoads.store(int(loads), std::memory_order_relaxed); }

bool hostRunsUniform16() {
  static const bool runs = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("fma") &&
           __builtin_cpu_supports("bmi2");
  }();
  return runs;
}

}  // namespace tessera::sampler_detail::batch
