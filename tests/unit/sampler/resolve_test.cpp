// resolveRegion against the spec section "Resolving Multisample Images" (vkCmdResolveImage):
// "If the source format is a floating-point or normalized type, the sample values for each pixel
// are resolved in an implementation-dependent manner. If the source format is an integer type, a
// single sample's value is selected for each pixel." Tessera averages the decoded samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "sampler_test_image.h"
#include "tessera/blit.h"

namespace tessera {
namespace {

using test::TestImage;

void resolveAll(TestImage& src, TestImage& dst) {
  resolveRegion(src.view(), dst.view(), {0, 0, 0}, {0, 0, 0}, dst.extent);
}

TEST(MultisampleResolve, UnormAveragesSamples) {
  // R (10+20+30+40)/4 = 25; G (0+255*3)/4 = 191.25 -> 191; B 255/4 = 63.75 -> 64; A 255.
  TestImage src(VK_FORMAT_R8G8B8A8_UNORM, 1, 1, 1, 4), dst(VK_FORMAT_R8G8B8A8_UNORM, 1, 1);
  src.set<uint8_t>(0, 0, 0, 0, {10, 0, 0, 255});
  src.set<uint8_t>(0, 0, 0, 1, {20, 255, 0, 255});
  src.set<uint8_t>(0, 0, 0, 2, {30, 255, 0, 255});
  src.set<uint8_t>(0, 0, 0, 3, {40, 255, 255, 255});
  resolveAll(src, dst);
  EXPECT_EQ(dst.bytes[0], 25);
  EXPECT_EQ(dst.bytes[1], 191);
  EXPECT_EQ(dst.bytes[2], 64);
  EXPECT_EQ(dst.bytes[3], 255);
}

// R8G8B8A8_UNORM and B8G8R8A8_UNORM are averaged inline (sampler/resolve.cpp); A8B8G8R8_UNORM_PACK32
// has the same bytes (R in the lowest) and goes through the texel codec: on random samples at 2,
// 4 and 8 samples both must give the same bytes.
TEST(MultisampleResolve, InlineUnorm8AverageEqualsTheCodecPath) {
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (uint32_t samples : {2u, 4u, 8u}) {
    for (VkFormat inlined : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM}) {
      TestImage fast(inlined, 67, 61, 1, samples), codec(VK_FORMAT_A8B8G8R8_UNORM_PACK32, 67, 61, 1, samples);
      for (size_t i = 0; i < fast.bytes.size(); ++i) fast.bytes[i] = codec.bytes[i] = uint8_t(next() >> 13);
      // Some pixels with equal samples and extremes, where rounding ties are likeliest.
      for (uint32_t s = 0; s < samples; ++s) {
        fast.set<uint8_t>(0, 0, 0, s, {0, 255, uint8_t(s % 2 ? 255 : 0), uint8_t(s % 2 ? 1 : 0)});
        codec.set<uint8_t>(0, 0, 0, s, {0, 255, uint8_t(s % 2 ? 255 : 0), uint8_t(s % 2 ? 1 : 0)});
      }
      TestImage fastOut(inlined, 67, 61), codecOut(VK_FORMAT_A8B8G8R8_UNORM_PACK32, 67, 61);
      resolveAll(fast, fastOut);
      resolveAll(codec, codecOut);
      EXPECT_EQ(fastOut.bytes, codecOut.bytes) << "samples " << samples << ", format " << inlined;
    }
  }
}

// The 4-sample row average decodes bytes without a division and takes sample 0 for four
// pixels whose samples are all equal (sampler/resolve.cpp): every byte value in every sample
// and component position, on rows whose lengths leave every remainder of the four-pixel loop,
// against the texel codec's path.
TEST(MultisampleResolve, FourSampleAverageOfEveryByteEqualsTheCodecPath) {
  for (uint32_t width : {256u, 257u, 258u, 259u}) {
    TestImage fast(VK_FORMAT_R8G8B8A8_UNORM, width, 2, 1, 4), codec(VK_FORMAT_A8B8G8R8_UNORM_PACK32, width, 2, 1, 4);
    for (uint32_t y = 0; y < 2; ++y)
      for (uint32_t x = 0; x < width; ++x)
        for (uint32_t s = 0; s < 4; ++s) {
          // Groups of four pixels with all samples equal (the routine's shortcut), groups whose
          // samples differ, and in row 1 groups mixing both.
          const bool equal = y == 0 ? (x >> 2) % 3 != 1 : x % 3 == 0;
          const auto byte = [&](uint32_t c) { return uint8_t(x * (y ? 1 : 7) + (equal ? 0 : 37 * s) + 91 * c); };
          fast.set<uint8_t>(x, y, 0, s, {byte(0), byte(1), byte(2), byte(3)});
          codec.set<uint8_t>(x, y, 0, s, {byte(0), byte(1), byte(2), byte(3)});
        }
    TestImage fastOut(VK_FORMAT_R8G8B8A8_UNORM, width, 2), codecOut(VK_FORMAT_A8B8G8R8_UNORM_PACK32, width, 2);
    resolveAll(fast, fastOut);
    resolveAll(codec, codecOut);
    EXPECT_EQ(fastOut.bytes, codecOut.bytes) << "width " << width;
  }
}

// A destination whose rows are whole, 64-byte aligned cache lines (a scene tile's rows) takes
// the non-temporal stores: the same bytes as the codec path, and nothing outside the region.
TEST(MultisampleResolve, AlignedDestinationRowsEqualTheCodecPath) {
  constexpr uint32_t kWidth = 80, kHeight = 3, kPitch = 512;
  TestImage fast(VK_FORMAT_R8G8B8A8_UNORM, kWidth, kHeight, 1, 4), codec(VK_FORMAT_A8B8G8R8_UNORM_PACK32, kWidth, kHeight, 1, 4);
  uint32_t state = 99;
  for (size_t i = 0; i < fast.bytes.size(); ++i) fast.bytes[i] = codec.bytes[i] = uint8_t((state = state * 1664525u + 1013904223u) >> 13);
  alignas(64) static uint8_t aligned[kPitch * kHeight];
  std::fill(std::begin(aligned), std::end(aligned), uint8_t(0xA5));
  const SubresourceView dst{aligned, fast.view().format, VK_IMAGE_ASPECT_COLOR_BIT, {kWidth, kHeight, 1}, 1, kPitch, 0};
  // Columns 16.. 80: 64 pixels starting on a cache line.
  resolveRegion(fast.view(), dst, {16, 0, 0}, {16, 0, 0}, {64, kHeight, 1});
  TestImage codecOut(VK_FORMAT_A8B8G8R8_UNORM_PACK32, kWidth, kHeight);
  resolveAll(codec, codecOut);
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = 0; x < kWidth * 4; ++x) {
      const uint8_t want = x >= 64 ? codecOut.bytes[y * codecOut.rowPitch() + x] : uint8_t(0xA5);
      ASSERT_EQ(aligned[y * kPitch + x], want) << "byte " << x << " of row " << y;
    }
  for (uint32_t y = 0; y < kHeight; ++y)
    for (uint32_t x = kWidth * 4; x < kPitch; ++x) ASSERT_EQ(aligned[y * kPitch + x], 0xA5);
}

