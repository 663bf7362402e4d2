// Bad input gets a clear VkResult, never a crash (issue: "Bad input"). These tests create
// their own instances without the validation layer where the point is to pass something the
// application may legally try and see fail (unsupported features, huge allocations,
// failing host allocators).
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

struct PlainDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physicalDevice = VK_NULL_HANDLE;
};

PlainDevice plainInstance() {
  PlainDevice p;
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  EXPECT_EQ(vkCreateInstance(&ici, nullptr, &p.instance), VK_SUCCESS);
  uint32_t n = 1;
  vkEnumeratePhysicalDevices(p.instance, &n, &p.physicalDevice);
  EXPECT_TRUE(isTessera(p.physicalDevice));
  return p;
}

VkDeviceCreateInfo oneQueue(const void* pNext, const VkDeviceQueueCreateInfo* qci) {
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, pNext};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = qci;
  return dci;
}

TEST(BadInput, UnsupportedFeatureOrExtensionIsRefused) {
  PlainDevice p = plainInstance();
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(p.physicalDevice, &supported);
  ASSERT_FALSE(supported.sparseBinding);  // no sparse resources: asking for them must fail
  VkPhysicalDeviceFeatures want{};
  want.sparseBinding = VK_TRUE;
  VkDeviceCreateInfo dci = oneQueue(nullptr, &qci);
  dci.pEnabledFeatures = &want;
  VkDevice dev = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDevice(p.physicalDevice, &dci, nullptr, &dev), VK_ERROR_FEATURE_NOT_PRESENT);
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  // Through a pNext struct too: multiview is supported, protected memory is not.
  v11.multiview = VK_TRUE;
  v11.protectedMemory = VK_TRUE;
  dci = oneQueue(&v11, &qci);
  EXPECT_EQ(vkCreateDevice(p.physicalDevice, &dci, nullptr, &dev), VK_ERROR_FEATURE_NOT_PRESENT);
  const char* ext = "VK_KHR_no_such_extension";
  dci = oneQueue(nullptr, &qci);
  dci.enabledExtensionCount = 1;
  dci.ppEnabledExtensionNames = &ext;
  EXPECT_EQ(vkCreateDevice(p.physicalDevice, &dci, nullptr, &dev), VK_ERROR_EXTENSION_NOT_PRESENT);
  vkDestroyInstance(p.instance, nullptr);
}

TEST(BadInput, AllocationLargerThanTheHeapFailsCleanly) {
  PlainDevice p = plainInstance();
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci = oneQueue(nullptr, &qci);
  VkDevice dev;
  ASSERT_EQ(vkCreateDevice(p.physicalDevice, &dci, nullptr, &dev), VK_SUCCESS);
  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(p.physicalDevice, &mem);
  VkMemoryAllocateInfo mai{VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, nullptr, mem.memoryHeaps[0].size + 4096, 0};
  VkDeviceMemory m = VK_NULL_HANDLE;
  EXPECT_EQ(vkAllocateMemory(dev, &mai, nullptr, &m), VK_ERROR_OUT_OF_DEVICE_MEMORY);
  vkDestroyDevice(dev, nullptr);
  vkDestroyInstance(p.instance, nullptr);
}

VKAPI_ATTR VkBool32 VKAPI_CALL collectErrors(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT* data,
                                             void* user) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
    static_cast<std::vector<std::string>*>(user)->push_back(data->pMessage ? data->pMessage : "");
  return VK_FALSE;
}

TEST(BadInput, ShaderCodeThatIsNotWholeWordsIsRefusedWithAMessage) {
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  const char* ext = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  ici.enabledExtensionCount = 1;
  ici.ppEnabledExtensionNames = &ext;
  VkInstance instance;
  ASSERT_EQ(vkCreateInstance(&ici, nullptr, &instance), VK_SUCCESS);
  std::vector<std::string> errors;
  VkDebugUtilsMessengerCreateInfoEXT mci{VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT};
  mci.messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  mci.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  mci.pfnUserCallback = collectErrors;
  mci.pUserData = &errors;
  auto createMessenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  auto destroyMessenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  VkDebugUtilsMessengerEXT messenger;
  ASSERT_EQ(createMessenger(instance, &mci, nullptr, &messenger), VK_SUCCESS);
  uint32_t n = 1;
  VkPhysicalDevice pd;
  vkEnumeratePhysicalDevices(instance, &n, &pd);
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci = oneQueue(nullptr, &qci);
  VkDevice dev;
  ASSERT_EQ(vkCreateDevice(pd, &dci, nullptr, &dev), VK_SUCCESS);

  const uint32_t words[2] = {0x07230203, 0};
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, 6, words};
  VkShaderModule m = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateShaderModule(dev, &ci, nullptr, &m), VK_ERROR_UNKNOWN);
  EXPECT_EQ(m, VK_NULL_HANDLE);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("codeSize 6"), std::string::npos) << errors[0];
  ci.codeSize = 0;
  EXPECT_EQ(vkCreateShaderModule(dev, &ci, nullptr, &m), VK_ERROR_UNKNOWN);
  EXPECT_EQ(errors.size(), 2u);

  vkDestroyDevice(dev, nullptr);
  destroyMessenger(instance, messenger, nullptr);
  vkDestroyInstance(instance, nullptr);
}

