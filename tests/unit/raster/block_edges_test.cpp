// The block walker's single-sample centre test (raster/block_edges.h): for random triangles
// and blocks, the portable loop and the AVX-512 version give exactly the lanes whose pixel
// centre the triangle covers by "Basic Polygon Rasterization"'s rule (inside every edge, or on
// a top-left edge: rules::EdgeFunction::covers), computed here pixel by pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "block_edges.h"

namespace tessera::raster {
namespace {

// The edges of triangle (x, y) as the block walker prepares them, each lane's offset taken as
// the difference of two edge values (not the walker's sums of steps).
BlockEdges edgesOf(const int64_t x[3], const int64_t y[3]) {
  BlockEdges e;
  const int orientation = rules::shoelaceSum(x, y, 3) > 0 ? 1 : -1;
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    e.edge[k] = rules::makeEdge(x[a], y[a], x[b], y[b], orientation);
    e.threshold[k] = e.edge[k].inclusive ? 0 : 1;
    const int64_t origin = e.edge[k].value(rules::pixelCenter(0), rules::pixelCenter(0));
    for (int l = 0; l < kBlockLanes; ++l)
      e.laneOffset[k][l] = e.edge[k].value(rules::pixelCenter(laneX(l)), rules::pixelCenter(laneY(l))) - origin;
  }
  return e;
}

// A coordinate near `centre` (1/256 pixel), often on a half-pixel (so that pixel centres lie on
// edges and the top-left rule decides).
int64_t coordinate(std::mt19937_64& rng, int64_t centre, int64_t spread) {
  const int64_t v = centre + int64_t(rng() % uint64_t(2 * spread + 1)) - spread;
  return rng() % 2 ? v & ~int64_t(127) : v;
}

// A block at (bx, by) and a triangle (x, y) around it for trial `trial`: a small one near the
// block, or every fourth trial a large one reaching the guard band (2^29 / 256 px). False for a
// zero-area triangle (no coverage to test).
bool randomBlockAndTriangle(std::mt19937_64& rng, int trial, int32_t& bx, int32_t& by, int64_t x[3], int64_t y[3]) {
  const int64_t spread = trial % 4 == 0 ? (int64_t(1) << 28) : 12 * rules::kSubPixelOne;
  bx = int32_t(rng() % 4096) * 2 - 4096, by = int32_t(rng() % 4096) * 2 - 4096;
  const int64_t cx = rules::pixelCenter(bx + 2), cy = rules::pixelCenter(by + 2);
  for (int i = 0; i < 3; ++i) x[i] = coordinate(rng, cx, spread), y[i] = coordinate(rng, cy, spread);
  return rules::shoelaceSum(x, y, 3) != 0;
}

// The lanes of the block at (bx, by) whose pixel centre triangle `e` covers, by the rule, pixel by
// pixel; every edge value computed goes to `seen` too.
template <typename Seen>
uint32_t coveredCentres(const BlockEdges& e, int32_t bx, int32_t by, Seen&& seen) {
  uint32_t covered = 0;
  for (int l = 0; l < kBlockLanes; ++l) {
    bool in = true;
    for (int k = 0; k < 3; ++k) {
      const int64_t v = e.edge[k].value(rules::pixelCenter(bx + laneX(l)), rules::pixelCenter(by + laneY(l)));
      seen(v);
      in = in && e.edge[k].covers(v);
    }
    covered |= uint32_t(in) << l;
  }
  return covered;
}

TEST(BlockEdges, BasicPolygonRasterization_CentreLanesAreTheCoveredPixelCentres) {
  std::mt19937_64 rng(7);
  const bool vector = centreLanesVectorAvailable(), avx2 = centreLanesAvx2Available();
  uint64_t partlyCovered = 0, ties = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    int32_t bx, by;
    int64_t x[3], y[3];
    if (!randomBlockAndTriangle(rng, trial, bx, by, x, y)) continue;
    const BlockEdges e = edgesOf(x, y);
    int64_t base[3];
    for (int k = 0; k < 3; ++k) base[k] = e.edge[k].value(rules::pixelCenter(bx), rules::pixelCenter(by));
    const uint32_t expected = coveredCentres(e, bx, by, [&](int64_t v) { ties += v == 0; });
    partlyCovered += expected != 0 && expected != 0xFFFFu;
    ASSERT_EQ(centreLanesPortable(e, base), expected) << "trial " << trial;
    if (vector) {
      ASSERT_EQ(centreLanesVector(e, base), expected) << "trial " << trial;
    }
    if (avx2) {
      ASSERT_EQ(centreLanesAvx2(e, base), expected) << "trial " << trial;
    }
    ASSERT_EQ(centreLanes(e, base), expected) << "trial " << trial;
  }
  // The cases that matter were met: partly covered blocks and pixel centres on edges.
  EXPECT_GT(partlyCovered, 1000u);
  EXPECT_GT(ties, 100u);
  if (!vector) GTEST_LOG_(INFO) << "no AVX-512 here: the AVX-512 version was not checked";
  if (!avx2) GTEST_LOG_(INFO) << "no AVX2 here: the AVX2 version was not checked";
}

