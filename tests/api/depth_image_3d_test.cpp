// 3D images of depth and depth/stencil formats (spec "Image Creation": imageType 3D is allowed
// for any format vkGetPhysicalDeviceImageFormatProperties accepts with it; Tessera used to
// refuse depth formats in 3D, which made about 1,500 CTS cases NotSupported). Each format is
// cleared (vkCmdClearDepthStencilImage), two of its four slices are then written from a
// buffer, and the depth aspect is read back three ways: texelFetch through a 3D view in a
// compute shader, a LINEAR sample exactly between two slices, and vkCmdCopyImageToBuffer.
// The oracle is the spec's ("Depth/Stencil Formats" and "Conversion from Normalized Fixed-Point
// to Floating-Point"): a UNORM depth of n bits holds round(d * (2^n - 1)) and reads back
// that over 2^n - 1; D32_SFLOAT holds d. lavapipe runs the same test when installed.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 4, kSlices = 4, kTexels = kSize * kSize * kSlices;
constexpr float kClearDepth = 0.25f;

struct DepthFormat {
  VkFormat format;
  uint32_t unormBits;  // 0: 32-bit float depth
  bool stencil;
  const char* name;
};
constexpr DepthFormat kFormats[] = {
    {VK_FORMAT_D16_UNORM, 16, false, "D16_UNORM"},
    {VK_FORMAT_X8_D24_UNORM_PACK32, 24, false, "X8_D24_UNORM_PACK32"},
    {VK_FORMAT_D32_SFLOAT, 0, false, "D32_SFLOAT"},
    {VK_FORMAT_D16_UNORM_S8_UINT, 16, true, "D16_UNORM_S8_UINT"},
    {VK_FORMAT_D24_UNORM_S8_UINT, 24, true, "D24_UNORM_S8_UINT"},
    {VK_FORMAT_D32_SFLOAT_S8_UINT, 0, true, "D32_SFLOAT_S8_UINT"},
};

// The depth written to texel (x, y) of slices 1 and 2: distinct, in [0, 1].
float writtenDepth(uint32_t x, uint32_t y, uint32_t z) { return float(x + kSize * (y + kSize * z) + 1) / 67.0f; }

// What the format stores for d, read back as a float.
float stored(const DepthFormat& f, float d) {
  if (f.unormBits == 0) return d;
  const double max = double((1u << f.unormBits) - 1);
  return float(std::nearbyint(double(d) * max) / max);
}

// The depth of the buffer-to-image copy's texel in the buffer's layout: D16 as 16-bit integers,
// 24-bit depth in the low bits of 32-bit words, D32 as floats (spec "Copying Data Between
// Buffers and Images", depth aspect layouts).
void packDepth(const DepthFormat& f, float d, uint8_t* out) {
  if (f.unormBits == 16) {
    const uint16_t v = uint16_t(std::nearbyint(d * 65535.0f));
    std::memcpy(out, &v, 2);
  } else if (f.unormBits == 24) {
    const uint32_t v = uint32_t(std::nearbyint(double(d) * 16777215.0));
    std::memcpy(out, &v, 4);
  } else {
    std::memcpy(out, &d, 4);
  }
}
float unpackDepth(const DepthFormat& f, const uint8_t* in) {
  if (f.unormBits == 16) {
    uint16_t v;
    std::memcpy(&v, in, 2);
    return float(v / 65535.0);
  }
  uint32_t v;
  std::memcpy(&v, in, 4);
  if (f.unormBits == 24) return float((v & 0xffffffu) / 16777215.0);
  float d;
  std::memcpy(&d, in, 4);
  return d;
}
uint32_t bufferTexelBytes(const DepthFormat& f) { return f.unormBits == 16 ? 2 : 4; }

struct Readback {
  bool supported2D = false;         // the format is offered as a sampled 2D image
  bool supported = false;
  bool linear = false;              // the format offers LINEAR filtering in optimal tiling
  std::vector<float> fetched;       // kTexels, x fastest, then y, then z
  std::vector<float> between01;     // kSize * kSize LINEAR samples between slices 0 and 1
  std::vector<float> copied;        // kTexels from vkCmdCopyImageToBuffer
};

