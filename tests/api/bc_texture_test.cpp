// BC1-BC7 images through the loader, on Tessera and lavapipe in the same process (one instance
// sees both drivers, dual_driver.h). For each of the sixteen formats of the textureCompressionBC
// set, the same pseudo-random blocks (every BC6H and BC7 mode, reserved ones included, chosen in
// turn; all other bits random) are uploaded with vkCmdCopyBufferToImage into a 62 x 38 image
// (not multiples of 4: the last blocks are partly padding) and read three ways:
//  - texelFetch in a compute shader (tests/shaders/sample_compressed.comp),
//  - a LINEAR sample between texels in the same shader,
//  - a 1:1 NEAREST vkCmdBlitImage to R32G32B32A32_SFLOAT ("Image Copies With Scaling": each
//    texel read once, decoded to float).
// Checks:
//  - Tessera's fetched and blitted texels are the same values (one decoder behind both);
//  - Tessera's LINEAR sample is the bilinear blend of its fetched texels (spec "Texel Filtering"),
//    within the 8 bits of subTexelPrecisionBits: 2^-8 of the footprint's range;
//  - Tessera's texels match lavapipe's. BC6H and BC7 are bit exact in the Khronos Data Format
//    Specification ("BPTC endpoint interpolation formula", integer unquantization) and must be
//    equal (sRGB: up to the EOTF's evaluation, 2e-4 as in etc2_blit_test). S3TC and RGTC define
//    texels as real numbers ("(2 x RGB_0 + RGB_1) / 3", "RED_0 = red_0 / 255"); Tessera computes
//    them exactly, lavapipe decodes to 8-bit integers, so the two may differ by up to two 8-bit
//    steps (tolerance() below);
//  - the formats have the spec's mandatory features ("Required Format Support", textureCompressionBC:
//    SAMPLED_IMAGE, BLIT_SRC, SAMPLED_IMAGE_FILTER_LINEAR with OPTIMAL tiling) on both drivers.
// The validation layer is on and any error fails the test.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "dual_driver.h"
#include "one_set_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kWidth = 62, kHeight = 38;  // 16 x 10 blocks
constexpr uint32_t kTexels = kWidth * kHeight;

struct BcFormat {
  VkFormat format;
  const char* name;
  uint32_t blockBytes;
};
const BcFormat kFormats[] = {
    {VK_FORMAT_BC1_RGB_UNORM_BLOCK, "BC1_RGB_UNORM", 8},   {VK_FORMAT_BC1_RGB_SRGB_BLOCK, "BC1_RGB_SRGB", 8},
    {VK_FORMAT_BC1_RGBA_UNORM_BLOCK, "BC1_RGBA_UNORM", 8}, {VK_FORMAT_BC1_RGBA_SRGB_BLOCK, "BC1_RGBA_SRGB", 8},
    {VK_FORMAT_BC2_UNORM_BLOCK, "BC2_UNORM", 16},          {VK_FORMAT_BC2_SRGB_BLOCK, "BC2_SRGB", 16},
    {VK_FORMAT_BC3_UNORM_BLOCK, "BC3_UNORM", 16},          {VK_FORMAT_BC3_SRGB_BLOCK, "BC3_SRGB", 16},
    {VK_FORMAT_BC4_UNORM_BLOCK, "BC4_UNORM", 8},           {VK_FORMAT_BC4_SNORM_BLOCK, "BC4_SNORM", 8},
    {VK_FORMAT_BC5_UNORM_BLOCK, "BC5_UNORM", 16},          {VK_FORMAT_BC5_SNORM_BLOCK, "BC5_SNORM", 16},
    {VK_FORMAT_BC6H_UFLOAT_BLOCK, "BC6H_UFLOAT", 16},      {VK_FORMAT_BC6H_SFLOAT_BLOCK, "BC6H_SFLOAT", 16},
    {VK_FORMAT_BC7_UNORM_BLOCK, "BC7_UNORM", 16},          {VK_FORMAT_BC7_SRGB_BLOCK, "BC7_SRGB", 16},
};

bool isSrgb(VkFormat f) {
  return f == VK_FORMAT_BC1_RGB_SRGB_BLOCK || f == VK_FORMAT_BC1_RGBA_SRGB_BLOCK || f == VK_FORMAT_BC2_SRGB_BLOCK ||
         f == VK_FORMAT_BC3_SRGB_BLOCK || f == VK_FORMAT_BC7_SRGB_BLOCK;
}
bool isBptc(VkFormat f) { return f >= VK_FORMAT_BC6H_UFLOAT_BLOCK && f <= VK_FORMAT_BC7_SRGB_BLOCK; }

