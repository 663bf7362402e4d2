// Quads: the 2x2 units that derivatives come from ("Derivative Operations": derivatives are
// differences between the pixels of a quad, which is why helper pixels exist). Every emitted
// quad has even coordinates, its coverage bits say which of its pixels the triangle covers, and
// uncovered pixels still carry depth and weights extrapolated from the same planes.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

TEST(RasterQuads, QuadsAreEvenOrderedAndCoverageBitsMatchTheOracle) {
  std::mt19937 rng(3);
  const RasterState s = test::fullScreenState(40, 40);
  for (int n = 0; n < 100; ++n) {
    int64_t fx[3], fy[3];
    WindowVertex v[3];
    for (int i = 0; i < 3; ++i) {
      fx[i] = std::uniform_int_distribution<int>(0, 40 * 256)(rng);
      fy[i] = std::uniform_int_distribution<int>(0, 40 * 256)(rng);
      v[i] = {fx[i] / 256.0, fy[i] / 256.0, 0.5, 1};
    }
    const test::Raster r = test::rasterize(test::clipFromWindow(s.viewport, v), s, s.scissor);
    for (size_t q = 0; q < r.quads.size(); ++q) {
      const Quad& quad = r.quads[q];
      EXPECT_EQ(quad.x % 2, 0);
      EXPECT_EQ(quad.y % 2, 0);
      EXPECT_NE(quad.coverage, 0u);
      if (q > 0) {  // rows of quads top to bottom, left to right
        const Quad& prev = r.quads[q - 1];
        EXPECT_TRUE(prev.y < quad.y || (prev.y == quad.y && prev.x < quad.x));
      }
      for (int slot = 0; slot < 4; ++slot) {
        EXPECT_EQ((quad.coverage >> slot) & 1, test::oracleCovers(fx, fy, quad.x + (slot & 1), quad.y + (slot >> 1)) ? 1u : 0u);
      }
    }
  }
}

TEST(RasterQuads, HelperPixelsCarryExtrapolatedValues) {
  // A triangle with distinct w per vertex and a sloped depth; in every quad, covered or not,
  // each pixel's weights and depth must be those of the triangle's planes at its centre:
  // linear weights = screen-space barycentrics, perspective weights = (a_i/w_i) / sum(a_j/w_j),
  // z = sum a_i z_i (no clamping happens here: z stays in (0, 1)).
  const RasterState s = test::fullScreenState(32, 32);
  const double x[3] = {3.25, 28.5, 9.75}, y[3] = {2.5, 11.0, 29.25}, w[3] = {1.0, 3.0, 0.5}, zd[3] = {0.1, 0.9, 0.4};
  WindowVertex v[3];
  for (int i = 0; i < 3; ++i) v[i] = {x[i], y[i], zd[i], w[i]};
  const test::Raster r = test::rasterize(test::clipFromWindow(s.viewport, v), s, s.scissor);
  int helpers = 0;
  for (const Quad& q : r.quads) {
    for (int slot = 0; slot < 4; ++slot) {
      helpers += !((q.coverage >> slot) & 1);
      double a[3];
      test::screenBary(x, y, q.x + (slot & 1) + 0.5, q.y + (slot >> 1) + 0.5, a);
      double denom = 0, z = 0;
      for (int i = 0; i < 3; ++i) {
        denom += a[i] / w[i];
        z += a[i] * zd[i];
      }
      for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(q.baryLinear[slot][i], a[i], 1e-5);
        EXPECT_NEAR(q.baryPersp[slot][i], a[i] / w[i] / denom, 1e-5);
      }
      EXPECT_NEAR(q.invW[slot], denom, 1e-5);
      EXPECT_NEAR(q.z[slot], z, 1e-6);
    }
  }
  EXPECT_GT(helpers, 10) << "the edges of the triangle must produce partially covered quads";
}

}  // namespace
}  // namespace tessera::raster
