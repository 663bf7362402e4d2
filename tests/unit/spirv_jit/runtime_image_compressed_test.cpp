// OpImageFetch's runtime helper (spirv_jit/runtime_image.cpp) on a block-compressed sampled
// image: texel (x, y) comes from block (x/4, y/4) at (x%4, y%4), rows of memory being rows of
// blocks while the level's size counts texels (icd/image.cpp's layout; 6x6 here, so the last
// block row and column are half padding), and coordinates outside the level read 0.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "tessera/compressed.h"
#include "runtime_image.h"
#include "tessera/shader_abi.h"


namespace tessera {
namespace {

TEST(RuntimeImageCompressed, FetchDecodesTheTexelsBlock) {
  const FormatInfo& f = *formatInfo(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK);
  constexpr uint32_t kSize = 6, kBlocks = 2;
  const size_t rowPitch = kBlocks * f.blockSize + 16;  // slack: the pitch must be used
  std::vector<uint8_t> bytes(rowPitch * kBlocks);
  uint32_t s = 0x1234567u;
  for (uint8_t& b : bytes) s = s * 1664525u + 1013904223u, b = uint8_t(s >> 24);
  abi::ImageViewState view{};
  view.format = f.format;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  view.levelCount = view.layerCount = view.samples = 1;
  view.texelSize = f.blockSize;
  view.levels[0] = {bytes.data(), kSize, kSize, 1, 0, rowPitch, rowPitch * kBlocks, rowPitch * kBlocks};
  const abi::ImageDescriptor desc{&view, nullptr, {}};
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      TexelValue block[16];
      ASSERT_TRUE(decodeCompressedBlock(f, bytes.data() + (y / 4) * rowPitch + (x / 4) * f.blockSize, block));
      uint32_t got[4];
      tessera_rt_image_read(&desc, int32_t(x), int32_t(y), 0, 0, 0, got);
      EXPECT_EQ(std::memcmp(got, block[(y % 4) * 4 + x % 4].u, 16), 0) << x << "," << y;
    }
  uint32_t outside[4] = {1, 1, 1, 1};
  tessera_rt_image_read(&desc, int32_t(kSize), 0, 0, 0, 0, outside);  // in the padding of block 1
  EXPECT_EQ(outside[0] | outside[1] | outside[2] | outside[3], 0u);
}

}  // namespace
}  // namespace tessera
