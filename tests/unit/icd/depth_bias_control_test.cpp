// VK_EXT_depth_bias_control's representation as the driver reads it from a pNext chain
// (icd/depth_bias_control.h), for the pipeline's rasterization state and vkCmdSetDepthBias2EXT
// alike: the VkDepthBiasRepresentationInfoEXT anywhere in the chain, and without one the
// format's r ("equivalent to ... LEAST_REPRESENTABLE_VALUE_FORMAT_EXT").
#include <gtest/gtest.h>

#include "depth_bias_control.h"

namespace tessera {
namespace {

using Representation = raster::RasterState::DepthBiasRepresentation;

TEST(DepthBiasControl, TheChainsRepresentationOrTheFormats) {
  EXPECT_EQ(depthBiasRepresentationOf(nullptr), Representation::Format);
  VkDepthBiasRepresentationInfoEXT info{VK_STRUCTURE_TYPE_DEPTH_BIAS_REPRESENTATION_INFO_EXT, nullptr,
                                        VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT, VK_TRUE};
  EXPECT_EQ(depthBiasRepresentationOf(&info), Representation::Float);
  info.depthBiasRepresentation = VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORCE_UNORM_EXT;
  EXPECT_EQ(depthBiasRepresentationOf(&info), Representation::ForceUnorm);
  info.depthBiasRepresentation = VK_DEPTH_BIAS_REPRESENTATION_LEAST_REPRESENTABLE_VALUE_FORMAT_EXT;
  EXPECT_EQ(depthBiasRepresentationOf(&info), Representation::Format);
  // Behind another structure (a rasterization state's depth clip state, say).
  info.depthBiasRepresentation = VK_DEPTH_BIAS_REPRESENTATION_FLOAT_EXT;
  VkPipelineRasterizationDepthClipStateCreateInfoEXT clip{VK_STRUCTURE_TYPE_PIPELINE_RASTERIZATION_DEPTH_CLIP_STATE_CREATE_INFO_EXT,
                                                          &info, 0, VK_TRUE};
  EXPECT_EQ(depthBiasRepresentationOf(&clip), Representation::Float);
  clip.pNext = nullptr;
  EXPECT_EQ(depthBiasRepresentationOf(&clip), Representation::Format);
}

}  // namespace
}  // namespace tessera
