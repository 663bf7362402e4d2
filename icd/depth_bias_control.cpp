#include "depth_bias_control.h"

#include "shader_stage.h"

namespace tessera {

raster::RasterState::DepthBiasRepresentation depthBiasRepresentationOf(const void* pNext) {
  using Representation = raster::RasterState::DepthBiasRepresentation;
  const auto* info = findInChain<VkDepthBiasRepresentationInfoEXT>(pNext, VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT);
  if (!info) return Representation::Format;
  switch (info->depthBiasRepresentation) {
    case VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT: return Representation::ForceUnorm;
    case VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT: return Representation::Float;
    default: return Representation::Format;
  }
}

}  // namespace tessera
