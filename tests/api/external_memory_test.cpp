// External memory through the loader with validation, on Tessera and on lavapipe in the same
// test ("External Memory Handle Types"):
//  - VK_EXT_external_memory_host: a host allocation aligned to minImportedHostPointerAlignment is
//    imported (VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT) and used in place: device
//    writes to a buffer bound to it land in the application's allocation, which the device reads.
//  - VK_KHR_external_memory_fd: memory allocated exportable as an opaque fd, exported with
//    vkGetMemoryFdKHR and imported into another allocation, is one payload: what either side
//    writes the other reads.
#include <gtest/gtest.h>
#include <unistd.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr VkDeviceSize kBytes = 4096 * 4;

struct BoundBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

// A buffer of kBytes with `handleType` external memory bound, allocated with `allocNext`.
BoundBuffer externalBuffer(VkDevice dev, VkExternalMemoryHandleTypeFlagBits handleType, const void* allocNext) {
  BoundBuffer b;
  VkExternalMemoryBufferCreateInfo external{VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO, nullptr,
                                            VkExternalMemoryHandleTypeFlags(handleType)};
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, &external};
  bci.size = kBytes;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  EXPECT_EQ(vkCreateBuffer(dev, &bci, nullptr, &b.buffer), VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, b.buffer, &req);
  EXPECT_LE(req.size, kBytes);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, allocNext, kBytes, 0};
  while (!(req.memoryTypeBits & (1u << mai.memoryTypeIndex))) ++mai.memoryTypeIndex;
  EXPECT_EQ(vkAllocateMemory(dev, &mai, nullptr, &b.memory), VK_SUCCESS);
  if (b.memory) {
    EXPECT_EQ(vkBindBufferMemory(dev, b.buffer, b.memory, 0), VK_SUCCESS);
  }
  return b;
}

void destroy(VkDevice dev, BoundBuffer& b) {
  vkDestroyBuffer(dev, b.buffer, nullptr);
  vkFreeMemory(dev, b.memory, nullptr);
}

