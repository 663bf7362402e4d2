// A fixed pool of worker threads shared by the driver's heavy work (large copies, dispatches,
// raster tiles). The thread calling parallelFor works on its own job too, so a pool of N
// workers plus the caller never oversubscribes when N = usableCpuCount() - 1.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera {

class ThreadPool {
 public:
  explicit ThreadPool(uint32_t threadCount);  // total threads taking part, caller included
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  uint32_t threadCount() const { return uint32_t(workers_.size()) + 1; }

  // Calls body(i) for every i in [0, count), spread over the pool; returns when all are done.
  // An exception thrown by body (std::bad_alloc from an allocation an application's numbers
  // sized) never leaves a worker thread: once every item has run or been skipped, the first
  // one is rethrown to the caller, and items not yet started are skipped.
  void parallelFor(size_t count, const std::function<void(size_t)>& body);

  // The process-wide pool, sized by usableCpuCount() (TESSERA_THREADS overrides).
  static ThreadPool& shared();

 private:
  struct Job;
  void workerLoop();
  static void runItems(Job& job);

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Job>> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> workers_;
};

}  // namespace tessera
