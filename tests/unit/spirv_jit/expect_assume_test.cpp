// SPV_KHR_expect_assume (VK_KHR_shader_expect_assume): OpExpectKHR's result is its Value
// operand whatever the expected value, for scalars and vectors; OpAssumeTrueKHR changes nothing
// when its condition holds (the extension leaves a false condition undefined). At every W.
#include <gtest/gtest.h>

#include "compute_harness.h"

namespace tessera_test {
namespace {

TEST(ExpectAssume, ExpectIsItsValueAndAHoldingAssumptionChangesNothing) {
  const uint32_t n = 128;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 2654435761u) % 100000 + 3;  // >= 3: the assumption holds
  for (uint32_t w : kSimdWidths) {
    auto inb = bytesOf(in);
    std::vector<uint8_t> outb(n * 2 * 4, 0);
    ComputeRun run{"expect_assume", w, {n / 64, 1, 1}, {&inb, &outb}};
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto out = valuesOf<uint32_t>(outb);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(out[2 * i], in[i]) << "W=" << w << " invocation " << i;
      EXPECT_EQ(out[2 * i + 1], in[i] + 1) << "W=" << w << " invocation " << i;
    }
  }
}

}  // namespace
}  // namespace tessera_test
