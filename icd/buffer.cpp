#include <algorithm>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "resources.h"

namespace tessera {
namespace {

VkMemoryRequirements bufferRequirements(VkDeviceSize size) {
  return {(size + 15) & ~VkDeviceSize(15), kMinResourceAlignment, kMemoryTypeBits};
}

void fillDedicated(void* pNext) {
  for (auto* s = static_cast<VkBaseOutStructure*>(pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS) {
      auto* d = reinterpret_cast<VkMemoryDedicatedRequirements*>(s);
      d->prefersDedicatedAllocation = VK_FALSE;
      d->requiresDedicatedAllocation = VK_FALSE;
    }
  }
}

}  // namespace

void writeDedicatedRequirements(void* pNext) { fillDedicated(pNext); }

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateBuffer(VkDevice device, const VkBufferCreateInfo* pCreateInfo,
                                                     const VkAllocationCallbacks* pAllocator, VkBuffer* pBuffer) {
  Device* dev = fromHandle<Device>(device);
  if (pCreateInfo->flags & (VK_BUFFER_CREATE_SPARSE_BINDING_BIT | VK_BUFFER_CREATE_PROTECTED_BIT)) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkCreateBuffer: sparse and protected buffers are not supported");
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  // Above maxBufferSize (VUID-VkBufferCreateInfo-size-06409; the heap, physical_device_queries.cpp)
  // no memory could ever be bound: refused as lavapipe refuses sizes above its limit.
  if (pCreateInfo->size > dev->physical->memory.memoryHeaps[0].size) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkCreateBuffer: size %llu is above maxBufferSize (%llu)", (unsigned long long)pCreateInfo->size,
                (unsigned long long)dev->physical->memory.memoryHeaps[0].size);
    return VK_ERROR_OUT_OF_DEVICE_MEMORY;
  }
  Buffer* b = hostNew<Buffer>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!b) return VK_ERROR_OUT_OF_HOST_MEMORY;
  b->size = pCreateInfo->size;
  b->usage = pCreateInfo->usage;
  b->flags = pCreateInfo->flags;
  *pBuffer = toHandle<VkBuffer>(b);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyBuffer(VkDevice device, VkBuffer buffer, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<Buffer>(buffer));
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetBufferMemoryRequirements(VkDevice, VkBuffer buffer, VkMemoryRequirements* pReq) {
  *pReq = bufferRequirements(fromHandle<Buffer>(buffer)->size);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetBufferMemoryRequirements2(VkDevice, const VkBufferMemoryRequirementsInfo2* pInfo,
                                                                 VkMemoryRequirements2* pReq) {
  pReq->memoryRequirements = bufferRequirements(fromHandle<Buffer>(pInfo->buffer)->size);
  fillDedicated(pReq->pNext);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceBufferMemoryRequirements(VkDevice, const VkDeviceBufferMemoryRequirements* pInfo,
                                                                      VkMemoryRequirements2* pReq) {
  pReq->memoryRequirements = bufferRequirements(pInfo->pCreateInfo->size);
  fillDedicated(pReq->pNext);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkBindBufferMemory(VkDevice, VkBuffer buffer, VkDeviceMemory memory,
                                                         VkDeviceSize offset) {
  Buffer* b = fromHandle<Buffer>(buffer);
  b->memory = fromHandle<DeviceMemory>(memory);
  b->memoryOffset = offset;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkBindBufferMemory2(VkDevice device, uint32_t count, const VkBindBufferMemoryInfo* pInfos) {
  for (uint32_t i = 0; i < count; ++i)
    tessera_vkBindBufferMemory(device, pInfos[i].buffer, pInfos[i].memory, pInfos[i].memoryOffset);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateBufferView(VkDevice device, const VkBufferViewCreateInfo* pInfo,
                                                         const VkAllocationCallbacks* pAllocator, VkBufferView* pView) {
  BufferView* v = hostNew<BufferView>(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()),
                                      VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!v) return VK_ERROR_OUT_OF_HOST_MEMORY;
  Buffer* b = fromHandle<Buffer>(pInfo->buffer);
  v->buffer = b;
  v->format = pInfo->format;
  v->offset = pInfo->offset;
  v->range = pInfo->range == VK_WHOLE_SIZE ? b->size - pInfo->offset : pInfo->range;
  v->descriptor = {};
  const FormatInfo* f = formatInfo(pInfo->format);
  if (b->data() && f && f->blockSize) {
    v->descriptor.address = b->data() + v->offset;
    v->descriptor.texelSize = f->blockSize;
    // Texels that fit the range (VK_WHOLE_SIZE may leave a partial texel at the end).
    v->descriptor.elementCount = uint32_t(std::min<VkDeviceSize>(v->range / f->blockSize, UINT32_MAX));
  }
  v->descriptor.format = uint32_t(pInfo->format);
  *pView = toHandle<VkBufferView>(v);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyBufferView(VkDevice device, VkBufferView view, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<BufferView>(view));
}

}  // extern "C"
