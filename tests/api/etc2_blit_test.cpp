// ETC2/EAC images through the loader, compared with lavapipe in the same process: one instance
// sees both drivers (VK_DRIVER_FILES lists both manifests, as in draw_test.cpp). For every
// format of the textureCompressionETC2 set, pseudo-random blocks (random bits select every mode:
// individual, differential, T, H, planar, punchthrough, EAC multipliers of 0, signed -128 bases)
// are uploaded with vkCmdCopyBufferToImage, blitted with NEAREST to an R32G32B32A32_SFLOAT image
// of the same size (spec "Image Copies With Scaling": a 1:1 NEAREST blit reads each texel once,
// decoded to float) and read back; the decoded texels must match lavapipe's. The validation
// layer is on and any error fails the test.
//
// Lavapipe only decodes ETC2 from Mesa 23 on: Mesa 22.3 (Debian 12) reports
// textureCompressionETC2 = false and no features for these formats. Without an ETC2-capable
// lavapipe the reference is Tessera's block decoder called on the uploaded bytes (its values
// are checked against the specification by tests/unit/sampler/etc2_decode_test.cpp); what this
// test then checks is the path through the driver: upload, image layout, block addressing with
// padding, the blit and validation.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "dual_driver.h"
#include "tessera/compressed.h"

#include "test_device.h"

namespace tessera_test {
namespace {

// Not multiples of 4: the last row and column of blocks are partly padding (KDFS "ETC2
// Compressed Texture Image Formats": "padding does not affect the texel coordinates").
constexpr uint32_t kWidth = 66, kHeight = 38;  // 17 x 10 blocks

const VkFormat kFormats[] = {
    VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,   VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,   VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK,
    VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK,  VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
    VK_FORMAT_EAC_R11_UNORM_BLOCK,       VK_FORMAT_EAC_R11_SNORM_BLOCK,      VK_FORMAT_EAC_R11G11_UNORM_BLOCK,
    VK_FORMAT_EAC_R11G11_SNORM_BLOCK,
};

bool isSrgb(VkFormat f) {
  return f == VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK || f == VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK ||
         f == VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK;
}

uint32_t blockBytes(VkFormat f) {
  switch (f) {
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK:
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK:
    case VK_FORMAT_EAC_R11G11_SNORM_BLOCK:
      return 16;
    default:
      return 8;
  }
}

// The same bytes for both drivers: a fixed xorshift64 stream per format.
std::vector<uint8_t> randomBlocks(VkFormat f) {
  std::vector<uint8_t> bytes(size_t((kWidth + 3) / 4) * ((kHeight + 3) / 4) * blockBytes(f));
  uint64_t x = 0x9E3779B97F4A7C15ull ^ uint64_t(f);
  for (uint8_t& b : bytes) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = uint8_t(x >> 24);
  }
  return bytes;
}


// One driver's device and the helpers the blits need.
struct Device {
  VkPhysicalDevice pd;
  VkDevice dev = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkPhysicalDeviceMemoryProperties memory{};

  explicit Device(VkPhysicalDevice p) : pd(p) {
    vkGetPhysicalDeviceMemoryProperties(pd, &memory);
    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    VkPhysicalDeviceFeatures features{};
    features.textureCompressionETC2 = VK_TRUE;
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.pEnabledFeatures = &features;
    if (vkCreateDevice(pd, &dci, nullptr, &dev) != VK_SUCCESS) return;
    vkGetDeviceQueue(dev, 0, 0, &queue);
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    vkCreateCommandPool(dev, &cpci, nullptr, &pool);
  }
  ~Device() {
    if (!dev) return;
    vkDestroyCommandPool(dev, pool, nullptr);
    vkDestroyDevice(dev, nullptr);
  }
  uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags want) const {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i)
      if ((bits >> i & 1) && (memory.memoryTypes[i].propertyFlags & want) == want) return i;
    return 0;
  }
  VkDeviceMemory allocate(const VkMemoryRequirements& req, VkMemoryPropertyFlags want) const {
    VkMemoryAllocateInfo ai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, memoryType(req.memoryTypeBits, want)};
    VkDeviceMemory m = VK_NULL_HANDLE;
    vkAllocateMemory(dev, &ai, nullptr, &m);
    return m;
  }
};