// A small triangle (SetupTriangle::smallSpan: vertices at most kSmallTriangleSpan apart) and
// the blocks the walker may test for it (pixel centres up to 4 pixels outside the vertices'
// box): smallLaneOffsets gives the lanes' offsets as the differences of edge values, every
// value the 32-bit test forms stays below 2^30 in magnitude, and centreLanes32 (each version)
// gives exactly the covered pixel centres.
TEST(BlockEdges, BasicPolygonRasterization_SmallTriangleLanesAreTheCoveredPixelCentres) {
  std::mt19937_64 rng(13);
  const bool vector = centreLanesVectorAvailable(), avx2 = centreLanesAvx2Available();
  uint64_t partlyCovered = 0, atTheLimit = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    // Spans up to the limit, every eighth trial exactly at it (on both axes).
    const int64_t span = trial % 8 == 0 ? kSmallTriangleSpan : int64_t(rng() % uint64_t(kSmallTriangleSpan + 1));
    const int64_t ox = int64_t(rng() % 4096) * 256 - 1024 * 256, oy = int64_t(rng() % 4096) * 256 - 1024 * 256;
    int64_t x[3] = {ox, ox + span, ox + int64_t(rng() % uint64_t(span + 1))};
    int64_t y[3] = {oy + int64_t(rng() % uint64_t(span + 1)), oy, oy + span};
    if (trial % 2) std::swap(x[1], x[2]);
    if (rules::shoelaceSum(x, y, 3) == 0) continue;
    atTheLimit += span == kSmallTriangleSpan;
    BlockEdges e = edgesOf(x, y);
    for (int k = 0; k < 3; ++k) {
      e.stepX[k] = -e.edge[k].dy * rules::kSubPixelOne;
      e.stepY[k] = e.edge[k].dx * rules::kSubPixelOne;
    }
    e.small = true;
    smallLaneOffsets(e);
    for (int k = 0; k < 3; ++k)
      for (int l = 0; l < kBlockLanes; ++l) ASSERT_EQ(int64_t(e.laneOffset32[k][l]), e.laneOffset[k][l]) << "trial " << trial;
    // A block whose pixels reach up to 4 pixels beyond the box (the walker's blocks start at
    // most 3 pixels before a covered pixel and end at most 3 after one).
    const int32_t px0 = int32_t(ox >> 8) - 4, py0 = int32_t(oy >> 8) - 4;
    const int32_t bx = px0 + int32_t(rng() % uint64_t((span >> 8) + 6)), by = py0 + int32_t(rng() % uint64_t((span >> 8) + 6));
    int64_t base[3];
    for (int k = 0; k < 3; ++k) base[k] = e.edge[k].value(rules::pixelCenter(bx), rules::pixelCenter(by));
    int64_t largest = 0;
    const uint32_t expected = coveredCentres(e, bx, by, [&](int64_t v) { largest = std::max(largest, v < 0 ? -v : v); });
    ASSERT_LT(largest, int64_t(1) << 30) << "trial " << trial;
    partlyCovered += expected != 0 && expected != 0xFFFFu;
    ASSERT_EQ(centreLanes32Portable(e, base), expected) << "trial " << trial;
    if (vector) {
      ASSERT_EQ(centreLanes32Vector(e, base), expected) << "trial " << trial;
    }
    if (avx2) {
      ASSERT_EQ(centreLanes32Avx2(e, base), expected) << "trial " << trial;
    }
    ASSERT_EQ(centreLanes32(e, base), expected) << "trial " << trial;
  }
  EXPECT_GT(partlyCovered, 1000u);
  EXPECT_GT(atTheLimit, 1000u);
}

