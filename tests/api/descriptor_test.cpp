// Descriptor set layouts, pools, sets, updates, update templates, samplers, pipeline layouts,
// shader modules and descriptor binding commands, through the loader with the validation layer.
// What only the driver can see (the bytes written into set memory) is checked by the unit tests
// in tests/unit/icd; here the point is that real programs' calls succeed, fail where the spec
// says they may (VK_ERROR_OUT_OF_POOL_MEMORY), and draw no validation error.
//
// Image and texel-buffer descriptors are not written here: no format supports sampling, storage
// or texel buffers yet, so no valid view exists to write.
#include <vector>

#include "bare_device.h"
#include "vulkan_fixture.h"

namespace tessera_test {
namespace {

// A minimal compute shader (spirv-as of: OpEntryPoint GLCompute %main "main", LocalSize 1 1 1,
// an empty main).
const uint32_t kEmptyComputeShader[] = {
    0x07230203, 0x00010000, 0x00070000, 0x00000005, 0x00000000, 0x00020011, 0x00000001, 0x0003000e, 0x00000000,
    0x00000001, 0x0005000f, 0x00000005, 0x00000001, 0x6e69616d, 0x00000000, 0x00060010, 0x00000001, 0x00000011,
    0x00000001, 0x00000001, 0x00000001, 0x00020013, 0x00000002, 0x00030021, 0x00000003, 0x00000002, 0x00050036,
    0x00000002, 0x00000001, 0x00000000, 0x00000003, 0x000200f8, 0x00000004, 0x000100fd, 0x00010038};

class Descriptors : public VulkanTest {
 protected:
  VkDescriptorSetLayout layout(const std::vector<VkDescriptorSetLayoutBinding>& bindings) {
    VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    ci.bindingCount = uint32_t(bindings.size());
    ci.pBindings = bindings.data();
    VkDescriptorSetLayout l = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorSetLayout(device, &ci, nullptr, &l), VK_SUCCESS);
    return l;
  }
  VkDescriptorPool descriptorPool(uint32_t maxSets, const std::vector<VkDescriptorPoolSize>& sizes,
                                  VkDescriptorPoolCreateFlags flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT) {
    VkDescriptorPoolCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    ci.flags = flags;
    ci.maxSets = maxSets;
    ci.poolSizeCount = uint32_t(sizes.size());
    ci.pPoolSizes = sizes.data();
    VkDescriptorPool p = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateDescriptorPool(device, &ci, nullptr, &p), VK_SUCCESS);
    return p;
  }
  VkResult allocateSets(VkDescriptorPool p, std::vector<VkDescriptorSetLayout> layouts, VkDescriptorSet* out) {
    VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = p;
    ai.descriptorSetCount = uint32_t(layouts.size());
    ai.pSetLayouts = layouts.data();
    return vkAllocateDescriptorSets(device, &ai, out);
  }
  VkSampler sampler() {
    VkSamplerCreateInfo si{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
    si.magFilter = si.minFilter = VK_FILTER_LINEAR;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    si.maxLod = VK_LOD_CLAMP_NONE;
    VkSampler s = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreateSampler(device, &si, nullptr, &s), VK_SUCCESS);
    return s;
  }
  static VkDescriptorSetLayoutBinding binding(uint32_t n, VkDescriptorType type, uint32_t count,
                                              const VkSampler* immutable = nullptr) {
    VkShaderStageFlags stages =
        type == VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT ? VK_SHADER_STAGE_FRAGMENT_BIT : VK_SHADER_STAGE_ALL;
    return {n, type, count, stages, immutable};
  }
};

