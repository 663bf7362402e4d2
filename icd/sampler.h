// VkSampler. For now a sampler keeps what the application asked for; the sampler module
// (filtering issue) will turn it into the abi::SamplerState that image instructions read.
// Descriptors reference a sampler through state(), an opaque pointer until then.
#pragma once

#include <type_traits>
#include <vulkan/vulkan_core.h>

#include "tessera/shader_abi.h"

namespace tessera {

struct Sampler {
  VkSamplerCreateInfo info{};  // pNext cleared: the chained structs' contents are kept below
  VkSamplerReductionMode reductionMode = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE;

  // What a descriptor stores. Until abi::SamplerState exists this is the Sampler itself.
  const abi::SamplerState* state() const { return reinterpret_cast<const abi::SamplerState*>(this); }
  static const Sampler* fromState(const abi::SamplerState* s) { return reinterpret_cast<const Sampler*>(s); }
};
// Set layouts keep copies of their immutable samplers (a layout and its sets may outlive the
// VkSampler); a copy must stay a plain memcpy until Sampler owns more than its create info.
static_assert(std::is_trivially_copyable_v<Sampler>);

}  // namespace tessera
