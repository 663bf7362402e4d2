// Fences, semaphores (binary and timeline) and events: host-visible state the queue's worker
// thread (the "device") and the host share. Fences and events: a mutex and a condition
// variable; semaphores: atomics and a futex (their state may live in memory shared with other
// devices or processes).
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vulkan/vulkan_core.h>

#include "semaphore_payload.h"

namespace tessera {

// Converts a Vulkan timeout in nanoseconds to an absolute deadline (UINT64_MAX: forever).
inline std::chrono::steady_clock::time_point deadlineFor(uint64_t timeoutNs) {
  auto now = std::chrono::steady_clock::now();
  if (timeoutNs > uint64_t(std::chrono::nanoseconds::max().count() / 2)) return std::chrono::steady_clock::time_point::max();
  return now + std::chrono::nanoseconds(timeoutNs);
}

// Fences: a SemaphorePayload whose value is 1 while signaled, the object's own or, for opaque-fd
// export and import (VK_KHR_external_fence_fd, icd/external_fence.cpp), a shared one.
// A temporary import lasts until the fence is next reset.
struct Fence : PayloadSlots {
  void signal();
  void reset();
  bool signaled() { return active().value.load(std::memory_order_acquire) != 0; }
  // true when signaled before the deadline
  bool wait(std::chrono::steady_clock::time_point deadline);
};

// Binary and timeline semaphores; state in a SemaphorePayload (semaphore_payload.h): the
// object's own, or a shared one for opaque-fd export and import (icd/external_semaphore.cpp).
// The value is the timeline's, or 1 while a binary semaphore is signaled; a temporary import
// (binary semaphores only) lasts until the next wait completes.
struct Semaphore : PayloadSlots {
  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;

  void signal(uint64_t newValue);  // binary: newValue ignored, sets signaled
  // Timeline: waits until value >= target. Binary: waits until signaled and unsignals.
  bool wait(uint64_t target, std::chrono::steady_clock::time_point deadline);
  uint64_t current();
};

struct Event {
  std::mutex mutex;
  std::condition_variable cv;
  bool set = false;
  bool deviceOnly = false;  // VK_EVENT_CREATE_DEVICE_ONLY_BIT

  void signal(bool newState);
  // Blocks until the event is set or `lost` turns true (the watchdog cancelled the work: a
  // host that never sets the event must not hold the queue forever).
  void waitSet(const std::atomic<bool>& lost);
};

}  // namespace tessera
