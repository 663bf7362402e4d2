// Texel buffer views at single-texel offsets (VkPhysicalDeviceVulkan13Properties::
// {uniform,storage}TexelBufferOffsetSingleTexelAlignment), on Tessera and on lavapipe. "Buffer
// Views": with single-texel alignment a view's offset need only be a multiple of the lesser of
// *TexelBufferOffsetAlignmentBytes and the texel's size, or of one component's size for formats
// whose texel is a multiple of three bytes. For UINT formats of every texel size from 1 to 16
// bytes, tests/shaders/texel_buffer_offset.comp reads a uniform and a storage texel buffer
// through views at odd multiples of that alignment (never a multiple of 16 below 16) and stores
// the sum through the storage view (on a driver without shaderStorageImageReadWithoutFormat,
// texel_buffer_offset_store.comp adds a constant instead of reading the storage view); the values come from the buffers' bytes as "Conversion to
// RGBA" says (missing G, B: 0; missing A: 1), and every byte outside the stored texels must be
// left alone.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "dual_driver.h"
#include "one_set_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

using U4 = std::array<uint32_t, 4>;
constexpr uint32_t kTexels = 8;  // the views' texel count, the shader's workgroup size

struct Case {
  VkFormat format;
  uint32_t components;
  uint32_t componentBytes;
  uint32_t texelBytes() const { return components * componentBytes; }
  // "the lesser of the alignment bytes and the texel size; the component size for texels that
  // are a multiple of three bytes"
  uint32_t alignment(VkDeviceSize alignmentBytes) const {
    const uint32_t single = texelBytes() % 3 == 0 ? componentBytes : texelBytes();
    return uint32_t(std::min<VkDeviceSize>(single, alignmentBytes));
  }
};

const Case kCases[] = {
    {VK_FORMAT_R8_UINT, 1, 1},           {VK_FORMAT_R8G8_UINT, 2, 1},          {VK_FORMAT_R8G8B8_UINT, 3, 1},
    {VK_FORMAT_R8G8B8A8_UINT, 4, 1},     {VK_FORMAT_R16_UINT, 1, 2},           {VK_FORMAT_R16G16_UINT, 2, 2},
    {VK_FORMAT_R16G16B16_UINT, 3, 2},    {VK_FORMAT_R16G16B16A16_UINT, 4, 2},  {VK_FORMAT_R32_UINT, 1, 4},
    {VK_FORMAT_R32G32_UINT, 2, 4},       {VK_FORMAT_R32G32B32_UINT, 3, 4},     {VK_FORMAT_R32G32B32A32_UINT, 4, 4},
};

// Bytes below 0x80, so that every component sum the shader stores fits its component.
std::vector<uint8_t> pattern(size_t n, uint32_t seed) {
  std::vector<uint8_t> b(n);
  for (size_t k = 0; k < n; ++k) b[k] = uint8_t((k * 37 + seed) & 0x7F);
  return b;
}

// "Conversion to RGBA" of a UINT texel: missing G and B are 0, a missing A is 1.
U4 decode(const Case& c, const uint8_t* p) {
  U4 v{0, 0, 0, 1};
  for (uint32_t i = 0; i < c.components; ++i) {
    uint32_t x = 0;
    std::memcpy(&x, p + i * c.componentBytes, c.componentBytes);
    v[i] = x;
  }
  return v;
}

void encode(const Case& c, const U4& v, uint8_t* p) {
  for (uint32_t i = 0; i < c.components; ++i) std::memcpy(p + i * c.componentBytes, &v[i], c.componentBytes);
}

bool formatUsable(VkPhysicalDevice pd, VkFormat format, bool loads) {
  VkFormatProperties3 p3{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3};
  VkFormatProperties2 p{VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_2, &p3};
  vkGetPhysicalDeviceFormatProperties2(pd, format, &p);
  const VkFormatFeatureFlags2 need = VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT | VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT |
                                     (loads ? VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT : 0) |
                                     VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
  return (p3.bufferFeatures & need) == need;
}

VkPhysicalDeviceVulkan13Properties properties13(VkPhysicalDevice pd) {
  VkPhysicalDeviceVulkan13Properties p13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 p{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &p13};
  vkGetPhysicalDeviceProperties2(pd, &p);
  return p13;
}

bool hasExtension(VkPhysicalDevice pd, const char* name) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> exts(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, exts.data());
  for (const VkExtensionProperties& e : exts)
    if (std::strcmp(e.extensionName, name) == 0) return true;
  return false;
}

