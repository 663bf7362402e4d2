#include "tessera/thread_pool.h"

#include <atomic>
#include <exception>

#include "tessera/cpu_info.h"

namespace tessera {

struct ThreadPool::Job {
  const std::function<void(size_t)>* body;
  size_t count;
  std::atomic<size_t> next{0};
  std::atomic<size_t> done{0};
  std::mutex doneMutex;
  std::condition_variable doneCv;
  std::atomic<bool> failed{false};
  std::exception_ptr error;  // the first exception of an item, set under doneMutex
};

ThreadPool::ThreadPool(uint32_t threadCount) {
  for (uint32_t i = 1; i < threadCount; ++i) workers_.emplace_back([this] { workerLoop(); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

ThreadPool& ThreadPool::shared() {
  static ThreadPool pool(usableCpuCount());
  return pool;
}

void ThreadPool::runItems(Job& job) {
  size_t finished = 0;
  for (size_t i; (i = job.next.fetch_add(1, std::memory_order_relaxed)) < job.count;) {
    ++finished;
    if (job.failed.load(std::memory_order_relaxed)) continue;  // skipped: the job has failed
    try {
      (*job.body)(i);
    } catch (...) {
      std::lock_guard lock(job.doneMutex);
      if (!job.error) job.error = std::current_exception();
      job.failed.store(true, std::memory_order_relaxed);
    }
  }
  if (finished && job.done.fetch_add(finished, std::memory_order_acq_rel) + finished == job.count) {
    std::lock_guard lock(job.doneMutex);
    job.doneCv.notify_all();
  }
}

void ThreadPool::workerLoop() {
  for (;;) {
    std::shared_ptr<Job> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (stopping_) return;
      job = jobs_.front();
      // A job whose items are all handed out leaves the queue; late workers skip it.
      if (job->next.load(std::memory_order_relaxed) >= job->count) {
        jobs_.pop_front();
        continue;
      }
    }
    runItems(*job);
  }
}

void ThreadPool::parallelFor(size_t count, const std::function<void(size_t)>& body) {
  if (count == 0) return;
  if (count == 1 || workers_.empty()) {
    for (size_t i = 0; i < count; ++i) body(i);  // on the caller's thread: exceptions go up
    return;
  }
  auto job = std::make_shared<Job>();
  job->body = &body;
  job->count = count;
  {
    std::lock_guard lock(mutex_);
    jobs_.push_back(job);
  }
  wake_.notify_all();
  runItems(*job);
  std::unique_lock lock(job->doneMutex);
  job->doneCv.wait(lock, [&] { return job->done.load(std::memory_order_acquire) == count; });
  {
    std::lock_guard qlock(mutex_);
    for (auto it = jobs_.begin(); it != jobs_.end(); ++it)
      if (*it == job) { jobs_.erase(it); break; }
  }
  if (job->error) std::rethrow_exception(job->error);
}

}  // namespace tessera
