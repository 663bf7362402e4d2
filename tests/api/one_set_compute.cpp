#include "one_set_compute.h"

#include <gtest/gtest.h>

#include "compute_fixture.h"

namespace tessera_test {

OneSetCompute::OneSetCompute(TestDevice& device, const std::vector<VkDescriptorType>& types, const std::string& shader,
                             const std::vector<uint32_t>& updateAfterBindBindings)
    : device_(device), types_(types) {
  VkDevice dev = device.dev;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorBindingFlags> flags(types.size(), 0);
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t b = 0; b < types.size(); ++b) {
    bindings.push_back({b, types[b], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
    sizes.push_back({types[b], 1});
  }
  for (uint32_t b : updateAfterBindBindings) flags[b] = VK_DESCRIPTOR_BINDING_UPDATE_AFTER_BIND_BIT;
  const bool uab = !updateAfterBindBindings.empty();
  VkDescriptorSetLayoutBindingFlagsCreateInfo flagsInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO, nullptr,
                                                        uint32_t(flags.size()), flags.data()};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, uab ? &flagsInfo : nullptr,
                                        uab ? VkDescriptorSetLayoutCreateFlags(VK_DESCRIPTOR_SET_LAYOUT_CREATE_UPDATE_AFTER_BIND_POOL_BIT) : 0,
                                        uint32_t(bindings.size()), bindings.data()};
  EXPECT_EQ(vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout_), VK_SUCCESS);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout_};
  EXPECT_EQ(vkCreatePipelineLayout(dev, &plci, nullptr, &layout_), VK_SUCCESS);
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr,
                                  uab ? VkDescriptorPoolCreateFlags(VK_DESCRIPTOR_POOL_CREATE_UPDATE_AFTER_BIND_BIT) : 0, 1,
                                  uint32_t(sizes.size()), sizes.data()};
  EXPECT_EQ(vkCreateDescriptorPool(dev, &dpci, nullptr, &pool_), VK_SUCCESS);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool_, 1, &setLayout_};
  EXPECT_EQ(vkAllocateDescriptorSets(dev, &dsai, &set), VK_SUCCESS);

  module_ = device.createShaderModule(loadCorpusShader(shader));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module_, "main", nullptr};
  cpci.layout = layout_;
  if (vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline_) != VK_SUCCESS) pipeline_ = VK_NULL_HANDLE;
  EXPECT_NE(pipeline_, VK_NULL_HANDLE) << shader;
  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  EXPECT_EQ(vkCreateCommandPool(dev, &cpoolci, nullptr, &commandPool_), VK_SUCCESS);
}

OneSetCompute::~OneSetCompute() {
  VkDevice dev = device_.dev;
  vkDestroyCommandPool(dev, commandPool_, nullptr);
  vkDestroyPipeline(dev, pipeline_, nullptr);
  vkDestroyShaderModule(dev, module_, nullptr);
  vkDestroyDescriptorPool(dev, pool_, nullptr);
  vkDestroyPipelineLayout(dev, layout_, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout_, nullptr);
  for (VkBufferView v : views_) vkDestroyBufferView(dev, v, nullptr);
}

void OneSetCompute::writeBuffer(uint32_t binding, VkBuffer buffer, VkDeviceSize offset, VkDeviceSize range) {
  const VkDescriptorBufferInfo info{buffer, offset, range};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, types_[binding], nullptr, &info};
  vkUpdateDescriptorSets(device_.dev, 1, &w, 0, nullptr);
}

void OneSetCompute::writeTexelBuffer(uint32_t binding, VkBufferView view) {
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, types_[binding], nullptr, nullptr, &view};
  vkUpdateDescriptorSets(device_.dev, 1, &w, 0, nullptr);
}

void OneSetCompute::writeStorageImage(uint32_t binding, VkImageView view) {
  const VkDescriptorImageInfo info{VK_NULL_HANDLE, view, VK_IMAGE_LAYOUT_GENERAL};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, types_[binding], &info};
  vkUpdateDescriptorSets(device_.dev, 1, &w, 0, nullptr);
}

void OneSetCompute::writeCombinedImageSampler(uint32_t binding, VkImageView view, VkSampler sampler, VkImageLayout layout) {
  const VkDescriptorImageInfo info{sampler, view, layout};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, binding, 0, 1, types_[binding], &info};
  vkUpdateDescriptorSets(device_.dev, 1, &w, 0, nullptr);
}

VkBufferView OneSetCompute::createView(VkBuffer buffer, VkFormat format, VkDeviceSize offset, VkDeviceSize range) {
  VkBufferViewCreateInfo ci{VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO, nullptr, 0, buffer, format, offset, range};
  VkBufferView v = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateBufferView(device_.dev, &ci, nullptr, &v), VK_SUCCESS);
  views_.push_back(v);
  return v;
}

VkCommandBuffer OneSetCompute::record(uint32_t groupsX, uint32_t groupsY, uint32_t groupsZ) {
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, commandPool_,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd = VK_NULL_HANDLE;
  vkAllocateCommandBuffers(device_.dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline_);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, groupsX, groupsY, groupsZ);
  VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT,
                     VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0, 1,
                       &mb, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  return cmd;
}

}  // namespace tessera_test
