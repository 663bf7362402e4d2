// Fences, semaphores (binary and timeline) and events: host-visible state guarded by a mutex
// and a condition variable, since the "device" is the queue's worker thread.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vulkan/vulkan_core.h>

namespace tessera {

// Converts a Vulkan timeout in nanoseconds to an absolute deadline (UINT64_MAX: forever).
inline std::chrono::steady_clock::time_point deadlineFor(uint64_t timeoutNs) {
  auto now = std::chrono::steady_clock::now();
  if (timeoutNs > uint64_t(std::chrono::nanoseconds::max().count() / 2)) return std::chrono::steady_clock::time_point::max();
  return now + std::chrono::nanoseconds(timeoutNs);
}

struct Fence {
  std::mutex mutex;
  std::condition_variable cv;
  bool signaled = false;

  void signal();
  void reset();
  // true when signaled before the deadline
  bool wait(std::chrono::steady_clock::time_point deadline);
};

struct Semaphore {
  VkSemaphoreType type = VK_SEMAPHORE_TYPE_BINARY;
  std::mutex mutex;
  std::condition_variable cv;
  uint64_t value = 0;  // timeline value; for binary semaphores 1 = signaled

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