// Runs every case the driver supports; returns how many ran.
uint32_t runCases(VkPhysicalDevice pd, const char* driver) {
  const VkPhysicalDeviceVulkan13Properties p13 = properties13(pd);
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(pd, &supported);
  const bool loads = supported.shaderStorageImageReadWithoutFormat;
  if (!supported.shaderStorageImageWriteWithoutFormat) return 0;
  VkPhysicalDeviceFeatures features{};
  features.shaderStorageImageReadWithoutFormat = loads;
  features.shaderStorageImageWriteWithoutFormat = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
  // Vulkan 1.3 implies texelBufferAlignment ("Promotion to Vulkan 1.3" of the extension), but
  // the validation layer checks offsets against minTexelBufferOffsetAlignment unless the
  // extension's feature is enabled, as the CTS does too.
  VkPhysicalDeviceTexelBufferAlignmentFeaturesEXT alignment{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_FEATURES_EXT};
  alignment.texelBufferAlignment = VK_TRUE;
  if (!hasExtension(pd, VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME)) return 0;
  v13.pNext = &alignment;
  TestDevice d(pd, &features, &v13, {VK_EXT_TEXEL_BUFFER_ALIGNMENT_EXTENSION_NAME});
  EXPECT_NE(d.dev, VK_NULL_HANDLE) << driver;
  if (!d.dev) return 0;
  uint32_t ran = 0;
  for (const Case& c : kCases) {
    if (!formatUsable(pd, c.format, loads)) continue;
    ++ran;
    const uint32_t size = c.texelBytes();
    // Odd multiples of the single-texel alignment: 16-byte aligned only where it must be.
    const VkDeviceSize srcOffset = 5 * c.alignment(p13.uniformTexelBufferOffsetAlignmentBytes);
    const VkDeviceSize dstOffset = 3 * c.alignment(p13.storageTexelBufferOffsetAlignmentBytes);
    const VkDeviceSize range = kTexels * size;
    const VkDeviceSize srcSize = srcOffset + range + 16, dstSize = dstOffset + range + 16;
    void *srcMap, *dstMap, *outMap;
    VkBuffer src = d.createMappedBuffer(srcSize, VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT, &srcMap);
    VkBuffer dst = d.createMappedBuffer(dstSize, VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT, &dstMap);
    VkBuffer out = d.createMappedBuffer(16 * (1 + 2 * kTexels), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
    const std::vector<uint8_t> srcBytes = pattern(srcSize, 11), dstBytes = pattern(dstSize, 90);
    std::memcpy(srcMap, srcBytes.data(), srcSize);
    std::memcpy(dstMap, dstBytes.data(), dstSize);
    std::memset(outMap, 0xEE, 16 * (1 + 2 * kTexels));
    {
      OneSetCompute program(d, {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER,
                                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER},
                            loads ? "texel_buffer_offset" : "texel_buffer_offset_store");
      if (program.ok()) {
        program.writeTexelBuffer(0, program.createView(src, c.format, srcOffset, range));
        program.writeTexelBuffer(1, program.createView(dst, c.format, dstOffset, range));
        program.writeBuffer(2, out);
        program.submit(program.record(1));
      }
    }
    std::vector<U4> got(1 + 2 * kTexels);
    std::memcpy(got.data(), outMap, got.size() * 16);
    const std::vector<uint8_t> after(static_cast<uint8_t*>(dstMap), static_cast<uint8_t*>(dstMap) + dstSize);
    std::vector<uint8_t> want = dstBytes;
    EXPECT_EQ(got[0][0], kTexels) << driver << " format " << c.format << ": textureSize";
    EXPECT_EQ(got[0][1], kTexels) << driver << " format " << c.format << ": imageSize";
    for (uint32_t i = 0; i < kTexels; ++i) {
      const U4 a = decode(c, srcBytes.data() + srcOffset + i * size);
      const U4 b = loads ? decode(c, dstBytes.data() + dstOffset + i * size) : U4{i + 1, 2 * (i + 1), 3 * (i + 1), 4 * (i + 1)};
      EXPECT_EQ(got[1 + i], a) << driver << " format " << c.format << " uniform view at " << srcOffset << ": texel " << i;
      EXPECT_EQ(got[1 + kTexels + i], b) << driver << " format " << c.format << " storage view at " << dstOffset << ": texel " << i;
      encode(c, {a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3]}, want.data() + dstOffset + i * size);
    }
    for (VkDeviceSize k = 0; k < dstSize; ++k)
      if (after[k] != want[k]) {
        ADD_FAILURE() << driver << " format " << c.format << " storage view at " << dstOffset << ": byte " << k << " is "
                      << int(after[k]) << ", not " << int(want[k]);
        break;
      }
    vkDestroyBuffer(d.dev, src, nullptr);
    vkDestroyBuffer(d.dev, dst, nullptr);
    vkDestroyBuffer(d.dev, out, nullptr);
  }
  return ran;
}

TEST(TexelBufferOffset, ViewsAtSingleTexelOffsetsReadAndWriteTheirOwnTexels) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const VkPhysicalDeviceVulkan13Properties p13 = properties13(drivers.tessera);
  ASSERT_TRUE(p13.uniformTexelBufferOffsetSingleTexelAlignment && p13.storageTexelBufferOffsetSingleTexelAlignment)
      << "Tessera does not report single-texel alignment";
  EXPECT_EQ(runCases(drivers.tessera, "Tessera"), std::size(kCases)) << "Tessera lacks a texel buffer format";
  if (drivers.lavapipe) {
    const VkPhysicalDeviceVulkan13Properties l13 = properties13(drivers.lavapipe);
    if (l13.uniformTexelBufferOffsetSingleTexelAlignment && l13.storageTexelBufferOffsetSingleTexelAlignment) {
      const uint32_t ran = runCases(drivers.lavapipe, "lavapipe");
      EXPECT_GT(ran, 0u);
      std::printf("lavapipe: %u of %zu formats\n", ran, std::size(kCases));
    }
  }
}

}  // namespace
}  // namespace tessera_test
