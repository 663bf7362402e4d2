// An instance and device on the driver VK_DRIVER_FILES selects, without layers: for tests that
// must reach the driver with what the validation layer would stop or hide (the layer skips
// calls it finds invalid, and answers vkGet*ProcAddr with its own functions).
#pragma once

#include <vulkan/vulkan.h>

#include <vector>

namespace tessera_test {

struct BareDevice {
  // Creates everything with the given instance and device extensions (and no features); on
  // failure the handles stay VK_NULL_HANDLE and the test has failed.
  explicit BareDevice(const std::vector<const char*>& instanceExtensions = {},
                      const std::vector<const char*>& deviceExtensions = {});
  ~BareDevice();
  BareDevice(const BareDevice&) = delete;
  BareDevice& operator=(const BareDevice&) = delete;

  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
};

}  // namespace tessera_test