TEST(MultisampleResolve, FloatAveragesSamples) {
  TestImage src(VK_FORMAT_R32G32_SFLOAT, 2, 1, 1, 4), dst(VK_FORMAT_R32G32_SFLOAT, 2, 1);
  for (uint32_t s = 0; s < 4; ++s) {
    src.set<float>(0, 0, 0, s, {float(s + 1), -float(s)});
    src.set<float>(1, 0, 0, s, {0.5f, 8.0f});
  }
  resolveAll(src, dst);
  EXPECT_EQ(dst.get<float>(0, 0, 0, 0, 0), 2.5f);
  EXPECT_EQ(dst.get<float>(0, 0, 0, 0, 1), -1.5f);
  EXPECT_EQ(dst.get<float>(1, 0, 0, 0, 0), 0.5f);
  EXPECT_EQ(dst.get<float>(1, 0, 0, 0, 1), 8.0f);
}

TEST(MultisampleResolve, SrgbAveragesInLinearSpace) {
  // Samples 0, 255, 0, 255: linear mean 0.5 -> 255 * (1.055 * 0.5^(1/2.4) - 0.055) = 187.5 -> 188.
  TestImage src(VK_FORMAT_R8G8B8A8_SRGB, 1, 1, 1, 4), dst(VK_FORMAT_R8G8B8A8_SRGB, 1, 1);
  for (uint32_t s = 0; s < 4; ++s) {
    const uint8_t v = s % 2 ? 255 : 0;
    src.set<uint8_t>(0, 0, 0, s, {v, v, v, v});
  }
  resolveAll(src, dst);
  EXPECT_EQ(dst.bytes[0], 188);
  EXPECT_EQ(dst.bytes[3], 128);  // alpha is linear: 127.5 -> 128
}

