#include "probe.h"

#include <immintrin.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "json.h"

namespace bench {
namespace {

using Clock = std::chrono::steady_clock;

// Runs body(thread) on `threads` threads released together; returns the seconds from the
// release to the last thread's end (thread start-up is not counted).
template <typename F>
double timeParallel(int threads, F&& body) {
  std::atomic<int> ready{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      body(t);
    });
  while (ready.load() < threads) std::this_thread::yield();
  auto t0 = Clock::now();
  go.store(true, std::memory_order_release);
  for (auto& th : pool) th.join();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Slice {
  size_t begin, end;
};
Slice slice(size_t bytes, int threads, int t) {
  size_t per = (bytes / size_t(threads) + 4095) & ~size_t(4095);
  size_t b = std::min(bytes, per * size_t(t));
  return {b, std::min(bytes, b + per)};
}

// 12 independent FMA chains hide the FMA latency on every current x86 core.
#define PROBE_FMA_KERNEL(NAME, TARGET, VEC, SET1, FMADD, ADD, STORE, LANES)       \
  __attribute__((target(TARGET))) float NAME(long iters, float seed) {            \
    VEC a0 = SET1(seed), a1 = SET1(seed + 1), a2 = SET1(seed + 2), a3 = SET1(seed + 3); \
    VEC a4 = SET1(seed + 4), a5 = SET1(seed + 5), a6 = SET1(seed + 6), a7 = SET1(seed + 7); \
    VEC a8 = SET1(seed + 8), a9 = SET1(seed + 9), a10 = SET1(seed + 10), a11 = SET1(seed + 11); \
    const VEC m = SET1(0.99999994f), c = SET1(1e-7f);                             \
    for (long i = 0; i < iters; ++i) {                                            \
      a0 = FMADD(a0, m, c); a1 = FMADD(a1, m, c); a2 = FMADD(a2, m, c);           \
      a3 = FMADD(a3, m, c); a4 = FMADD(a4, m, c); a5 = FMADD(a5, m, c);           \
      a6 = FMADD(a6, m, c); a7 = FMADD(a7, m, c); a8 = FMADD(a8, m, c);           \
      a9 = FMADD(a9, m, c); a10 = FMADD(a10, m, c); a11 = FMADD(a11, m, c);       \
    }                                                                             \
    VEC s = ADD(ADD(ADD(a0, a1), ADD(a2, a3)), ADD(ADD(a4, a5), ADD(a6, a7)));    \
    s = ADD(s, ADD(ADD(a8, a9), ADD(a10, a11)));                                  \
    alignas(64) float out[LANES];                                                 \
    STORE(out, s);                                                                \
    float r = 0;                                                                  \
    for (float v : out) r += v;                                                   \
    return r;                                                                     \
  }

PROBE_FMA_KERNEL(fma128, "fma", __m128, _mm_set1_ps, _mm_fmadd_ps, _mm_add_ps, _mm_store_ps, 4)
PROBE_FMA_KERNEL(fma256, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, _mm256_add_ps, _mm256_store_ps, 8)
PROBE_FMA_KERNEL(fma512, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, _mm512_add_ps, _mm512_store_ps, 16)

using FmaKernel = float (*)(long, float);

double fmaFlops(int threads, FmaKernel kernel, int lanes) {
  std::atomic<float> sink{0};
  auto runFor = [&](long iters) {
    return timeParallel(threads, [&](int t) { sink.store(kernel(iters, float(t))); });
  };
  // Calibrate to ~25 ms per trial, then keep the best of three trials.
  long iters = 20000;
  double s = runFor(iters);
  iters = std::max<long>(iters, long(double(iters) * 0.025 / std::max(s, 1e-6)));
  double best = 1e30;
  for (int trial = 0; trial < 3; ++trial) best = std::min(best, runFor(iters));
  return 2.0 * lanes * 12.0 * double(iters) * threads / best;
}

}  // namespace

std::string runProbe(int threads, size_t bytes) {
  auto start = Clock::now();
  threads = std::max(1, threads);
  bytes &= ~size_t(4095);
  auto* a = static_cast<uint8_t*>(std::aligned_alloc(4096, bytes));
  auto* b = static_cast<uint8_t*>(std::aligned_alloc(4096, bytes));
  // Touch every page first, on the threads that will use it.
  timeParallel(threads, [&](int t) {
    Slice s = slice(bytes, threads, t);
    std::memset(a + s.begin, 1, s.end - s.begin);
    std::memset(b + s.begin, 2, s.end - s.begin);
  });
  // Best of five: on a busy machine the best trial is the one least disturbed. Never zeros:
  // on some machines (this project's CI VM) writing zero bytes runs at 2-3x the speed of any
  // other value (41-82 vs 25 GB/s for the same memset), and no workload writes only zeros, so a
  // zero trial made the "limit" unreachable (the first version wrote the trial number, 0 first).
  double memsetBest = 1e30, memcpyBest = 1e30;
  for (int trial = 0; trial < 5; ++trial) {
    memsetBest = std::min(memsetBest, timeParallel(threads, [&](int t) {
      Slice s = slice(bytes, threads, t);
      std::memset(a + s.begin, 0xA5 + trial, s.end - s.begin);
    }));
    memcpyBest = std::min(memcpyBest, timeParallel(threads, [&](int t) {
      Slice s = slice(bytes, threads, t);
      std::memcpy(b + s.begin, a + s.begin, s.end - s.begin);
    }));
  }
  std::free(a);
  std::free(b);

  JsonObject fma;
  __builtin_cpu_init();
  if (__builtin_cpu_supports("fma")) fma.num("128", fmaFlops(threads, fma128, 4));
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) fma.num("256", fmaFlops(threads, fma256, 8));
  if (__builtin_cpu_supports("avx512f")) fma.num("512", fmaFlops(threads, fma512, 16));

  JsonObject o;
  o.str("probe", "roofline")
      .integer("threads", threads)
      .integer("bytes", int64_t(bytes))
      .num("memset_bytes_per_s", double(bytes) / memsetBest)
      .num("memcpy_bytes_per_s", double(bytes) / memcpyBest)
      .object("fma_flops_per_s", fma)
      .boolean("avx512", __builtin_cpu_supports("avx512f"))
      .num("seconds", std::chrono::duration<double>(Clock::now() - start).count());
  return o.str();
}

}  // namespace bench
