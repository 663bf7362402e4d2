// External memory: VK_KHR_external_memory_fd (opaque fds: memfd payloads, mapped shared) and
// VK_EXT_external_memory_host (host allocations used in place), with the capability queries
// for both. See external_memory.h.
#include "external_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>

#include "device.h"
#include "entrypoints.h"
#include "instance.h"
#include "physical_device.h"

namespace tessera {

VkDeviceSize minImportedHostPointerAlignment() {
  static const VkDeviceSize page = VkDeviceSize(sysconf(_SC_PAGESIZE) > 0 ? sysconf(_SC_PAGESIZE) : 4096);
  return page;
}

VkExternalMemoryProperties externalMemoryProperties(VkExternalMemoryHandleTypeFlagBits handleType) {
  switch (handleType) {
    case VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT:
      return {VK_EXTERNAL_MEMORY_FEATURE_EXPORTABLE_BIT | VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT,
              VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT, VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT};
    case VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT:
      // Import only: the memory is the application's allocation.
      return {VK_EXTERNAL_MEMORY_FEATURE_IMPORTABLE_BIT, 0, VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT};
    default:
      return {};  // dma-bufs, foreign mappings, other platforms' handles: not supported
  }
}

ExternalMemoryRequest externalMemoryRequest(const VkMemoryAllocateInfo& info) {
  ExternalMemoryRequest r;
  for (auto* s = static_cast<const VkBaseInStructure*>(info.pNext); s; s = s->pNext) {
    switch (s->sType) {
      case VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO:
        r.exportTypes |= reinterpret_cast<const VkExportMemoryAllocateInfo*>(s)->handleTypes;
        break;
      case VK_STRUCTURE_TYPE_IMPORT_MEMORY_FD_INFO_KHR: {
        // handleType 0 imports nothing (VkImportMemoryFdInfoKHR: "has no effect").
        auto* i = reinterpret_cast<const VkImportMemoryFdInfoKHR*>(s);
        if (i->handleType) r.importFd = i;
        break;
      }
      case VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT: {
        auto* i = reinterpret_cast<const VkImportMemoryHostPointerInfoEXT*>(s);
        if (i->handleType) r.importHost = i;
        break;
      }
      default:
        break;
    }
  }
  return r;
}

namespace {

const char* mapShared(DeviceMemory& memory, int fd) {
  void* p = mmap(nullptr, size_t(memory.size ? memory.size : 1), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (p == MAP_FAILED) return "the file descriptor could not be mapped";
  memory.data = static_cast<uint8_t*>(p);
  memory.fd = fd;
  return nullptr;
}

}  // namespace

const char* backExternalMemory(DeviceMemory& memory, const ExternalMemoryRequest& request, bool* outOfMemory) {
  *outOfMemory = false;
  constexpr VkExternalMemoryHandleTypeFlags kExportable = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  if (request.exportTypes & ~kExportable) return "only opaque fds can be exported";
  if (request.importFd && request.importHost) return "two imports in one allocation";
  if (request.importHost) {
    const VkImportMemoryHostPointerInfoEXT& i = *request.importHost;
    if (i.handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT)
      return "host pointers are imported as VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT only";
    const VkDeviceSize align = minImportedHostPointerAlignment();
    if (!i.pHostPointer || reinterpret_cast<uintptr_t>(i.pHostPointer) % align || memory.size % align)
      return "the host pointer and allocationSize must be multiples of minImportedHostPointerAlignment";
    if (request.exportTypes) return "imported host memory cannot be exported";
    memory.data = static_cast<uint8_t*>(i.pHostPointer);
    memory.hostImport = true;
    return nullptr;
  }
  if (request.importFd) {
    const VkImportMemoryFdInfoKHR& i = *request.importFd;
    if (i.handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT) return "only opaque fds can be imported";
    struct stat st {};
    // The payload must hold the whole allocation (it was exported with at least this size).
    if (i.fd < 0 || fstat(i.fd, &st) != 0 || VkDeviceSize(st.st_size) < memory.size)
      return "the fd is not a payload of at least allocationSize bytes";
    // On success the fd belongs to the memory (closed when it is freed); on failure it stays the
    // application's.
    return mapShared(memory, i.fd);
  }
  // Exportable: a memfd of the allocation's size, mapped shared so importers see the same bytes.
  const int fd = memfd_create("tessera-device-memory", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, off_t(memory.size)) != 0) {
    if (fd >= 0) close(fd);
    *outOfMemory = true;
    return "no memfd for exportable memory";
  }
  if (const char* problem = mapShared(memory, fd)) {
    close(fd);
    *outOfMemory = true;
    return problem;
  }
  return nullptr;
}

void freeExternalMemory(DeviceMemory& memory) {
  if (memory.hostImport) return;
  munmap(memory.data, size_t(memory.size ? memory.size : 1));
  close(memory.fd);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetMemoryFdKHR(VkDevice device, const VkMemoryGetFdInfoKHR* pGetFdInfo, int* pFd) {
  const DeviceMemory& m = *fromHandle<DeviceMemory>(pGetFdInfo->memory);
  if (pGetFdInfo->handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT || m.fd < 0) {
    Device* dev = fromHandle<Device>(device);
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE_MEMORY, uint64_t(pGetFdInfo->memory),
                "vkGetMemoryFdKHR: the memory was not allocated exportable as an opaque fd");
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  // "Each call ... must create a new file descriptor holding a reference to the memory object's
  // payload and transfer ownership of the file descriptor to the application."
  const int fd = fcntl(m.fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return VK_ERROR_TOO_MANY_OBJECTS;
  *pFd = fd;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetMemoryFdPropertiesKHR(VkDevice device, VkExternalMemoryHandleTypeFlagBits,
                                                                  int, VkMemoryFdPropertiesKHR* pProperties) {
  // Only for handle types other than opaque fds (VUID-vkGetMemoryFdPropertiesKHR-handleType-00674),
  // none of which Tessera supports.
  pProperties->memoryTypeBits = 0;
  Device* dev = fromHandle<Device>(device);
  reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
              "vkGetMemoryFdPropertiesKHR: no fd handle type other than opaque fds is supported");
  return VK_ERROR_INVALID_EXTERNAL_HANDLE;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetMemoryHostPointerPropertiesEXT(
    VkDevice device, VkExternalMemoryHandleTypeFlagBits handleType, const void* pHostPointer,
    VkMemoryHostPointerPropertiesEXT* pProperties) {
  if (handleType != VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT ||
      reinterpret_cast<uintptr_t>(pHostPointer) % minImportedHostPointerAlignment()) {
    pProperties->memoryTypeBits = 0;
    Device* dev = fromHandle<Device>(device);
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkGetMemoryHostPointerPropertiesEXT: not an aligned host allocation");
    return VK_ERROR_INVALID_EXTERNAL_HANDLE;
  }
  pProperties->memoryTypeBits = kMemoryTypeBits;  // the one memory type is host memory
  return VK_SUCCESS;
}

}  // extern "C"
