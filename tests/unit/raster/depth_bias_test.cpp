// "Depth Bias" / "Depth Bias Computation": o = dbclamp(m x slopeFactor + r x constantFactor),
// r = 2^-n for n-bit fixed-point depth, r = 2^(e - 23) for 32-bit float depth with e the
// exponent of the primitive's largest |z|; fragment depth clamped to [0, 1] after the bias.
#include <gtest/gtest.h>

#include <cmath>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

struct Biased {
  float bias;     // SetupTriangle::depthBias
  float centreZ;  // depth of the fragment at pixel (8, 8)
};

// A triangle over pixel (8, 8) of a 64x64 viewport with z_d = z0 + gx * x + gy * y (framebuffer
// x, y in pixels, viewport depth range [0, 1] so z_f = z_d).
Biased bias(VkFormat format, double z0, double gx, double gy, float constant, float slope, float clamp,
            RasterState::DepthBiasRepresentation representation = RasterState::DepthBiasRepresentation::Format) {
  RasterState s = test::fullScreenState(64, 64);
  s.depthBiasEnable = true;
  s.depthBiasRepresentation = representation;
  s.depthFormat = format;
  s.depthBiasConstantFactor = constant;
  s.depthBiasSlopeFactor = slope;
  s.depthBiasClamp = clamp;
  const double xs[3] = {0, 64, 0}, ys[3] = {0, 0, 64};
  WindowVertex v[3];
  for (int i = 0; i < 3; ++i) v[i] = {xs[i], ys[i], z0 + gx * xs[i] + gy * ys[i], 1};
  std::vector<SetupTriangle> setups;
  setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
  Biased b{NAN, NAN};
  if (setups.size() != 1) return b;
  b.bias = setups[0].depthBias;
  rasterizeTriangle(setups[0], {8, 8, 10, 10}, [&](const Quad& q) { b.centreZ = q.z[0]; });
  return b;
}

TEST(RasterDepthBias, DepthBiasComputation_ConstantFactorUnitPerFormat) {
  // Flat triangles (m = 0): o = r x constantFactor.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.5, 0, 0, 1, 0, 0).bias, 1.0f / 65536);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM_S8_UINT, 0.5, 0, 0, 3, 0, 0).bias, 3.0f / 65536);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_X8_D24_UNORM_PACK32, 0.5, 0, 0, 1, 0, 0).bias, 1.0f / 16777216);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D24_UNORM_S8_UINT, 0.5, 0, 0, -2, 0, 0).bias, -2.0f / 16777216);
  // Float: z = 0.5 = 1.0 x 2^-1 -> e = -1, r = 2^-24; z = 0.75 -> still e = -1; z = 1 -> e = 0,
  // r = 2^-23; z = 0.25 -> r = 2^-25.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.5, 0, 0, 1, 0, 0).bias, std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.75, 0, 0, 1, 0, 0).bias, std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT_S8_UINT, 1.0, 0, 0, 1, 0, 0).bias, std::ldexp(1.0f, -23));
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.25, 0, 0, 1, 0, 0).bias, std::ldexp(1.0f, -25));
  // The maximum |z| of the primitive decides: z from 0.25 to 0.25 + 64 * 0.005 = 0.57.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.25, 0.005, 0, 1, 0, 0).bias, std::ldexp(1.0f, -24));
  // No depth attachment: r is undefined; no constant bias.
  EXPECT_EQ(bias(VK_FORMAT_UNDEFINED, 0.5, 0, 0, 5, 0, 0).bias, 0.0f);
}

