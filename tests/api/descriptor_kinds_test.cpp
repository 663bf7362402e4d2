// Descriptor kinds that only exist through shaders, through the loader with validation: inline
// uniform blocks (core 1.3), dynamic storage buffer offsets, and an array of storage buffers
// indexed per invocation (nonuniformEXT).
#include <cstring>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

class DescriptorKinds : public ComputeTest {};

TEST_F(DescriptorKinds, InlineUniformBlockDynamicOffsetAndNonUniformArray) {
  const uint32_t n = 96;
  VkDescriptorSetLayoutBinding bindings[4] = {
      {0, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 4, bindings};
  VkDescriptorSetLayout setLayout;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device, &dl, nullptr, &setLayout), VK_SUCCESS);
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  ASSERT_EQ(vkCreatePipelineLayout(device, &pl, nullptr, &layout), VK_SUCCESS);
  std::vector<uint32_t> spirv = loadCorpusShader("descriptor_kinds");
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, spirv.size() * 4, spirv.data()};
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device, &sm, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  ci.layout = layout;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &ci, nullptr, &pipeline), VK_SUCCESS);

  // The dynamic buffer holds two copies of the data; the dynamic offset selects the second.
  const uint32_t dynOffset = 1024;
  BufferAndMemory dyn = createBuffer(dynOffset + n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  BufferAndMemory arr[3] = {createBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
                            createBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT),
                            createBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT)};
  BufferAndMemory out = createBuffer(n * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t wrong = 999999, right = i * 3;
    std::memcpy(dyn.mapped + 4 * i, &wrong, 4);
    std::memcpy(dyn.mapped + dynOffset + 4 * i, &right, 4);
    for (uint32_t k = 0; k < 3; ++k) {
      uint32_t v = (k + 1) * 1000 + i;
      std::memcpy(arr[k].mapped + 4 * i, &v, 4);
    }
  }

  VkDescriptorPoolSize sizes[3] = {{VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK, 16},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1},
                                   {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 4}};
  VkDescriptorPoolInlineUniformBlockCreateInfo inlineInfo{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO,
                                                          nullptr, 1};
  VkDescriptorPoolCreateInfo dp{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, &inlineInfo, 0, 1, 3, sizes};
  VkDescriptorPool pool;
  ASSERT_EQ(vkCreateDescriptorPool(device, &dp, nullptr, &pool), VK_SUCCESS);
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &set), VK_SUCCESS);
  const uint32_t params[4] = {7, 1, 2, 3};  // scale, bias[3]
  VkWriteDescriptorSetInlineUniformBlock inlineWrite{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_INLINE_UNIFORM_BLOCK, nullptr, 16, params};
  VkDescriptorBufferInfo dynInfo{dyn.buffer, 0, n * 4};
  VkDescriptorBufferInfo arrInfo[3] = {{arr[0].buffer, 0, VK_WHOLE_SIZE}, {arr[1].buffer, 0, VK_WHOLE_SIZE}, {arr[2].buffer, 0, VK_WHOLE_SIZE}};
  VkDescriptorBufferInfo outInfo{out.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet writes[4] = {
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, &inlineWrite, set, 0, 0, 16, VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 1, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, nullptr, &dynInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 2, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, arrInfo},
      {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 3, 0, 1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, &outInfo}};
  vkUpdateDescriptorSets(device, 4, writes, 0, nullptr);

  submitAndWait([&](VkCommandBuffer cb) {
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 1, &dynOffset);
    vkCmdDispatch(cb, n / 32, 1, 1);
    VkMemoryBarrier mb{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
    vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, nullptr, 0, nullptr);
  });
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t o;
    std::memcpy(&o, out.mapped + 4 * i, 4);
    const uint32_t which = i % 3;
    ASSERT_EQ(o, 7 * (i * 3) + params[1 + which] + (which + 1) * 1000 + i) << i;
  }
  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, layout, nullptr);
  vkDestroyDescriptorPool(device, pool, nullptr);
  vkDestroyDescriptorSetLayout(device, setLayout, nullptr);
  destroy(dyn);
  for (auto& a : arr) destroy(a);
  destroy(out);
}

}  // namespace
}  // namespace tessera_test
