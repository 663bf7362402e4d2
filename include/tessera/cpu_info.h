// Facts about the host CPU and the CPUs this process may use.
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

struct CpuInfo {
  bool sse41 = false;
  bool avx2 = false;     // with FMA and F16C
  bool avx512 = false;   // F, BW, DQ, VL
  bool avx512vbmi = false;  // with avx512: byte permutes across a whole vector (VPERMB, VPERMT2B)
  uint32_t simdWidth = 4;  // 32-bit lanes per kernel call: 16 (AVX-512), 8 (AVX2), 4 (floor)
  uint64_t l2CacheBytes = 1 << 20;  // per core, as the C library reports it (1 MiB if it does not)
  std::string modelName;
};

const CpuInfo& hostCpu();

// The SIMD width kernels are compiled for: TESSERA_SIMD_WIDTH (4, 8 or 16; read each time, so
// a test can create devices of several widths in one process), else hostCpu().simdWidth.
// Results must not depend on it; a width beyond the host's vectors is legal, just slower.
uint32_t kernelSimdWidth();
// The width texturing or arithmetic-heavy fragment kernels may be compiled for where they
// cannot see their subgroup (icd/shader_stage.cpp fragmentStageSimdWidth says which, and what
// was measured): 16 on AVX2 hosts without AVX-512 at the default width; 0 (none) where
// TESSERA_SIMD_WIDTH forces every stage's width, where TESSERA_WIDE_FRAGMENTS=0, or elsewhere.
uint32_t wideFragmentSimdWidth();
// The same for compute stages (icd/shader_stage.h computeStageSimdWidth says which):
// TESSERA_WIDE_COMPUTE=0 turns it off.
uint32_t wideComputeSimdWidth();

// The number of CPUs this process may actually use: the affinity mask, further capped by a
// cgroup CPU quota (v2 cpu.max or v1 cfs_quota_us), overridden by TESSERA_THREADS.
uint32_t usableCpuCount();

// Parse helpers exposed for unit tests. cpu.max holds "max 100000" or "<quota> <period>";
// returns 0 when there is no limit.
uint32_t cpuCountFromCgroupV2(const std::string& cpuMax);
uint32_t cpuCountFromQuota(long quotaMicros, long periodMicros);

}  // namespace tessera
