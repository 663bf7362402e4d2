// VK_EXT_sample_locations' conversion of the application's locations (icd/sample_locations.h):
// "The values specified in a VkSampleLocationEXT structure are always clamped to the
// implementation-dependent sample location coordinate range" ([0, 15/16] for Tessera), then
// held at sampleLocationSubPixelBits = 4 bits of precision (the nearest sixteenth).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "sample_locations.h"

namespace tessera {
namespace {

raster::SampleLocations convert(VkSampleCountFlagBits samples, const std::vector<VkSampleLocationEXT>& locations) {
  VkSampleLocationsInfoEXT info{VK_STRUCTURE_TYPE_SAMPLE_LOCATIONS_INFO_EXT};
  info.sampleLocationsPerPixel = samples;
  info.sampleLocationGridSize = {1, 1};
  info.sampleLocationsCount = uint32_t(locations.size());
  info.pSampleLocations = locations.data();
  return sampleLocationsOf(info);
}

TEST(SampleLocations, CoordinatesAreClampedToTheRangeAndRoundedToSixteenths) {
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const raster::SampleLocations l =
      convert(VK_SAMPLE_COUNT_8_BIT, {{0.0f, 0.9375f}, {0.53f, 0.47f}, {-1.0f, 2.0f}, {0.999f, 0.03f}, {nan, inf}, {-inf, 0.5f},
                                      {0.0312f, 0.0313f}, {0.5f, 0.25f}});
  const int expected[8][2] = {{0, 15}, {8, 8}, {0, 15}, {15, 0}, {0, 15}, {0, 8}, {0, 1}, {8, 4}};
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(l.x[s], expected[s][0]) << "sample " << s;
    EXPECT_EQ(l.y[s], expected[s][1]) << "sample " << s;
  }
}

TEST(SampleLocations, OnlyThePixelsSamplesAreTaken) {
  // sampleLocationsPerPixel samples of the 1x1 grid; a longer array's rest and a shorter array's
  // missing entries (invalid usage) leave zeros, never reads past it.
  const raster::SampleLocations two = convert(VK_SAMPLE_COUNT_2_BIT, {{0.25f, 0.75f}, {0.75f, 0.25f}, {0.5f, 0.5f}});
  EXPECT_EQ(two.x[0], 4);
  EXPECT_EQ(two.y[1], 4);
  EXPECT_EQ(two.x[2], 0);
  const raster::SampleLocations shortArray = convert(VK_SAMPLE_COUNT_4_BIT, {{0.5f, 0.5f}});
  EXPECT_EQ(shortArray.x[0], 8);
  EXPECT_EQ(shortArray.x[1], 0);
}

}  // namespace
}  // namespace tessera
