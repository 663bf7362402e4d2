// Specialization constants through ComputeRun::specialization (VkSpecializationInfo's map):
// the workgroup size (local_size_x_id, local_size_y_id), int, bool, float and double constants,
// a derived constant (OpSpecConstantOp) and a shared array sized by one; defaults when not
// specialized. At W = 4, 8, 16, with and without the SPIR-V optimizer.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "compute_harness.h"

namespace tessera_test {
namespace {

struct SpecValues {
  uint32_t sizeX, sizeY;
  int32_t scale;
  bool flip;
  float bias;
  uint32_t arrayLen;
  double dbl;
};

void checkSpecConsts(const SpecValues& v, const ComputeRun& base) {
  const uint32_t groups = 3, size = v.sizeX * v.sizeY;
  for (bool optimize : {true, false}) {
    ComputeRun run = base;
    run.shader = "spec_consts";
    run.groups[0] = groups;
    run.optimize = optimize;
    auto results = runAtEveryWidth(run, {zeros<float>(groups * size * 8 + 1)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      auto o = valuesOf<float>(results[w][0]);
      for (uint32_t g = 0; g < groups; ++g)
        for (uint32_t l = 0; l < size; ++l) {
          const uint32_t lx = l % v.sizeX, ly = l / v.sizeX;
          const float want[8] = {float(v.sizeX),
                                 float(v.sizeY),
                                 float(lx + 100 * ly),
                                 float(int32_t(l) * v.scale + v.scale * 3 + 1),
                                 v.flip ? -v.bias : v.bias,
                                 float((l % v.arrayLen) * 10) + float(v.arrayLen) * 1000.0f,
                                 float(v.dbl * 3.0),
                                 float(g * v.sizeX + lx)};
          for (int k = 0; k < 8; ++k)
            ASSERT_EQ(o[(g * size + l) * 8 + k], want[k])
                << "W=" << kSimdWidths[w] << " optimize=" << optimize << " group " << g << " invocation " << l << " output " << k;
        }
      EXPECT_EQ(o.back(), 0.0f) << "an invocation past the workgroup size wrote";
    }
  }
}

TEST(Specialization, DefaultsWhenNotSpecialized) {
  checkSpecConsts({1, 1, 1, false, 0.5f, 4, 1.0}, ComputeRun{});
}

TEST(Specialization, WorkgroupSizeScalarsAndArraySizes) {
  // A 5 x 3 workgroup: 15 invocations, not a multiple of any SIMD width.
  SpecValues v{5, 3, -2, true, 0.25f, 7, 2.5};
  ComputeRun run;
  run.specializationData = pushBytes(v.sizeX, v.sizeY, v.scale, uint32_t(1) /* VkBool32 */, v.bias, v.arrayLen, v.dbl);
  run.specialization = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}, {3, 12, 4}, {4, 16, 4}, {5, 20, 4}, {6, 24, 8}};
  checkSpecConsts(v, run);
}

TEST(Specialization, EntriesOutsideTheDataKeepTheirDefaults) {
  // Only the x size is given; the others point past the data (invalid usage) and are ignored.
  SpecValues v{9, 1, 1, false, 0.5f, 4, 1.0};
  ComputeRun run;
  run.specializationData = pushBytes(uint32_t(9));
  run.specialization = {{0, 0, 4}, {2, 4, 4}, {6, 0, 16}};
  checkSpecConsts(v, run);
}

TEST(Specialization, SixtyFourAndSixteenBitConstantExpressions) {
  for (int64_t x : {int64_t(-4), INT64_MIN}) {
    const int32_t y = 3;
    const int16_t z = -7;
    for (bool optimize : {true, false}) {
      ComputeRun run;
      run.shader = "spec_consts_wide";
      run.optimize = optimize;
      run.specializationData = pushBytes(x, y, z);
      run.specialization = {{0, 0, 8}, {1, 8, 4}, {2, 12, 2}};
      auto results = runAtEveryWidth(run, {zeros<int64_t>(8 * 8)});
      ASSERT_EQ(results.size(), 3u) << "x=" << x;
      const int64_t a = int64_t(uint64_t(x) * 3 + 7), b = a >> 1, d = a > 10 ? a : b;
      const int64_t want[8] = {a, b, d, int64_t(int32_t(uint32_t(x) + uint32_t(y))), int64_t(int16_t(z * 3)),
                               int64_t(uint64_t(y) << 33), int64_t(uint64_t(x) / 3), int64_t(0 - uint64_t(x))};
      for (size_t w = 0; w < results.size(); ++w) {
        auto o = valuesOf<int64_t>(results[w][0]);
        for (int i = 0; i < 8; ++i)
          for (int k = 0; k < 8; ++k)
            ASSERT_EQ(o[8 * i + k], want[k]) << "x=" << x << " optimize=" << optimize << " W=" << kSimdWidths[w] << " output " << k;
      }
    }
  }
}

// 16-bit vector specialization-constant operations (spec_op_vectors.spvasm), which neither
// SPIRV-Tools nor the module parser folds: the translator evaluates them. Expected values are
// the arithmetic modulo 2^16 done here; defaults and a specialization that wraps.
TEST(Specialization, VectorOperationsOnSixteenBitConstantsAreEvaluated) {
  struct Case {
    bool specialize;
    uint16_t a, b, c;
  };
  for (Case k : {Case{false, 7, 9, 100}, Case{true, 1000, 65000, 600}}) {
    for (bool optimize : {true, false}) {
      ComputeRun run;
      run.shader = "spec_op_vectors";
      run.optimize = optimize;
      if (k.specialize) {
        run.specializationData = {uint8_t(k.a), uint8_t(k.a >> 8), uint8_t(k.b), uint8_t(k.b >> 8), uint8_t(k.c),
                                  uint8_t(k.c >> 8)};
        run.specialization = {{0, 0, 2}, {1, 2, 2}, {2, 4, 2}};
      }
      auto results = runAtEveryWidth(run, {zeros<uint32_t>(3)});
      ASSERT_EQ(results.size(), 3u);
      const uint16_t sumX = uint16_t(k.a + k.b), sumY = uint16_t(k.b + k.c);
      for (size_t w = 0; w < results.size(); ++w) {
        auto o = valuesOf<uint32_t>(results[w][0]);
        const auto at = ::testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " a=" << k.a;
        EXPECT_EQ(o[0], k.b) << at;
        EXPECT_EQ(o[1], sumX) << at;
        EXPECT_EQ(o[2], sumY) << at;
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// OpSpecConstantOp QuantizeToF16 of specialized floats ("OpQuantizeToF16": an infinity stays
// that infinity, a NaN a NaN, a magnitude too large for a half becomes an infinity, one too
// small for a normal half a zero, the rest rounds to a half's precision), folded by the driver
// (spirv_jit/quantize_fold.cpp): SPIRV-Tools 2023.1's folder crashed the process on the
// infinities and NaNs and kept denormals. The seventh constant keeps its default, 0.1.
TEST(Specialization, QuantizeToF16OfSpecializationConstants) {
  const float inf = std::numeric_limits<float>::infinity();
  const float values[6] = {inf, -std::numeric_limits<float>::quiet_NaN(), 70000.0f, -1.0e-6f, 1.0f + 1.0f / 2048.0f + 1.0e-6f,
                           65519.0f};
  const float want[7] = {inf, 0.0f /* NaN, checked below */, inf, -0.0f, 1.0f + 1.0f / 1024.0f, 65504.0f,
                         0.0999755859375f /* 0.1 rounded to a half */};
  for (bool optimize : {true, false}) {
    ComputeRun run;
    run.shader = "spec_constant_quantize";
    run.optimize = optimize;
    run.specializationData = pushBytes(values[0], values[1], values[2], values[3], values[4], values[5]);
    for (uint32_t id = 0; id < 6; ++id) run.specialization.push_back({id, 4 * id, 4});
    auto results = runAtEveryWidth(run, {zeros<float>(7)});
    ASSERT_EQ(results.size(), 3u);
    for (size_t w = 0; w < results.size(); ++w) {
      const auto o = valuesOf<float>(results[w][0]);
      for (int k = 0; k < 7; ++k) {
        SCOPED_TRACE(testing::Message() << "W=" << kSimdWidths[w] << " optimize=" << optimize << " constant " << k);
        if (k == 1) {
          EXPECT_TRUE(std::isnan(o[k]));
          continue;
        }
        EXPECT_EQ(o[k], want[k]);
        EXPECT_EQ(std::signbit(o[k]), std::signbit(want[k]));
      }
    }
  }
}

}  // namespace
}  // namespace tessera_test
