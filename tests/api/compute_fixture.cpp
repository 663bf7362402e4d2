#include "compute_fixture.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace tessera_test {

std::vector<uint32_t> loadCorpusShader(const std::string& name) {
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + name + ".spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

ComputeTest::Program ComputeTest::createProgram(const std::vector<uint32_t>& spirv, uint32_t bufferCount,
                                                uint32_t pushBytes, VkPipelineCache cache, const void* pipelineNext,
                                                const VkSpecializationInfo* spec) {
  Program p;
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  for (uint32_t i = 0; i < bufferCount; ++i)
    bindings.push_back({i, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr});
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dl.bindingCount = bufferCount;
  dl.pBindings = bindings.data();
  EXPECT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &p.setLayout), VK_SUCCESS);
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pl.setLayoutCount = 1;
  pl.pSetLayouts = &p.setLayout;
  pl.pushConstantRangeCount = pushBytes ? 1 : 0;
  pl.pPushConstantRanges = &range;
  EXPECT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &p.layout), VK_SUCCESS);
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = spirv.size() * 4;
  sm.pCode = spirv.data();
  EXPECT_EQ(vkCreateShaderModule(device, &sm, nullptr, &p.module), VK_SUCCESS);
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, pipelineNext};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  ci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  ci.stage.module = p.module;
  ci.stage.pName = "main";
  ci.stage.pSpecializationInfo = spec;
  ci.layout = p.layout;
  p.result = vkCreateComputePipelines(device, cache, 1, &ci, nullptr, &p.pipeline);
  return p;
}

void ComputeTest::destroy(Program& p) {
  vkDestroyPipeline(device, p.pipeline, nullptr);
  vkDestroyShaderModule(device, p.module, nullptr);
  vkDestroyPipelineLayout(device, p.layout, nullptr);
  vkDestroyDescriptorSetLayout(device, p.setLayout, nullptr);
  p = {};
}

void ComputeTest::run(const Program& p, std::vector<std::vector<uint8_t>*> data, const std::vector<uint8_t>& push,
                      uint32_t gx, uint32_t gy, uint32_t gz) {
  const uint32_t n = uint32_t(data.size());
  std::vector<BufferAndMemory> buffers;
  for (auto* d : data) {
    buffers.push_back(createBuffer(d->size(), VK_BUFFER_USAGE_STORAGE_BUFFER_BIT));
    std::memcpy(buffers.back().mapped, d->data(), d->size());
  }
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, std::max(n, 1u)};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dp.maxSets = 1;
  dp.poolSizeCount = 1;
  dp.pPoolSizes = &size;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &p.setLayout;
  VkDescriptorSet set = VK_NULL_HANDLE;
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  std::vector<VkDescriptorBufferInfo> infos(n);
  std::vector<VkWriteDescriptorSet> writes(n);
  for (uint32_t i = 0; i < n; ++i) {
    infos[i] = {buffers[i].buffer, 0, VK_WHOLE_SIZE};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = i;
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  vkUpdateDescriptorSets(device, n, writes.data(), 0, nullptr);
  submitAndWait([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p.layout, 0, 1, &set, 0, nullptr);
    if (!push.empty()) vkCmdPushConstants(cb, p.layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, uint32_t(push.size()), push.data());
    vkCmdDispatch(cb, gx, gy, gz);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  });
  for (uint32_t i = 0; i < n; ++i) {
    std::memcpy(data[i]->data(), buffers[i].mapped, data[i]->size());
    destroy(buffers[i]);
  }
  vkDestroyDescriptorPool(device, pool, nullptr);
}

}  // namespace tessera_test
