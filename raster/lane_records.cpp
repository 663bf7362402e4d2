// storeLaneQuads (lane_records.h). With AVX-512 and W = 16 (AVX2 and W = 8) the four rows are transposed in
// registers (two rounds of unpacks leave lane 4 b + k's four words in 128-bit block b of
// vector k) and each lane's record gets one 16-byte store, instead of four scalar loads and
// stores: the vertex stage's record writes were a quarter of the CTS's point-cloud vertex
// shader cases.
#include "lane_records.h"

#include <immintrin.h>

#include <cstring>

#include "tessera/cpu_info.h"

namespace tessera::raster {
namespace {

#define TESSERA_AVX512 __attribute__((target("avx512f,avx512vl,avx512bw,avx512dq")))

TESSERA_AVX512 void storeLaneQuads16(const void* rows, uint32_t count, uint32_t* records, size_t stride, size_t offset) {
  const auto* words = static_cast<const uint32_t*>(rows);
  const __m512i r0 = _mm512_loadu_si512(words), r1 = _mm512_loadu_si512(words + 16);
  const __m512i r2 = _mm512_loadu_si512(words + 32), r3 = _mm512_loadu_si512(words + 48);
  // Per 128-bit block b (lanes 4b..4b+3): t0 = r0[4b], r1[4b], r0[4b+1], r1[4b+1] ...
  const __m512i t0 = _mm512_unpacklo_epi32(r0, r1), t1 = _mm512_unpackhi_epi32(r0, r1);
  const __m512i t2 = _mm512_unpacklo_epi32(r2, r3), t3 = _mm512_unpackhi_epi32(r2, r3);
  // u_k's block b: lane 4b + k's components 0..3.
  const __m512i u[4] = {_mm512_unpacklo_epi64(t0, t2), _mm512_unpackhi_epi64(t0, t2), _mm512_unpacklo_epi64(t1, t3),
                        _mm512_unpackhi_epi64(t1, t3)};
  uint32_t* at = records + offset;
  if (count == 16) {  // a whole batch (all but a draw's last): stores straight from the registers
    for (int k = 0; k < 4; ++k) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + k * stride), _mm512_castsi512_si128(u[k]));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + (4 + k) * stride), _mm512_extracti32x4_epi32(u[k], 1));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + (8 + k) * stride), _mm512_extracti32x4_epi32(u[k], 2));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + (12 + k) * stride), _mm512_extracti32x4_epi32(u[k], 3));
    }
    return;
  }
  alignas(64) uint32_t lanes[4][16];
  for (int k = 0; k < 4; ++k) _mm512_store_si512(lanes[k], u[k]);
  for (uint32_t l = 0; l < count; ++l) {
    const uint32_t b = l >> 2, k = l & 3;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at + l * stride), _mm_load_si128(reinterpret_cast<const __m128i*>(&lanes[k][4 * b])));
  }
}

// The same for W = 8 with AVX2 (hosts without AVX-512): per 128-bit half h, u_k holds lane
// 4 h + k's four words after the same two rounds of unpacks. The portable loop's four scalar
// copies a lane were a third of the vertex stage's driver instructions on tris_small.
__attribute__((target("avx2"))) void storeLaneQuads8(const void* rows, uint32_t count, uint32_t* records, size_t stride,
                                                     size_t offset) {
  const auto* words = static_cast<const uint32_t*>(rows);
  const __m256i r0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words));
  const __m256i r1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 8));
  const __m256i r2 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 16));
  const __m256i r3 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(words + 24));
  const __m256i t0 = _mm256_unpacklo_epi32(r0, r1), t1 = _mm256_unpackhi_epi32(r0, r1);
  const __m256i t2 = _mm256_unpacklo_epi32(r2, r3), t3 = _mm256_unpackhi_epi32(r2, r3);
  const __m256i u[4] = {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2), _mm256_unpacklo_epi64(t1, t3),
                        _mm256_unpackhi_epi64(t1, t3)};
  uint32_t* at = records + offset;
  if (count == 8) {  // a whole batch (all but a draw's last): stores straight from the registers
    for (int k = 0; k < 4; ++k) {
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + k * stride), _mm256_castsi256_si128(u[k]));
      _mm_storeu_si128(reinterpret_cast<__m128i*>(at + (4 + k) * stride), _mm256_extracti128_si256(u[k], 1));
    }
    return;
  }
  alignas(32) uint32_t lanes[4][8];
  for (int k = 0; k < 4; ++k) _mm256_store_si256(reinterpret_cast<__m256i*>(lanes[k]), u[k]);
  for (uint32_t l = 0; l < count; ++l) {
    const uint32_t h = l >> 2, k = l & 3;
    _mm_storeu_si128(reinterpret_cast<__m128i*>(at + l * stride), _mm_load_si128(reinterpret_cast<const __m128i*>(&lanes[k][4 * h])));
  }
}

}  // namespace

void storeLaneQuadsPortable(const void* rows, uint32_t W, uint32_t count, uint32_t* records, size_t stride, size_t offset) {
  const auto* bytes = static_cast<const uint8_t*>(rows);  // (floats or words)
  for (uint32_t l = 0; l < count; ++l)
    for (uint32_t c = 0; c < 4; ++c) std::memcpy(&records[l * stride + offset + c], bytes + 4 * (c * W + l), 4);
}

void storeLaneQuads(const void* rows, uint32_t W, uint32_t count, uint32_t* records, size_t stride, size_t offset) {
  static const bool vector = hostCpu().avx512, avx2 = hostCpu().avx2;
  if (vector && W == 16) storeLaneQuads16(rows, count, records, stride, offset);
  else if (avx2 && W == 8) storeLaneQuads8(rows, count, records, stride, offset);
  else storeLaneQuadsPortable(rows, W, count, records, stride, offset);
}

}  // namespace tessera::raster
