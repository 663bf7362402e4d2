// blockDepthTestD32 (block_depth.h): a portable definition and an AVX-512 one. The portable one
// handles each row's pixels with branches (a small triangle's rows are mostly partly covered,
// so they mispredict) and gathers the lanes into row order one float at a time; with AVX-512 a
// row is one masked load or store (masked-out pixels are neither read nor written, and cannot
// fault), the lanes go to row order and back by one permutation each, and the comparison is
// one instruction with the predicate that matches C++'s operator on floats.
#include "block_depth.h"

#include "block_vector.h"
#include "draw_internal.h"
#include "stencil_rules.h"
#include "tessera/cpu_info.h"

#include <immintrin.h>

#include <cstring>

namespace tessera::raster {
namespace {

using block_vector::laneOf;
using block_vector::loadRowsD32;
using block_vector::passMask;
using block_vector::permuteBits;
using block_vector::rowMask;
using block_vector::rowOrder;
using block_vector::storeRow32;
using block_vector::storeRowsD32;
using block_vector::swapLaneRowBits;

// For row r of a 4-sample block, element 4 p + s: lane laneOf(r, p) of the first (s even) or
// second (s odd) source of a two-source permutation.
struct RowSampleIndex {
  alignas(64) int32_t index[4][16];
  constexpr RowSampleIndex() : index() {
    for (int r = 0; r < 4; ++r)
      for (int p = 0; p < 4; ++p)
        for (int smp = 0; smp < 4; ++smp) index[r][4 * p + smp] = laneOf(r, p) + 16 * (smp & 1);
  }
};
constexpr RowSampleIndex kRowSampleIndex;

}  // namespace

uint32_t blockDepthTestD32Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                   uint32_t coverage, VkCompareOp op, bool write) {
  uint32_t pass = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      if (!(coverage >> l & 1)) continue;
      float* texel = reinterpret_cast<float*>(base + uint64_t(by + r) * rowPitch + uint64_t(bx + p) * 4);
      float stored;
      std::memcpy(&stored, texel, 4);
      if (!compare(op, z[l], stored)) continue;
      pass |= 1u << l;
      if (write) std::memcpy(texel, &z[l], 4);
    }
  return pass;
}

bool blockDepthTestD32VectorAvailable() { return hostCpu().avx512; }  // F, BW, DQ, VL

TESSERA_AVX512 uint32_t blockDepthTestD32Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                const float* z, uint32_t coverage, VkCompareOp op, bool write) {
  const __m512i toLane = block_vector::laneToRowIndex(), toRow = toLane;
  const __mmask16 covered = permuteBits(__mmask16(coverage), toLane);
  const __m512 depth = _mm512_permutexvar_ps(toLane, _mm512_loadu_ps(z));
  uint8_t* rows[4];
  for (int r = 0; r < 4; ++r) rows[r] = base + uint64_t(by + r) * rowPitch + uint64_t(bx) * 4;
  const __m512 stored = loadRowsD32(rows, covered);
  const __mmask16 pass = passMask(op, covered, depth, stored);
  if (!pass) return 0;
  if (write) storeRowsD32(rows, pass, depth);
  return permuteBits(pass, toRow);
}

bool blockDepthTestD32Avx2Available() { return hostCpu().avx2; }

namespace {

// depth `op` stored, the predicate that matches C++'s operator on floats (NaN included), as
// passMask's.
template <int kPredicate>
__attribute__((target("avx2"))) inline uint32_t compareRows(__m256 z01, __m256 z23, __m256 s01, __m256 s23) {
  return uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(z01, s01, kPredicate))) |
         uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(z23, s23, kPredicate))) << 8;
}

}  // namespace

