#include "queue.h"

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
  const char* what = "unknown error";
  try {
    ExecContext ctx{device, queue};
    for (CommandBuffer* cb : s.commandBuffers) cb->execute(ctx);
    if (s.hostStep) s.hostStep();
    return;
  } catch (const std::bad_alloc&) {
    what = "out of host memory";
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  device->lost.store(true);
  // The scene may hold half of a draw: dropped, so nothing draws it later.
  try {
    queue->scene.reset();
  } catch (...) {
  }
  reportError(device->instance, VK_OBJECT_TYPE_QUEUE, uint64_t(reinterpret_cast<uintptr_t>(queue)),
              "device lost: executing a submission failed (%s)", what);
}

void runSubmission(Queue* queue, Submission& s) {
  for (const SemaphoreOp& w : s.waits) w.semaphore->wait(w.value, std::chrono::steady_clock::time_point::max());
  executeOrLoseDevice(queue, s);
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
  try {
    q->worker = std::thread(workerLoop, q);
  } catch (const std::system_error&) {
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
  }
  queue->workAvailable.notify_all();
  queue->worker.join();
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
