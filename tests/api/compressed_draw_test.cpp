// BC1, BC7 and ETC2 textures sampled in draws while their texels change, through the loader
// with validation. Tessera samples such an image that only transfers can write from a decoded
// RGBA8 copy (include/tessera/decoded_texture.h), decoded again after each transfer into the
// image; this test holds that copy to the path it replaces and to lavapipe. A 64x64 texture with four
// levels of random blocks is drawn full-screen (fullscreen.vert, aniso_plane.frag: coordinates
// an affine map of the pixel, rotated 30 degrees) twice a frame: at 0.8 texels a pixel (level 0,
// magnified) and at 1.5 (level 1 with mipmapMode NEAREST: "Level-of-Detail Operation"), with
// LINEAR filtering and REPEAT. Three frames, each its own submission:
//  1. after vkCmdCopyBufferToImage of blocks A into every level;
//  2. after vkCmdCopyBufferToImage of blocks B into level 1 alone;
//  3. after vkCmdCopyImage of blocks C from another image of the format into level 0 alone.
// Checks: every pixel of every draw is bit for bit what the same commands give on a device whose
// copies are turned off (TESSERA_DECODED_TEXTURE_MIB=0: BC1's routine, the others' reference,
// read the blocks); the draws of a level a frame did not write are unchanged from the frame before and
// those of a level it wrote change (so a copy that missed a write would fail the first check);
// and Tessera is within 2 units of lavapipe but on a few channels (both round BC1's palette to
// bytes, as Direct3D allows; BC7's and ETC2's texels are bytes; on random blocks, where neighbouring texels
// differ by up to 255, the filters' coordinate and weight precision moves a channel by a unit or
// two, measured at most 3 on one channel in 25,600 with Mesa 22.3.6), none more than 4 off.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "simple_pipeline.h"
#include "single_image_set.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 64, kLevels = 4;  // 64 .. 8
constexpr uint32_t kTarget = 80;

uint32_t levelBytes(VkFormat format, uint32_t level) {
  const uint32_t blocks = (kSize >> level) / 4;
  return blocks * blocks * (format == VK_FORMAT_BC1_RGB_UNORM_BLOCK ? 8 : 16);
}

std::vector<uint8_t> randomBlocks(uint32_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(bytes);
  for (uint8_t& b : v) b = uint8_t(rng());
  return v;
}

// aniso_plane.frag's push constants: s = u.x x + u.y y + u.z, t = v.x x + v.y y + v.z, in
// texture coordinates; `texelsPerPixel` texels of level 0 a pixel, rotated 30 degrees.
struct Mapping {
  float u[4], v[4];
};
Mapping mapping(double texelsPerPixel) {
  const double a = 30.0 * 3.14159265358979323846 / 180.0, k = texelsPerPixel / kSize;
  return {{float(k * std::cos(a)), float(-k * std::sin(a)), 0.13f, 0}, {float(k * std::sin(a)), float(k * std::cos(a)), 0.29f, 0}};
}
const double kTexelsPerPixel[2] = {0.8, 1.5};

// Each frame's two draws, RGBA8 pixels (empty on failure).
using Frames = std::vector<std::vector<uint8_t>>;  // [frame * 2 + draw]

