// VkPipeline. A compute pipeline holds its compiled kernel (shared with every pipeline of the
// same cache key; see spirv_jit/code_cache.h).
#pragma once

#include <memory>
#include <vulkan/vulkan_core.h>

#include "tessera/spirv_jit.h"

namespace tessera {

struct Pipeline {
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const jit::ComputeProgram> compute;
};

}  // namespace tessera
