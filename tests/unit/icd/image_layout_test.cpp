// Image storage layout (resources.h): mip chains, block-compressed rows, separate depth and
// stencil planes.
#include <gtest/gtest.h>

#include "resources.h"

namespace {

tessera::Image makeImage(VkFormat format, VkExtent3D extent, uint32_t mips, uint32_t layers, VkImageType type) {
  tessera::Image img;
  img.type = type;
  img.format = tessera::formatInfo(format);
  img.vkFormat = format;
  img.extent = extent;
  img.mipLevels = mips;
  img.arrayLayers = layers;
  tessera::computeImageLayout(img);
  return img;
}

TEST(ImageLayout, MipLevelsHalveAndRoundDownToOne) {
  auto img = makeImage(VK_FORMAT_R8G8B8A8_UNORM, {17, 5, 1}, 5, 2, VK_IMAGE_TYPE_2D);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).rowPitch, 17u * 4);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 1).extent.width, 8u);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 4).extent.width, 1u);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 4).extent.height, 1u);
  // Levels do not overlap: each starts after all layers of the previous one.
  for (uint32_t m = 1; m < 5; ++m) {
    const auto& prev = img.level(VK_IMAGE_ASPECT_COLOR_BIT, m - 1);
    EXPECT_GE(img.level(VK_IMAGE_ASPECT_COLOR_BIT, m).offset, prev.offset + prev.layerPitch * 2);
  }
  const auto& last = img.level(VK_IMAGE_ASPECT_COLOR_BIT, 4);
  EXPECT_GE(img.size, last.offset + last.layerPitch * 2);
}

TEST(ImageLayout, CompressedRowsCountBlocks) {
  // BC1: 8-byte 4x4 blocks; a 10x6 level has 3x2 blocks (partial blocks round up).
  auto img = makeImage(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, {10, 6, 1}, 1, 1, VK_IMAGE_TYPE_2D);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).rowPitch, 3u * 8);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).depthPitch, 2u * 3 * 8);
}

TEST(ImageLayout, DepthAndStencilLiveInSeparatePlanes) {
  auto img = makeImage(VK_FORMAT_D24_UNORM_S8_UINT, {8, 8, 1}, 1, 1, VK_IMAGE_TYPE_2D);
  ASSERT_EQ(img.planeCount, 2u);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_DEPTH_BIT, 0).rowPitch, 8u * 4);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_STENCIL_BIT, 0).rowPitch, 8u * 1);
  EXPECT_GE(img.planeOffsets[1], 8u * 8 * 4);
}

TEST(ImageLayout, MultiPlanarPlanesHaveTheirFormatsAndSubsampledExtents) {
  // "Multi-planar Format Image Aspect": a 10x6 NV12 image's plane 0 is 10x6 R8, plane 1 5x3 R8G8.
  auto img = makeImage(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, {10, 6, 1}, 1, 1, VK_IMAGE_TYPE_2D);
  ASSERT_EQ(img.planeCount, 2u);
  EXPECT_EQ(img.planeAspects[1], VK_IMAGE_ASPECT_PLANE_1_BIT);
  EXPECT_EQ(&img.aspectFormat(VK_IMAGE_ASPECT_PLANE_1_BIT), tessera::formatInfo(VK_FORMAT_R8G8_UNORM));
  const auto& chroma = img.level(VK_IMAGE_ASPECT_PLANE_1_BIT, 0);
  EXPECT_EQ(chroma.extent.width, 5u);
  EXPECT_EQ(chroma.extent.height, 3u);
  EXPECT_EQ(chroma.rowPitch, 5u * 2);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_PLANE_0_BIT, 0).rowPitch, 10u);
  EXPECT_GE(img.planeOffsets[1], 10u * 6);
  EXPECT_GE(img.size, img.planeOffsets[1] + 5u * 3 * 2);
  // A plane's layout is that of a single-plane image of its format and extent (an image bound to
  // a disjoint plane's memory with VK_IMAGE_CREATE_ALIAS_BIT sees the same texels).
  auto alone = makeImage(VK_FORMAT_R8G8_UNORM, {5, 3, 1}, 1, 1, VK_IMAGE_TYPE_2D);
  EXPECT_EQ(alone.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).rowPitch, chroma.rowPitch);
  EXPECT_EQ(alone.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).layerPitch, chroma.layerPitch);
  // Three planes of 4:2:2: the chroma planes are half as wide, as high.
  auto three = makeImage(VK_FORMAT_G16_B16_R16_3PLANE_422_UNORM, {8, 4, 1}, 1, 1, VK_IMAGE_TYPE_2D);
  ASSERT_EQ(three.planeCount, 3u);
  EXPECT_EQ(three.level(VK_IMAGE_ASPECT_PLANE_2_BIT, 0).extent.width, 4u);
  EXPECT_EQ(three.level(VK_IMAGE_ASPECT_PLANE_2_BIT, 0).extent.height, 4u);
  EXPECT_EQ(three.level(VK_IMAGE_ASPECT_PLANE_2_BIT, 0).rowPitch, 4u * 2);
  EXPECT_GE(three.planeOffsets[2], three.planeOffsets[1] + 4u * 4 * 2);
}

TEST(ImageLayout, ThreeDimensionalSlicesShrinkWithMips) {
  auto img = makeImage(VK_FORMAT_R16_UINT, {8, 4, 6}, 3, 1, VK_IMAGE_TYPE_3D);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 1).extent.depth, 3u);
  EXPECT_EQ(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 2).extent.depth, 1u);
  EXPECT_GE(img.level(VK_IMAGE_ASPECT_COLOR_BIT, 0).layerPitch, 8u * 4 * 6 * 2);
}

}  // namespace
