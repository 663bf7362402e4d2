// Running a compute dispatch: workgroups spread over the thread pool, each workgroup's
// batches run one after the other on one thread. A kernel with a workgroup barrier and more
// than one batch runs each batch as a fiber (Boost.Context): at the barrier the batch yields
// and the next one runs, so every batch reaches the barrier before any passes it.
#include <sys/mman.h>

#include <boost/context/fiber.hpp>
#include <memory>
#include <boost/context/stack_context.hpp>

#include <algorithm>
#include <cstring>
#include <deque>
#include <map>
#include <vector>

// Under valgrind, fiber stacks must be registered or every access to them is reported.
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#else
#define VALGRIND_STACK_REGISTER(start, end) 0u
#define VALGRIND_STACK_DEREGISTER(id) ((void)(id))
#endif

#include "sanitizer_fiber.h"
#include "tessera/spirv_jit.h"
#include "tessera/thread_pool.h"

namespace tessera::jit {
namespace {

namespace ctx = boost::context;

// Fiber stacks are reused across workgroups: mapping and unmapping one per batch per
// workgroup would cost more than the work itself. Stacks of the usual size are pooled; a
// kernel whose per-invocation arrays need more (ComputeProgram::stackBytes) gets bigger ones.
class StackPool {
 public:
  static constexpr size_t kStackSize = size_t(1) << 20;  // virtual; pages commit when touched
  static constexpr size_t kGuard = 4096;
  ~StackPool() {
    for (void* base : free_) release(base, kStackSize);
  }
  ctx::stack_context allocate(size_t size) {
    void* base = nullptr;
    if (size == kStackSize && !free_.empty()) {
      base = free_.back();
      free_.pop_back();
    } else {
      base = mmap(nullptr, size + kGuard, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (base == MAP_FAILED) throw std::bad_alloc();
      mprotect(base, kGuard, PROT_NONE);  // overflow faults instead of corrupting a neighbour
      valgrindIds_[base] = VALGRIND_STACK_REGISTER(static_cast<char*>(base) + kGuard, static_cast<char*>(base) + kGuard + size);
    }
    ctx::stack_context sc;
    sc.size = size;
    sc.sp = static_cast<char*>(base) + kGuard + size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) {
    void* base = static_cast<char*>(sc.sp) - sc.size - kGuard;
    if (sc.size == kStackSize) free_.push_back(base);
    else release(base, sc.size);
  }

 private:
  void release(void* base, size_t size) {
    VALGRIND_STACK_DEREGISTER(valgrindIds_[base]);
    valgrindIds_.erase(base);
    munmap(base, size + kGuard);
  }
  std::vector<void*> free_;
  std::map<void*, unsigned> valgrindIds_;  // valgrind's stack ids (0 when not under valgrind)
};

// The stack a batch of `program` needs: its per-invocation memory plus the usual allowance
// for everything else in its frames.
size_t stackSizeFor(const ComputeProgram& program) {
  const size_t allowance = size_t(256) << 10;
  size_t need = (size_t(program.stackBytes) + allowance + 4095) & ~size_t(4095);
  return std::max(StackPool::kStackSize, need);
}

// A Boost.Context StackAllocator over a StackPool; tells `sanitizer` where the stack is.
struct PooledStack {
  StackPool* pool;
  size_t size;
  FiberSanitizer* sanitizer;
  ctx::stack_context allocate() {
    ctx::stack_context sc = pool->allocate(size);
    sanitizer->bottom = static_cast<char*>(sc.sp) - sc.size;
    sanitizer->size = sc.size;
    return sc;
  }
  void deallocate(ctx::stack_context& sc) noexcept { pool->deallocate(sc); }
};

struct BarrierScheduler {
  std::vector<ctx::fiber> toScheduler;  // per batch: how to get back to the scheduler loop
  // Per batch, grown and never shrunk (a deque: its elements never move); empty structs
  // outside sanitizer builds.
  std::deque<FiberSanitizer> sanitizers;
  uint32_t current = 0;
  void prepare(uint32_t batches) {
    toScheduler.clear();
    toScheduler.resize(batches);
    while (sanitizers.size() < batches) sanitizers.emplace_back();
  }
};

// Coroutine frames of a resumable kernel's batches (translate_barrier_coroutine.cpp): one
// block per batch, 64-byte aligned, grown when a kernel needs more and reused by the next
// workgroup. A batch's block is only replaced when its ramp starts, so no live frame moves.
struct CoroutineFrames {
  struct Block {
    std::unique_ptr<uint8_t[]> memory;
    size_t size = 0;
  };
  std::vector<Block> blocks;
  void* frame(uint32_t batch, uint64_t bytes) {
    if (blocks.size() <= batch) blocks.resize(batch + 1);
    Block& b = blocks[batch];
    if (b.size < bytes) {
      b.memory = std::make_unique<uint8_t[]>(bytes + 64);
      b.size = bytes;
    }
    return reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(b.memory.get()) + 63) & ~uintptr_t(63));
  }
};

// Per worker thread: shared memory, fiber stacks and coroutine frames, kept between workgroups
// and dispatches.
struct ThreadState {
  std::vector<uint8_t> shared;
  StackPool stacks;
  BarrierScheduler scheduler;
  CoroutineFrames frames;
  std::vector<void*> handles;
};

// A resumable kernel's batches: each runs to its first barrier, then each unfinished one is
// resumed in turn, so every batch reaches a barrier before any passes it (the fibers' order).
// A batch that finishes early while others wait at a barrier (non-uniform barrier: undefined
// behaviour) just stops taking turns.
void runResumableBatches(const ComputeProgram& program, abi::WorkgroupState& wg, ThreadState& ts, uint32_t batches) {
  const abi::ResumableComputeBatchFn entry = program.resumableEntry;
  wg.scheduler = &ts.frames;
  ts.handles.resize(batches);
  using Resume = void (*)(void*);
  auto resumeOf = [](void* frame) { return *static_cast<Resume*>(frame); };
  bool any = false;
  for (uint32_t b = 0; b < batches; ++b) {
    ts.handles[b] = entry(&wg, b);
    any |= resumeOf(ts.handles[b]) != nullptr;
  }
  while (any) {
    any = false;
    for (uint32_t b = 0; b < batches; ++b) {
      void* frame = ts.handles[b];
      if (Resume resume = resumeOf(frame)) {
        resume(frame);
        any |= resumeOf(frame) != nullptr;
      }
    }
  }
}

ThreadState& threadState() {
  thread_local ThreadState state;
  return state;
}

void runWorkgroup(const ComputeProgram& program, abi::WorkgroupState& wg, ThreadState& ts) {
  const uint32_t batches = program.batchesPerWorkgroup();
  if (program.sharedMemoryBytes) {
    if (ts.shared.size() < program.sharedMemoryBytes + 64) ts.shared.resize(program.sharedMemoryBytes + 64);
    uint8_t* aligned = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(ts.shared.data()) + 63) & ~uintptr_t(63));
    if (program.zeroInitSharedMemory) std::memset(aligned, 0, program.sharedMemoryBytes);
    wg.sharedMemory = aligned;
  }
  // Batches run on the calling thread's stack unless they need to yield at barriers or their
  // per-invocation memory would not fit in it: then each runs on a fiber with a big enough stack.
  const size_t stackSize = stackSizeFor(program);
  if (program.resumable) {
    if (stackSize == StackPool::kStackSize) {
      runResumableBatches(program, wg, ts, batches);
    } else {
      // Frames hold only what lives across barriers: the rest still needs a big stack.
      FiberSanitizer sanitizer;
      ctx::fiber f(std::allocator_arg, PooledStack{&ts.stacks, stackSize, &sanitizer},
                   [&program, &wg, &ts, batches, &sanitizer](ctx::fiber&& back) {
                     sanitizer.arrived();
                     runResumableBatches(program, wg, ts, batches);
                     sanitizer.leave(true);
                     return std::move(back);
                   });
      sanitizer.enter();
      std::move(f).resume();
      sanitizer.returned();
    }
    return;
  }
  if (!program.usesBarrier || batches == 1) {
    wg.scheduler = nullptr;
    if (stackSize == StackPool::kStackSize) {
      for (uint32_t b = 0; b < batches; ++b) program.entry(&wg, b);
    } else {
      for (uint32_t b = 0; b < batches; ++b) {
        FiberSanitizer sanitizer;
        ctx::fiber f(std::allocator_arg, PooledStack{&ts.stacks, stackSize, &sanitizer},
                     [&program, &wg, b, &sanitizer](ctx::fiber&& back) {
                       sanitizer.arrived();
                       program.entry(&wg, b);
                       sanitizer.leave(true);
                       return std::move(back);
                     });
        sanitizer.enter();
        std::move(f).resume();
        sanitizer.returned();
      }
    }
    return;
  }
  BarrierScheduler& s = ts.scheduler;
  s.prepare(batches);
  wg.scheduler = &s;
  std::vector<ctx::fiber> fibers;
  fibers.reserve(batches);
  for (uint32_t b = 0; b < batches; ++b) {
    fibers.emplace_back(std::allocator_arg, PooledStack{&ts.stacks, stackSize, &s.sanitizers[b]},
                        [&program, &wg, &s, b](ctx::fiber&& back) {
                          s.sanitizers[b].arrived();
                          s.toScheduler[b] = std::move(back);
                          program.entry(&wg, b);
                          s.sanitizers[b].leave(true);
                          return std::move(s.toScheduler[b]);
                        });
  }
  // Round robin until every batch has returned. A batch that returns early while others wait
  // at a barrier (non-uniform barrier: undefined behaviour) just stops taking turns.
  for (bool any = true; any;) {
    any = false;
    for (uint32_t b = 0; b < batches; ++b) {
      if (!fibers[b]) continue;
      s.current = b;
      s.sanitizers[b].enter();
      fibers[b] = std::move(fibers[b]).resume();
      s.sanitizers[b].returned();
      any |= bool(fibers[b]);
    }
  }
}

}  // namespace

