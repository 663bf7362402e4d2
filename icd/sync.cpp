#include "sync.h"

#include <vector>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "queue.h"

namespace tessera {

void Fence::signal() {
  SemaphorePayload& p = active();
  p.value.store(1, std::memory_order_release);
  wakeWaiters(p);
}

void Fence::reset() {
  // A reset ends a temporary import: the permanent payload, unsignaled, is the fence again.
  releaseSharedPayload(temporary);
  active().value.store(0, std::memory_order_release);
}

bool Fence::wait(std::chrono::steady_clock::time_point deadline) {
  SemaphorePayload& p = active();
  for (;;) {
    const uint32_t seen = p.generation.load(std::memory_order_acquire);
    if (p.value.load(std::memory_order_acquire) != 0) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    sleepUntilChanged(p, seen, deadline);
  }
}

void Semaphore::signal(uint64_t newValue) {
  SemaphorePayload& p = active();
  p.value.store(type == VK_SEMAPHORE_TYPE_TIMELINE ? newValue : 1, std::memory_order_release);
  wakeWaiters(p);
}

bool Semaphore::wait(uint64_t target, std::chrono::steady_clock::time_point deadline) {
  SemaphorePayload& p = active();
  for (;;) {
    // The generation is read before the value, so a signal between the two changes it and the
    // sleep below returns at once.
    const uint32_t seen = p.generation.load(std::memory_order_acquire);
    if (type == VK_SEMAPHORE_TYPE_TIMELINE) {
      if (p.value.load(std::memory_order_acquire) >= target) return true;
    } else {
      uint64_t signaled = 1;
      if (p.value.compare_exchange_strong(signaled, 0, std::memory_order_acq_rel)) {
        // A wait ends a temporary import's payload (binary semaphores only have them).
        releaseSharedPayload(temporary);
        return true;
      }
    }
    if (std::chrono::steady_clock::now() >= deadline) return false;
    sleepUntilChanged(p, seen, deadline);
  }
}

uint64_t Semaphore::current() { return active().value.load(std::memory_order_acquire); }

void Event::signal(bool newState) {
  std::lock_guard lock(mutex);
  set = newState;
  cv.notify_all();
}

void Event::waitSet(const std::atomic<bool>& lost) {
  std::unique_lock lock(mutex);
  while (!cv.wait_for(lock, std::chrono::milliseconds(20), [&] { return set; }))
    if (lost.load()) return;
}

}  // namespace tessera

using namespace tessera;

namespace {
const VkAllocationCallbacks* alloc(VkDevice device, const VkAllocationCallbacks* own) {
  return pickAllocator(own, fromHandle<Device>(device)->allocator());
}
}  // namespace