// The same bytes for both drivers: a fixed xorshift64 stream per format. BPTC blocks take their
// mode in turn: BC7 modes 0-7 and the reserved low byte 0; BC6H's 14 modes and the reserved
// 19, 23, 27, 31 (KDFS "BPTC Compressed Texture Image Formats").
std::vector<uint8_t> randomBlocks(const BcFormat& f) {
  const size_t blocks = size_t((kWidth + 3) / 4) * ((kHeight + 3) / 4);
  std::vector<uint8_t> bytes(blocks * f.blockBytes);
  uint64_t x = 0x9E3779B97F4A7C15ull ^ uint64_t(f.format);
  for (uint8_t& b : bytes) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    b = uint8_t(x >> 24);
  }
  for (size_t n = 0; n < blocks; ++n) {
    uint8_t& low = bytes[n * f.blockBytes];
    if (f.format == VK_FORMAT_BC7_UNORM_BLOCK || f.format == VK_FORMAT_BC7_SRGB_BLOCK) {
      const int mode = int(n % 9);
      low = mode == 8 ? 0 : uint8_t((low & ~((2u << mode) - 1)) | (1u << mode));
    } else if (f.format == VK_FORMAT_BC6H_UFLOAT_BLOCK || f.format == VK_FORMAT_BC6H_SFLOAT_BLOCK) {
      static const int kModes[18] = {0, 1, 2, 6, 10, 14, 18, 22, 26, 30, 3, 7, 11, 15, 19, 23, 27, 31};
      const int mode = kModes[n % 18];
      low = mode < 2 ? uint8_t((low & ~3u) | mode) : uint8_t((low & ~31u) | mode);
    }
  }
  return bytes;
}

struct Readback {
  std::vector<float> fetched, sampled, blitted;  // RGBA per texel, row by row
};

