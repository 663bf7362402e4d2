// blitRegion against the spec section "Image Copies With Scaling" (vkCmdBlitImage). Expected
// values are worked out in the comments from the spec's coordinate formulas:
//   u = (i + 1/2 - x_dst0) * (x_src1 - x_src0) / (x_dst1 - x_dst0) + x_src0
// then NEAREST: texel floor(u); LINEAR: i0 = floor(u - 1/2), alpha = frac(u - 1/2); both with
// CLAMP_TO_EDGE at the source image's edge.
#include "tessera/blit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "sampler_test_image.h"

namespace tessera {
namespace {

using test::TestImage;

void blit(TestImage& src, TestImage& dst, VkOffset3D s0, VkOffset3D s1, VkOffset3D d0,
          VkOffset3D d1, VkFilter filter) {
  const VkOffset3D so[2] = {s0, s1};
  const VkOffset3D dof[2] = {d0, d1};
  blitRegion(src.view(), dst.view(), so, dof, filter);
}

// Whole-image blit of 2D images.
void blitAll(TestImage& src, TestImage& dst, VkFilter filter) {
  blit(src, dst, {0, 0, 0}, {int32_t(src.extent.width), int32_t(src.extent.height), 1}, {0, 0, 0},
       {int32_t(dst.extent.width), int32_t(dst.extent.height), 1}, filter);
}

double eotf(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }
double oetf(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1 / 2.4) - 0.055; }

// ---- NEAREST ---------------------------------------------------------------------------------

TEST(ImageCopiesWithScaling, NearestMagnify2xReplicatesTexels) {
  // 2x2 -> 4x4: u = (i + 1/2) / 2, so dst texel i reads src texel floor((i + 1/2) / 2) = i / 2.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 2, 2), dst(VK_FORMAT_R8G8B8A8_UNORM, 4, 4);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x)
      src.set<uint8_t>(x, y, 0, 0, {uint8_t(10 * x), uint8_t(10 * y), 7, 255});
  blitAll(src, dst, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      EXPECT_EQ(dst.get<uint8_t>(x, y, 0, 0, 0), 10 * (x / 2)) << x << "," << y;
      EXPECT_EQ(dst.get<uint8_t>(x, y, 0, 0, 1), 10 * (y / 2)) << x << "," << y;
      EXPECT_EQ(dst.get<uint8_t>(x, y, 0, 0, 2), 7);
      EXPECT_EQ(dst.get<uint8_t>(x, y, 0, 0, 3), 255);
    }
}

TEST(ImageCopiesWithScaling, NearestMinify2xTakesOddTexels) {
  // 4x4 -> 2x2: u = (i + 1/2) * 2 = 1, 3 -> src texels 1 and 3.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 4, 4), dst(VK_FORMAT_R8G8B8A8_UNORM, 2, 2);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) src.set<uint8_t>(x, y, 0, 0, {uint8_t(x + 4 * y), 0, 0, 255});
  blitAll(src, dst, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<uint8_t>(0, 0), 1 + 4 * 1);
  EXPECT_EQ(dst.get<uint8_t>(1, 0), 3 + 4 * 1);
  EXPECT_EQ(dst.get<uint8_t>(0, 1), 1 + 4 * 3);
  EXPECT_EQ(dst.get<uint8_t>(1, 1), 3 + 4 * 3);
}

TEST(ImageCopiesWithScaling, NearestMagnifyAndMinify2xR32Float) {
  // Magnify 2 -> 4: dst i reads src i / 2. Minify 4 -> 2: u = 1, 3 -> src 1 and 3.
  TestImage src(VK_FORMAT_R32_SFLOAT, 2, 2), big(VK_FORMAT_R32_SFLOAT, 4, 4),
      small(VK_FORMAT_R32_SFLOAT, 2, 2);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x)
      src.set<float>(x, y, 0, 0, {0.25f + float(x) + 10.0f * float(y)});
  blitAll(src, big, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x)
      EXPECT_EQ(big.get<float>(x, y), 0.25f + float(x / 2) + 10.0f * float(y / 2)) << x << "," << y;
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) big.set<float>(x, y, 0, 0, {float(x) + 10.0f * float(y)});
  blitAll(big, small, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x)
      EXPECT_EQ(small.get<float>(x, y), float(2 * x + 1) + 10.0f * float(2 * y + 1))
          << x << "," << y;
}

TEST(ImageCopiesWithScaling, NearestNonIntegerScale) {
  // 3 -> 2: u = (i + 1/2) * 3/2 = 0.75, 2.25 -> texels 0 and 2. 2 -> 3: u = (i + 1/2) * 2/3 =
  // 1/3, 1, 5/3 -> texels 0, 1, 1 (u = 1 exactly sits on texel 1's left edge).
  TestImage src(VK_FORMAT_R32_SFLOAT, 3, 1), dst(VK_FORMAT_R32_SFLOAT, 2, 1);
  for (uint32_t x = 0; x < 3; ++x) src.set<float>(x, 0, 0, 0, {float(x + 1)});
  blitAll(src, dst, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<float>(0, 0), 1.0f);
  EXPECT_EQ(dst.get<float>(1, 0), 3.0f);
  TestImage src2(VK_FORMAT_R32_SFLOAT, 2, 1), dst3(VK_FORMAT_R32_SFLOAT, 3, 1);
  src2.set<float>(0, 0, 0, 0, {5.0f});
  src2.set<float>(1, 0, 0, 0, {6.0f});
  blitAll(src2, dst3, VK_FILTER_NEAREST);
  EXPECT_EQ(dst3.get<float>(0, 0), 5.0f);
  EXPECT_EQ(dst3.get<float>(1, 0), 6.0f);
  EXPECT_EQ(dst3.get<float>(2, 0), 6.0f);
}

// ---- LINEAR ----------------------------------------------------------------------------------

