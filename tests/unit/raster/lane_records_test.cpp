// raster/lane_records.h: a batch's component-major rows copied into per-vertex records. The
// vector versions (AVX-512 at W = 16, AVX2 at W = 8, where the host has them) and the portable one against the layout written out here,
// at every W, every active-lane count, strides and offsets; words outside the four copied per
// lane stay as they were.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "lane_records.h"

namespace tessera::raster {
namespace {

TEST(LaneRecords, FourComponentsOfEachActiveLaneLandInItsRecord) {
  std::mt19937 rng(31);
  for (uint32_t W : {4u, 8u, 16u})
    for (size_t stride : {size_t(4), size_t(8), size_t(13), size_t(20)})
      for (size_t offset = 0; offset + 4 <= stride; offset += 4)
        for (uint32_t count = 1; count <= W; ++count) {
          std::vector<uint32_t> rows(4 * W);
          for (uint32_t& r : rows) r = rng();
          std::vector<uint32_t> fast(W * stride + 7, 0xDEADBEEF), slow = fast;
          storeLaneQuads(rows.data(), W, count, fast.data(), stride, offset);
          storeLaneQuadsPortable(rows.data(), W, count, slow.data(), stride, offset);
          ASSERT_EQ(fast, slow) << "W " << W << " stride " << stride << " offset " << offset << " count " << count;
          for (size_t i = 0; i < fast.size(); ++i) {
            const size_t lane = i / stride, word = i % stride;
            const bool copied = lane < count && word >= offset && word < offset + 4;
            const uint32_t want = copied ? rows[(word - offset) * W + lane] : 0xDEADBEEF;
            ASSERT_EQ(fast[i], want) << "W " << W << " stride " << stride << " offset " << offset << " count " << count
                                     << " word " << i;
          }
        }
}

}  // namespace
}  // namespace tessera::raster