void runCompute(const ComputeProgram& program, const abi::BoundResources* resources, const uint32_t base[3],
                const uint32_t count[3]) {
  abi::ComputeDispatchState dispatch{};
  dispatch.resources = resources;
  for (int i = 0; i < 3; ++i) {
    dispatch.workgroupCount[i] = count[i];
    dispatch.baseWorkgroup[i] = base[i];
  }
  const uint64_t total = uint64_t(count[0]) * count[1] * count[2];
  if (total == 0) return;
  ThreadPool& pool = ThreadPool::shared();
  // A few chunks per thread balance uneven workgroups without much scheduling traffic.
  const uint64_t chunks = std::min<uint64_t>(total, uint64_t(pool.threadCount()) * 4);
  pool.parallelFor(size_t(chunks), [&](size_t chunk) {
    ThreadState& ts = threadState();
    uint64_t begin = total * chunk / chunks, end = total * (chunk + 1) / chunks;
    abi::WorkgroupState wg{};
    wg.dispatch = &dispatch;
    for (uint64_t i = begin; i < end; ++i) {
      // A cancelled device's work (its watchdog's deadline passed) takes no more workgroups.
      if (resources && abi::cancelRequested(resources->cancel)) break;
      uint64_t x = i % count[0], y = (i / count[0]) % count[1], z = i / (uint64_t(count[0]) * count[1]);
      wg.workgroupId[0] = uint32_t(x) + base[0];
      wg.workgroupId[1] = uint32_t(y) + base[1];
      wg.workgroupId[2] = uint32_t(z) + base[2];
      runWorkgroup(program, wg, ts);
    }
  });
}

