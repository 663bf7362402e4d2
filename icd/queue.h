// VkQueue: submissions run on the queue's own worker thread, one after another, in
// submission order (spec: "Queue Operations"; implicit ordering is simply program order here).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "handles.h"
#include "tessera/draw.h"

namespace tessera {

struct Device;
struct Fence;
struct Semaphore;
struct CommandBuffer;

struct SemaphoreOp {
  Semaphore* semaphore;
  uint64_t value;
};

struct Submission {
  std::vector<SemaphoreOp> waits;
  std::vector<CommandBuffer*> commandBuffers;
  std::vector<SemaphoreOp> signals;
  Fence* fence = nullptr;  // set on the last batch of a vkQueueSubmit only
  // Runs on the queue thread once the waits are over and the command buffers have run
  // (vkQueuePresentKHR hands its images to the presentation engine here).
  std::function<void()> hostStep;
};

struct Queue : DispatchableObject {
  Device* device = nullptr;
  std::mutex mutex;
  std::condition_variable workAvailable;
  std::condition_variable idle;
  std::deque<Submission> pending;
  bool busy = false;
  bool stopping = false;
  std::thread worker;
  // The draws' scene (raster::Scene), used by the worker thread only: it lives as long as the
  // queue so that its buffers are reused from submission to submission (ExecContext::draw).
  std::unique_ptr<raster::Scene> scene;
  // The watchdog ("Lost Device" within TESSERA_GPU_TIMEOUT_MS of a submission's start; 0: no
  // watchdog): when the worker started the submission it runs (steady clock ns; 0: idle), and
  // the thread that watches it.
  std::atomic<int64_t> runningSince{0};
  int64_t timeoutNs = 0;
  std::thread watchdog;
  std::condition_variable watchdogWake;  // destroyQueue wakes it to stop
};

VkResult createQueue(Device* device, Queue** out);
void destroyQueue(Device* device, Queue* queue);
VkResult waitQueueIdle(Queue* queue);
// Queues `step` to run on the queue thread after everything submitted before it and after
// `waits` (binary semaphore waits take value 1).
VkResult queueHostStep(Queue* queue, std::vector<SemaphoreOp> waits, std::function<void()> step);

}  // namespace tessera
