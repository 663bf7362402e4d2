// Subgroup operations (a subgroup is one SIMD batch of W lanes) against a C++ model of the
// spec's definitions, at every W, with all lanes active and in divergent control flow.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>

#include "compute_harness.h"

namespace tessera_test {
namespace {

// SPV_KHR_subgroup_rotate: lane l reads lane (l - l % C) + (l % C + delta) % C with C the
// cluster size (4 here) or the subgroup size, for constant and dynamically uniform deltas.
TEST(Subgroups, RotateAndClusteredRotateMatchTheExtensionsDefinition) {
  const uint32_t n = 128;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 2654435761u) % 1000 + 11;
  for (uint32_t w : kSimdWidths) {
    auto inb = bytesOf(in);
    std::vector<uint8_t> outb(n * 4 * 4, 0);
    ComputeRun run{"subgroup_rotate", w, {n / 64, 1, 1}, {&inb, &outb}};
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto out = valuesOf<uint32_t>(outb);
    const uint32_t d = in[0] % 7;
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t lane = i % w, first = i - lane;
      auto rotated = [&](uint32_t delta, uint32_t cluster) {
        return in[first + (lane - lane % cluster) + (lane % cluster + delta) % cluster];
      };
      SCOPED_TRACE("W=" + std::to_string(w) + " invocation " + std::to_string(i));
      EXPECT_EQ(out[4 * i], rotated(3, w));
      EXPECT_EQ(out[4 * i + 1], rotated(5, 4));
      EXPECT_EQ(out[4 * i + 2], rotated(d, w));
      EXPECT_EQ(out[4 * i + 3], w);
      if (::testing::Test::HasFailure()) return;
    }
  }
}

