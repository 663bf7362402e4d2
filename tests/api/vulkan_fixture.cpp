#include "vulkan_fixture.h"

#include <cstdlib>
#include <cstring>

namespace tessera_test {
namespace {

VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                         VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT* data,
                                         void* user) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    static_cast<std::vector<std::string>*>(user)->push_back(data->pMessage ? data->pMessage : "?");
  return VK_FALSE;
}

}  // namespace

bool isTessera(VkPhysicalDevice pd) {
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(pd, &props);
  return std::strncmp(props.deviceName, "Tessera", 7) == 0;
}

void VulkanTest::SetUp() {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-api-tests";
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  std::vector<const char*> extensions = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  extensions.insert(extensions.end(), extraInstanceExtensions.begin(), extraInstanceExtensions.end());
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  messengerInfo.pUserData = &validationErrors;
  VkValidationFeaturesEXT features{VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT, &messengerInfo};
  features.disabledValidationFeatureCount = uint32_t(validationDisables.size());
  features.pDisabledValidationFeatures = validationDisables.data();
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
                           validationDisables.empty() ? static_cast<const void*>(&messengerInfo) : &features};
  ici.pApplicationInfo = &app;
  ici.enabledLayerCount = 1;
  ici.ppEnabledLayerNames = layers;
  ici.enabledExtensionCount = uint32_t(extensions.size());
  ici.ppEnabledExtensionNames = extensions.data();
  VK_CHECK(vkCreateInstance(&ici, nullptr, &instance));
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  VK_CHECK(createMessenger(instance, &messengerInfo, nullptr, &messenger));

  uint32_t count = 1;
  ASSERT_GE(vkEnumeratePhysicalDevices(instance, &count, &physicalDevice), 0);
  ASSERT_EQ(count, 1u);
  // TESSERA_TEST_OTHER_DRIVER=1 lets a test whose expectations come from the spec run on
  // another driver (lavapipe) too: a check that the expectations themselves are right.
  if (!std::getenv("TESSERA_TEST_OTHER_DRIVER")) {
    ASSERT_TRUE(isTessera(physicalDevice)) << "VK_DRIVER_FILES does not select Tessera";
  }

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  // Every feature the device reports, as a program that wants everything would ask: a feature
  // that is advertised but breaks device creation or its users fails here.
  // Extensions whose features tests use, enabled when the device offers them.
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT};
  VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT atomicFloat2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT};
  VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR explicitWorkgroup{
      VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR};
  std::vector<const char*> deviceExtensions = extraDeviceExtensions;
  void* extensionFeatures = extraDeviceFeatures;
  {
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &n, nullptr);
    std::vector<VkExtensionProperties> available(n);
    vkEnumerateDeviceExtensionProperties(physicalDevice, nullptr, &n, available.data());
    for (const VkExtensionProperties& e : available)
      if (std::strcmp(e.extensionName, VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME) == 0) {
        deviceExtensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_EXTENSION_NAME);
        atomicFloat.pNext = extensionFeatures;
        extensionFeatures = &atomicFloat;
      } else if (std::strcmp(e.extensionName, VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME) == 0) {
        deviceExtensions.push_back(VK_EXT_SHADER_ATOMIC_FLOAT_2_EXTENSION_NAME);
        atomicFloat2.pNext = extensionFeatures;
        extensionFeatures = &atomicFloat2;
      } else if (std::strcmp(e.extensionName, VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME) == 0) {
        deviceExtensions.push_back(VK_KHR_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_EXTENSION_NAME);
        explicitWorkgroup.pNext = extensionFeatures;
        extensionFeatures = &explicitWorkgroup;
      }
  }
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, extensionFeatures};
  VkPhysicalDeviceVulkan12Features v12{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, &v13};
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, &v12};
  VkPhysicalDeviceFeatures2 all{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &v11};
  vkGetPhysicalDeviceFeatures2(physicalDevice, &all);
  ASSERT_TRUE(v12.timelineSemaphore && v13.synchronization2 && v13.maintenance4);
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &all};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = uint32_t(deviceExtensions.size());
  dci.ppEnabledExtensionNames = deviceExtensions.data();
  VK_CHECK(vkCreateDevice(physicalDevice, &dci, nullptr, &device));
  vkGetDeviceQueue(device, 0, 0, &queue);
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  VK_CHECK(vkCreateCommandPool(device, &pci, nullptr, &pool));
}

