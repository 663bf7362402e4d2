// Atomics on storage buffers and workgroup memory under heavy contention, at W = 4, 8, 16:
// totals against C++, returned old values checked to be the permutation the operation implies.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "compute_harness.h"

namespace tessera_test {
namespace {

uint32_t hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

struct Totals {
  uint32_t add, umin, umax, andBits, orBits, xorBits, xchg, cas;
  int32_t smin, smax;
  uint32_t compacted, hist[16];
};

// Sorted values must be exactly first, first + 1, ..., first + count - 1.
void expectPermutation(std::vector<uint32_t> v, uint32_t first, const char* what, uint32_t w) {
  std::sort(v.begin(), v.end());
  for (size_t k = 0; k < v.size(); ++k)
    ASSERT_EQ(v[k], first + k) << what << " old values are not a permutation, W=" << w;
}

TEST(Atomics, StorageBufferAtomicsUnderContention) {
  const uint32_t n = 128 * 20 - 37;  // a partial last workgroup
  Totals init{};
  init.umin = 0xffffffffu;
  init.andBits = 0xffffffffu;
  init.xchg = 0;
  std::vector<Totals> t0{init};
  ComputeRun run;
  run.shader = "atomics_buffer";
  run.groups[0] = (n + 127) / 128;
  run.pushConstants = pushBytes(n);
  auto results = runAtEveryWidth(run, {bytesOf(t0), zeros<uint32_t>(4 * n), std::vector<uint8_t>(4 * n, 0xFF)});
  ASSERT_EQ(results.size(), 3u);
  Totals want = init;
  std::vector<uint32_t> keptWant;
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t h = hash(i);
    want.add += 1;
    want.umin = std::min(want.umin, h | 1u);
    want.umax = std::max(want.umax, h & 0xfffffff0u);
    want.andBits &= ~(1u << (i % 31));
    want.orBits |= 1u << (i % 29);
    want.xorBits ^= h;
    want.cas += 1;
    want.smin = std::min(want.smin, int32_t(h) >> 3);
    want.smax = std::max(want.smax, int32_t(h) >> 3);
    want.hist[h % 16] += 1;
    if ((h & 3) == 0) keptWant.push_back(i);
  }
  want.compacted = uint32_t(keptWant.size());
  for (size_t w = 0; w < results.size(); ++w) {
    const uint32_t W = kSimdWidths[w];
    Totals got = valuesOf<Totals>(results[w][0])[0];
    EXPECT_EQ(got.add, want.add) << W;
    EXPECT_EQ(got.umin, want.umin) << W;
    EXPECT_EQ(got.umax, want.umax) << W;
    EXPECT_EQ(got.andBits, want.andBits) << W;
    EXPECT_EQ(got.orBits, want.orBits) << W;
    EXPECT_EQ(got.xorBits, want.xorBits) << W;
    EXPECT_EQ(got.cas, want.cas) << W;
    EXPECT_EQ(got.smin, want.smin) << W;
    EXPECT_EQ(got.smax, want.smax) << W;
    EXPECT_EQ(got.compacted, want.compacted) << W;
    for (int k = 0; k < 16; ++k) EXPECT_EQ(got.hist[k], want.hist[k]) << W << " bucket " << k;
    auto olds = valuesOf<uint32_t>(results[w][1]);
    std::vector<uint32_t> adds, xchgs, cass;
    std::vector<uint32_t> slots;
    for (uint32_t i = 0; i < n; ++i) {
      adds.push_back(olds[4 * i]);
      xchgs.push_back(olds[4 * i + 1]);
      cass.push_back(olds[4 * i + 2]);
      const bool kept = (hash(i) & 3) == 0;
      if (kept) slots.push_back(olds[4 * i + 3]);
      else EXPECT_EQ(olds[4 * i + 3], 0xffffffffu) << W << " invocation " << i;
    }
    expectPermutation(adds, 0, "atomicAdd", W);
    expectPermutation(cass, 0, "atomicCompSwap", W);
    // Exchange: the old values and the final value together are 0, 1, ..., n.
    xchgs.push_back(got.xchg);
    expectPermutation(xchgs, 0, "atomicExchange", W);
    expectPermutation(slots, 0, "compaction slot", W);
    // Compaction: each kept invocation appears exactly once, at the slot it was given.
    auto kept = valuesOf<uint32_t>(results[w][2]);
    std::vector<uint32_t> keptGot(kept.begin(), kept.begin() + keptWant.size());
    std::sort(keptGot.begin(), keptGot.end());
    EXPECT_EQ(keptGot, keptWant) << W;
    for (size_t k = keptWant.size(); k < kept.size(); ++k) ASSERT_EQ(kept[k], 0xffffffffu) << W << " slot " << k;
  }
}

TEST(Atomics, WorkgroupMemoryAtomicsAcrossManyBatches) {
  const uint32_t groups = 3, size = 1024;
  ComputeRun run;
  run.shader = "atomics_shared";
  run.groups[0] = groups;
  auto results = runAtEveryWidth(run, {zeros<uint32_t>(20 * groups), zeros<uint32_t>(3 * size * groups)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    const uint32_t W = kSimdWidths[w];
    auto o = valuesOf<uint32_t>(results[w][0]);
    auto olds = valuesOf<uint32_t>(results[w][1]);
    for (uint32_t g = 0; g < groups; ++g) {
      uint32_t add = 0, mn = 0xffffffffu, mx = 0, andBits = 0xffffffffu, orBits = 0, xorBits = 0;
      int32_t smin = 0;
      uint32_t hist[8] = {};
      for (uint32_t l = 0; l < size; ++l) {
        uint32_t v = (l * 2654435761u) ^ (g * 40503u);
        add += l + 1;
        mn = std::min(mn, v);
        mx = std::max(mx, v);
        andBits &= ~(1u << (l % 32)) | (g & 1);
        orBits |= 1u << ((l + g) % 32);
        xorBits ^= v;
        smin = std::min(smin, -int32_t(v % 1000));
        hist[v % 8]++;
      }
      const uint32_t* r = &o[20 * g];
      EXPECT_EQ(r[0], add) << W << " group " << g;
      EXPECT_EQ(r[1], mn) << W << " group " << g;
      EXPECT_EQ(r[2], mx) << W << " group " << g;
      EXPECT_EQ(r[3], andBits) << W << " group " << g;
      EXPECT_EQ(r[4], orBits) << W << " group " << g;
      EXPECT_EQ(r[5], xorBits) << W << " group " << g;
      EXPECT_EQ(r[7], size) << W << " group " << g;
      EXPECT_EQ(int32_t(r[8]), smin) << W << " group " << g;
      for (int k = 0; k < 8; ++k) EXPECT_EQ(r[9 + k], hist[k]) << W << " group " << g << " bucket " << k;
      // atomicAdd(l + 1): sorted by old value, each invocation's old value is the sum of the
      // increments before it; check the old values are distinct partial sums ending below add.
      std::vector<std::pair<uint32_t, uint32_t>> byOld;  // (old, increment)
      std::vector<uint32_t> xchgs, cass;
      for (uint32_t l = 0; l < size; ++l) {
        const uint32_t* e = &olds[3 * (g * size + l)];
        byOld.push_back({e[0], l + 1});
        xchgs.push_back(e[1]);
        cass.push_back(e[2]);
      }
      std::sort(byOld.begin(), byOld.end());
      uint32_t running = 0;
      for (auto& [old, inc] : byOld) {
        ASSERT_EQ(old, running) << "W=" << W << " group " << g << ": atomicAdd old values do not chain";
        running += inc;
      }
      xchgs.push_back(r[6]);
      expectPermutation(xchgs, 0, "shared atomicExchange", W);
      expectPermutation(cass, 0, "shared atomicCompSwap", W);
    }
  }
}

TEST(Atomics, Int64FloatLoadStoreAndZeroInitializedShared) {
  struct Totals {
    uint64_t sum64, max64;
    float fsum;
    uint32_t flag;
    uint64_t cas64;
  };
  static_assert(sizeof(Totals) == 32);
  const uint32_t groups = 5, n = groups * 128;
  ComputeRun run;
  run.shader = "atomics_ext";
  run.groups[0] = groups;
  std::vector<Totals> t0{{0, 0, 0.0f, 0, 0}};
  auto results = runAtEveryWidth(run, {bytesOf(t0), zeros<uint64_t>(2 * n)});
  ASSERT_EQ(results.size(), 3u);
  uint64_t sum = 0, mx = 0;
  for (uint64_t i = 0; i < n; ++i) sum += (i << 33) + 1, mx = std::max(mx, (i << 33) ^ 0x5555);
  uint64_t sharedSum = 0;
  for (uint64_t l = 0; l < 128; ++l) sharedSum += l * 3;
  for (size_t w = 0; w < results.size(); ++w) {
    const uint32_t W = kSimdWidths[w];
    Totals t = valuesOf<Totals>(results[w][0])[0];
    EXPECT_EQ(t.sum64, sum) << W;
    EXPECT_EQ(t.max64, mx) << W;
    EXPECT_EQ(t.fsum, 0.5f * float(n)) << W;
    EXPECT_EQ(t.flag, 7u) << W;
    EXPECT_EQ(t.cas64, uint64_t(n) << 40) << W;
    auto o = valuesOf<uint64_t>(results[w][1]);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_EQ(o[2 * i], 7000u) << "W=" << W << " invocation " << i << ": shared array not zeroed or atomicLoad wrong";
      ASSERT_EQ(o[2 * i + 1], i % 128 == 0 ? sharedSum * 10 + 32 : 0) << "W=" << W << " invocation " << i;
    }
  }
}

// VK_EXT_shader_atomic_float: buffer and shared float atomics of both widths. Sums of
// multiples of 0.5 are exact, so any lost update shows; each exchange returns the value
// another invocation wrote, so returned values plus the final one are a permutation of all.
TEST(Atomics, FloatAddExchangeLoadStoreOnBuffersAndShared) {
  struct Totals {
    float f32sum, f32swap;
    double f64sum, f64swap;
  };
  static_assert(sizeof(Totals) == 24);
  const uint32_t groups = 6, n = groups * 64;
  ComputeRun run;
  run.shader = "atomics_float";
  run.groups[0] = groups;
  std::vector<Totals> t0{{0.0f, 0.0f, 0.0, 0.0}};
  auto results = runAtEveryWidth(run, {bytesOf(t0), zeros<float>(n), zeros<double>(n), zeros<double>(2 * groups)});
  ASSERT_EQ(results.size(), 3u);
  for (size_t w = 0; w < results.size(); ++w) {
    const uint32_t W = kSimdWidths[w];
    Totals t = valuesOf<Totals>(results[w][0])[0];
    EXPECT_EQ(t.f32sum, 0.5f * float(n)) << W;
    EXPECT_EQ(t.f64sum, 0.25 * double(n)) << W;
    std::vector<float> seen32 = valuesOf<float>(results[w][1]);
    seen32.push_back(t.f32swap);
    std::sort(seen32.begin(), seen32.end());
    std::vector<double> seen64 = valuesOf<double>(results[w][2]);
    seen64.push_back(t.f64swap);
    std::sort(seen64.begin(), seen64.end());
    for (uint32_t k = 0; k <= n; ++k) {
      ASSERT_EQ(seen32[k], float(k)) << "W=" << W << ": 32-bit exchange lost or duplicated a value";
      ASSERT_EQ(seen64[k], 0.5 * double(k)) << "W=" << W << ": 64-bit exchange lost or duplicated a value";
    }
    auto g = valuesOf<double>(results[w][3]);
    for (uint32_t k = 0; k < groups; ++k) {
      EXPECT_EQ(g[2 * k], 1.5 * 64) << "W=" << W << " group " << k;
      EXPECT_EQ(g[2 * k + 1], 2.0 * 64) << "W=" << W << " group " << k;
    }
  }
}

// VK_EXT_shader_atomic_float2 (SPV_EXT_shader_atomic_float_min_max): atomic minimum and
// maximum of 32- and 64-bit floats in a buffer and in workgroup memory. The final values are
// the extremes of every value offered (C++ computes them); every value an invocation got back
// is one the location held (the initial value or a value offered, never beyond the final
// extreme), and exactly one invocation found the initial value.
TEST(Atomics, FloatMinMaxOnBuffersAndShared) {
  struct Totals {
    float min32, max32;
    double min64, max64;
  };
  static_assert(sizeof(Totals) == 24);
  const uint32_t groups = 5, n = groups * 64;
  std::vector<float> values(n);
  for (uint32_t i = 0; i < n; ++i) values[i] = (float(hash(i) % 20001u) - 10000.0f) * 0.125f;  // exact in float and x3 in double
  ComputeRun run;
  run.shader = "atomics_float_minmax";
  run.groups[0] = groups;
  std::vector<Totals> t0{{1e30f, -1e30f, 1e300, -1e300}};
  auto results = runAtEveryWidth(run, {bytesOf(t0), bytesOf(values), zeros<float>(2 * n), zeros<double>(2 * n),
                                       zeros<float>(2 * groups), zeros<double>(2 * groups)});
  ASSERT_EQ(results.size(), 3u);
  const float lo = *std::min_element(values.begin(), values.end()), hi = *std::max_element(values.begin(), values.end());
  for (size_t w = 0; w < results.size(); ++w) {
    const uint32_t W = kSimdWidths[w];
    const Totals t = valuesOf<Totals>(results[w][0])[0];
    EXPECT_EQ(t.min32, lo) << W;
    EXPECT_EQ(t.max32, hi) << W;
    EXPECT_EQ(t.min64, double(lo) * 3.0) << W;
    EXPECT_EQ(t.max64, double(hi) * 3.0) << W;
    const std::vector<float> old32 = valuesOf<float>(results[w][2]);
    const std::vector<double> old64 = valuesOf<double>(results[w][3]);
    std::vector<float> offered = values;
    std::sort(offered.begin(), offered.end());
    auto wasOffered = [&](float v) { return std::binary_search(offered.begin(), offered.end(), v); };
    uint32_t minUnchanged = 0;  // invocations whose min found the initial value: exactly one
    for (uint32_t i = 0; i < n; ++i) {
      const float oldMin = old32[2 * i], oldMax = old32[2 * i + 1];
      ASSERT_TRUE(oldMin == 1e30f || wasOffered(oldMin)) << "W=" << W << " invocation " << i << " min returned " << oldMin;
      ASSERT_TRUE(oldMax == -1e30f || wasOffered(oldMax)) << "W=" << W << " invocation " << i << " max returned " << oldMax;
      ASSERT_GE(oldMin, lo) << W;
      ASSERT_LE(oldMax, hi) << W;
      minUnchanged += oldMin == 1e30f;
      ASSERT_TRUE(old64[2 * i] == 1e300 || wasOffered(float(old64[2 * i] / 3.0))) << "W=" << W << " invocation " << i;
      ASSERT_TRUE(old64[2 * i + 1] == -1e300 || wasOffered(float(old64[2 * i + 1] / 3.0))) << "W=" << W << " invocation " << i;
    }
    EXPECT_EQ(minUnchanged, 1u) << "W=" << W << ": exactly one invocation finds the initial value";
    const std::vector<float> g32 = valuesOf<float>(results[w][4]);
    const std::vector<double> g64 = valuesOf<double>(results[w][5]);
    for (uint32_t g = 0; g < groups; ++g) {
      const auto first = values.begin() + 64 * g, last = first + 64;
      const float gLo = *std::min_element(first, last), gHi = *std::max_element(first, last);
      EXPECT_EQ(g32[2 * g], gLo) << "W=" << W << " group " << g;
      EXPECT_EQ(g32[2 * g + 1], gHi) << "W=" << W << " group " << g;
      EXPECT_EQ(g64[2 * g], double(gLo) * 3.0) << "W=" << W << " group " << g;
      EXPECT_EQ(g64[2 * g + 1], double(gHi) * 3.0) << "W=" << W << " group " << g;
    }
  }
}

}  // namespace
}  // namespace tessera_test
