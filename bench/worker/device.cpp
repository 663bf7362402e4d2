#include "device.h"

#include <cstring>

namespace bench {

const std::initializer_list<const char*> kComputeCommands = {
    "vkCreateShaderModule",   "vkDestroyShaderModule",  "vkCreateDescriptorSetLayout",
    "vkDestroyDescriptorSetLayout", "vkCreatePipelineLayout", "vkDestroyPipelineLayout",
    "vkCreateDescriptorPool", "vkDestroyDescriptorPool", "vkAllocateDescriptorSets",
    "vkUpdateDescriptorSets", "vkCreateComputePipelines", "vkDestroyPipeline",
    "vkCmdBindPipeline",      "vkCmdBindDescriptorSets", "vkCmdPushConstants",
    "vkCmdDispatch"};

const char* resultName(VkResult r) {
  switch (r) {
#define CASE(x) \
  case x:       \
    return #x;
    CASE(VK_SUCCESS)
    CASE(VK_NOT_READY)
    CASE(VK_TIMEOUT)
    CASE(VK_INCOMPLETE)
    CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    CASE(VK_ERROR_INITIALIZATION_FAILED)
    CASE(VK_ERROR_DEVICE_LOST)
    CASE(VK_ERROR_MEMORY_MAP_FAILED)
    CASE(VK_ERROR_LAYER_NOT_PRESENT)
    CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    CASE(VK_ERROR_TOO_MANY_OBJECTS)
    CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    CASE(VK_ERROR_FRAGMENTED_POOL)
    CASE(VK_ERROR_UNKNOWN)
    CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    CASE(VK_ERROR_INVALID_SHADER_NV)
    CASE(VK_PIPELINE_COMPILE_REQUIRED)
#undef CASE
    default:
      return "VkResult(?)";
  }
}

void check(VkResult r, const char* what) {
  if (r == VK_SUCCESS) return;
  throw Failure(std::string(what) + " returned " + resultName(r) + " (" + std::to_string(int(r)) + ")");
}

VKAPI_ATTR VkBool32 VKAPI_CALL Device::onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                 VkDebugUtilsMessageTypeFlagsEXT,
                                                 const VkDebugUtilsMessengerCallbackDataEXT* data, void* user) {
  auto* self = static_cast<Device*>(user);
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) {
    if (self->validationErrors_++ == 0) self->firstValidationError_ = data && data->pMessage ? data->pMessage : "?";
  }
  return VK_FALSE;
}

