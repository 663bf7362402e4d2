// Reading block-compressed (ETC2/EAC) images through the reference sampler and blitRegion: the
// texel (i, j) must come from block (i/4, j/4) at texel (i%4, j%4) of it, with rows of memory
// being rows of blocks (rowPitch in bytes per row of blocks, as icd/image.cpp lays images out)
// and the level's extent in texels (6x6 here: the last block row and column are half padding).
// The decoded values themselves are etc2_decode_test's subject; here the expected texels come
// from decodeCompressedBlock on the block the addressing rules name.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "tessera/blit.h"
#include "tessera/compressed.h"
#include "tessera/sampling.h"

namespace tessera {
namespace {

constexpr uint32_t kSize = 6, kBlocks = 2;

struct CompressedImage {
  const FormatInfo* format;
  size_t rowPitch;
  std::vector<uint8_t> bytes;

  explicit CompressedImage(VkFormat f) : format(formatInfo(f)) {
    rowPitch = kBlocks * format->blockSize + 8;  // slack: the pitch, not the width, must be used
    bytes.resize(rowPitch * kBlocks);
    uint32_t x = 0x2545F491u;  // xorshift32: arbitrary bits reach every mode
    for (uint8_t& b : bytes) {
      x ^= x << 13, x ^= x >> 17, x ^= x << 5;
      b = uint8_t(x);
    }
  }
  TexelValue expected(uint32_t i, uint32_t j) const {
    TexelValue block[16];
    EXPECT_TRUE(decodeCompressedBlock(*format, bytes.data() + (j / 4) * rowPitch + (i / 4) * format->blockSize, block));
    return block[(j % 4) * 4 + i % 4];
  }
};

abi::ImageViewState viewOf(CompressedImage& image) {
  abi::ImageViewState v{};
  v.format = image.format->format;
  v.viewType = VK_IMAGE_VIEW_TYPE_2D;
  v.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  v.levelCount = v.layerCount = v.samples = 1;
  v.texelSize = image.format->blockSize;
  for (int c = 0; c < 4; ++c) v.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
  v.levels[0] = {image.bytes.data(), kSize, kSize, 1, 0, image.rowPitch, image.rowPitch * kBlocks,
                 image.rowPitch * kBlocks};
  return v;
}

abi::SamplerState sampler(VkFilter filter) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

TEST(CompressedRead, SamplerNearestFindsEachTexelsBlock) {
  for (VkFormat f : {VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, VK_FORMAT_EAC_R11G11_SNORM_BLOCK}) {
    CompressedImage image(f);
    const abi::ImageViewState view = viewOf(image);
    for (uint32_t j = 0; j < kSize; ++j)
      for (uint32_t i = 0; i < kSize; ++i) {
        SampleRequest r;
        r.s = (i + 0.5f) / kSize, r.t = (j + 0.5f) / kSize;
        r.hasLod = true;
        const TexelValue got = sampleImage(view, sampler(VK_FILTER_NEAREST), r);
        const TexelValue want = image.expected(i, j);
        for (int c = 0; c < 4; ++c) EXPECT_EQ(got.f[c], want.f[c]) << image.format->name << " " << i << "," << j;
      }
  }
}

TEST(CompressedRead, SamplerLinearAcrossFourBlocks) {
  // (s, t) = (4/6, 4/6) is the corner shared by texels (3,3), (4,3), (3,4), (4,4), which lie in
  // four different blocks: "Texel Filtering" weights them 1/4 each.
  CompressedImage image(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK);
  const abi::ImageViewState view = viewOf(image);
  SampleRequest r;
  r.s = r.t = 4.0f / kSize;
  r.hasLod = true;
  const TexelValue got = sampleImage(view, sampler(VK_FILTER_LINEAR), r);
  for (int c = 0; c < 4; ++c) {
    const double want = (double(image.expected(3, 3).f[c]) + image.expected(4, 3).f[c] + image.expected(3, 4).f[c] +
                         image.expected(4, 4).f[c]) / 4;
    EXPECT_NEAR(got.f[c], want, 1e-6) << c;
  }
}

TEST(CompressedRead, BlitFromCompressedSource) {
  for (VkFormat f : {VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, VK_FORMAT_EAC_R11_UNORM_BLOCK}) {
    CompressedImage image(f);
    std::vector<float> out(kSize * kSize * 4, -9.0f);
    const SubresourceView src{image.bytes.data(), image.format, VK_IMAGE_ASPECT_COLOR_BIT, {kSize, kSize, 1}, 1,
                              image.rowPitch, image.rowPitch * kBlocks};
    const SubresourceView dst{reinterpret_cast<uint8_t*>(out.data()), formatInfo(VK_FORMAT_R32G32B32A32_SFLOAT),
                              VK_IMAGE_ASPECT_COLOR_BIT, {kSize, kSize, 1}, 1, kSize * 16, kSize * kSize * 16};
    const VkOffset3D region[2] = {{0, 0, 0}, {int32_t(kSize), int32_t(kSize), 1}};
    blitRegion(src, dst, region, region, VK_FILTER_NEAREST);
    for (uint32_t j = 0; j < kSize; ++j)
      for (uint32_t i = 0; i < kSize; ++i) {
        const TexelValue want = image.expected(i, j);
        for (int c = 0; c < 4; ++c)
          EXPECT_EQ(out[(j * kSize + i) * 4 + c], want.f[c]) << image.format->name << " " << i << "," << j;
      }
  }
}

}  // namespace
}  // namespace tessera
