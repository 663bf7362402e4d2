#include "compute.h"

#include <algorithm>
#include <string>

namespace bench {

ComputeKernel::ComputeKernel(Device& d, const uint32_t* spirv, size_t spirvBytes, uint32_t storageBuffers,
                             uint32_t pushConstantBytes, uint32_t maxSets)
    : ComputeKernel(d, spirv, spirvBytes, std::vector<VkDescriptorType>(storageBuffers, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER),
                    pushConstantBytes, maxSets) {}

ComputeKernel::ComputeKernel(Device& d, const uint32_t* spirv, size_t spirvBytes,
                             std::vector<VkDescriptorType> bindingTypes, uint32_t pushConstantBytes, uint32_t maxSets)
    : d_(d), bindings_(std::move(bindingTypes)), pushBytes_(pushConstantBytes) {
  d.require(kComputeCommands);
  auto& vk = d.vk;
  VkDevice dev = d.device;

  VkShaderModuleCreateInfo smci{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  smci.codeSize = spirvBytes;
  smci.pCode = spirv;
  VkResult r = vk.CreateShaderModule(dev, &smci, nullptr, &module_);
  if (r != VK_SUCCESS) throw Unsupported(std::string("vkCreateShaderModule returned ") + resultName(r));
  VkShaderModule module = module_;
  d.onDestroy([&vk, dev, module] { vk.DestroyShaderModule(dev, module, nullptr); });

  const uint32_t count = uint32_t(bindings_.size());
  std::vector<VkDescriptorSetLayoutBinding> bindings(count);
  for (uint32_t i = 0; i < count; ++i) bindings[i] = {i, bindings_[i], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
  dslci.bindingCount = count;
  dslci.pBindings = bindings.data();
  BENCH_VK(vk.CreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout_));
  VkDescriptorSetLayout setLayout = setLayout_;
  d.onDestroy([&vk, dev, setLayout] { vk.DestroyDescriptorSetLayout(dev, setLayout, nullptr); });

  VkPushConstantRange pcr{VK_SHADER_STAGE_COMPUTE_BIT, 0, pushConstantBytes};
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
  plci.setLayoutCount = 1;
  plci.pSetLayouts = &setLayout_;
  plci.pushConstantRangeCount = pushConstantBytes ? 1 : 0;
  plci.pPushConstantRanges = &pcr;
  BENCH_VK(vk.CreatePipelineLayout(dev, &plci, nullptr, &layout_));
  VkPipelineLayout layout = layout_;
  d.onDestroy([&vk, dev, layout] { vk.DestroyPipelineLayout(dev, layout, nullptr); });

  std::vector<VkDescriptorPoolSize> sizes;
  for (VkDescriptorType type : {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}) {
    const uint32_t n = uint32_t(std::count(bindings_.begin(), bindings_.end(), type));
    if (n) sizes.push_back({type, n * maxSets});
  }
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
  dpci.maxSets = maxSets;
  dpci.poolSizeCount = uint32_t(sizes.size());
  dpci.pPoolSizes = sizes.data();
  BENCH_VK(vk.CreateDescriptorPool(dev, &dpci, nullptr, &pool_));
  VkDescriptorPool pool = pool_;
  d.onDestroy([&vk, dev, pool] { vk.DestroyDescriptorPool(dev, pool, nullptr); });
}

VkPipeline ComputeKernel::createUntracked(const VkSpecializationInfo* spec, VkPipelineCache cache) {
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  cpci.stage.module = module_;
  cpci.stage.pName = "main";
  cpci.stage.pSpecializationInfo = spec;
  cpci.layout = layout_;
  VkPipeline p = VK_NULL_HANDLE;
  VkResult r = d_.vk.CreateComputePipelines(d_.device, cache, 1, &cpci, nullptr, &p);
  if (r != VK_SUCCESS) throw Unsupported(std::string("vkCreateComputePipelines returned ") + resultName(r));
  return p;
}

VkPipeline ComputeKernel::pipeline(const VkSpecializationInfo* spec, VkPipelineCache cache) {
  VkPipeline p = createUntracked(spec, cache);
  auto& vk = d_.vk;
  VkDevice dev = d_.device;
  d_.onDestroy([&vk, dev, p] { vk.DestroyPipeline(dev, p, nullptr); });
  return p;
}

VkDescriptorSet ComputeKernel::allocateSet(const std::vector<VkDescriptorType>& expected) {
  if (expected != bindings_) throw Failure("benchmark bug: the descriptors do not match the kernel's bindings");
  VkDescriptorSetAllocateInfo ai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
  ai.descriptorPool = pool_;
  ai.descriptorSetCount = 1;
  ai.pSetLayouts = &setLayout_;
  VkDescriptorSet set = VK_NULL_HANDLE;
  BENCH_VK(d_.vk.AllocateDescriptorSets(d_.device, &ai, &set));
  return set;
}

VkDescriptorSet ComputeKernel::imageSet(const std::vector<VkImageView>& views) {
  VkDescriptorSet set = allocateSet(std::vector<VkDescriptorType>(views.size(), VK_DESCRIPTOR_TYPE_STORAGE_IMAGE));
  std::vector<VkDescriptorImageInfo> infos(views.size());
  std::vector<VkWriteDescriptorSet> writes(views.size());
  for (size_t i = 0; i < views.size(); ++i) {
    infos[i] = {VK_NULL_HANDLE, views[i], VK_IMAGE_LAYOUT_GENERAL};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = uint32_t(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    writes[i].pImageInfo = &infos[i];
  }
  d_.vk.UpdateDescriptorSets(d_.device, uint32_t(writes.size()), writes.data(), 0, nullptr);
  return set;
}

VkDescriptorSet ComputeKernel::descriptorSet(const std::vector<BufferRange>& buffers) {
  VkDescriptorSet set = allocateSet(std::vector<VkDescriptorType>(buffers.size(), VK_DESCRIPTOR_TYPE_STORAGE_BUFFER));
  std::vector<VkDescriptorBufferInfo> infos(buffers.size());
  std::vector<VkWriteDescriptorSet> writes(buffers.size());
  for (size_t i = 0; i < buffers.size(); ++i) {
    infos[i] = {buffers[i].buffer, buffers[i].offset, buffers[i].range};
    writes[i] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    writes[i].dstSet = set;
    writes[i].dstBinding = uint32_t(i);
    writes[i].descriptorCount = 1;
    writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[i].pBufferInfo = &infos[i];
  }
  d_.vk.UpdateDescriptorSets(d_.device, uint32_t(writes.size()), writes.data(), 0, nullptr);
  return set;
}

void ComputeKernel::dispatch(VkCommandBuffer cb, VkPipeline p, VkDescriptorSet set, const void* push, uint32_t x,
                             uint32_t y, uint32_t z) {
  auto& vk = d_.vk;
  vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, p);
  vk.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, layout_, 0, 1, &set, 0, nullptr);
  if (pushBytes_) vk.CmdPushConstants(cb, layout_, VK_SHADER_STAGE_COMPUTE_BIT, 0, pushBytes_, push);
  vk.CmdDispatch(cb, x, y, z);
}

}  // namespace bench