TEST(ImageCopiesWithScaling, LinearMagnify2xR32Float) {
  // 2 -> 4 in x: u = 0.25, 0.75, 1.25, 1.75; u - 1/2 = -0.25 (i0 = -1 -> clamped 0, weight
  // irrelevant), 0.25, 0.75, 1.25 (i1 = 2 -> clamped 1): 0, 0.25, 0.75, 1 for texels (0, 1).
  TestImage src(VK_FORMAT_R32_SFLOAT, 2, 1), dst(VK_FORMAT_R32_SFLOAT, 4, 1);
  src.set<float>(0, 0, 0, 0, {0.0f});
  src.set<float>(1, 0, 0, 0, {1.0f});
  blitAll(src, dst, VK_FILTER_LINEAR);
  EXPECT_EQ(dst.get<float>(0, 0), 0.0f);
  EXPECT_EQ(dst.get<float>(1, 0), 0.25f);
  EXPECT_EQ(dst.get<float>(2, 0), 0.75f);
  EXPECT_EQ(dst.get<float>(3, 0), 1.0f);
}

TEST(ImageCopiesWithScaling, LinearMagnify2xIn2DIsBilinearWithEdgeClamp) {
  // Source holds f(x, y) = x + 2y on a 2x2 grid; bilinear filtering of a linear function with
  // clamp-to-edge gives f(clamp(u - 1/2, 0, 1), clamp(v - 1/2, 0, 1)).
  TestImage src(VK_FORMAT_R32_SFLOAT, 2, 2), dst(VK_FORMAT_R32_SFLOAT, 4, 4);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) src.set<float>(x, y, 0, 0, {float(x + 2 * y)});
  blitAll(src, dst, VK_FILTER_LINEAR);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const double cu = std::clamp((x + 0.5) / 2 - 0.5, 0.0, 1.0);
      const double cv = std::clamp((y + 0.5) / 2 - 0.5, 0.0, 1.0);
      EXPECT_FLOAT_EQ(dst.get<float>(x, y), float(cu + 2 * cv)) << x << "," << y;
    }
}

TEST(ImageCopiesWithScaling, LinearMinify2xAveragesBlocks) {
  // 4x4 -> 2x2: u = 1, 3; u - 1/2 = 0.5, 2.5 -> alpha = beta = 1/2 over texels (0,1) / (2,3).
  TestImage src(VK_FORMAT_R32_SFLOAT, 4, 4), dst(VK_FORMAT_R32_SFLOAT, 2, 2);
  float values[4][4];
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      values[y][x] = float((x * 7 + y * 13) % 11);
      src.set<float>(x, y, 0, 0, {values[y][x]});
    }
  blitAll(src, dst, VK_FILTER_LINEAR);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) {
      const float avg = (values[2 * y][2 * x] + values[2 * y][2 * x + 1] +
                         values[2 * y + 1][2 * x] + values[2 * y + 1][2 * x + 1]) /
                        4;
      EXPECT_EQ(dst.get<float>(x, y), avg) << x << "," << y;
    }
}

TEST(ImageCopiesWithScaling, LinearMinify2xRgba8RoundsToNearest) {
  // 2x1 -> 1x1: u = 1, u - 1/2 = 0.5: the mean of the two texels, then "the float values are
  // first clamped and then cast to the destination image format" with UNORM rounding:
  // R (0 + 255)/2 = 127.5 -> 128; G (10 + 20)/2 = 15; B (100 + 200)/2 = 150; A 255.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 2, 1), dst(VK_FORMAT_R8G8B8A8_UNORM, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {0, 10, 100, 255});
  src.set<uint8_t>(1, 0, 0, 0, {255, 20, 200, 255});
  blitAll(src, dst, VK_FILTER_LINEAR);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 0), 128);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 1), 15);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 2), 150);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 3), 255);
}

TEST(ImageCopiesWithScaling, LinearMagnify2xRgba8) {
  // 2 -> 4 in x, weights as in LinearMagnify2xR32Float: (1, 0), (3/4, 1/4), (1/4, 3/4), (0, 1).
  // R: 0 and 255 -> 0, 63.75 -> 64, 191.25 -> 191, 255. G: 40 and 80 -> 40, 50, 70, 80.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 2, 1), dst(VK_FORMAT_R8G8B8A8_UNORM, 4, 1);
  src.set<uint8_t>(0, 0, 0, 0, {0, 40, 9, 255});
  src.set<uint8_t>(1, 0, 0, 0, {255, 80, 9, 255});
  blitAll(src, dst, VK_FILTER_LINEAR);
  const uint8_t r[4] = {0, 64, 191, 255}, g[4] = {40, 50, 70, 80};
  for (uint32_t x = 0; x < 4; ++x) {
    EXPECT_EQ(dst.get<uint8_t>(x, 0, 0, 0, 0), r[x]) << x;
    EXPECT_EQ(dst.get<uint8_t>(x, 0, 0, 0, 1), g[x]) << x;
    EXPECT_EQ(dst.get<uint8_t>(x, 0, 0, 0, 2), 9) << x;
    EXPECT_EQ(dst.get<uint8_t>(x, 0, 0, 0, 3), 255) << x;
  }
}

TEST(ImageCopiesWithScaling, LinearOneToOneIsAnExactCopy) {
  // Same size: u - 1/2 = i exactly, alpha = 0: each destination texel is its source texel.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 3, 3), dst(VK_FORMAT_R8G8B8A8_UNORM, 3, 3);
  for (size_t k = 0; k < src.bytes.size(); ++k) src.bytes[k] = uint8_t(k * 37 + 11);
  blitAll(src, dst, VK_FILTER_LINEAR);
  for (uint32_t y = 0; y < 3; ++y)
    for (uint32_t x = 0; x < 3; ++x) EXPECT_EQ(0, std::memcmp(src.at(x, y), dst.at(x, y), 4));
}

