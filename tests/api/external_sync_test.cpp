// VK_KHR_external_semaphore_fd and VK_KHR_external_fence_fd through the loader with validation:
// a fence exported by one device and imported by another is signalled and reset for both; a
// semaphore exported as an
// opaque fd by one device and imported by a second device (two queues, two worker threads)
// carries signals between them, binary (a queue's wait on one device released by a queue's
// signal on the other, which the spec's "Importing Semaphore Payloads" promises for permanent
// imports: both semaphores then refer to one payload) and timeline (host signals and waits
// seen across); an fd that is no semaphore payload is refused with
// VK_ERROR_INVALID_EXTERNAL_HANDLE and a debug-utils message.
#include <gtest/gtest.h>
#include <unistd.h>

#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

class ExternalSemaphore : public VulkanTest {
 protected:
  void SetUp() override {
    extraDeviceExtensions.push_back(VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
    extraDeviceExtensions.push_back(VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME);
    VulkanTest::SetUp();
    if (HasFatalFailure()) return;
    // A second device on the same physical device, with its own queue.
    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
    VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    v12.timelineSemaphore = VK_TRUE;
    const char* extensions[2] = {VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME, VK_KHR_EXTERNAL_FENCE_FD_EXTENSION_NAME};
    VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &v12, 0, 1, &qci, 0, nullptr, 2, extensions};
    VK_CHECK(vkCreateDevice(physicalDevice, &dci, nullptr, &other));
    vkGetDeviceQueue(other, 0, 0, &otherQueue);
    getFd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(vkGetDeviceProcAddr(device, "vkGetSemaphoreFdKHR"));
    importFd = reinterpret_cast<PFN_vkImportSemaphoreFdKHR>(vkGetDeviceProcAddr(other, "vkImportSemaphoreFdKHR"));
    getFenceFd = reinterpret_cast<PFN_vkGetFenceFdKHR>(vkGetDeviceProcAddr(device, "vkGetFenceFdKHR"));
    importFenceFd = reinterpret_cast<PFN_vkImportFenceFdKHR>(vkGetDeviceProcAddr(other, "vkImportFenceFdKHR"));
    ASSERT_NE(getFd, nullptr);
    ASSERT_NE(importFd, nullptr);
    ASSERT_NE(getFenceFd, nullptr);
    ASSERT_NE(importFenceFd, nullptr);
  }
  void TearDown() override {
    if (other) vkDestroyDevice(other, nullptr);
    VulkanTest::TearDown();
  }