TEST(Subgroups, EveryOperationClassMatchesTheSpecModel) {
  const uint32_t n = 128;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 2654435761u) % 1000 + 1;
  for (uint32_t w : kSimdWidths) {
    auto inb = bytesOf(in);
    std::vector<uint8_t> outb(n * 16 * 4, 0);
    ComputeRun run{"subgroup_ops", w, {n / 64, 1, 1}, {&inb, &outb}};
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto out = valuesOf<uint32_t>(outb);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t lane = i % w, first = i - lane;
      auto sg = [&](uint32_t l) { return in[first + l]; };
      uint32_t sum = 0, incMax = 0, excSum = 0, ballot = 0, cluster = 0;
      for (uint32_t l = 0; l < w; ++l) {
        sum += sg(l);
        if (l <= lane) incMax = std::max(incMax, sg(l));
        if (l < lane) excSum += sg(l);
        if (sg(l) % 2 == 1) ballot |= 1u << l;
        if (l / 4 == lane / 4) cluster += sg(l);
      }
      bool allEqual = true;
      for (uint32_t l = 0; l < w; ++l) allEqual &= sg(l) / 1000 == sg(0) / 1000;
      const uint32_t* o = &out[i * 16];
      SCOPED_TRACE("W=" + std::to_string(w) + " invocation " + std::to_string(i));
      EXPECT_EQ(o[0], w);
      EXPECT_EQ(o[1], lane);
      EXPECT_EQ(o[2], sum);
      EXPECT_EQ(o[3], incMax);
      EXPECT_EQ(o[4], excSum);
      EXPECT_EQ(o[5], ballot);
      EXPECT_EQ(o[6], sg((lane + 3) % w));
      EXPECT_EQ(o[7], sg(lane ^ 1));
      EXPECT_EQ(o[8], cluster);
      EXPECT_EQ(o[9], sg(lane ^ 3));
      EXPECT_EQ(o[10], sg(0));
      EXPECT_EQ(o[11], allEqual ? 1u : 0u);
      // Divergent part: active lanes are those with id % 3 != 0 (or == 0 in the else branch).
      bool inIf = lane % 3 != 0;
      uint32_t activeSum = 0, activeCount = 0, firstActive = UINT_MAX, activeMin = UINT_MAX, excMin = UINT_MAX;
      bool anyBig = false, allSmall = true;
      for (uint32_t l = 0; l < w; ++l) {
        if ((l % 3 != 0) != inIf) continue;
        activeSum += sg(l);
        ++activeCount;
        firstActive = std::min(firstActive, l);
        activeMin = std::min(activeMin, sg(l));
        if (l < lane) excMin = std::min(excMin, sg(l));
        anyBig |= sg(l) > 1000000u;
        allSmall &= sg(l) < 1000000u;
      }
      if (inIf) {
        EXPECT_EQ(o[12], activeSum);
        EXPECT_EQ(o[13], activeCount);
        EXPECT_EQ(o[14], lane == firstActive ? 1u : 0u);
        EXPECT_EQ(o[15], activeMin);
      } else {
        EXPECT_EQ(o[12], 0xdeadu);
        EXPECT_EQ(o[13], anyBig ? 1u : 2u);
        EXPECT_EQ(o[14], allSmall ? 1u : 0u);
        EXPECT_EQ(o[15], excMin);
      }
      if (::testing::Test::HasFailure()) return;
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

TEST(Subgroups, BallotQueriesCountOnlyTheSubgroupsBitsAndAcceptPerLaneValues) {
  for (uint32_t w : kSimdWidths) {
    std::vector<uint8_t> outb(64 * 16, 0);
    ComputeRun run{"subgroup_ballot_bits", w, {1, 1, 1}, {&outb}};
    auto r = runShader(run);
    ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
    auto out = valuesOf<uint32_t>(outb);
    for (uint32_t i = 0; i < 64; ++i) {
      const uint32_t lane = i % w;
      SCOPED_TRACE("W=" + std::to_string(w) + " invocation " + std::to_string(i));
      EXPECT_EQ(out[i * 4 + 0], w - 1);       // the subgroup's highest bit, not bit 127
      EXPECT_EQ(out[i * 4 + 1], lane);        // per-lane value; bit 64 is outside the subgroup
      EXPECT_EQ(out[i * 4 + 2], lane + 1);    // LeMask has lane + 1 bits
      EXPECT_EQ(out[i * 4 + 3], lane);        // bits below this lane in Eq|Lt: lane of them
    }
  }
}

// tests/shaders/subgroup_uniform_control_flow.comp (VK_KHR_shader_subgroup_uniform_control_flow,
// SPV_KHR_subgroup_uniform_control_flow): after an if/else, a loop with data-dependent trips and
// a break, and a switch, and after an if/else inside a branch only some subgroups take, each
// invocation back in subgroup-uniform control flow sees its whole subgroup in a ballot, and subgroupElect picks one invocation, the lowest (SPIR-V
// OpGroupNonUniformElect: "the active invocation with the lowest id"); the divergent paths' own
// results are checked too, against the same arithmetic here, optimized and not.
TEST(Subgroups, UniformControlFlowAfterDivergenceSeesTheWholeSubgroup) {
  const uint32_t n = 256;
  std::vector<uint32_t> in(n);
  for (uint32_t i = 0; i < n; ++i) in[i] = (i * 2654435761u) >> 7;
  for (bool optimize : {true, false})
    for (uint32_t w : kSimdWidths) {
      auto inb = bytesOf(in);
      std::vector<uint8_t> outb(n * 32, 0xEE);
      ComputeRun run{"subgroup_uniform_control_flow", w, {n / 64, 1, 1}, {&inb, &outb}};
      run.optimize = optimize;
      auto r = runShader(run);
      ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
      auto out = valuesOf<uint32_t>(outb);
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t x = in[i];
        x = x % 3 == 0 ? x * 7 + 1 : x ^ 0x55u;
        for (uint32_t k = 0; k < x % 5; ++k) {
          if ((x >> k & 1) == 1) break;
          x += k * 3;
        }
        switch (x % 4) {
          case 0: x += 11; break;
          case 1: x *= 3; break;
          case 2: x -= 1; break;
          default: break;
        }
        SCOPED_TRACE("W=" + std::to_string(w) + " optimize=" + std::to_string(optimize) + " invocation " + std::to_string(i));
        for (uint32_t k = 0; k < 3; ++k) ASSERT_EQ(out[8 * i + k], w) << "ballot after construct " << k;
        ASSERT_EQ(out[8 * i + 3], (i % w == 0 ? 1u : 0u) + 2 * (x & 1));
        const bool even = (i / 64) % 2 == 0;
        ASSERT_EQ(out[8 * i + 4], even ? w : 0xFFFFu) << "ballot in a subgroup-uniform branch";
        ASSERT_EQ(out[8 * i + 5], !even ? 0xEEEEEEEEu : (x & 2) ? x + 5 : x ^ 9u);
      }
    }
}

}  // namespace
}  // namespace tessera_test