__attribute__((target("avx2"))) uint32_t blockDepthTestD32Avx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                               const float* z, uint32_t coverage, VkCompareOp op,
                                                               bool write) {
  const uint32_t covered = swapLaneRowBits(coverage);  // bit 4 r + p: row r, pixel p
  if (!covered || op == VK_COMPARE_OP_NEVER) return 0;
  const __m256 z01 = rowOrder(z), z23 = rowOrder(z + 8);
  float* rows[4];
  for (int r = 0; r < 4; ++r) rows[r] = reinterpret_cast<float*>(base + uint64_t(by + r) * rowPitch + uint64_t(bx) * 4);
  // Only covered pixels are read (a masked load neither reads nor faults on the others).
  __m128 stored[4];
  for (int r = 0; r < 4; ++r) stored[r] = _mm_maskload_ps(rows[r], rowMask(covered >> 4 * r));
  const __m256 s01 = _mm256_set_m128(stored[1], stored[0]), s23 = _mm256_set_m128(stored[3], stored[2]);
  uint32_t pass;
  switch (op) {
    case VK_COMPARE_OP_LESS: pass = compareRows<_CMP_LT_OQ>(z01, z23, s01, s23); break;
    case VK_COMPARE_OP_EQUAL: pass = compareRows<_CMP_EQ_OQ>(z01, z23, s01, s23); break;
    case VK_COMPARE_OP_LESS_OR_EQUAL: pass = compareRows<_CMP_LE_OQ>(z01, z23, s01, s23); break;
    case VK_COMPARE_OP_GREATER: pass = compareRows<_CMP_GT_OQ>(z01, z23, s01, s23); break;
    case VK_COMPARE_OP_NOT_EQUAL: pass = compareRows<_CMP_NEQ_UQ>(z01, z23, s01, s23); break;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = compareRows<_CMP_GE_OQ>(z01, z23, s01, s23); break;
    default: pass = 0xFFFF; break;  // ALWAYS
  }
  pass &= covered;
  if (!pass) return 0;
  if (write) {
    const __m128 depth[4] = {_mm256_castps256_ps128(z01), _mm256_extractf128_ps(z01, 1), _mm256_castps256_ps128(z23),
                             _mm256_extractf128_ps(z23, 1)};
    for (int r = 0; r < 4; ++r) {
      const uint32_t rowPass = pass >> 4 * r & 0xF;
      if (!rowPass) continue;
      storeRow32(rows[r], (covered >> 4 * r & 0xF) == 0xF, rowPass, _mm_castps_si128(stored[r]),
                 _mm_castps_si128(depth[r]));
    }
  }
  return swapLaneRowBits(pass);
}

namespace {

// The versions this host runs, chosen when the library loads: blockDepthTestD32 and
// blockDepthTestD32x4 run per block, and their function-local statics (a guard check each)
// and branches were about 40 instructions a block on tris_small; now each is one jump.
using DepthTestD32 = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float*, uint32_t, VkCompareOp, bool);
using DepthTestD32x4 = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float (*)[16], const uint32_t*,
                                    VkCompareOp, bool, uint32_t*);
const DepthTestD32 kDepthTestD32 = blockDepthTestD32VectorAvailable() ? blockDepthTestD32Vector
                                   : blockDepthTestD32Avx2Available() ? blockDepthTestD32Avx2
                                                                      : blockDepthTestD32Portable;

}  // namespace

uint32_t blockDepthTestD32(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z, uint32_t coverage,
                           VkCompareOp op, bool write) {
  return kDepthTestD32(base, rowPitch, bx, by, z, coverage, op, write);
}

BlockDepthTestD32Fn blockDepthTestD32Function() { return kDepthTestD32; }

namespace {

// floatToUnorm of 8 floats in double: NaN and values below 0 give 0 (max returns its second
// operand for a NaN), above 1 give 1, times 2^b - 1 (exact: 24 x 24 bits), rounded to nearest
// even.
TESSERA_AVX512 inline __m256i unormLanes(__m256 z, double scale) {
  const __m512d x = _mm512_min_pd(_mm512_max_pd(_mm512_cvtps_pd(z), _mm512_setzero_pd()), _mm512_set1_pd(1.0));
  return _mm512_cvt_roundpd_epi32(_mm512_mul_pd(x, _mm512_set1_pd(scale)), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

}  // namespace

uint32_t blockDepthTestUnormPortable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                     uint32_t coverage, VkCompareOp op, bool write, uint32_t bits) {
  // draw_fragments.cpp's loadDepth / storeDepth / quantizeDepth for these formats, written out.
  const double maxValue = unormDepthMax(bits);
  auto decode = [&](uint32_t c) { return decodeUnormDepth(c, bits); };
  uint32_t pass = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      if (!(coverage >> l & 1)) continue;
      uint8_t* texel = unormTexel(base, rowPitch, bx + p, by + r, bits);
      const float quantized = decode(floatToUnorm(z[l], maxValue));
      if (!compare(op, quantized, decode(readUnorm(texel, bits)))) continue;
      pass |= 1u << l;
      if (!write) continue;
      const uint32_t c = floatToUnorm(quantized, maxValue);
      if (bits == 16) {
        const uint16_t v = uint16_t(c);
        std::memcpy(texel, &v, 2);
      } else {
        std::memcpy(texel, &c, 4);  // upper 8 bits 0, as storeDepth writes them
      }
    }
  return pass;
}