TEST_F(Descriptors, EveryCoreTypeCanBeLaidOutAllocatedAndFreed) {
  VkSampler s = sampler();
  VkSampler immutable[2] = {s, s};
  std::vector<VkDescriptorSetLayoutBinding> bindings;
  std::vector<VkDescriptorPoolSize> sizes;
  for (uint32_t t = 0; t <= VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT; ++t) {
    bindings.push_back(binding(t, VkDescriptorType(t), 2));
    sizes.push_back({VkDescriptorType(t), 2});
  }
  bindings[VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER].pImmutableSamplers = immutable;
  VkDescriptorSetLayout l = layout(bindings);
  vkDestroySampler(device, s, nullptr);  // the layout keeps what it needs of immutable samplers
  VkDescriptorPool p = descriptorPool(1, sizes);
  VkDescriptorSet set = VK_NULL_HANDLE, second = VK_NULL_HANDLE;
  ASSERT_EQ(allocateSets(p, {l}, &set), VK_SUCCESS);
  EXPECT_NE(set, VK_NULL_HANDLE);
  EXPECT_EQ(allocateSets(p, {l}, &second), VK_ERROR_OUT_OF_POOL_MEMORY);
  EXPECT_EQ(vkFreeDescriptorSets(device, p, 1, &set), VK_SUCCESS);
  EXPECT_EQ(allocateSets(p, {l}, &set), VK_SUCCESS);
  vkDestroyDescriptorPool(device, p, nullptr);  // frees the set too
  vkDestroyDescriptorSetLayout(device, l, nullptr);
}

// A pool's limits are maxSets and its total descriptor count; the per-type sizes are shares of
// that total which a set may borrow across (icd/descriptor_pool.cpp explains why).
TEST_F(Descriptors, PoolLimitsGiveOutOfPoolMemoryAndResetGivesEverythingBack) {
  VkDescriptorSetLayout ubo = layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 3)});
  VkDescriptorSetLayout ssbo = layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorPool p = descriptorPool(3, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 4}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}}, 0);
  VkDescriptorSet sets[3] = {};
  ASSERT_EQ(allocateSets(p, {ubo, ubo}, sets), VK_SUCCESS);  // 6 uniform buffers: 4 reserved, 2 borrowed
  EXPECT_EQ(allocateSets(p, {ssbo}, &sets[2]), VK_ERROR_OUT_OF_POOL_MEMORY);  // all 6 descriptors in use
  EXPECT_EQ(sets[2], VK_NULL_HANDLE);
  ASSERT_EQ(vkResetDescriptorPool(device, p, 0), VK_SUCCESS);
  ASSERT_EQ(allocateSets(p, {ubo, ssbo, ssbo}, sets), VK_SUCCESS);  // 3 sets: maxSets reached
  VkDescriptorSet more[2] = {};
  EXPECT_EQ(allocateSets(p, {ssbo}, more), VK_ERROR_OUT_OF_POOL_MEMORY);
  ASSERT_EQ(vkResetDescriptorPool(device, p, 0), VK_SUCCESS);
  // A multi-set allocation that cannot complete leaves nothing behind.
  EXPECT_EQ(allocateSets(p, {ubo, ubo, ssbo}, sets), VK_ERROR_OUT_OF_POOL_MEMORY);
  for (VkDescriptorSet s : sets) EXPECT_EQ(s, VK_NULL_HANDLE);
  EXPECT_EQ(allocateSets(p, {ubo, ssbo, ssbo}, sets), VK_SUCCESS);
  vkDestroyDescriptorPool(device, p, nullptr);
  vkDestroyDescriptorSetLayout(device, ubo, nullptr);
  vkDestroyDescriptorSetLayout(device, ssbo, nullptr);
}

