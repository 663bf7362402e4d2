// Image transfers (spec: "Copy Commands", "Clear Commands", "Image Copies With Scaling"):
// every format Tessera advertises for transfers round-trips its bytes through
// buffer -> image -> image -> buffer, and clears and blits produce the values the spec's
// conversion rules give.
#include <cmath>
#include <random>
#include <vector>

#include "tessera/format.h"
#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

using TransferImageTest = VulkanTest;

VkImageAspectFlags aspectsOf(const tessera::FormatInfo& f) { return f.aspects; }

TEST_F(TransferImageTest, EveryTransferFormatRoundTripsThroughTwoImages) {
  size_t tested = 0;
  for (const tessera::FormatInfo& f : tessera::allFormats()) {
    VkFormatProperties fp;
    vkGetPhysicalDeviceFormatProperties(physicalDevice, f.format, &fp);
    const VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    if ((fp.optimalTilingFeatures & need) != need) continue;
    SCOPED_TRACE(f.name);
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = f.format;
    // Formats that need a sampler Y'CbCr conversion have one level and even sizes (4:2:0/4:2:2).
    const bool ycbcr = f.planeCount > 1 || f.needsYcbcrConversion;
    ici.extent = {ycbcr ? 12u : uint32_t(f.blockWidth) * 5 + (f.blockWidth > 1 ? 0 : 2),
                  uint32_t(f.blockHeight) * (ycbcr ? 4 : 3), 1};
    ici.mipLevels = ycbcr ? 1 : 2;
    ici.arrayLayers = 2;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.tiling = VK_IMAGE_TILING_OPTIMAL;
    ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    auto a = createImage(ici);
    auto b = createImage(ici);
    // Multi-planar formats copy plane by plane, each plane as texels of its own format and size.
    std::vector<VkImageAspectFlagBits> aspects;
    if (f.planeCount > 1) {
      const VkImageAspectFlagBits planes[3] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                               VK_IMAGE_ASPECT_PLANE_2_BIT};
      aspects.assign(planes, planes + f.planeCount);
    } else {
      for (VkImageAspectFlags bit : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
        if (aspectsOf(f) & bit) aspects.push_back(VkImageAspectFlagBits(bit));
    }
    for (const VkImageAspectFlagBits aspect : aspects) {
      const int plane = tessera::planeOfAspect(aspect);
      const tessera::FormatInfo& pf = tessera::aspectFormat(f, aspect);
      const VkExtent3D extent = plane < 0 ? ici.extent
                                          : VkExtent3D{ici.extent.width / f.planes[plane].widthDivisor,
                                                       ici.extent.height / f.planes[plane].heightDivisor, 1};
      const uint32_t texel = tessera::aspectTexelSize(f, aspect);
      const uint32_t bw = (extent.width + pf.blockWidth - 1) / pf.blockWidth;
      const uint32_t bh = (extent.height + pf.blockHeight - 1) / pf.blockHeight;
      const uint32_t rowLengthBlocks = bw + 3;  // padded rows: bufferRowLength is honored
      const VkDeviceSize layerBytes = VkDeviceSize(rowLengthBlocks) * bh * texel;
      const VkDeviceSize size = layerBytes * 2;
      auto up = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
      auto down = createBuffer(size, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
      std::mt19937 rng(uint32_t(f.format));
      for (VkDeviceSize i = 0; i < size; ++i) up.mapped[i] = uint8_t(rng());
      if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT && f.component('D')->numeric == tessera::NumericFormat::SFloat) {
        // Float depth must hold values in [0, 1] (spec: copies to D32_SFLOAT).
        for (VkDeviceSize i = 0; i + 4 <= size; i += 4) {
          float v = float(rng() % 1000) / 999.0f;
          std::memcpy(up.mapped + i, &v, 4);
        }
      }
      std::memset(down.mapped, 0, size);
      VkBufferImageCopy copy{};
      copy.bufferRowLength = rowLengthBlocks * pf.blockWidth;
      copy.imageSubresource = {VkImageAspectFlags(aspect), 0, 0, 2};
      copy.imageExtent = extent;
      VkImageCopy imageCopy{};
      imageCopy.srcSubresource = copy.imageSubresource;
      imageCopy.dstSubresource = copy.imageSubresource;
      imageCopy.extent = extent;
      submitAndWait([&](VkCommandBuffer cb) {
        toGeneralLayout(cb, a.image, f.aspects);  // COLOR covers every plane
        toGeneralLayout(cb, b.image, f.aspects);
        vkCmdCopyBufferToImage(cb, up.buffer, a.image, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
        transferBarrier(cb);
        vkCmdCopyImage(cb, a.image, VK_IMAGE_LAYOUT_GENERAL, b.image, VK_IMAGE_LAYOUT_GENERAL, 1, &imageCopy);
        transferBarrier(cb);
        vkCmdCopyImageToBuffer(cb, b.image, VK_IMAGE_LAYOUT_GENERAL, down.buffer, 1, &copy);
      });
      // D24 depth: only the low 24 bits of each 32-bit texel are defined.
      const bool d24 = aspect == VK_IMAGE_ASPECT_DEPTH_BIT && f.component('D')->bits == 24;
      for (uint32_t layer = 0; layer < 2; ++layer)
        for (uint32_t y = 0; y < bh; ++y)
          for (uint32_t x = 0; x < bw * texel; ++x) {
            if (d24 && x % 4 == 3) continue;
            const VkDeviceSize i = layer * layerBytes + (VkDeviceSize(y) * rowLengthBlocks) * texel + x;
            ASSERT_EQ(down.mapped[i], up.mapped[i]) << "layer " << layer << " row " << y << " byte " << x;
          }
      destroy(up);
      destroy(down);
    }
    destroy(a);
    destroy(b);
    ++tested;
  }
  EXPECT_GT(tested, 180u);
}

// Reads back texel (0,0) of a 4x4 image after vkCmdClearColorImage.
class ClearTest : public VulkanTest {
 protected:
  std::vector<uint8_t> clearAndRead(VkFormat format, VkClearColorValue color, uint32_t texelSize) {
    VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
    ici.imageType = VK_IMAGE_TYPE_2D;
    ici.format = format;
    ici.extent = {4, 4, 1};
    ici.mipLevels = 1;
    ici.arrayLayers = 1;
    ici.samples = VK_SAMPLE_COUNT_1_BIT;
    ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
    auto img = createImage(ici);
    auto buf = createBuffer(16 * texelSize, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    submitAndWait([&](VkCommandBuffer cb) {
      toGeneralLayout(cb, img.image, VK_IMAGE_ASPECT_COLOR_BIT);
      VkImageSubresourceRange range{VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
      vkCmdClearColorImage(cb, img.image, VK_IMAGE_LAYOUT_GENERAL, &color, 1, &range);
      transferBarrier(cb);
      VkBufferImageCopy copy{};
      copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      copy.imageExtent = {4, 4, 1};
      vkCmdCopyImageToBuffer(cb, img.image, VK_IMAGE_LAYOUT_GENERAL, buf.buffer, 1, &copy);
    });
    std::vector<uint8_t> out(buf.mapped, buf.mapped + 16 * texelSize);
    destroy(img);
    destroy(buf);
    return out;
  }
};

TEST_F(ClearTest, UnormClearRoundsToNearest) {
  // Spec "Conversion from Floating-Point to Normalized Fixed-Point": c = round(f * (2^8 - 1)).
  VkClearColorValue color{};
  color.float32[0] = 0.5f;   // 127.5 -> 128
  color.float32[1] = 1.5f;   // clamped to 1 -> 255
  color.float32[2] = -1.0f;  // clamped to 0
  color.float32[3] = 0.2f;   // 51
  auto bytes = clearAndRead(VK_FORMAT_R8G8B8A8_UNORM, color, 4);
  for (int t = 0; t < 16; ++t) {
    EXPECT_EQ(bytes[t * 4 + 0], 128);
    EXPECT_EQ(bytes[t * 4 + 1], 255);
    EXPECT_EQ(bytes[t * 4 + 2], 0);
    EXPECT_EQ(bytes[t * 4 + 3], 51);
  }
}

TEST_F(ClearTest, IntegerAndFloatFormatsTakeTheirUnionMember) {
  VkClearColorValue color{};
  color.int32[0] = -5;
  color.int32[1] = 300;
  auto s = clearAndRead(VK_FORMAT_R16G16_SINT, color, 4);
  EXPECT_EQ(int16_t(s[0] | s[1] << 8), -5);
  EXPECT_EQ(int16_t(s[2] | s[3] << 8), 300);
  VkClearColorValue f{};
  f.float32[0] = 3.25f;
  auto fl = clearAndRead(VK_FORMAT_R32_SFLOAT, f, 4);
  float v;
  std::memcpy(&v, fl.data(), 4);
  EXPECT_EQ(v, 3.25f);
}

using BlitTest = VulkanTest;

TEST_F(BlitTest, LinearHalvingAveragesTwoByTwoBlocks) {
  // Spec "Image Copies With Scaling": destination texel centre (x+0.5) maps to source
  // 2x+1, halfway between two source texels in each direction, so LINEAR averages 2x2.
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R8G8B8A8_UNORM;
  ici.extent = {8, 8, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  auto src = createImage(ici);
  ici.extent = {4, 4, 1};
  auto dst = createImage(ici);
  auto up = createBuffer(8 * 8 * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
  auto down = createBuffer(4 * 4 * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
  for (int i = 0; i < 8 * 8 * 4; ++i) up.mapped[i] = uint8_t((i * 37) % 251);
  submitAndWait([&](VkCommandBuffer cb) {
    toGeneralLayout(cb, src.image, VK_IMAGE_ASPECT_COLOR_BIT);
    toGeneralLayout(cb, dst.image, VK_IMAGE_ASPECT_COLOR_BIT);
    VkBufferImageCopy copy{};
    copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    copy.imageExtent = {8, 8, 1};
    vkCmdCopyBufferToImage(cb, up.buffer, src.image, VK_IMAGE_LAYOUT_GENERAL, 1, &copy);
    transferBarrier(cb);
    VkImageBlit blit{};
    blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
    blit.srcOffsets[1] = {8, 8, 1};
    blit.dstOffsets[1] = {4, 4, 1};
    vkCmdBlitImage(cb, src.image, VK_IMAGE_LAYOUT_GENERAL, dst.image, VK_IMAGE_LAYOUT_GENERAL, 1, &blit, VK_FILTER_LINEAR);
    transferBarrier(cb);
    copy.imageExtent = {4, 4, 1};
    vkCmdCopyImageToBuffer(cb, dst.image, VK_IMAGE_LAYOUT_GENERAL, down.buffer, 1, &copy);
  });
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      for (int c = 0; c < 4; ++c) {
        auto at = [&](int sx, int sy) { return up.mapped[(sy * 8 + sx) * 4 + c]; };
        const double avg = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4.0;
        EXPECT_NEAR(down.mapped[(y * 4 + x) * 4 + c], avg, 1.0) << x << "," << y << " c" << c;
      }
  destroy(src);
  destroy(dst);
  destroy(up);
  destroy(down);
}

}  // namespace
}  // namespace tessera_test
