// Large points and wide lines (the largePoints and wideLines features). "Basic Point
// Rasterization": a point is a square of side PointSize (clamped to pointSizeRange) centred on
// the vertex, covering the samples inside it, with PointCoord = 1/2 + (x_p - x_f) / size.
// "Basic Line Segment Rasterization" with strictLines false: a parallelogram whose minor-axis
// edges 2 and 3 are lineWidth long and centred on the endpoints, samples on its edges decided
// by the polygon rule. Expected pixels come from oracles written here (a square on the
// sub-pixel grid, and raster_test_support.h's two-triangle parallelogram).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <set>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;
using PixelSet = std::set<std::pair<int, int>>;

PixelSet pixels(const test::Raster& r) {
  PixelSet s;
  for (const auto& [p, n] : r.count) {
    EXPECT_EQ(n, 1) << "pixel " << p.first << "," << p.second << " covered twice";
    s.insert(p);
  }
  return s;
}

test::Raster drawPoint(const RasterState& s, const WindowVertex& v, float size, SetupPoint* setup = nullptr) {
  float pos[4];
  test::clipFromWindow(s.viewport, v, pos);
  SetupPoint p;
  test::Raster r;
  if (setupPoint(pos, size, s, &p)) rasterizePoint(p, s.scissor, [&](const Quad& q) { test::collect(q, r); });
  if (setup) *setup = p;
  return r;
}

TEST(LargePoints, BasicPointRasterization_SquareOfPointSizeCentredOnTheVertex) {
  RasterState s = test::fullScreenState(64, 64);
  // Size 5.5 at (10.3, 12.7): the square [7.55, 13.05) x [9.95, 15.45) holds the pixel centres
  // 8.5 .. 12.5 and 10.5 .. 14.5: 5 x 5 pixels.
  SetupPoint p;
  const test::Raster r = drawPoint(s, {10.3, 12.7, 0.5, 1}, 5.5f, &p);
  PixelSet expected;
  for (int y = 10; y <= 14; ++y)
    for (int x = 8; x <= 12; ++x) expected.insert({x, y});
  EXPECT_EQ(pixels(r), expected);
  EXPECT_EQ(p.size, 5.5f);
  // PointCoord at the centre of pixel (8, 10): s = 1/2 + (8.5 - 10.3) / 5.5, t = 1/2 + (10.5 - 12.7) / 5.5.
  const test::Fragment& f = r.fragment.at({8, 10});
  EXPECT_NEAR(f.quad.pointCoord[f.slot][0], 0.5 + (8.5 - 10.3) / 5.5, 1e-5);
  EXPECT_NEAR(f.quad.pointCoord[f.slot][1], 0.5 + (10.5 - 12.7) / 5.5, 1e-5);
  const test::Fragment& g = r.fragment.at({12, 14});
  EXPECT_NEAR(g.quad.pointCoord[g.slot][0], 0.5 + (12.5 - 10.3) / 5.5, 1e-5);
  EXPECT_NEAR(g.quad.pointCoord[g.slot][1], 0.5 + (14.5 - 12.7) / 5.5, 1e-5);
}

TEST(LargePoints, PointSizeIsClampedToPointSizeRange) {
  // "clamped to the implementation-dependent point size range": [1, 255].
  RasterState s = test::fullScreenState(512, 512);
  SetupPoint p;
  const test::Raster big = drawPoint(s, {256.5, 256.5, 0.5, 1}, 1000.0f, &p);
  EXPECT_EQ(p.size, kPointSizeRange[1]);
  EXPECT_EQ(big.count.size(), 255u * 255u);
  const test::Raster small = drawPoint(s, {100.5, 100.5, 0.5, 1}, 0.25f, &p);
  EXPECT_EQ(p.size, kPointSizeRange[0]);
  EXPECT_EQ(small.count.size(), 1u);
}

TEST(LargePoints, RandomSizesCoverExactlyTheSquare) {
  // Centres on the 1/256 grid and sizes multiples of 1/128 (pointSizeGranularity): the square
  // [c - size/2, c + size/2) is exact, left and top edges in, right and bottom out (raster/points.cpp).
  RasterState s = test::fullScreenState(128, 128);
  std::mt19937 rng(16);
  std::uniform_int_distribution<int> centre(20 * 256, 108 * 256), size(128, 40 * 128);
  for (int round = 0; round < 200; ++round) {
    const int64_t cx = centre(rng), cy = centre(rng), sz = size(rng);  // sz in 1/128 pixel
    const double x = cx / 256.0, y = cy / 256.0, side = sz / 128.0;
    PixelSet expected;
    for (int py = 0; py < 128; ++py)
      for (int px = 0; px < 128; ++px) {
        const int64_t sx = px * 256 + 128, sy = py * 256 + 128;  // pixel centres, 1/256 pixel
        if (sx >= cx - sz && sx < cx + sz && sy >= cy - sz && sy < cy + sz) expected.insert({px, py});
      }
    EXPECT_EQ(pixels(drawPoint(s, {x, y, 0.5, 1}, float(side))), expected) << "round " << round;
  }
}