TEST(ImageCopiesWithScaling, Linear3DFiltersInZ) {
  // "If the filter parameter is VK_FILTER_LINEAR then the value sampled from the source image is
  // taken by doing linear filtering using the interpolated z coordinate represented by w".
  // Source 2x2x2 holds f = x + 2y + 4z; trilinear filtering of it with clamp-to-edge gives
  // f(clamp(u - 1/2), clamp(v - 1/2), clamp(w - 1/2)).
  TestImage src(VK_FORMAT_R32_SFLOAT, 2, 2, 2), dst(VK_FORMAT_R32_SFLOAT, 4, 4, 4);
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 2; ++x) src.set<float>(x, y, z, 0, {float(x + 2 * y + 4 * z)});
  blit(src, dst, {0, 0, 0}, {2, 2, 2}, {0, 0, 0}, {4, 4, 4}, VK_FILTER_LINEAR);
  auto c = [](uint32_t i) { return std::clamp((i + 0.5) / 2 - 0.5, 0.0, 1.0); };
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x)
        EXPECT_FLOAT_EQ(dst.get<float>(x, y, z), float(c(x) + 2 * c(y) + 4 * c(z)))
            << x << "," << y << "," << z;
  // Minify 4x4x4 -> 2x2x2: u - 1/2 = 0.5, 2.5: the centre of each 2x2x2 block.
  TestImage src4(VK_FORMAT_R32_SFLOAT, 4, 4, 4), dst2(VK_FORMAT_R32_SFLOAT, 2, 2, 2);
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 4; ++y)
      for (uint32_t x = 0; x < 4; ++x) src4.set<float>(x, y, z, 0, {float(x + 2 * y + 4 * z)});
  blit(src4, dst2, {0, 0, 0}, {4, 4, 4}, {0, 0, 0}, {2, 2, 2}, VK_FILTER_LINEAR);
  for (uint32_t z = 0; z < 2; ++z)
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < 2; ++x)
        EXPECT_EQ(dst2.get<float>(x, y, z),
                  float((2 * x + 0.5) + 2 * (2 * y + 0.5) + 4 * (2 * z + 0.5)));
}

TEST(ImageCopiesWithScaling, Nearest3DTakesTheNearestSlice) {
  // 4 slices -> 2: w = (k + 1/2) * 2 = 1, 3 -> slices 1 and 3.
  TestImage src(VK_FORMAT_R8_UINT, 1, 1, 4), dst(VK_FORMAT_R8_UINT, 1, 1, 2);
  for (uint32_t z = 0; z < 4; ++z) src.set<uint8_t>(0, 0, z, 0, {uint8_t(10 + z)});
  blit(src, dst, {0, 0, 0}, {1, 1, 4}, {0, 0, 0}, {1, 1, 2}, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0), 11);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 1), 13);
}

// ---- Mirroring -------------------------------------------------------------------------------

TEST(ImageCopiesWithScaling, MirroredDestinationOrSourceFlips) {
  // dstOffsets = {4, 0}: scale = (4 - 0) / (0 - 4) = -1, u = (i + 1/2 - 4) * -1 = 3.5 - i.
  TestImage src(VK_FORMAT_R8_UNORM, 4, 2), dst(VK_FORMAT_R8_UNORM, 4, 2);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) src.set<uint8_t>(x, y, 0, 0, {uint8_t(10 * (x + 1) + y)});
  blit(src, dst, {0, 0, 0}, {4, 2, 1}, {4, 0, 0}, {0, 2, 1}, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(dst.get<uint8_t>(x, y), 10 * (4 - x) + y);
  // Mirrored source in y: v = (j + 1/2) * (0 - 2) / 2 + 2 = 1.5 - j.
  blit(src, dst, {0, 2, 0}, {4, 0, 1}, {0, 0, 0}, {4, 2, 1}, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(dst.get<uint8_t>(x, y), 10 * (x + 1) + (1 - y));
  // Both mirrored in x: no flip.
  blit(src, dst, {4, 0, 0}, {0, 2, 1}, {4, 0, 0}, {0, 2, 1}, VK_FILTER_LINEAR);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(dst.get<uint8_t>(x, y), 10 * (x + 1) + y);
}

TEST(ImageCopiesWithScaling, MirroredLinearMagnify) {
  // src [0, 1] (2 texels) -> dst 4 mirrored: dst i samples the unmirrored result at 3 - i.
  TestImage src(VK_FORMAT_R32_SFLOAT, 2, 1), dst(VK_FORMAT_R32_SFLOAT, 4, 1);
  src.set<float>(0, 0, 0, 0, {0.0f});
  src.set<float>(1, 0, 0, 0, {1.0f});
  blit(src, dst, {0, 0, 0}, {2, 1, 1}, {4, 0, 0}, {0, 1, 1}, VK_FILTER_LINEAR);
  EXPECT_EQ(dst.get<float>(0, 0), 1.0f);
  EXPECT_EQ(dst.get<float>(1, 0), 0.75f);
  EXPECT_EQ(dst.get<float>(2, 0), 0.25f);
  EXPECT_EQ(dst.get<float>(3, 0), 0.0f);
}

// ---- Regions ---------------------------------------------------------------------------------

TEST(ImageCopiesWithScaling, OnlyTheDestinationRegionIsWritten) {
  TestImage src(VK_FORMAT_R8_UINT, 2, 2),
      dst(VK_FORMAT_R8_UINT, 5, 5, 1, 1, VK_IMAGE_ASPECT_COLOR_BIT, 0xAA);
  for (uint32_t y = 0; y < 2; ++y)
    for (uint32_t x = 0; x < 2; ++x) src.set<uint8_t>(x, y, 0, 0, {uint8_t(1 + x + 2 * y)});
  // Source region (1,0)-(2,2) (one column), destination (2,1)-(4,4): 2x3 texels.
  blit(src, dst, {1, 0, 0}, {2, 2, 1}, {2, 1, 0}, {4, 4, 1}, VK_FILTER_NEAREST);
  for (uint32_t y = 0; y < 5; ++y)
    for (uint32_t x = 0; x < 5; ++x) {
      const bool inside = x >= 2 && x < 4 && y >= 1 && y < 4;
      // v = (j + 1/2 - 1) * 2/3: rows 1, 2, 3 -> v = 1/3, 1, 5/3 -> source rows 0, 1, 1.
      const int expect = inside ? 2 + 2 * (y == 1 ? 0 : 1) : 0xAA;
      EXPECT_EQ(dst.get<uint8_t>(x, y), expect) << x << "," << y;
    }
}

// ---- Format conversion -----------------------------------------------------------------------

TEST(ImageCopiesWithScaling, SrgbSourceConvertsToLinearUnorm) {
  // "For sRGB source formats, nonlinear RGB values are converted to linear representation prior
  // to filtering." R: 255 * eotf(188/255) = 128.23 -> 128; B 255 -> 255; A is linear.
  TestImage src(VK_FORMAT_R8G8B8A8_SRGB, 1, 1), dst(VK_FORMAT_R8G8B8A8_UNORM, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {188, 0, 255, 128});
  blitAll(src, dst, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 0), 128);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 0), uint8_t(std::lround(255 * eotf(188 / 255.0))));
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 1), 0);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 2), 255);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 3), 128);
}

