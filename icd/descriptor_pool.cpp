// Descriptor pools and the sets allocated from them. Each set is one host allocation (through
// the pool's callbacks): the DescriptorSet header, then its zeroed memory. The pool counts sets,
// descriptors and inline uniform block bytes and bindings, and refuses an allocation that would
// exceed what it was created with (VK_ERROR_OUT_OF_POOL_MEMORY); freeing a set or resetting the
// pool gives the counts back. Sets never fragment a pool.
//
// Per-type counts are a reservation, not a wall. The spec allows either answer when a set needs
// a descriptor type the pool reserved too few of: after VK_KHR_maintenance1 (core 1.1)
// vkAllocateDescriptorSets may fail with VK_ERROR_OUT_OF_POOL_MEMORY, and nothing requires it to
// fail. Other drivers do not: lavapipe never fails, RADV only counts sets and the pool's total
// size. Programs written against them get pool sizes wrong unnoticed (a video framework that
// reserved no uniform buffers for a layout with one then waited forever on a fence it never
// submitted). So a set may use descriptors of any type as long as the pool's total descriptor
// count (all types but inline uniform blocks) and maxSets allow it; inline uniform block bytes
// and bindings are a different kind of room and stay counted on their own.
#include <algorithm>
#include <cstring>
#include <new>

#include "descriptors.h"
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"

