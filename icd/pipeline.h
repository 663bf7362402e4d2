// VkPipeline. A compute pipeline holds its compiled kernel (shared with every pipeline of the
// same cache key; see spirv_jit/code_cache.h); a graphics pipeline its vertex and fragment
// kernels and the fixed-function state it was created with (graphics_pipeline.cpp).
#pragma once

#include <memory>
#include <vulkan/vulkan_core.h>

#include "tessera/draw.h"
#include "tessera/spirv_jit.h"

namespace tessera {

// Fixed-function state of a graphics pipeline, in the draw loop's terms. Parts named by
// VkPipelineDynamicStateCreateInfo are taken from the command buffer at draw time instead
// (dynamic.test(state)).
struct GraphicsPipelineState {
  std::shared_ptr<const jit::GraphicsProgram> vertex, fragment;
  raster::DrawState base;   // everything but resources, vertex buffer memory and attachments
  uint32_t bindingStride[raster::kMaxVertexBindings] = {};
  VkViewport viewport{};
  VkRect2D scissor{};
  float lineWidth = 1.0f;
  uint64_t dynamicMask = 0;  // bit per VkDynamicState value < 64 (all of core 1.3's are)
  bool isDynamic(VkDynamicState s) const { return uint32_t(s) < 64 && (dynamicMask >> uint32_t(s) & 1); }
};

struct Pipeline {
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const jit::ComputeProgram> compute;
  std::unique_ptr<GraphicsPipelineState> graphics;
};

}  // namespace tessera
