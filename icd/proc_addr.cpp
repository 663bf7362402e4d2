// The loader interface (vk_icd*) and vkGet*ProcAddr, answered from the generated table.
// A command is returned only when it is implemented and the caller may see it: core up to
// the version the application asked for, or part of an enabled extension.
#include <cstring>

#include "device.h"
#include "entrypoint_table.h"
#include "entrypoints.h"
#include "instance.h"
#include "physical_device.h"

namespace tessera {

const EntryPoint* findEntryPoint(const char* name) {
  auto table = entryPoints();
  size_t lo = 0, hi = table.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = std::strcmp(table[mid].name, name);
    if (c == 0) return &table[mid];
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return nullptr;
}

namespace {

bool coreVisible(const EntryPoint& e, uint32_t apiVersion) {
  return e.coreMinor >= 0 && uint32_t(e.coreMinor) <= VK_API_VERSION_MINOR(apiVersion);
}

// A device extension the instance's physical device offers (its commands are looked up at
// instance level before any device exists).
bool deviceExtensionOffered(const Instance* instance, int index) {
  return index >= 0 && instance->physicalDevice && extensionOffered(size_t(index), &instance->physicalDevice->features);
}

PFN_vkVoidFunction instanceProcAddr(Instance* instance, const char* name) {
  if (!name) return nullptr;
  const EntryPoint* e = findEntryPoint(name);
  if (!e || !e->function) return nullptr;
  if (!instance) return e->level == EntryPointLevel::Global ? e->function : nullptr;
  if (e->level == EntryPointLevel::Global) return e->function;
  if (coreVisible(*e, instance->apiVersion)) return e->function;
  // Device-extension commands are returned at instance level: the device that enables them
  // does not exist yet (the loader builds its trampolines from these).
  for (int ext : {e->extension, e->extension2})
    if (instance->extensionEnabled(ext) || deviceExtensionOffered(instance, ext)) return e->function;
  return nullptr;
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL tessera_vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return instanceProcAddr(fromHandle<Instance>(instance), pName);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL tessera_vkGetDeviceProcAddr(VkDevice device, const char* pName) {
  if (!pName) return nullptr;
  const EntryPoint* e = findEntryPoint(pName);
  if (!e || !e->function || e->level != EntryPointLevel::Device) return nullptr;
  Device* dev = fromHandle<Device>(device);
  if (coreVisible(*e, dev->apiVersion)) return e->function;
  for (int ext : {e->extension, e->extension2})
    if (dev->extensionEnabled(ext)) return e->function;
  return nullptr;
}

// --- Exported symbols -------------------------------------------------------------------

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vk_icdNegotiateLoaderICDInterfaceVersion(uint32_t* pSupportedVersion) {
  // Version 5+: the loader calls vk_icdGetPhysicalDeviceProcAddr and expects apiVersion
  // handling per the 1.1 loader rules; 7 adds querying these through GetInstanceProcAddr.
  if (*pSupportedVersion > 7) *pSupportedVersion = 7;
  return *pSupportedVersion < 5 ? VK_ERROR_INCOMPATIBLE_DRIVER : VK_SUCCESS;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetPhysicalDeviceProcAddr(VkInstance instance, const char* pName) {
  if (!pName) return nullptr;
  const EntryPoint* e = findEntryPoint(pName);
  if (!e || !e->function || e->level != EntryPointLevel::PhysicalDevice) return nullptr;
  return e->function;
}

__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vk_icdGetInstanceProcAddr(VkInstance instance, const char* pName) {
  if (pName && !std::strcmp(pName, "vk_icdNegotiateLoaderICDInterfaceVersion"))
    return reinterpret_cast<PFN_vkVoidFunction>(vk_icdNegotiateLoaderICDInterfaceVersion);
  if (pName && !std::strcmp(pName, "vk_icdGetPhysicalDeviceProcAddr"))
    return reinterpret_cast<PFN_vkVoidFunction>(vk_icdGetPhysicalDeviceProcAddr);
  return tessera_vkGetInstanceProcAddr(instance, pName);
}

// For programs that dlopen the driver directly instead of going through the loader.
__attribute__((visibility("default"))) VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL
vkGetInstanceProcAddr(VkInstance instance, const char* pName) {
  return vk_icdGetInstanceProcAddr(instance, pName);
}

}  // extern "C"
