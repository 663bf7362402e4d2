// A compute kernel for the benchmarks: one SPIR-V module (compiled from bench/shaders/*.comp
// at build time), a descriptor set layout of N storage buffers or storage images (bindings
// 0..N-1), a push constant block, and the pipelines made from it. Everything is destroyed with
// the Device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "device.h"

namespace bench {

struct BufferRange {
  VkBuffer buffer;
  VkDeviceSize offset;
  VkDeviceSize range;
};

class ComputeKernel {
 public:
  // Throws Unsupported when the driver lacks a compute command.
  ComputeKernel(Device& d, const uint32_t* spirv, size_t spirvBytes, uint32_t storageBuffers,
                uint32_t pushConstantBytes, uint32_t maxSets = 8);
  // Bindings 0..N-1 of the given types (STORAGE_BUFFER or STORAGE_IMAGE).
  ComputeKernel(Device& d, const uint32_t* spirv, size_t spirvBytes, std::vector<VkDescriptorType> bindings,
                uint32_t pushConstantBytes, uint32_t maxSets = 8);

  // A pipeline (destroyed with the Device). A failing vkCreateComputePipelines throws
  // Unsupported with its VkResult: the driver cannot run this kernel.
  VkPipeline pipeline(const VkSpecializationInfo* spec = nullptr, VkPipelineCache cache = VK_NULL_HANDLE);
  // A pipeline the caller destroys (pipeline-creation latency workloads).
  VkPipeline createUntracked(const VkSpecializationInfo* spec, VkPipelineCache cache);

  // A descriptor set with one storage buffer per binding, in order.
  VkDescriptorSet descriptorSet(const std::vector<BufferRange>& buffers);
  // A descriptor set with one storage image view (in layout GENERAL) per binding, in order.
  VkDescriptorSet imageSet(const std::vector<VkImageView>& views);

  // Binds pipeline and set, pushes constants and dispatches.
  void dispatch(VkCommandBuffer cb, VkPipeline p, VkDescriptorSet set, const void* push, uint32_t x, uint32_t y = 1,
                uint32_t z = 1);

  VkPipelineLayout layout() const { return layout_; }

 private:
  Device& d_;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkDescriptorSet allocateSet(const std::vector<VkDescriptorType>& expected);
  std::vector<VkDescriptorType> bindings_;
  uint32_t pushBytes_;
};

}  // namespace bench