TEST(RasterDepthBias, DepthBiasComputation_Representations) {
  // VK_EXT_depth_bias_control, "Depth Bias Computation": FLOAT makes r = 1 (the constant factor
  // is a depth offset); FORCE_UNORM makes r the constant 2^-n, n the depth bits or, for a
  // floating-point attachment, "the number of mantissa bits plus one" (2^-24 at any z).
  using R = RasterState::DepthBiasRepresentation;
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.5, 0, 0, 0.125f, 0, 0, R::Float).bias, 0.125f);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.25, 0, 0, -0.0625f, 0, 0, R::Float).bias, -0.0625f);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D24_UNORM_S8_UINT, 0.5, 0, 0, 0.25f, 0, 0, R::Float).centreZ, 0.75f);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.5, 0, 0, 3, 0, 0, R::ForceUnorm).bias, 3.0f / 65536);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D24_UNORM_S8_UINT, 0.5, 0, 0, 1, 0, 0, R::ForceUnorm).bias, std::ldexp(1.0f, -24));
  // Float attachment: 2^-24 whatever the exponent of z (the format's r would be 2^-25 at 0.25
  // and 2^-23 at 1).
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.25, 0, 0, 1, 0, 0, R::ForceUnorm).bias, std::ldexp(1.0f, -24));
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D32_SFLOAT_S8_UINT, 1.0, 0, 0, 2, 0, 0, R::ForceUnorm).bias, std::ldexp(1.0f, -23));
  // The clamp and the slope term apply as with the format's r.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0.5f, 2, 0.1f, R::Float).bias, 0.1f);
}

TEST(RasterDepthBias, DepthBiasComputation_SlopeFactor) {
  // z = 0.25 + x/128: m = 1/128; slope factor 2 -> o = 1/64.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, 2, 0).bias, 1.0f / 64);
  // z = 0.1 + 3x/1024 + 4y/1024: m = sqrt(3^2 + 4^2)/1024 = 5/1024.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.1, 3.0 / 1024, 4.0 / 1024, 0, 1, 0).bias, 5.0f / 1024);
  // Both terms: 5/1024 * 0.5 + 2^-16 * 16.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.1, 3.0 / 1024, 4.0 / 1024, 16, 0.5f, 0).bias, 2.5f / 1024 + 16.0f / 65536);
}

TEST(RasterDepthBias, DepthBiasComputation_Clamp) {
  // o = 1/64 before clamping.
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, 2, 0.01f).bias, 0.01f);    // min(o, 0.01)
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, 2, 0.5f).bias, 1.0f / 64);  // no effect
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, 2, -0.01f).bias, 1.0f / 64);  // max(o, -0.01)
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, -2, -0.01f).bias, -0.01f);
  EXPECT_FLOAT_EQ(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, -2, 0).bias, -1.0f / 64);  // 0: unclamped
}

TEST(RasterDepthBias, DepthBias_AddedToFragmentDepthThenClampedToZeroOne) {
  // Pixel (8, 8)'s centre is (8.5, 8.5): z = 0.25 + 8.5/128, plus o = 1/64.
  EXPECT_NEAR(bias(VK_FORMAT_D16_UNORM, 0.25, 1.0 / 128, 0, 0, 2, 0).centreZ, 0.25 + 8.5 / 128 + 1.0 / 64, 1e-7);
  EXPECT_NEAR(bias(VK_FORMAT_D24_UNORM_S8_UINT, 0.5, 0, 0, 4, 0, 0).centreZ, 0.5 + 4.0 / 16777216, 1e-7);
  // Pushed beyond 1 or below 0: clamped.
  EXPECT_EQ(bias(VK_FORMAT_D16_UNORM, 0.99, 0, 0, 65536, 0, 0).centreZ, 1.0f);
  // z = 0.01 = 1.28 x 2^-7: r = 2^-30, o = -1e8 x 2^-30 = -0.093.
  EXPECT_EQ(bias(VK_FORMAT_D32_SFLOAT, 0.01, 0, 0, -1e8f, 0, 0).centreZ, 0.0f);
}

TEST(RasterDepthBias, DepthBias_DisabledMeansNoBias) {
  RasterState s = test::fullScreenState(16, 16);
  s.depthFormat = VK_FORMAT_D16_UNORM;
  s.depthBiasConstantFactor = 100;
  s.depthBiasSlopeFactor = 100;
  std::vector<SetupTriangle> setups;
  const WindowVertex v[3] = {{0, 0, 0.2, 1}, {16, 0, 0.6, 1}, {0, 16, 0.2, 1}};
  setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
  ASSERT_EQ(setups.size(), 1u);
  EXPECT_EQ(setups[0].depthBias, 0.0f);
}

}  // namespace
}  // namespace tessera::raster
