// Where a semaphore's state lives: a value (binary: 0 or 1; timeline: the counter) and a
// generation word that every signal bumps, which waiters sleep on with a futex. A semaphore
// that is neither exportable nor imported keeps it in its own object; one created exportable as
// an opaque fd (VK_KHR_external_semaphore_fd) or given a payload by an import keeps it in a page
// of a sealed memfd mapped shared, so that every semaphore importing that fd (another device, another
// instance, another process) reads and signals the same state.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace tessera {

struct SemaphorePayload {
  std::atomic<uint64_t> value{0};
  std::atomic<uint32_t> generation{0};
  uint32_t reserved = 0;
  uint64_t magic = 0;  // kSharedSemaphoreMagic in a shared payload: what imports check
};
static_assert(std::atomic<uint64_t>::is_always_lock_free && std::atomic<uint32_t>::is_always_lock_free,
              "a shared payload is read by other processes: its atomics must not hide a lock");

// Wakes every waiter of `p` after its value changed.
void wakeWaiters(SemaphorePayload& p);
// Sleeps until `p`'s generation differs from `seen`, a wake arrives, or the deadline passes
// (time_point::max(): no deadline); may return early (callers check their condition again).
void sleepUntilChanged(SemaphorePayload& p, uint32_t seen, std::chrono::steady_clock::time_point deadline);

// A payload in a shared memfd page: `fd` owns the memfd, `payload` its mapping.
struct SharedPayload {
  int fd = -1;
  SemaphorePayload* payload = nullptr;
};
// A new shared payload holding `initialValue`; {-1, nullptr} when memfd or mmap fails.
SharedPayload createSharedPayload(uint64_t initialValue);
// Maps an opaque fd a semaphore was exported as; takes ownership of `fd` on success only.
// {-1, nullptr} when `fd` is not such a payload (another kind of fd, a memory payload, a
// truncated or unsealed file).
SharedPayload importSharedPayload(int fd);
void releaseSharedPayload(SharedPayload& shared);

// The payloads of an object whose state may be shared (semaphores and fences, icd/sync.h): its
// own, a permanent shared one (created exportable, or permanently imported), and a temporary
// imported one that the object drops again at its next wait (binary semaphores) or reset
// (fences): "Importing Semaphore Payloads", "Importing Fence Payloads".
struct PayloadSlots {
  SemaphorePayload local;
  SharedPayload permanent;
  SharedPayload temporary;

  PayloadSlots() = default;
  PayloadSlots(const PayloadSlots&) = delete;
  PayloadSlots& operator=(const PayloadSlots&) = delete;
  ~PayloadSlots() {
    releaseSharedPayload(temporary);
    releaseSharedPayload(permanent);
  }

  SemaphorePayload& active() {
    return temporary.payload ? *temporary.payload : permanent.payload ? *permanent.payload : local;
  }
  // The shared payload an export names (fd -1: the object was not created exportable).
  const SharedPayload& exported() const { return temporary.payload ? temporary : permanent; }
  // Takes ownership of an imported payload, temporarily or in place of the permanent one.
  void adopt(SharedPayload imported, bool temporarily) {
    releaseSharedPayload(temporary);
    if (temporarily) {
      temporary = imported;
    } else {
      releaseSharedPayload(permanent);
      permanent = imported;
    }
  }
};

}  // namespace tessera
