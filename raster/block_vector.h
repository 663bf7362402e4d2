// What the block walker's whole-block tests (block_depth.cpp, block_stencil.cpp) share: the
// order of a 4x4 block's lanes against its rows, and the AVX-512 and AVX2 operations that move
// masks and values between the two orders and compare depths. Internal to the raster module.
#pragma once

#include <vulkan/vulkan_core.h>

#include <immintrin.h>

#include <cstdint>

namespace tessera::raster::block_vector {

// Block lane of pixel p of row r (draw_blocks.cpp: laneX, laneY). It swaps two bits of the
// index, so it is its own inverse on 0..15.
constexpr int laneOf(int r, int p) { return 8 * (r >> 1) + 4 * (p >> 1) + 2 * (r & 1) + (p & 1); }

#define TESSERA_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))

// Row-order element i = 4 r + p takes lane laneOf(r, p) (and, laneOf being its own inverse,
// lane l takes row-order element laneOf of its bits: the same table).
TESSERA_AVX512 inline __m512i laneToRowIndex() {
  return _mm512_setr_epi32(laneOf(0, 0), laneOf(0, 1), laneOf(0, 2), laneOf(0, 3), laneOf(1, 0), laneOf(1, 1),
                           laneOf(1, 2), laneOf(1, 3), laneOf(2, 0), laneOf(2, 1), laneOf(2, 2), laneOf(2, 3),
                           laneOf(3, 0), laneOf(3, 1), laneOf(3, 2), laneOf(3, 3));
}

// A 16-bit mask permuted as _mm512_permutexvar_epi32 permutes elements: bit i of the result
// is bit from[i] of `bits` (between lane order and row order, where bit 4 r + p is pixel p
// of row r).
TESSERA_AVX512 inline __mmask16 permuteBits(__mmask16 bits, __m512i from) {
  const __m512i permuted = _mm512_permutexvar_epi32(from, _mm512_maskz_set1_epi32(bits, 1));
  return _mm512_test_epi32_mask(permuted, permuted);
}

// The elements of `depth` among `covered` that pass `op` against `stored`: the predicates of
// C++'s <, ==, <=, >, !=, >= on floats (ordered, except != on NaN), as stencil_rules.h's
// compare.
TESSERA_AVX512 inline __mmask16 passMask(VkCompareOp op, __mmask16 covered, __m512 depth, __m512 stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_LT_OQ);
    case VK_COMPARE_OP_EQUAL: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_EQ_OQ);
    case VK_COMPARE_OP_LESS_OR_EQUAL: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_LE_OQ);
    case VK_COMPARE_OP_GREATER: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_GT_OQ);
    case VK_COMPARE_OP_NOT_EQUAL: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_NEQ_UQ);
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return _mm512_mask_cmp_ps_mask(covered, depth, stored, _CMP_GE_OQ);
    default: return covered;  // ALWAYS
  }
}

// The four rows of a block's D32 texels (row r's pixels at rows[r], 4 bytes each) as one
// vector in row order; only `covered` pixels are read (masked loads neither read nor fault on
// the others).
TESSERA_AVX512 inline __m512 loadRowsD32(uint8_t* const* rows, __mmask16 covered) {
  __m512 v = _mm512_castps128_ps512(_mm_maskz_loadu_ps(__mmask8(covered & 0xF), rows[0]));
  v = _mm512_insertf32x4(v, _mm_maskz_loadu_ps(__mmask8(covered >> 4 & 0xF), rows[1]), 1);
  v = _mm512_insertf32x4(v, _mm_maskz_loadu_ps(__mmask8(covered >> 8 & 0xF), rows[2]), 2);
  return _mm512_insertf32x4(v, _mm_maskz_loadu_ps(__mmask8(covered >> 12 & 0xF), rows[3]), 3);
}

// Stores the row-order elements of `v` selected by `mask` to their rows.
TESSERA_AVX512 inline void storeRowsD32(uint8_t* const* rows, __mmask16 mask, __m512 v) {
  _mm_mask_storeu_ps(rows[0], __mmask8(mask & 0xF), _mm512_castps512_ps128(v));
  _mm_mask_storeu_ps(rows[1], __mmask8(mask >> 4 & 0xF), _mm512_extractf32x4_ps(v, 1));
  _mm_mask_storeu_ps(rows[2], __mmask8(mask >> 8 & 0xF), _mm512_extractf32x4_ps(v, 2));
  _mm_mask_storeu_ps(rows[3], __mmask8(mask >> 12 & 0xF), _mm512_extractf32x4_ps(v, 3));
}

// ---- AVX2 (hosts without AVX-512) ----

// Lane order <-> row order within each 8-lane half (rows 0-1, rows 2-3): row r's pixels are
// lanes laneOf(r, 0..3), so half-row bits 2-3 and 4-5 trade places (its own inverse).
inline uint32_t swapLaneRowBits(uint32_t bits) { return (bits & 0xC3C3u) | (bits & 0x0C0Cu) << 2 | (bits >> 2 & 0x0C0Cu); }

// The sign-bit masks of a row's 4 pixels, for VMASKMOVPS.
struct RowMasks {
  alignas(16) int32_t mask[16][4];
  constexpr RowMasks() : mask() {
    for (int bits = 0; bits < 16; ++bits)
      for (int p = 0; p < 4; ++p) mask[bits][p] = bits >> p & 1 ? -1 : 0;
  }
};
inline constexpr RowMasks kRowMasks;

__attribute__((target("avx2"))) inline __m128i rowMask(uint32_t bits) {
  return _mm_load_si128(reinterpret_cast<const __m128i*>(kRowMasks.mask[bits & 0xF]));
}

// Stores the 4-byte elements of `value` selected by `pass` (bits 0-3) to the block row at `row`.
// A row whose four pixels are covered (`wholeRow`) lies in the drawing thread's tile, coverage
// being clipped to it, so it is stored whole with `stored` (the row as just read) in the other
// elements: one plain store, where a VMASKMOVD store takes about seven cycles on AMD Zen 3.
// Otherwise a masked store writes only the passing pixels.
__attribute__((target("avx2"))) inline void storeRow32(void* row, bool wholeRow, uint32_t pass, __m128i stored,
                                                      __m128i value) {
  const __m128i mask = rowMask(pass);
  if (wholeRow) _mm_storeu_si128(static_cast<__m128i*>(row), _mm_blendv_epi8(stored, value, mask));
  else _mm_maskstore_epi32(static_cast<int*>(row), mask, value);
}

// Eight lanes in row order: lanes (0, 1, 4, 5 | 2, 3, 6, 7) of a half are its two rows, its
// 64-bit elements 0, 2, 1, 3.
__attribute__((target("avx2"))) inline __m256 rowOrder(const float* lanes) {
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(_mm256_loadu_ps(lanes)), 0xD8));
}

}  // namespace tessera::raster::block_vector
