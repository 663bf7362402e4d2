// VkPipeline. A compute pipeline holds its compiled kernel (shared with every pipeline of the
// same cache key; see spirv_jit/code_cache.h); a graphics pipeline its vertex and fragment
// kernels and the fixed-function state it was created with (graphics_pipeline.cpp); a graphics
// pipeline library (VK_PIPELINE_CREATE_LIBRARY_BIT_KHR) only the copied state of its parts,
// compiled when a pipeline links it (graphics_pipeline_library.h).
#pragma once

#include <iterator>
#include <memory>
#include <vulkan/vulkan_core.h>

#include "fragment_variants.h"
#include "graphics_pipeline_library.h"
#include "pipeline_layout.h"
#include "tessera/draw.h"
#include "tessera/spirv_jit.h"

namespace tessera {

// Fixed-function state of a graphics pipeline, in the draw loop's terms. Parts named by
// VkPipelineDynamicStateCreateInfo are taken from the command buffer at draw time instead
// (dynamic.test(state)).
struct GraphicsPipelineState {
  std::shared_ptr<const jit::GraphicsProgram> vertex, fragment, geometry, tessControl, tessEval;
  // With the colour blend enable or equation dynamic: the fragment stage compiled per blend state
  // a draw sets (cmd_draw.cpp), since `fragment` has no blending then (fragment_variants.h).
  std::shared_ptr<FragmentVariants> fragmentVariants;
  raster::DrawState base;   // everything but resources, vertex buffer memory and attachments
  FeedbackLayout feedback;  // the last pre-rasterization stage's captures (base.feedbackLayout points here)
  uint32_t bindingStride[raster::kMaxVertexBindings] = {};
  // The static viewports and scissors (pViewports, pScissors) and their count
  // (viewportCount; multiViewport allows up to raster::kMaxViewports).
  VkViewport viewports[raster::kMaxViewports] = {};
  VkRect2D scissors[raster::kMaxViewports] = {};
  uint32_t viewportCount = 1;
  uint64_t dynamicMask = 0;  // bit dynamicStateBit(state) per dynamic state
  bool isDynamic(VkDynamicState s) const { return dynamicStateBit(s) >= 0 && (dynamicMask >> dynamicStateBit(s) & 1); }

  // A bit per dynamic state Tessera knows, or -1. The 1.0 states are 0..8; the
  // VK_EXT_extended_dynamic_state3 states Tessera makes dynamic (kDynamicState3) 9..31; the 1.3
  // ones keep the enum values of the extensions they came from (VK_EXT_extended_dynamic_state's
  // 1000267000..11, VK_EXT_extended_dynamic_state2's 1000377000..4), so they are packed at
  // 32..48; VK_EXT_color_write_enable's state is bit 49, VK_EXT_line_rasterization's line
  // stipple 50, VK_EXT_sample_locations' locations 51; VK_EXT_vertex_input_dynamic_state's 61.
  static constexpr int dynamicStateBit(VkDynamicState s) {
    const int64_t v = int64_t(s);
    if (v >= 0 && v <= VK_DYNAMIC_STATE_STENCIL_REFERENCE) return int(v);
    if (v >= 1000267000 && v < 1000267012) return int(32 + v - 1000267000);
    if (v >= 1000377000 && v < 1000377005) return int(44 + v - 1000377000);
    if (v == VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT) return 49;
    if (v == VK_DYNAMIC_STATE_LINE_STIPPLE_EXT) return 50;
    if (v == VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT) return 51;
    if (v == VK_DYNAMIC_STATE_VERTEX_INPUT_EXT) return 61;
    for (int i = 0; i < int(std::size(kDynamicState3)); ++i)
      if (s == kDynamicState3[i]) return 9 + i;
    return -1;
  }
  // VK_EXT_extended_dynamic_state3's states that draws read from DrawState (cmd_draw.cpp), in
  // their bit order. Its other states have no feature, so no valid pipeline names them (one
  // that does keeps its static value).
  static constexpr VkDynamicState kDynamicState3[] = {
      VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT, VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT,
      VK_DYNAMIC_STATE_POLYGON_MODE_EXT,               VK_DYNAMIC_STATE_SAMPLE_MASK_EXT,
      VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT,        VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT,
      VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT,      VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT,
      VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT,        VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT,
      // Colour blend states: the draw's values reach the loop's blending and writes; the
      // fragment kernel's own writes serve only a draw whose state is the compiled one
      // (raster/draw_fragments.cpp retarget).
      VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT,           VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT,
      VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT,       VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT,
      VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT,
      // The samples per pixel: the kernel's own writes address the pipeline's static count (1
      // when dynamic), so a draw of another count is written by the loop.
      VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT,
      // VK_EXT_sample_locations' enable (the locations themselves are bit 51).
      VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_ENABLE_EXT};
  static_assert(std::size(kDynamicState3) <= 23, "bits 9..31");
  // VkPipelineColorWriteCreateInfoEXT's static enables (bit i: attachment i), kept apart from
  // the write masks because a dynamic write mask replaces the masks and not the enables.
  uint32_t staticColorWriteEnables = ~0u;
  // "Sample Shading" as created, for a draw whose rasterization samples are dynamic: whether it
  // shades per sample depends on minSampleShading x the draw's sample count.
  bool sampleShadingEnable = false;
  float minSampleShading = 0.0f;
};
static_assert(GraphicsPipelineState::dynamicStateBit(VK_DYNAMIC_STATE_STENCIL_OP) == 43);
static_assert(GraphicsPipelineState::dynamicStateBit(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE) == 48);

struct Pipeline {
  VkPipelineBindPoint bindPoint = VK_PIPELINE_BIND_POINT_COMPUTE;
  std::shared_ptr<const jit::ComputeProgram> compute;
  std::unique_ptr<GraphicsPipelineState> graphics;   // null for a library: it cannot be bound
  std::unique_ptr<GraphicsLibraryState> library;     // a library's parts; null otherwise
  DynamicOffsetMap dynamicOffsets;  // from the pipeline's layout (the linked one for a link)
};

}  // namespace tessera