// "Multisampling": with 4 samples, sampleLanes' bit s of lane l is whether the triangle covers
// sample s (rules::sampleLocation) of the lane's pixel by the same edge rule, computed here at
// the sample's own coordinates; the AVX2 version gives the same bits as the portable loop.
TEST(BlockEdges, Multisampling_SampleLanesAreTheCoveredSamples) {
  std::mt19937_64 rng(11);
  const bool avx2 = centreLanesAvx2Available();
  uint64_t partlyCoveredPixels = 0;
  constexpr uint32_t kSamples = 4;
  for (int trial = 0; trial < 20000; ++trial) {
    int32_t bx, by;
    int64_t x[3], y[3];
    if (!randomBlockAndTriangle(rng, trial, bx, by, x, y)) continue;
    BlockEdges e = edgesOf(x, y);
    e.samples = kSamples;
    for (int k = 0; k < 3; ++k)
      for (uint32_t smp = 0; smp < kSamples; ++smp) {
        int64_t sx, sy;
        rules::sampleLocation(0, 0, kSamples, smp, &sx, &sy);
        e.sampleOffset[k][smp] = e.edge[k].value(sx, sy) - e.edge[k].value(rules::pixelCenter(0), rules::pixelCenter(0));
      }
    int64_t base[3];
    for (int k = 0; k < 3; ++k) base[k] = e.edge[k].value(rules::pixelCenter(bx), rules::pixelCenter(by));
    uint32_t expected[kBlockLanes];
    for (int l = 0; l < kBlockLanes; ++l) {
      expected[l] = 0;
      for (uint32_t smp = 0; smp < kSamples; ++smp) {
        int64_t sx, sy;
        rules::sampleLocation(bx + laneX(l), by + laneY(l), kSamples, smp, &sx, &sy);
        bool in = true;
        for (int k = 0; k < 3; ++k) in = in && e.edge[k].covers(e.edge[k].value(sx, sy));
        expected[l] |= uint32_t(in) << smp;
      }
      partlyCoveredPixels += expected[l] != 0 && expected[l] != (1u << kSamples) - 1;
    }
    uint32_t portable[kBlockLanes], vector[kBlockLanes], chosen[kBlockLanes];
    sampleLanesPortable(e, base, portable);
    sampleLanes(e, base, chosen);
    for (int l = 0; l < kBlockLanes; ++l) {
      ASSERT_EQ(portable[l], expected[l]) << "trial " << trial << " lane " << l;
      ASSERT_EQ(chosen[l], expected[l]) << "trial " << trial << " lane " << l;
    }
    if (avx2) {
      sampleLanesAvx2(e, base, vector);
      for (int l = 0; l < kBlockLanes; ++l) ASSERT_EQ(vector[l], expected[l]) << "trial " << trial << " lane " << l;
    }
  }
  EXPECT_GT(partlyCoveredPixels, 1000u);  // pixels with some samples in and some out were met
  if (!avx2) GTEST_LOG_(INFO) << "no AVX2 here: the AVX2 version was not checked";
}

}  // namespace
}  // namespace tessera::raster
