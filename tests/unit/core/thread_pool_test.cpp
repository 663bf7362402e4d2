#include <gtest/gtest.h>

#include <chrono>
#include <new>
#include <thread>

#include <atomic>
#include <vector>

#include "tessera/thread_pool.h"

namespace {

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  for (uint32_t threads : {1u, 2u, 4u}) {
    tessera::ThreadPool pool(threads);
    std::vector<std::atomic<int>> hits(10007);
    pool.parallelFor(hits.size(), [&](size_t i) { hits[i].fetch_add(1); });
    for (auto& h : hits) ASSERT_EQ(h.load(), 1);
  }
}

TEST(ThreadPool, ConcurrentCallersAllFinish) {
  tessera::ThreadPool pool(3);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 4; ++c)
    callers.emplace_back([&] {
      for (int rep = 0; rep < 50; ++rep) pool.parallelFor(64, [&](size_t) { total.fetch_add(1); });
    });
  for (auto& t : callers) t.join();
  EXPECT_EQ(total.load(), 4 * 50 * 64);
}

// An item that throws (std::bad_alloc from memory an application's numbers sized) must not
// reach the top of a worker thread (std::terminate): the caller gets the exception once every
// item has run or been skipped, and the pool keeps working.
TEST(ThreadPool, AnItemsExceptionReachesTheCallerNotAWorkersTop) {
  for (uint32_t threads : {1u, 2u, 4u}) {
    tessera::ThreadPool pool(threads);
    for (size_t failing : {size_t(0), size_t(500), size_t(999)}) {
      std::atomic<int> ran{0};
      EXPECT_THROW(pool.parallelFor(1000,
                                    [&](size_t i) {
                                      if (i == failing) throw std::bad_alloc();
                                      std::this_thread::sleep_for(std::chrono::microseconds(20));
                                      ran.fetch_add(1);
                                    }),
                   std::bad_alloc)
          << threads << " threads, item " << failing;
      EXPECT_LT(ran.load(), 1000);
      std::atomic<int> after{0};
      pool.parallelFor(100, [&](size_t) { after.fetch_add(1); });
      EXPECT_EQ(after.load(), 100);
    }
  }
}

TEST(ThreadPool, ZeroItemsIsANoOp) {
  tessera::ThreadPool pool(2);
  bool called = false;
  pool.parallelFor(0, [&](size_t) { called = true; });
  EXPECT_FALSE(called);
}

}  // namespace
