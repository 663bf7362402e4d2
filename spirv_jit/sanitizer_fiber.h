// Boost.Context stack switches announced to AddressSanitizer and ThreadSanitizer
// (TESSERA_SANITIZE builds; no code otherwise). Without this, ASan takes a fiber's frames for
// the thread's and leaves stale poison on reused fiber stacks after an exception, and TSan's
// shadow call stack is corrupted by the first switch. The protocol (sanitizer/
// common_interface_defs.h, tsan_interface.h): just before a switch the side leaving says where
// it is going; just after, the side arriving says it arrived and learns where it came from.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#define TESSERA_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TESSERA_FIBER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define TESSERA_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TESSERA_FIBER_TSAN 1
#endif
#endif

#if TESSERA_FIBER_ASAN
#include <sanitizer/common_interface_defs.h>
#endif
#if TESSERA_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace tessera::jit {

// One fiber as the sanitizers see it. `bottom`/`size`: its stack (set by the stack allocator
// before the first switch); the resumer's side is learnt at each arrival.
struct FiberSanitizer {
  const void* bottom = nullptr;
  size_t size = 0;

  FiberSanitizer() {
#if TESSERA_FIBER_TSAN
    tsanFiber = __tsan_create_fiber(0);
#endif
  }
  ~FiberSanitizer() {
#if TESSERA_FIBER_TSAN
    __tsan_destroy_fiber(tsanFiber);
#endif
  }
  FiberSanitizer(const FiberSanitizer&) = delete;
  FiberSanitizer& operator=(const FiberSanitizer&) = delete;

  // Resumer, right before resuming the fiber.
  void enter() {
#if TESSERA_FIBER_ASAN
    __sanitizer_start_switch_fiber(&resumerFakeStack, bottom, size);
#endif
#if TESSERA_FIBER_TSAN
    tsanResumer = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(tsanFiber, 0);
#endif
  }
  // Resumer, right after the fiber switched back.
  void returned() {
#if TESSERA_FIBER_ASAN
    __sanitizer_finish_switch_fiber(resumerFakeStack, nullptr, nullptr);
#endif
  }
  // Fiber, first thing at its start and after every resume back into it.
  void arrived() {
#if TESSERA_FIBER_ASAN
    __sanitizer_finish_switch_fiber(fiberFakeStack, &resumerBottom, &resumerSize);
#endif
  }
  // Fiber, right before switching back to its resumer; `finished`: it will not be resumed.
  void leave(bool finished) {
#if TESSERA_FIBER_ASAN
    __sanitizer_start_switch_fiber(finished ? nullptr : &fiberFakeStack, resumerBottom, resumerSize);
#endif
#if TESSERA_FIBER_TSAN
    __tsan_switch_to_fiber(tsanResumer, 0);
#endif
    (void)finished;
  }

 private:
  [[maybe_unused]] void* resumerFakeStack = nullptr;
  [[maybe_unused]] void* fiberFakeStack = nullptr;
  [[maybe_unused]] const void* resumerBottom = nullptr;
  [[maybe_unused]] size_t resumerSize = 0;
  [[maybe_unused]] void* tsanFiber = nullptr;
  [[maybe_unused]] void* tsanResumer = nullptr;
};

}  // namespace tessera::jit