Readback readBack(VkPhysicalDevice pd, const DepthFormat& f) {
  Readback r;
  VkImageFormatProperties ifp{};
  const VkImageUsageFlags usage =
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  r.supported2D = vkGetPhysicalDeviceImageFormatProperties(pd, f.format, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                           usage, 0, &ifp) == VK_SUCCESS;
  if (vkGetPhysicalDeviceImageFormatProperties(pd, f.format, VK_IMAGE_TYPE_3D, VK_IMAGE_TILING_OPTIMAL, usage, 0,
                                               &ifp) != VK_SUCCESS ||
      ifp.maxExtent.depth < kSlices)
    return r;
  r.supported = true;
  VkFormatProperties fp{};
  vkGetPhysicalDeviceFormatProperties(pd, f.format, &fp);
  r.linear = fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT;

  // maintenance4: the test corpus is compiled for Vulkan 1.3, whose compute shaders declare
  // their workgroup size with LocalSizeId.
  VkPhysicalDeviceVulkan13Features vulkan13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  vulkan13.maintenance4 = VK_TRUE;
  TestDevice device(pd, nullptr, &vulkan13);
  const VkDevice dev = device.dev;
  if (!dev) return r;
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_3D;
  ici.format = f.format;
  ici.extent = {kSize, kSize, kSlices};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = usage;
  VkImage image;
  EXPECT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  device.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
  vci.image = image;
  vci.viewType = VK_IMAGE_VIEW_TYPE_3D;
  vci.format = f.format;
  vci.subresourceRange = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 1, 0, 1};
  VkImageView view;
  EXPECT_EQ(vkCreateImageView(dev, &vci, nullptr, &view), VK_SUCCESS);
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = r.linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  VkSampler sampler;
  EXPECT_EQ(vkCreateSampler(dev, &sci, nullptr, &sampler), VK_SUCCESS);

  // Buffers: the upload (slices 1 and 2), the shader's results, the copy back (all slices).
  const uint32_t texelBytes = bufferTexelBytes(f);
  uint8_t *upload = nullptr, *results = nullptr, *copyBack = nullptr;
  VkBuffer uploadBuffer =
      device.createMappedBuffer(kSize * kSize * 2 * texelBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, reinterpret_cast<void**>(&upload));
  const VkDeviceSize resultBytes = (kTexels + kSize * kSize) * 4;
  VkBuffer resultBuffer =
      device.createMappedBuffer(resultBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, reinterpret_cast<void**>(&results));
  VkBuffer copyBuffer =
      device.createMappedBuffer(kTexels * texelBytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT, reinterpret_cast<void**>(&copyBack));
  for (uint32_t z = 1; z <= 2; ++z)
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x)
        packDepth(f, writtenDepth(x, y, z), upload + ((z - 1) * kSize * kSize + y * kSize + x) * texelBytes);
  std::memset(results, 0xcd, resultBytes);
  std::memset(copyBack, 0xcd, kTexels * texelBytes);

  // The compute pipeline: binding 0 the 3D view and sampler, binding 1 the results.
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dlci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dlci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &setLayout;
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  VkShaderModule module = device.createShaderModule(loadCorpusShader("fetch_depth_3d"));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  cpci.layout = layout;
  VkPipeline pipeline;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &pool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  VkDescriptorImageInfo imageInfo{sampler, view, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL};
  VkDescriptorBufferInfo bufferInfo{resultBuffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[2] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, &imageInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &bufferInfo}};
  vkUpdateDescriptorSets(dev, 2, writes, 0, nullptr);

  const VkImageAspectFlags aspects = VK_IMAGE_ASPECT_DEPTH_BIT | (f.stencil ? VK_IMAGE_ASPECT_STENCIL_BIT : 0);
  const VkImageSubresourceRange all{aspects, 0, 1, 0, 1};
  VkCommandBuffer cmd = device.beginCommands();
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  const VkClearDepthStencilValue clear{kClearDepth, 5};
  vkCmdClearDepthStencilImage(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, &clear, 1, &all);
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  VkBufferImageCopy up{};
  up.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  up.imageOffset = {0, 0, 1};
  up.imageExtent = {kSize, kSize, 2};
  vkCmdCopyBufferToImage(cmd, uploadBuffer, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &up);
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL,
               VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_SHADER_READ_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, all);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, 1, 1, 1);
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL,
               VK_ACCESS_SHADER_READ_BIT, VK_ACCESS_TRANSFER_READ_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
               VK_PIPELINE_STAGE_TRANSFER_BIT, all);
  VkBufferImageCopy down{};
  down.imageSubresource = {VK_IMAGE_ASPECT_DEPTH_BIT, 0, 0, 1};
  down.imageExtent = {kSize, kSize, kSlices};
  vkCmdCopyImageToBuffer(cmd, image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, copyBuffer, 1, &down);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_WRITE_BIT,
                       VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  r.fetched.resize(kTexels);
  std::memcpy(r.fetched.data(), results, kTexels * 4);
  r.between01.resize(kSize * kSize);
  std::memcpy(r.between01.data(), results + kTexels * 4, kSize * kSize * 4);
  for (uint32_t i = 0; i < kTexels; ++i) r.copied.push_back(unpackDepth(f, copyBack + i * texelBytes));

  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorPool(dev, pool, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroySampler(dev, sampler, nullptr);
  vkDestroyImageView(dev, view, nullptr);
  vkDestroyBuffer(dev, uploadBuffer, nullptr);
  vkDestroyBuffer(dev, resultBuffer, nullptr);
  vkDestroyBuffer(dev, copyBuffer, nullptr);
  vkDestroyImage(dev, image, nullptr);
  return r;
}