Device::Device(bool validation) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.pApplicationName = "tessera-bench-worker";
  app.apiVersion = VK_API_VERSION_1_3;
  const char* layers[] = {"VK_LAYER_KHRONOS_validation"};
  const char* extensions[] = {VK_EXT_DEBUG_UTILS_EXTENSION_NAME};
  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  messengerInfo.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType =
      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT;
  messengerInfo.pfnUserCallback = onMessage;
  messengerInfo.pUserData = this;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  if (validation) {
    ici.pNext = &messengerInfo;
    ici.enabledLayerCount = 1;
    ici.ppEnabledLayerNames = layers;
    ici.enabledExtensionCount = 1;
    ici.ppEnabledExtensionNames = extensions;
  }
  BENCH_VK(vkCreateInstance(&ici, nullptr, &instance));
  if (validation) {
    auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (create) BENCH_VK(create(instance, &messengerInfo, nullptr, &messenger_));
  }

  uint32_t count = 0;
  BENCH_VK(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  if (count == 0) throw Failure("no Vulkan physical device (is VK_DRIVER_FILES right?)");
  std::vector<VkPhysicalDevice> devices(count);
  VkResult r = vkEnumeratePhysicalDevices(instance, &count, devices.data());
  if (r != VK_SUCCESS && r != VK_INCOMPLETE) check(r, "vkEnumeratePhysicalDevices");
  // The orchestrator names exactly one driver; it checks the name and driverID we report.
  physicalDevice = devices[0];
  VkPhysicalDeviceProperties2 props2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &driverProperties};
  vkGetPhysicalDeviceProperties2(physicalDevice, &props2);
  properties = props2.properties;
  vkGetPhysicalDeviceMemoryProperties(physicalDevice, &memoryProperties);

  uint32_t familyCount = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, nullptr);
  std::vector<VkQueueFamilyProperties> families(familyCount);
  vkGetPhysicalDeviceQueueFamilyProperties(physicalDevice, &familyCount, families.data());
  bool found = false;
  for (uint32_t i = 0; i < familyCount && !found; ++i) {
    if ((families[i].queueFlags & (VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT)) &&
        families[i].queueCount > 0) {
      queueFamily = i;
      timestampValidBits = families[i].timestampValidBits;
      found = true;
    }
  }
  if (!found) throw Failure("no queue family with compute or graphics");

  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueFamilyIndex = queueFamily;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  // glslang's SPIR-V 1.6 (Vulkan 1.3) output declares workgroup sizes with LocalSizeId, which
  // needs maintenance4; enable it when offered (every Vulkan 1.3 driver must offer it).
  VkPhysicalDeviceVulkan13Features supported13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  VkPhysicalDeviceFeatures2 supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported13};
  if (properties.apiVersion >= VK_API_VERSION_1_3) vkGetPhysicalDeviceFeatures2(physicalDevice, &supported);
  VkPhysicalDeviceVulkan13Features enable13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  enable13.maintenance4 = supported13.maintenance4;
  // The graphics workloads render with vkCmdBeginRendering (no VkRenderPass objects).
  enable13.dynamicRendering = supported13.dynamicRendering;
  dynamicRendering = supported13.dynamicRendering;
  // The texturing workloads' anisotropic and block-compressed variants.
  VkPhysicalDeviceFeatures offered{};
  vkGetPhysicalDeviceFeatures(physicalDevice, &offered);
  enabled.samplerAnisotropy = offered.samplerAnisotropy;
  enabled.textureCompressionBC = offered.textureCompressionBC;
  // The tessellated terrain and geometry-shader particles (issue 18's stages).
  enabled.tessellationShader = offered.tessellationShader;
  enabled.geometryShader = offered.geometryShader;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  if (properties.apiVersion >= VK_API_VERSION_1_3) dci.pNext = &enable13;
  dci.pEnabledFeatures = &enabled;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  BENCH_VK(vkCreateDevice(physicalDevice, &dci, nullptr, &device));

#define BENCH_LOAD(name) vk.name = reinterpret_cast<PFN_vk##name>(vkGetDeviceProcAddr(device, "vk" #name));
  BENCH_DEVICE_FUNCTIONS(BENCH_LOAD)
#undef BENCH_LOAD
  if (validation) {
    // A layer returns its own entry point for every command, even one the driver lacks (and
    // then calls NULL). Ask a layer-less device which commands the driver really provides.
    Device plain(false);
#define BENCH_MASK(name) \
  if (!plain.vk.name) vk.name = nullptr;
    BENCH_DEVICE_FUNCTIONS(BENCH_MASK)
#undef BENCH_MASK
  }
  require({"vkDestroyDevice", "vkGetDeviceQueue", "vkDeviceWaitIdle", "vkQueueSubmit", "vkQueueWaitIdle",
           "vkAllocateMemory", "vkFreeMemory", "vkMapMemory", "vkCreateBuffer", "vkDestroyBuffer",
           "vkGetBufferMemoryRequirements", "vkBindBufferMemory", "vkCreateCommandPool",
           "vkDestroyCommandPool", "vkAllocateCommandBuffers", "vkFreeCommandBuffers",
           "vkBeginCommandBuffer", "vkEndCommandBuffer", "vkCmdPipelineBarrier"});
  vk.GetDeviceQueue(device, queueFamily, 0, &queue);

  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pci.queueFamilyIndex = queueFamily;
  BENCH_VK(vk.CreateCommandPool(device, &pci, nullptr, &pool_));

  hasTimestamps = timestampValidBits > 0 && properties.limits.timestampPeriod > 0 && vk.CreateQueryPool &&
                  vk.CmdResetQueryPool && vk.CmdWriteTimestamp && vk.GetQueryPoolResults && vk.DestroyQueryPool;
  if (hasTimestamps) {
    VkQueryPoolCreateInfo qpci{VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpci.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpci.queryCount = 2;
    if (vk.CreateQueryPool(device, &qpci, nullptr, &timestamps_) != VK_SUCCESS) hasTimestamps = false;
  }
}