TEST(ImageCopiesWithScaling, UnormToSrgbDestinationEncodes) {
  // "In case of sRGB destination format, linear RGB values are converted to nonlinear
  // representation": 255 * oetf(128/255) = 187.85 -> 188.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 1, 1), dst(VK_FORMAT_B8G8R8A8_SRGB, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {128, 0, 255, 128});
  blitAll(src, dst, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 2), 188);  // R is byte 2 of B8G8R8A8
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 2), uint8_t(std::lround(255 * oetf(128 / 255.0))));
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 1), 0);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 0), 255);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 3), 128);
}

TEST(ImageCopiesWithScaling, SrgbFiltersInLinearSpace) {
  // Minify [0, 255] sRGB 2 -> 1: linear mean 0.5, re-encoded: 255 * oetf(0.5) = 187.5 -> 188
  // (filtering the encoded values would give 128).
  TestImage src(VK_FORMAT_R8G8B8A8_SRGB, 2, 1), dst(VK_FORMAT_R8G8B8A8_SRGB, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {0, 0, 0, 0});
  src.set<uint8_t>(1, 0, 0, 0, {255, 255, 255, 255});
  blitAll(src, dst, VK_FILTER_LINEAR);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 0), 188);
  EXPECT_EQ(dst.get<uint8_t>(0, 0, 0, 0, 3), 128);  // alpha is linear: 127.5 -> 128
}

TEST(ImageCopiesWithScaling, FloatToUnormClampsAndFloatToHalf) {
  // "After filtering, the float values are first clamped and then cast to the destination".
  TestImage src(VK_FORMAT_R32_SFLOAT, 4, 1), dst(VK_FORMAT_R8_UNORM, 4, 1),
      half(VK_FORMAT_R16_SFLOAT, 4, 1);
  const float in[4] = {-1.0f, 0.5f, 2.0f, 0.2f};
  for (uint32_t x = 0; x < 4; ++x) src.set<float>(x, 0, 0, 0, {in[x]});
  blitAll(src, dst, VK_FILTER_NEAREST);
  EXPECT_EQ(dst.get<uint8_t>(0, 0), 0);
  EXPECT_EQ(dst.get<uint8_t>(1, 0), 128);
  EXPECT_EQ(dst.get<uint8_t>(2, 0), 255);
  EXPECT_EQ(dst.get<uint8_t>(3, 0), 51);
  blitAll(src, half, VK_FILTER_NEAREST);
  EXPECT_EQ(half.get<uint16_t>(0, 0), 0xBC00);  // -1.0
  EXPECT_EQ(half.get<uint16_t>(1, 0), 0x3800);  // 0.5
  EXPECT_EQ(half.get<uint16_t>(2, 0), 0x4000);  // 2.0
}

TEST(ImageCopiesWithScaling, ComponentOrderAndMissingComponents) {
  // R8G8B8A8 -> B8G8R8A8 reorders bytes; R8 -> R8G8B8A8 fills G = B = 0, A = 1.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 1, 1), bgra(VK_FORMAT_B8G8R8A8_UNORM, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {1, 2, 3, 4});
  blitAll(src, bgra, VK_FILTER_NEAREST);
  EXPECT_EQ(bgra.bytes[0], 3);
  EXPECT_EQ(bgra.bytes[1], 2);
  EXPECT_EQ(bgra.bytes[2], 1);
  EXPECT_EQ(bgra.bytes[3], 4);
  TestImage r8(VK_FORMAT_R8_UNORM, 1, 1), rgba(VK_FORMAT_R8G8B8A8_UNORM, 1, 1);
  r8.set<uint8_t>(0, 0, 0, 0, {77});
  blitAll(r8, rgba, VK_FILTER_NEAREST);
  EXPECT_EQ(rgba.bytes[0], 77);
  EXPECT_EQ(rgba.bytes[1], 0);
  EXPECT_EQ(rgba.bytes[2], 0);
  EXPECT_EQ(rgba.bytes[3], 255);
}

