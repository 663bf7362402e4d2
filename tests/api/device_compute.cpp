#include "device_compute.h"

#include <gtest/gtest.h>

#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {

RecordedDispatch recordDispatchOnDevice(TestDevice& device, VkCommandBuffer cmd, const char* shader,
                                        const std::vector<DeviceBuffer>& buffers, uint32_t groupsX,
                                        const void* pipelineNext) {
  const VkDevice dev = device.dev;
  const uint32_t count = uint32_t(buffers.size());
  std::vector<VkDescriptorSetLayoutBinding> layoutBindings(count);
  std::vector<VkDescriptorPoolSize> poolSizes(count);
  for (uint32_t b = 0; b < count; ++b) {
    layoutBindings[b] = {b, buffers[b].type, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
    poolSizes[b] = {buffers[b].type, 1};
  }
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, count,
                                        layoutBindings.data()};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule module = device.createShaderModule(loadCorpusShader(shader));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, pipelineNext};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS) << shader;

  std::vector<VkBuffer> handles(count);
  std::vector<void*> maps(count);
  std::vector<VkDescriptorBufferInfo> infos(count);
  for (uint32_t b = 0; b < count; ++b) {
    const VkDeviceSize size = 4 * buffers[b].words.size();
    const VkBufferUsageFlags usage = buffers[b].type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                                                                        : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    handles[b] = device.createMappedBuffer(size, usage, &maps[b]);
    std::memcpy(maps[b], buffers[b].words.data(), size);
    infos[b] = {handles[b], 0, buffers[b].range ? VkDeviceSize(buffers[b].range) : VK_WHOLE_SIZE};
  }
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, count, poolSizes.data()};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  std::vector<VkWriteDescriptorSet> writes(count);
  for (uint32_t b = 0; b < count; ++b)
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, b, 0, 1, buffers[b].type, nullptr, &infos[b], nullptr};
  vkUpdateDescriptorSets(dev, count, writes.data(), 0, nullptr);

  if (pipeline) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, groupsX, 1, 1);
  }
  RecordedDispatch r;
  r.maps = maps;
  r.pipelineMade = pipeline != VK_NULL_HANDLE;
  r.destroy = [=] {
    vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
    for (VkBuffer b : handles) vkDestroyBuffer(dev, b, nullptr);
    vkDestroyPipeline(dev, pipeline, nullptr);
    vkDestroyShaderModule(dev, module, nullptr);
    vkDestroyPipelineLayout(dev, layout, nullptr);
    vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  };
  return r;
}

std::vector<std::vector<uint32_t>> dispatchOnDevice(TestDevice& device, const char* shader,
                                                    const std::vector<DeviceBuffer>& buffers, uint32_t groupsX,
                                                    const void* pipelineNext) {
  VkCommandBuffer cmd = device.beginCommands();
  RecordedDispatch r = recordDispatchOnDevice(device, cmd, shader, buffers, groupsX, pipelineNext);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  std::vector<std::vector<uint32_t>> out(buffers.size());
  for (size_t b = 0; b < buffers.size(); ++b)
    out[b].assign(static_cast<uint32_t*>(r.maps[b]), static_cast<uint32_t*>(r.maps[b]) + buffers[b].words.size());
  r.destroy();
  return r.pipelineMade ? out : std::vector<std::vector<uint32_t>>{};
}

}  // namespace tessera_test
