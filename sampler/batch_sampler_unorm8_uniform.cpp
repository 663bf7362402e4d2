// The fixed-point RGBA8/BGRA8 routine's common case in AVX-512 registers: 16 lanes whose LOD
// operands are the same across each 2x2 quad (implicit LOD: a quad shares its derivatives) and
// whose quads all select the same level (or pair of levels), with one filter for
// magnification and minification. That is nearly every batch of a textured draw; the others
// are left to the general routine (batch_sampler_unorm8.cpp), which computes everything per
// lane in memory.
//
// The results are the general routine's, bit for bit (batch_sampler_test.cpp compares the two
// on random batches of every kind, and both against the snapped-spec oracle):
//  - λ, the levels and δ come from the same function (selectLaneLevels), run once per quad on
//    the quad's operands: the lanes of a quad would compute the same values from the same bits;
//  - the coordinates are the same double operations in the same order (no contraction: this
//    file is compiled with -ffp-contract=off like the general routine), the wraps the same
//    integer and float operations;
//  - UNORM sums are divided by their scale with one multiplication and two fused
//    multiply-adds instead of a division: q = S r, e = S - q D exactly, q + e r, which is the
//    correctly rounded S / D for every S in [0, 255 x 2^16] (checked exhaustively when this was
//    written; the one-level sums never exceed that); two-level sums are multiplied by the
//    double reciprocal (twoLevelQuotient says why that rounds as the division does).
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include <immintrin.h>

#include "batch_lanes.h"
#include "batch_sampler_unorm8_uniform.h"

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

// The 4-byte texels at byte offsets `offset` from `base` for the lanes in `load` (0 elsewhere).
// Sixteen scalar loads: the AVX-512 gather instruction is slower than its loads on the AMD
// hosts measured (bench/results: the routine's time sat on the gather with the texels in L1).
TESSERA_AVX512 inline __m512i loadTexels(const uint8_t* base, __m512i offset, __mmask16 load) {
#ifdef TESSERA_UNIFORM16_GATHER
  return _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), load, offset, base, 1);
#else
  alignas(64) int32_t at[N];
  alignas(64) uint32_t texel[N];
  _mm512_store_si512(at, _mm512_maskz_mov_epi32(load, offset));
  for (uint32_t k = 0; k < N; ++k) std::memcpy(&texel[k], base + at[k], 4);
  return _mm512_maskz_mov_epi32(load, _mm512_load_si512(texel));
#endif
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

// Prefetch of the texels the next block will read: the block walker goes on 4 pixels to the
// right (within a 16x16 square), so the lanes' texel rows moved by the texture coordinates'
// change over 4 pixels (stepI, stepJ texels). `rows`: 1 for NEAREST, 2 for LINEAR (the row
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
  const __m512i fx = fixedCoordinate<kLinear>(s, offI, lv.widthD, fitsX);
  const __m512i fy = fixedCoordinate<kLinear>(t, offJ, lv.heightD, fitsY);
  const __mmask16 fits = fitsX & fitsY;
  fallback |= active & ~fits;
  const __mmask16 load = active & fits;
  const __m512i pitch = _mm512_set1_epi32(lv.rowPitch);
  const __m512i i0 = _mm512_srai_epi32(fx, 8), j0 = _mm512_srai_epi32(fy, 8);
  if constexpr (!kLinear) {
    const __m512i i = wrap(i0, lv.width, lv.invWidth, sampler.addressMode[0]);
    const __m512i j = wrap(j0, lv.height, lv.invHeight, sampler.addressMode[1]);
    const __m512i offset = _mm512_add_epi32(_mm512_add_epi32(layerOffset, _mm512_mullo_epi32(j, pitch)), _mm512_slli_epi32(i, 2));
    const __m512i texel = loadTexels(lv.base, offset, load);
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
  const __m512i t00 = loadTexels(lv.base, _mm512_add_epi32(y0, x0), load);
  const __m512i t10 = loadTexels(lv.base, _mm512_add_epi32(y0, x1), load);
  const __m512i t01 = loadTexels(lv.base, _mm512_add_epi32(y1, x0), load);
  const __m512i t11 = loadTexels(lv.base, _mm512_add_epi32(y1, x1), load);
  if (stepI | stepJ) prefetchAhead(lv, sampler, i0, j0, layerOffset, load, stepI, stepJ, 2);
  // (c00 (256 - α) + c10 α)(256 - β) + (c01 (256 - α) + c11 α) β, exact in 32 bits.
  for (int c = 0; c < 4; ++c) {
    const __m512i row0 = _mm512_add_epi32(_mm512_mullo_epi32(texelByte(t00, c), ia), _mm512_mullo_epi32(texelByte(t10, c), a));
    const __m512i row1 = _mm512_add_epi32(_mm512_mullo_epi32(texelByte(t01, c), ia), _mm512_mullo_epi32(texelByte(t11, c), a));
    sum[c] = _mm512_add_epi32(_mm512_mullo_epi32(row0, ib), _mm512_mullo_epi32(row1, b));
  }
}