TESSERA_AVX512 uint32_t blockDepthTestUnormVector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                  const float* z, uint32_t coverage, VkCompareOp op, bool write,
                                                  uint32_t bits) {
  const __m512i toLane = block_vector::laneToRowIndex(), toRow = toLane;
  const __mmask16 covered = permuteBits(__mmask16(coverage), toLane);
  const __m512 depth = _mm512_permutexvar_ps(toLane, _mm512_loadu_ps(z));
  const double scale = bits == 16 ? 65535.0 : 16777215.0;
  const __m512i fragment = _mm512_inserti64x4(_mm512_castsi256_si512(unormLanes(_mm512_castps512_ps256(depth), scale)),
                                              unormLanes(_mm512_extractf32x8_ps(depth, 1), scale), 1);
  uint8_t* rows[4];
  for (int r = 0; r < 4; ++r) rows[r] = unormTexel(base, rowPitch, bx, by + r, bits);
  __m512i stored;
  if (bits == 16) {
    __m256i packed = _mm256_castsi128_si256(_mm_unpacklo_epi64(_mm_maskz_loadu_epi16(__mmask8(covered & 0xF), rows[0]),
                                                               _mm_maskz_loadu_epi16(__mmask8(covered >> 4 & 0xF), rows[1])));
    packed = _mm256_inserti128_si256(packed, _mm_unpacklo_epi64(_mm_maskz_loadu_epi16(__mmask8(covered >> 8 & 0xF), rows[2]),
                                                                _mm_maskz_loadu_epi16(__mmask8(covered >> 12 & 0xF), rows[3])),
                                     1);
    stored = _mm512_cvtepu16_epi32(packed);
  } else {
    stored = _mm512_and_si512(_mm512_castps_si512(block_vector::loadRowsD32(rows, covered)), _mm512_set1_epi32(0xFFFFFF));
  }
  __mmask16 pass;
  switch (op) {
    case VK_COMPARE_OP_NEVER: pass = 0; break;
    case VK_COMPARE_OP_LESS: pass = _mm512_mask_cmplt_epi32_mask(covered, fragment, stored); break;
    case VK_COMPARE_OP_EQUAL: pass = _mm512_mask_cmpeq_epi32_mask(covered, fragment, stored); break;
    case VK_COMPARE_OP_LESS_OR_EQUAL: pass = _mm512_mask_cmple_epi32_mask(covered, fragment, stored); break;
    case VK_COMPARE_OP_GREATER: pass = _mm512_mask_cmpgt_epi32_mask(covered, fragment, stored); break;
    case VK_COMPARE_OP_NOT_EQUAL: pass = _mm512_mask_cmpneq_epi32_mask(covered, fragment, stored); break;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = _mm512_mask_cmpge_epi32_mask(covered, fragment, stored); break;
    default: pass = covered; break;  // ALWAYS
  }
  if (!pass) return 0;
  if (write) {
    if (bits == 16) {
      const __m256i v = _mm512_cvtepi32_epi16(fragment);
      const __m128i low = _mm256_castsi256_si128(v), high = _mm256_extracti128_si256(v, 1);
      _mm_mask_storeu_epi16(rows[0], __mmask8(pass & 0xF), low);
      _mm_mask_storeu_epi16(rows[1], __mmask8(pass >> 4 & 0xF), _mm_srli_si128(low, 8));
      _mm_mask_storeu_epi16(rows[2], __mmask8(pass >> 8 & 0xF), high);
      _mm_mask_storeu_epi16(rows[3], __mmask8(pass >> 12 & 0xF), _mm_srli_si128(high, 8));
    } else {
      block_vector::storeRowsD32(rows, pass, _mm512_castsi512_ps(fragment));
    }
  }
  return permuteBits(pass, toRow);
}