// Uploads `blocks`, runs the shader and the blit on one driver.
Readback readThroughDriver(VkPhysicalDevice pd, const BcFormat& format, const std::vector<uint8_t>& blocks) {
  Readback out;
  VkPhysicalDeviceFeatures features{};
  features.textureCompressionBC = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
  TestDevice d(pd, &features, &v13);
  EXPECT_NE(d.dev, VK_NULL_HANDLE);
  if (!d.dev) return out;
  VkDevice dev = d.dev;

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = format.format;
  ici.extent = {kWidth, kHeight, 1};
  ici.mipLevels = ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  VkImage image = VK_NULL_HANDLE, floats = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  d.bindMemory(image);
  ici.format = VK_FORMAT_R32G32B32A32_SFLOAT;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &floats), VK_SUCCESS);
  d.bindMemory(floats);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  vci.format = format.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
  VkImageView view = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateSampler(dev, &sci, nullptr, &sampler), VK_SUCCESS);

  void *staging = nullptr, *blitOut = nullptr, *shaderOut = nullptr;
  VkBuffer upload = d.createMappedBuffer(blocks.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging);
  VkBuffer blitBuffer = d.createMappedBuffer(VkDeviceSize(kTexels) * 16, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &blitOut);
  VkBuffer results = d.createMappedBuffer(VkDeviceSize(kTexels) * 32, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &shaderOut);
  std::memcpy(staging, blocks.data(), blocks.size());

  VkCommandBuffer cmd = d.beginCommands();
  auto barrier = [&](VkImage img, VkImageLayout from, VkImageLayout to, VkAccessFlags src, VkAccessFlags dst,
                     VkPipelineStageFlags dstStage) {
    imageBarrier(cmd, img, from, to, src, dst, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, dstStage,
                 {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1});
  };
  barrier(image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT);
  barrier(floats, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT);
  VkBufferImageCopy copy{};
  copy.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  copy.imageExtent = {kWidth, kHeight, 1};  // reaches the image's edge, so it need not be a multiple of 4
  vkCmdCopyBufferToImage(cmd, upload, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &copy);
  // GENERAL: read by the blit and, after this command buffer, by the shader.
  barrier(image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_GENERAL, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_SHADER_READ_BIT,
          VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT);
  VkImageBlit blit{};
  blit.srcSubresource = blit.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  blit.srcOffsets[1] = blit.dstOffsets[1] = {int32_t(kWidth), int32_t(kHeight), 1};
  vkCmdBlitImage(cmd, image, VK_IMAGE_LAYOUT_GENERAL, floats, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &blit,
                 VK_FILTER_NEAREST);
  barrier(floats, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, VK_ACCESS_TRANSFER_WRITE_BIT,
          VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
  vkCmdCopyImageToBuffer(cmd, floats, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, blitBuffer, 1, &copy);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0,
                       nullptr);
  vkEndCommandBuffer(cmd);
  d.submitAndWait(cmd);

  {
    OneSetCompute compute(d, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                          "sample_compressed");
    if (compute.ok()) {
      compute.writeCombinedImageSampler(0, view, sampler, VK_IMAGE_LAYOUT_GENERAL);
      compute.writeBuffer(1, results);
      compute.submit(compute.record((kTexels + 63) / 64));
    }
  }

  out.blitted.resize(size_t(kTexels) * 4);
  std::memcpy(out.blitted.data(), blitOut, out.blitted.size() * sizeof(float));
  out.fetched.resize(size_t(kTexels) * 4);
  out.sampled.resize(size_t(kTexels) * 4);
  const float* r = static_cast<const float*>(shaderOut);
  for (uint32_t i = 0; i < kTexels; ++i) {
    std::memcpy(&out.fetched[i * 4], r + i * 8, 16);
    std::memcpy(&out.sampled[i * 4], r + i * 8 + 4, 16);
  }

  for (VkBuffer b : {upload, blitBuffer, results}) vkDestroyBuffer(dev, b, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyImage(dev, floats, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return out;
}

// Whether a driver advertises textureCompressionBC with the features the spec requires of it.
bool supportsBc(VkPhysicalDevice pd) {
  VkPhysicalDeviceFeatures features;
  vkGetPhysicalDeviceFeatures(pd, &features);
  bool all = features.textureCompressionBC;
  for (const BcFormat& f : kFormats) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(pd, f.format, &props);
    const VkFormatFeatureFlags required = VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_BLIT_SRC_BIT |
                                          VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                                          VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    all = all && (props.optimalTilingFeatures & required) == required;
    VkImageFormatProperties ifp;
    all = all && vkGetPhysicalDeviceImageFormatProperties(pd, f.format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                          VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT |
                                                              VK_IMAGE_USAGE_TRANSFER_DST_BIT,
                                                          0, &ifp) == VK_SUCCESS;
  }
  return all;
}

// sRGB-encoded value of a linear one (KDFS sRGB EOTF^-1), to compare sRGB colour where the
// drivers' rounding happens: before the EOTF.
double encodeSrgb(double l) { return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055; }

// How far lavapipe's texel may be from Tessera's (see the file comment). S3TC and RGTC: lavapipe
// decodes to 8-bit integers (endpoints widened by bit replication, interpolants rounded down),
// which measured up to 1.8 8-bit steps from the KDFS values Tessera computes; the tolerance is
// two steps (of 255, or of 127 for signed RGTC), compared in the sRGB-encoded domain for sRGB
// colour. A decoding mistake (a wrong code, endpoint, mode or texel) is off by far more.
double tolerance(VkFormat f, int component) {
  if (f == VK_FORMAT_BC6H_UFLOAT_BLOCK || f == VK_FORMAT_BC6H_SFLOAT_BLOCK) return 0.0;  // halves: exact floats
  if (isBptc(f)) return isSrgb(f) && component < 3 ? 2e-4 : 1e-6;  // x / 255 may round either way
  if (f == VK_FORMAT_BC4_SNORM_BLOCK || f == VK_FORMAT_BC5_SNORM_BLOCK) return 2.0 / 127;
  return 2.0 / 255;
}

bool same(float a, float b, double tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(double(a) - double(b)) <= tol;
}

