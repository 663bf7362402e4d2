// Which part of a graphics pipeline a dynamic state belongs to ("Graphics Pipeline Libraries":
// each part is defined by the create-info state it takes, and a dynamic state belongs to the
// part whose state it replaces). A linked pipeline takes each dynamic state only from the
// libraries (or its own create info) that hold the owning part, because the spec has a library
// ignore dynamic states of parts it does not describe.
#include "graphics_pipeline_library.h"

namespace tessera {

VkGraphicsPipelineLibraryFlagsEXT dynamicStateParts(VkDynamicState state) {
  constexpr VkGraphicsPipelineLibraryFlagsEXT vertexInput = VK_GRAPHICS_PIPELINE_LIBRARY_VERTEX_INPUT_INTERFACE_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT preRaster = VK_GRAPHICS_PIPELINE_LIBRARY_PRE_RASTERIZATION_SHADERS_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT fragment = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_SHADER_BIT_EXT;
  constexpr VkGraphicsPipelineLibraryFlagsEXT fragmentOutput = VK_GRAPHICS_PIPELINE_LIBRARY_FRAGMENT_OUTPUT_INTERFACE_BIT_EXT;
  switch (state) {
    // VkPipelineVertexInputStateCreateInfo and VkPipelineInputAssemblyStateCreateInfo.
    case VK_DYNAMIC_STATE_VERTEX_INPUT_EXT:
    case VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE:
    case VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY:
    case VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE:
      return vertexInput;

    // VkPipelineViewportStateCreateInfo, VkPipelineRasterizationStateCreateInfo (and the
    // structs it chains), VkPipelineTessellationStateCreateInfo, discard rectangles.
    case VK_DYNAMIC_STATE_VIEWPORT:
    case VK_DYNAMIC_STATE_SCISSOR:
    case VK_DYNAMIC_STATE_LINE_WIDTH:
    case VK_DYNAMIC_STATE_DEPTH_BIAS:
    case VK_DYNAMIC_STATE_CULL_MODE:
    case VK_DYNAMIC_STATE_FRONT_FACE:
    case VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT:
    case VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT:
    case VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE:
    case VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE:
    case VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT:
    case VK_DYNAMIC_STATE_LINE_STIPPLE_EXT:
    case VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT:
    case VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT:
    case VK_DYNAMIC_STATE_POLYGON_MODE_EXT:
    case VK_DYNAMIC_STATE_RASTERIZATION_STREAM_EXT:
    case VK_DYNAMIC_STATE_CONSERVATIVE_RASTERIZATION_MODE_EXT:
    case VK_DYNAMIC_STATE_EXTRA_PRIMITIVE_OVERESTIMATION_SIZE_EXT:
    case VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT:
    case VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT:
    case VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT:
    case VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT:
    case VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT:
    case VK_DYNAMIC_STATE_DISCARD_RECTANGLE_EXT:
    case VK_DYNAMIC_STATE_VIEWPORT_W_SCALING_NV:
    case VK_DYNAMIC_STATE_VIEWPORT_W_SCALING_ENABLE_NV:
    case VK_DYNAMIC_STATE_VIEWPORT_SWIZZLE_NV:
    case VK_DYNAMIC_STATE_EXCLUSIVE_SCISSOR_NV:
    case VK_DYNAMIC_STATE_VIEWPORT_SHADING_RATE_PALETTE_NV:
    case VK_DYNAMIC_STATE_VIEWPORT_COARSE_SAMPLE_ORDER_NV:
    case VK_DYNAMIC_STATE_SHADING_RATE_IMAGE_ENABLE_NV:
      return preRaster;

    // VkPipelineDepthStencilStateCreateInfo.
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS:
    case VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK:
    case VK_DYNAMIC_STATE_STENCIL_WRITE_MASK:
    case VK_DYNAMIC_STATE_STENCIL_REFERENCE:
    case VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE:
    case VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE:
    case VK_DYNAMIC_STATE_DEPTH_COMPARE_OP:
    case VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE:
    case VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE:
    case VK_DYNAMIC_STATE_STENCIL_OP:
    case VK_DYNAMIC_STATE_REPRESENTATIVE_FRAGMENT_TEST_ENABLE_NV:
      return fragment;

    // VkPipelineFragmentShadingRateStateCreateInfoKHR is in both shader parts.
    case VK_DYNAMIC_STATE_FRAGMENT_SHADING_RATE_KHR:
      return preRaster | fragment;

    // VkPipelineMultisampleStateCreateInfo belongs to the fragment output part and, when
    // sample shading or a render pass makes the fragment shader depend on it, to the fragment
    // shader part too; the spec has both parts' copies match when both have one.
    case VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT:
    case VK_DYNAMIC_STATE_SAMPLE_MASK_EXT:
    case VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT:
    case VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT:
    case VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT:
    case VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_ENABLE_EXT:
    case VK_DYNAMIC_STATE_COVERAGE_TO_COLOR_ENABLE_NV:
    case VK_DYNAMIC_STATE_COVERAGE_TO_COLOR_LOCATION_NV:
    case VK_DYNAMIC_STATE_COVERAGE_MODULATION_MODE_NV:
    case VK_DYNAMIC_STATE_COVERAGE_MODULATION_TABLE_ENABLE_NV:
    case VK_DYNAMIC_STATE_COVERAGE_MODULATION_TABLE_NV:
    case VK_DYNAMIC_STATE_COVERAGE_REDUCTION_MODE_NV:
      return fragment | fragmentOutput;

    // VkPipelineColorBlendStateCreateInfo (and the structs it chains).
    case VK_DYNAMIC_STATE_BLEND_CONSTANTS:
    case VK_DYNAMIC_STATE_LOGIC_OP_EXT:
    case VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT:
    case VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT:
    case VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT:
    case VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT:
    case VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT:
    case VK_DYNAMIC_STATE_COLOR_BLEND_ADVANCED_EXT:
      return fragmentOutput;

    default:
      // A state this list does not know (a newer extension's) is kept from whichever part
      // names it rather than dropped: no pipeline Tessera accepts can name one.
      return kAllGraphicsParts;
  }
}

}  // namespace tessera