// Host allocator that fails its Nth allocation and tracks every live pointer.
struct CountingAllocator {
  std::mutex mutex;
  std::map<void*, size_t> live;
  int remaining = -1;  // allocations left before failing; -1: never fail
  bool failed = false;

  static void* VKAPI_CALL alloc(void* user, size_t size, size_t align, VkSystemAllocationScope) {
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard lock(self->mutex);
    if (self->remaining == 0) {
      self->failed = true;
      return nullptr;
    }
    if (self->remaining > 0) --self->remaining;
    void* p = nullptr;
    if (posix_memalign(&p, std::max(align, sizeof(void*)), size)) return nullptr;
    self->live[p] = size;
    return p;
  }
  static void* VKAPI_CALL realloc(void* user, void* old, size_t size, size_t align, VkSystemAllocationScope scope) {
    auto* self = static_cast<CountingAllocator*>(user);
    void* p = alloc(user, size, align, scope);
    if (p && old) {
      std::lock_guard lock(self->mutex);
      std::memcpy(p, old, std::min(size, self->live[old]));
    }
    if (p || !size) free(user, old);
    return p;
  }
  static void VKAPI_CALL free(void* user, void* p) {
    if (!p) return;
    auto* self = static_cast<CountingAllocator*>(user);
    std::lock_guard lock(self->mutex);
    self->live.erase(p);
    std::free(p);
  }
  VkAllocationCallbacks callbacks() {
    return {this, alloc, realloc, free, nullptr, nullptr};
  }
};

