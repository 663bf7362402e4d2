// One compute dispatch of a corpus shader on a TestDevice of the test's own making (features
// enabled or left off on purpose), with buffers at set 0: what the tests that need such a device
// share (variable pointers, pipeline robustness, the watchdog).
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <functional>
#include <vector>

#include "test_device.h"

namespace tessera_test {

struct DeviceBuffer {
  std::vector<uint32_t> words;  // the buffer's contents before the dispatch
  VkDescriptorType type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  uint32_t range = 0;  // bytes the descriptor covers from the start (0: the whole buffer)
};

// The recorded half: creates the pipeline (`pipelineNext` chained to its create info), the
// buffers (host-visible, filled from `buffers`) and their descriptor set, and records the bind and
// the dispatch into `cmd` (nothing when the pipeline failed, with a failed expectation).
struct RecordedDispatch {
  std::vector<void*> maps;        // each buffer's mapping, in binding order
  std::function<void()> destroy;  // destroys what was created
  bool pipelineMade = false;
};
RecordedDispatch recordDispatchOnDevice(TestDevice& device, VkCommandBuffer cmd, const char* shader,
                                        const std::vector<DeviceBuffer>& buffers, uint32_t groupsX,
                                        const void* pipelineNext = nullptr);

// Records, submits and waits: dispatches `groupsX` workgroups of corpus shader `shader` with `buffers` at set 0, bindings
// 0..n-1, `pipelineNext` chained to the compute pipeline's create info; returns every buffer's
// words after the dispatch, or nothing (and a failed expectation) when the pipeline failed.
std::vector<std::vector<uint32_t>> dispatchOnDevice(TestDevice& device, const char* shader,
                                                    const std::vector<DeviceBuffer>& buffers, uint32_t groupsX,
                                                    const void* pipelineNext = nullptr);

}  // namespace tessera_test
