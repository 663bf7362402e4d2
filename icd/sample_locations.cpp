// VK_EXT_sample_locations: converting the application's locations, and the dynamic state's
// command (its enable is VK_EXT_extended_dynamic_state3's, cmd_dynamic_state3.cpp).
#include "sample_locations.h"

#include <algorithm>
#include <cmath>

#include "command_buffer.h"
#include "entrypoints.h"

namespace tessera {

namespace {
uint8_t sixteenths(float v) {
  if (!(v > 0.0f)) return 0;  // also NaN
  return uint8_t(std::min(15.0f, std::nearbyint(v * 16.0f)));
}
}  // namespace

raster::SampleLocations sampleLocationsOf(const VkSampleLocationsInfoEXT& info) {
  raster::SampleLocations out;
  const uint32_t count = std::min({uint32_t(info.sampleLocationsPerPixel), info.sampleLocationsCount, raster::kMaxSamples});
  for (uint32_t s = 0; info.pSampleLocations && s < count; ++s) {
    out.x[s] = sixteenths(info.pSampleLocations[s].x);
    out.y[s] = sixteenths(info.pSampleLocations[s].y);
  }
  return out;
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetSampleLocationsEXT(VkCommandBuffer commandBuffer,
                                                             const VkSampleLocationsInfoEXT* pSampleLocationsInfo) {
  fromHandle<CommandBuffer>(commandBuffer)->graphicsState.sampleLocations = sampleLocationsOf(*pSampleLocationsInfo);
}

}  // extern "C"