// The level(s) every active lane of a batch samples, and δ snapped to 2^-8 per lane.
struct BatchLevels {
  uint32_t hi = 0, lo = 0;
  __m512i d8;
};

// What λ depends on (selectLaneLevels' inputs) besides the lanes' operands.
struct LodContext {
  uint32_t present = 0;  // which operands the instruction has (lodOperands' order)
  uint32_t width = 0, height = 0, levelCount = 0;
  float samplerBias = 0, samplerMinLod = 0, samplerMaxLod = 0;
  bool operator==(const LodContext&) const = default;
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

// selectLaneLevels for the four quads of the batch, each from its first active lane's operands
// (the caller checked that the quad's other active lanes hold the same bits).
template <bool kMipLinear>
TESSERA_AVX512 void quadLevels(const abi::ImageViewState& view, const abi::SamplerState& sampler, const float* const (&operands)[7],
                const uint32_t (&rep)[4], uint32_t activeQuads, uint32_t levelCount, uint32_t* levelHi, uint32_t* levelLo,
                double* delta) {
  alignas(16) float compact[7][4] = {};
  for (uint32_t i = 0; i < 7; ++i)
    if (operands[i])
      for (uint32_t quad = 0; quad < 4; ++quad) compact[i][quad] = operands[i][rep[quad]];
  SampleLanes q;
  q.width = 4;
  q.active = activeQuads;
  if (operands[0]) q.lod = compact[0];
  if (operands[1]) q.dPdx[0] = compact[1], q.dPdx[1] = compact[2], q.dPdy[0] = compact[3], q.dPdy[1] = compact[4];
  if (operands[5]) q.bias = compact[5];
  if (operands[6]) q.minLod = compact[6];
  uint32_t linearQuads;
  selectLaneLevels<4, true>(view, sampler, q, activeQuads, levelCount, kMipLinear, levelHi, levelLo, delta, linearQuads);
}

// The last levels computed per quad operands, per thread: a quad's LOD is a long chain of
// dependent double operations (square roots, a log2 series with a division), while the quads
// of a triangle with affine texture coordinates hold only a few distinct derivative values
// (their differences vary only in the last bits of the coordinates). Entries are valid for one
// context (everything else λ depends on: level 0's size, the level count, the sampler's LOD
// bias and clamps); another context empties the table. A hit returns what quadLevels returned
// for the same bits, so results stay bit for bit the general routine's.
struct QuadLodMemo {
  static constexpr uint32_t kEntries = 64;
  struct Entry {
    uint32_t operand[7];
    uint32_t hi, lo;
    bool valid;
    double delta;
  };
  LodContext context;
  bool haveContext = false;
  Entry entries[kEntries];

