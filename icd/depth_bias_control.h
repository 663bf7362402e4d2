// VK_EXT_depth_bias_control: the depth bias representation of a VkDepthBiasRepresentationInfoEXT
// in a pNext chain, for pipelines (VkPipelineRasterizationStateCreateInfo) and
// vkCmdSetDepthBias2EXT (VkDepthBiasInfoEXT) alike.
#pragma once

#include <vulkan/vulkan.h>

#include "supplement.h"
#include "tessera/raster.h"

namespace tessera {

// The chain's VkDepthBiasRepresentationEXT as the rasterizer takes it; without the structure
// (or with an unknown value) the format's r, LEAST_REPRESENTABLE_VALUE_FORMAT. depthBiasExact
// changes nothing: Tessera's r is always the exact one.
raster::RasterState::DepthBiasRepresentation depthBiasRepresentationOf(const void* pNext);

}  // namespace tessera
