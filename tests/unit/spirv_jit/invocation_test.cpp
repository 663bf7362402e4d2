// Per-invocation state: compute built-ins over 3-D workgroups and dispatches, and Function /
// Private memory (lane-interleaved in the JIT) with lane-varying indices. At W = 4, 8, 16.
#include <gtest/gtest.h>

#include "compute_harness.h"

namespace tessera_test {
namespace {

TEST(Invocation, BuiltInsOfA3DWorkgroupAndDispatch) {
  const uint32_t nx = 2, ny = 3, nz = 2, size = 105;
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "builtins_3d";
    run.optimize = optimize;
    run.groups[0] = nx, run.groups[1] = ny, run.groups[2] = nz;
    auto results = runAtEveryWidth(run, {zeros<uint32_t>(nx * ny * nz * size * 16)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<uint32_t>(results[w][0]);
      for (uint32_t gz = 0; gz < nz; ++gz)
        for (uint32_t gy = 0; gy < ny; ++gy)
          for (uint32_t gx = 0; gx < nx; ++gx)
            for (uint32_t l = 0; l < size; ++l) {
              const uint32_t group = gx + nx * (gy + ny * gz);
              const uint32_t lx = l % 3, ly = (l / 3) % 5, lz = l / 15;
              const uint32_t want[16] = {lx, ly, lz, l, gx, gy, gz, group, gx * 3 + lx, gy * 5 + ly, gz * 7 + lz, 0,
                                         nx * 100 + ny * 10 + nz, 3, 5, 7};
              const uint32_t* got = &o[(group * size + l) * 16];
              for (int k = 0; k < 16; ++k)
                ASSERT_EQ(got[k], want[k]) << "W=" << kSimdWidths[w] << " optimize=" << optimize << " group " << group
                                           << " invocation " << l << " field " << k;
            }
    }
  }
}

TEST(Invocation, FunctionAndPrivateArraysAtVaryingIndices) {
  const uint32_t n = 500;
  Rng rng(5);
  std::vector<int32_t> in(n);
  for (int32_t& x : in) x = rng.range(0, 100000);
  const int table[8] = {3, 1, 4, 1, 5, 9, 2, 6};
  std::vector<int32_t> expected;
  for (int32_t x : in) {
    int arr[16];
    for (int k = 0; k < 16; ++k) arr[k] = k * x;
    arr[x & 15] = -1;
    arr[(x >> 4) & 15] += 1000;
    int counter = 6;
    bool flags[10];
    for (int k = 0; k < 10; ++k) flags[k] = ((x >> k) & 1) != 0;
    flags[(x >> 2) % 10] = !flags[(x >> 2) % 10];
    int flagBits = 0;
    for (int k = 0; k < 10; ++k) flagBits |= flags[k] ? 1 << k : 0;
    float vs[4][3];
    for (int k = 0; k < 4; ++k) vs[k][0] = float(k), vs[k][1] = float(2 * k), vs[k][2] = float(3 * k);
    vs[x & 3][(x >> 2) % 3] = 100.0f;
    int sa[3];
    float sb[3][3];
    for (int k = 0; k < 3; ++k) sa[k] = k, sb[k][0] = 1, sb[k][1] = 2, sb[k][2] = 3;
    sb[x % 3][(x >> 3) % 3] = -7.0f;
    sa[(x >> 1) % 3] += 10;
    float vsum = 0, ssum = 0;
    for (int k = 0; k < 4; ++k) vsum += vs[k][0] + vs[k][1] * 10.0f + vs[k][2] * 100.0f;
    for (int k = 0; k < 3; ++k) ssum += float(sa[k]) + sb[k][0] + sb[k][1] * 10.0f + sb[k][2] * 100.0f;
    expected.insert(expected.end(), {arr[(x >> 4) & 15] + arr[(x >> 8) & 15] * 3, flagBits, int(vsum), int(ssum),
                                     table[x & 7] + table[(x >> 3) & 7] * 10 + counter * 100});
  }
  for (std::string shader : {"local_arrays", "local_arrays_spvopt"})  // also after spirv-opt -O
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = shader;
    run.groups[0] = (n + 31) / 32;
    run.pushConstants = pushBytes(n);
    run.optimize = optimize;
    auto results = runAtEveryWidth(run, {bytesOf(in), zeros<int32_t>(6 * n)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<int32_t>(results[w][1]);
      for (uint32_t i = 0; i < n; ++i)
        for (int k = 0; k < 5; ++k)
          ASSERT_EQ(o[6 * i + k], expected[5 * i + k])
              << "W=" << kSimdWidths[w] << " optimize=" << optimize << " x=" << in[i] << " output " << k;
    }
  }
}

// Per-invocation memory is W lane copies on a batch's stack: arrays of megabytes must get a
// big enough stack (fibers when barriers need them, or when a thread stack would not do).
TEST(Invocation, PerInvocationArraysLargerThanAStack) {
  struct Case {
    uint32_t n, workgroup;
    bool barrier;
  };
  for (Case c : {Case{70000, 64, true}, Case{300000, 16, false}}) {
    ComputeRun run;
    run.shader = "big_private";
    run.groups[0] = 2;
    run.specialization = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
    run.specializationData = pushBytes(c.n, uint32_t(c.barrier), c.workgroup);
    auto results = runAtEveryWidth(run, {zeros<uint32_t>(2 * c.workgroup)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<uint32_t>(results[w][0]);
      for (uint32_t i = 0; i < 2 * c.workgroup; ++i) {
        const uint32_t l = i % c.workgroup;
        uint32_t sum = 0;
        for (uint32_t k = 0; k < c.n; k += 7) sum += ((k * 13 + l) % c.n) * (l + 1);
        ASSERT_EQ(o[i], sum) << "N=" << c.n << " W=" << kSimdWidths[w] << " invocation " << i;
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
