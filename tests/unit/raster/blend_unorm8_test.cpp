// The 8-bit fixed-point blending rule (tessera/blend_unorm8.h) against the spec ("Blending",
// "Blend Factors", "Blend Operations", "Conversion From Floating-Point to Normalized
// Fixed-Point"): its inputs are held at the destination's precision (each within half a unit of
// 8 bits of the clamped value), its operations are then exact and rounded once (the spec's
// formulas evaluated here in double on those inputs, from the spec's factor table), and the
// whole stays within the error that follows from that (checked against the formulas on the
// unrounded inputs).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "tessera/blend_unorm8.h"
#include "tessera/draw.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

// The spec's factor table ("Blend Factors") on values in [0, 1].
double specFactor(VkBlendFactor f, const double* s, const double* s1, const double* d, const double* k, int c, bool alpha) {
  switch (f) {
    case VK_BLEND_FACTOR_ZERO: return 0;
    case VK_BLEND_FACTOR_ONE: return 1;
    case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return 1 - s[c];
    case VK_BLEND_FACTOR_DST_COLOR: return d[c];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return 1 - d[c];
    case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return 1 - s[3];
    case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
    case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return 1 - d[3];
    case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return 1 - k[c];
    case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
    case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return 1 - k[3];
    case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return alpha ? 1 : std::min(s[3], 1 - d[3]);
    case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return 1 - s1[c];
    case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
    case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return 1 - s1[3];
    default: ADD_FAILURE() << "factor " << f; return 0;
  }
}

// "Blend Operations", then the fixed-point attachment's clamp to [0, 1].
double specOp(VkBlendOp op, double s, double sf, double d, double df) {
  double r = 0;
  switch (op) {
    case VK_BLEND_OP_ADD: r = s * sf + d * df; break;
    case VK_BLEND_OP_SUBTRACT: r = s * sf - d * df; break;
    case VK_BLEND_OP_REVERSE_SUBTRACT: r = d * df - s * sf; break;
    case VK_BLEND_OP_MIN: r = std::min(s, d); break;
    case VK_BLEND_OP_MAX: r = std::max(s, d); break;
    default: ADD_FAILURE() << "op " << op;
  }
  return std::clamp(r, 0.0, 1.0);
}

double clamped(float f) { return std::isnan(f) ? 0.0 : std::clamp(double(f), 0.0, 1.0); }

TEST(BlendUnorm8, DivisionBy255RoundsToNearestForEveryProductSum) {
  for (uint32_t t = 0; t <= 255 * 255; ++t) {
    const double exact = double(t) / 255.0;
    const uint32_t nearest = uint32_t(std::floor(exact + 0.5));  // never a tie
    ASSERT_EQ(divide255Rounded(t), nearest) << "t = " << t;
  }
}

// "Conversion From Floating-Point to Normalized Fixed-Point": one of the two integers nearest
// f x 255 after the clamp (NaN as 0), the nearest one away from halfway points; every decoded
// 8-bit value c / 255 (the texel codec's decode of the destination) converts back to c.
TEST(BlendUnorm8, InputsAreWithinHalfAUnitOfTheClampedValue) {
  const FormatInfo* r8 = formatInfo(VK_FORMAT_R8_UNORM);
  ASSERT_NE(r8, nullptr);
  for (uint32_t c = 0; c < 256; ++c) {
    const uint8_t byte = uint8_t(c);
    TexelValue decoded{};
    decodeTexel(*r8, &byte, decoded);
    EXPECT_EQ(blendInputUnorm8(decoded.f[0]), c);
  }
  EXPECT_EQ(blendInputUnorm8(std::numeric_limits<float>::quiet_NaN()), 0u);
  EXPECT_EQ(blendInputUnorm8(-std::numeric_limits<float>::infinity()), 0u);
  EXPECT_EQ(blendInputUnorm8(std::numeric_limits<float>::infinity()), 255u);
  EXPECT_EQ(blendInputUnorm8(-0.25f), 0u);
  EXPECT_EQ(blendInputUnorm8(3.0f), 255u);
  std::mt19937 rng(20261201);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int n = 0; n < 1000000; ++n) {
    float f = unit(rng);
    if (n % 4 == 0) f = std::nextafter((float(rng() % 255) + 0.5f) / 255.0f, n % 8 ? 0.0f : 1.0f);
    const double exact = double(f) * 255.0;
    const uint32_t got = blendInputUnorm8(f);
    ASSERT_LE(std::fabs(double(got) - exact), 0.5 + 1e-5) << f;
    if (std::fabs(exact - std::floor(exact) - 0.5) > 1e-4) {
      ASSERT_EQ(got, uint32_t(std::floor(exact + 0.5))) << f;
    }
  }
}