void imageBarrier(VkCommandBuffer cmd, VkImage image, VkImageLayout from, VkImageLayout to, VkAccessFlags srcAccess,
                  VkAccessFlags dstAccess) {
  tessera_test::imageBarrier(cmd, image, from, to, srcAccess, dstAccess,
                             VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
}

// Uploads `blocks` into a kWidth x kHeight image of `format`, blits it 1:1 with NEAREST into an
// R32G32B32A32_SFLOAT image and returns its texels (RGBA floats, row by row); empty on failure.
std::vector<float> decodeThroughBlit(const Device& d, VkFormat format, const std::vector<uint8_t>& blocks) {
  VkDevice dev = d.dev;
  std::vector<VkDeviceMemory> memories;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format;
  ici.extent = {kWidth, kHeight, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImage src = VK_NULL_HANDLE, dst = VK_NULL_HANDLE;
  if (vkCreateImage(dev, &ici, nullptr, &src) != VK_SUCCESS) return {};
  ici.format = VK_FORMAT_R32G32B32A32_SFLOAT;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  vkCreateImage(dev, &ici, nullptr, &dst);
  for (VkImage image : {src, dst}) {
    VkMemoryRequirements req;
    vkGetImageMemoryRequirements(dev, image, &req);
    memories.push_back(d.allocate(req, 0));
    vkBindImageMemory(dev, image, memories.back(), 0);
  }
  const VkDeviceSize readbackSize = VkDeviceSize(kWidth) * kHeight * 16;
  VkBuffer buffers[2];
  void* mapped[2];
  const VkDeviceSize sizes[2] = {blocks.size(), readbackSize};
  const VkBufferUsageFlags usages[2] = {VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_BUFFER_USAGE_TRANSFER_DST_BIT};
  for (int n = 0; n < 2; ++n) {
    VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bci.size = sizes[n];
    bci.usage = usages[n];
    vkCreateBuffer(dev, &bci, nullptr, &buffers[n]);
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, buffers[n], &req);
    memories.push_back(d.allocate(req, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT));
    vkBindBufferMemory(dev, buffers[n], memories.back(), 0);
    vkMapMemory(dev, memories.back(), 0, VK_WHOLE_SIZE, 0, &mapped[n]);
  }
  std::memcpy(mapped[0], blocks.data(), blocks.size());

  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, d.pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  imageBarrier(cmd, src, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
  imageBarrier(cmd, dst, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kWidth, kHeight, 1};  // reaches the image's edge, so it need not be a multiple of 4
  vkCmdCopyBufferToImage(cmd, buffers[0], src, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
  imageBarrier(cmd, src, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  VkImageBlit blit{};
  blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(kWidth), int32_t(kHeight), 1};
  vkCmdBlitImage(cmd, src, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                 VK_FILTER_NEAREST);
  imageBarrier(cmd, dst, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
  vkCmdCopyImageToBuffer(cmd, dst, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, buffers[1], 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cmd;
  vkQueueSubmit(d.queue, 1, &si, VK_NULL_HANDLE);
  vkQueueWaitIdle(d.queue);
  std::vector<float> texels(size_t(kWidth) * kHeight * 4);
  std::memcpy(texels.data(), mapped[1], texels.size() * sizeof(float));

  vkFreeCommandBuffers(dev, d.pool, 1, &cmd);
  for (VkBuffer b : buffers) vkDestroyBuffer(dev, b, nullptr);
  vkDestroyImage(dev, src, nullptr);
  vkDestroyImage(dev, dst, nullptr);
  for (VkDeviceMemory m : memories) vkFreeMemory(dev, m, nullptr);
  return texels;
}

// What the blit should produce, from Tessera's decoder: texel (i, j) of block (i/4, j/4), the
// blocks tightly packed in rows of ceil(kWidth/4) as vkCmdCopyBufferToImage read them.
std::vector<float> decodeOnHost(VkFormat format, const std::vector<uint8_t>& blocks) {
  const tessera::FormatInfo& f = *tessera::formatInfo(format);
  const uint32_t blocksPerRow = (kWidth + 3) / 4;
  std::vector<float> texels(size_t(kWidth) * kHeight * 4);
  for (uint32_t j = 0; j < kHeight; ++j)
    for (uint32_t i = 0; i < kWidth; ++i) {
      tessera::TexelValue block[16];
      tessera::decodeCompressedBlock(f, blocks.data() + (size_t(j / 4) * blocksPerRow + i / 4) * f.blockSize, block);
      std::memcpy(&texels[(size_t(j) * kWidth + i) * 4], block[(j % 4) * 4 + i % 4].f, 16);
    }
  return texels;
}

// Whether a driver advertises the ETC2 set with the spec's mandatory features for it
// ("Mandatory format support: ETC2 and EAC compressed formats", OPTIMAL tiling; transfers are
// required of every format with features).
bool supportsEtc2(VkPhysicalDevice pd) {
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(pd, &features);
  bool all = features.textureCompressionETC2;
  for (VkFormat f : kFormats) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(pd, f, &props);
    const VkFormatFeatureFlags required = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                          VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                          VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    all = all && (props.optimalTilingFeatures & required) == required;
  }
  return all;
}

TEST(Etc2Blit, RandomBlocksOfEveryFormatMatchLavapipeOrHostDecoder) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  const VkPhysicalDevice tesseraPd = drivers.tessera, lavapipePd = drivers.lavapipe;
  ASSERT_NE(tesseraPd, VK_NULL_HANDLE);
  EXPECT_TRUE(supportsEtc2(tesseraPd));
  const bool compareWithLavapipe = lavapipePd && supportsEtc2(lavapipePd);
  if (!compareWithLavapipe)
    std::printf("lavapipe %s: the reference is Tessera's block decoder on the host\n",
                lavapipePd ? "does not support ETC2/EAC" : "is not installed");

  {
    Device tessera(tesseraPd);
    ASSERT_NE(tessera.dev, VK_NULL_HANDLE);
    std::unique_ptr<Device> lavapipe(compareWithLavapipe ? new Device(lavapipePd) : nullptr);
    if (lavapipe) {
      ASSERT_NE(lavapipe->dev, VK_NULL_HANDLE);
    }
    for (VkFormat f : kFormats) {
      const std::vector<uint8_t> blocks = randomBlocks(f);
      const std::vector<float> ours = decodeThroughBlit(tessera, f, blocks);
      const std::vector<float> theirs = lavapipe ? decodeThroughBlit(*lavapipe, f, blocks) : decodeOnHost(f, blocks);
      ASSERT_EQ(ours.size(), size_t(kWidth) * kHeight * 4) << "format " << f;
      ASSERT_EQ(theirs.size(), ours.size()) << "format " << f;
      // Both decode the same integers; the conversion to float may differ by a rounding (1e-6),
      // except where the specification leaves room, which only matters against lavapipe
      // (against the host decoder the results are identical):
      //  - sRGB colour: implementations evaluate the EOTF differently (tables, approximations);
      //    Tessera's texel codec does it in double. 2e-4 is a twentieth of an 8-bit step at white.
      //  - EAC: KDFS "Format Unsigned R11 EAC" lets a decoder extend the 11-bit value to 16 bits
      //    by bit replication before normalizing; x16/65535 and x11/2047 differ by up to 1.5e-5
      //    (signed: (x << 5) + (x >> 5) over 32767 against x/1023, up to 2.9e-5).
      const bool eac = f >= VK_FORMAT_EAC_R11_UNORM_BLOCK && f <= VK_FORMAT_EAC_R11G11_SNORM_BLOCK;
      const double tolerance = !lavapipe ? 0.0 : isSrgb(f) ? 2e-4 : eac ? 3e-5 : 1e-6;
      uint32_t bad = 0;
      double worst = 0;
      for (size_t n = 0; n < ours.size(); ++n) {
        const double diff = std::fabs(double(ours[n]) - double(theirs[n]));
        worst = std::max(worst, diff);
        if (!(diff <= tolerance) && ++bad <= 5)
          ADD_FAILURE() << "format " << f << " texel (" << (n / 4) % kWidth << ", " << (n / 4) / kWidth << ") component "
                        << n % 4 << ": Tessera " << ours[n] << " reference " << theirs[n];
      }
      EXPECT_EQ(bad, 0u) << "format " << f << ": components differing by more than " << tolerance;
      std::printf("format %d: largest difference from %s %.3g\n", int(f), lavapipe ? "lavapipe" : "the host decoder",
                  worst);
    }
  }
}

}  // namespace
}  // namespace tessera_test
