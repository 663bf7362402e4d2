// One compute pipeline with one descriptor set (set 0, binding b of types[b]) on a TestDevice,
// for the API tests that check what shaders read and write through descriptors
// (texel_buffer_offset_test, update_after_bind_robustness_test, storage_image_multisample_test,
// bc_texture_test).
// Recording and submitting are separate steps so that a test can update descriptors between
// them (update-after-bind).
#pragma once

#include <vulkan/vulkan.h>

#include <string>
#include <vector>

#include "test_device.h"

namespace tessera_test {

class OneSetCompute {
 public:
  // `shader` names a corpus shader (tests/shaders). With `updateAfterBind`, the layout and the
  // pool are UPDATE_AFTER_BIND_POOL and the bindings listed in `updateAfterBindBindings` are
  // UPDATE_AFTER_BIND.
  OneSetCompute(TestDevice& device, const std::vector<VkDescriptorType>& types, const std::string& shader,
                const std::vector<uint32_t>& updateAfterBindBindings = {});
  ~OneSetCompute();
  OneSetCompute(const OneSetCompute&) = delete;
  OneSetCompute& operator=(const OneSetCompute&) = delete;

  void writeBuffer(uint32_t binding, VkBuffer buffer, VkDeviceSize offset = 0, VkDeviceSize range = VK_WHOLE_SIZE);
  void writeTexelBuffer(uint32_t binding, VkBufferView view);
  void writeStorageImage(uint32_t binding, VkImageView view);
  void writeCombinedImageSampler(uint32_t binding, VkImageView view, VkSampler sampler,
                                 VkImageLayout layout = VK_IMAGE_LAYOUT_SHADER_READ_ONLY_OPTIMAL);
  // A buffer view destroyed with this object.
  VkBufferView createView(VkBuffer buffer, VkFormat format, VkDeviceSize offset, VkDeviceSize range);

  // A command buffer that binds the pipeline and the set, dispatches, and makes the shader's
  // writes visible to the host and to transfers; submit it with submit().
  VkCommandBuffer record(uint32_t groupsX, uint32_t groupsY = 1, uint32_t groupsZ = 1);
  void submit(VkCommandBuffer cmd) { device_.submitAndWait(cmd); }

  bool ok() const { return pipeline_ != VK_NULL_HANDLE; }
  VkDescriptorSet set = VK_NULL_HANDLE;

 private:
  TestDevice& device_;
  std::vector<VkDescriptorType> types_;
  VkDescriptorSetLayout setLayout_ = VK_NULL_HANDLE;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkDescriptorPool pool_ = VK_NULL_HANDLE;
  VkShaderModule module_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  std::vector<VkBufferView> views_;
};

}  // namespace tessera_test
