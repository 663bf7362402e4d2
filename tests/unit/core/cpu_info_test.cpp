#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "tessera/cpu_info.h"

namespace {

TEST(CpuInfo, SimdWidthFollowsInstructionSets) {
  const auto& cpu = tessera::hostCpu();
  EXPECT_EQ(cpu.simdWidth, cpu.avx512 ? 16u : cpu.avx2 ? 8u : 4u);
  EXPECT_FALSE(cpu.modelName.empty());
}

TEST(CpuInfo, CgroupV2QuotaParsing) {
  EXPECT_EQ(tessera::cpuCountFromCgroupV2("max 100000"), 0u);          // no limit
  EXPECT_EQ(tessera::cpuCountFromCgroupV2("200000 100000"), 2u);       // two CPUs
  EXPECT_EQ(tessera::cpuCountFromCgroupV2("150000 100000"), 2u);       // 1.5 rounds up
  EXPECT_EQ(tessera::cpuCountFromCgroupV2("50000 100000"), 1u);        // never below one
  EXPECT_EQ(tessera::cpuCountFromCgroupV2(""), 0u);
  EXPECT_EQ(tessera::cpuCountFromQuota(-1, 100000), 0u);               // v1 "unlimited"
}

TEST(CpuInfo, EnvironmentOverridesThreadCount) {
  setenv("TESSERA_THREADS", "3", 1);
  EXPECT_EQ(tessera::usableCpuCount(), 3u);
  unsetenv("TESSERA_THREADS");
  const uint32_t n = tessera::usableCpuCount();
  EXPECT_GE(n, 1u);
  EXPECT_LE(n, std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
