// vkCreate/DestroyDescriptorSetLayout and vkGetDescriptorSetLayoutSupport. Bindings are placed
// in binding-number order: a descriptor array at a 32-byte boundary, kDescriptorSize bytes per
// element; an inline uniform block's bytes in place at a 16-byte boundary. Dynamic buffers are
// numbered in the same order, array elements consecutively (the order of pDynamicOffsets).
#include <algorithm>
#include <new>

#include "descriptors.h"
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "physical_device.h"

namespace tessera {
namespace {

constexpr uint64_t alignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

const VkDescriptorBindingFlags* bindingFlags(const VkDescriptorSetLayoutCreateInfo* ci) {
  for (auto* s = static_cast<const VkBaseInStructure*>(ci->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO) continue;
    auto* f = reinterpret_cast<const VkDescriptorSetLayoutBindingFlagsCreateInfo*>(s);
    return f->bindingCount ? f->pBindingFlags : nullptr;  // 0: no flags for any binding
  }
  return nullptr;
}

bool hasImmutableSamplers(const VkDescriptorSetLayoutBinding& b) {
  return b.pImmutableSamplers && b.descriptorCount &&
         (b.descriptorType == VK_DESCRIPTOR_TYPE_SAMPLER || b.descriptorType == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER);
}

// Places the (sorted) bindings and sums what the layout needs. False when the set would not
// fit the 32-bit offsets of the layout (no host could allocate it anyway).
bool placeBindings(DescriptorSetLayout& layout) {
  uint64_t offset = 0;
  for (uint32_t i = 0; i < layout.bindingCount; ++i) {
    DescriptorBinding& b = layout.bindings[i];
    offset = alignUp(offset, b.isInline() ? 16 : abi::kDescriptorSize);
    b.offset = uint32_t(offset);
    offset += uint64_t(b.count) * b.stride();
    if (offset > UINT32_MAX) return false;
    if (isDynamicBuffer(b.type)) {
      b.dynamicIndex = layout.dynamicCount;
      layout.dynamicCount += b.count;
    }
    layout.typeCounts[descriptorTypeSlot(b.type)] += b.count;
    if (b.isInline() && b.count) ++layout.inlineBindings;
  }
  layout.size = uint32_t(offset);
  layout.variableLast = layout.bindingCount &&
                        (layout.bindings[layout.bindingCount - 1].flags & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT);
  return true;
}

}  // namespace

const DescriptorBinding* DescriptorSetLayout::find(uint32_t binding) const {
  uint32_t i = indexOf(binding);
  return i < bindingCount ? &bindings[i] : nullptr;
}

uint32_t DescriptorSetLayout::indexOf(uint32_t binding) const {
  const DescriptorBinding* begin = bindings;
  const DescriptorBinding* end = begin + bindingCount;
  const DescriptorBinding* it =
      std::lower_bound(begin, end, binding, [](const DescriptorBinding& b, uint32_t n) { return b.binding < n; });
  return it != end && it->binding == binding ? uint32_t(it - begin) : bindingCount;
}

uint32_t DescriptorSetLayout::setSize(uint32_t variableCount) const {
  if (!variableLast) return size;
  const DescriptorBinding& last = bindings[bindingCount - 1];
  return last.offset + std::min(variableCount, last.count) * last.stride();
}

void DescriptorSetLayout::release() {
  if (references.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
  const VkAllocationCallbacks callbacks = allocatorStorage;
  const bool custom = allocator != nullptr;
  this->~DescriptorSetLayout();
  hostFree(custom ? &callbacks : nullptr, this);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDescriptorSetLayout(VkDevice device,
                                                                  const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                                  const VkAllocationCallbacks* pAllocator,
                                                                  VkDescriptorSetLayout* pSetLayout) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Device>(device)->allocator());
  const uint32_t n = pCreateInfo->bindingCount;
  size_t samplerCount = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (hasImmutableSamplers(pCreateInfo->pBindings[i])) samplerCount += pCreateInfo->pBindings[i].descriptorCount;

  // One allocation: the layout, its bindings, then copies of its immutable samplers.
  const size_t bindingsAt = alignUp(sizeof(DescriptorSetLayout), alignof(DescriptorBinding));
  const size_t samplersAt = alignUp(bindingsAt + sizeof(DescriptorBinding) * n, alignof(Sampler));
  const size_t total = samplersAt + sizeof(Sampler) * samplerCount;
  auto* base = static_cast<uint8_t*>(hostAlloc(a, total, alignof(DescriptorSetLayout), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!base) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* layout = new (base) DescriptorSetLayout;
  if (a) {
    layout->allocatorStorage = *a;
    layout->allocator = &layout->allocatorStorage;
  }
  layout->flags = pCreateInfo->flags;
  layout->bindingCount = n;
  layout->bindings = reinterpret_cast<DescriptorBinding*>(base + bindingsAt);
  auto* samplers = reinterpret_cast<Sampler*>(base + samplersAt);
  const VkDescriptorBindingFlags* flags = bindingFlags(pCreateInfo);
  for (uint32_t i = 0; i < n; ++i) {
    const VkDescriptorSetLayoutBinding& src = pCreateInfo->pBindings[i];
    DescriptorBinding* b = new (&layout->bindings[i]) DescriptorBinding{
        src.binding, src.descriptorType, src.descriptorCount, src.stageFlags, flags ? flags[i] : 0, 0, kNotDynamic, nullptr};
    if (hasImmutableSamplers(src)) {
      for (uint32_t j = 0; j < src.descriptorCount; ++j)
        new (&samplers[j]) Sampler(*fromHandle<Sampler>(src.pImmutableSamplers[j]));
      b->immutableSamplers = samplers;
      samplers += src.descriptorCount;
    }
  }
  std::sort(layout->bindings, layout->bindings + n,
            [](const DescriptorBinding& x, const DescriptorBinding& y) { return x.binding < y.binding; });
  if (!placeBindings(*layout)) {
    layout->release();
    return VK_ERROR_OUT_OF_HOST_MEMORY;
  }
  *pSetLayout = toHandle<VkDescriptorSetLayout>(layout);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDescriptorSetLayout(VkDevice, VkDescriptorSetLayout setLayout,
                                                               const VkAllocationCallbacks*) {
  // Freed with the callbacks it was created with (compatible with pAllocator, as the spec
  // requires) once the last set allocated with it is gone too.
  if (setLayout) fromHandle<DescriptorSetLayout>(setLayout)->release();
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDescriptorSetLayoutSupport(VkDevice, const VkDescriptorSetLayoutCreateInfo* pCreateInfo,
                                                                  VkDescriptorSetLayoutSupport* pSupport) {
  const VkDescriptorBindingFlags* flags = bindingFlags(pCreateInfo);
  uint64_t descriptors = 0;
  uint32_t dynamicUniform = 0, dynamicStorage = 0, inlineBlocks = 0;
  const VkDescriptorSetLayoutBinding* variable = nullptr;
  bool ok = true;
  for (uint32_t i = 0; i < pCreateInfo->bindingCount; ++i) {
    const VkDescriptorSetLayoutBinding& b = pCreateInfo->pBindings[i];
    if (flags && (flags[i] & VK_DESCRIPTOR_BINDING_VARIABLE_DESCRIPTOR_COUNT_BIT)) variable = &b;
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) {
      // An inline uniform block is one descriptor of descriptorCount bytes.
      ok &= b.descriptorCount <= kMaxInlineUniformBlockSize;
      if (b.descriptorCount) {
        ++inlineBlocks;
        ++descriptors;
      }
      continue;
    }
    descriptors += b.descriptorCount;
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC) dynamicUniform += b.descriptorCount;
    if (b.descriptorType == VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC) dynamicStorage += b.descriptorCount;
    if (descriptorTypeSlot(b.descriptorType) == kDescriptorTypeSlots - 1) ok = false;  // a type Tessera lacks
  }
  if (pCreateInfo->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR)
    ok = ok && descriptors <= kMaxPushDescriptors;  // VkPhysicalDevicePushDescriptorPropertiesKHR
  ok = ok && descriptors <= kMaxPerSetDescriptors && dynamicUniform <= kMaxDynamicUniformBuffers &&
       dynamicStorage <= kMaxDynamicStorageBuffers && inlineBlocks <= kMaxInlineUniformBlocksPerSet;
  pSupport->supported = ok ? VK_TRUE : VK_FALSE;
  for (auto* s = static_cast<VkBaseOutStructure*>(pSupport->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT) continue;
    uint32_t max = 0;
    if (ok && variable) {
      if (variable->descriptorType == VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK) max = kMaxInlineUniformBlockSize;
      else max = uint32_t(kMaxPerSetDescriptors - (descriptors - variable->descriptorCount));
    }
    reinterpret_cast<VkDescriptorSetVariableDescriptorCountLayoutSupport*>(s)->maxVariableDescriptorCount = max;
  }
}

}  // extern "C"
