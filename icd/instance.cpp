#include "instance.h"

#include <cstdio>
#include <cstring>

#include "entrypoint_table.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "physical_device.h"
#include "tessera/log.h"

namespace tessera {

bool extensionOffered(size_t index, const FeatureSet* deviceFeatures) {
  const ExtensionInfo& e = supportedExtensions()[index];
  if (e.isDevice != (deviceFeatures != nullptr)) return false;
  // An extension is all or nothing: one command without an implementation (a weak symbol
  // nobody defined) keeps the whole extension off the list.
  for (const char* command : e.commands) {
    const EntryPoint* entry = findEntryPoint(command);
    if (!entry || !entry->function) return false;
  }
  return !deviceFeatures || extensionFeaturesPresent(index, *deviceFeatures);
}

int findExtension(const char* name, const FeatureSet* deviceFeatures) {
  auto exts = supportedExtensions();
  for (size_t i = 0; i < exts.size(); ++i)
    if (!std::strcmp(exts[i].name, name)) return extensionOffered(i, deviceFeatures) ? int(i) : -1;
  return -1;
}

void reportError(Instance* instance, VkObjectType type, uint64_t handle, const char* fmt, ...) {
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof(text), fmt, args);
  va_end(args);
  TESSERA_LOG(Error, "%s", text);
  if (instance)
    instance->debug.message(VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
                            VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT, type, handle, text);
}

static VkResult fillExtensionProperties(const FeatureSet* deviceFeatures, uint32_t* pCount,
                                        VkExtensionProperties* pProps) {
  auto exts = supportedExtensions();
  uint32_t total = 0;
  for (size_t i = 0; i < exts.size(); ++i) total += extensionOffered(i, deviceFeatures);
  if (!pProps) {
    *pCount = total;
    return VK_SUCCESS;
  }
  uint32_t written = 0;
  for (size_t i = 0; i < exts.size(); ++i) {
    const ExtensionInfo& e = exts[i];
    if (!extensionOffered(i, deviceFeatures)) continue;
    if (written == *pCount) break;
    VkExtensionProperties& p = pProps[written++];
    std::memset(&p, 0, sizeof(p));
    std::strncpy(p.extensionName, e.name, VK_MAX_EXTENSION_NAME_SIZE - 1);
    p.specVersion = e.specVersion;
  }
  *pCount = written;
  return written < total ? VK_INCOMPLETE : VK_SUCCESS;
}

VkResult enumerateExtensionProperties(const FeatureSet* deviceFeatures, const char* layer, uint32_t* pCount,
                                      VkExtensionProperties* pProps) {
  if (layer) return VK_ERROR_LAYER_NOT_PRESENT;
  return fillExtensionProperties(deviceFeatures, pCount, pProps);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumerateInstanceVersion(uint32_t* pApiVersion) {
  *pApiVersion = VK_HEADER_VERSION_COMPLETE;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumerateInstanceExtensionProperties(
    const char* pLayerName, uint32_t* pPropertyCount, VkExtensionProperties* pProperties) {
  return enumerateExtensionProperties(nullptr, pLayerName, pPropertyCount, pProperties);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumerateInstanceLayerProperties(uint32_t* pPropertyCount,
                                                                         VkLayerProperties*) {
  *pPropertyCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateInstance(const VkInstanceCreateInfo* pCreateInfo,
                                                       const VkAllocationCallbacks* pAllocator,
                                                       VkInstance* pInstance) {
  // Extensions first: an unknown one fails before anything is allocated.
  std::bitset<size_t(ExtensionId::Count)> enabled;
  for (uint32_t i = 0; i < pCreateInfo->enabledExtensionCount; ++i) {
    int index = findExtension(pCreateInfo->ppEnabledExtensionNames[i], nullptr);
    if (index < 0) {
      TESSERA_LOG(Error, "vkCreateInstance: extension %s is not supported",
                  pCreateInfo->ppEnabledExtensionNames[i]);
      return VK_ERROR_EXTENSION_NOT_PRESENT;
    }
    enabled.set(size_t(index));
  }
  if (pCreateInfo->enabledLayerCount) return VK_ERROR_LAYER_NOT_PRESENT;

  Instance* inst = hostNew<Instance>(pAllocator, VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
  if (!inst) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (pAllocator) {
    inst->allocatorStorage = *pAllocator;
    inst->hasAllocator = true;
  }
  inst->enabledExtensions = enabled;
  const VkApplicationInfo* app = pCreateInfo->pApplicationInfo;
  inst->apiVersion = (app && app->apiVersion) ? app->apiVersion : VK_API_VERSION_1_0;
  inst->debug.addFromChain(pCreateInfo->pNext);
  VkResult result = createPhysicalDevice(inst, &inst->physicalDevice);
  if (result != VK_SUCCESS) {
    hostDelete(pAllocator, inst);
    return result;
  }
  inst->debug.setChainedActive(false);
  *pInstance = toHandle<VkInstance>(inst);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyInstance(VkInstance instance,
                                                    const VkAllocationCallbacks* pAllocator) {
  if (!instance) return;
  Instance* inst = fromHandle<Instance>(instance);
  inst->debug.setChainedActive(true);
  destroyPhysicalDevice(inst, inst->physicalDevice);
  hostDelete(pickAllocator(pAllocator, inst->allocator()), inst);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumeratePhysicalDevices(VkInstance instance, uint32_t* pCount,
                                                                 VkPhysicalDevice* pDevices) {
  Instance* inst = fromHandle<Instance>(instance);
  uint32_t available = inst->physicalDevice ? 1 : 0;
  if (!pDevices) {
    *pCount = available;
    return VK_SUCCESS;
  }
  uint32_t n = std::min(*pCount, available);
  if (n) pDevices[0] = toHandle<VkPhysicalDevice>(inst->physicalDevice);
  *pCount = n;
  return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumeratePhysicalDeviceGroups(
    VkInstance instance, uint32_t* pCount, VkPhysicalDeviceGroupProperties* pGroups) {
  Instance* inst = fromHandle<Instance>(instance);
  uint32_t available = inst->physicalDevice ? 1 : 0;
  if (!pGroups) {
    *pCount = available;
    return VK_SUCCESS;
  }
  uint32_t n = std::min(*pCount, available);
  if (n) {
    pGroups[0].physicalDeviceCount = 1;
    pGroups[0].physicalDevices[0] = toHandle<VkPhysicalDevice>(inst->physicalDevice);
    pGroups[0].subsetAllocation = VK_FALSE;
  }
  *pCount = n;
  return n < available ? VK_INCOMPLETE : VK_SUCCESS;
}

}  // extern "C"
