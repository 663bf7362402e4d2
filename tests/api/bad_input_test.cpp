// Bad input gets a clear VkResult, never a crash (issue: "Bad input"). These tests create
// their own instances without the validation layer where the point is to pass something the
// application may legally try and see fail (unsupported features, huge allocations,
// failing host allocators).
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>

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
  ASSERT_FALSE(supported.geometryShader);  // no geometry shaders: asking for them must fail
  VkPhysicalDeviceFeatures want{};
  want.geometryShader = VK_TRUE;
  VkDeviceCreateInfo dci = oneQueue(nullptr, &qci);
  dci.pEnabledFeatures = &want;
  VkDevice dev = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateDevice(p.physicalDevice, &dci, nullptr, &dev), VK_ERROR_FEATURE_NOT_PRESENT);
  VkPhysicalDeviceVulkan11Features v11{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES};
  v11.multiview = VK_TRUE;  // through a pNext struct too
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
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkSemaphoreCreateInfo sci{VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO};
  VkBufferCreateInfo bci{VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
  bci.size = 256;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  VkCommandPoolCreateInfo pci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  if ((r = vkCreateFence(dev, &fci, &cb, &fence)) != VK_SUCCESS) result = r;
  else if ((r = vkCreateSemaphore(dev, &sci, &cb, &sem)) != VK_SUCCESS) result = r;
  else if ((r = vkCreateBuffer(dev, &bci, &cb, &buffer)) != VK_SUCCESS) result = r;
  else if ((r = vkCreateCommandPool(dev, &pci, &cb, &pool)) != VK_SUCCESS) result = r;
  else {
    VkCommandBufferAllocateInfo ai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
    if ((r = vkAllocateCommandBuffers(dev, &ai, &cmd)) != VK_SUCCESS) result = r;
    else {
      VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
      vkBeginCommandBuffer(cmd, &bi);
      vkCmdFillBuffer(cmd, buffer, 0, 256, 0);  // recording allocates too
      if ((r = vkEndCommandBuffer(cmd)) != VK_SUCCESS) result = r;
    }
  }
  if (pool) vkDestroyCommandPool(dev, pool, &cb);
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