TEST(ImageCopiesWithScaling, IntegerBlitsClampToTheDestinationRange) {
  // "Integer formats can only be converted to other integer formats with the same signedness."
  // "Signed and unsigned integers are converted by first clamping to the representable range of
  // the destination format, then casting the value."
  TestImage u32(VK_FORMAT_R32_UINT, 4, 1), u8(VK_FORMAT_R8_UINT, 4, 1);
  const uint32_t uin[4] = {5, 255, 256, 0xFFFFFFFFu};
  for (uint32_t x = 0; x < 4; ++x) u32.set<uint32_t>(x, 0, 0, 0, {uin[x]});
  blitAll(u32, u8, VK_FILTER_NEAREST);
  EXPECT_EQ(u8.get<uint8_t>(0, 0), 5);
  EXPECT_EQ(u8.get<uint8_t>(1, 0), 255);
  EXPECT_EQ(u8.get<uint8_t>(2, 0), 255);
  EXPECT_EQ(u8.get<uint8_t>(3, 0), 255);

  TestImage s16(VK_FORMAT_R16_SINT, 5, 1), s8(VK_FORMAT_R8_SINT, 5, 1);
  const int16_t sin[5] = {-300, -128, 127, 300, -5};
  for (uint32_t x = 0; x < 5; ++x) s16.set<int16_t>(x, 0, 0, 0, {sin[x]});
  blitAll(s16, s8, VK_FILTER_NEAREST);
  const int8_t sexp[5] = {-128, -128, 127, 127, -5};
  for (uint32_t x = 0; x < 5; ++x) EXPECT_EQ(s8.get<int8_t>(x, 0), sexp[x]) << x;

  // Widening keeps the values; missing components become (0, 0, 1) as integers.
  TestImage rgba8(VK_FORMAT_R8G8B8A8_UINT, 1, 1), rgba16(VK_FORMAT_R16G16B16A16_UINT, 1, 1),
      r8(VK_FORMAT_R8_UINT, 1, 1), rgba32(VK_FORMAT_R32G32B32A32_UINT, 1, 1);
  rgba8.set<uint8_t>(0, 0, 0, 0, {1, 2, 3, 250});
  blitAll(rgba8, rgba16, VK_FILTER_NEAREST);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(rgba16.get<uint16_t>(0, 0, 0, 0, c), rgba8.bytes[c]);
  r8.set<uint8_t>(0, 0, 0, 0, {9});
  blitAll(r8, rgba32, VK_FILTER_NEAREST);
  EXPECT_EQ(rgba32.get<uint32_t>(0, 0, 0, 0, 0), 9u);
  EXPECT_EQ(rgba32.get<uint32_t>(0, 0, 0, 0, 1), 0u);
  EXPECT_EQ(rgba32.get<uint32_t>(0, 0, 0, 0, 2), 0u);
  EXPECT_EQ(rgba32.get<uint32_t>(0, 0, 0, 0, 3), 1u);
}

TEST(ImageCopiesWithScaling, IntegerFormatsWithLinearSampleNearest) {
  // Integer formats cannot be filtered; a LINEAR request picks the nearest texel (u = 1 -> 1).
  TestImage src(VK_FORMAT_R8_UINT, 2, 1), dst(VK_FORMAT_R8_UINT, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {10});
  src.set<uint8_t>(1, 0, 0, 0, {20});
  blitAll(src, dst, VK_FILTER_LINEAR);
  EXPECT_EQ(dst.get<uint8_t>(0, 0), 20);
}

// ---- Depth and stencil -----------------------------------------------------------------------