// What a video framework did: a pool sized for combined image samplers only, a layout with a
// uniform buffer as well. lavapipe and RADV allocate it; so does Tessera while the pool's total
// has room, and the set is written and used like any other.
TEST_F(Descriptors, APoolWithoutUniformBuffersHoldsOneWhileItHasRoom) {
  BufferAndMemory buf = createBuffer(256, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT);
  VkDescriptorSetLayout l = layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1),
                                    binding(1, VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 1)});
  VkDescriptorPool p = descriptorPool(2, {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 4}});
  VkDescriptorSet sets[2] = {};
  ASSERT_EQ(allocateSets(p, {l, l}, sets), VK_SUCCESS);
  VkDescriptorBufferInfo info{buf.buffer, 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet w{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[1], 0, 0, 1,
                         VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, nullptr, &info};
  vkUpdateDescriptorSets(device, 1, &w, 0, nullptr);
  EXPECT_EQ(vkFreeDescriptorSets(device, p, 2, sets), VK_SUCCESS);
  vkDestroyDescriptorPool(device, p, nullptr);
  vkDestroyDescriptorSetLayout(device, l, nullptr);
  destroy(buf);
}

// The rest of that framework's hang: after a failed allocation a program may go on recording
// with the VK_NULL_HANDLE it got back and submit. The driver must still run the submission and
// signal its fence (an unbound set reads as null descriptors), never leave the fence pending.
// Without layers: the validation layer would report the null set and not pass the call on.
TEST(DescriptorsWithoutLayers, ASubmissionAfterAFailedAllocationStillSignalsItsFence) {
  BareDevice bare;
  const VkDevice device = bare.device;
  ASSERT_NE(device, VK_NULL_HANDLE);
  VkDescriptorSetLayoutBinding b{0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo lci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &b};
  VkDescriptorSetLayout l;
  ASSERT_EQ(vkCreateDescriptorSetLayout(device, &lci, nullptr, &l), VK_SUCCESS);
  VkDescriptorPoolSize size{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1};
  VkDescriptorPoolCreateInfo pci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &size};
  VkDescriptorPool p;
  ASSERT_EQ(vkCreateDescriptorPool(device, &pci, nullptr, &p), VK_SUCCESS);
  VkDescriptorSet sets[2] = {};
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, p, 1, &l};
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &sets[0]), VK_SUCCESS);
  ASSERT_EQ(vkAllocateDescriptorSets(device, &ai, &sets[1]), VK_ERROR_OUT_OF_POOL_MEMORY);  // maxSets
  ASSERT_EQ(sets[1], VK_NULL_HANDLE);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &l;
  VkPipelineLayout pl;
  ASSERT_EQ(vkCreatePipelineLayout(device, &plci, nullptr, &pl), VK_SUCCESS);
  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, nullptr, 0, sizeof(kEmptyComputeShader),
                                kEmptyComputeShader};
  VkShaderModule module;
  ASSERT_EQ(vkCreateShaderModule(device, &smci, nullptr, &module), VK_SUCCESS);
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
  cpci.layout = pl;
  VkPipeline pipeline;
  ASSERT_EQ(vkCreateComputePipelines(device, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool cpool;
  ASSERT_EQ(vkCreateCommandPool(device, &cpoolci, nullptr, &cpool), VK_SUCCESS);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, cpool,
                                   VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cb;
  ASSERT_EQ(vkAllocateCommandBuffers(device, &cbai, &cb), VK_SUCCESS);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  ASSERT_EQ(vkBeginCommandBuffer(cb, &bi), VK_SUCCESS);
  vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 0, 1, &sets[1], 0, nullptr);
  vkCmdDispatch(cb, 1, 1, 1);
  ASSERT_EQ(vkEndCommandBuffer(cb), VK_SUCCESS);
  VkFenceCreateInfo fci{VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
  VkFence fence;
  ASSERT_EQ(vkCreateFence(device, &fci, nullptr, &fence), VK_SUCCESS);
  VkSubmitInfo si{VK_STRUCTURE_TYPE_SUBMIT_INFO};
  si.commandBufferCount = 1;
  si.pCommandBuffers = &cb;
  ASSERT_EQ(vkQueueSubmit(bare.queue, 1, &si, fence), VK_SUCCESS);
  EXPECT_EQ(vkWaitForFences(device, 1, &fence, VK_TRUE, 5'000'000'000ull), VK_SUCCESS);
  vkDestroyFence(device, fence, nullptr);
  vkDestroyCommandPool(device, cpool, nullptr);
  vkDestroyPipeline(device, pipeline, nullptr);
  vkDestroyShaderModule(device, module, nullptr);
  vkDestroyPipelineLayout(device, pl, nullptr);
  vkDestroyDescriptorPool(device, p, nullptr);
  vkDestroyDescriptorSetLayout(device, l, nullptr);
}

TEST_F(Descriptors, BuffersAndSamplersAreWrittenCopiedAndTemplated) {
  BufferAndMemory buf = createBuffer(4096, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkSampler s = sampler();
  VkDescriptorSetLayout l = layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1), binding(1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),
                                    binding(2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2),  // rolled into from binding 1
                                    binding(3, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 1),
                                    binding(4, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 1), binding(5, VK_DESCRIPTOR_TYPE_SAMPLER, 1)});
  VkDescriptorPool p = descriptorPool(2, {{VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 2}, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 8},
                                          {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2},
                                          {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC, 2}, {VK_DESCRIPTOR_TYPE_SAMPLER, 2}});
  VkDescriptorSet sets[2];
  ASSERT_EQ(allocateSets(p, {l, l}, sets), VK_SUCCESS);

  VkDescriptorBufferInfo infos[4] = {{buf.buffer, 0, 256}, {buf.buffer, 256, 256}, {buf.buffer, 512, VK_WHOLE_SIZE},
                                     {buf.buffer, 1024, 64}};
  VkDescriptorImageInfo samplerInfo{s, VK_NULL_HANDLE, VK_IMAGE_LAYOUT_UNDEFINED};
  VkWriteDescriptorSet w[5] = {};
  for (auto& x : w) {
    x.sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    x.dstSet = sets[0];
    x.descriptorCount = 1;
    x.pBufferInfo = infos;
  }
  w[0].dstBinding = 0;
  w[0].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER;
  w[1].dstBinding = 1;  // elements 1..2 of binding 1 and 0..1 of binding 2: rolls over
  w[1].dstArrayElement = 1;
  w[1].descriptorCount = 3;
  w[1].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
  w[1].pBufferInfo = &infos[1];
  w[2].dstBinding = 3;
  w[2].descriptorType = VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC;
  w[3].dstBinding = 4;
  w[3].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
  w[3].pBufferInfo = &infos[3];
  w[4].dstBinding = 5;
  w[4].descriptorType = VK_DESCRIPTOR_TYPE_SAMPLER;
  w[4].pBufferInfo = nullptr;
  w[4].pImageInfo = &samplerInfo;
  VkCopyDescriptorSet c{VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET, nullptr, sets[0], 1, 1, sets[1], 1, 0, 3};
  vkUpdateDescriptorSets(device, 5, w, 1, &c);

  VkDescriptorUpdateTemplateEntry entries[] = {{0, 0, 1, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0, sizeof(VkDescriptorBufferInfo)},
                                               {1, 0, 2, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, sizeof(VkDescriptorBufferInfo),
                                                sizeof(VkDescriptorBufferInfo)}};
  VkDescriptorUpdateTemplateCreateInfo tci{VK_STRUCTURE_TYPE_DESCRIPTOR_UPDATE_TEMPLATE_CREATE_INFO};
  tci.descriptorUpdateEntryCount = 2;
  tci.pDescriptorUpdateEntries = entries;
  tci.templateType = VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_DESCRIPTOR_SET;
  tci.descriptorSetLayout = l;
  VkDescriptorUpdateTemplate t = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateDescriptorUpdateTemplate(device, &tci, nullptr, &t), VK_SUCCESS);
  vkUpdateDescriptorSetWithTemplate(device, sets[1], t, infos);
  vkDestroyDescriptorUpdateTemplate(device, t, nullptr);

  vkDestroyDescriptorPool(device, p, nullptr);
  vkDestroyDescriptorSetLayout(device, l, nullptr);
  vkDestroySampler(device, s, nullptr);
  destroy(buf);
}

