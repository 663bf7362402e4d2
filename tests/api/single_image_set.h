// One descriptor set holding one image descriptor (binding 0, fragment stage): the set-up the
// input attachment, depth/stencil input, feedback loop and multisampled-render-to-single-sampled
// tests share. Created through the loader's entry points like the rest of each test.
#pragma once

#include <vulkan/vulkan.h>

namespace tessera_test {

struct SingleImageSet {
  VkDescriptorSetLayout layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  VkDescriptorSet set = VK_NULL_HANDLE;
};

// A set whose binding 0 is a `type` descriptor of `view` in `layout` (with `sampler` for a
// combined image sampler); destroying `pool` and `layout` releases it.
inline SingleImageSet makeSingleImageSet(VkDevice dev, VkDescriptorType type, VkImageView view, VkImageLayout imageLayout,
                                         VkSampler sampler = VK_NULL_HANDLE) {
  SingleImageSet s;
  const VkDescriptorSetLayoutBinding binding{0, type, 1, VK_SHADER_STAGE_FRAGMENT_BIT, nullptr};
  const VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 1, &binding};
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &s.layout);
  const VkDescriptorPoolSize poolSize{type, 1};
  const VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  vkCreateDescriptorPool(dev, &dpci, nullptr, &s.pool);
  const VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, s.pool, 1, &s.layout};
  vkAllocateDescriptorSets(dev, &dsai, &s.set);
  const VkDescriptorImageInfo imageInfo{sampler, view, imageLayout};
  const VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, s.set, 0, 0, 1, type, &imageInfo};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);
  return s;
}

}  // namespace tessera_test
