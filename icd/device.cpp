#include "device.h"

#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "queue.h"

namespace tessera {

void Device::lose(const char* why) {
  cancelWork.store(1);
  if (!lost.exchange(true))
    reportError(instance, VK_OBJECT_TYPE_DEVICE, uint64_t(reinterpret_cast<uintptr_t>(this)), "device lost: %s", why);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDevice(VkPhysicalDevice physicalDevice,
                                                     const VkDeviceCreateInfo* pCreateInfo,
                                                     const VkAllocationCallbacks* pAllocator, VkDevice* pDevice) {
  PhysicalDevice* pd = fromHandle<PhysicalDevice>(physicalDevice);
  Instance* inst = pd->instance;

  std::bitset<size_t(ExtensionId::Count)> enabled;
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    int index = findExtension(pCreateInfo->ppEnabledExtensionNames[i], &pd->features);
    if (index < 0) {
      reportError(inst, VK_OBJECT_TYPE_PHYSICAL_DEVICE, uint64_t(physicalDevice),
                  "vkCreateDevice: device extension %s is not supported by Tessera",
                  pCreateInfo->ppEnabledExtensionNames[i]);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    enabled.set(size_t(index));
  }
  FeatureSet requested;
  if (const char* missing = readRequestedFeatures(pCreateInfo, pd->features, requested)) {
    reportError(inst, VK_OBJECT_TYPE_PHYSICAL_DEVICE, uint64_t(physicalDevice),
                "vkCreateDevice: feature %s is not supported by Tessera", missing);
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  for (uint32_t i = 0; i < pCreateInfo->queueCreateInfoCount; ++i) {
    const VkDeviceQueueCreateInfo& q = pCreateInfo->pQueueCreateInfos[i];
    if (q.queueFamilyIndex != 0 || q.queueCount > 1 || (q.flags & VK_DEVICE_QUEUE_CREATE_PROTECTED_BIT)) {
      reportError(inst, VK_OBJECT_TYPE_PHYSICAL_DEVICE, uint64_t(physicalDevice),
                  "vkCreateDevice: Tessera has one queue family with one unprotected queue");
      return VK_ERROR_INITIALIZATION_FAILED;
    }
  }

  const VkAllocationCallbacks* alloc = pickAllocator(pAllocator, inst->allocator());
  Device* dev = hostNew<Device>(alloc, VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
  if (!dev) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (alloc) {
    dev->allocatorStorage = *alloc;
    dev->hasAllocator = true;
  }
  dev->instance = inst;
  dev->physical = pd;
  dev->apiVersion = inst->apiVersion;
  dev->enabledExtensions = enabled;
  dev->enabledFeatures = requested;
  VkResult r = createQueue(dev, &dev->queue);
  if (r != VK_SUCCESS) {
    hostDelete(alloc, dev);
    return r;
  }
  *pDevice = toHandle<VkDevice>(dev);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDevice(VkDevice device, const VkAllocationCallbacks* pAllocator) {
  if (!device) return;
  Device* dev = fromHandle<Device>(device);
  destroyQueue(dev, dev->queue);
  hostDelete(pickAllocator(pAllocator, dev->allocator()), dev);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceQueue(VkDevice device, uint32_t family, uint32_t index, VkQueue* pQueue) {
  *pQueue = toHandle<VkQueue>(fromHandle<Device>(device)->queue);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceQueue2(VkDevice device, const VkDeviceQueueInfo2* pInfo, VkQueue* pQueue) {
  // Protected queues do not exist here; a request for one gets NULL as the spec requires.
  *pQueue = pInfo->flags ? VK_NULL_HANDLE : toHandle<VkQueue>(fromHandle<Device>(device)->queue);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkDeviceWaitIdle(VkDevice device) {
  return waitQueueIdle(fromHandle<Device>(device)->queue);
}

// --- Private data (core 1.3) -------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreatePrivateDataSlot(VkDevice device, const VkPrivateDataSlotCreateInfo*,
                                                              const VkAllocationCallbacks* pAllocator,
                                                              VkPrivateDataSlot* pSlot) {
  Device* dev = fromHandle<Device>(device);
  // The slot object is one byte of host memory: its address is the key.
  auto* slot = static_cast<uint8_t*>(hostAlloc(pickAllocator(pAllocator, dev->allocator()), 1, 1,
                                               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!slot) return VK_ERROR_OUT_OF_HOST_MEMORY;
  *pSlot = toHandle<VkPrivateDataSlot>(slot);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyPrivateDataSlot(VkDevice device, VkPrivateDataSlot slot,
                                                           const VkAllocationCallbacks* pAllocator) {
  if (!slot) return;
  Device* dev = fromHandle<Device>(device);
  {
    std::lock_guard lock(dev->privateDataMutex);
    dev->privateData.erase(uint64_t(slot));
  }
  hostFree(pickAllocator(pAllocator, dev->allocator()), slot);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkSetPrivateData(VkDevice device, VkObjectType, uint64_t handle,
                                                       VkPrivateDataSlot slot, uint64_t data) {
  Device* dev = fromHandle<Device>(device);
  std::lock_guard lock(dev->privateDataMutex);
  try {
    dev->privateData[uint64_t(slot)][handle] = data;
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPrivateData(VkDevice device, VkObjectType, uint64_t handle,
                                                   VkPrivateDataSlot slot, uint64_t* pData) {
  Device* dev = fromHandle<Device>(device);
  std::lock_guard lock(dev->privateDataMutex);
  *pData = 0;
  auto s = dev->privateData.find(uint64_t(slot));
  if (s == dev->privateData.end()) return;
  auto v = s->second.find(handle);
  if (v != s->second.end()) *pData = v->second;
}

}  // extern "C"