test::Raster drawLine(RasterState s, const WindowVertex& a, const WindowVertex& b, float width) {
  s.lineWidth = width;
  return test::rasterizeLines({test::lineFromWindow(s.viewport, a, b)}, s, s.scissor);
}

TEST(WideLines, BasicLineSegmentRasterization_HorizontalWideLine) {
  RasterState s = test::fullScreenState(64, 64);
  // From (2.3, 10.4) to (20.7, 10.4), width 5: x-major, so the parallelogram is the rectangle
  // [2.3, 20.7] x [7.9, 12.9], holding the centres x = 2.5 .. 20.5, y = 8.5 .. 12.5.
  PixelSet expected;
  for (int y = 8; y <= 12; ++y)
    for (int x = 2; x <= 20; ++x) expected.insert({x, y});
  EXPECT_EQ(pixels(drawLine(s, {2.3, 10.4, 0.5, 1}, {20.7, 10.4, 0.5, 1}, 5.0f)), expected);
}

TEST(WideLines, BasicLineSegmentRasterization_RandomWideParallelograms) {
  // Random segments and widths (multiples of lineWidthGranularity, 1/128) against the
  // parallelogram oracle: edges 2 and 3 along the minor axis, lineWidth long, centred on the
  // endpoints; ties by the polygon rule.
  RasterState s = test::fullScreenState(96, 96);
  std::mt19937 rng(1600);
  std::uniform_int_distribution<int> coord(8 * 256, 88 * 256), width(128, 24 * 128);
  for (int round = 0; round < 150; ++round) {
    const int64_t ax = coord(rng), ay = coord(rng), bx = coord(rng), by = coord(rng), w = width(rng);
    if (ax == bx && ay == by) continue;
    const test::Raster r =
        drawLine(s, {ax / 256.0, ay / 256.0, 0.5, 1}, {bx / 256.0, by / 256.0, 0.5, 1}, float(w / 128.0));
    PixelSet expected;
    for (int py = 0; py < 96; ++py)
      for (int px = 0; px < 96; ++px)
        if (test::oracleLineCovers(ax, ay, bx, by, px, py, w)) expected.insert({px, py});
    ASSERT_EQ(pixels(r), expected) << "round " << round << " width " << w / 128.0;
  }
}

TEST(WideLines, LineWidthIsClampedToLineWidthRange) {
  // "If an unsupported width is requested, the nearest supported width is used instead".
  RasterState s = test::fullScreenState(32, 32);
  for (const auto& [asked, used] : {std::pair{1000.0f, 255.0f}, {0.5f, 1.0f}, {NAN, 1.0f}, {3.25f, 3.25f}}) {
    s.lineWidth = asked;
    std::vector<SetupLine> out;
    ASSERT_EQ(setupLine(test::lineFromWindow(s.viewport, {2.5, 10.3, 0.5, 1}, {20.5, 12.1, 0.5, 1}), s, out), 1u);
    EXPECT_EQ(out[0].width, used) << asked;
  }
}

TEST(WideLines, PolygonModeLineEdgesUseTheLineWidth) {
  // "Polygon Mode": LINE draws the edges "as line segments", of the current line width.
  RasterState s = test::fullScreenState(64, 64);
  s.lineWidth = 3.0f;
  const WindowVertex v[3] = {{8.3, 8.1, 0.5, 1}, {50.6, 8.1, 0.5, 1}, {8.3, 50.4, 0.5, 1}};
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(test::clipFromWindow(s.viewport, v), s, edges), 3u);
  // The horizontal edge at y = 8.1 is 3 wide: rows 7, 8 and 9 (centres in [6.6, 9.6)).
  test::Raster r;
  rasterizeLine(edges[0], s.scissor, [&](const Quad& q) { test::collect(q, r); });
  EXPECT_EQ(r.count.count({30, 6}), 0u);
  EXPECT_EQ(r.count.count({30, 7}), 1u);
  EXPECT_EQ(r.count.count({30, 9}), 1u);
  EXPECT_EQ(r.count.count({30, 10}), 0u);
}

}  // namespace
}  // namespace tessera::raster
