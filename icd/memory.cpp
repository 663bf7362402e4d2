// vkAllocateMemory and friends. Memory is host memory: small allocations from the C heap,
// large ones from mmap so untouched pages cost nothing, from 2 MiB on in huge pages where the
// kernel gives them.
#include <sys/mman.h>

#include <atomic>
#include <cstdlib>

#include "device.h"
#include "entrypoints.h"
#include "external_memory.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "resources.h"

namespace tessera {
namespace {

constexpr VkDeviceSize kMmapThreshold = 256 * 1024;

// Bytes of VkDeviceMemory this process holds, over all devices (they share the one heap).
std::atomic<VkDeviceSize> gDeviceMemoryInUse{0};

// Allocations of at least this many bytes are mapped in whole 2 MiB pages where the kernel
// offers transparent huge pages on request (madvise mode, Debian's default): images and
// attachments are read across rows a page apart (a rotated texture level of 1024 RGBA8 texels
// a row touches a new 4 KiB page every row), which missed the TLB at every step.
constexpr size_t kHugePage = size_t(2) << 20;

size_t mappedLength(VkDeviceSize size) {
  return size >= kHugePage ? (size_t(size) + kHugePage - 1) & ~(kHugePage - 1) : size_t(size);
}

bool allocateBacking(DeviceMemory& m) {
  if (m.size >= kMmapThreshold) {
    const size_t length = mappedLength(m.size);
    const bool huge = m.size >= kHugePage;
    // Huge pages need a 2 MiB-aligned start: map one page more and give back the ends.
    const size_t reserve = huge ? length + kHugePage : length;
    void* p = mmap(nullptr, reserve, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return false;
    uint8_t* start = static_cast<uint8_t*>(p);
    if (huge) {
      uint8_t* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(start) + kHugePage - 1) & ~(kHugePage - 1));
      if (aligned > start) munmap(start, size_t(aligned - start));
      const size_t tail = size_t(start + reserve - (aligned + length));
      if (tail) munmap(aligned + length, tail);
      madvise(aligned, length, MADV_HUGEPAGE);  // advice only: without it, 4 KiB pages
      start = aligned;
    }
    m.data = start;
    m.mmapped = true;
  } else {
    void* p = nullptr;
    if (posix_memalign(&p, 64, size_t(m.size ? m.size : 1))) return false;
    m.data = static_cast<uint8_t*>(p);
  }
  gDeviceMemoryInUse += m.size;
  return true;
}

void freeBacking(DeviceMemory& m) {
  if (m.hostImport || m.fd >= 0) freeExternalMemory(m);
  else if (m.mmapped) munmap(m.data, mappedLength(m.size));
  else std::free(m.data);
  if (!m.hostImport) gDeviceMemoryInUse -= m.size;
}

}  // namespace

VkDeviceSize deviceMemoryInUse() { return gDeviceMemoryInUse.load(std::memory_order_relaxed); }
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkAllocateMemory(VkDevice device, const VkMemoryAllocateInfo* pInfo,
                                                       const VkAllocationCallbacks* pAllocator, VkDeviceMemory* pMemory) {
  Device* dev = fromHandle<Device>(device);
  const VkDeviceSize heap = dev->physical->memory.memoryHeaps[0].size;
  if (pInfo->allocationSize > heap) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkAllocateMemory: %llu bytes exceed the %llu-byte heap",
                (unsigned long long)pInfo->allocationSize, (unsigned long long)heap);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, dev->allocator());
  DeviceMemory* m = hostNew<DeviceMemory>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!m) return VK_ERROR_OUT_OF_HOST_MEMORY;
  m->size = pInfo->allocationSize;
  // Exportable or imported memory (external_memory.cpp); VkExportMemoryAllocateInfo with no
  // handle types, which some programs always chain, asks for nothing.
  const ExternalMemoryRequest external = externalMemoryRequest(*pInfo);
  if (external.any()) {
    bool outOfMemory = false;
    if (const char* problem = backExternalMemory(*m, external, &outOfMemory)) {
      hostDelete(a, m);
      reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device), "vkAllocateMemory: %s", problem);
      return outOfMemory ? VK_ERROR_OUT_OF_DEVICE_MEMORY : VK_ERROR_INVALID_EXTERNAL_HANDLE;
    }
    if (!m->hostImport) gDeviceMemoryInUse += m->size;
    *pMemory = toHandle<VkDeviceMemory>(m);
    return VK_SUCCESS;
  }
  if (!allocateBacking(*m)) {
    hostDelete(a, m);
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkAllocateMemory: the system could not provide %llu bytes", (unsigned long long)pInfo->allocationSize);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  *pMemory = toHandle<VkDeviceMemory>(m);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkFreeMemory(VkDevice device, VkDeviceMemory memory,
                                               const VkAllocationCallbacks* pAllocator) {
  if (!memory) return;
  DeviceMemory* m = fromHandle<DeviceMemory>(memory);
  freeBacking(*m);
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), m);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkMapMemory(VkDevice, VkDeviceMemory memory, VkDeviceSize offset, VkDeviceSize,
                                                  VkMemoryMapFlags, void** ppData) {
  *ppData = fromHandle<DeviceMemory>(memory)->data + offset;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkUnmapMemory(VkDevice, VkDeviceMemory) {}

// The only memory type is coherent: flushes and invalidates have nothing to do.
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkFlushMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}
VKAPI_ATTR VkResult VKAPI_CALL tessera_vkInvalidateMappedMemoryRanges(VkDevice, uint32_t, const VkMappedMemoryRange*) {
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceMemoryCommitment(VkDevice, VkDeviceMemory, VkDeviceSize* pCommitted) {
  *pCommitted = 0;  // only LAZILY_ALLOCATED memory types are asked; Tessera has none
}

}  // extern "C"
