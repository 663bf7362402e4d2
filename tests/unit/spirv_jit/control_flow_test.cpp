// Divergent control flow under lane masks: if/else chains, loops (break, continue, nested,
// lane-dependent exits), switch, function calls with early returns, temporal divergence. Every
// shader runs at W = 4, 8 and 16 against a C++ reference, with and without the SPIR-V inliner
// where calls are involved.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "compute_harness.h"

namespace tessera_test {
namespace {

// Inputs that exercise every branch: small and large, negative, zero, special cases.
std::vector<int32_t> mixedInputs(uint32_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<int32_t> v(n);
  for (uint32_t i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0: v[i] = int32_t(i % 40) - 20; break;
      case 1: v[i] = rng.range(-300, 300); break;
      case 2: v[i] = rng.range(0, 70000); break;
      case 3: v[i] = 13; break;
      default: v[i] = rng.range(-20, 60); break;
    }
  }
  return v;
}

// Runs `shader` over n inputs at every width (and both optimizer settings when asked), with
// push constants n + extra, and compares the int32 output buffer with `expected`.
void checkIntShader(const std::string& shader, const std::vector<int32_t>& in, const std::vector<int32_t>& expected,
                    std::vector<uint8_t> extraPush = {}, bool bothOptimizerSettings = false) {
  const uint32_t n = uint32_t(in.size());
  for (bool optimize : {true, false}) {
    if (!optimize && !bothOptimizerSettings) break;
    ComputeRun run;
    run.shader = shader;
    run.groups[0] = (n + 63) / 64;
    run.pushConstants = pushBytes(n);
    run.pushConstants.insert(run.pushConstants.end(), extraPush.begin(), extraPush.end());
    run.optimize = optimize;
    // One guard element past the expected output must stay untouched.
    std::vector<int32_t> out(expected.size() + 1, -12345);
    auto results = runAtEveryWidth(run, {bytesOf(in), bytesOf(out)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto got = valuesOf<int32_t>(results[w][1]);
      for (size_t k = 0; k < expected.size(); ++k)
        ASSERT_EQ(got[k], expected[k]) << shader << " W=" << kSimdWidths[w] << " optimize=" << optimize << " output " << k
                                       << " (input " << in[k * in.size() / expected.size()] << ")";
      EXPECT_EQ(got.back(), -12345) << "write past the outputs";
    }
    expectSameAtEveryWidth(results);
  }
}

TEST(ControlFlow, NestedIfElseChains) {
  auto in = mixedInputs(1000, 1);
  std::vector<int32_t> expected;
  for (int32_t x : in) {
    int r;
    float f = 0;
    if (x < 0) {
      if (x < -100) r = 1;
      else if (x < -10) r = 2, f = 0.5f;
      else r = 3;
    } else if (x == 0) {
      r = 4;
    } else if ((x & 1) == 0) {
      r = 5;
      if (x > 50) r += 10, f = 2;
    } else {
      r = 6;
      f = x > 7 ? 1.0f : -1.0f;
    }
    if (r > 4 && f > 0) r += 100;
    else if (r <= 2 || f < 0) r -= 100;
    expected.push_back(r * 1000 + x);
  }
  checkIntShader("cf_if_chain", in, expected, {}, true);
}

TEST(ControlFlow, LoopsWithBreakContinueAndLaneDependentExits) {
  auto in = mixedInputs(999, 2);
  const int32_t uniformTrips = 9;
  std::vector<int32_t> expected;
  for (int32_t x : in) {
    int s = 0;
    for (int k = 0; k < (x & 15); ++k) {
      if (k % 3 == 1) continue;
      if (k * x > 300) break;
      for (int j = 0; j < k; ++j) {
        if (j == (x & 7)) break;
        s += j;
      }
      s += k;
    }
    for (int k = 0; k < uniformTrips; ++k) {
      if (((x >> k) & 1) == 0) continue;
      s += 100 * k;
    }
    uint32_t v = uint32_t(x & 255) + 1;
    int steps = 0;
    while (v != 1) {
      v = (v & 1) ? 3 * v + 1 : v / 2;
      steps++;
    }
    int d = 0;
    do d += 7;
    while (d < (x & 63));
    expected.insert(expected.end(), {s, steps, d});
  }
  checkIntShader("cf_loops", in, expected, pushBytes(uniformTrips), true);
  checkIntShader("cf_loops_debuginfo", in, expected, pushBytes(uniformTrips), false);
  checkIntShader("cf_loops_spvopt", in, expected, pushBytes(uniformTrips), true);  // after spirv-opt -O
}

TEST(ControlFlow, ValuesFromInsideALoopUsedAfterLanesLeftAtDifferentIterations) {
  std::vector<int32_t> in(777);
  for (size_t i = 0; i < in.size(); ++i) in[i] = int32_t((i * 7) % 23);
  std::vector<int32_t> expected;
  for (int32_t limit : in) {
    uint32_t k = 0, sq, tripled;
    while (true) {
      sq = k * k + 7;
      tripled = k * 3;
      if (k >= uint32_t(limit)) break;
      k++;
    }
    uint32_t acc = 0;
    for (uint32_t outer = 0; outer < 3; ++outer) {
      uint32_t j = 0, seen;
      for (;;) {
        seen = j * 10 + outer;
        if (j >= (uint32_t(limit) + outer) % 5) break;
        j++;
      }
      acc += seen;
    }
    expected.insert(expected.end(), {int32_t(sq), int32_t(tripled), int32_t(acc)});
  }
  checkIntShader("cf_temporal", in, expected, {}, true);
}

TEST(ControlFlow, SwitchWithFallthroughDefaultAndContinue) {
  auto in = mixedInputs(1000, 3);
  std::vector<int32_t> expected;
  for (int32_t x : in) {
    int r = 0;
    switch (x & 7) {
      case 0: r += 1; [[fallthrough]];
      case 1: r += 10; break;
      case 2:
      case 3: r += 100; [[fallthrough]];
      default: r += 1000; break;
      case 5:
        r += 10000;
        if (x > 20) break;
        r += 5;
        [[fallthrough]];
      case 6: r += 100000;
    }
    int t = 0;
    for (int k = 0; k < 6; ++k) {
      switch ((x + k) & 3) {
        case 0: continue;
        case 1: t += 1; break;
        case 2:
          t += 20;
          if (x & 16) continue;
          t += 300;
          break;
        default: t += 4000;
      }
      t += 1;
    }
    expected.insert(expected.end(), {r, t});
  }
  checkIntShader("cf_switch", in, expected, {}, true);
  checkIntShader("cf_switch_spvopt", in, expected, {}, true);  // after spirv-opt -O
}

int classify(int x) {
  if (x < 0) return -1;
  for (int k = 0; k < 64; ++k)
    if (k * k > x) return k;
  return 1000;
}

void addUnlessThree(int& acc, int v) {
  if (v != 3) acc += v;
}

TEST(ControlFlow, FunctionCallsWithEarlyReturnsInlinedAndNot) {
  auto in = mixedInputs(1000, 4);
  std::vector<int32_t> expected;
  for (int32_t x : in) {
    if (x == 13) {
      expected.insert(expected.end(), {777, 777, 777, 777});
      continue;
    }
    int acc = 0;
    for (int k = 0; k < 5; ++k) addUnlessThree(acc, std::abs(x + k) % 5);
    int lo = x & 0xff, hi = x >> 8;
    if (lo > 200) std::swap(lo, hi);
    int arr[4] = {x & 7, (x >> 3) & 7, (x & 3) - 1, 5};
    int sum = 0;
    for (int v : arr) {
      if (v < 0) break;
      sum += v;
    }
    int c = classify(x);
    addUnlessThree(c, x & 3);
    expected.insert(expected.end(), {c, acc, lo * 100000 + hi, sum});
  }
  checkIntShader("cf_functions", in, expected, {}, true);
  // The same shader with debug information (non-semantic instructions inside and between blocks).
  checkIntShader("cf_functions_debuginfo", in, expected, {}, true);
}

TEST(ControlFlow, HandWrittenLoopShapesFromAssembly) {
  // cf_loop_asm.spvasm: a pointer made in the loop and used after it, header phis reading
  // each other, a two-block continue construct.
  const uint32_t n = 200;
  std::vector<uint32_t> lim(n);
  for (uint32_t i = 0; i < n; ++i) lim[i] = (i * 37) % n;  // a permutation: each out[] slot written once
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "cf_loop_asm";
    run.groups[0] = (n + 63) / 64;
    run.optimize = optimize;
    // 256 invocations: the last 56 read lim = 0 from the zero padding and all write out[0]
    // (last writer wins) and their own out2 pair.
    std::vector<uint32_t> in(256, 0);
    std::copy(lim.begin(), lim.end(), in.begin());
    auto results = runAtEveryWidth(run, {bytesOf(in), zeros<uint32_t>(256), zeros<uint32_t>(512)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto out = valuesOf<uint32_t>(results[w][1]);
      auto out2 = valuesOf<uint32_t>(results[w][2]);
      for (uint32_t i = 0; i < 256; ++i) {
        const uint32_t l = in[i];
        uint32_t acc = 1, other = 2;
        for (uint32_t k = 0; k < l; ++k) other = acc, acc *= 3;
        ASSERT_EQ(out2[2 * i], acc) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " i=" << i;
        ASSERT_EQ(out2[2 * i + 1], other) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " i=" << i;
        if (i < n && l != 0) {
          ASSERT_EQ(out[l], i + 1000) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " slot " << l;
        }
      }
      EXPECT_GE(out[0], 1000u) << "W=" << kSimdWidths[w];
    }
  }
}

// Random structured control flow (tests/shaders/random_cf, made by gen_random_cf.py): the same
// source compiled as C++ here and as GLSL in cf_random_N.comp, over a per-lane x and a
// uniform u (push constant), with helper functions taking inout parameters.
namespace random_cf {
#define FALLTHROUGH [[fallthrough]];
#define INOUT(t) t&
#include "random_cf/cf_random_0.inc"
#include "random_cf/cf_random_1.inc"
#include "random_cf/cf_random_2.inc"
#undef INOUT
#undef FALLTHROUGH
}  // namespace random_cf

TEST(ControlFlow, RandomStructuredPrograms) {
  int (*const programs[])(int, int) = {random_cf::prog0, random_cf::prog1, random_cf::prog2};
  const uint32_t n = 256;
  std::vector<int32_t> in(n);
  Rng rng(77);
  for (int32_t& x : in) x = rng.range(0, 1023);
  for (int p = 0; p < 3; ++p)
    for (bool optimize : {true, false})
      for (uint32_t w : kSimdWidths) {
        ComputeRun run;
        run.shader = "cf_random_" + std::to_string(p);
        run.simdWidth = w;
        run.optimize = optimize;
        run.buffers.resize(2);
        auto r = compileShader(run);
        ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
        for (int32_t u : {3, 700}) {
          auto inBytes = bytesOf(in);
          auto out = zeros<int32_t>(n);
          run.buffers = {&inBytes, &out};
          run.groups[0] = n / 64;
          run.pushConstants = pushBytes(n, u);
          dispatch(*r.program, run);
          auto o = valuesOf<int32_t>(out);
          for (uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(o[i], programs[p](in[i], u))
                << run.shader << " W=" << w << " optimize=" << optimize << " u=" << u << " x=" << in[i];
        }
      }
}

// tests/shaders/empty_struct_call.spvasm: "Function Calls" to a function returning an empty
// struct (OpTypeStruct with no members), its result stored to a variable (the CTS's
// empty_struct.function.* cases): the call's result is a value of no leaves, and the shader runs,
// optimized (inlined) and not (a real call).
TEST(ControlFlow, AFunctionReturningAnEmptyStructIsCalled) {
  constexpr uint32_t kN = 128;
  const Buffers initial = {bytesOf(std::vector<uint32_t>(kN, 0))};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "empty_struct_call";
    run.optimize = optimize;
    run.groups[0] = kN / 64;
    auto results = runAtEveryWidth(run, initial);
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto out = valuesOf<uint32_t>(results[w][0]);
      for (uint32_t i = 0; i < kN; ++i) ASSERT_EQ(out[i], 7u + i) << "W=" << kSimdWidths[w] << " optimize=" << optimize;
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// grid_stride.comp: a grid-stride loop's index (kept as one scalar plus the lane pattern), a
// loop index with a varying exit used after its loop (every lane keeps its own), a lane-pattern
// value used in later blocks; against C++ at every W, optimized and not, with loop counts that
// are and are not multiples of the workgroup size.
TEST(ControlFlow, GridStrideLoopsAndLoopIndicesUsedAfterTheirLoop) {
  Rng rng(19);
  std::vector<uint32_t> a(1000), lim(256);
  for (uint32_t& x : a) x = uint32_t(rng.range(0, 100000));
  for (uint32_t& x : lim) x = uint32_t(rng.range(0, 200));
  for (bool optimize : {true, false})
    for (uint32_t w : kSimdWidths) {
      ComputeRun run;
      run.shader = "grid_stride";
      run.simdWidth = w;
      run.optimize = optimize;
      run.buffers.resize(3);
      auto r = compileShader(run);
      ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
      for (auto [n, step] : {std::pair{1000u, 16u}, std::pair{37u, 5u}, std::pair{0u, 1u}, std::pair{640u, 64u}}) {
        auto in = bytesOf(a), limits = bytesOf(lim);
        auto out = zeros<uint32_t>(768);
        run.buffers = {&in, &limits, &out};
        run.groups[0] = 4;
        run.pushConstants = pushBytes(n, step);
        dispatch(*r.program, run);
        auto o = valuesOf<uint32_t>(out);
        for (uint32_t k = 0; k < 256; ++k) {
          const uint32_t l = k % 64;
          uint32_t sum = 0;
          for (uint32_t i = l; i < n; i += 64) sum += a[i] * 3 + a[i / 4];
          uint32_t j = l;
          while (j < lim[k]) j += step;
          ASSERT_EQ(o[k], sum) << "W=" << w << " optimize=" << optimize << " n=" << n << " invocation " << k;
          ASSERT_EQ(o[256 + k], j) << "W=" << w << " optimize=" << optimize << " step=" << step << " invocation " << k;
          uint32_t it = 0;
          while (l + it * 64 < lim[k] + l) ++it;
          ASSERT_EQ(o[512 + k], l + it * 64) << "W=" << w << " optimize=" << optimize << " invocation " << k;
        }
      }
    }
}

}  // namespace
}  // namespace tessera_test
