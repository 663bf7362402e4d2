// VkPipelineCache: compiled pipeline code by cache key, behind the spec's header ("Pipeline
// Cache Header"). vkGetPipelineCacheData writes the header then entries (16-byte key, 32-bit
// size, the JIT's serialized object); data from another driver, build or CPU, or damaged data,
// is ignored as the spec allows. Keys include the driver binary's build-id and the host CPU,
// so stale code can never be found. Entries from the application's data are kept only when
// authentic (jit::isAuthenticCacheEntry: the HMAC of this installation, docs/SECURITY.md), so
// a forged or damaged entry is never merged, returned by vkGetPipelineCacheData, or run.
#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "physical_device.h"
#include "pipeline_cache_store.h"

namespace tessera {
namespace {

constexpr size_t kHeaderSize = 16 + VK_UUID_SIZE;

struct PipelineCache final : jit::ExternalCache {
  uint8_t header[kHeaderSize];
  std::mutex mutex;
  std::map<std::array<uint8_t, 16>, std::vector<uint8_t>> entries;

  bool find(const uint8_t key[16], std::vector<uint8_t>* blob) override {
    std::array<uint8_t, 16> k;
    std::memcpy(k.data(), key, 16);
    std::lock_guard lock(mutex);
    auto it = entries.find(k);
    if (it == entries.end()) return false;
    *blob = it->second;
    return true;
  }
  void insert(const uint8_t key[16], const std::vector<uint8_t>& blob) override {
    std::array<uint8_t, 16> k;
    std::memcpy(k.data(), key, 16);
    std::lock_guard lock(mutex);
    entries.emplace(k, blob);
  }
};

void writeHeader(const PhysicalDevice& pd, uint8_t* out) {
  const uint32_t words[4] = {uint32_t(kHeaderSize), VK_PIPELINE_CACHE_HEADER_VERSION_ONE, pd.properties.vendorID,
                             pd.properties.deviceID};
  std::memcpy(out, words, 16);
  std::memcpy(out + 16, pd.pipelineCacheUuid, VK_UUID_SIZE);
}

void readInitialData(PipelineCache& cache, const uint8_t* data, size_t size) {
  if (!data || size < kHeaderSize || std::memcmp(data, cache.header, kHeaderSize) != 0) return;
  size_t pos = kHeaderSize;
  while (pos + 20 <= size) {
    std::array<uint8_t, 16> key;
    uint32_t len;
    std::memcpy(key.data(), data + pos, 16);
    std::memcpy(&len, data + pos + 16, 4);
    pos += 20;
    if (len > size - pos) return;  // damaged: keep what was whole
    if (jit::isAuthenticCacheEntry(key.data(), data + pos, len))
      cache.entries.emplace(key, std::vector<uint8_t>(data + pos, data + pos + len));
    pos += len;
  }
}

}  // namespace

PipelineCacheStore* pipelineCacheStore(VkPipelineCache cache) { return fromHandle<PipelineCache>(cache); }

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreatePipelineCache(VkDevice device, const VkPipelineCacheCreateInfo* pCreateInfo,
                                                            const VkAllocationCallbacks* pAllocator, VkPipelineCache* pCache) {
  Device* dev = fromHandle<Device>(device);
  auto* cache = hostNew<PipelineCache>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!cache) return VK_ERROR_OUT_OF_HOST_MEMORY;
  writeHeader(*dev->physical, cache->header);
  try {
    readInitialData(*cache, static_cast<const uint8_t*>(pCreateInfo->pInitialData), pCreateInfo->initialDataSize);
  } catch (const std::bad_alloc&) {
    hostDelete(pickAllocator(pAllocator, dev->allocator()), cache);
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pCache = toHandle<VkPipelineCache>(cache);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyPipelineCache(VkDevice device, VkPipelineCache cache,
                                                         const VkAllocationCallbacks* pAllocator) {
  if (!cache) return;
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<PipelineCache>(cache));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPipelineCacheData(VkDevice, VkPipelineCache cache, size_t* pSize, void* pData) {
  PipelineCache* c = fromHandle<PipelineCache>(cache);
  std::lock_guard lock(c->mutex);
  size_t total = kHeaderSize;
  for (auto& [key, blob] : c->entries) total += 20 + blob.size();
  if (!pData) {
    *pSize = total;
    return VK_SUCCESS;
  }
  if (*pSize < kHeaderSize) {
    *pSize = 0;
    return VK_INCOMPLETE;
  }
  auto* out = static_cast<uint8_t*>(pData);
  std::memcpy(out, c->header, kHeaderSize);
  size_t pos = kHeaderSize;
  for (auto& [key, blob] : c->entries) {
    if (pos + 20 + blob.size() > *pSize) {
      *pSize = pos;  // whole entries only
      return VK_INCOMPLETE;
    }
    uint32_t len = uint32_t(blob.size());
    std::memcpy(out + pos, key.data(), 16);
    std::memcpy(out + pos + 16, &len, 4);
    std::memcpy(out + pos + 20, blob.data(), blob.size());
    pos += 20 + blob.size();
  }
  *pSize = pos;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkMergePipelineCaches(VkDevice, VkPipelineCache dstCache, uint32_t srcCacheCount,
                                                            const VkPipelineCache* pSrcCaches) {
  PipelineCache* dst = fromHandle<PipelineCache>(dstCache);
  for (uint32_t i = 0; i < srcCacheCount; ++i) {
    PipelineCache* src = fromHandle<PipelineCache>(pSrcCaches[i]);
    if (src == dst) continue;
    std::scoped_lock lock(dst->mutex, src->mutex);
    // Every entry was checked when it entered its cache; checked again, so that nothing but
    // authentic entries ever reaches another cache.
    try {
      for (auto& [key, blob] : src->entries)
        if (!dst->entries.count(key) && jit::isAuthenticCacheEntry(key.data(), blob.data(), blob.size()))
          dst->entries.emplace(key, blob);
    } catch (const std::bad_alloc&) {
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  return VK_SUCCESS;
}

}  // extern "C"