// Random sources (NaN, out of range, halfway points), destinations and constants, every factor
// (dual-source included) and operation: the rule's bytes are the spec's formulas on the 8-bit
// inputs, rounded once; against the formulas on the unrounded inputs they are within 2.5 units
// (half a unit of input error for each of a product's two source-derived terms and its factor,
// and the final rounding), and the common "over" operator (SRC_ALPHA, ONE_MINUS_SRC_ALPHA,
// ADD) within 1.5.
TEST(BlendUnorm8, BlendsAreTheSpecsFormulasOnInputsAtTheDestinationsPrecision) {
  std::mt19937 rng(1201);
  auto randomSource = [&]() -> float {
    switch (rng() % 8) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return -float(rng() % 100) / 50.0f;
      case 2: return 1.0f + float(rng() % 100) / 50.0f;
      case 3: return (float(rng() % 255) + 0.5f) / 255.0f;
      default: return float(rng() % 1000001) / 1000000.0f;
    }
  };
  double worst = 0, worstOver = 0;
  int clampedSums = 0;
  for (int n = 0; n < 400000; ++n) {
    raster::BlendAttachment b;
    b.enable = true;
    b.srcColor = VkBlendFactor(rng() % 19), b.dstColor = VkBlendFactor(rng() % 19), b.colorOp = VkBlendOp(rng() % 5);
    b.srcAlpha = VkBlendFactor(rng() % 19), b.dstAlpha = VkBlendFactor(rng() % 19), b.alphaOp = VkBlendOp(rng() % 5);
    const bool over = n % 5 == 0;
    if (over) {
      b.srcColor = b.srcAlpha = VK_BLEND_FACTOR_SRC_ALPHA;
      b.dstColor = b.dstAlpha = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
      b.colorOp = b.alphaOp = VK_BLEND_OP_ADD;
    }
    float sf[4], s1f[4], kf[4];
    uint32_t s[4], s1[4], d[4], k[4], out[4];
    double sq[4], s1q[4], dq[4], kq[4], se[4], s1e[4], ke[4];
    for (int c = 0; c < 4; ++c) {
      sf[c] = randomSource(), s1f[c] = randomSource(), kf[c] = float(rng() % 1001) / 1000.0f;
      s[c] = blendInputUnorm8(sf[c]), s1[c] = blendInputUnorm8(s1f[c]), k[c] = blendInputUnorm8(kf[c]);
      d[c] = rng() % 256;
      sq[c] = s[c] / 255.0, s1q[c] = s1[c] / 255.0, kq[c] = k[c] / 255.0, dq[c] = d[c] / 255.0;
      se[c] = clamped(sf[c]), s1e[c] = clamped(s1f[c]), ke[c] = clamped(kf[c]);
    }
    blendUnorm8Texel(b, s, s1, d, k, out);
    for (int c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const VkBlendFactor fs = alpha ? b.srcAlpha : b.srcColor, fd = alpha ? b.dstAlpha : b.dstColor;
      const VkBlendOp op = alpha ? b.alphaOp : b.colorOp;
      // On the 8-bit inputs, then rounded once: the result x 255 is a multiple of 1/255, at
      // least 1/510 from any halfway point, far beyond the double arithmetic's error.
      const double onInputs = specOp(op, sq[c], specFactor(fs, sq, s1q, dq, kq, c, alpha), dq[c],
                                     specFactor(fd, sq, s1q, dq, kq, c, alpha));
      ASSERT_EQ(out[c], uint32_t(std::floor(onInputs * 255.0 + 0.5)))
          << "n " << n << " component " << c << " factors " << fs << "/" << fd << " op " << op;
      clampedSums += op == VK_BLEND_OP_ADD && onInputs == 1.0;
      const double exact = specOp(op, se[c], specFactor(fs, se, s1e, dq, ke, c, alpha), dq[c],
                                  specFactor(fd, se, s1e, dq, ke, c, alpha));
      const double error = std::fabs(double(out[c]) - exact * 255.0);
      worst = std::max(worst, error);
      if (over) worstOver = std::max(worstOver, error);
    }
  }
  EXPECT_LE(worst, 2.5);
  EXPECT_LE(worstOver, 1.5);
  EXPECT_GT(worstOver, 0.5);  // the inputs' rounding is visible: this is not the float path
  EXPECT_GT(clampedSums, 10000);
}

TEST(BlendUnorm8, OnlyEightBitUnormFormatsBlendInFixedPoint) {
  for (VkFormat f : {VK_FORMAT_R8_UNORM, VK_FORMAT_R8G8_UNORM, VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM,
                     VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_R8G8B8_UNORM})
    EXPECT_TRUE(blendsInUnorm8(*formatInfo(f))) << f;
  for (VkFormat f : {VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R16G16B16A16_UNORM,
                     VK_FORMAT_R5G6B5_UNORM_PACK16, VK_FORMAT_A2B10G10R10_UNORM_PACK32, VK_FORMAT_R8G8B8A8_UINT,
                     VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_FORMAT_S8_UINT})
    EXPECT_FALSE(blendsInUnorm8(*formatInfo(f))) << f;
}

}  // namespace
}  // namespace tessera
