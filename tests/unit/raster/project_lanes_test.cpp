// projectLanes (raster/project_lanes.h), the vectorized projection of a chunk's triangle
// vertices, against the per-vertex functions it replaces on set-up's fast path:
// vertexTriviallyInside ("Primitive Clipping": inside the view volume's depth planes, w above
// its minimum, inside the guard band) and projectVertex ("Coordinate Transformations":
// division by w, "Controlling the Viewport"'s transform, the snap to subPixelPrecisionBits).
// Inside vertices must agree bit for bit; random viewports and depth-clip settings, with
// non-finite, tiny-w and guard-band vertices among them.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "clip.h"
#include "project_lanes.h"
#include "raster_test_support.h"

namespace tessera::raster {
namespace {

float special(std::mt19937& rng) {
  static const float kValues[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                  -std::numeric_limits<float>::infinity(), 0.0f, -0.0f, 1e-13f, 3e38f, -1.0f, 1.0f};
  return kValues[rng() % 9];
}

TEST(ProjectLanes, PrimitiveClippingAndViewportTransform_EqualThePerVertexFunctions) {
  std::mt19937 rng(99);
  auto uniform = [&](double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(rng)); };
  size_t insideCount = 0, outsideCount = 0;
  for (int round = 0; round < 300; ++round) {
    RasterState s = test::fullScreenState(1 + int(rng() % 4096), 1 + int(rng() % 4096));
    s.viewport.x = uniform(-100, 100);
    s.viewport.y = uniform(-100, 100);
    if (rng() % 4 == 0) s.viewport.height = -s.viewport.height;
    s.viewport.minDepth = uniform(0, 0.5);
    s.viewport.maxDepth = uniform(0.5, 1);
    s.negativeOneToOne = rng() % 2;
    s.depthClampEnable = rng() % 3 == 0;
    s.depthClip = RasterState::DepthClip(rng() % 3);
    const size_t n = 1 + rng() % 100;
    std::vector<float> x(n), y(n), z(n), w(n);
    for (size_t i = 0; i < n; ++i) {
      // Mostly inside, some near or past the guard band (2^20 px), some not finite or at w ~ 0.
      const float wi = rng() % 16 == 0 ? uniform(-1e-11, 1e-11) : uniform(0.01, 100);
      const double reach = rng() % 8 == 0 ? 3000.0 : 1.5;
      x[i] = uniform(-reach, reach) * wi, y[i] = uniform(-reach, reach) * wi, z[i] = uniform(-1.2, 1.2) * wi, w[i] = wi;
      if (rng() % 20 == 0) (rng() % 2 ? x[i] : rng() % 2 ? z[i] : w[i]) = special(rng);
      // w exactly at its minimum (kMinClipW = 2^-40 is a float): inside, just.
      if (rng() % 50 == 0) w[i] = float(kMinClipW), x[i] = y[i] = z[i] = 0.0f;
    }
    if (round % 3 == 0) {
      // Window coordinates exactly halfway between sub-pixel steps (a 2048-wide viewport at
      // the origin, w = 1 or 4: every step exact), where the snap's tie-break decides.
      s.viewport = {0, 0, 2048, 2048, 0, 1};
      for (size_t i = 0; i < n; ++i) {
        const float scale = rng() % 2 ? 1.0f : 4.0f;
        const double fx = double(rng() % (4096 * 512)) / 512 - 1024, fy = double(rng() % (4096 * 512)) / 512 - 1024;
        x[i] = float((fx - 1024) / 1024) * scale, y[i] = float((fy - 1024) / 1024) * scale;
        z[i] = 0.5f * scale, w[i] = scale;
      }
    }
    std::vector<int64_t> sx(n), sy(n);
    std::vector<double> wz(n);
    std::vector<float> invW(n);
    std::vector<uint8_t> inside(n);
    projectLanes(s, n, ProjectLanes{x.data(), y.data(), z.data(), w.data(), sx.data(), sy.data(), wz.data(), invW.data(), inside.data()});
    for (size_t i = 0; i < n; ++i) {
      const float position[4] = {x[i], y[i], z[i], w[i]};
      const bool expected = vertexTriviallyInside(position, s);
      ASSERT_EQ(bool(inside[i]), expected) << "round " << round << " vertex " << i;
      if (!expected) {
        ++outsideCount;
        continue;
      }
      ++insideCount;
      const ProjectedVertex p = projectVertex(position, s);
      ASSERT_EQ(sx[i], p.sx) << "round " << round << " vertex " << i;
      ASSERT_EQ(sy[i], p.sy) << "round " << round << " vertex " << i;
      ASSERT_EQ(std::bit_cast<uint64_t>(wz[i]), std::bit_cast<uint64_t>(p.z)) << "round " << round << " vertex " << i;
      ASSERT_EQ(std::bit_cast<uint32_t>(invW[i]), std::bit_cast<uint32_t>(p.invW)) << "round " << round << " vertex " << i;
    }
  }
  EXPECT_GT(insideCount, 5000u);
  EXPECT_GT(outsideCount, 500u);
}

}  // namespace
}  // namespace tessera::raster
