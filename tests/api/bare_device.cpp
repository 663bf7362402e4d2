#include "bare_device.h"

#include <gtest/gtest.h>

#include "vulkan_fixture.h"

namespace tessera_test {

BareDevice::BareDevice(const std::vector<const char*>& instanceExtensions,
                       const std::vector<const char*>& deviceExtensions) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-api-tests-bare";
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = uint32_t(instanceExtensions.size());
  ici.ppEnabledExtensionNames = instanceExtensions.data();
  EXPECT_EQ(vkCreateInstance(&ici, nullptr, &instance), VK_SUCCESS);
  if (!instance) return;
  uint32_t count = 1;
  EXPECT_GE(vkEnumeratePhysicalDevices(instance, &count, &physicalDevice), 0);
  if (count != 1 || !isTessera(physicalDevice)) {
    ADD_FAILURE() << "VK_DRIVER_FILES does not select Tessera";
    return;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(deviceExtensions.size());
  dci.ppEnabledExtensionNames = deviceExtensions.data();
  EXPECT_EQ(vkCreateDevice(physicalDevice, &dci, nullptr, &device), VK_SUCCESS);
  if (device) vkGetDeviceQueue(device, 0, 0, &queue);
}

BareDevice::~BareDevice() {
  if (device) {
    vkDeviceWaitIdle(device);
    vkDestroyDevice(device, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
}

}  // namespace tessera_test