void runTessControlPatch(abi::TessControlBatchFn fn, uint32_t simdWidth, bool usesBarrier, uint64_t stackBytes,
                         abi::TessControlBatch* batch) {
  // The patch's invocations as a workgroup: the same fibers and stacks (the kernel's barrier
  // calls tessera_rt_barrier with the batch, whose scheduler field is the workgroup's).
  ThreadState& ts = threadState();
  const uint32_t w = std::max(simdWidth, 1u);
  const uint32_t batches = (batch->outputVertices + w - 1) / w;
  const size_t allowance = size_t(256) << 10;
  const size_t stackSize = std::max(StackPool::kStackSize, (size_t(stackBytes) + allowance + 4095) & ~size_t(4095));
  batch->scheduler = nullptr;
  if (!usesBarrier || batches <= 1) {
    for (uint32_t b = 0; b < batches; ++b) {
      if (stackSize == StackPool::kStackSize && stackBytes < allowance) {
        fn(batch, b);
        continue;
      }
      FiberSanitizer sanitizer;
      ctx::fiber f(std::allocator_arg, PooledStack{&ts.stacks, stackSize, &sanitizer},
                   [fn, batch, b, &sanitizer](ctx::fiber&& back) {
                     sanitizer.arrived();
                     fn(batch, b);
                     sanitizer.leave(true);
                     return std::move(back);
                   });
      sanitizer.enter();
      std::move(f).resume();
      sanitizer.returned();
    }
    return;
  }
  BarrierScheduler& s = ts.scheduler;
  s.prepare(batches);
  batch->scheduler = &s;
  std::vector<ctx::fiber> fibers;
  fibers.reserve(batches);
  for (uint32_t b = 0; b < batches; ++b)
    fibers.emplace_back(std::allocator_arg, PooledStack{&ts.stacks, stackSize, &s.sanitizers[b]},
                        [fn, batch, &s, b](ctx::fiber&& back) {
                          s.sanitizers[b].arrived();
                          s.toScheduler[b] = std::move(back);
                          fn(batch, b);
                          s.sanitizers[b].leave(true);
                          return std::move(s.toScheduler[b]);
                        });
  for (bool any = true; any;) {
    any = false;
    for (uint32_t b = 0; b < batches; ++b) {
      if (!fibers[b]) continue;
      s.current = b;
      s.sanitizers[b].enter();
      fibers[b] = std::move(fibers[b]).resume();
      s.sanitizers[b].returned();
      any |= bool(fibers[b]);
    }
  }
  batch->scheduler = nullptr;
}

}  // namespace tessera::jit

// Called by kernels at a workgroup control barrier.
extern "C" void tessera_rt_barrier(tessera::abi::WorkgroupState* wg) {
  auto* s = static_cast<tessera::jit::BarrierScheduler*>(wg->scheduler);
  if (!s) return;  // a single batch: every invocation of the workgroup is already here
  uint32_t b = s->current;
  s->sanitizers[b].leave(false);
  s->toScheduler[b] = std::move(s->toScheduler[b]).resume();
  s->sanitizers[b].arrived();
}

// Called by resumable kernels' ramp functions for their coroutine frame.
extern "C" void* tessera_rt_coroutine_frame(tessera::abi::WorkgroupState* wg, uint64_t bytes, uint32_t batch) {
  return static_cast<tessera::jit::CoroutineFrames*>(wg->scheduler)->frame(batch, bytes);
}