TEST_F(Descriptors, LayoutSupportIsReported) {
  VkDescriptorSetLayoutBinding small = binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 4);
  VkDescriptorSetLayoutCreateInfo ci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &small};
  VkDescriptorSetLayoutSupport support{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_SUPPORT};
  vkGetDescriptorSetLayoutSupport(device, &ci, &support);
  EXPECT_TRUE(support.supported);
  VkPhysicalDeviceProperties props;
  vkGetPhysicalDeviceProperties(physicalDevice, &props);
  VkDescriptorSetLayoutBinding tooMany =
      binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, props.limits.maxDescriptorSetUniformBuffersDynamic + 1);
  ci.pBindings = &tooMany;
  vkGetDescriptorSetLayoutSupport(device, &ci, &support);
  EXPECT_FALSE(support.supported);
}

TEST_F(Descriptors, BindingSetsAndPushConstantsRecordsAndSubmits) {
  BufferAndMemory buf = createBuffer(1024, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
  VkDescriptorSetLayout plain = layout({binding(0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1)});
  VkDescriptorSetLayout dynamic = layout({binding(0, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2)});
  VkDescriptorPool p = descriptorPool(2, {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, 2}});
  VkDescriptorSet sets[2];
  ASSERT_EQ(allocateSets(p, {plain, dynamic}, sets), VK_SUCCESS);
  VkDescriptorBufferInfo infos[2] = {{buf.buffer, 0, 256}, {buf.buffer, 256, 256}};
  VkWriteDescriptorSet w[2] = {{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[0], 0, 0, 1,
                                VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, nullptr, infos, nullptr},
                               {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, sets[1], 0, 0, 2,
                                VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC, nullptr, infos, nullptr}};
  vkUpdateDescriptorSets(device, 2, w, 0, nullptr);

  VkDescriptorSetLayout setLayouts[2] = {plain, dynamic};
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 0, 128};
  VkPipelineLayoutCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  pci.setLayoutCount = 2;
  pci.pSetLayouts = setLayouts;
  pci.pushConstantRangeCount = 1;
  pci.pPushConstantRanges = &range;
  VkPipelineLayout pl = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreatePipelineLayout(device, &pci, nullptr, &pl), VK_SUCCESS);
  // A pipeline layout does not need its set layouts after creation.
  vkDestroyDescriptorSetLayout(device, plain, nullptr);

  const uint32_t offsets[2] = {0, 256};
  const float constants[32] = {1.0f, 2.0f};
  VkCommandBuffer cb = beginCommands();
  for (VkPipelineBindPoint bp : {VK_PIPELINE_BIND_POINT_COMPUTE, VK_PIPELINE_BIND_POINT_GRAPHICS})
    vkCmdBindDescriptorSets(cb, bp, pl, 0, 2, sets, 2, offsets);
  vkCmdPushConstants(cb, pl, VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_VERTEX_BIT, 0, sizeof constants, constants);
  vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pl, 1, 1, &sets[1], 2, offsets);
  endSubmitWait(cb);

  vkDestroyPipelineLayout(device, pl, nullptr);
  vkDestroyDescriptorPool(device, p, nullptr);
  vkDestroyDescriptorSetLayout(device, dynamic, nullptr);
  destroy(buf);
}

TEST_F(Descriptors, ShaderModulesKeepTheirCode) {
  VkShaderModuleCreateInfo ci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  ci.codeSize = sizeof kEmptyComputeShader;
  ci.pCode = kEmptyComputeShader;
  VkShaderModule m = VK_NULL_HANDLE;
  ASSERT_EQ(vkCreateShaderModule(device, &ci, nullptr, &m), VK_SUCCESS);
  EXPECT_NE(m, VK_NULL_HANDLE);
  vkDestroyShaderModule(device, m, nullptr);
  vkDestroyShaderModule(device, VK_NULL_HANDLE, nullptr);
}

}  // namespace
}  // namespace tessera_test
