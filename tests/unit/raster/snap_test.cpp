// "Controlling the Viewport": x_f and y_f keep subPixelPrecisionBits (8) fractional bits; the
// coverage test works on the snapped coordinates. "Multisampling": one sample sits at the
// pixel centre.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "raster_test_support.h"
#include "rules.h"

namespace tessera::raster {
namespace {

// Edge x = edgeX (left edge of a tall rectangle-ish triangle pair): is pixel 10 covered?
bool pixel10Covered(double edgeX) {
  const RasterState s = test::fullScreenState(32, 32);
  // A triangle whose left edge is the vertical line x = edgeX from y = 0 to y = 32, its third
  // vertex far right: pixel (10, 16)'s centre (10.5, 16.5) is on or next to that edge.
  const ClipTriangle t = test::clipFromWindow(s.viewport, {{edgeX, 0, 0.5, 1}, {edgeX, 32, 0.5, 1}, {30, 16, 0.5, 1}});
  const test::Raster r = test::rasterize(t, s, s.scissor);
  return r.count.count({10, 16}) != 0;
}

TEST(RasterSnap, ControllingTheViewport_SnapsToOne256thPixel) {
  // Each of these framebuffer coordinates is exactly representable, so the expected values
  // are the exact products by 256 rounded to the nearest integer (halves away from zero).
  struct Case {
    double coord;
    int64_t fixed;
  };
  for (const Case c : {Case{0.0, 0}, Case{0.5, 128}, Case{1.0 / 256, 1}, Case{1.0 / 512, 1},
                       Case{-1.0 / 512, -1}, Case{1.0 / 1024, 0}, Case{3.0 / 1024, 1},
                       Case{10.5 + 1.0 / 1024, 2688}, Case{-7.25, -1856}, Case{1000.75, 256192}}) {
    std::vector<SetupTriangle> out;
    RasterState s = test::fullScreenState(2048, 2048);
    s.viewport = {-1024, -1024, 4096, 4096, 0, 1};  // negative framebuffer x is on the viewport
    // Put the coordinate into a triangle's first vertex; its x comes back snapped.
    const double x = c.coord;
    setupTriangle(test::clipFromWindow(s.viewport, {{x, 10, 0, 1}, {x + 300, 10, 0, 1}, {x, 300, 0, 1}}), s, out);
    ASSERT_EQ(out.size(), 1u) << c.coord;
    EXPECT_EQ(out[0].x[0], c.fixed) << c.coord;
  }
}

TEST(RasterSnap, ControllingTheViewport_CoverageUsesSnappedCoordinates) {
  // Pixel 10's centre is x = 10.5. A left edge exactly through it covers it (tie-break);
  // 1/256 to the right does not; 1/1024 to the right snaps back onto the centre and covers it.
  EXPECT_TRUE(pixel10Covered(10.5));
  EXPECT_FALSE(pixel10Covered(10.5 + 1.0 / 256));
  EXPECT_TRUE(pixel10Covered(10.5 + 1.0 / 1024));
  EXPECT_TRUE(pixel10Covered(10.5 - 1.0 / 256));
  // Just beyond half a step: snaps to 10.5 + 1/256.
  EXPECT_FALSE(pixel10Covered(10.5 + 3.0 / 1024));
}

TEST(RasterSnap, Multisampling_SingleSampleAtPixelCentre) {
  // A 1x1 pixel axis-aligned square made of two triangles with corners on integer coordinates
  // covers exactly that pixel; the same square shifted by just under half a pixel still covers
  // only it, shifted by just over half a pixel it covers its neighbour instead.
  for (const double shift : {0.0, 0.49, 0.51}) {
    const RasterState s = test::fullScreenState(16, 16);
    const double x0 = 5 + shift, x1 = 6 + shift, y0 = 7, y1 = 8;
    std::vector<SetupTriangle> out;
    setupTriangle(test::clipFromWindow(s.viewport, {{x0, y0, 0, 1}, {x1, y0, 0, 1}, {x1, y1, 0, 1}}), s, out);
    setupTriangle(test::clipFromWindow(s.viewport, {{x0, y0, 0, 1}, {x1, y1, 0, 1}, {x0, y1, 0, 1}}), s, out);
    test::Raster r;
    test::rasterizeInto(out, s.scissor, r);
    ASSERT_EQ(r.count.size(), 1u) << shift;
    const int expectedX = shift < 0.5 ? 5 : 6;
    EXPECT_EQ(r.count.begin()->first, std::make_pair(expectedX, 7)) << shift;
    EXPECT_EQ(r.count.begin()->second, 1);
  }
}

}  // namespace
}  // namespace tessera::raster

namespace tessera::raster {
namespace {

// snapToSubPixelGrid rounds without calling std::llround (rules.h); it must give llround's
// result (halves away from zero) for every coordinate: exact halves and their neighbours on
// both sides of zero, random values of every magnitude up to and past 2^52 / 256.
TEST(RasterSnap, ControllingTheViewport_InlineRoundingEqualsLlround) {
  std::mt19937_64 rng(77);
  std::vector<double> coords;
  for (int i = -2000; i <= 2000; ++i) {
    const double half = (double(i) + 0.5) / 256;
    coords.insert(coords.end(), {half, std::nextafter(half, 0.0), std::nextafter(half, 1e300),
                                 std::nextafter(half, -1e300), double(i) / 256, double(i) / 512});
  }
  for (int i = 0; i < 200000; ++i) {
    const double magnitude = std::ldexp(1.0, int(rng() % 70) - 20);
    const double v = std::uniform_real_distribution<double>(-magnitude, magnitude)(rng);
    coords.push_back(v);
  }
  coords.insert(coords.end(), {0.0, -0.0, 0x1p44, -0x1p44, std::nextafter(0x1p44, 0.0), 0x1p50, -0x1p50 + 0.5});
  for (double c : coords) ASSERT_EQ(rules::snapToSubPixelGrid(c), std::llround(c * 256.0)) << std::hexfloat << c;
}

}  // namespace
}  // namespace tessera::raster