Device::~Device() {
  if (device) vk.DeviceWaitIdle(device);
  for (auto it = cleanups_.rbegin(); it != cleanups_.rend(); ++it) (*it)();
  if (device) {
    if (timestamps_) vk.DestroyQueryPool(device, timestamps_, nullptr);
    if (pool_) vk.DestroyCommandPool(device, pool_, nullptr);
    vk.DestroyDevice(device, nullptr);
  }
  if (messenger_) {
    auto destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy) destroy(instance, messenger_, nullptr);
  }
  if (instance) vkDestroyInstance(instance, nullptr);
}

void Device::require(std::initializer_list<const char*> commands) const {
  struct Entry {
    const char* name;
    const void* fn;
  };
  const Entry table[] = {
#define BENCH_ENTRY(name) {"vk" #name, reinterpret_cast<const void*>(vk.name)},
      BENCH_DEVICE_FUNCTIONS(BENCH_ENTRY)
#undef BENCH_ENTRY
  };
  for (const char* wanted : commands) {
    bool known = false;
    for (const Entry& e : table) {
      if (std::strcmp(e.name, wanted) != 0) continue;
      known = true;
      if (!e.fn) throw Unsupported(std::string(wanted) + " is not provided by the driver");
    }
    if (!known) throw Failure(std::string("benchmark bug: ") + wanted + " is not in BENCH_DEVICE_FUNCTIONS");
  }
}

void Device::requireFeature(VkBool32 VkPhysicalDeviceFeatures::*feature, const char* name) const {
  if (!(enabled.*feature)) throw Unsupported(std::string("the device lacks ") + name);
}

void Device::requireFormatFeatures(VkFormat format, VkFormatFeatureFlags features) const {
  VkFormatProperties fp;
  vkGetPhysicalDeviceFormatProperties(physicalDevice, format, &fp);
  if ((fp.optimalTilingFeatures & features) != features)
    throw Unsupported("VkFormat " + std::to_string(int(format)) + " lacks optimal-tiling format features " +
                      std::to_string(unsigned(features & ~fp.optimalTilingFeatures)));
}