  VkSemaphore makeSemaphore(VkDevice dev, VkSemaphoreType type, uint64_t initial, bool exportable) {
    VkSemaphoreTypeCreateInfo typeInfo{VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO, nullptr, type, initial};
    VkExportSemaphoreCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO, &typeInfo,
                                           VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    VkSemaphoreCreateInfo ci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, exportable ? &exportInfo : (void*)&typeInfo};
    VkSemaphore s = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSemaphore(dev, &ci, nullptr, &s), VK_SUCCESS);
    return s;
  }
  // Exports `from` (of `device`) and imports it permanently into `into` (of `other`).
  void share(VkSemaphore from, VkSemaphore into) {
    const VkSemaphoreGetFdInfoKHR gi{VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR, nullptr, from,
                                     VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
    int fd = -1;
    ASSERT_EQ(getFd(device, &gi, &fd), VK_SUCCESS);
    ASSERT_GE(fd, 0);
    const VkImportSemaphoreFdInfoKHR ii{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR, nullptr, into, 0,
                                        VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
    ASSERT_EQ(importFd(other, &ii), VK_SUCCESS);
  }

  VkDevice other = VK_NULL_HANDLE;
  VkQueue otherQueue = VK_NULL_HANDLE;
  PFN_vkGetSemaphoreFdKHR getFd = nullptr;
  PFN_vkImportSemaphoreFdKHR importFd = nullptr;
  PFN_vkGetFenceFdKHR getFenceFd = nullptr;
  PFN_vkImportFenceFdKHR importFenceFd = nullptr;
};

TEST_F(ExternalSemaphore, OpaqueFdsAreExportableAndImportable) {
  VkPhysicalDeviceExternalSemaphoreInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_SEMAPHORE_INFO, nullptr,
                                             VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalSemaphoreProperties props{VK_STRUCTURE_TYPE_EXTERNAL_SEMAPHORE_PROPERTIES};
  vkGetPhysicalDeviceExternalSemaphoreProperties(physicalDevice, &info, &props);
  EXPECT_EQ(props.externalSemaphoreFeatures,
            VkExternalSemaphoreFeatureFlags(VK_EXTERNAL_SEMAPHORE_FEATURE_EXPORTABLE_BIT |
                                            VK_EXTERNAL_SEMAPHORE_FEATURE_IMPORTABLE_BIT));
  EXPECT_EQ(props.compatibleHandleTypes, VkExternalSemaphoreHandleTypeFlags(VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT));
  // Sync fds (Linux sync_file objects) are not offered.
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_SYNC_FD_BIT;
  vkGetPhysicalDeviceExternalSemaphoreProperties(physicalDevice, &info, &props);
  EXPECT_EQ(props.externalSemaphoreFeatures, 0u);
}

TEST_F(ExternalSemaphore, BinarySignalOnOneDeviceReleasesAWaitOnAnother) {
  VkSemaphore exported = makeSemaphore(device, VK_SEMAPHORE_TYPE_BINARY, 0, true);
  VkSemaphore imported = makeSemaphore(other, VK_SEMAPHORE_TYPE_BINARY, 0, false);
  share(exported, imported);
  const VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence done = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFence(other, &fci, nullptr, &done), VK_SUCCESS);
  // The second device waits first; its fence must stay unsignaled until the first device signals.
  const VkPipelineStageFlags stage = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
  VkSubmitInfo wait{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  wait.waitSemaphoreCount = 1;
  wait.pWaitSemaphores = &imported;
  wait.pWaitDstStageMask = &stage;
  ASSERT_EQ(vkQueueSubmit(otherQueue, 1, &wait, done), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(other, 1, &done, VK_TRUE, 50'000'000), VK_TIMEOUT);
  VkSubmitInfo signal{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  signal.signalSemaphoreCount = 1;
  signal.pSignalSemaphores = &exported;
  ASSERT_EQ(vkQueueSubmit(queue, 1, &signal, VK_NULL_HANDLE), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(other, 1, &done, VK_TRUE, 5'000'000'000), VK_SUCCESS);
  vkQueueWaitIdle(queue);
  vkDestroyFence(other, done, nullptr);
  vkDestroySemaphore(other, imported, nullptr);
  vkDestroySemaphore(device, exported, nullptr);
}

TEST_F(ExternalSemaphore, TimelineValuesAreSeenOnBothDevices) {
  VkSemaphore exported = makeSemaphore(device, VK_SEMAPHORE_TYPE_TIMELINE, 2, true);
  VkSemaphore imported = makeSemaphore(other, VK_SEMAPHORE_TYPE_TIMELINE, 0, false);
  share(exported, imported);
  uint64_t value = 0;
  EXPECT_EQ(vkGetSemaphoreCounterValue(other, imported, &value), VK_SUCCESS);
  EXPECT_EQ(value, 2u);
  const VkSemaphoreSignalInfo signal6{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, exported, 6};
  ASSERT_EQ(vkSignalSemaphore(device, &signal6), VK_SUCCESS);
  const uint64_t six = 6;
  const VkSemaphoreWaitInfo wait6{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &imported, &six};
  EXPECT_EQ(vkWaitSemaphores(other, &wait6, 1'000'000'000), VK_SUCCESS);
  const VkSemaphoreSignalInfo signal8{VK_STRUCTURE_TYPE_SEMAPHORE_SIGNAL_INFO, nullptr, imported, 8};
  ASSERT_EQ(vkSignalSemaphore(other, &signal8), VK_SUCCESS);
  EXPECT_EQ(vkGetSemaphoreCounterValue(device, exported, &value), VK_SUCCESS);
  EXPECT_EQ(value, 8u);
  const uint64_t nine = 9;
  const VkSemaphoreWaitInfo wait9{VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO, nullptr, 0, 1, &exported, &nine};
  EXPECT_EQ(vkWaitSemaphores(device, &wait9, 10'000'000), VK_TIMEOUT);
  vkDestroySemaphore(other, imported, nullptr);
  vkDestroySemaphore(device, exported, nullptr);
}

TEST_F(ExternalSemaphore, AFenceSharedByTwoDevicesIsSignalledAndResetForBoth) {
  VkPhysicalDeviceExternalFenceInfo info{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_FENCE_INFO, nullptr,
                                         VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  VkExternalFenceProperties props{VK_STRUCTURE_TYPE_EXTERNAL_FENCE_PROPERTIES};
  vkGetPhysicalDeviceExternalFenceProperties(physicalDevice, &info, &props);
  ASSERT_EQ(props.externalFenceFeatures,
            VkExternalFenceFeatureFlags(VK_EXTERNAL_FENCE_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_FENCE_FEATURE_IMPORTABLE_BIT));
  const VkExportFenceCreateInfo exportInfo{VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO, nullptr,
                                           VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  const VkFenceCreateInfo exportable{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO, &exportInfo};
  const VkFenceCreateInfo plain{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence exported = VK_NULL_HANDLE, imported = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateFence(device, &exportable, nullptr, &exported), VK_SUCCESS);
  ASSERT_EQ(vkCreateFence(other, &plain, nullptr, &imported), VK_SUCCESS);
  const VkFenceGetFdInfoKHR gi{VK_STRUCTURE_TYPE_FENCE_GET_FD_INFO_KHR, nullptr, exported,
                               VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT};
  int fd = -1;
  ASSERT_EQ(getFenceFd(device, &gi, &fd), VK_SUCCESS);
  const VkImportFenceFdInfoKHR ii{VK_STRUCTURE_TYPE_IMPORT_FENCE_FD_INFO_KHR, nullptr, imported, 0,
                                  VK_EXTERNAL_FENCE_HANDLE_TYPE_OPAQUE_FD_BIT, fd};
  ASSERT_EQ(importFenceFd(other, &ii), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(other, imported), VK_NOT_READY);
  // The first device's queue signals; the second device's wait sees it.
  ASSERT_EQ(vkQueueSubmit(queue, 0, nullptr, exported), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(other, 1, &imported, VK_TRUE, 5'000'000'000), VK_SUCCESS);
  // A reset on the second device unsignals the shared payload for the first too.
  ASSERT_EQ(vkResetFences(other, 1, &imported), VK_SUCCESS);
  EXPECT_EQ(vkGetFenceStatus(device, exported), VK_NOT_READY);
  vkDestroyFence(other, imported, nullptr);
  vkDestroyFence(device, exported, nullptr);
}

TEST_F(ExternalSemaphore, AnFdThatIsNoSemaphorePayloadIsRefused) {
  VkSemaphore s = makeSemaphore(other, VK_SEMAPHORE_TYPE_BINARY, 0, false);
  int pipeFds[2];
  ASSERT_EQ(pipe(pipeFds), 0);
  const VkImportSemaphoreFdInfoKHR ii{VK_STRUCTURE_TYPE_IMPORT_SEMAPHORE_FD_INFO_KHR, nullptr, s, 0,
                                      VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT, pipeFds[0]};
  EXPECT_EQ(importFd(other, &ii), VK_ERROR_INVALID_EXTERNAL_HANDLE);
  EXPECT_EQ(takeMessages("vkImportSemaphoreFdKHR"), 1u);
  close(pipeFds[0]);  // still the application's: the import failed
  close(pipeFds[1]);
  vkDestroySemaphore(other, s, nullptr);
}

}  // namespace
}  // namespace tessera_test
