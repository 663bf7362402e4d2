// The block walker's single-sample centre test (block_edges.h). GCC vectorized the portable
// loop, but gathered its 16 comparison results into a mask through a horizontal OR of shifted
// lanes: a fifth of blockCoverage's time on small triangles. The AVX-512 version compares 8
// int64 lanes at a time straight into mask registers.
#include "block_edges.h"

#include <immintrin.h>

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

namespace {
const bool kVector = centreLanesVectorAvailable();
}  // namespace

uint32_t centreLanes(const BlockEdges& e, const int64_t base[3]) {
  return kVector ? centreLanesVector(e, base) : centreLanesPortable(e, base);
}

}  // namespace tessera::raster
