// Host memory for driver objects through the application's VkAllocationCallbacks when it gives
// them (spec: "Memory Allocation"), the C heap otherwise. Failure is reported as nullptr so
// every create path can return VK_ERROR_OUT_OF_HOST_MEMORY.
#pragma once

#include <cstdlib>
#include <new>
#include <utility>
#include <vulkan/vulkan_core.h>

namespace tessera {

inline void* hostAlloc(const VkAllocationCallbacks* cb, size_t size, size_t align,
                       VkSystemAllocationScope scope) {
  if (cb) return cb->pfnAllocation(cb->pUserData, size, align, scope);
  void* p = nullptr;
  return posix_memalign(&p, align < sizeof(void*) ? sizeof(void*) : align, size) ? nullptr : p;
}

inline void hostFree(const VkAllocationCallbacks* cb, void* p) {
  if (!p) return;
  if (cb) cb->pfnFree(cb->pUserData, p);
  else std::free(p);
}

// Picks the object's own callbacks, falling back to its parent's (spec: the parent's
// allocator is used when pAllocator is NULL).
inline const VkAllocationCallbacks* pickAllocator(const VkAllocationCallbacks* own,
                                                  const VkAllocationCallbacks* parent) {
  return own ? own : parent;
}

template <typename T, typename... Args>
T* hostNew(const VkAllocationCallbacks* cb, VkSystemAllocationScope scope, Args&&... args) {
  void* p = hostAlloc(cb, sizeof(T), alignof(T), scope);
  if (!p) return nullptr;
  return new (p) T(std::forward<Args>(args)...);
}

template <typename T>
void hostDelete(const VkAllocationCallbacks* cb, T* obj) {
  if (!obj) return;
  obj->~T();
  hostFree(cb, obj);
}

}  // namespace tessera
