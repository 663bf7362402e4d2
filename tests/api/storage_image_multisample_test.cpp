// shaderStorageImageMultisample, on Tessera and on lavapipe: a 4-sample, 2-layer r32ui
// storage image (storageImageSampleCounts) written, read and atomically updated per sample by
// tests/shaders/storage_image_multisample.comp (OpImageWrite, OpImageRead and
// OpImageTexelPointer with a Sample operand; OpImageQuerySamples and OpImageQuerySize). Each
// sample must keep its own value ("Multisampling": a multisampled image holds every sample of
// every texel), so the values read back are those stored for that texel, layer and sample.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "one_set_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kSize = 4, kLayers = 2, kSamples = 4, kTexels = kSize * kSize * kLayers;

uint32_t value(uint32_t x, uint32_t y, uint32_t layer, uint32_t s) { return 1 + x + 4 * y + 16 * layer + 64 * s; }

bool offersMultisampleStorage(VkPhysicalDevice pd) {
  VkPhysicalDeviceFeatures f;
  vkGetPhysicalDeviceFeatures(pd, &f);
  VkPhysicalDeviceProperties p;
  vkGetPhysicalDeviceProperties(pd, &p);
  VkImageFormatProperties ifp{};
  const VkResult r = vkGetPhysicalDeviceImageFormatProperties(pd, VK_FORMAT_R32_UINT, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                                              VK_IMAGE_USAGE_STORAGE_BIT, 0, &ifp);
  return f.shaderStorageImageMultisample && (p.limits.storageImageSampleCounts & VK_SAMPLE_COUNT_4_BIT) && r == VK_SUCCESS &&
         (ifp.sampleCounts & VK_SAMPLE_COUNT_4_BIT);
}

void run(VkPhysicalDevice pd, const char* driver) {
  VkPhysicalDeviceFeatures features{};
  features.shaderStorageImageMultisample = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
  TestDevice d(pd, &features, &v13);
  ASSERT_NE(d.dev, VK_NULL_HANDLE) << driver;

  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = VK_FORMAT_R32_UINT;
  ici.extent = {kSize, kSize, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = kLayers;
  ici.samples = VK_SAMPLE_COUNT_4_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_STORAGE_BIT;
  VkImage image = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImage(d.dev, &ici, nullptr, &image), VK_SUCCESS) << driver;
  d.bindMemory(image);
  VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, nullptr, 0, image, VK_IMAGE_VIEW_TYPE_2D_ARRAY,
                            VK_FORMAT_R32_UINT, {}, {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers}};
  VkImageView view = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateImageView(d.dev, &vci, nullptr, &view), VK_SUCCESS) << driver;
  void* outMap;
  const size_t outBytes = 16 * (1 + 3 * kTexels);
  VkBuffer out = d.createMappedBuffer(outBytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  std::memset(outMap, 0xEE, outBytes);
  {
    OneSetCompute program(d, {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, "storage_image_multisample");
    ASSERT_TRUE(program.ok()) << driver;
    program.writeStorageImage(0, view);
    program.writeBuffer(1, out);
    // UNDEFINED -> GENERAL first, in a command buffer of its own.
    VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    VkCommandPool pool;
    vkCreateCommandPool(d.dev, &cpci, nullptr, &pool);
    VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    VkCommandBuffer cmd;
    vkAllocateCommandBuffers(d.dev, &cbai, &cmd);
    VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
    b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
    b.image = image;
    b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, kLayers};
    b.oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
    b.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 0, nullptr, 0, nullptr, 1, &b);
    vkEndCommandBuffer(cmd);
    d.submitAndWait(cmd);
    vkDestroyCommandPool(d.dev, pool, nullptr);
    program.submit(program.record(1));
  }
  std::vector<std::array<uint32_t, 4>> o(1 + 3 * kTexels);
  std::memcpy(o.data(), outMap, outBytes);
  EXPECT_EQ(o[0], (std::array<uint32_t, 4>{kSamples, kSize, kSize, kLayers})) << driver << ": imageSamples, imageSize";
  for (uint32_t layer = 0; layer < kLayers; ++layer)
    for (uint32_t y = 0; y < kSize; ++y)
      for (uint32_t x = 0; x < kSize; ++x) {
        const uint32_t id = x + kSize * y + kSize * kSize * layer;  // gl_LocalInvocationIndex
        const uint32_t mx = kSize - 1 - x, my = kSize - 1 - y, ml = kLayers - 1 - layer;
        for (uint32_t s = 0; s < kSamples; ++s) {
          EXPECT_EQ(o[1 + id][s], value(mx, my, ml, s))
              << driver << ": texel (" << mx << ", " << my << ") layer " << ml << " sample " << s << " read";
          EXPECT_EQ(o[1 + kTexels + id][s], value(mx, my, ml, s))
              << driver << ": texel (" << mx << ", " << my << ") layer " << ml << " sample " << s << " before the atomic add";
          EXPECT_EQ(o[1 + 2 * kTexels + id][s], value(x, y, layer, s) + 1000)
              << driver << ": texel (" << x << ", " << y << ") layer " << layer << " sample " << s << " after the atomic add";
        }
      }
  vkDestroyBuffer(d.dev, out, nullptr);
  vkDestroyImageView(d.dev, view, nullptr);
  vkDestroyImage(d.dev, image, nullptr);
}

TEST(StorageImageMultisample, EverySampleOfEveryLayerKeepsItsOwnValue) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  ASSERT_TRUE(offersMultisampleStorage(drivers.tessera)) << "Tessera does not offer 4-sample storage images";
  run(drivers.tessera, "Tessera");
  if (drivers.lavapipe && offersMultisampleStorage(drivers.lavapipe)) {
    run(drivers.lavapipe, "lavapipe");
    std::printf("lavapipe: compared\n");
  }
}

}  // namespace
}  // namespace tessera_test
