// Workgroup (shared) memory across many SIMD batches: reductions and prefix sums with
// barrier() in loops (workgroups of 256 and 1024 invocations), a tiled matrix multiply, and
// shared arrays of structs. At W = 4, 8, 16 against C++.
#include <gtest/gtest.h>

#include <algorithm>

#include "compute_harness.h"

namespace tessera_test {
namespace {

void checkReduction(uint32_t size) {
  const uint32_t groups = 5;
  Rng rng(size);
  std::vector<int32_t> in(size * groups);
  for (int32_t& v : in) v = rng.range(-100000, 100000);
  ComputeRun run;
  run.shader = "shared_reduce";
  run.groups[0] = groups;
  run.specialization = {{0, 0, 4}};
  run.specializationData = pushBytes(size);
  auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int32_t>(4 * groups), zeros<int32_t>(size * groups)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto totals = valuesOf<int32_t>(results[w][1]);
    auto scanned = valuesOf<int32_t>(results[w][2]);
    for (uint32_t g = 0; g < groups; ++g) {
      int32_t sum = 0, mn = INT32_MAX, mx = INT32_MIN;
      for (uint32_t l = 0; l < size; ++l) {
        int32_t x = in[g * size + l];
        sum += x;
        mn = std::min(mn, x);
        mx = std::max(mx, x);
        ASSERT_EQ(scanned[g * size + l], sum) << "size " << size << " W=" << kSimdWidths[w] << " group " << g << " element " << l;
      }
      EXPECT_EQ(totals[4 * g + 0], sum) << "size " << size << " W=" << kSimdWidths[w] << " group " << g;
      EXPECT_EQ(totals[4 * g + 1], mn) << "size " << size << " W=" << kSimdWidths[w] << " group " << g;
      EXPECT_EQ(totals[4 * g + 2], mx) << "size " << size << " W=" << kSimdWidths[w] << " group " << g;
      EXPECT_EQ(totals[4 * g + 3], sum) << "size " << size << " W=" << kSimdWidths[w] << " group " << g;
    }
  }
}

TEST(SharedMemory, ReductionAndPrefixSumOver256Invocations) { checkReduction(256); }
TEST(SharedMemory, ReductionAndPrefixSumOver1024Invocations) { checkReduction(1024); }

TEST(SharedMemory, TiledMatrixMultiply) {
  const uint32_t M = 37, K = 50, N = 29;  // not multiples of the 16x16 tile
  Rng rng(7);
  std::vector<float> a(M * K), b(K * N);
  for (float& v : a) v = float(rng.range(-4, 4));
  for (float& v : b) v = float(rng.range(-4, 4));
  ComputeRun run;
  run.shader = "shared_matmul";
  run.groups[0] = (N + 15) / 16;
  run.groups[1] = (M + 15) / 16;
  run.pushConstants = pushBytes(M, K, N);
  std::vector<float> c0(M * N + 1, -99.0f);  // one guard element
  auto results = runAtEveryWidth(run, {bytesOf(a), bytesOf(b), bytesOf(c0)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    auto c = valuesOf<float>(results[w][2]);
    for (uint32_t r = 0; r < M; ++r)
      for (uint32_t col = 0; col < N; ++col) {
        float want = 0;  // small integers: every partial sum is exact
        for (uint32_t k = 0; k < K; ++k) want += a[r * K + k] * b[k * N + col];
        ASSERT_EQ(c[r * N + col], want) << "W=" << kSimdWidths[w] << " C[" << r << "][" << col << "]";
      }
    EXPECT_EQ(c.back(), -99.0f);
  }
  expectSameAtEveryWidth(results);
}

TEST(SharedMemory, ArraysOfStructsReadAcrossBatches) {
  const uint32_t groups = 2;
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "shared_structs";
    run.groups[0] = groups;
    run.optimize = optimize;  // unoptimized: the structs also pass through Function variables
    auto results = runAtEveryWidth(run, {zeros<float>(groups * 96 * 10)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<float>(results[w][0]);
      for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t l = 0; l < 96; ++l) {
          const uint32_t q = 95 - l;
          const float* r = &o[(g * 96 + l) * 10];
          auto at = [&](int k) {
            return ::testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " group " << g
                                        << " invocation " << l << " output " << k;
          };
          EXPECT_EQ(r[0], float(q) + float(q) * 0.5f - float(q)) << at(0);
          EXPECT_EQ(r[1], float(q * 7 + g)) << at(1);
          EXPECT_EQ(r[2], q % 3 != 0 ? 1.0f : 0.0f) << at(2);
          EXPECT_EQ(r[3], 1.0f + float(q) + float(q * q)) << at(3);
          EXPECT_EQ(r[4], float((int(q) - 48) * 10 + int(q % 5))) << at(4);
          EXPECT_EQ(r[5], -1.0f) << at(5);
          EXPECT_EQ(r[6], l % 3 != 0 ? 0.0f : 1.0f) << at(6);
          EXPECT_EQ(r[7], float(l) * 0.5f) << at(7);
          EXPECT_EQ(r[8], float(int(l) - 48)) << at(8);
          EXPECT_EQ(r[9], float(l * 7 + g)) << at(9);
          if (::testing::Test::HasFailure()) return;
        }
    }
  }
}

// tests/shaders/workgroup_explicit_layout.comp (WorkgroupMemoryExplicitLayoutKHR): Block-decorated
// shared blocks alias one workgroup memory and each follows its Offset/ArrayStride decorations,
// not the translator's natural layout (std430 puts C.v at byte 16 where a packed layout would put
// it at 4). Expected values from the shader's header comment, at every W, optimized and not.
TEST(SharedMemory, ExplicitLayoutBlocksAliasAndFollowTheirOffsets) {
  const uint32_t groups = 2, n = 64 * groups;
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "workgroup_explicit_layout";
    run.groups[0] = groups;
    run.optimize = optimize;
    auto results = runAtEveryWidth(run, {zeros<uint32_t>(2 * n)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<uint32_t>(results[w][0]);
      for (uint32_t g = 0; g < n; ++g) {
        const uint32_t i = g % 64;
        const uint32_t after[8] = {7, 4, 7, 10, 8, 9, 10, 11};
        SCOPED_TRACE(::testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " invocation " << g);
        ASSERT_EQ(o[2 * g], 3 * i + 1) << "the uvec2 view of the uint words";
        ASSERT_EQ(o[2 * g + 1], i < 8 ? after[i] : 3 * i + 1) << "the words after the std430 struct's stores";
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// Barriers suspend a coroutine kernel when they are all in the entry function (here after the
// optimizer inlined the function holding them), and switch fibers when a call holds them; both
// give every invocation its partner's value at every W, with 1 and several workgroups.
TEST(SharedMemory, BarriersAsCoroutineSuspendsAndAsFiberSwitchesAgree) {
  for (bool optimize : {true, false}) {
    for (uint32_t w : kSimdWidths) {
      ComputeRun run;
      run.shader = "shared_barrier_call";
      run.simdWidth = w;
      run.optimize = optimize;
      run.buffers.resize(1);
      auto r = compileShader(run);
      ASSERT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
      EXPECT_TRUE(r.program->usesBarrier);
      EXPECT_EQ(r.program->resumable, optimize) << "W=" << w << ": the barriers are in the entry only when inlined";
      for (uint32_t groups : {1u, 3u}) {
        auto out = zeros<uint32_t>(64 * groups);
        run.buffers = {&out};
        run.groups[0] = groups;
        dispatch(*r.program, run);
        auto o = valuesOf<uint32_t>(out);
        for (uint32_t i = 0; i < 64 * groups; ++i)
          ASSERT_EQ(o[i], 3 * (i % 64) + 1 + i / 64) << "W=" << w << " optimize=" << optimize << " invocation " << i;
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
