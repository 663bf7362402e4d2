// The block walker's single-sample centre test (block_edges.h). GCC vectorized the portable
// loop, but gathered its 16 comparison results into a mask through a horizontal OR of shifted
// lanes: a fifth of blockCoverage's time on small triangles. The AVX-512 version compares 8
// int64 lanes at a time straight into mask registers; the AVX2 one 4 lanes at a time into
// fail masks gathered by VMOVMSKPD (hosts without AVX-512).
#include "block_edges.h"

#include <immintrin.h>

#include <cstring>

#include "tessera/cpu_info.h"

namespace tessera::raster {

// Compiled for AVX2 as well (chosen at load time): hosts without AVX-512 run this loop.
__attribute__((target_clones("default", "arch=x86-64-v3"))) uint32_t centreLanesPortable(const BlockEdges& e,
                                                                                         const int64_t base[3]) {
  uint32_t bits = 0;
  for (int l = 0; l < kBlockLanes; ++l)
    bits |= (uint32_t(base[0] + e.laneOffset[0][l] >= e.threshold[0]) & uint32_t(base[1] + e.laneOffset[1][l] >= e.threshold[1]) &
             uint32_t(base[2] + e.laneOffset[2][l] >= e.threshold[2]))
            << l;
  return bits;
}

bool centreLanesVectorAvailable() { return hostCpu().avx512; }

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) uint32_t centreLanesVector(const BlockEdges& e,
                                                                                         const int64_t base[3]) {
  // base + offset >= threshold  <=>  offset >= threshold - base: edge values of pixels inside
  // the guard band are far from int64's limits, so neither side wraps.
  __mmask8 low = 0xFF, high = 0xFF;
  for (int k = 0; k < 3; ++k) {
    const __m512i bound = _mm512_set1_epi64(e.threshold[k] - base[k]);
    low &= _mm512_cmpge_epi64_mask(_mm512_loadu_si512(&e.laneOffset[k][0]), bound);
    high &= _mm512_cmpge_epi64_mask(_mm512_loadu_si512(&e.laneOffset[k][8]), bound);
  }
  return uint32_t(low) | uint32_t(high) << 8;
}

bool centreLanesAvx2Available() { return hostCpu().avx2; }

__attribute__((target("avx2"))) uint32_t centreLanesAvx2(const BlockEdges& e, const int64_t base[3]) {
  // A lane fails an edge where threshold - base > offset (as above, nothing wraps); four lanes
  // per comparison, their fails ORed over the edges and gathered by VMOVMSKPD.
  __m256i bound[3];
  for (int k = 0; k < 3; ++k) bound[k] = _mm256_set1_epi64x(e.threshold[k] - base[k]);
  uint32_t fails = 0;
  for (int q = 0; q < 4; ++q) {
    __m256i fail = _mm256_setzero_si256();
    for (int k = 0; k < 3; ++k)
      fail = _mm256_or_si256(fail, _mm256_cmpgt_epi64(bound[k], _mm256_loadu_si256(
                                                                     reinterpret_cast<const __m256i*>(&e.laneOffset[k][4 * q]))));
    fails |= uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(fail))) << 4 * q;
  }
  return ~fails & 0xFFFFu;
}

// As explicit vectors (with a loop over constant tables GCC folded the table into sixteen
// scalar stores an edge).
__attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4"))) void smallLaneOffsets(BlockEdges& e) {
  typedef int32_t Lanes __attribute__((vector_size(4 * kBlockLanes)));
  constexpr Lanes kX = {laneX(0), laneX(1), laneX(2),  laneX(3),  laneX(4),  laneX(5),  laneX(6),  laneX(7),
                        laneX(8), laneX(9), laneX(10), laneX(11), laneX(12), laneX(13), laneX(14), laneX(15)};
  constexpr Lanes kY = {laneY(0), laneY(1), laneY(2),  laneY(3),  laneY(4),  laneY(5),  laneY(6),  laneY(7),
                        laneY(8), laneY(9), laneY(10), laneY(11), laneY(12), laneY(13), laneY(14), laneY(15)};
  for (int k = 0; k < 3; ++k) {
    const Lanes offsets = kX * int32_t(e.stepX[k]) + kY * int32_t(e.stepY[k]);
    std::memcpy(e.laneOffset32[k], &offsets, sizeof offsets);
  }
}

// The 32-bit tests (BlockEdges::small): threshold - base and every offset lie far inside int32,
// so offset >= threshold - base compares what base + offset >= threshold does.
uint32_t centreLanes32Portable(const BlockEdges& e, const int64_t base[3]) {
  uint32_t bits = 0xFFFFu;
  for (int k = 0; k < 3; ++k) {
    const int32_t bound = int32_t(e.threshold[k] - base[k]);
    uint32_t in = 0;
    for (int l = 0; l < kBlockLanes; ++l) in |= uint32_t(e.laneOffset32[k][l] >= bound) << l;
    bits &= in;
  }
  return bits;
}

__attribute__((target("avx512f,avx512dq,avx512bw,avx512vl"))) uint32_t centreLanes32Vector(const BlockEdges& e,
                                                                                           const int64_t base[3]) {
  __mmask16 in = 0xFFFF;
  for (int k = 0; k < 3; ++k)
    in &= _mm512_cmpge_epi32_mask(_mm512_loadu_si512(&e.laneOffset32[k][0]),
                                  _mm512_set1_epi32(int32_t(e.threshold[k] - base[k])));
  return in;
}

