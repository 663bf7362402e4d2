// The image helpers' direct conversions (spirv_jit/runtime_image.cpp DirectFormat: 8-bit UNORM,
// 8/16/32-bit UINT and SINT, 32-bit SFLOAT, RGBA or BGRA order, with the identity swizzle)
// against the texel codec they bypass, on random texels and random values: OpImageRead returns
// what decodeTexel makes of the texel and OpImageWrite stores what encodeTexel makes of the
// value, bit for bit. The values include what the conversions must get right: NaNs, infinities,
// negative zero, values beyond [0, 1] and the floats nearest to halfway between two UNORM codes
// (no float is exactly halfway: (2k + 1) / 510 is not a dyadic fraction), integers beyond the
// component's range (clamped).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "runtime_image.h"
#include "tessera/format.h"
#include "tessera/shader_abi.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

constexpr uint32_t kSize = 8;

uint32_t floatWord(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// A component value: special floats, UNORM halfway points, integers at and beyond the ranges.
uint32_t interestingValue(std::mt19937& rng) {
  switch (rng() % 6) {
    case 0: {
      const uint32_t specials[] = {0x7FC00000u, 0x7F800000u, 0xFF800000u, 0x80000000u, 0x7F800001u,
                                   floatWord(1.5f), floatWord(-0.25f), floatWord(1.0f), 0u};
      return specials[rng() % 9];
    }
    case 1: return floatWord((float(rng() % 256) + 0.5f) / 255.0f);  // nearly halfway between codes
    case 2: return floatWord(std::uniform_real_distribution<float>(-0.2f, 1.2f)(rng));
    case 3: {
      const uint32_t ints[] = {0u, 127u, 128u, 255u, 256u, 32767u, 32768u, 65535u, 65536u,
                               0xFFFFFF80u, 0xFFFF8000u, 0xFFFF7FFFu, 0x80000000u, 0x7FFFFFFFu};
      return ints[rng() % 14];
    }
    default: return uint32_t(rng());
  }
}

TEST(RuntimeImageDirect, ReadsAndWritesWhatTheCodecDoes) {
  const VkFormat formats[] = {
      VK_FORMAT_R8_UNORM,          VK_FORMAT_R8G8_UNORM,        VK_FORMAT_R8G8B8A8_UNORM,    VK_FORMAT_B8G8R8A8_UNORM,
      VK_FORMAT_R8_UINT,           VK_FORMAT_R8G8_UINT,         VK_FORMAT_R8G8B8A8_UINT,     VK_FORMAT_R8_SINT,
      VK_FORMAT_R8G8_SINT,         VK_FORMAT_R8G8B8A8_SINT,     VK_FORMAT_R16_UINT,          VK_FORMAT_R16G16_UINT,
      VK_FORMAT_R16G16B16A16_UINT, VK_FORMAT_R16_SINT,          VK_FORMAT_R16G16_SINT,       VK_FORMAT_R16G16B16A16_SINT,
      VK_FORMAT_R32G32_UINT,       VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R32G32_SINT,       VK_FORMAT_R32G32B32A32_SINT,
      VK_FORMAT_R32G32_SFLOAT,     VK_FORMAT_R32G32B32A32_SFLOAT};
  std::mt19937 rng(20261202);
  for (const VkFormat format : formats) {
    const FormatInfo& f = *formatInfo(format);
    SCOPED_TRACE(f.name);
    const uint32_t size = f.blockSize;
    std::vector<uint8_t> texels(kSize * kSize * size);
    for (uint8_t& b : texels) b = uint8_t(rng());
    abi::ImageViewState view{};
    view.format = format;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    view.levelCount = view.layerCount = view.samples = 1;
    view.texelSize = size;
    for (uint32_t c = 0; c < 4; ++c) view.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
    const uint64_t pitch = kSize * size;
    view.levels[0] = {texels.data(), kSize, kSize, 1, 0, pitch, pitch * kSize, pitch * kSize};
    const abi::ImageDescriptor desc{&view, nullptr, {}};
    for (uint32_t round = 0; round < 4; ++round)
      for (uint32_t i = 0; i < kSize * kSize; ++i) {
        uint8_t* texel = texels.data() + i * size;
        TexelValue expected{};
        decodeTexel(f, texel, expected);
        uint32_t got[4];
        tessera_rt_image_read(&desc, int32_t(i % kSize), int32_t(i / kSize), 0, 0, 0, got);
        ASSERT_EQ(std::memcmp(got, expected.u, 16), 0) << "read of texel " << i;

        TexelValue value;
        for (uint32_t c = 0; c < 4; ++c) value.u[c] = interestingValue(rng);
        std::vector<uint8_t> want(texel, texel + size);
        encodeTexel(f, value, want.data());
        tessera_rt_image_write(&desc, int32_t(i % kSize), int32_t(i / kSize), 0, 0, 0, value.u);
        ASSERT_EQ(std::vector<uint8_t>(texel, texel + size), want)
            << "write of " << std::hex << value.u[0] << " " << value.u[1] << " " << value.u[2] << " " << value.u[3];
      }
  }
}

}  // namespace
}  // namespace tessera