template <typename F>
void submit(TestDevice& device, F&& body) {
  VkCommandPoolCreateInfo cpci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(device.dev, &cpci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(device.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  body(cmd);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  vkDestroyCommandPool(device.dev, pool, nullptr);
}

void transferOrder(VkCommandBuffer cmd) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

void checkHostImport(VkPhysicalDevice pd, const char* driver) {
  SCOPED_TRACE(driver);
  VkPhysicalDeviceExternalMemoryHostPropertiesEXT hostProps{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &hostProps};
  vkGetPhysicalDeviceProperties2(pd, &props);
  const VkDeviceSize align = hostProps.minImportedHostPointerAlignment;
  ASSERT_GT(align, 0u);
  ASSERT_EQ(align & (align - 1), 0u) << "a power of two (Limits)";
  ASSERT_EQ(kBytes % align, 0u);
  VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0,
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
  VkExternalBufferProperties bufferProps{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(pd, &bufferInfo, &bufferProps);
  ASSERT_TRUE(bufferProps.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);

  TestDevice device(pd, nullptr, nullptr, {VK_EXT_EXTERNAL_MEMORY_HOST_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);
  auto pointerProperties = reinterpret_cast<PFN_vkGetMemoryHostPointerPropertiesEXT>(
      vkGetDeviceProcAddr(dev, "vkGetMemoryHostPointerPropertiesEXT"));
  ASSERT_NE(pointerProperties, nullptr);
  auto* host = static_cast<uint32_t*>(std::aligned_alloc(size_t(align), size_t(kBytes)));
  ASSERT_NE(host, nullptr);
  for (uint32_t i = 0; i < kBytes / 4; ++i) host[i] = i * 3;
  VkMemoryHostPointerPropertiesEXT pointerProps{VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT};
  ASSERT_EQ(pointerProperties(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host, &pointerProps), VK_SUCCESS);
  ASSERT_NE(pointerProps.memoryTypeBits, 0u);

  const VkImportMemoryHostPointerInfoEXT import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT, nullptr,
                                                VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, host};
  BoundBuffer imported = externalBuffer(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT, &import);
  void* map;
  VkBuffer plain = device.createMappedBuffer(kBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, &map);
  // The device reads the host's words (copy out), then writes into the host's allocation (fill).
  submit(device, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(cmd, imported.buffer, plain, 1, &region);
    transferOrder(cmd);
    vkCmdFillBuffer(cmd, imported.buffer, 4096, 4096, 0xABCD1234u);
  });
  for (uint32_t i = 0; i < kBytes / 4; ++i) {
    ASSERT_EQ(static_cast<uint32_t*>(map)[i], i * 3) << "device read of host word " << i;
    const uint32_t want = i >= 1024 && i < 2048 ? 0xABCD1234u : i * 3;
    ASSERT_EQ(host[i], want) << "host word " << i << " after the device's fill";
  }
  destroy(dev, imported);
  vkDestroyBuffer(dev, plain, nullptr);
  std::free(host);  // after the memory that imported it is freed
}

void checkOpaqueFd(VkPhysicalDevice pd, const char* driver) {
  SCOPED_TRACE(driver);
  VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0,
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                                VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalBufferProperties bufferProps{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(pd, &bufferInfo, &bufferProps);
  const VkExternalMemoryFeatureFlags features = bufferProps.externalMemoryProperties.externalMemoryFeatures;
  ASSERT_TRUE(features & VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT);
  ASSERT_TRUE(features & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
  ASSERT_FALSE(features & VK_EXTERNAL_MEMORY_FEATURE_DEDICATED_ONLY_BIT);
  ASSERT_TRUE(bufferProps.externalMemoryProperties.compatibleHandleTypes & VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT);

  TestDevice device(pd, nullptr, nullptr, {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  ASSERT_NE(dev, VK_NULL_HANDLE);
  auto getFd = reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(dev, "vkGetMemoryFdKHR"));
  ASSERT_NE(getFd, nullptr);
  const VkExportMemoryAllocateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO, nullptr,
                                              VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  BoundBuffer exported = externalBuffer(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, &exportInfo);
  ASSERT_NE(exported.memory, VK_NULL_HANDLE);
  void* exportedMap;
  ASSERT_EQ(vkMapMemory(dev, exported.memory, 0, VK_WHOLE_SIZE, 0, &exportedMap), VK_SUCCESS);
  for (uint32_t i = 0; i < kBytes / 4; ++i) static_cast<uint32_t*>(exportedMap)[i] = 0x5000 + i;
  const VkMemoryGetFdInfoKHR getInfo{VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR, nullptr, exported.memory,
                                     VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  ASSERT_EQ(getFd(dev, &getInfo, &fd), VK_SUCCESS);
  ASSERT_GE(fd, 0);
  // The import owns the fd on success.
  const VkImportMemoryFdInfoKHR import{VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR, nullptr,
                                       VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
  BoundBuffer imported = externalBuffer(dev, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, &import);
  ASSERT_NE(imported.memory, VK_NULL_HANDLE);
  void* plainMap;
  VkBuffer plain = device.createMappedBuffer(kBytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, &plainMap);
  // Read through the import what the host wrote through the export; write through the import.
  submit(device, [&](VkCommandBuffer cmd) {
    VkBufferCopy region{0, 0, kBytes};
    vkCmdCopyBuffer(cmd, imported.buffer, plain, 1, &region);
    transferOrder(cmd);
    vkCmdFillBuffer(cmd, imported.buffer, 0, 4096, 0x77777777u);
  });
  for (uint32_t i = 0; i < kBytes / 4; ++i) {
    ASSERT_EQ(static_cast<uint32_t*>(plainMap)[i], 0x5000 + i) << "word " << i << " read through the import";
    const uint32_t want = i < 1024 ? 0x77777777u : 0x5000 + i;
    ASSERT_EQ(static_cast<uint32_t*>(exportedMap)[i], want) << "word " << i << " seen through the export";
  }
  vkUnmapMemory(dev, exported.memory);
  destroy(dev, imported);
  destroy(dev, exported);
  vkDestroyBuffer(dev, plain, nullptr);
}

TEST(ExternalMemory, HostAllocationsAreUsedInPlace) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  checkHostImport(drivers.tessera, "Tessera");
  if (drivers.lavapipe) checkHostImport(drivers.lavapipe, "lavapipe");
}

TEST(ExternalMemory, AnExportedOpaqueFdImportsAsTheSamePayload) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  checkOpaqueFd(drivers.tessera, "Tessera");
  if (drivers.lavapipe) checkOpaqueFd(drivers.lavapipe, "lavapipe");
}

// Handle types Tessera cannot import are refused by the queries, and an import of a host
// pointer that is not aligned is refused with VK_ERROR_INVALID_EXTERNAL_HANDLE.
TEST(ExternalMemory, UnsupportedHandleTypesAreSaidSo) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's own answers";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceExternalBufferInfo bufferInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_BUFFER_INFO, nullptr, 0,
                                                VK_BUFFER_USAGE_TRANSFER_SRC_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT};
  VkExternalBufferProperties bufferProps{VK_STRUCTURE_TYPE_EXTERNAL_BUFFER_PROPERTIES};
  vkGetPhysicalDeviceExternalBufferProperties(drivers.tessera, &bufferInfo, &bufferProps);
  EXPECT_EQ(bufferProps.externalMemoryProperties.externalMemoryFeatures, 0u);
  VkPhysicalDeviceExternalImageFormatInfo externalImage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO, nullptr,
                                                        VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkPhysicalDeviceImageFormatInfo2 imageInfo{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_IMAGE_FORMAT_INFO_2, &externalImage,
                                             VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                             VK_IMAGE_USAGE_SAMPLED_BIT, 0};
  VkExternalImageFormatProperties externalProps{VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES};
  VkImageFormatProperties2 imageProps{VK_STRUCTURE_TYPE_IMAGE_FORMAT_PROPERTIES_2, &externalProps};
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties2(drivers.tessera, &imageInfo, &imageProps), VK_SUCCESS);
  EXPECT_TRUE(externalProps.externalMemoryProperties.externalMemoryFeatures & VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT);
  externalImage.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_DMA_BUF_BIT_EXT;
  EXPECT_EQ(vkGetPhysicalDeviceImageFormatProperties2(drivers.tessera, &imageInfo, &imageProps), VK_ERROR_FORMAT_NOT_SUPPORTED);
}

}  // namespace
}  // namespace tessera_test
