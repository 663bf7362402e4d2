// VkPipelineCache. No pipelines are compiled yet, so a cache holds only its header (spec:
// "Pipeline Cache Header"); vkGetPipelineCacheData round-trips, and data from another driver,
// build or CPU (a different header) is ignored as the spec allows.
#include <cstring>
#include <vector>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "physical_device.h"

namespace tessera {
namespace {

struct PipelineCache {
  uint8_t header[16 + VK_UUID_SIZE];
};

void writeHeader(const PhysicalDevice& pd, uint8_t* out) {
  const uint32_t words[4] = {16 + VK_UUID_SIZE, VK_PIPELINE_CACHE_HEADER_VERSION_ONE, pd.properties.vendorID,
                             pd.properties.deviceID};
  std::memcpy(out, words, 16);
  std::memcpy(out + 16, pd.pipelineCacheUuid, VK_UUID_SIZE);
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo*,
                                                            const VkAllocationCallbacks* pAllocator, VkPipelineCache* pCache) {
  Device* dev = fromHandle<Device>(device);
  auto* cache = hostNew<PipelineCache>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!cache) return VK_ERROR_OUT_OF_HOST_MEMORY;
  writeHeader(*dev->physical, cache->header);
  *pCache = toHandle<VkPipelineCache>(cache);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyPipelineCache(VkDevice device, VkPipelineCache cache,
                                                         const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<PipelineCache>(cache));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPipelineCacheData(VkDevice, VkPipelineCache cache, size_t* pSize, void* pData) {
  const PipelineCache* c = fromHandle<PipelineCache>(cache);
  if (!pData) {
    *pSize = sizeof(c->header);
    return VK_SUCCESS;
  }
  if (*pSize < sizeof(c->header)) {
    *pSize = 0;
    return VK_INCOMPLETE;
  }
  std::memcpy(pData, c->header, sizeof(c->header));
  *pSize = sizeof(c->header);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkMergePipelineCaches(VkDevice, VkPipelineCache, uint32_t, const VkPipelineCache*) {
  return VK_SUCCESS;
}

}  // extern "C"