void VulkanTest::TearDown() {
  if (device) {
    vkDeviceWaitIdle(device);
    vkDestroyCommandPool(device, pool, nullptr);
    vkDestroyDevice(device, nullptr);
  }
  if (messenger) {
    auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    destroyMessenger(instance, messenger, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
  for (const auto& e : validationErrors) ADD_FAILURE() << "validation: " << e;
}

BufferAndMemory VulkanTest::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  BufferAndMemory b;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = usage;
  EXPECT_EQ(vkCreateBuffer(device, &bci, nullptr, &b.buffer), VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(device, b.buffer, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = 0;
  EXPECT_EQ(vkAllocateMemory(device, &mai, nullptr, &b.memory), VK_SUCCESS);
  EXPECT_EQ(vkBindBufferMemory(device, b.buffer, b.memory, 0), VK_SUCCESS);
  void* p = nullptr;
  EXPECT_EQ(vkMapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &p), VK_SUCCESS);
  b.mapped = static_cast<uint8_t*>(p);
  return b;
}

ImageAndMemory VulkanTest::createImage(const VkImageCreateInfo& info) {
  ImageAndMemory i;
  EXPECT_EQ(vkCreateImage(device, &info, nullptr, &i.image), VK_SUCCESS);
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(device, i.image, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  EXPECT_EQ(vkAllocateMemory(device, &mai, nullptr, &i.memory), VK_SUCCESS);
  EXPECT_EQ(vkBindImageMemory(device, i.image, i.memory, 0), VK_SUCCESS);
  return i;
}

void VulkanTest::destroy(BufferAndMemory& b) {
  vkDestroyBuffer(device, b.buffer, nullptr);
  vkFreeMemory(device, b.memory, nullptr);
  b = {};
}

void VulkanTest::destroy(ImageAndMemory& i) {
  vkDestroyImage(device, i.image, nullptr);
  vkFreeMemory(device, i.memory, nullptr);
  i = {};
}

size_t VulkanTest::takeMessages(const std::string& text) {
  size_t before = validationErrors.size();
  std::erase_if(validationErrors, [&](const std::string& m) { return m.find(text) != std::string::npos; });
  return before - validationErrors.size();
}

VkCommandBuffer VulkanTest::beginCommands() {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateCommandBuffers(device, &ai, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  EXPECT_EQ(vkBeginCommandBuffer(cb, &bi), VK_SUCCESS);
  return cb;
}

void VulkanTest::toGeneralLayout(VkCommandBuffer cb, VkImage image, VkImageAspectFlags aspects) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {aspects, 0, VK_REMAINING_MIP_LEVELS, 0, VK_REMAINING_ARRAY_LAYERS};
  b.newLayout = VK_IMAGE_LAYOUT_GENERAL;
  b.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, nullptr, 0, nullptr,
                       1, &b);
}

void VulkanTest::transferBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_TRANSFER_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT};
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
}

void VulkanTest::endSubmitWait(VkCommandBuffer cb) {
  EXPECT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  EXPECT_EQ(vkCreateFence(device, &fci, nullptr, &fence), VK_SUCCESS);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  EXPECT_EQ(vkQueueSubmit(queue, 1, &si, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 10'000'000'000ull), VK_SUCCESS);
  vkDestroyFence(device, fence, nullptr);
  vkFreeCommandBuffers(device, pool, 1, &cb);
}

}  // namespace tessera_test
