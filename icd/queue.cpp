#include "queue.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "command_buffer.h"
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "sync.h"

namespace tessera {
namespace {

// Runs a batch's command buffers. No exception leaves the queue's thread: a failure (a
// std::bad_alloc from memory an application's numbers sized, in the draw loop or on a pool
// thread) loses the device (spec "Lost Device"), and nothing of this queue runs afterwards.
void executeOrLoseDevice(Queue* queue, Submission& s) {
  Device* device = queue->device;
  if (device->lost.load()) return;
  std::string what = "unknown error";
  try {
    ExecContext ctx{device, queue};
    for (CommandBuffer* cb : s.commandBuffers) cb->execute(ctx);
    if (s.hostStep) s.hostStep();
    if (!device->lost.load()) return;
    what = "";  // the watchdog cancelled the submission (it reported why)
  } catch (const std::bad_alloc&) {
    what = "out of host memory";
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  if (!what.empty()) device->lose(("executing a submission failed (" + what + ")").c_str());
  // The scene may hold half of a draw: dropped, so nothing draws it later.
  try {
    queue->scene.reset();
  } catch (...) {
  }
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// The watchdog ("Lost Device"): a submission still running TESSERA_GPU_TIMEOUT_MS after it
// started (a shader that never ends, a draw too big to finish) loses the device; its work stops
// at the next loop back-edge of every kernel (abi::BoundResources::cancel) and between the draw
// and dispatch loops' items, so the submission ends, its fence and semaphores signal, and every
// later wait says VK_ERROR_DEVICE_LOST. Checks a few times a timeout.
void watchdogLoop(Queue* queue) {
  const auto period = std::chrono::nanoseconds(std::clamp<int64_t>(queue->timeoutNs / 8, 1000000, 100000000));
  std::unique_lock lock(queue->mutex);
  while (!queue->stopping) {
    queue->watchdogWake.wait_for(lock, period, [&] { return queue->stopping; });
    const int64_t since = queue->runningSince.load();
    if (since == 0 || queue->device->lost.load()) continue;
    if (nowNs() - since <= queue->timeoutNs) continue;
    char why[160];
    std::snprintf(why, sizeof why, "a submission ran longer than TESSERA_GPU_TIMEOUT_MS (%lld ms)",
                  static_cast<long long>(queue->timeoutNs / 1000000));
    queue->device->lose(why);
  }
}

// TESSERA_GPU_TIMEOUT_MS: the watchdog's deadline per submission, in milliseconds; 0 turns it
// off. Unset (or unreadable): kDefaultGpuTimeoutMs.
constexpr int64_t kDefaultGpuTimeoutMs = 10000;
int64_t gpuTimeoutNs() {
  const char* v = std::getenv("TESSERA_GPU_TIMEOUT_MS");
  if (!v || !*v) return kDefaultGpuTimeoutMs * 1000000;
  char* end = nullptr;
  const long long ms = std::strtoll(v, &end, 10);
  if (end == v || ms < 0) return kDefaultGpuTimeoutMs * 1000000;
  return std::min<long long>(ms, INT64_MAX / 1000000) * 1000000;
}

void runSubmission(Queue* queue, Submission& s) {
  // Waiting for a semaphore is not running work (a host signal may come much later), so the
  // watchdog's clock starts after the waits; a lost device (destroyed meanwhile) stops waiting.
  for (const SemaphoreOp& w : s.waits) {
    while (!w.semaphore->wait(w.value, std::chrono::steady_clock::now() + std::chrono::milliseconds(20)))
      if (queue->device->lost.load()) break;
  }
  queue->runningSince.store(nowNs());
  executeOrLoseDevice(queue, s);
  queue->runningSince.store(0);
  // Signalled on a lost device too, so that no waiter blocks forever; the waits then say
  // VK_ERROR_DEVICE_LOST.
  for (const SemaphoreOp& sig : s.signals) sig.semaphore->signal(sig.value);
  if (s.fence) s.fence->signal();
}

void workerLoop(Queue* queue) {
  std::unique_lock lock(queue->mutex);
  for (;;) {
    queue->workAvailable.wait(lock, [&] { return queue->stopping || !queue->pending.empty(); });
    if (queue->pending.empty() && queue->stopping) return;
    Submission s = std::move(queue->pending.front());
    queue->pending.pop_front();
    queue->busy = true;
    lock.unlock();
    runSubmission(queue, s);
    lock.lock();
    queue->busy = false;
    if (queue->pending.empty()) queue->idle.notify_all();
  }
}

// The fence signals after the last batch; a submission of no batches still gets one, so the
// fence signals once everything submitted before it has finished (spec: vkQueueSubmit).
void attachFence(std::vector<Submission>& batches, VkFence fence) {
  if (!fence) return;
  if (batches.empty()) batches.emplace_back();
  batches.back().fence = fromHandle<Fence>(fence);
}

VkResult enqueue(Queue* queue, std::vector<Submission>&& batches) {
  // "Lost Device": commands that submit work may return VK_ERROR_DEVICE_LOST.
  if (queue->device->lost.load()) return VK_ERROR_DEVICE_LOST;
  try {
    std::lock_guard lock(queue->mutex);
    for (auto& b : batches) queue->pending.push_back(std::move(b));
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  queue->workAvailable.notify_one();
  return VK_SUCCESS;
}

}  // namespace

VkResult createQueue(Device* device, Queue** out) {
  Queue* q = hostNew<Queue>(device->allocator(), VK_SYSTEM_ALLOCATION_SCOPE_DEVICE);
  if (!q) return VK_ERROR_OUT_OF_HOST_MEMORY;
  q->device = device;
  q->timeoutNs = gpuTimeoutNs();
  try {
    q->worker = std::thread(workerLoop, q);
    if (q->timeoutNs > 0) q->watchdog = std::thread(watchdogLoop, q);
  } catch (const std::system_error&) {
    if (q->worker.joinable()) {
      {
        std::lock_guard lock(q->mutex);
        q->stopping = true;
      }
      q->workAvailable.notify_all();
      q->worker.join();
    }
    hostDelete(device->allocator(), q);
    return VK_ERROR_INITIALIZATION_FAILED;
  }
  *out = q;
  return VK_SUCCESS;
}

void destroyQueue(Device* device, Queue* queue) {
  {
    std::lock_guard lock(queue->mutex);
    queue->stopping = true;
    // Destroying a device with work still running is invalid usage; it must not wait forever
    // for a kernel that never ends: the work is cancelled and the device lost.
    if (queue->busy) device->lose("the device was destroyed while its queue was running work");
  }
  queue->workAvailable.notify_all();
  queue->watchdogWake.notify_all();
  queue->worker.join();
  if (queue->watchdog.joinable()) queue->watchdog.join();
  hostDelete(device->allocator(), queue);
}

VkResult waitQueueIdle(Queue* queue) {
  std::unique_lock lock(queue->mutex);
  queue->idle.wait(lock, [&] { return queue->pending.empty() && !queue->busy; });
  return queue->device->lost.load() ? VK_ERROR_DEVICE_LOST : VK_SUCCESS;
}

VkResult queueHostStep(Queue* queue, std::vector<SemaphoreOp> waits, std::function<void()> step) {
  std::vector<Submission> batch;
  try {
    batch.emplace_back();
    batch[0].waits = std::move(waits);
    batch[0].hostStep = std::move(step);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return enqueue(queue, std::move(batch));
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkQueueSubmit(VkQueue queue, uint32_t submitCount, const VkSubmitInfo* pSubmits,
                                                    VkFence fence) {
  std::vector<Submission> batches;
  try {
    batches.resize(submitCount);
    for (uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo& si = pSubmits[i];
      const VkTimelineSemaphoreSubmitInfo* timeline = nullptr;
      for (auto* p = static_cast<const VkBaseInStructure*>(si.pNext); p; p = p->pNext)
        if (p->sType == VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO)
          timeline = reinterpret_cast<const VkTimelineSemaphoreSubmitInfo*>(p);
      Submission& b = batches[i];
      for (uint32_t w = 0; w < si.waitSemaphoreCount; ++w) {
        uint64_t v = timeline && w < timeline->waitSemaphoreValueCount ? timeline->pWaitSemaphoreValues[w] : 1;
        b.waits.push_back({fromHandle<Semaphore>(si.pWaitSemaphores[w]), v});
      }
      for (uint32_t c = 0; c < si.commandBufferCount; ++c)
        b.commandBuffers.push_back(fromHandle<CommandBuffer>(si.pCommandBuffers[c]));
      for (uint32_t s = 0; s < si.signalSemaphoreCount; ++s) {
        uint64_t v = timeline && s < timeline->signalSemaphoreValueCount ? timeline->pSignalSemaphoreValues[s] : 1;
        b.signals.push_back({fromHandle<Semaphore>(si.pSignalSemaphores[s]), v});
      }
    }
    attachFence(batches, fence);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return enqueue(fromHandle<Queue>(queue), std::move(batches));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkQueueSubmit2(VkQueue queue, uint32_t submitCount,
                                                     const VkSubmitInfo2* pSubmits, VkFence fence) {
  std::vector<Submission> batches;
  try {
    batches.resize(submitCount);
    for (uint32_t i = 0; i < submitCount; ++i) {
      const VkSubmitInfo2& si = pSubmits[i];
      Submission& b = batches[i];
      for (uint32_t w = 0; w < si.waitSemaphoreInfoCount; ++w)
        b.waits.push_back({fromHandle<Semaphore>(si.pWaitSemaphoreInfos[w].semaphore), si.pWaitSemaphoreInfos[w].value});
      for (uint32_t c = 0; c < si.commandBufferInfoCount; ++c)
        b.commandBuffers.push_back(fromHandle<CommandBuffer>(si.pCommandBufferInfos[c].commandBuffer));
      for (uint32_t s = 0; s < si.signalSemaphoreInfoCount; ++s)
        b.signals.push_back(
            {fromHandle<Semaphore>(si.pSignalSemaphoreInfos[s].semaphore), si.pSignalSemaphoreInfos[s].value});
    }
    attachFence(batches, fence);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return enqueue(fromHandle<Queue>(queue), std::move(batches));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkQueueWaitIdle(VkQueue queue) {
  return waitQueueIdle(fromHandle<Queue>(queue));
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkQueueBindSparse(VkQueue queue, uint32_t count, const VkBindSparseInfo* pInfo,
                                                        VkFence fence) {
  // No sparse resources: the queue family does not have VK_QUEUE_SPARSE_BINDING_BIT, so the
  // only valid calls carry no binds; semaphores and the fence still take effect in order.
  std::vector<Submission> batches;
  try {
    batches.resize(count);
    for (uint32_t i = 0; i < count; ++i) {
      for (uint32_t w = 0; w < pInfo[i].waitSemaphoreCount; ++w)
        batches[i].waits.push_back({fromHandle<Semaphore>(pInfo[i].pWaitSemaphores[w]), 1});
      for (uint32_t s = 0; s < pInfo[i].signalSemaphoreCount; ++s)
        batches[i].signals.push_back({fromHandle<Semaphore>(pInfo[i].pSignalSemaphores[s]), 1});
    }
    attachFence(batches, fence);
  } catch (const std::bad_alloc&) {
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  return enqueue(fromHandle<Queue>(queue), std::move(batches));
}

}  // extern "C"