// Creates instance, device and a set of objects with callbacks that fail on allocation N.
// Returns the VkResult of the first failing call (VK_SUCCESS when nothing failed).
VkResult createEverything(CountingAllocator& a) {
  VkAllocationCallbacks cb = a.callbacks();
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  VkInstance instance;
  VkResult r = vkCreateInstance(&ici, &cb, &instance);
  if (r != VK_SUCCESS) return r;
  VkResult result = VK_SUCCESS;
  uint32_t n = 1;
  VkPhysicalDevice pd;
  r = vkEnumeratePhysicalDevices(instance, &n, &pd);
  if (r < 0) {
    vkDestroyInstance(instance, &cb);
    return r;
  }
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, nullptr, 0, 0, 1, &priority};
  VkDeviceCreateInfo dci = oneQueue(nullptr, &qci);
  VkDevice dev;
  r = vkCreateDevice(pd, &dci, &cb, &dev);
  if (r != VK_SUCCESS) {
    vkDestroyInstance(instance, &cb);
    return r;
  }
  VkFence fence = VK_NULL_HANDLE;
  VkSemaphore sem = VK_NULL_HANDLE;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkCommandPool pool = VK_NULL_HANDLE;
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  VkSampler sampler = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout pipelineLayout = VK_NULL_HANDLE;
  VkDescriptorPool descriptorPool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
  VkDescriptorUpdateTemplate updateTemplate = VK_NULL_HANDLE;
  VkShaderModule shader = VK_NULL_HANDLE;
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 256;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkSamplerCreateInfo samplerInfo{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1, VK_SHADER_STAGE_COMPUTE_BIT, &sampler}};
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 16};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout, 1, &range};
  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1}, {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1}};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorUpdateTemplateEntry entry{0, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 0, 0};
  VkDescriptorUpdateTemplateCreateInfo tci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  tci.descriptorUpdateEntryCount = 1;
  tci.pDescriptorUpdateEntries = &entry;
  tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  const uint32_t code[] = {0x07230203, 0x00010000, 0, 1, 0};  // a header: modules are checked at pipeline creation
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof code, code};
  // Each step runs only while every earlier one succeeded; the first failure is the result.
  auto ok = [&](VkResult r) {
    if (r != VK_SUCCESS && result == VK_SUCCESS) result = r;
    return result == VK_SUCCESS;
  };
  if (ok(vkCreateFence(dev, &fci, &cb, &fence)) && ok(vkCreateSemaphore(dev, &sci, &cb, &sem)) &&
      ok(vkCreateBuffer(dev, &bci, &cb, &buffer)) && ok(vkCreateSampler(dev, &samplerInfo, &cb, &sampler)) &&
      ok(vkCreateDescriptorSetLayout(dev, &lci, &cb, &setLayout)) &&
      ok(vkCreatePipelineLayout(dev, &plci, &cb, &pipelineLayout)) &&
      ok(vkCreateDescriptorPool(dev, &dpci, &cb, &descriptorPool))) {
    VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
    tci.descriptorSetLayout = setLayout;
    if (ok(vkAllocateDescriptorSets(dev, &dsai, &set)) &&
        ok(vkCreateDescriptorUpdateTemplate(dev, &tci, &cb, &updateTemplate)) &&
        ok(vkCreateShaderModule(dev, &smci, &cb, &shader)) && ok(vkCreateCommandPool(dev, &pci, &cb, &pool))) {
      VkDescriptorBufferInfo info{buffer, 0, VK_WHOLE_SIZE};
      VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 1,
                             VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, nullptr, &info, nullptr};
      vkUpdateDescriptorSets(dev, 1, &w, 0, nullptr);
      vkUpdateDescriptorSetWithTemplate(dev, set, updateTemplate, &info);
      VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                     VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
      if (ok(vkAllocateCommandBuffers(dev, &ai, &cmd))) {
        VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
        vkBeginCommandBuffer(cmd, &bi);
        vkCmdFillBuffer(cmd, buffer, 0, 256, 0);  // recording allocates too
        const uint32_t zero = 0;
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipelineLayout, 0, 1, &set, 1, &zero);
        vkCmdPushConstants(cmd, pipelineLayout, VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &zero);
        ok(vkEndCommandBuffer(cmd));
      }
    }
  }
  if (pool) vkDestroyCommandPool(dev, pool, &cb);
  vkDestroyShaderModule(dev, shader, &cb);
  vkDestroyDescriptorUpdateTemplate(dev, updateTemplate, &cb);
  vkDestroyDescriptorPool(dev, descriptorPool, &cb);
  vkDestroyPipelineLayout(dev, pipelineLayout, &cb);
  vkDestroyDescriptorSetLayout(dev, setLayout, &cb);
  vkDestroySampler(dev, sampler, &cb);
  vkDestroyBuffer(dev, buffer, &cb);
  vkDestroySemaphore(dev, sem, &cb);
  vkDestroyFence(dev, fence, &cb);
  vkDestroyDevice(dev, &cb);
  vkDestroyInstance(instance, &cb);
  return result;
}

TEST(BadInput, EveryFailedHostAllocationIsReportedAndLeaksNothing) {
  // Count allocations of a full run, then fail each one in turn.
  CountingAllocator probe;
  ASSERT_EQ(createEverything(probe), VK_SUCCESS);
  ASSERT_TRUE(probe.live.empty());
  // The loader makes most of the allocations (about 1,600 in all): the driver's objects come
  // last, so the loop must run until no allocation failed.
  int failuresSeen = 0;
  bool pastTheLast = false;
  for (int n = 0; n < 4000 && !pastTheLast; ++n) {
    CountingAllocator a;
    a.remaining = n;
    VkResult r = createEverything(a);
    pastTheLast = !a.failed;
    if (pastTheLast) break;
    ++failuresSeen;
    // The loader or the driver saw the failure; either way the application is told.
    EXPECT_EQ(r, VK_ERROR_OUT_OF_HOST_MEMORY) << "failing allocation " << n;
    EXPECT_TRUE(a.live.empty()) << a.live.size() << " allocations leaked when allocation " << n << " failed";
  }
  EXPECT_TRUE(pastTheLast) << "some allocations were never made to fail";
  EXPECT_GT(failuresSeen, 5);
}

}  // namespace
}  // namespace tessera_test