namespace {

// floatToUnorm of 8 floats (as unormLanes, with AVX2): NaN and values below 0 give 0 (MAXPD
// returns its second operand for a NaN, and +0 for -0), above 1 give 1, times 2^b - 1 (exact),
// rounded to nearest even by adding and subtracting 2^52 as floatToUnorm does.
__attribute__((target("avx2"))) inline __m256i unormLanesAvx2(__m256 z, double scale) {
  const __m256d zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0), round = _mm256_set1_pd(4503599627370496.0);
  auto convert = [&](__m128 half) __attribute__((target("avx2"))) {
    const __m256d x = _mm256_min_pd(_mm256_max_pd(_mm256_cvtps_pd(half), zero), one);
    return _mm256_cvttpd_epi32(_mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(scale)), round), round));
  };
  return _mm256_set_m128i(convert(_mm256_extractf128_ps(z, 1)), convert(_mm256_castps256_ps128(z)));
}

}  // namespace

__attribute__((target("avx2"))) uint32_t blockDepthTestUnormAvx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                                 const float* z, uint32_t coverage, VkCompareOp op,
                                                                 bool write, uint32_t bits) {
  const uint32_t covered = swapLaneRowBits(coverage);  // bit 4 r + p: row r, pixel p
  if (!covered || op == VK_COMPARE_OP_NEVER) return 0;
  const double scale = bits == 16 ? 65535.0 : 16777215.0;
  alignas(32) uint32_t fragment[16], raw[16] = {};  // row order
  _mm256_store_si256(reinterpret_cast<__m256i*>(fragment), unormLanesAvx2(rowOrder(z), scale));
  _mm256_store_si256(reinterpret_cast<__m256i*>(fragment + 8), unormLanesAvx2(rowOrder(z + 8), scale));
  uint8_t* rows[4];
  for (int r = 0; r < 4; ++r) {
    rows[r] = unormTexel(base, rowPitch, bx, by + r, bits);
    const uint32_t rowCovered = covered >> 4 * r & 0xF;
    if (!rowCovered) continue;
    // Only covered pixels are read: D24 rows by a masked load, D16 ones (no 16-bit masked loads
    // in AVX2) whole where all four are covered, else pixel by pixel.
    if (bits == 24) {
      _mm_store_si128(reinterpret_cast<__m128i*>(raw + 4 * r),
                      _mm_maskload_epi32(reinterpret_cast<const int*>(rows[r]), rowMask(rowCovered)));
    } else if (rowCovered == 0xF) {
      _mm_store_si128(reinterpret_cast<__m128i*>(raw + 4 * r),
                      _mm_cvtepu16_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(rows[r]))));
    } else {
      for (int p = 0; p < 4; ++p)
        if (rowCovered >> p & 1) raw[4 * r + p] = readUnorm(rows[r] + 2 * p, 16);
    }
  }
  const __m256i depthBits = _mm256_set1_epi32(0xFFFFFF);
  __m256i s[2], f[2];
  for (int h = 0; h < 2; ++h) {
    s[h] = _mm256_and_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(raw + 8 * h)), depthBits);
    f[h] = _mm256_load_si256(reinterpret_cast<const __m256i*>(fragment + 8 * h));
  }
  // The integers' order is the decoded floats' (see blockDepthTestUnormVector); AVX2 has only
  // "greater" and "equal", the other comparisons are their complements.
  auto mask = [](__m256i a, __m256i b) __attribute__((target("avx2"))) {
    return uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpgt_epi32(a, b))));
  };
  auto equal = [](__m256i a, __m256i b) __attribute__((target("avx2"))) {
    return uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, b))));
  };
  uint32_t greater = 0, less = 0, same = 0;  // fragment > stored, fragment < stored, equal
  for (int h = 0; h < 2; ++h) {
    greater |= mask(f[h], s[h]) << 8 * h;
    less |= mask(s[h], f[h]) << 8 * h;
    same |= equal(f[h], s[h]) << 8 * h;
  }
  uint32_t pass;
  switch (op) {
    case VK_COMPARE_OP_LESS: pass = less; break;
    case VK_COMPARE_OP_EQUAL: pass = same; break;
    case VK_COMPARE_OP_LESS_OR_EQUAL: pass = ~greater; break;
    case VK_COMPARE_OP_GREATER: pass = greater; break;
    case VK_COMPARE_OP_NOT_EQUAL: pass = ~same; break;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = ~less; break;
    default: pass = 0xFFFF; break;  // ALWAYS
  }
  pass &= covered;
  if (!pass) return 0;
  if (write) {
    for (int r = 0; r < 4; ++r) {
      const uint32_t rowPass = pass >> 4 * r & 0xF;
      if (!rowPass) continue;
      const __m128i value = _mm_load_si128(reinterpret_cast<const __m128i*>(fragment + 4 * r));
      const bool whole = (covered >> 4 * r & 0xF) == 0xF;  // in this thread's tile (storeRow32)
      if (bits == 24) {
        // The passing pixels take the converted value (upper 8 bits 0, as storeDepth writes
        // them); the others of a whole row keep the bits just read.
        storeRow32(rows[r], whole, rowPass, _mm_load_si128(reinterpret_cast<const __m128i*>(raw + 4 * r)), value);
      } else if (whole) {
        const __m128i merged =
            _mm_blendv_epi8(_mm_load_si128(reinterpret_cast<const __m128i*>(raw + 4 * r)), value, rowMask(rowPass));
        _mm_storel_epi64(reinterpret_cast<__m128i*>(rows[r]), _mm_packus_epi32(merged, merged));
      } else {
        for (int p = 0; p < 4; ++p)
          if (rowPass >> p & 1) {
            const uint16_t v = uint16_t(fragment[4 * r + p]);
            std::memcpy(rows[r] + 2 * p, &v, 2);
          }
      }
    }
  }
  return swapLaneRowBits(pass);
}

