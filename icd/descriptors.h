// Descriptor set layouts, descriptor pools and sets, update templates. A descriptor set is a
// block of zero-initialised host memory laid out by its set layout as
// include/tessera/shader_abi.h fixes it: kernels read descriptors from it at execution time.
#pragma once

#include <atomic>
#include <cstdint>
#include <vulkan/vulkan_core.h>

#include "sampler.h"
#include "tessera/shader_abi.h"

namespace tessera {

// Pool accounting slot of a descriptor type: the eleven 1.0 types keep their values, inline
// uniform blocks are slot 11, anything else (types of extensions Tessera lacks) slot 12.
constexpr uint32_t kDescriptorTypeSlots = 13;
constexpr uint32_t descriptorTypeSlot(VkDescriptorType type) {
  if (uint32_t(type) <= uint32_t(VK_DESCRIPTOR_TYPE_INPUT_ATTACHMENT)) return uint32_t(type);
  return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK ? 11 : 12;
}
constexpr bool isDynamicBuffer(VkDescriptorType type) {
  return type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC || type == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC;
}

constexpr uint32_t kNotDynamic = UINT32_MAX;

struct DescriptorBinding {
  uint32_t binding;
  VkDescriptorType type;
  uint32_t count;  // array size; bytes for an inline uniform block; a variable count's maximum
  VkShaderStageFlags stages;
  VkDescriptorBindingFlags flags;
  uint32_t offset;        // bytes from the start of the set's memory
  uint32_t dynamicIndex;  // index of element 0 among the set's dynamic offsets, or kNotDynamic
  const Sampler* immutableSamplers;  // `count` copies owned by the layout, or nullptr

  bool isInline() const { return type == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK; }
  uint32_t stride() const { return isInline() ? 1 : abi::kDescriptorSize; }  // bytes per element
};

// Reference counted: the handle holds one reference and every set allocated with the layout
// another, because sets (and the immutable samplers their memory points at) may outlive the
// VkDescriptorSetLayout. Freed through the callbacks it was created with.
struct DescriptorSetLayout {
  std::atomic<uint32_t> references{1};
  VkAllocationCallbacks allocatorStorage{};
  const VkAllocationCallbacks* allocator = nullptr;
  VkDescriptorSetLayoutCreateFlags flags = 0;
  uint32_t bindingCount = 0;
  DescriptorBinding* bindings = nullptr;  // sorted by binding number
  uint32_t size = 0;                      // bytes of set memory, a variable count at its maximum
  uint32_t dynamicCount = 0;              // dynamic buffer descriptors, all bindings together
  uint32_t typeCounts[kDescriptorTypeSlots]{};  // pool usage, a variable count at its maximum
  uint32_t inlineBindings = 0;                  // inline uniform block bindings
  bool variableLast = false;  // the last binding has VARIABLE_DESCRIPTOR_COUNT

  const DescriptorBinding* find(uint32_t binding) const;  // nullptr when the layout lacks it
  uint32_t indexOf(uint32_t binding) const;                 // bindingCount when absent
  // The array size of bindings[index] in a set allocated with `variableCount`.
  uint32_t countIn(uint32_t index, uint32_t variableCount) const {
    return variableLast && index + 1 == bindingCount ? variableCount : bindings[index].count;
  }
  uint32_t setSize(uint32_t variableCount) const;

  void retain() { references.fetch_add(1, std::memory_order_relaxed); }
  void release();  // frees the layout with its last reference
};

struct DescriptorPool;

struct DescriptorSet {
  DescriptorPool* pool = nullptr;
  DescriptorSetLayout* layout = nullptr;  // one reference held
  DescriptorSet* prev = nullptr;          // the pool's live sets
  DescriptorSet* next = nullptr;
  uint32_t variableCount = 0;  // array size of a variable-count binding (0 when there is none)
  uint32_t size = 0;           // bytes of memory
  uint8_t* memory = nullptr;   // 64-byte aligned, in the same allocation as this header

  uint32_t countIn(uint32_t bindingIndex) const { return layout->countIn(bindingIndex, variableCount); }
};

struct DescriptorPool {
  VkAllocationCallbacks allocatorStorage{};
  const VkAllocationCallbacks* allocator = nullptr;
  VkDescriptorPoolCreateFlags flags = 0;
  uint32_t maxSets = 0;
  uint32_t liveSets = 0;
  uint32_t capacity[kDescriptorTypeSlots]{};  // descriptors per type slot (inline: bytes)
  uint32_t used[kDescriptorTypeSlots]{};
  uint32_t maxInlineBindings = UINT32_MAX;  // VkDescriptorPoolInlineUniformBlockCreateInfo, if given
  uint32_t inlineBindingsUsed = 0;
  DescriptorSet* sets = nullptr;  // live sets, newest first
};

// Pool accounting (descriptor_pool.cpp): whether a set of `layout` fits what is left in `pool`.
bool poolHasRoom(const DescriptorPool& pool, const DescriptorSetLayout& layout, uint32_t variableCount);
// Allocates one zeroed set (immutable samplers written). VK_ERROR_OUT_OF_POOL_MEMORY when the
// pool's limits would be exceeded, VK_ERROR_OUT_OF_HOST_MEMORY when the host is out of memory.
VkResult allocateDescriptorSet(DescriptorPool& pool, DescriptorSetLayout& layout, uint32_t variableCount,
                               DescriptorSet** out);
void freeDescriptorSet(DescriptorSet* set);

// Descriptor writes (descriptor_update.cpp). `infos` points at element 0's VkDescriptorImageInfo,
// VkDescriptorBufferInfo or VkBufferView (by `type`), `stride` bytes apart; writes past the end of
// a binding continue in the following bindings, as the spec describes for consecutive bindings.
void writeDescriptors(DescriptorSet& set, uint32_t binding, uint32_t arrayElement, uint32_t count,
                      VkDescriptorType type, const void* infos, size_t stride);
// Inline uniform blocks: `bytes` bytes at byte `offset` of the binding.
void writeInlineUniformBlock(DescriptorSet& set, uint32_t binding, uint32_t offset, uint32_t bytes,
                             const void* data);
void copyDescriptors(const VkCopyDescriptorSet& copy);
// One VkWriteDescriptorSet into `set` (its dstSet is not read): vkUpdateDescriptorSets and
// push descriptors (icd/cmd_push_descriptor.cpp) write through this.
void applyDescriptorWrite(DescriptorSet& set, const VkWriteDescriptorSet& write);
// Immutable samplers are part of a set from its allocation on (descriptor_pool.cpp): writes
// their descriptors into fresh set memory.
void writeImmutableSamplers(DescriptorSet& set);

struct DescriptorUpdateTemplate {
  uint32_t entryCount = 0;
  const VkDescriptorUpdateTemplateEntry* entries = nullptr;  // in the same allocation
  // A push descriptor template (VK_DESCRIPTOR_UPDATE_TEMPLATE_TYPE_PUSH_DESCRIPTORS_KHR) names
  // the bind point vkCmdPushDescriptorSetWithTemplateKHR pushes to.
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
};
// Replays the template's entries on `set` with the application's `data`.
void applyUpdateTemplate(DescriptorSet& set, const DescriptorUpdateTemplate& t, const void* data);

}  // namespace tessera
