// The watchdog's half in the JIT (shader_abi.h, BoundResources::cancel): a kernel leaves every
// loop that may run long at its next back-edge once the cancel word is set, and runCompute
// takes no further workgroups. The shader (hang.comp) loops until v[0] == 12345, counting
// rounds in v[1].
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "compute_harness.h"

namespace tessera_test {
namespace {

ComputeRun hangRun(uint32_t simdWidth, uint32_t groups, std::vector<uint8_t>* buffer, const char* shader = "hang") {
  ComputeRun run;
  run.shader = shader;
  run.simdWidth = simdWidth;
  run.groups[0] = groups;
  run.buffers = {buffer};
  return run;
}

// hang_around_short_loop.comp: the never-ending loop holds a loop of 16 rounds, which loses its
// poll (spirv_jit/cancel_polls.h); the outer one keeps it.
class CancelLoop : public testing::TestWithParam<const char*> {};

TEST_P(CancelLoop, ALoopThatWouldNeverEndStopsWhenTheWordIsSetWhileItRuns) {
  for (uint32_t w : kSimdWidths) {
    std::vector<uint8_t> buffer = zeros<uint32_t>(18);
    volatile uint32_t cancelWord = 0;
    ComputeRun run = hangRun(w, 4, &buffer, GetParam());
    run.cancel = &cancelWord;
    std::thread watchdog([&] {
      // Wait until the loop has really gone round (so the test checks the back-edge, not the
      // dispatch loop), then cancel.
      const auto* rounds = reinterpret_cast<const std::atomic<uint32_t>*>(buffer.data() + 4);
      while (rounds->load() < 1000) std::this_thread::yield();
      __atomic_store_n(&cancelWord, 1u, __ATOMIC_RELAXED);  // as Device::lose: atomically
    });
    const auto start = std::chrono::steady_clock::now();
    const auto result = runShader(run);
    watchdog.join();
    ASSERT_EQ(result.status, tessera::jit::CompileStatus::Success) << result.message;
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10)) << "W=" << w;
    EXPECT_GE(valuesOf<uint32_t>(buffer)[1], 1000u);
  }
}

INSTANTIATE_TEST_SUITE_P(Shaders, CancelLoop, testing::Values("hang", "hang_around_short_loop"));

TEST(Cancel, AWordSetBeforeTheDispatchRunsNoWorkgroup) {
  for (uint32_t w : kSimdWidths) {
    std::vector<uint8_t> buffer = zeros<uint32_t>(2);
    volatile uint32_t cancelWord = 1;
    ComputeRun run = hangRun(w, 1000, &buffer);
    run.cancel = &cancelWord;
    const auto result = runShader(run);
    ASSERT_EQ(result.status, tessera::jit::CompileStatus::Success) << result.message;
    EXPECT_EQ(valuesOf<uint32_t>(buffer)[1], 0u) << "W=" << w << ": a cancelled dispatch ran workgroups";
  }
}

TEST(Cancel, AClearWordLeavesTheLoopToItsOwnCondition) {
  // The same shader with its exit condition met ends by itself and writes nothing more; a
  // kernel whose word stays 0 (or is null) behaves as without the watchdog.
  for (uint32_t w : kSimdWidths) {
    for (bool withWord : {false, true}) {
      std::vector<uint8_t> buffer = bytesOf(std::vector<uint32_t>{12345u, 7u});
      volatile uint32_t cancelWord = 0;
      ComputeRun run = hangRun(w, 3, &buffer);
      if (withWord) run.cancel = &cancelWord;
      const auto result = runShader(run);
      ASSERT_EQ(result.status, tessera::jit::CompileStatus::Success) << result.message;
      EXPECT_EQ(valuesOf<uint32_t>(buffer)[1], 7u);
    }
  }
}

}  // namespace
}  // namespace tessera_test
