#include "semaphore_payload.h"

#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <climits>
#include <ctime>
#include <new>

namespace tessera {
namespace {

// "TESSSEM1": marks a page as a semaphore payload, so that an import of a memory fd (also a
// memfd) or of any other file is refused rather than read as a semaphore.
constexpr uint64_t kSharedSemaphoreMagic = 0x314d455353455354ull;
constexpr size_t kPayloadBytes = 4096;
constexpr int kSeals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;

// The futex word is shared between processes, so the calls are not FUTEX_PRIVATE_FLAG.
long futex(std::atomic<uint32_t>* word, int op, uint32_t value, const timespec* timeout) {
  return syscall(SYS_futex, reinterpret_cast<uint32_t*>(word), op, value, timeout, nullptr, FUTEX_BITSET_MATCH_ANY);
}

}  // namespace

void wakeWaiters(SemaphorePayload& p) {
  p.generation.fetch_add(1, std::memory_order_acq_rel);
  futex(&p.generation, FUTEX_WAKE_BITSET, INT_MAX, nullptr);
}

void sleepUntilChanged(SemaphorePayload& p, uint32_t seen, std::chrono::steady_clock::time_point deadline) {
  if (deadline == std::chrono::steady_clock::time_point::max()) {
    futex(&p.generation, FUTEX_WAIT_BITSET, seen, nullptr);
    return;
  }
  // FUTEX_WAIT_BITSET takes an absolute CLOCK_MONOTONIC time, the clock steady_clock reads.
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(deadline.time_since_epoch()).count();
  if (ns <= 0) return;
  const timespec at{time_t(ns / 1000000000), long(ns % 1000000000)};
  futex(&p.generation, FUTEX_WAIT_BITSET, seen, &at);
}

SharedPayload createSharedPayload(uint64_t initialValue) {
  const int fd = memfd_create("tessera-semaphore", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return {};
  void* map = MAP_FAILED;
  if (ftruncate(fd, kPayloadBytes) == 0 && fcntl(fd, F_ADD_SEALS, kSeals) == 0)
    map = mmap(nullptr, kPayloadBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) {
    close(fd);
    return {};
  }
  auto* payload = new (map) SemaphorePayload;
  payload->value.store(initialValue);
  payload->magic = kSharedSemaphoreMagic;
  return {fd, payload};
}

SharedPayload importSharedPayload(int fd) {
  struct stat st {};
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size != off_t(kPayloadBytes) ||
      fcntl(fd, F_GET_SEALS) != kSeals)
    return {};
  void* map = mmap(nullptr, kPayloadBytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (map == MAP_FAILED) return {};
  auto* payload = static_cast<SemaphorePayload*>(map);
  if (payload->magic != kSharedSemaphoreMagic) {
    munmap(map, kPayloadBytes);
    return {};
  }
  return {fd, payload};
}

void releaseSharedPayload(SharedPayload& shared) {
  if (shared.payload) munmap(shared.payload, kPayloadBytes);
  if (shared.fd >= 0) close(shared.fd);
  shared = {};
}

}  // namespace tessera
