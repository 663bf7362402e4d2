#include "deep_stack.h"

#include <sys/mman.h>

#include <boost/context/fiber.hpp>
#include <boost/context/stack_context.hpp>

#include <new>

#include "sanitizer_fiber.h"

// Under valgrind a stack it was not told about makes every access to it a report.
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(start, end) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

namespace tessera::jit {
namespace {

namespace ctx = boost::context;

constexpr size_t kGuardBytes = 64 << 10;

// The stack of this thread's compilations: address space reserved without swap
// (MAP_NORESERVE) with a guard region below it, kept for the thread's next compilation (mapping
// it afresh and faulting its pages in again cost about a millisecond per pipeline).
class ThreadStack {
 public:
  ~ThreadStack() {
    if (!base_) return;
    VALGRIND_STACK_DEREGISTER(valgrindId_);
    munmap(base_, kDeepStackBytes + kGuardBytes);
  }
  char* top() {
    if (!base_) {
      void* base = mmap(nullptr, kDeepStackBytes + kGuardBytes, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      mprotect(base, kGuardBytes, PROT_NONE);
      base_ = static_cast<char*>(base);
      valgrindId_ = VALGRIND_STACK_REGISTER(base_ + kGuardBytes, base_ + kGuardBytes + kDeepStackBytes);
    }
    return base_ + kGuardBytes + kDeepStackBytes;
  }
  bool inUse = false;  // a compilation nested in another (not done today) gets a stack of its own

 private:
  char* base_ = nullptr;
  unsigned valgrindId_ = 0;  // valgrind's stack id (0 when not under valgrind)
};

// A Boost.Context stack allocator handing out the thread's stack.
struct ThreadStackAllocator {
  ThreadStack* stack;
  FiberSanitizer* sanitizer;  // told where the stack is
  ctx::stack_context allocate() {
    ctx::stack_context sc;
    sc.size = kDeepStackBytes;
    sc.sp = stack->top();
    sanitizer->bottom = static_cast<char*>(sc.sp) - sc.size;
    sanitizer->size = sc.size;
    stack->inUse = true;
    return sc;
  }
  void deallocate(ctx::stack_context&) noexcept { stack->inUse = false; }
};

}  // namespace

void runOnDeepStack(const std::function<void()>& work) {
  thread_local ThreadStack threadStack;
  ThreadStack nested;
  ThreadStack* stack = threadStack.inUse ? &nested : &threadStack;
  std::exception_ptr failure;
  FiberSanitizer sanitizer;
  ctx::fiber fiber(std::allocator_arg, ThreadStackAllocator{stack, &sanitizer}, [&](ctx::fiber&& back) {
    sanitizer.arrived();
    // An exception must not unwind past the fiber's first frame: carried over instead.
    try {
      work();
    } catch (...) {
      failure = std::current_exception();
    }
    sanitizer.leave(true);
    return std::move(back);
  });
  sanitizer.enter();
  std::move(fiber).resume();
  sanitizer.returned();
  if (failure) std::rethrow_exception(failure);
}

}  // namespace tessera::jit
