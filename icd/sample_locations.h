// VK_EXT_sample_locations: a VkSampleLocationsInfoEXT as the rasterizer takes it
// (raster::SampleLocations), for pipelines (VkPipelineSampleLocationsStateCreateInfoEXT) and
// vkCmdSetSampleLocationsEXT alike.
#pragma once

#include <vulkan/vulkan.h>

#include "tessera/raster.h"

namespace tessera {

// The first sampleLocationsPerPixel locations of a 1x1 grid (maxSampleLocationGridSize),
// clamped to sampleLocationCoordinateRange [0, 15/16] and rounded to the nearest sixteenth
// (sampleLocationSubPixelBits 4); a NaN coordinate counts as 0.
raster::SampleLocations sampleLocationsOf(const VkSampleLocationsInfoEXT& info);

}  // namespace tessera