// The depth texel (x, y, z) holds after the clear and the upload.
float expectedDepth(const DepthFormat& f, uint32_t x, uint32_t y, uint32_t z) {
  return stored(f, z == 1 || z == 2 ? writtenDepth(x, y, z) : kClearDepth);
}

void check(const Readback& r, const DepthFormat& f, const char* driver) {
  ASSERT_EQ(r.fetched.size(), size_t(kTexels)) << driver << " " << f.name;
  // A UNORM depth converted to float is exact to within one float rounding (spec "Conversion
  // from Normalized Fixed-Point to Floating-Point": the precision of a 32-bit float).
  const float exact = 1e-6f;
  for (uint32_t z = 0; z < kSlices; ++z)
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint32_t i = (z * kSize + y) * kSize + x;
        const float want = expectedDepth(f, x, y, z);
        EXPECT_NEAR(r.fetched[i], want, exact) << driver << " " << f.name << " texelFetch (" << x << ", " << y << ", " << z << ")";
        EXPECT_NEAR(r.copied[i], want, exact) << driver << " " << f.name << " copy to buffer (" << x << ", " << y << ", " << z << ")";
      }
  // LINEAR between slices 0 and 1: weight 1/2 each (spec "Texel Filtering"), to within the
  // sub-texel precision's rounding of the weight; NEAREST picks slice 1 (floor(1.0)).
  for (uint32_t y = 0; y < kSize; ++y)
    for (uint32_t x = 0; x < kSize; ++x) {
      const float s0 = expectedDepth(f, x, y, 0), s1 = expectedDepth(f, x, y, 1);
      const float want = r.linear ? (s0 + s1) / 2 : s1;
      EXPECT_NEAR(r.between01[y * kSize + x], want, 1e-4f) << driver << " " << f.name << " between slices at (" << x << ", " << y << ")";
    }
}

TEST(DepthImage3D, ClearedCopiedAndSampledSlicesHoldTheSpecsValues) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (const DepthFormat& f : kFormats) {
    const Readback tessera = readBack(drivers.tessera, f);
    // Tessera offers every depth format it has in 2D in 3D too (the point of this test).
    if (!tessera.supported2D) continue;
    ASSERT_TRUE(tessera.supported) << f.name;
    check(tessera, f, "Tessera");
    if (!drivers.lavapipe) continue;
    const Readback lavapipe = readBack(drivers.lavapipe, f);
    if (lavapipe.supported) check(lavapipe, f, "lavapipe");
  }
}

}  // namespace
}  // namespace tessera_test