TEST(BcTexture, FetchSampleAndBlitOfEveryFormatMatchTheSpecAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  EXPECT_TRUE(supportsBc(drivers.tessera));
  const bool withLavapipe = drivers.lavapipe && supportsBc(drivers.lavapipe);
  if (!withLavapipe)
    std::printf("lavapipe %s: only Tessera's own consistency is checked\n",
                drivers.lavapipe ? "does not support BC" : "is not installed");

  for (const BcFormat& f : kFormats) {
    SCOPED_TRACE(f.name);
    const std::vector<uint8_t> blocks = randomBlocks(f);
    const Readback ours = readThroughDriver(drivers.tessera, f, blocks);
    ASSERT_EQ(ours.fetched.size(), size_t(kTexels) * 4);

    // One decoder behind texelFetch and the blit: identical values.
    uint32_t bad = 0;
    for (size_t n = 0; n < ours.fetched.size(); ++n)
      if (!same(ours.fetched[n], ours.blitted[n], 0.0) && ++bad <= 3)
        ADD_FAILURE() << "texel " << n / 4 << " component " << n % 4 << ": fetched " << ours.fetched[n] << ", blitted "
                      << ours.blitted[n];
    EXPECT_EQ(bad, 0u) << "fetch and blit differ";

    // "Texel Filtering": LINEAR at (x + 0.75, y + 0.3) blends texels x, x+1 (alpha 0.25) and y-1,
    // y (beta 0.8), clamped to the edge, after sRGB decoding; weights have 8 fractional bits.
    bad = 0;
    for (uint32_t y = 0; y < kHeight; ++y)
      for (uint32_t x = 0; x < kWidth; ++x) {
        const uint32_t x1 = std::min(x + 1, kWidth - 1), y0 = y == 0 ? 0 : y - 1;
        const uint32_t at[4] = {y0 * kWidth + x, y0 * kWidth + x1, y * kWidth + x, y * kWidth + x1};
        const double w[4] = {0.75 * 0.2, 0.25 * 0.2, 0.75 * 0.8, 0.25 * 0.8};
        for (int c = 0; c < 4; ++c) {
          double want = 0, lo = INFINITY, hi = -INFINITY;
          for (int k = 0; k < 4; ++k) {
            const double v = ours.fetched[at[k] * 4 + c];
            want += w[k] * v;
            lo = std::min(lo, v), hi = std::max(hi, v);
          }
          const float got = ours.sampled[(y * kWidth + x) * 4 + c];
          if (std::isinf(lo) || std::isinf(hi)) continue;  // BC6H SFLOAT -infinity in the footprint
          // BC1-BC3 and BC4-BC5 UNORM are sampled from texels rounded to the nearest 8-bit value
          // (as lavapipe's are; batch_sampler_unorm8.cpp loadBc1Texels, decoded_texture.h's
          // copies): 1/510 from the exact ones at most, sRGB colour where it is encoded, which
          // the EOTF (slope at most 2.3) carries to 0.0045.
          const bool byteTexels = (f.format >= VK_FORMAT_BC1_RGB_UNORM_BLOCK && f.format <= VK_FORMAT_BC3_SRGB_BLOCK) ||
                                  f.format == VK_FORMAT_BC4_UNORM_BLOCK ||
                                  f.format == VK_FORMAT_BC5_UNORM_BLOCK;
          const double rounding = !byteTexels ? 0.0 : isSrgb(f.format) && c < 3 ? 0.0045 : 1.0 / 510;
          const double tol = (hi - lo) / 256 + rounding + 1e-6 * std::max(1.0, std::fabs(want));
          if (!(std::fabs(got - want) <= tol) && ++bad <= 3)
            ADD_FAILURE() << "sample at (" << x << ", " << y << ") component " << c << ": " << got << ", blend of texels "
                          << want;
        }
      }
    EXPECT_EQ(bad, 0u) << "LINEAR samples are not the blend of the fetched texels";

    if (!withLavapipe) continue;
    const Readback theirs = readThroughDriver(drivers.lavapipe, f, blocks);
    ASSERT_EQ(theirs.fetched.size(), ours.fetched.size());
    // The same texels from both drivers, fetched and blitted.
    for (const auto& [mine, other, what] : {std::tuple{&ours.fetched, &theirs.fetched, "texelFetch"},
                                            std::tuple{&ours.blitted, &theirs.blitted, "blit"}}) {
      bad = 0;
      double worst = 0;
      for (size_t n = 0; n < mine->size(); ++n) {
        const int c = int(n % 4);
        float a = (*mine)[n], b = (*other)[n];
        if (isSrgb(f.format) && c < 3 && !isBptc(f.format)) a = float(encodeSrgb(a)), b = float(encodeSrgb(b));
        if (!std::isinf(a) && !std::isnan(a)) worst = std::max(worst, std::fabs(double(a) - double(b)));
        if (!same(a, b, tolerance(f.format, c)) && ++bad <= 5)
          ADD_FAILURE() << what << " texel (" << (n / 4) % kWidth << ", " << (n / 4) / kWidth << ") component " << c
                        << ": Tessera " << (*mine)[n] << ", lavapipe " << (*other)[n];
      }
      EXPECT_EQ(bad, 0u) << what << ": components further from lavapipe's than the tolerance";
      std::printf("%-15s %-10s largest difference from lavapipe %.3g\n", f.name, what, worst);
    }
  }
}

