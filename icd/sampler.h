// VkSampler: the create info baked into the abi::SamplerState that image instructions read
// (include/tessera/sampling.h). Descriptors point at state().
#pragma once

#include <type_traits>
#include <vulkan/vulkan_core.h>

#include "tessera/sampling.h"

namespace tessera {

struct Sampler {
  abi::SamplerState baked{};

  const abi::SamplerState* state() const { return &baked; }
};
// Set layouts keep copies of their immutable samplers (a layout and its sets may outlive the
// VkSampler); a copy must stay a plain memcpy.
static_assert(std::is_trivially_copyable_v<Sampler>);

// VkSamplerYcbcrConversion: its create info (pNext cleared). Image views and samplers created
// with it (VkSamplerYcbcrConversionInfo) read it when they are created; sampling reads the
// view's copy (abi::YcbcrSamplingState), so the conversion may be destroyed before them.
struct SamplerYcbcrConversion {
  VkSamplerYcbcrConversionCreateInfo info{};
};

// The conversion a create info's pNext chain names (VkSamplerYcbcrConversionInfo), or null.
const SamplerYcbcrConversion* chainedYcbcrConversion(const void* pNext);

}  // namespace tessera