extern "C" {

// --- Fences ---------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateFence(VkDevice device, const VkFenceCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkFence* pFence) {
  Fence* f = hostNew<Fence>(alloc(device, pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!f) return VK_ERROR_OUT_OF_HOST_MEMORY;
  const uint64_t signaled = (pCreateInfo->flags & VK_FENCE_CREATE_SIGNALED_BIT) ? 1 : 0;
  f->local.value.store(signaled);
  for (auto* p = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); p; p = p->pNext)
    if (p->sType == VK_STRUCTURE_TYPE_EXPORT_FENCE_CREATE_INFO &&
        reinterpret_cast<const VkExportFenceCreateInfo*>(p)->handleTypes) {
      // Exportable: the state lives in a shared payload from the start.
      f->permanent = createSharedPayload(signaled);
      if (!f->permanent.payload) {
        hostDelete(alloc(device, pAllocator), f);
        return VK_ERROR_OUT_OF_HOST_MEMORY;
      }
    }
  *pFence = toHandle<VkFence>(f);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyFence(VkDevice device, VkFence fence, const VkAllocationCallbacks* pAllocator) {
  hostDelete(alloc(device, pAllocator), fromHandle<Fence>(fence));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkResetFences(VkDevice, uint32_t count, const VkFence* pFences) {
  for (uint32_t i = 0; i < count; ++i) fromHandle<Fence>(pFences[i])->reset();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetFenceStatus(VkDevice device, VkFence fence) {
  if (fromHandle<Device>(device)->lost.load()) return VK_ERROR_DEVICE_LOST;
  return fromHandle<Fence>(fence)->signaled() ? VK_SUCCESS : VK_NOT_READY;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkWaitForFences(VkDevice device, uint32_t count, const VkFence* pFences,
                                                      VkBool32 waitAll, uint64_t timeout) {
  // A lost device signals every fence it was given, so the waits below end; they then say so.
  const std::atomic<bool>& lost = fromHandle<Device>(device)->lost;
  auto deadline = deadlineFor(timeout);
  if (waitAll || count == 1) {
    for (uint32_t i = 0; i < count; ++i)
      if (!fromHandle<Fence>(pFences[i])->wait(deadline)) return lost.load() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
    return lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
  }
  // Any of several: poll with short sleeps. Fences are signaled by one queue thread, so a
  // shared condition variable would buy little over this.
  for (;;) {
    for (uint32_t i = 0; i < count; ++i)
      if (fromHandle<Fence>(pFences[i])->wait(std::chrono::steady_clock::now()))
        return lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
    if (lost.load()) return VK_ERROR_DEVICE_LOST;
    if (std::chrono::steady_clock::now() >= deadline) return VK_TIMEOUT;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// --- Semaphores -----------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateSemaphore(VkDevice device, const VkSemaphoreCreateInfo* pCreateInfo,
                                                        const VkAllocationCallbacks* pAllocator,
                                                        VkSemaphore* pSemaphore) {
  Semaphore* s = hostNew<Semaphore>(alloc(device, pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!s) return VK_ERROR_OUT_OF_HOST_MEMORY;
  bool exportable = false;
  for (auto* p = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); p; p = p->pNext) {
    if (p->sType == VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO) {
      auto* t = reinterpret_cast<const VkSemaphoreTypeCreateInfo*>(p);
      s->type = t->semaphoreType;
      if (s->type == VK_SEMAPHORE_TYPE_TIMELINE) s->local.value.store(t->initialValue);
    }
    if (p->sType == VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO)
      exportable = reinterpret_cast<const VkExportSemaphoreCreateInfo*>(p)->handleTypes != 0;
  }
  // An exportable semaphore keeps its state in a shared payload from the start, so every fd it
  // is exported as names the same state (the only handle type offered is OPAQUE_FD).
  if (exportable) {
    s->permanent = createSharedPayload(s->local.value.load());
    if (!s->permanent.payload) {
      hostDelete(alloc(device, pAllocator), s);
      return VK_ERROR_OUT_OF_HOST_MEMORY;
    }
  }
  *pSemaphore = toHandle<VkSemaphore>(s);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroySemaphore(VkDevice device, VkSemaphore semaphore,
                                                     const VkAllocationCallbacks* pAllocator) {
  hostDelete(alloc(device, pAllocator), fromHandle<Semaphore>(semaphore));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetSemaphoreCounterValue(VkDevice, VkSemaphore semaphore, uint64_t* pValue) {
  *pValue = fromHandle<Semaphore>(semaphore)->current();
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkSignalSemaphore(VkDevice, const VkSemaphoreSignalInfo* pInfo) {
  fromHandle<Semaphore>(pInfo->semaphore)->signal(pInfo->value);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkWaitSemaphores(VkDevice device, const VkSemaphoreWaitInfo* pInfo,
                                                       uint64_t timeout) {
  const std::atomic<bool>& lost = fromHandle<Device>(device)->lost;
  auto deadline = deadlineFor(timeout);
  const bool any = pInfo->flags & VK_SEMAPHORE_WAIT_ANY_BIT;
  if (!any || pInfo->semaphoreCount == 1) {
    for (uint32_t i = 0; i < pInfo->semaphoreCount; ++i)
      if (!fromHandle<Semaphore>(pInfo->pSemaphores[i])->wait(pInfo->pValues[i], deadline))
        return lost.load() ? VK_ERROR_DEVICE_LOST : VK_TIMEOUT;
    return lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
  }
  for (;;) {
    for (uint32_t i = 0; i < pInfo->semaphoreCount; ++i)
      if (fromHandle<Semaphore>(pInfo->pSemaphores[i])->current() >= pInfo->pValues[i])
        return lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
    if (lost.load()) return VK_ERROR_DEVICE_LOST;
    if (std::chrono::steady_clock::now() >= deadline) return VK_TIMEOUT;
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
}

// --- Events ---------------------------------------------------------------------------------

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateEvent(VkDevice device, const VkEventCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkEvent* pEvent) {
  Event* e = hostNew<Event>(alloc(device, pAllocator), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!e) return VK_ERROR_OUT_OF_HOST_MEMORY;
  e->deviceOnly = pCreateInfo->flags & VK_EVENT_CREATE_DEVICE_ONLY_BIT;
  *pEvent = toHandle<VkEvent>(e);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyEvent(VkDevice device, VkEvent event, const VkAllocationCallbacks* pAllocator) {
  hostDelete(alloc(device, pAllocator), fromHandle<Event>(event));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetEventStatus(VkDevice, VkEvent event) {
  Event* e = fromHandle<Event>(event);
  std::lock_guard lock(e->mutex);
  return e->set ? VK_EVENT_SET : VK_EVENT_RESET;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkSetEvent(VkDevice, VkEvent event) {
  fromHandle<Event>(event)->signal(true);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkResetEvent(VkDevice, VkEvent event) {
  fromHandle<Event>(event)->signal(false);
  return VK_SUCCESS;
}

}  // extern "C"