TEST(ImageCopiesWithScaling, DepthStencilNearestSameFormat) {
  // "No format conversion is supported between depth/stencil images. The formats must match."
  TestImage d(VK_FORMAT_D24_UNORM_S8_UINT, 2, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT),
      d2(VK_FORMAT_D24_UNORM_S8_UINT, 4, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d.set<uint32_t>(0, 0, 0, 0, {0x000123u});
  d.set<uint32_t>(1, 0, 0, 0, {0xFFFFFFu});
  blitAll(d, d2, VK_FILTER_NEAREST);
  const uint32_t dexp[4] = {0x000123u, 0x000123u, 0xFFFFFFu, 0xFFFFFFu};
  for (uint32_t x = 0; x < 4; ++x) EXPECT_EQ(d2.get<uint32_t>(x, 0), dexp[x]);

  TestImage s(VK_FORMAT_D24_UNORM_S8_UINT, 3, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT),
      s2(VK_FORMAT_D24_UNORM_S8_UINT, 3, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  ASSERT_EQ(s.texelSize, 1u);
  for (uint32_t x = 0; x < 3; ++x) s.set<uint8_t>(x, 0, 0, 0, {uint8_t(x + 1)});
  blit(s, s2, {0, 0, 0}, {3, 1, 1}, {3, 0, 0}, {0, 1, 1}, VK_FILTER_NEAREST);  // mirrored
  EXPECT_EQ(s2.get<uint8_t>(0, 0), 3);
  EXPECT_EQ(s2.get<uint8_t>(1, 0), 2);
  EXPECT_EQ(s2.get<uint8_t>(2, 0), 1);

  TestImage f(VK_FORMAT_D32_SFLOAT, 2, 2, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT),
      f1(VK_FORMAT_D32_SFLOAT, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  f.set<float>(0, 0, 0, 0, {0.1f});
  f.set<float>(1, 0, 0, 0, {0.2f});
  f.set<float>(0, 1, 0, 0, {0.3f});
  f.set<float>(1, 1, 0, 0, {0.4f});
  blitAll(f, f1, VK_FILTER_NEAREST);  // u = v = 1 -> texel (1, 1)
  EXPECT_EQ(f1.get<float>(0, 0), 0.4f);
}

}  // namespace
}  // namespace tessera

namespace tessera {
namespace {

// The exact LINEAR result of a 2D RGBA8 blit at destination texel (x, y), channel c, in units
// of the last bit (0..255), from the spec's formulas (this file's header): bilinear weights of
// the four texels around u - 1/2, v - 1/2, clamped to the edge. Rationals in double: exact
// enough to tell which side of a rounding boundary the value lies on.
double exactLinearRgba8(test::TestImage& src, const VkOffset3D so[2], const VkOffset3D dof[2], uint32_t x,
                        uint32_t y, int c) {
  auto coord = [](int32_t i, int32_t s0, int32_t s1, int32_t d0, int32_t d1) {
    return (double(i) + 0.5 - d0) * double(s1 - s0) / double(d1 - d0) + s0;
  };
  const double u = coord(int32_t(x), so[0].x, so[1].x, dof[0].x, dof[1].x) - 0.5;
  const double v = coord(int32_t(y), so[0].y, so[1].y, dof[0].y, dof[1].y) - 0.5;
  const double fu = std::floor(u), fv = std::floor(v), a = u - fu, b = v - fv;
  auto texel = [&](double i, double j) {
    const uint32_t ci = uint32_t(std::clamp(i, 0.0, double(src.extent.width - 1)));
    const uint32_t cj = uint32_t(std::clamp(j, 0.0, double(src.extent.height - 1)));
    return double(src.at(ci, cj)[c]);
  };
  return (1 - a) * (1 - b) * texel(fu, fv) + a * (1 - b) * texel(fu + 1, fv) + (1 - a) * b * texel(fu, fv + 1) +
         a * b * texel(fu + 1, fv + 1);
}

// The RGBA8 fast path (same 8-bit UNORM format on both sides) against the generic codec path
// (RGBA8 -> BGRA8, different formats) and, for LINEAR, against the exact filtered value, on
// random data at scales that exercise every weight pattern, channel by channel. NEAREST copies
// texels: both paths give the same bytes. LINEAR: the fast path filters in single precision on
// raw bytes, the generic path in double on decoded floats; both must be a correct rounding of
// the exact value (within half a step; the spec's UNORM conversion rounds to nearest). At an
// exact tie (frequent: weights of 1/2 and 1/4 on bytes) the two may round different ways.
TEST(ImageCopiesWithScaling, Rgba8FastPathMatchesTheGenericPath) {
  uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  const struct { uint32_t sw, sh, dw, dh; } sizes[] = {{37, 23, 18, 11}, {16, 9, 40, 27}, {13, 13, 13, 13}, {64, 3, 7, 5}};
  for (const auto& sz : sizes)
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
      test::TestImage src(VK_FORMAT_R8G8B8A8_UNORM, sz.sw, sz.sh);
      for (auto& b : src.bytes) b = uint8_t(next() >> 24);
      test::TestImage fast(VK_FORMAT_R8G8B8A8_UNORM, sz.dw, sz.dh), generic(VK_FORMAT_B8G8R8A8_UNORM, sz.dw, sz.dh);
      // Mirrored in x on purpose: the mapping must not depend on the path either.
      const VkOffset3D so[2] = {{0, 0, 0}, {int32_t(sz.sw), int32_t(sz.sh), 1}};
      const VkOffset3D dof[2] = {{int32_t(sz.dw), 0, 0}, {0, int32_t(sz.dh), 1}};
      blitRegion(src.view(), fast.view(), so, dof, filter);
      blitRegion(src.view(), generic.view(), so, dof, filter);
      for (uint32_t y = 0; y < sz.dh; ++y)
        for (uint32_t x = 0; x < sz.dw; ++x) {
          const uint8_t* f = fast.at(x, y);
          const uint8_t* g = generic.at(x, y);
          const int gen[4] = {g[2], g[1], g[0], g[3]};  // BGRA -> RGBA
          for (int c = 0; c < 4; ++c) {
            if (filter == VK_FILTER_NEAREST) {
              ASSERT_EQ(f[c], gen[c]) << x << "," << y << " channel " << c;
              continue;
            }
            const double exact = exactLinearRgba8(src, so, dof, x, y, c);
            ASSERT_LE(std::abs(f[c] - exact), 0.5 + 1e-4) << "fast " << x << "," << y << " channel " << c << " exact " << exact;
            ASSERT_LE(std::abs(gen[c] - exact), 0.5 + 1e-4) << "generic " << x << "," << y << " channel " << c << " exact " << exact;
          }
        }
    }
}

// A region split into row bands (as the ICD splits it over threads) gives the same texels.
TEST(ImageCopiesWithScaling, RowBandsGiveTheSameResultAsOneCall) {
  test::TestImage src(VK_FORMAT_R16G16B16A16_SFLOAT, 29, 31);
  for (size_t i = 0; i < src.bytes.size(); i += 2) src.bytes[i + 1] = uint8_t(0x38 + (i % 7)), src.bytes[i] = uint8_t(i);
  test::TestImage whole(VK_FORMAT_R16G16B16A16_SFLOAT, 17, 45), banded(VK_FORMAT_R16G16B16A16_SFLOAT, 17, 45);
  const VkOffset3D so[2] = {{2, 1, 0}, {27, 30, 1}};
  const VkOffset3D dof[2] = {{0, 44, 0}, {17, 1, 1}};
  blitRegion(src.view(), whole.view(), so, dof, VK_FILTER_LINEAR);
  for (int32_t band = 0; band < 45; band += 4) blitRegion(src.view(), banded.view(), so, dof, VK_FILTER_LINEAR, band, band + 4);
  EXPECT_EQ(whole.bytes, banded.bytes);
}

}  // namespace
}  // namespace tessera

// ---- Exact 2:1 LINEAR minification of RGBA8 (mip-level generation) ----------------------------

