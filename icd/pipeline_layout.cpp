// vkCreate/DestroyPipelineLayout: one allocation holding the PipelineLayout, its binding table
// and its push constant ranges (see pipeline_layout.h).
#include "pipeline_layout.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <vector>

#include "descriptors.h"
#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"

namespace tessera {
namespace {

constexpr size_t alignUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

// FNV-1a over the bytes of padding-free structs.
uint64_t hashBytes(uint64_t h, const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

uint64_t hashLayout(const PipelineLayout& l) {
  uint64_t h = 14695981039346656037ull;
  h = hashBytes(h, &l.setCount, sizeof l.setCount);
  h = hashBytes(h, l.sets, sizeof(PipelineLayoutSet) * l.setCount);
  h = hashBytes(h, l.bindings, sizeof(DescriptorLocation) * l.bindingCount);
  return hashBytes(h, &l.pushConstantSize, sizeof l.pushConstantSize);
}

}  // namespace

const DescriptorLocation* PipelineLayout::find(uint32_t set, uint32_t binding) const {
  auto b = setBindings(set);
  auto it = std::lower_bound(b.begin(), b.end(), binding,
                             [](const DescriptorLocation& d, uint32_t n) { return d.binding < n; });
  return it != b.end() && it->binding == binding ? &*it : nullptr;
}

std::span<const DescriptorLocation> PipelineLayout::setBindings(uint32_t set) const {
  if (set >= setCount) return {};
  return {bindings + sets[set].firstBinding, sets[set].bindingCount};
}

bool PipelineLayout::equivalent(const PipelineLayout& o) const {
  return hash == o.hash && setCount == o.setCount && bindingCount == o.bindingCount &&
         pushConstantSize == o.pushConstantSize &&
         std::memcmp(sets, o.sets, sizeof(PipelineLayoutSet) * setCount) == 0 &&
         std::memcmp(bindings, o.bindings, sizeof(DescriptorLocation) * bindingCount) == 0;
}

DynamicOffsetMap DynamicOffsetMap::of(const PipelineLayout* layout) {
  DynamicOffsetMap m;
  for (uint32_t s = 0; layout && s < layout->setCount; ++s) {
    m.base[s] = uint8_t(std::min(layout->sets[s].dynamicBase, abi::kMaxDynamicBuffers));
    m.count[s] = uint8_t(std::min(layout->sets[s].dynamicCount, abi::kMaxDynamicBuffers - m.base[s]));
  }
  return m;
}

namespace {

// One allocation: the PipelineLayout, then its bindings, then its push constant ranges.
PipelineLayout* allocateLayout(const VkAllocationCallbacks* a, uint32_t bindingCount, uint32_t rangeCount) {
  const size_t bindingsAt = alignUp(sizeof(PipelineLayout), alignof(DescriptorLocation));
  const size_t rangesAt = alignUp(bindingsAt + sizeof(DescriptorLocation) * bindingCount, alignof(VkPushConstantRange));
  const size_t total = rangesAt + sizeof(VkPushConstantRange) * rangeCount;
  auto* base = static_cast<uint8_t*>(hostAlloc(a, total, alignof(PipelineLayout), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT));
  if (!base) return nullptr;
  auto* pl = new (base) PipelineLayout;
  pl->bindingCount = bindingCount;
  pl->bindings = reinterpret_cast<DescriptorLocation*>(base + bindingsAt);
  pl->pushConstantRangeCount = rangeCount;
  pl->pushConstantRanges = reinterpret_cast<VkPushConstantRange*>(base + rangesAt);
  return pl;
}

void finishLayout(PipelineLayout& pl) {
  for (uint32_t i = 0; i < pl.pushConstantRangeCount; ++i)
    pl.pushConstantSize = std::max(pl.pushConstantSize, pl.pushConstantRanges[i].offset + pl.pushConstantRanges[i].size);
  pl.hash = hashLayout(pl);
}

}  // namespace

PipelineLayout* unitePipelineLayouts(const VkAllocationCallbacks* a, std::span<const PipelineLayout* const> layouts) {
  const PipelineLayout* from[abi::kMaxBoundSets] = {};
  uint32_t setCount = 0, bindingCount = 0;
  std::vector<VkPushConstantRange> ranges;
  for (const PipelineLayout* l : layouts) {
    if (!l) continue;
    setCount = std::max(setCount, l->setCount);
    for (uint32_t s = 0; s < l->setCount; ++s)
      if (!from[s] || (from[s]->sets[s].bindingCount == 0 && l->sets[s].bindingCount > 0)) from[s] = l;
    for (uint32_t i = 0; i < l->pushConstantRangeCount; ++i) {
      const VkPushConstantRange& r = l->pushConstantRanges[i];
      if (std::none_of(ranges.begin(), ranges.end(), [&](const VkPushConstantRange& o) {
            return o.stageFlags == r.stageFlags && o.offset == r.offset && o.size == r.size;
          }))
        ranges.push_back(r);
    }
  }
  for (uint32_t s = 0; s < setCount; ++s)
    if (from[s]) bindingCount += from[s]->sets[s].bindingCount;
  PipelineLayout* pl = allocateLayout(a, bindingCount, uint32_t(ranges.size()));
  if (!pl) return nullptr;
  pl->setCount = setCount;
  auto* bindings = const_cast<DescriptorLocation*>(pl->bindings);
  uint32_t next = 0, dynamicBase = 0;
  for (uint32_t s = 0; s < setCount; ++s) {
    PipelineLayoutSet& set = pl->sets[s];
    const PipelineLayout* src = from[s];
    set = {next, src ? src->sets[s].bindingCount : 0, dynamicBase, src ? src->sets[s].dynamicCount : 0};
    for (const DescriptorLocation& d : src ? src->setBindings(s) : std::span<const DescriptorLocation>{}) {
      DescriptorLocation c = d;
      // Dynamic offsets are numbered in pipeline-layout order: renumber after this layout's sets.
      if (c.dynamicIndex >= 0) c.dynamicIndex = int32_t(dynamicBase + uint32_t(d.dynamicIndex) - src->sets[s].dynamicBase);
      new (&bindings[next++]) DescriptorLocation(c);
    }
    dynamicBase += set.dynamicCount;
    if (src && src->pushSetLayout && src->pushSet == s && !pl->pushSetLayout) {
      src->pushSetLayout->retain();
      pl->pushSetLayout = src->pushSetLayout;
      pl->pushSet = s;
    }
  }
  pl->dynamicCount = dynamicBase;
  std::copy(ranges.begin(), ranges.end(), const_cast<VkPushConstantRange*>(pl->pushConstantRanges));
  finishLayout(*pl);
  return pl;
}

void destroyPipelineLayout(const VkAllocationCallbacks* a, PipelineLayout* pl) {
  if (!pl) return;
  if (pl->pushSetLayout) pl->pushSetLayout->release();
  pl->~PipelineLayout();
  hostFree(a, pl);
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreatePipelineLayout(VkDevice device, const VkPipelineLayoutCreateInfo* pCreateInfo,
                                                             const VkAllocationCallbacks* pAllocator,
                                                             VkPipelineLayout* pPipelineLayout) {
  const VkAllocationCallbacks* a = pickAllocator(pAllocator, fromHandle<Device>(device)->allocator());
  // More sets than maxBoundDescriptorSets is invalid usage; the extra ones are not kept.
  const uint32_t setCount = std::min(pCreateInfo->setLayoutCount, abi::kMaxBoundSets);
  auto setLayout = [&](uint32_t s) { return fromHandle<DescriptorSetLayout>(pCreateInfo->pSetLayouts[s]); };
  uint32_t bindingCount = 0;
  for (uint32_t s = 0; s < setCount; ++s)
    if (const DescriptorSetLayout* l = setLayout(s)) bindingCount += l->bindingCount;  // NULL: an empty set

  PipelineLayout* pl = allocateLayout(a, bindingCount, pCreateInfo->pushConstantRangeCount);
  if (!pl) return VK_ERROR_OUT_OF_HOST_MEMORY;
  auto* bindings = const_cast<DescriptorLocation*>(pl->bindings);
  auto* ranges = const_cast<VkPushConstantRange*>(pl->pushConstantRanges);
  pl->setCount = setCount;
  uint32_t next = 0, dynamicBase = 0;
  for (uint32_t s = 0; s < setCount; ++s) {
    DescriptorSetLayout* l = setLayout(s);
    PipelineLayoutSet& set = pl->sets[s];
    set = {next, l ? l->bindingCount : 0, dynamicBase, l ? l->dynamicCount : 0};
    for (uint32_t i = 0; i < set.bindingCount; ++i) {
      const DescriptorBinding& b = l->bindings[i];
      const int32_t dynamic = b.dynamicIndex == kNotDynamic ? -1 : int32_t(dynamicBase + b.dynamicIndex);
      new (&bindings[next++]) DescriptorLocation{b.binding, uint32_t(b.type), b.count, b.offset, dynamic, b.flags};
    }
    dynamicBase += set.dynamicCount;
    if (l && (l->flags & VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR) && !pl->pushSetLayout) {
      l->retain();
      pl->pushSetLayout = l;
      pl->pushSet = s;
    }
  }
  pl->dynamicCount = dynamicBase;
  for (uint32_t i = 0; i < pCreateInfo->pushConstantRangeCount; ++i) ranges[i] = pCreateInfo->pPushConstantRanges[i];
  finishLayout(*pl);
  *pPipelineLayout = toHandle<VkPipelineLayout>(pl);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyPipelineLayout(VkDevice device, VkPipelineLayout pipelineLayout,
                                                          const VkAllocationCallbacks* pAllocator) {
  if (!pipelineLayout) return;
  destroyPipelineLayout(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()),
                        fromHandle<PipelineLayout>(pipelineLayout));
}

}  // extern "C"