uint32_t Device::memoryType(uint32_t typeBits, VkMemoryPropertyFlags wanted) const {
  for (uint32_t i = 0; i < memoryProperties.memoryTypeCount; ++i)
    if ((typeBits & (1u << i)) && (memoryProperties.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
  throw Failure("no memory type with properties 0x" + std::to_string(wanted));
}

Buffer Device::createBuffer(VkDeviceSize size, VkBufferUsageFlags usage) {
  Buffer b;
  b.size = size;
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = size;
  bci.usage = usage;
  BENCH_VK(vk.CreateBuffer(device, &bci, nullptr, &b.buffer));
  VkBuffer handle = b.buffer;
  onDestroy([this, handle] { vk.DestroyBuffer(device, handle, nullptr); });
  VkMemoryRequirements req;
  vk.GetBufferMemoryRequirements(device, b.buffer, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex =
      memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  BENCH_VK(vk.AllocateMemory(device, &mai, nullptr, &b.memory));
  VkDeviceMemory memory = b.memory;
  // Inserted before the buffer's clean-up so that, run in reverse, the buffer is destroyed
  // before its memory is freed.
  cleanups_.insert(cleanups_.end() - 1, [this, memory] { vk.FreeMemory(device, memory, nullptr); });
  BENCH_VK(vk.BindBufferMemory(device, b.buffer, b.memory, 0));
  BENCH_VK(vk.MapMemory(device, b.memory, 0, VK_WHOLE_SIZE, 0, &b.mapped));
  return b;
}

Image Device::createImage(const VkImageCreateInfo& info) {
  require({"vkCreateImage", "vkDestroyImage", "vkGetImageMemoryRequirements", "vkBindImageMemory"});
  Image img;
  img.extent = info.extent;
  img.format = info.format;
  VkImageFormatProperties ifp;
  VkResult r = vkGetPhysicalDeviceImageFormatProperties(physicalDevice, info.format, info.imageType, info.tiling,
                                                        info.usage, info.flags, &ifp);
  if (r == VK_ERROR_FORMAT_NOT_SUPPORTED) throw Unsupported("image format/usage combination not supported");
  check(r, "vkGetPhysicalDeviceImageFormatProperties");
  BENCH_VK(vk.CreateImage(device, &info, nullptr, &img.image));
  VkImage handle = img.image;
  onDestroy([this, handle] { vk.DestroyImage(device, handle, nullptr); });
  VkMemoryRequirements req;
  vk.GetImageMemoryRequirements(device, img.image, &req);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
  mai.allocationSize = req.size;
  mai.memoryTypeIndex = memoryType(req.memoryTypeBits, 0);
  BENCH_VK(vk.AllocateMemory(device, &mai, nullptr, &img.memory));
  VkDeviceMemory memory = img.memory;
  cleanups_.insert(cleanups_.end() - 1, [this, memory] { vk.FreeMemory(device, memory, nullptr); });
  BENCH_VK(vk.BindImageMemory(device, img.image, img.memory, 0));
  return img;
}

VkCommandBuffer Device::allocateCommandBuffer() {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  BENCH_VK(vk.AllocateCommandBuffers(device, &ai, &cb));
  onDestroy([this, cb] { vk.FreeCommandBuffers(device, pool_, 1, &cb); });
  return cb;
}

void Device::begin(VkCommandBuffer cb, VkCommandBufferUsageFlags flags) {
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  bi.flags = flags;
  BENCH_VK(vk.BeginCommandBuffer(cb, &bi));
}

void Device::beginTimed(VkCommandBuffer cb) {
  if (!hasTimestamps) return;
  vk.CmdResetQueryPool(cb, timestamps_, 0, 2);
  vk.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps_, 0);
}

void Device::endTimed(VkCommandBuffer cb) {
  if (!hasTimestamps) return;
  vk.CmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps_, 1);
}

Sample Device::submitAndWait(VkCommandBuffer cb, bool timed) {
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  Sample s;
  auto t0 = std::chrono::steady_clock::now();
  BENCH_VK(vk.QueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
  BENCH_VK(vk.QueueWaitIdle(queue));
  s.wallSeconds = secondsSince(t0);
  if (timed && hasTimestamps) {
    uint64_t ts[2] = {0, 0};
    BENCH_VK(vk.GetQueryPoolResults(device, timestamps_, 0, 2, sizeof ts, ts, sizeof ts[0],
                                    VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    const uint64_t mask = timestampValidBits >= 64 ? ~0ull : ((1ull << timestampValidBits) - 1);
    const uint64_t ticks = (ts[1] - ts[0]) & mask;
    s.deviceSeconds = double(ticks) * double(properties.limits.timestampPeriod) * 1e-9;
  }
  return s;
}

void Device::oneShot(const std::function<void(VkCommandBuffer)>& record) {
  VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
  ai.commandPool = pool_;
  ai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  ai.commandBufferCount = 1;
  VkCommandBuffer cb = VK_NULL_HANDLE;
  BENCH_VK(vk.AllocateCommandBuffers(device, &ai, &cb));
  begin(cb, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
  record(cb);
  BENCH_VK(vk.EndCommandBuffer(cb));
  submitAndWait(cb);
  vk.FreeCommandBuffers(device, pool_, 1, &cb);
}

void Device::fullBarrier(VkCommandBuffer cb) {
  VkMemoryBarrier b{VK_STRUCTURE_TYPE_MEMORY_BARRIER};
  b.srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &b, 0,
                        nullptr, 0, nullptr);
}

void Device::imageLayout(VkCommandBuffer cb, VkImage image, VkImageLayout from, VkImageLayout to, uint32_t levels,
                         uint32_t layers) {
  VkImageMemoryBarrier b{VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER};
  b.srcQueueFamilyIndex = b.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  b.image = image;
  b.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, layers};
  b.oldLayout = from;
  b.newLayout = to;
  b.srcAccessMask = from == VK_IMAGE_LAYOUT_UNDEFINED ? 0 : VK_ACCESS_MEMORY_WRITE_BIT;
  b.dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT;
  vk.CmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 0, nullptr, 0,
                        nullptr, 1, &b);
}

}  // namespace bench
