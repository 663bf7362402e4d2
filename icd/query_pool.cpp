#include "query_pool.h"

#include <time.h>

#include <algorithm>
#include <cstring>

#include "device.h"
#include "tessera/draw.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"

namespace tessera {

uint64_t timestampNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void QueryPool::reset(uint32_t first, uint32_t n) {
  std::lock_guard lock(mutex);
  for (uint32_t i = first; i < first + n; ++i) {
    available[i] = false;
    for (uint32_t v = 0; v < valuesPerQuery; ++v) values[size_t(i) * valuesPerQuery + v] = 0;
  }
}

void QueryPool::write(uint32_t query, uint64_t value, uint64_t second) {
  std::lock_guard lock(mutex);
  values[size_t(query) * valuesPerQuery] = value;
  if (valuesPerQuery > 1) values[size_t(query) * valuesPerQuery + 1] = second;
  available[query] = true;
  cv.notify_all();
}

void QueryPool::writeAll(uint32_t query, const uint64_t* v) {
  std::lock_guard lock(mutex);
  for (uint32_t i = 0; i < valuesPerQuery; ++i) values[size_t(query) * valuesPerQuery + i] = v[i];
  available[query] = true;
  cv.notify_all();
}

VkResult QueryPool::copyResults(uint32_t first, uint32_t n, uint8_t* out, VkDeviceSize stride, VkQueryResultFlags flags) {
  VkResult result = VK_SUCCESS;
  const bool is64 = flags & VK_QUERY_RESULT_64_BIT;
  std::unique_lock lock(mutex);
  for (uint32_t i = 0; i < n; ++i, out += stride) {
    const uint32_t q = first + i;
    if (flags & VK_QUERY_RESULT_WAIT_BIT) cv.wait(lock, [&] { return available[q]; });
    const bool ready = available[q];
    if (!ready) result = VK_NOT_READY;
    // Spec: without WAIT or PARTIAL, an unavailable query's value is left unwritten.
    const bool writeValue = ready || (flags & VK_QUERY_RESULT_PARTIAL_BIT);
    // The query's values in order, then its availability ("Query Operation").
    const uint32_t k = valuesPerQuery;
    if (is64) {
      auto* p = reinterpret_cast<uint64_t*>(out);
      for (uint32_t v = 0; v < k && writeValue; ++v) p[v] = ready ? values[size_t(q) * k + v] : 0;
      if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) p[k] = ready;
    } else {
      auto* p = reinterpret_cast<uint32_t*>(out);
      for (uint32_t v = 0; v < k && writeValue; ++v) p[v] = uint32_t(ready ? values[size_t(q) * k + v] : 0);
      if (flags & VK_QUERY_RESULT_WITH_AVAILABILITY_BIT) p[k] = ready;
    }
  }
  return result;
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateQueryPool(VkDevice device, const VkQueryPoolCreateInfo* pInfo,
                                                        const VkAllocationCallbacks* pAllocator, VkQueryPool* pPool) {
  Device* dev = fromHandle<Device>(device);
  if (pInfo->queryType != VK_QUERY_TYPE_TIMESTAMP && pInfo->queryType != VK_QUERY_TYPE_OCCLUSION &&
      pInfo->queryType != VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT &&
      pInfo->queryType != VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT &&
      pInfo->queryType != VK_QUERY_TYPE_PIPELINE_STATISTICS) {
    reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(device),
                "vkCreateQueryPool: query type %d is not supported", int(pInfo->queryType));
    return VK_ERROR_FEATURE_NOT_PRESENT;
  }
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, dev->allocator());
  QueryPool* pool = hostNew<QueryPool>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pool->type = pInfo->queryType;
  pool->count = pInfo->queryCount;
  pool->valuesPerQuery = pInfo->queryType == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ? 2 : 1;
  if (pInfo->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
    // Only the statistics Vulkan defines (bits 0-10) are counted; one value for each.
    pool->statisticsFlags = pInfo->pipelineStatistics & ((1u << raster::kPipelineStatistics) - 1);
    pool->valuesPerQuery = std::max(1, __builtin_popcount(pool->statisticsFlags));
    pool->statisticsBase.reset(new (std::nothrow) uint64_t[size_t(pInfo->queryCount) * raster::kPipelineStatistics]());
  }
  const bool streamCounts = pInfo->queryType == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT ||
                            pInfo->queryType == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT;
  if (streamCounts) pool->countBase.reset(new (std::nothrow) uint64_t[size_t(pInfo->queryCount) * 2]());
  pool->values.reset(new (std::nothrow) uint64_t[size_t(pInfo->queryCount) * pool->valuesPerQuery]());
  pool->available.reset(new (std::nothrow) bool[pInfo->queryCount]());
  if (!pool->values || !pool->available ||
      (pInfo->queryType == VK_QUERY_TYPE_PIPELINE_STATISTICS && !pool->statisticsBase) ||
      (streamCounts && !pool->countBase)) {
    hostDelete(a, pool);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pPool = toHandle<VkQueryPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyQueryPool(VkDevice device, VkQueryPool pool, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<QueryPool>(pool));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetQueryPoolResults(VkDevice, VkQueryPool queryPool, uint32_t first, uint32_t count,
                                                            size_t, void* pData, VkDeviceSize stride, VkQueryResultFlags flags) {
  return fromHandle<QueryPool>(queryPool)->copyResults(first, count, static_cast<uint8_t*>(pData), stride, flags);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkResetQueryPool(VkDevice, VkQueryPool queryPool, uint32_t first, uint32_t count) {
  fromHandle<QueryPool>(queryPool)->reset(first, count);
}

}  // extern "C"
