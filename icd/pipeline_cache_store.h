// VkPipelineCache as the JIT's external cache (jit::ExternalCache): compiled code by key.
#pragma once

#include <vulkan/vulkan_core.h>

#include "tessera/spirv_jit.h"

namespace tessera {

using PipelineCacheStore = jit::ExternalCache;
PipelineCacheStore* pipelineCacheStore(VkPipelineCache cache);

}  // namespace tessera
