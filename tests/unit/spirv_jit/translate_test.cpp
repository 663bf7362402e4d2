// The JIT against C++ references, at every SIMD width (tests/shaders/ corpus).
#include <gtest/gtest.h>

#include "compute_harness.h"

namespace tessera_test {
namespace {

using tessera::jit::CompileStatus;

TEST(Compute, SaxpyMatchesReferenceAtEveryWidth) {
  const uint32_t n = 1000;  // not a multiple of the workgroup size: tail lanes must stay off
  std::vector<float> x(n), y(n + 8);
  for (uint32_t i = 0; i < n; ++i) x[i] = float(i) * 0.5f, y[i] = 1.0f + float(i);
  for (uint32_t i = n; i < n + 8; ++i) y[i] = -7.0f;  // past n: must be left alone
  for (uint32_t w : kSimdWidths) {
    auto xb = bytesOf(x), yb = bytesOf(y);
    ComputeRun run{"saxpy", w, {(n + 63) / 64, 1, 1}, {&xb, &yb}, pushBytes(2.0f, n)};
    auto r = runShader(run);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    auto out = valuesOf<float>(yb);
    for (uint32_t i = 0; i < n + 8; ++i) {
      float expect = i < n ? 2.0f * x[i] + y[i] : -7.0f;
      ASSERT_EQ(out[i], expect) << "W=" << w << " i=" << i;
    }
  }
}

}  // namespace
}  // namespace tessera_test
