// Linear tiling with every image type, level count and layer count optimal tiling offers
// ("Image Layout": vkGetImageSubresourceLayout gives each subresource's offset and pitches in
// the image's memory, which the host reads directly), through the loader with validation, on
// Tessera and on lavapipe. Texels copied from a buffer into each level and layer of a linear
// 2D-array image and of a 3D image must be where the layouts say, read through the mapped
// image memory: texel (x, y, z) of a subresource at offset + z depthPitch + y rowPitch + 4 x.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr VkFormat kFormat = VK_FORMAT_R8G8B8A8_UINT;

uint32_t texelValue(uint32_t level, uint32_t layer, uint32_t x, uint32_t y, uint32_t z) {
  return level << 28 | layer << 24 | z << 16 | y << 8 | x;
}

uint32_t memoryTypeIndex(VkPhysicalDevice pd, uint32_t bits, VkMemoryPropertyFlags want) {
  VkPhysicalDeviceMemoryProperties props;
  vkGetPhysicalDeviceMemoryProperties(pd, &props);
  for (uint32_t i = 0; i < props.memoryTypeCount; ++i)
    if ((bits >> i & 1) && (props.memoryTypes[i].propertyFlags & want) == want) return i;
  return UINT32_MAX;
}

// Fills every level and layer of a linear image of `type` (extent, levels, layers) by buffer
// copies and checks each texel through the mapped memory at the subresource layouts.
void checkLinearImage(VkPhysicalDevice pd, const char* driver, VkImageType type, VkExtent3D extent, uint32_t levels,
                      uint32_t layers) {
  SCOPED_TRACE(driver);
  VkImageFormatProperties props{};
  ASSERT_EQ(vkGetPhysicalDeviceImageFormatProperties(pd, kFormat, type, VK_IMAGE_TILING_LINEAR,
                                                     VK_IMAGE_USAGE_TRANSFER_DST_BIT, 0, &props),
            VK_SUCCESS);
  ASSERT_GE(props.maxMipLevels, levels);
  ASSERT_GE(props.maxArrayLayers, layers);
  TestDevice device(pd);
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = type;
  ici.format = kFormat;
  ici.extent = extent;
  ici.mipLevels = levels;
  ici.arrayLayers = layers;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_LINEAR;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  VkImage image;
  ASSERT_EQ(vkCreateImage(dev, &ici, nullptr, &image), VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, image, &req);
  const uint32_t type_ = memoryTypeIndex(pd, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  ASSERT_NE(type_, UINT32_MAX);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, req.size, type_};
  VkDeviceMemory memory;
  ASSERT_EQ(vkAllocateMemory(dev, &mai, nullptr, &memory), VK_SUCCESS);
  ASSERT_EQ(vkBindImageMemory(dev, image, memory, 0), VK_SUCCESS);

  // The texels of every subresource, one after another in the buffer.
  std::vector<uint32_t> texels;
  std::vector<VkBufferImageCopy> regions;
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t w = std::max(extent.width >> level, 1u), h = std::max(extent.height >> level, 1u);
    const uint32_t d = std::max(extent.depth >> level, 1u);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      VkBufferImageCopy r{};
      r.bufferOffset = texels.size() * 4;
      r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, level, layer, 1};
      r.imageExtent = {w, h, d};
      regions.push_back(r);
      for (uint32_t z = 0; z < d; ++z)
        for (uint32_t y = 0; y < h; ++y)
          for (uint32_t x = 0; x < w; ++x) texels.push_back(texelValue(level, layer, x, y, z));
    }
  }
  void* staging;
  VkBuffer buffer = device.createMappedBuffer(texels.size() * 4, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, &staging);
  std::memcpy(staging, texels.data(), texels.size() * 4);

  VkCommandBuffer cmd = device.beginCommands();
  imageBarrier(cmd, image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL, 0, VK_ACCESS_TRANSFER_WRITE_BIT,
               VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
               {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layers});
  vkCmdCopyBufferToImage(cmd, buffer, image, VK_IMAGE_LAYOUT_GENERAL, uint32_t(regions.size()), regions.data());
  transferToHostBarrier(cmd);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);

  void* mapped;
  ASSERT_EQ(vkMapMemory(dev, memory, 0, VK_WHOLE_SIZE, 0, &mapped), VK_SUCCESS);
  const auto* bytes = static_cast<const uint8_t*>(mapped);
  int failures = 0;
  for (uint32_t level = 0; level < levels; ++level) {
    const uint32_t w = std::max(extent.width >> level, 1u), h = std::max(extent.height >> level, 1u);
    const uint32_t d = std::max(extent.depth >> level, 1u);
    for (uint32_t layer = 0; layer < layers; ++layer) {
      const VkImageSubresource sub{VK_IMAGE_ASPECT_COLOR_BIT, level, layer};
      VkSubresourceLayout layout{};
      vkGetImageSubresourceLayout(dev, image, &sub, &layout);
      EXPECT_GE(layout.rowPitch, VkDeviceSize(w) * 4);
      for (uint32_t z = 0; z < d && failures < 5; ++z)
        for (uint32_t y = 0; y < h && failures < 5; ++y)
          for (uint32_t x = 0; x < w && failures < 5; ++x) {
            const VkDeviceSize at = layout.offset + z * layout.depthPitch + y * layout.rowPitch + 4 * x;
            ASSERT_LE(at + 4, req.size);
            uint32_t v;
            std::memcpy(&v, bytes + at, 4);
            if (v != texelValue(level, layer, x, y, z)) {
              ADD_FAILURE() << "level " << level << " layer " << layer << " texel " << x << "," << y << "," << z << ": 0x"
                            << std::hex << v << ", want 0x" << texelValue(level, layer, x, y, z);
              ++failures;
            }
          }
    }
  }
  vkUnmapMemory(dev, memory);
  vkDestroyBuffer(dev, buffer, nullptr);
  vkDestroyImage(dev, image, nullptr);
  vkFreeMemory(dev, memory, nullptr);
}

TEST(LinearTiling, EveryLevelAndLayerOfArrayAnd3DImagesIsWhereItsLayoutSays) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "runs Tessera and lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  for (VkPhysicalDevice pd : {drivers.tessera, drivers.lavapipe}) {
    if (!pd) continue;
    const char* name = pd == drivers.tessera ? "Tessera" : "lavapipe";
    checkLinearImage(pd, name, VK_IMAGE_TYPE_2D, {13, 7, 1}, 3, 4);
    checkLinearImage(pd, name, VK_IMAGE_TYPE_3D, {6, 5, 4}, 3, 1);
    checkLinearImage(pd, name, VK_IMAGE_TYPE_1D, {19, 1, 1}, 4, 2);
  }
}

}  // namespace
}  // namespace tessera_test