// vkGetPhysicalDeviceImageFormatProperties2 for BC images with views of other formats and with
// linear tiling. VK_IMAGE_CREATE_EXTENDED_USAGE_BIT: "the image can be created with usage flags
// that are not supported for the format the image is created with but are supported for at
// least one format a VkImageView created from the image can have". BC1 has no storage; with
// BLOCK_TEXEL_VIEW_COMPATIBLE_BIT a view may be an uncompressed 64-bit format (R32G32_UINT has
// storage), without it only BC1 formats.
TEST(BcTexture, ExtendedUsageFollowsTheViewFormatsAndLinearTilingIsOffered) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "checks Tessera's answers";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  auto query = [&](VkFormat format, VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                   std::vector<VkFormat> viewFormats = {}) {
    VkImageFormatListCreateInfo list{VK_STRUCTURE_TYPE_IMAGE_FORMAT_LIST_CREATE_INFO, nullptr,
                                     uint32_t(viewFormats.size()), viewFormats.data()};
    VkPhysicalDeviceImageFormatInfo2 info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2,
                                          viewFormats.empty() ? nullptr : &list, format, VK_IMAGE_TYPE_2D, tiling, usage,
                                          flags};
    VkImageFormatProperties2 props{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2};
    return vkGetPhysicalDeviceImageFormatProperties2(drivers.tessera, &info, &props);
  };
  const VkImageUsageFlags storage = VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_SAMPLED_BIT;
  const VkImageCreateFlags extended = VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_EXTENDED_USAGE_BIT;
  const VkImageCreateFlags blockViews = extended | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT;
  const VkFormat bc1 = VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
  EXPECT_EQ(query(bc1, VK_IMAGE_TILING_OPTIMAL, storage, 0), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(query(bc1, VK_IMAGE_TILING_OPTIMAL, storage, extended), VK_ERROR_FORMAT_NOT_SUPPORTED);
  EXPECT_EQ(query(bc1, VK_IMAGE_TILING_OPTIMAL, storage, blockViews), VK_SUCCESS);
  EXPECT_EQ(query(bc1, VK_IMAGE_TILING_OPTIMAL, storage, blockViews, {VK_FORMAT_R32G32_UINT}), VK_SUCCESS);
  // BC7's 128-bit blocks: R32G32B32A32_UINT views.
  EXPECT_EQ(query(VK_FORMAT_BC7_UNORM_BLOCK, VK_IMAGE_TILING_OPTIMAL, storage, blockViews), VK_SUCCESS);
  // Without EXTENDED_USAGE_BIT the image's own format decides.
  EXPECT_EQ(query(bc1, VK_IMAGE_TILING_OPTIMAL, storage,
                  VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT | VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT),
            VK_ERROR_FORMAT_NOT_SUPPORTED);

  // Linear tiling (images are linear anyway): the decodable formats sample and blit from it.
  for (const BcFormat& f : kFormats) {
    VkFormatProperties props;
    vkGetPhysicalDeviceFormatProperties(drivers.tessera, f.format, &props);
    EXPECT_EQ(props.linearTilingFeatures, props.optimalTilingFeatures) << f.name;
    EXPECT_EQ(query(f.format, VK_IMAGE_TILING_LINEAR, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, 0),
              VK_SUCCESS)
        << f.name;
  }
  // ASTC has no decoder: copies only, and only optimal.
  VkFormatProperties astc;
  vkGetPhysicalDeviceFormatProperties(drivers.tessera, VK_FORMAT_ASTC_4x4_UNORM_BLOCK, &astc);
  EXPECT_EQ(astc.linearTilingFeatures, 0u);
  EXPECT_EQ(astc.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT, 0u);
}

}  // namespace
}  // namespace tessera_test