namespace tessera {
namespace {

constexpr size_t kSetMemoryAt = (sizeof(DescriptorSet) + 63) & ~size_t(63);

// Usage of one set of `layout` per type slot, the variable-count binding at `variableCount`.
void setUsage(const DescriptorSetLayout& layout, uint32_t variableCount, uint32_t (&usage)[kDescriptorTypeSlots]) {
  std::copy(std::begin(layout.typeCounts), std::end(layout.typeCounts), usage);
  if (layout.variableLast) {
    const DescriptorBinding& last = layout.bindings[layout.bindingCount - 1];
    usage[descriptorTypeSlot(last.type)] -= last.count - std::min(variableCount, last.count);
  }
}

uint32_t inlineBindingsOf(const DescriptorSetLayout& layout, uint32_t variableCount) {
  uint32_t n = layout.inlineBindings;
  // A variable-count inline block allocated with zero bytes takes no binding.
  if (layout.variableLast && layout.bindings[layout.bindingCount - 1].isInline() &&
      layout.bindings[layout.bindingCount - 1].count && !variableCount)
    --n;
  return n;
}

void resetPool(DescriptorPool& pool) {
  while (pool.sets) freeDescriptorSet(pool.sets);
}

}  // namespace

// Immutable samplers are part of the set from its allocation on: write their descriptors now.
void writeImmutableSamplers(DescriptorSet& set) {
  const DescriptorSetLayout& layout = *set.layout;
  for (uint32_t i = 0; i < layout.bindingCount; ++i) {
    const DescriptorBinding& b = layout.bindings[i];
    if (!b.immutableSamplers) continue;
    auto* d = reinterpret_cast<abi::ImageDescriptor*>(set.memory + b.offset);
    for (uint32_t e = 0, n = set.countIn(i); e < n; ++e) d[e].sampler = b.immutableSamplers[e].state();
  }
}

bool poolHasRoom(const DescriptorPool& pool, const DescriptorSetLayout& layout, uint32_t variableCount) {
  if (pool.liveSets >= pool.maxSets) return false;
  uint32_t usage[kDescriptorTypeSlots];
  setUsage(layout, variableCount, usage);
  constexpr uint32_t kInline = descriptorTypeSlot(VK_DESCRIPTOR_TYPE_INLINE_UNIFORM_BLOCK);
  if (usage[kInline] > pool.capacity[kInline] - pool.used[kInline]) return false;
  uint64_t needed = 0, capacity = 0, used = 0;
  for (uint32_t t = 0; t < kDescriptorTypeSlots; ++t) {
    if (t == kInline) continue;
    needed += usage[t];
    capacity += pool.capacity[t];
    used += pool.used[t];
  }
  if (needed > capacity - used) return false;
  return inlineBindingsOf(layout, variableCount) <= pool.maxInlineBindings - pool.inlineBindingsUsed;
}

VkResult allocateDescriptorSet(DescriptorPool& pool, DescriptorSetLayout& layout, uint32_t variableCount,
                               DescriptorSet** out) {
  if (layout.variableLast) variableCount = std::min(variableCount, layout.bindings[layout.bindingCount - 1].count);
  else variableCount = 0;
  if (!poolHasRoom(pool, layout, variableCount)) return VK_ERROR_OUT_OF_POOL_MEMORY;
  const uint32_t size = layout.setSize(variableCount);
  auto* base = static_cast<uint8_t*>(hostAlloc(pool.allocator, kSetMemoryAt + std::max<size_t>(size, 1), 64,
                                               VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!base) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* set = new (base) DescriptorSet;
  set->pool = &pool;
  set->layout = &layout;
  set->variableCount = variableCount;
  set->size = size;
  set->memory = base + kSetMemoryAt;
  std::memset(set->memory, 0, size);  // unwritten descriptors are null descriptors
  layout.retain();
  writeImmutableSamplers(*set);

  uint32_t usage[kDescriptorTypeSlots];
  setUsage(layout, variableCount, usage);
  for (uint32_t t = 0; t < kDescriptorTypeSlots; ++t) pool.used[t] += usage[t];
  pool.inlineBindingsUsed += inlineBindingsOf(layout, variableCount);
  ++pool.liveSets;
  set->next = pool.sets;
  if (pool.sets) pool.sets->prev = set;
  pool.sets = set;
  *out = set;
  return VK_SUCCESS;
}

void freeDescriptorSet(DescriptorSet* set) {
  DescriptorPool& pool = *set->pool;
  uint32_t usage[kDescriptorTypeSlots];
  setUsage(*set->layout, set->variableCount, usage);
  for (uint32_t t = 0; t < kDescriptorTypeSlots; ++t) pool.used[t] -= usage[t];
  pool.inlineBindingsUsed -= inlineBindingsOf(*set->layout, set->variableCount);
  --pool.liveSets;
  if (set->prev) set->prev->next = set->next;
  else pool.sets = set->next;
  if (set->next) set->next->prev = set->prev;
  set->layout->release();
  set->~DescriptorSet();
  hostFree(pool.allocator, set);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateDescriptorPool(VkDevice device, const VkDescriptorPoolCreateInfo* pCreateInfo,
                                                             const VkAllocationCallbacks* pAllocator,
                                                             VkDescriptorPool* pDescriptorPool) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Device>(device)->allocator());
  DescriptorPool* pool = hostNew<DescriptorPool>(a, VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!pool) return VK_ERROR_OUT_OF_HOST_MEMORY;
  if (a) {
    pool->allocatorStorage = *a;
    pool->allocator = &pool->allocatorStorage;
  }
  pool->flags = pCreateInfo->flags;
  pool->maxSets = pCreateInfo->maxSets;
  for (uint32_t i = 0; i < pCreateInfo->poolSizeCount; ++i) {
    const VkDescriptorPoolSize& s = pCreateInfo->pPoolSizes[i];
    uint32_t& c = pool->capacity[descriptorTypeSlot(s.type)];
    c = uint32_t(std::min<uint64_t>(uint64_t(c) + s.descriptorCount, UINT32_MAX));  // a type may repeat
  }
  for (auto* s = static_cast<const VkBaseInStructure*>(pCreateInfo->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_INLINE_UNIFORM_BLOCK_CREATE_INFO)
      pool->maxInlineBindings =
          reinterpret_cast<const VkDescriptorPoolInlineUniformBlockCreateInfo*>(s)->maxInlineUniformBlockBindings;
  *pDescriptorPool = toHandle<VkDescriptorPool>(pool);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyDescriptorPool(VkDevice device, VkDescriptorPool descriptorPool,
                                                          const VkAllocationCallbacks* pAllocator) {
  if (!descriptorPool) return;
  DescriptorPool* pool = fromHandle<DescriptorPool>(descriptorPool);
  resetPool(*pool);
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), pool);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkResetDescriptorPool(VkDevice, VkDescriptorPool descriptorPool,
                                                            VkDescriptorPoolResetFlags) {
  resetPool(*fromHandle<DescriptorPool>(descriptorPool));
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkAllocateDescriptorSets(VkDevice, const VkDescriptorSetAllocateInfo* pAllocateInfo,
                                                               VkDescriptorSet* pDescriptorSets) {
  DescriptorPool& pool = *fromHandle<DescriptorPool>(pAllocateInfo->descriptorPool);
  const uint32_t* variableCounts = nullptr;
  for (auto* s = static_cast<const VkBaseInStructure*>(pAllocateInfo->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO) continue;
    auto* v = reinterpret_cast<const VkDescriptorSetVariableDescriptorCountAllocateInfo*>(s);
    if (v->descriptorSetCount) variableCounts = v->pDescriptorCounts;  // 0: every variable count is 0
  }
  VkResult result = VK_SUCCESS;
  uint32_t made = 0;
  for (; made < pAllocateInfo->descriptorSetCount; ++made) {
    DescriptorSet* set = nullptr;
    result = allocateDescriptorSet(pool, *fromHandle<DescriptorSetLayout>(pAllocateInfo->pSetLayouts[made]),
                                   variableCounts ? variableCounts[made] : 0, &set);
    if (result != VK_SUCCESS) break;
    pDescriptorSets[made] = toHandle<VkDescriptorSet>(set);
  }
  if (result == VK_SUCCESS) return VK_SUCCESS;
  // Spec: on failure the sets made by this call are freed and every handle is VK_NULL_HANDLE.
  for (uint32_t i = 0; i < made; ++i) freeDescriptorSet(fromHandle<DescriptorSet>(pDescriptorSets[i]));
  std::fill_n(pDescriptorSets, pAllocateInfo->descriptorSetCount, VK_NULL_HANDLE);
  return result;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkFreeDescriptorSets(VkDevice, VkDescriptorPool, uint32_t descriptorSetCount,
                                                           const VkDescriptorSet* pDescriptorSets) {
  for (uint32_t i = 0; i < descriptorSetCount; ++i)
    if (pDescriptorSets[i]) freeDescriptorSet(fromHandle<DescriptorSet>(pDescriptorSets[i]));
  return VK_SUCCESS;
}

}  // extern "C"
