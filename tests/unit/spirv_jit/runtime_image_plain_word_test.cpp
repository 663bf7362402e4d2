// The image helpers' direct paths against the texel codec they bypass: 8-bit RGBA / BGRA
// UNORM and sRGB views with the identity swizzle (texelFetch, read through the codec's byte
// tables: every byte value, sRGB's alpha UNORM), and 32-bit single-component views (R32_UINT,
// R32_SINT, R32_SFLOAT with the identity swizzle, spirv_jit/runtime_image.cpp): for random words (NaNs, infinities, denormals and negative zero
// among them), OpImageRead returns what decodeTexel makes of the texel ("Conversion to RGBA":
// G = B = 0, A = 1) and OpImageWrite stores what encodeTexel makes of the value. A swizzled view
// still takes the general path and is swizzled; an out-of-range texel reads as replaced and is
// never written.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "tessera/format.h"
#include "runtime_image.h"
#include "tessera/shader_abi.h"
#include "tessera/texel_codec.h"


namespace tessera {
namespace {

constexpr uint32_t kSize = 8;

abi::ImageViewState wordView(VkFormat format, std::vector<uint32_t>& texels) {
  abi::ImageViewState view{};
  view.format = format;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  view.levelCount = view.layerCount = view.samples = 1;
  view.texelSize = 4;
  for (uint32_t c = 0; c < 4; ++c) view.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
  const size_t pitch = kSize * 4;
  view.levels[0] = {reinterpret_cast<uint8_t*>(texels.data()), kSize, kSize, 1, 0, pitch, pitch * kSize, pitch * kSize};
  return view;
}

std::vector<uint32_t> interestingWords(std::mt19937& rng) {
  std::vector<uint32_t> words = {0u,          0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x7F800001u,
                                 0xFFFFFFFFu, 0x00000001u, 0x807FFFFFu, 0x3F800000u, 0x7FFFFFFFu};
  while (words.size() < kSize * kSize) words.push_back(uint32_t(rng()));
  return words;
}

TEST(RuntimeImagePlainWord, ReadsAndWritesWhatTheCodecDoes) {
  std::mt19937 rng(20261129);
  for (const VkFormat format : {VK_FORMAT_R32_UINT, VK_FORMAT_R32_SINT, VK_FORMAT_R32_SFLOAT}) {
    SCOPED_TRACE(format);
    const FormatInfo& f = *formatInfo(format);
    std::vector<uint32_t> texels = interestingWords(rng);
    abi::ImageViewState view = wordView(format, texels);
    const abi::ImageDescriptor desc{&view, nullptr, {}};
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        TexelValue expected{};
        decodeTexel(f, reinterpret_cast<const uint8_t*>(&texels[y * kSize + x]), expected);
        uint32_t got[4];
        tessera_rt_image_read(&desc, int32_t(x), int32_t(y), 0, 0, 0, got);
        ASSERT_EQ(std::memcmp(got, expected.u, 16), 0) << x << "," << y << " word " << std::hex << texels[y * kSize + x];
      }
    const std::vector<uint32_t> values = interestingWords(rng);
    for (uint32_t i = 0; i < kSize * kSize; ++i) {
      const uint32_t in[4] = {values[i], uint32_t(rng()), uint32_t(rng()), uint32_t(rng())};
      TexelValue value{};
      std::memcpy(value.u, in, 16);
      uint32_t expected = texels[i];
      encodeTexel(f, value, reinterpret_cast<uint8_t*>(&expected));
      tessera_rt_image_write(&desc, int32_t(i % kSize), int32_t(i / kSize), 0, 0, 0, in);
      ASSERT_EQ(texels[i], expected) << "value " << std::hex << values[i];
    }
    // Out of range: nothing written, the read replaced ("Texel Replacement": (0, 0, 0, 1)).
    const std::vector<uint32_t> before = texels;
    const uint32_t in[4] = {5, 6, 7, 8};
    tessera_rt_image_write(&desc, int32_t(kSize), 0, 0, 0, 0, in);
    tessera_rt_image_write(&desc, 0, -1, 0, 0, 0, in);
    EXPECT_EQ(texels, before);
    uint32_t outside[4] = {9, 9, 9, 9};
    tessera_rt_image_read(&desc, 0, int32_t(kSize), 0, 0, 0, outside);
    EXPECT_EQ(outside[0] | outside[1] | outside[2], 0u);
    EXPECT_EQ(outside[3], format == VK_FORMAT_R32_SFLOAT ? 0x3F800000u : 1u);
  }
}

TEST(RuntimeImagePlainWord, EightBitColourTexelsReadAsTheCodecDecodesThem) {
  std::mt19937 rng(20261201);
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                                VK_FORMAT_B8G8R8A8_SRGB}) {
    SCOPED_TRACE(format);
    const FormatInfo& f = *formatInfo(format);
    // Each byte value in every component position somewhere.
    std::vector<uint32_t> texels(kSize * kSize * 4);
    for (uint32_t i = 0; i < texels.size(); ++i) texels[i] = (i % 256) | uint32_t(rng()) << 8;
    abi::ImageViewState view = wordView(format, texels);
    view.levels[0].height = kSize * 4;
    const abi::ImageDescriptor desc{&view, nullptr, {}};
    for (uint32_t y = 0; y < kSize * 4; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        TexelValue expected{};
        decodeTexel(f, reinterpret_cast<const uint8_t*>(&texels[y * kSize + x]), expected);
        uint32_t got[4];
        tessera_rt_image_read(&desc, int32_t(x), int32_t(y), 0, 0, 0, got);
        ASSERT_EQ(std::memcmp(got, expected.u, 16), 0) << x << "," << y << " texel " << std::hex << texels[y * kSize + x];
      }
    // Out of range: replaced, (0, 0, 0, 0) for a format with alpha.
    uint32_t outside[4] = {9, 9, 9, 9};
    tessera_rt_image_read(&desc, -1, 0, 0, 0, 0, outside);
    EXPECT_EQ(outside[0] | outside[1] | outside[2] | outside[3], 0u);
  }
}

TEST(RuntimeImagePlainWord, SwizzledViewIsSwizzled) {
  std::vector<uint32_t> texels(kSize * kSize, 1234u);
  abi::ImageViewState view = wordView(VK_FORMAT_R32_UINT, texels);
  view.swizzle[0] = VK_COMPONENT_SWIZZLE_ONE;
  view.swizzle[1] = VK_COMPONENT_SWIZZLE_R;
  const abi::ImageDescriptor desc{&view, nullptr, {}};
  uint32_t got[4];
  tessera_rt_image_read(&desc, 1, 1, 0, 0, 0, got);
  EXPECT_EQ(got[0], 1u);
  EXPECT_EQ(got[1], 1234u);
  EXPECT_EQ(got[2], 0u);
  EXPECT_EQ(got[3], 1u);
}

}  // namespace
}  // namespace tessera