  // The table for `context`, emptied when it held another one.
  void use(const LodContext& key) {
    if (haveContext && key == context) return;
    context = key, haveContext = true;
    for (Entry& e : entries) e.valid = false;
  }
  // Products summed rather than chained, so the seven multiplications overlap.
  static uint32_t slot(const uint32_t (&operand)[7]) {
    constexpr uint32_t kOdd[7] = {0x9E3779B1u, 0x85EBCA77u, 0xC2B2AE3Du, 0x27D4EB2Fu, 0x165667B1u, 0xD3A2646Cu | 1u, 0xFD7046C5u};
    uint32_t h = 0;
    for (uint32_t i = 0; i < 7; ++i) h += operand[i] * kOdd[i];
    return (h ^ h >> 15) * 0x2C1B3C6Du >> 26;  // log2(kEntries) top bits
  }
};

inline LodContext lodContext(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                const float* const (&operands)[7], uint32_t levelCount) {
  LodContext key;
  for (uint32_t i = 0; i < 7; ++i) key.present |= uint32_t(operands[i] != nullptr) << i;
  key.width = view.levels[0].width, key.height = view.levels[0].height, key.levelCount = levelCount;
  key.samplerBias = sampler.mipLodBias, key.samplerMinLod = sampler.minLod, key.samplerMaxLod = sampler.maxLod;
  return key;
}

// quadLevels for the active quads of `rep`, through the thread's memo: only the quads whose
// operand bits it does not hold are computed (together, in one quadLevels call).
template <bool kMipLinear>
TESSERA_AVX512 void memoQuadLevels(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                   const float* const (&operands)[7], const uint32_t (&rep)[4], uint32_t activeQuads,
                                   uint32_t levelCount, uint32_t* hi, uint32_t* lo, double* delta) {
  thread_local QuadLodMemo memo;
  memo.use(lodContext(view, sampler, operands, levelCount));
  // The keys live in registers (a key written to memory and read back as wider words would
  // wait for store forwarding); only a miss's key is written down, to fill its entry later.
  uint32_t missing = 0;
  uint32_t missKey[4][7];
  for (uint32_t quad = 0; quad < 4; ++quad) {
    if (!(activeQuads >> quad & 1)) continue;
    uint32_t key[7];
    for (uint32_t i = 0; i < 7; ++i) key[i] = operands[i] ? std::bit_cast<uint32_t>(operands[i][rep[quad]]) : 0u;
    const QuadLodMemo::Entry& e = memo.entries[QuadLodMemo::slot(key)];
    bool hit = e.valid;
    for (uint32_t i = 0; i < 7; ++i) hit &= e.operand[i] == key[i];
    if (hit) {
      hi[quad] = e.hi, lo[quad] = e.lo, delta[quad] = e.delta;
    } else {
      missing |= 1u << quad;
      for (uint32_t i = 0; i < 7; ++i) missKey[quad][i] = key[i];
    }
  }
  if (!missing) return;
  uint32_t computedHi[4], computedLo[4];
  alignas(64) double computedDelta[4];
  quadLevels<kMipLinear>(view, sampler, operands, rep, missing, levelCount, computedHi, computedLo, computedDelta);
  for (uint32_t quad = 0; quad < 4; ++quad) {
    if (!(missing >> quad & 1)) continue;
    hi[quad] = computedHi[quad], lo[quad] = computedLo[quad], delta[quad] = computedDelta[quad];
    QuadLodMemo::Entry& e = memo.entries[QuadLodMemo::slot(missKey[quad])];
    std::memcpy(e.operand, missKey[quad], sizeof(e.operand));
    e.hi = hi[quad], e.lo = lo[quad], e.delta = delta[quad], e.valid = true;
  }
}

// δ (0 <= δ < 1) snapped to a multiple of 2^-8, as an integer in [0, 256].
inline int32_t snapDelta(double delta) { return int32_t(std::floor(delta * 256.0 + 0.5)); }

// The batch's levels when its LOD operands are the same across each quad's active lanes and
// every active quad selects the same level(s); false otherwise.
template <bool kMipLinear>
TESSERA_AVX512 bool batchLevels(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                                uint32_t active, BatchLevels& out) {
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
  // Lane k's representative, built in registers (not stored and read back as one vector).
  const __m512i index = _mm512_permutexvar_epi32(
      _mm512_set_epi32(3, 3, 3, 3, 2, 2, 2, 2, 1, 1, 1, 1, 0, 0, 0, 0),
      _mm512_castsi128_si512(_mm_setr_epi32(int(rep[0]), int(rep[1]), int(rep[2]), int(rep[3]))));
  for (const float* p : operands) {
    if (!p) continue;
    const __m512i v = _mm512_loadu_si512(p);
    if ((_mm512_cmpneq_epi32_mask(v, _mm512_permutexvar_epi32(index, v)) & active) != 0) return false;
  }
  uint32_t hi[4], lo[4];
  alignas(64) double delta[4];
  memoQuadLevels<kMipLinear>(view, sampler, operands, rep, activeQuads, levelCount, hi, lo, delta);
  const uint32_t f = uint32_t(__builtin_ctz(activeQuads));
  for (uint32_t quad = 0; quad < 4; ++quad)
    if ((activeQuads >> quad & 1) && (hi[quad] != hi[f] || (kMipLinear && lo[quad] != lo[f]))) return false;
  out.hi = hi[f], out.lo = lo[f];
  if constexpr (kMipLinear) {
    alignas(64) int32_t d8[N];
    for (uint32_t k = 0; k < N; ++k) d8[k] = (activeQuads >> (k / 4) & 1) ? snapDelta(delta[k / 4]) : 0;
    out.d8 = _mm512_load_si512(d8);
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
    const float ds = 4.0f * lanes.dPdx[0][f], dt = 4.0f * lanes.dPdx[1][f];
    if (std::fabs(ds) < 1.0f && std::fabs(dt) < 1.0f) aheadS = ds, aheadT = dt;
  }
  const bool fetchedHi = fetchLevel<kLinear>(view, predictedHi, sampler, s, t, offI, offJ, layer, act, sumHi, fallbackHi, aheadS, aheadT);
  const bool fetchedLo =
      kMipLinear && fetchLevel<kLinear>(view, predictedLo, sampler, s, t, offI, offJ, layer, act, sumLo, fallbackLo, aheadS, aheadT);
  BatchLevels levels;
  if (!batchLevels<kMipLinear>(view, sampler, lanes, active, levels)) return false;
  if (!fetchedHi || levels.hi != predictedHi) {
    guessHi = levels.hi;
    if (!fetchLevel<kLinear>(view, levels.hi, sampler, s, t, offI, offJ, layer, act, sumHi, fallbackHi)) return false;
  }
  if (kMipLinear && (!fetchedLo || levels.lo != predictedLo)) {
    guessLo = levels.lo;
    if (!fetchLevel<kLinear>(view, levels.lo, sampler, s, t, offI, offJ, layer, act, sumLo, fallbackLo)) return false;
  }
  const __mmask16 fallback = fallbackHi | (kMipLinear ? fallbackLo : 0);
  // Byte b of a texel is component row[b] of the result (BGRA: bytes 0 and 2 trade places).
  const bool bgra = view.fastSampling == kViewBgra8Unorm;
  const int row[4] = {bgra ? 2 : 0, 1, bgra ? 0 : 2, 3};
  if constexpr (kMipLinear) {
    // δ snapped to 2^-8 per quad, then per lane; S_hi (256 - δ8) + S_lo δ8 < 2^32, over
    // 255 x 2^24 in double, rounded to float (the general routine's arithmetic).
    const __m512i d = levels.d8, id = _mm512_sub_epi32(_mm512_set1_epi32(256), d);
    for (int c = 0; c < 4; ++c) {
      const __m512i total = _mm512_add_epi32(_mm512_mullo_epi32(sumHi[c], id), _mm512_mullo_epi32(sumLo[c], d));
      const __m512 f = _mm512_insertf32x8(_mm512_castps256_ps512(twoLevelQuotient(_mm512_castsi512_si256(total))),
                                          twoLevelQuotient(_mm512_extracti64x4_epi64(total, 1)), 1);
      _mm512_storeu_ps(reinterpret_cast<float*>(out + row[c] * N), _mm512_maskz_mov_ps(act, f));
    }
  } else {
    for (int c = 0; c < 4; ++c)
      _mm512_storeu_ps(reinterpret_cast<float*>(out + row[c] * N), _mm512_maskz_mov_ps(act, unormQuotient(sumHi[c])));
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
