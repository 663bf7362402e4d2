// A Vulkan instance and device on the driver that VK_DRIVER_FILES selects, created through the
// loader with the Khronos validation layer; every validation error is recorded and fails the test.
#pragma once

#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <string>
#include <vector>

namespace tessera_test {

#define VK_CHECK(expr) ASSERT_EQ((expr), VK_SUCCESS) << #expr

struct BufferAndMemory {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  uint8_t* mapped = nullptr;
};

struct ImageAndMemory {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
};

class VulkanTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // Host-visible buffer, mapped.
  BufferAndMemory createBuffer(VkDeviceSize size, VkBufferUsageFlags usage);
  ImageAndMemory createImage(const VkImageCreateInfo& info);
  void destroy(BufferAndMemory& b);
  void destroy(ImageAndMemory& i);
  // Records with `record`, submits, waits on a fence.
  template <typename F>
  void submitAndWait(F&& record) {
    VkCommandBuffer cb = beginCommands();
    record(cb);
    endSubmitWait(cb);
  }
  VkCommandBuffer beginCommands();
  // Records the UNDEFINED -> GENERAL transition of a whole image before transfers.
  static void toGeneralLayout(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects);
  // Makes earlier transfer writes visible to later transfers.
  static void transferBarrier(VkCommandBuffer cb);
  void endSubmitWait(VkCommandBuffer cb);

  // Error messages that a test provokes on purpose (e.g. the driver's own debug-utils report of
  // an invalid shader): removes and counts those containing `text`.
  size_t takeMessages(const std::string& text);

  std::vector<std::string> validationErrors;
  // Validation checks a test turns off (e.g. shader validation, to hand the driver bad SPIR-V).
  std::vector<VkValidationFeatureDisableEXT> validationDisables;
  // Extensions a fixture adds to the instance and the device (set before SetUp).
  std::vector<const char*> extraInstanceExtensions, extraDeviceExtensions;
  // Feature structs of those extensions to enable (a pNext chain; each struct is filled with
  // what the device reports before the device is created with it).
  void* extraDeviceFeatures = nullptr;
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkDebugUtilsMessengerEXT messenger = VK_NULL_HANDLE;
};

// Whether the loader found Tessera (the API tests are meaningless on another driver).
bool isTessera(VkPhysicalDevice pd);

}  // namespace tessera_test
