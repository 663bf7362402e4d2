#include "tessera/cpu_info.h"

#include <unistd.h>

#include <sched.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>

namespace tessera {
namespace {

std::string readFirstLine(const char* path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpuModelName() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown CPU";
}

CpuInfo detect() {
  CpuInfo info;
  __builtin_cpu_init();
  info.sse41 = __builtin_cpu_supports("sse4.1");
  info.avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  info.avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  // TESSERA_NO_VBMI: as if the host had AVX-512 without VBMI (Skylake-X's), so that hosts with
  // it test the code that such hosts run (tests/unit/*/CMakeLists.txt).
  const char* noVbmi = std::getenv("TESSERA_NO_VBMI");
  info.avx512vbmi = info.avx512 && __builtin_cpu_supports("avx512vbmi") && !(noVbmi && *noVbmi && *noVbmi != '0');
  info.simdWidth = info.avx512 ? 16 : info.avx2 ? 8 : 4;
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 > 0) info.l2CacheBytes = uint64_t(l2);
  info.modelName = cpuModelName();
  return info;
}

}  // namespace

const CpuInfo& hostCpu() {
  static const CpuInfo info = detect();
  return info;
}

uint32_t kernelSimdWidth() {
  if (const char* env = std::getenv("TESSERA_SIMD_WIDTH")) {
    long w = std::atol(env);
    if (w == 4 || w == 8 || w == 16) return uint32_t(w);
  }
  return hostCpu().simdWidth;
}

uint32_t wideFragmentSimdWidth() {
  if (const char* env = std::getenv("TESSERA_SIMD_WIDTH")) {
    const long w = std::atol(env);
    if (w == 4 || w == 8 || w == 16) return 0;
  }
  if (const char* env = std::getenv("TESSERA_WIDE_FRAGMENTS"); env && std::string_view(env) == "0") return 0;
  const CpuInfo& cpu = hostCpu();
  return cpu.avx2 && cpu.simdWidth == 8 ? 16 : 0;
}

uint32_t wideComputeSimdWidth() {
  if (const char* env = std::getenv("TESSERA_WIDE_COMPUTE"); env && std::string_view(env) == "0") return 0;
  if (const char* env = std::getenv("TESSERA_SIMD_WIDTH")) {
    const long w = std::atol(env);
    if (w == 4 || w == 8 || w == 16) return 0;
  }
  const CpuInfo& cpu = hostCpu();
  return cpu.avx2 && cpu.simdWidth == 8 ? 16 : 0;
}

uint32_t cpuCountFromQuota(long quotaMicros, long periodMicros) {
  if (quotaMicros <= 0 || periodMicros <= 0) return 0;
  return static_cast<uint32_t>(std::max(1.0, std::ceil(double(quotaMicros) / double(periodMicros))));
}

uint32_t cpuCountFromCgroupV2(const std::string& cpuMax) {
  std::istringstream in(cpuMax);
  std::string quota;
  long period = 0;
  if (!(in >> quota >> period) || quota == "max") return 0;
  return cpuCountFromQuota(std::atol(quota.c_str()), period);
}

uint32_t usableCpuCount() {
  if (const char* env = std::getenv("TESSERA_THREADS")) {
    long n = std::atol(env);
    if (n > 0) return static_cast<uint32_t>(std::min(n, 1024L));
  }
  uint32_t count = 1;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) count = std::max(1, CPU_COUNT(&set));
  uint32_t quota = cpuCountFromCgroupV2(readFirstLine("/sys/fs/cgroup/cpu.max"));
  if (!quota) {
    std::string q = readFirstLine("/sys/fs/cgroup/cpu/cpu.cfs_quota_us");
    std::string p = readFirstLine("/sys/fs/cgroup/cpu/cpu.cfs_period_us");
    if (!q.empty() && !p.empty()) quota = cpuCountFromQuota(std::atol(q.c_str()), std::atol(p.c_str()));
  }
  if (quota) count = std::min(count, quota);
  return count;
}

}  // namespace tessera
