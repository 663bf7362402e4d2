// VkPipelineLayout as pipeline code sees it: for every (set, binding) where its descriptors
// live in the set's memory and which dynamic offsets it uses, plus the push constant ranges.
// Everything is copied out of the set layouts at creation (they may be destroyed while the
// pipeline layout lives), into one self-contained, padding-free table that hashes and
// compares bytewise, so a compiled pipeline can be keyed by it.
#pragma once

#include <cstdint>
#include <span>
#include <type_traits>
#include <vulkan/vulkan_core.h>

#include "tessera/shader_abi.h"

namespace tessera {

struct DescriptorSetLayout;

// One binding of one set.
struct DescriptorLocation {
  uint32_t binding;
  uint32_t type;          // VkDescriptorType
  uint32_t arraySize;     // descriptors; bytes for an inline uniform block; a variable count's maximum
  uint32_t offset;        // bytes from the start of the set's memory (abi::BoundResources::sets[set])
  int32_t dynamicIndex;   // abi::BoundResources::dynamicOffsets index of element 0; -1: not dynamic
  uint32_t bindingFlags;  // VkDescriptorBindingFlags (partially bound, variable count, ...)
};
static_assert(std::has_unique_object_representations_v<DescriptorLocation>);

struct PipelineLayoutSet {
  uint32_t firstBinding;  // index of the set's first DescriptorLocation in PipelineLayout::bindings
  uint32_t bindingCount;
  uint32_t dynamicBase;   // the set's first dynamic offset, in pipeline-layout order
  uint32_t dynamicCount;
};
static_assert(std::has_unique_object_representations_v<PipelineLayoutSet>);

struct PipelineLayout {
  uint32_t setCount = 0;
  PipelineLayoutSet sets[abi::kMaxBoundSets]{};  // [setCount, kMaxBoundSets) are zero
  uint32_t bindingCount = 0;
  const DescriptorLocation* bindings = nullptr;  // set by set, by binding number within a set
  uint32_t pushConstantRangeCount = 0;
  const VkPushConstantRange* pushConstantRanges = nullptr;
  uint32_t pushConstantSize = 0;  // end of the highest push constant range
  uint32_t dynamicCount = 0;      // dynamic offsets of all sets together
  uint64_t hash = 0;              // of what equivalent() compares
  // The set layout created with VK_DESCRIPTOR_SET_LAYOUT_CREATE_PUSH_DESCRIPTOR_BIT_KHR (at most
  // one per pipeline layout), one reference held: vkCmdPushDescriptorSetKHR writes through it
  // after the application may have destroyed the set layout. Not part of equivalent(): the
  // bindings above already say where its descriptors live.
  DescriptorSetLayout* pushSetLayout = nullptr;
  uint32_t pushSet = 0;

  // The binding's location, or nullptr when the layout has no such set or binding.
  const DescriptorLocation* find(uint32_t set, uint32_t binding) const;
  std::span<const DescriptorLocation> setBindings(uint32_t set) const;
  // Same sets, bindings and push constant size: code compiled against one runs with the other.
  bool equivalent(const PipelineLayout& other) const;
};

// Where a pipeline's kernels read each set's dynamic offsets in abi::BoundResources::
// dynamicOffsets: set s's at [base[s], base[s] + count[s]), from the pipeline's layout.
// vkCmdBindDescriptorSets keeps offsets per set and a draw or dispatch places them by the bound
// pipeline's map, because with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT the layout an
// application binds with may leave NULL an earlier set that has dynamic buffers in the linked
// pipeline's layout ("Pipeline Layouts"), which moves the later sets' offsets.
struct DynamicOffsetMap {
  uint8_t base[abi::kMaxBoundSets] = {};
  uint8_t count[abi::kMaxBoundSets] = {};
  static DynamicOffsetMap of(const PipelineLayout* layout);
  bool operator==(const DynamicOffsetMap&) const = default;
};
static_assert(abi::kMaxDynamicBuffers <= 255);

// The union of `layouts` (null entries skipped), for pipelines linked from graphics pipeline
// libraries ("Pipeline Layouts": with VK_PIPELINE_LAYOUT_CREATE_INDEPENDENT_SETS_BIT_EXT each
// library's layout may leave the other libraries' sets NULL): set s comes from the first layout
// whose set s has bindings, push constant ranges from all of them. Also a layout's copy (one
// entry). Allocated with `a`; nullptr when out of memory.
PipelineLayout* unitePipelineLayouts(const VkAllocationCallbacks* a, std::span<const PipelineLayout* const> layouts);
// Frees a layout of vkCreatePipelineLayout or unitePipelineLayouts.
void destroyPipelineLayout(const VkAllocationCallbacks* a, PipelineLayout* pl);

}  // namespace tessera