Frames render(VkPhysicalDevice pd, VkFormat format) {
  VkPhysicalDeviceFeatures features{};
  features.textureCompressionBC = format != VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK;
  features.textureCompressionETC2 = format == VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.dynamicRendering = VK_TRUE;
  TestDevice device(pd, &features, &v13);
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};

  // Staging: A's four levels, B's level 1, C's level 0.
  std::vector<uint8_t> staged;
  std::vector<VkBufferImageCopy> uploadA;
  for (uint32_t l = 0; l < kLevels; ++l) {
    VkBufferImageCopy r{};
    r.bufferOffset = staged.size();
    r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, l, 0, 1};
    r.imageExtent = {kSize >> l, kSize >> l, 1};
    uploadA.push_back(r);
    const std::vector<uint8_t> a = randomBlocks(levelBytes(format, l), 100 + l);
    staged.insert(staged.end(), a.begin(), a.end());
  }
  VkBufferImageCopy uploadB{};
  uploadB.bufferOffset = staged.size();
  uploadB.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 1, 0, 1};
  uploadB.imageExtent = {kSize / 2, kSize / 2, 1};
  const std::vector<uint8_t> b = randomBlocks(levelBytes(format, 1), 200);
  staged.insert(staged.end(), b.begin(), b.end());
  VkBufferImageCopy uploadC{};
  uploadC.bufferOffset = staged.size();
  uploadC.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  uploadC.imageExtent = {kSize, kSize, 1};
  const std::vector<uint8_t> c = randomBlocks(levelBytes(format, 0), 300);
  staged.insert(staged.end(), c.begin(), c.end());
  void* stagingMap;
  VkBuffer staging = device.createMappedBuffer(staged.size(), VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &stagingMap);
  std::memcpy(stagingMap, staged.data(), staged.size());

  VkImageCreateInfo tci{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  tci.imageType = VK_IMAGE_TYPE_2D;
  tci.format = format;
  tci.extent = {kSize, kSize, 1};
  tci.mipLevels = kLevels;
  tci.arrayLayers = 1;
  tci.samples = VK_SAMPLE_COUNT_1_BIT;
  tci.tiling = VK_IMAGE_TILING_OPTIMAL;
  tci.usage = VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  VkImage texture, source;
  EXPECT_EQ(vkCreateImage(dev, &tci, nullptr, &texture), VK_SUCCESS);
  device.bindMemory(texture);
  tci.mipLevels = 1;
  tci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  EXPECT_EQ(vkCreateImage(dev, &tci, nullptr, &source), VK_SUCCESS);
  device.bindMemory(source);
  const VkImageSubresourceRange allLevels{VK_IMAGE_ASPECT_COLOR_BIT, 0, kLevels, 0, 1};
  VkImageViewCreateInfo tvci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  tvci.image = texture;
  tvci.viewType = VK_IMAGE_VIEW_TYPE_2D;
  tvci.format = format;
  tvci.subresourceRange = allLevels;
  VkImageView textureView;
  EXPECT_EQ(vkCreateImageView(dev, &tvci, nullptr, &textureView), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_LINEAR;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sci.maxLod = VK_LOD_CLAMP_NONE;
  VkSampler sampler;
  vkCreateSampler(dev, &sci, nullptr, &sampler);

  const TestDevice::Attachment target =
      device.createAttachment(VK_FORMAT_R8G8B8A8_UNORM, kTarget, kTarget,
                              VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_IMAGE_ASPECT_COLOR_BIT);
  constexpr VkDeviceSize kImageBytes = kTarget * kTarget * 4;
  void* readMap;
  VkBuffer readback = device.createMappedBuffer(6 * kImageBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, &readMap);
  const SingleImageSet set = makeSingleImageSet(dev, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, textureView,
                                                VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, sampler);
  const VkPushConstantRange range{VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof(Mapping)};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &set.layout;
  plci.pushConstantRangeCount = 1;
  plci.pPushConstantRanges = &range;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule vs = device.createShaderModule(loadCorpusShader("fullscreen_vert"));
  const VkShaderModule fs = device.createShaderModule(loadCorpusShader("aniso_plane_frag"));
  const VkPipeline pipeline = createSimplePipeline(dev, SimplePipeline{vs, fs, layout, kTarget, kTarget});

  auto toTransfer = [&](VkCommandBuffer cmd, VkImageLayout from) {
    imageBarrier(cmd, texture, from, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, from != VK_IMAGE_LAYOUT_UNDEFINED ? VK_ACCESS_SHADER_READ_BIT : 0,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT | VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT,
                 VK_PIPELINE_STAGE_TRANSFER_BIT, allLevels);
  };
  for (uint32_t frame = 0; frame < 3; ++frame) {
    VkCommandBuffer cmd = device.beginCommands();
    if (frame == 0) {
      toTransfer(cmd, VK_IMAGE_LAYOUT_UNDEFINED);
      vkCmdCopyBufferToImage(cmd, staging, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, kLevels, uploadA.data());
    } else if (frame == 1) {
      toTransfer(cmd, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      vkCmdCopyBufferToImage(cmd, staging, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &uploadB);
    } else {
      imageBarrier(cmd, source, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
      vkCmdCopyBufferToImage(cmd, staging, source, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &uploadC);
      imageBarrier(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                   VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_PIPELINE_STAGE_TRANSFER_BIT);
      toTransfer(cmd, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
      VkImageCopy region{};
      region.srcSubresource = region.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      region.extent = {kSize, kSize, 1};
      vkCmdCopyImage(cmd, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1,
                     &region);
    }
    imageBarrier(cmd, texture, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
                 VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                 VK_PIPELINE_STAGE_FRAGMENT_SHADER_BIT, allLevels);
    for (uint32_t draw = 0; draw < 2; ++draw) {
      imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, 0,
                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT);
      beginRenderingCleared(cmd, target.view, kTarget, kTarget);
      vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_GRAPHICS, layout, 0, 1, &set.set, 0, nullptr);
      const Mapping m = mapping(kTexelsPerPixel[draw]);
      vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_FRAGMENT_BIT, 0, sizeof m, &m);
      vkCmdDraw(cmd, 3, 1, 0, 0);
      vkCmdEndRendering(cmd);
      imageBarrier(cmd, target.image, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
                   VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT,
                   VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT);
      VkBufferImageCopy out{};
      out.bufferOffset = (frame * 2 + draw) * kImageBytes;
      out.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      out.imageExtent = {kTarget, kTarget, 1};
      vkCmdCopyImageToBuffer(cmd, target.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, readback, 1, &out);
    }
    transferToHostBarrier(cmd);
    vkEndCommandBuffer(cmd);
    device.submitAndWait(cmd);
  }
  Frames frames(6);
  for (uint32_t i = 0; i < 6; ++i) {
    const uint8_t* p = static_cast<const uint8_t*>(readMap) + i * kImageBytes;
    frames[i].assign(p, p + kImageBytes);
  }

  vkDestroyPipeline(dev, pipeline, nullptr);
  for (VkShaderModule m : {vs, fs}) vkDestroyShaderModule(dev, m, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, set.pool, nullptr);
  vkDestroyDescriptorSetLayout(dev, set.layout, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, textureView, nullptr);
  vkDestroyImage(dev, texture, nullptr);
  vkDestroyImage(dev, source, nullptr);
  vkDestroyBuffer(dev, readback, nullptr);
  vkDestroyBuffer(dev, staging, nullptr);
  return frames;
}

// TESSERA_DECODED_TEXTURE_MIB for the devices made while it lives (read at vkCreateDevice).
struct DecodedTextureBudgetOverride {
  explicit DecodedTextureBudgetOverride(const char* mib) { setenv("TESSERA_DECODED_TEXTURE_MIB", mib, 1); }
  ~DecodedTextureBudgetOverride() { unsetenv("TESSERA_DECODED_TEXTURE_MIB"); }
};

uint32_t differingBytes(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  uint32_t n = 0;
  for (size_t i = 0; i < a.size(); ++i) n += a[i] != b[i];
  return n;
}

class CompressedDraw : public testing::TestWithParam<VkFormat> {};

TEST_P(CompressedDraw, TexturesRewrittenBetweenFramesMatchTheBlocksAndLavapipe) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  const VkFormat format = GetParam();
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const Frames decoded = render(drivers.tessera, format);
  Frames blocks;
  {
    DecodedTextureBudgetOverride off("0");
    blocks = render(drivers.tessera, format);
  }
  ASSERT_EQ(decoded.size(), 6u);
  ASSERT_EQ(blocks.size(), 6u);
  const char* names[6] = {"frame 1, level 0", "frame 1, level 1", "frame 2, level 0",
                          "frame 2, level 1", "frame 3, level 0", "frame 3, level 1"};
  // BC3's copy rounds its palettes to bytes and takes the fixed-point routine where its blocks
  // take the reference: within a unit (the rounding, half a unit, and the 8-bit weights, which
  // move a channel by less than one more). The others: bit for bit.
  const bool roundedCopy = format == VK_FORMAT_BC3_UNORM_BLOCK;
  for (uint32_t i = 0; i < 6; ++i) {
    if (!roundedCopy) {
      EXPECT_EQ(differingBytes(decoded[i], blocks[i]), 0u) << names[i] << ": copy against blocks";
      continue;
    }
    int most = 0;
    for (size_t k = 0; k < decoded[i].size(); ++k) most = std::max(most, std::abs(int(decoded[i][k]) - int(blocks[i][k])));
    EXPECT_LE(most, 1) << names[i] << ": copy against blocks";
  }
  // Frame 2 wrote level 1 only, frame 3 level 0 only.
  EXPECT_EQ(differingBytes(decoded[2], decoded[0]), 0u) << "level 0 kept in frame 2";
  EXPECT_GT(differingBytes(decoded[3], decoded[1]), kTarget * kTarget) << "level 1 rewritten in frame 2";
  EXPECT_GT(differingBytes(decoded[4], decoded[2]), kTarget * kTarget) << "level 0 rewritten in frame 3";
  EXPECT_EQ(differingBytes(decoded[5], decoded[3]), 0u) << "level 1 kept in frame 3";

  if (!drivers.lavapipe) return;
  // lavapipe 22.3.6 has no ETC2 (textureCompressionETC2 false): the blocks' path is the oracle.
  VkPhysicalDeviceFeatures offered{};
  vkGetPhysicalDeviceFeatures(drivers.lavapipe, &offered);
  if (format == VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK && !offered.textureCompressionETC2) return;
  const Frames lavapipe = render(drivers.lavapipe, format);
  ASSERT_EQ(lavapipe.size(), 6u);
  for (uint32_t i = 0; i < 6; ++i) {
    uint32_t differ = 0, farApart = 0;
    for (size_t k = 0; k < decoded[i].size(); ++k) {
      const int diff = std::abs(int(decoded[i][k]) - int(lavapipe[i][k]));
      differ += diff > 2;
      if (diff > 4 && farApart++ < 5)
        ADD_FAILURE() << names[i] << ": pixel " << k / 4 % kTarget << ", " << k / 4 / kTarget << " channel " << k % 4
                      << ": Tessera " << int(decoded[i][k]) << ", lavapipe " << int(lavapipe[i][k]);
    }
    EXPECT_EQ(farApart, 0u) << names[i];
    EXPECT_LE(differ, kTarget * kTarget * 4 / 1000) << names[i] << ": channels more than 2 units from lavapipe's";
  }
}

// BC1_RGB_UNORM: the copy takes the fixed-point routine and the kernels' inline sampling, with
// the blocks' routine's bits. BC7_SRGB and ETC2_R8G8B8A8_SRGB: the copy takes the exact RGBA8
// sRGB routine, whose bits are the reference's on the blocks (their texels are bytes).
INSTANTIATE_TEST_SUITE_P(Formats, CompressedDraw,
                         testing::Values(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK,
                                         VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK),
                         [](const testing::TestParamInfo<VkFormat>& info) {
                           return info.param == VK_FORMAT_BC7_SRGB_BLOCK      ? std::string("Bc7Srgb")
                                  : info.param == VK_FORMAT_BC1_RGB_UNORM_BLOCK ? std::string("Bc1RgbUnorm")
                                  : info.param == VK_FORMAT_BC3_UNORM_BLOCK     ? std::string("Bc3Unorm")
                                                                                : std::string("Etc2Rgba8Srgb");
                         });

}  // namespace
}  // namespace tessera_test