namespace tessera {
namespace {

// Runs body once per row kernel of the 2:1 RGBA8 path: TESSERA_SIMD_WIDTH=4 takes the SSE2
// rows, 8 the AVX2 rows where the CPU has AVX2 (tessera/cpu_info.h). Restores the variable.
template <typename Body>
void forEachBlitKernel(Body&& body) {
  const char* old = std::getenv("TESSERA_SIMD_WIDTH");
  const std::string saved = old ? old : "";
  for (const char* width : {"4", "8"}) {
    SCOPED_TRACE(std::string("TESSERA_SIMD_WIDTH=") + width);
    setenv("TESSERA_SIMD_WIDTH", width, 1);
    body();
  }
  if (old)
    setenv("TESSERA_SIMD_WIDTH", saved.c_str(), 1);
  else
    unsetenv("TESSERA_SIMD_WIDTH");
}

// Round to nearest, ties to even, of s / 4, from the definition.
int nearestEvenQuarter(int s) {
  const int q = s / 4, r = s % 4;
  return r < 2 ? q : r > 2 ? q + 1 : q + (q & 1);
}

TEST(ImageCopiesWithScaling, QuarterSumRoundingIsTheFloatRounding) {
  // A 2:1 LINEAR minification weighs four bytes by 1/4 each: the exact value is s / 4 for a sum s
  // of four bytes (0..1020), and the UNORM encoding rounds it to nearest (ties to even, as the
  // float rounding of the single-precision RGBA8 row does: (x + 2^23) - 2^23). The integer form
  // the 2:1 path uses, q = s >> 2, (s + 1 + (q & 1)) >> 2, must agree for every s.
  for (int s = 0; s <= 1020; ++s) {
    volatile float x = float(s) * 0.25f;  // volatile: rounded at run time, in the default mode
    const float magic = 8388608.0f;
    volatile float rounded = (x + magic);
    const int viaFloat = int(rounded - magic);
    const int viaInt = (s + 1 + ((s >> 2) & 1)) >> 2;
    ASSERT_EQ(viaInt, nearestEvenQuarter(s)) << s;
    ASSERT_EQ(viaFloat, nearestEvenQuarter(s)) << s;
  }
  // And through blitRegion: destination texel t of a 2042x2 -> 1021x1 blit averages a 2x2 block
  // whose bytes sum to t in every channel (split four different ways over the block).
  forEachBlitKernel([] {
    constexpr int kSums = 1021;
    TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 2 * kSums, 2), dst(VK_FORMAT_R8G8B8A8_UNORM, kSums, 1);
    for (int s = 0; s < kSums; ++s) {
      const int a = std::min(s, 255), b = std::min(s - a, 255), c = std::min(s - a - b, 255), d = s - a - b - c;
      const int e = s / 4, rem = s % 4;  // evenly, the remainder on the first texels
      const uint8_t block[4][4] = {
          {uint8_t(a), uint8_t(e + (rem > 0)), uint8_t(d), uint8_t(b)},
          {uint8_t(b), uint8_t(e + (rem > 1)), uint8_t(c), uint8_t(d)},
          {uint8_t(c), uint8_t(e + (rem > 2)), uint8_t(b), uint8_t(a)},
          {uint8_t(d), uint8_t(e), uint8_t(a), uint8_t(c)},
      };
      for (int k = 0; k < 4; ++k) std::memcpy(src.at(2 * s + (k & 1), k >> 1), block[k], 4);
    }
    blitAll(src, dst, VK_FILTER_LINEAR);
    for (int s = 0; s < kSums; ++s)
      for (int c = 0; c < 4; ++c) ASSERT_EQ(dst.get<uint8_t>(s, 0, 0, 0, c), nearestEvenQuarter(s)) << s << " channel " << c;
  });
}

// The exact LINEAR value of an RGBA8 blit at destination texel (x, y, z), channel c, in units of
// the last bit, from the spec's formulas: u = (x + 1/2 - x_dst0) (x_src1 - x_src0) / (x_dst1 -
// x_dst0) + x_src0 (likewise v, w), then the trilinear weights of the eight texels around
// (u - 1/2, v - 1/2, w - 1/2), each clamped to the edge of the source image.
double exactLinearRgba8In3D(TestImage& src, const VkOffset3D so[2], const VkOffset3D dof[2], int32_t x, int32_t y,
                            int32_t z, int c) {
  auto coord = [](int32_t i, int32_t s0, int32_t s1, int32_t d0, int32_t d1) {
    return (double(i) + 0.5 - d0) * double(s1 - s0) / double(d1 - d0) + s0 - 0.5;
  };
  const double t[3] = {coord(x, so[0].x, so[1].x, dof[0].x, dof[1].x), coord(y, so[0].y, so[1].y, dof[0].y, dof[1].y),
                       coord(z, so[0].z, so[1].z, dof[0].z, dof[1].z)};
  const double size[3] = {double(src.extent.width), double(src.extent.height), double(src.extent.depth)};
  double sum = 0;
  for (int corner = 0; corner < 8; ++corner) {
    double w = 1;
    uint32_t at[3];
    for (int a = 0; a < 3; ++a) {
      const double f = std::floor(t[a]), frac = t[a] - f;
      const int d = (corner >> a) & 1;
      w *= d ? frac : 1 - frac;
      at[a] = uint32_t(std::clamp(f + d, 0.0, size[a] - 1));
    }
    if (w != 0) sum += w * double(src.at(at[0], at[1], at[2])[c]);
  }
  return sum;
}

// The 2:1 path against the spec's value and against the generic codec path (RGBA8 -> BGRA8, a
// format change, so never the RGBA8 paths), on random data, at odd sizes and offsets, both row
// kernels. Where the spec's value is an exact tie (s / 4 with s = 2 mod 4) the result is the even
// neighbour (the generic path, in double on decoded floats, may round either way); elsewhere
// both paths must give its correct rounding. Cases that are not 2:1 in x (or need a second
// slice) take the general RGBA8 row: within half a step of the spec's value.
TEST(ImageCopiesWithScaling, Rgba8HalvingMatchesTheSpecAndTheGenericPath) {
  struct Case {
    const char* what;
    uint32_t sw, sh, sd, dw, dh, dd;
    VkOffset3D s0, s1, d0, d1;
    bool quarters;  // every weight is a multiple of 1/4: the spec's value is exact in double
  };
  const Case cases[] = {
      {"4097 wide, its first 4096 halved", 4097, 6, 1, 2048, 3, 1, {0, 0, 0}, {4096, 6, 1}, {0, 0, 0}, {2048, 3, 1}, true},
      {"4097 wide, whole (not 2:1)", 4097, 6, 1, 2048, 3, 1, {0, 0, 0}, {4097, 6, 1}, {0, 0, 0}, {2048, 3, 1}, false},
      {"2x2 -> 1x1", 2, 2, 1, 1, 1, 1, {0, 0, 0}, {2, 2, 1}, {0, 0, 0}, {1, 1, 1}, true},
      {"2x1 -> 1x1 (1:1 in y)", 2, 1, 1, 1, 1, 1, {0, 0, 0}, {2, 1, 1}, {0, 0, 0}, {1, 1, 1}, true},
      {"1x1 -> 1x1", 1, 1, 1, 1, 1, 1, {0, 0, 0}, {1, 1, 1}, {0, 0, 0}, {1, 1, 1}, true},
      {"1x2 -> 1x1 (1:1 in x)", 1, 2, 1, 1, 1, 1, {0, 0, 0}, {1, 2, 1}, {0, 0, 0}, {1, 1, 1}, true},
      {"region offsets", 41, 23, 1, 30, 12, 1, {3, 2, 0}, {35, 22, 1}, {5, 1, 0}, {21, 11, 1}, true},
      {"mirrored in y", 41, 23, 1, 30, 12, 1, {3, 22, 0}, {35, 2, 1}, {5, 1, 0}, {21, 11, 1}, true},
      {"mirrored in x", 41, 23, 1, 30, 12, 1, {35, 2, 0}, {3, 22, 1}, {5, 1, 0}, {21, 11, 1}, true},
      {"both mirrored in x", 41, 23, 1, 30, 12, 1, {35, 2, 0}, {3, 22, 1}, {21, 1, 0}, {5, 11, 1}, true},
      {"6:1 in y", 34, 12, 1, 17, 2, 1, {0, 0, 0}, {34, 12, 1}, {0, 0, 0}, {17, 2, 1}, true},
      {"3:1 in y", 34, 9, 1, 17, 3, 1, {0, 0, 0}, {34, 9, 1}, {0, 0, 0}, {17, 3, 1}, true},
      {"7:3 in y", 34, 7, 1, 17, 3, 1, {0, 0, 0}, {34, 7, 1}, {0, 0, 0}, {17, 3, 1}, false},
      {"destination clipped", 64, 10, 1, 20, 5, 1, {0, 0, 0}, {64, 10, 1}, {-6, 0, 0}, {26, 5, 1}, true},
      {"3D, 1:1 in z", 18, 6, 3, 9, 3, 3, {0, 0, 0}, {18, 6, 3}, {0, 0, 0}, {9, 3, 3}, true},
      {"3D, 2:1 in z", 18, 6, 4, 9, 3, 2, {0, 0, 0}, {18, 6, 4}, {0, 0, 0}, {9, 3, 2}, false},
      // Over 4 MiB of destination: the streamed stores, from an odd start (x = 1; the test
      // image's row pitch is width * 4 + 8, so rows start at varying alignments).
      {"large, streamed", 4097, 1030, 1, 2050, 515, 1, {1, 2, 0}, {4097, 1028, 1}, {1, 1, 0}, {2049, 514, 1}, true},
  };
  uint32_t seed = 777;
  auto next = [&] { return seed = seed * 1664525u + 1013904223u; };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    TestImage src(VK_FORMAT_R8G8B8A8_UNORM, k.sw, k.sh, k.sd);
    for (auto& b : src.bytes) b = uint8_t(next() >> 24);
    const VkOffset3D so[2] = {k.s0, k.s1}, dof[2] = {k.d0, k.d1};
    TestImage generic(VK_FORMAT_B8G8R8A8_UNORM, k.dw, k.dh, k.dd, 1, VK_IMAGE_ASPECT_COLOR_BIT, 0x5A);
    blitRegion(src.view(), generic.view(), so, dof, VK_FILTER_LINEAR);
    forEachBlitKernel([&] {
      TestImage fast(VK_FORMAT_R8G8B8A8_UNORM, k.dw, k.dh, k.dd, 1, VK_IMAGE_ASPECT_COLOR_BIT, 0x5A);
      blitRegion(src.view(), fast.view(), so, dof, VK_FILTER_LINEAR);
      // Row bands (as the ICD splits a blit over threads) give the same bytes.
      TestImage banded(VK_FORMAT_R8G8B8A8_UNORM, k.dw, k.dh, k.dd, 1, VK_IMAGE_ASPECT_COLOR_BIT, 0x5A);
      for (int32_t band = 0; band < int32_t(k.dh); band += 3)
        blitRegion(src.view(), banded.view(), so, dof, VK_FILTER_LINEAR, band, band + 3);
      ASSERT_EQ(fast.bytes, banded.bytes);
      auto inside = [](int32_t i, int32_t d0, int32_t d1) { return i >= std::min(d0, d1) && i < std::max(d0, d1); };
      for (uint32_t z = 0; z < k.dd; ++z)
        for (uint32_t y = 0; y < k.dh; ++y)
          for (uint32_t x = 0; x < k.dw; ++x) {
            const uint8_t* f = fast.at(x, y, z);
            const uint8_t* g = generic.at(x, y, z);
            if (!inside(int32_t(x), k.d0.x, k.d1.x) || !inside(int32_t(y), k.d0.y, k.d1.y) ||
                !inside(int32_t(z), k.d0.z, k.d1.z)) {  // outside the destination region: untouched
              ASSERT_EQ(f[0], 0x5A) << x << "," << y << "," << z;
              continue;
            }
            const int gen[4] = {g[2], g[1], g[0], g[3]};  // BGRA -> RGBA
            for (int c = 0; c < 4; ++c) {
              const double exact = exactLinearRgba8In3D(src, so, dof, int32_t(x), int32_t(y), int32_t(z), c);
              const auto where = [&] {
                return testing::Message() << x << "," << y << "," << z << " channel " << c << " exact " << exact
                                          << " fast " << int(f[c]) << " generic " << gen[c];
              };
              ASSERT_LE(std::abs(gen[c] - exact), 0.5 + 1e-4) << where();
              if (!k.quarters) {
                ASSERT_LE(std::abs(f[c] - exact), 0.5 + 1e-4) << where();
                continue;
              }
              ASSERT_EQ(f[c], nearestEvenQuarter(int(std::lround(exact * 4)))) << where();
              if (std::abs(exact - std::floor(exact) - 0.5) > 1e-9) {  // not a tie
                ASSERT_EQ(f[c], gen[c]) << where();
              }
            }
          }
    });
  }
}

}  // namespace
}  // namespace tessera