uint32_t blockDepthTestUnorm(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z, uint32_t coverage,
                             VkCompareOp op, bool write, uint32_t bits) {
  static const bool vector = blockDepthTestD32VectorAvailable();
  static const bool avx2 = blockDepthTestD32Avx2Available();
  if (vector) return blockDepthTestUnormVector(base, rowPitch, bx, by, z, coverage, op, write, bits);
  if (avx2) return blockDepthTestUnormAvx2(base, rowPitch, bx, by, z, coverage, op, write, bits);
  return blockDepthTestUnormPortable(base, rowPitch, bx, by, z, coverage, op, write, bits);
}

uint32_t blockDepthTestD32x4Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                                     const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed) {
  uint32_t lanes = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      passed[l] = 0;
      for (int smp = 0; smp < 4; ++smp) {
        if (!(covered[l] >> smp & 1)) continue;
        uint8_t* texel = base + uint64_t(by + r) * rowPitch + uint64_t(bx + p) * 16 + 4 * smp;
        float stored;
        std::memcpy(&stored, texel, 4);
        if (!compare(op, sampleZ[smp][l], stored)) continue;
        passed[l] |= 1u << smp;
        if (write) std::memcpy(texel, &sampleZ[smp][l], 4);
      }
      if (passed[l]) lanes |= 1u << l;
    }
  return lanes;
}

TESSERA_AVX512 uint32_t blockDepthTestD32x4Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                  const float (*sampleZ)[16], const uint32_t* covered, VkCompareOp op,
                                                  bool write, uint32_t* passed) {
  const __m512 z0 = _mm512_loadu_ps(sampleZ[0]), z1 = _mm512_loadu_ps(sampleZ[1]);
  const __m512 z2 = _mm512_loadu_ps(sampleZ[2]), z3 = _mm512_loadu_ps(sampleZ[3]);
  uint32_t lanes = 0;
  for (int r = 0; r < 4; ++r) {
    // Row element 4 p + s is sample s of pixel p: from z_s at lane laneOf(r, p). One
    // permutation takes samples 0 and 1 from z0 and z1, another (the same indices) 2 and 3
    // from z2 and z3.
    uint32_t rowCovered = 0;
    for (int p = 0; p < 4; ++p) rowCovered |= (covered[laneOf(r, p)] & 0xF) << (4 * p);
    const __m512i index = _mm512_load_si512(kRowSampleIndex.index[r]);
    const __m512 depth = _mm512_mask_blend_ps(__mmask16(0xCCCC), _mm512_permutex2var_ps(z0, index, z1),
                                              _mm512_permutex2var_ps(z2, index, z3));
    uint8_t* row = base + uint64_t(by + r) * rowPitch + uint64_t(bx) * 16;
    const __mmask16 tested = __mmask16(rowCovered);
    const __m512 stored = _mm512_maskz_loadu_ps(tested, row);
    const __mmask16 pass = tested ? passMask(op, tested, depth, stored) : 0;
    if (write && pass) _mm512_mask_storeu_ps(row, pass, depth);
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      passed[l] = uint32_t(pass) >> (4 * p) & 0xF;
      if (passed[l]) lanes |= 1u << l;
    }
  }
  return lanes;
}

namespace {

// The sign-bit mask of the 8 floats selected by `bits` (bit i: element i).
__attribute__((target("avx2"))) inline __m256i elementMask(uint32_t bits) {
  const __m256i bit = _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(int(bits)), bit), bit);
}

