#include <gtest/gtest.h>

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

TEST(ThreadPool, ZeroItemsIsANoOp) {
  tessera::ThreadPool pool(2);
  bool called = false;
  pool.parallelFor(0, [&](size_t) { called = true; });
  EXPECT_FALSE(called);
}

}  // namespace
