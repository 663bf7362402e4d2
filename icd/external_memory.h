// External memory (VK_KHR_external_memory_fd, VK_EXT_external_memory_host): which handle types
// Tessera can export and import, and the backing of memory that uses them. Device memory is host
// memory, so an opaque fd is a memfd mapped shared (another VkDeviceMemory, in this process or
// another, that imports it maps the same pages), and a host allocation is the pointer itself.
#pragma once

#include <vulkan/vulkan_core.h>

#include "resources.h"

namespace tessera {

// Page size: host pointers and their sizes must be multiples of it
// (VkPhysicalDeviceExternalMemoryHostPropertiesEXT::minImportedHostPointerAlignment).
VkDeviceSize minImportedHostPointerAlignment();

// What a buffer or image of `handleType` memory can do ("External Memory Handle Types"): the
// same answer for both, as every resource of Tessera lives in plain host memory.
VkExternalMemoryProperties externalMemoryProperties(VkExternalMemoryHandleTypeFlagBits handleType);

// The external memory a VkMemoryAllocateInfo chain asks for.
struct ExternalMemoryRequest {
  VkExternalMemoryHandleTypeFlags exportTypes = 0;  // VkExportMemoryAllocateInfo
  const VkImportMemoryFdInfoKHR* importFd = nullptr;
  const VkImportMemoryHostPointerInfoEXT* importHost = nullptr;
  bool any() const { return exportTypes || importFd || importHost; }
};
ExternalMemoryRequest externalMemoryRequest(const VkMemoryAllocateInfo& info);

// Backs `memory` (size set) as `request` asks: nullptr on success, else why not (the caller
// reports it and returns VK_ERROR_INVALID_EXTERNAL_HANDLE, or VK_ERROR_OUT_OF_DEVICE_MEMORY when
// *outOfMemory). An imported fd is owned by the memory from then on, as the spec transfers it.
const char* backExternalMemory(DeviceMemory& memory, const ExternalMemoryRequest& request, bool* outOfMemory);
void freeExternalMemory(DeviceMemory& memory);

}  // namespace tessera