template <int kPredicate>
__attribute__((target("avx2"))) uint32_t depthTestD32x4Avx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                            const float (*sampleZ)[16], const uint32_t* covered,
                                                            bool write, uint32_t* passed) {
  uint32_t lanes = 0;
  for (int q = 0; q < 4; ++q) {
    // Quad q's lanes 4q .. 4q + 3 are its pixels (0, 0), (1, 0), (0, 1), (1, 1); transposing
    // the four samples' lane vectors gives each pixel's 4 samples, which is its 16 bytes.
    __m128 s0 = _mm_loadu_ps(&sampleZ[0][4 * q]), s1 = _mm_loadu_ps(&sampleZ[1][4 * q]);
    __m128 s2 = _mm_loadu_ps(&sampleZ[2][4 * q]), s3 = _mm_loadu_ps(&sampleZ[3][4 * q]);
    _MM_TRANSPOSE4_PS(s0, s1, s2, s3);
    const int32_t x = bx + 2 * (q & 1), y = by + 2 * (q >> 1);
    for (int half = 0; half < 2; ++half) {  // the quad's top pixel pair, then its bottom one
      const int l = 4 * q + 2 * half;
      const __m256 depth = half ? _mm256_set_m128(s3, s2) : _mm256_set_m128(s1, s0);
      float* at = reinterpret_cast<float*>(base + uint64_t(y + half) * rowPitch + uint64_t(x) * 16);
      const uint32_t tested = (covered[l] & 0xF) | (covered[l + 1] & 0xF) << 4;
      if (!tested) {
        passed[l] = passed[l + 1] = 0;
        continue;
      }
      // Only tested samples are read (a masked load neither reads nor faults on the others).
      const __m256 stored = _mm256_maskload_ps(at, elementMask(tested));
      const uint32_t pass = uint32_t(_mm256_movemask_ps(_mm256_cmp_ps(depth, stored, kPredicate))) & tested;
      passed[l] = pass & 0xF, passed[l + 1] = pass >> 4;
      lanes |= uint32_t(passed[l] != 0) << l | uint32_t(passed[l + 1] != 0) << (l + 1);
      if (!write || !pass) continue;
      // As block_vector::storeRow32 does for a row, for the pair's 8 samples: stored whole when
      // both pixels are wholly covered, else only the passing samples.
      if (tested == 0xFF)
        _mm256_storeu_ps(at, _mm256_blendv_ps(stored, depth, _mm256_castsi256_ps(elementMask(pass))));
      else
        _mm256_maskstore_ps(at, elementMask(pass), depth);
    }
  }
  return lanes;
}

}  // namespace

__attribute__((target("avx2"))) uint32_t blockDepthTestD32x4Avx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                                 const float (*sampleZ)[16], const uint32_t* covered,
                                                                 VkCompareOp op, bool write, uint32_t* passed) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: for (int l = 0; l < 16; ++l) passed[l] = 0; return 0;
    case VK_COMPARE_OP_LESS: return depthTestD32x4Avx2<_CMP_LT_OQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    case VK_COMPARE_OP_EQUAL: return depthTestD32x4Avx2<_CMP_EQ_OQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    case VK_COMPARE_OP_LESS_OR_EQUAL:
      return depthTestD32x4Avx2<_CMP_LE_OQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    case VK_COMPARE_OP_GREATER: return depthTestD32x4Avx2<_CMP_GT_OQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    case VK_COMPARE_OP_NOT_EQUAL:
      return depthTestD32x4Avx2<_CMP_NEQ_UQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    case VK_COMPARE_OP_GREATER_OR_EQUAL:
      return depthTestD32x4Avx2<_CMP_GE_OQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
    default: return depthTestD32x4Avx2<_CMP_TRUE_UQ>(base, rowPitch, bx, by, sampleZ, covered, write, passed);
  }
}

namespace {
const DepthTestD32x4 kDepthTestD32x4 = blockDepthTestD32VectorAvailable() ? blockDepthTestD32x4Vector
                                       : blockDepthTestD32Avx2Available() ? blockDepthTestD32x4Avx2
                                                                          : blockDepthTestD32x4Portable;
}  // namespace

uint32_t blockDepthTestD32x4(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                             const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed) {
  return kDepthTestD32x4(base, rowPitch, bx, by, sampleZ, covered, op, write, passed);
}

}  // namespace tessera::raster