TEST(MultisampleResolve, EqualSamplesResolveExactly) {
  for (int v = 0; v < 256; ++v) {
    for (VkFormat f :
         {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_R8G8B8A8_SNORM}) {
      TestImage src(f, 1, 1, 1, 8), dst(f, 1, 1);
      for (uint32_t s = 0; s < 8; ++s)
        src.set<uint8_t>(0, 0, 0, s, {uint8_t(v), uint8_t(255 - v), uint8_t(v ^ 0x33), uint8_t(v)});
      resolveAll(src, dst);
      for (int c = 0; c < 4; ++c) {
        uint8_t expect = src.bytes[c];
        if (f == VK_FORMAT_R8G8B8A8_SNORM && expect == 0x80) expect = 0x81;  // -128 reads as -1.0
        EXPECT_EQ(dst.bytes[c], expect) << v << " " << c;
      }
    }
  }
}

TEST(MultisampleResolve, IntegerFormatsTakeSampleZero) {
  TestImage src(VK_FORMAT_R32_UINT, 1, 1, 1, 4), dst(VK_FORMAT_R32_UINT, 1, 1);
  const uint32_t samples[4] = {7, 1000, 3, 0xFFFFFFFFu};
  for (uint32_t s = 0; s < 4; ++s) src.set<uint32_t>(0, 0, 0, s, {samples[s]});
  resolveAll(src, dst);
  EXPECT_EQ(dst.get<uint32_t>(0, 0), 7u);
  TestImage ssrc(VK_FORMAT_R8G8B8A8_SINT, 1, 1, 1, 2), sdst(VK_FORMAT_R8G8B8A8_SINT, 1, 1);
  ssrc.set<int8_t>(0, 0, 0, 0, {-1, -2, -3, -4});
  ssrc.set<int8_t>(0, 0, 0, 1, {1, 2, 3, 4});
  resolveAll(ssrc, sdst);
  EXPECT_EQ(sdst.get<int8_t>(0, 0, 0, 0, 0), -1);
  EXPECT_EQ(sdst.get<int8_t>(0, 0, 0, 0, 3), -4);
}

TEST(MultisampleResolve, OffsetsSelectTheRegion) {
  // Resolve the 2x2 block at src (1,1) into dst (2,0); everything else in dst is untouched.
  TestImage src(VK_FORMAT_R32_SFLOAT, 4, 4, 1, 2), dst(VK_FORMAT_R32_SFLOAT, 4, 4);
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      src.set<float>(x, y, 0, 0, {float(10 * y + x)});
      src.set<float>(x, y, 0, 1, {float(10 * y + x) + 1.0f});
    }
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) dst.set<float>(x, y, 0, 0, {-7.0f});
  resolveRegion(src.view(), dst.view(), {1, 1, 0}, {2, 0, 0}, {2, 2, 1});
  for (uint32_t y = 0; y < 4; ++y)
    for (uint32_t x = 0; x < 4; ++x) {
      const bool inside = x >= 2 && y < 2;
      const float expect = inside ? float(10 * (y + 1) + (x - 1)) + 0.5f : -7.0f;
      EXPECT_EQ(dst.get<float>(x, y), expect) << x << "," << y;
    }
}

}  // namespace
}  // namespace tessera