__attribute__((target("avx2"))) uint32_t centreLanes32Avx2(const BlockEdges& e, const int64_t base[3]) {
  // A lane fails an edge where threshold - base > offset; eight lanes per comparison, the fails
  // ORed over the edges and gathered by VMOVMSKPS.
  __m256i bound[3];
  for (int k = 0; k < 3; ++k) bound[k] = _mm256_set1_epi32(int32_t(e.threshold[k] - base[k]));
  uint32_t fails = 0;
  for (int h = 0; h < 2; ++h) {
    __m256i fail = _mm256_setzero_si256();
    for (int k = 0; k < 3; ++k)
      fail = _mm256_or_si256(fail, _mm256_cmpgt_epi32(bound[k], _mm256_loadu_si256(
                                                                    reinterpret_cast<const __m256i*>(&e.laneOffset32[k][8 * h]))));
    fails |= uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(fail))) << 8 * h;
  }
  return ~fails & 0xFFFFu;
}

namespace {
const bool kVector = centreLanesVectorAvailable();
const bool kAvx2 = centreLanesAvx2Available();
}  // namespace

uint32_t centreLanes(const BlockEdges& e, const int64_t base[3]) {
  if (kVector) return centreLanesVector(e, base);
  return kAvx2 ? centreLanesAvx2(e, base) : centreLanesPortable(e, base);
}

uint32_t centreLanes32(const BlockEdges& e, const int64_t base[3]) {
  if (kVector) return centreLanes32Vector(e, base);
  return kAvx2 ? centreLanes32Avx2(e, base) : centreLanes32Portable(e, base);
}

// GCC's vectorization of this loop (as part of blockCoverage, AVX2 clone) cost about 1,200
// instructions a partly covered 4-sample block, three quarters of blockCoverage on msaa4_tris:
// sampleLanesAvx2 is the same test in about 150.
void sampleLanesPortable(const BlockEdges& e, const int64_t base[3], uint32_t samples[kBlockLanes]) {
  for (int l = 0; l < kBlockLanes; ++l) {
    uint32_t bits = 0;
    for (uint32_t smp = 0; smp < e.samples; ++smp) {
      bool in = true;
      for (int k = 0; k < 3; ++k) in = in && base[k] + e.laneOffset[k][l] + e.sampleOffset[k][smp] >= e.threshold[k];
      bits |= uint32_t(in) << smp;
    }
    samples[l] = bits;
  }
}

namespace {

// sampleLanesAvx2 for kCount samples (a constant, so that its loops unroll and the bounds stay
// in registers or fold into the comparisons as memory operands).
template <uint32_t kCount>
__attribute__((target("avx2"), always_inline)) inline void sampleLanesAvx2Of(const BlockEdges& e, const int64_t base[3],
                                                                             uint32_t samples[kBlockLanes]) {
  // As centreLanesAvx2: a lane fails edge k at sample s where
  // threshold - base - sampleOffset > laneOffset (nothing wraps inside the guard band). Per group
  // of four lanes, the samples' bits are shifted in from the highest, a sample's bit being
  // fail + 1 (fail is 0 or -1) in 64-bit lanes; then the low halves are packed into the four
  // 32-bit results.
  __m256i bound[kCount][3];
  for (uint32_t smp = 0; smp < kCount; ++smp)
    for (int k = 0; k < 3; ++k) bound[smp][k] = _mm256_set1_epi64x(e.threshold[k] - base[k] - e.sampleOffset[k][smp]);
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i lowHalves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
  for (int q = 0; q < 4; ++q) {
    __m256i offset[3];
    for (int k = 0; k < 3; ++k) offset[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(&e.laneOffset[k][4 * q]));
    __m256i bits = _mm256_setzero_si256();
    for (uint32_t n = kCount; n-- > 0;) {
      const __m256i fail = _mm256_or_si256(_mm256_or_si256(_mm256_cmpgt_epi64(bound[n][0], offset[0]),
                                                           _mm256_cmpgt_epi64(bound[n][1], offset[1])),
                                           _mm256_cmpgt_epi64(bound[n][2], offset[2]));
      bits = _mm256_add_epi64(_mm256_add_epi64(bits, bits), _mm256_add_epi64(fail, one));
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(&samples[4 * q]),
                     _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(bits, lowHalves)));
  }
}

}  // namespace

__attribute__((target("avx2"))) void sampleLanesAvx2(const BlockEdges& e, const int64_t base[3],
                                                     uint32_t samples[kBlockLanes]) {
  switch (e.samples) {
    case 4: sampleLanesAvx2Of<4>(e, base, samples); break;  // the block walker's one multisample count
    default: sampleLanesPortable(e, base, samples); break;
  }
}

void sampleLanes(const BlockEdges& e, const int64_t base[3], uint32_t samples[kBlockLanes]) {
  if (kAvx2) sampleLanesAvx2(e, base, samples);
  else sampleLanesPortable(e, base, samples);
}

}  // namespace tessera::raster
