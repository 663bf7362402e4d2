// Coverage of points ("Basic Point Rasterization", "Primitive Clipping" with pointClippingBehavior
// ALL_CLIP_PLANES) and of width-1 non-strict lines ("Basic Line Segment Rasterization",
// strictLines false: the parallelogram, ties by the polygon rule). Expected pixel sets are
// worked out by hand in the comments, or come from the two-triangle parallelogram oracle of
// raster_test_support.h.
#include <gtest/gtest.h>

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

struct DrawnPoint {
  bool kept;
  SetupPoint setup;
  test::Raster raster;
};

DrawnPoint drawPoint(const RasterState& s, const WindowVertex& v, float size = 1) {
  float pos[4];
  test::clipFromWindow(s.viewport, v, pos);
  DrawnPoint d{};
  d.kept = setupPoint(pos, size, s, &d.setup);
  if (d.kept) rasterizePoint(d.setup, s.scissor, [&](const Quad& q) { test::collect(q, d.raster); });
  return d;
}

test::Raster drawLine(const RasterState& s, const WindowVertex& a, const WindowVertex& b) {
  return test::rasterizeLines({test::lineFromWindow(s.viewport, a, b)}, s, s.scissor);
}

TEST(RasterPoints, BasicPointRasterization_PointAtPixelCentreCoversThatPixel) {
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.2f;
  s.viewport.maxDepth = 0.6f;
  // The square [10, 11) x [7, 8) holds one pixel centre, (10.5, 7.5).
  const DrawnPoint d = drawPoint(s, {10.5, 7.5, 0.25, 2});
  ASSERT_TRUE(d.kept);
  EXPECT_EQ(pixels(d.raster), (PixelSet{{10, 7}}));
  ASSERT_EQ(d.raster.quads.size(), 1u);
  const Quad& q = d.raster.quads[0];
  EXPECT_EQ(q.x, 10);
  EXPECT_EQ(q.y, 6);
  EXPECT_EQ(q.coverage, 1u << 2);  // (x, y+1)
  for (int p = 0; p < 4; ++p) {
    // "the same associated data, which are those of the vertex": z_f = 0.2 + 0.4 * 0.25.
    EXPECT_FLOAT_EQ(q.z[p], 0.3f);
    EXPECT_FLOAT_EQ(q.invW[p], 0.5f);
    EXPECT_EQ(q.baryPersp[p][0], 1.0f);
    EXPECT_EQ(q.baryLinear[p][0], 1.0f);
    EXPECT_EQ(q.baryPersp[p][1] + q.baryPersp[p][2] + q.baryLinear[p][1] + q.baryLinear[p][2], 0.0f);
  }
}

TEST(RasterPoints, BasicPointRasterization_TieBreakOnTheSquaresEdges) {
  const RasterState s = test::fullScreenState(32, 32);
  // Centred on the pixel corner (10, 7): all four neighbouring centres lie on the square's
  // corners. As for polygons, left and top edges are in, right and bottom ones out: (9, 6).
  EXPECT_EQ(pixels(drawPoint(s, {10, 7, 0.5, 1}).raster), (PixelSet{{9, 6}}));
  // Anywhere on the 1/16 grid, a 1x1 point covers exactly the pixel p with
  // x - 1/2 <= p + 1/2 < x + 1/2, i.e. p = ceil(x) - 1 (the same in y).
  for (int i = 0; i <= 32; ++i) {
    for (int j = 0; j <= 32; ++j) {
      const double x = 4 + i / 16.0, y = 5 + j / 16.0;
      const int px = int(std::ceil(x)) - 1, py = int(std::ceil(y)) - 1;
      EXPECT_EQ(pixels(drawPoint(s, {x, y, 0.5, 1.5}).raster), (PixelSet{{px, py}})) << x << "," << y;
    }
  }
}

TEST(RasterPoints, BasicPointRasterization_PointCoord) {
  const RasterState s = test::fullScreenState(32, 32);
  // s = 1/2 + (x_p - x_f) / size, t = 1/2 + (y_p - y_f) / size at each pixel centre of the quad
  // (10, 6); (10, 7) is the covered one, the others are helpers.
  const DrawnPoint d = drawPoint(s, {10.25, 7.75, 0.5, 1});
  EXPECT_EQ(pixels(d.raster), (PixelSet{{10, 7}}));
  ASSERT_EQ(d.raster.quads.size(), 1u);
  const Quad& q = d.raster.quads[0];
  const float expected[4][2] = {{0.75f, -0.75f}, {1.75f, -0.75f}, {0.75f, 0.25f}, {1.75f, 0.25f}};
  for (int p = 0; p < 4; ++p) {
    EXPECT_FLOAT_EQ(q.pointCoord[p][0], expected[p][0]) << p;
    EXPECT_FLOAT_EQ(q.pointCoord[p][1], expected[p][1]) << p;
  }
  // At the pixel centre itself: the middle of the sprite. Pixel (3, 2) is slot 1 of quad (2, 2).
  const DrawnPoint centred = drawPoint(s, {3.5, 2.5, 0.5, 1});
  const Quad& c = centred.raster.quads.at(0);
  EXPECT_EQ(c.coverage, 1u << 1);
  EXPECT_FLOAT_EQ(c.pointCoord[1][0], 0.5f);
  EXPECT_FLOAT_EQ(c.pointCoord[1][1], 0.5f);
  // "clamped to the implementation-dependent point size range": [1, 255] (largePoints). Size 4
  // centred on (3.5, 2.5) is [1.5, 5.5) x [0.5, 4.5): 4 x 4 pixels; 300 is clamped to 255.
  const DrawnPoint big = drawPoint(s, {3.5, 2.5, 0.5, 1}, 4.0f);
  EXPECT_EQ(big.setup.size, 4.0f);
  EXPECT_EQ(pixels(big.raster).size(), 16u);
  EXPECT_EQ(drawPoint(s, {3.5, 2.5, 0.5, 1}, 300.0f).setup.size, 255.0f);
}

TEST(RasterPoints, PrimitiveClipping_PointsAreKeptOrDiscardedWhole) {
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.2f;
  s.viewport.maxDepth = 0.6f;
  EXPECT_FALSE(drawPoint(s, {5.5, 5.5, -0.01, 1}).kept) << "z < 0";
  EXPECT_FALSE(drawPoint(s, {5.5, 5.5, 1.01, 1}).kept) << "z > w";
  EXPECT_TRUE(drawPoint(s, {5.5, 5.5, 1.0, 1}).kept) << "z = w is inside";
  const float behind[4] = {0.1f, 0.1f, -0.5f, -1}, atEye[4] = {0, 0, 0, 0};
  SetupPoint sp;
  EXPECT_FALSE(setupPoint(behind, 1, s, &sp)) << "w < 0";
  EXPECT_FALSE(setupPoint(atEye, 1, s, &sp)) << "w = 0";
  // ALL_CLIP_PLANES: outside the x or y planes is discarded, even where the square would still
  // reach a pixel of the viewport...
  EXPECT_FALSE(drawPoint(s, {32.01, 5.5, 0.5, 1}).kept);
  EXPECT_FALSE(drawPoint(s, {5.5, -0.01, 0.5, 1}).kept);
  // ...while a vertex on a plane (x = w) is inside and covers the pixel its square reaches.
  EXPECT_EQ(pixels(drawPoint(s, {32, 5.5, 0.5, 1}).raster), (PixelSet{{31, 5}}));
  // depthClampEnable: no z planes; the depth is clamped to the viewport's range.
  s.depthClampEnable = true;
  const DrawnPoint nearP = drawPoint(s, {5.5, 5.5, -3, 1}), farP = drawPoint(s, {5.5, 5.5, 3, 1});
  ASSERT_TRUE(nearP.kept && farP.kept);
  EXPECT_EQ(nearP.raster.quads.at(0).z[0], 0.2f);
  EXPECT_EQ(farP.raster.quads.at(0).z[0], 0.6f);
}

TEST(RasterPoints, ScissorAndTiles) {
  RasterState s = test::fullScreenState(32, 32);
  s.scissor = {4, 4, 20, 20};
  EXPECT_FALSE(drawPoint(s, {3.5, 10.5, 0.5, 1}).kept) << "left of the scissor";
  // On the corner shared by four 16x16 tiles: pixel (15, 15), in the first tile only.
  const DrawnPoint d = drawPoint(s, {16, 16, 0.5, 1});
  ASSERT_TRUE(d.kept);
  const Rect tiles[4] = {{0, 0, 16, 16}, {16, 0, 32, 16}, {0, 16, 16, 32}, {16, 16, 32, 32}};
  for (int t = 0; t < 4; ++t) {
    test::Raster r;
    rasterizePoint(d.setup, tiles[t], [&](const Quad& q) { test::collect(q, r); });
    const PixelSet expected = t == 0 ? PixelSet{{15, 15}} : PixelSet{};
    EXPECT_EQ(pixels(r), expected) << "tile " << t;
  }
}

TEST(RasterLines, BasicLineSegmentRasterization_HorizontalAndVertical) {
  const RasterState s = test::fullScreenState(32, 32);
  // x-major, along the centres of row 3: the parallelogram is [1.5, 6.5] x [3, 4]. The left edge
  // (x = 1.5) is inclusive, the right one (x = 6.5) exclusive: pixels 1..5.
  const PixelSet row3 = {{1, 3}, {2, 3}, {3, 3}, {4, 3}, {5, 3}};
  EXPECT_EQ(pixels(drawLine(s, {1.5, 3.5, 0.5, 1}, {6.5, 3.5, 0.5, 1})), row3);
  // Reversed: the same parallelogram, so the same pixels (exclusion follows the screen-space
  // tie rule, not the direction: here the START pixel (6, 3) is the one left out).
  EXPECT_EQ(pixels(drawLine(s, {6.5, 3.5, 0.5, 1}, {1.5, 3.5, 0.5, 1})), row3);
  // On the boundary between rows 2 and 3: [1, 6] x [2.5, 3.5]; the top edge is inclusive.
  EXPECT_EQ(pixels(drawLine(s, {1, 3, 0.5, 1}, {6, 3, 0.5, 1})), (PixelSet{{1, 2}, {2, 2}, {3, 2}, {4, 2}, {5, 2}}));
  // y-major: edges 2 and 3 run along x. [4, 5] x [1.5, 6.5]: rows 1..5 of column 4.
  const PixelSet col4 = {{4, 1}, {4, 2}, {4, 3}, {4, 4}, {4, 5}};
  EXPECT_EQ(pixels(drawLine(s, {4.5, 1.5, 0.5, 1}, {4.5, 6.5, 0.5, 1})), col4);
  EXPECT_EQ(pixels(drawLine(s, {4.5, 6.5, 0.5, 1}, {4.5, 1.5, 0.5, 1})), col4);
  // On the boundary between columns 3 and 4: [3.5, 4.5] x [1, 6]; the left edge is inclusive.
  EXPECT_EQ(pixels(drawLine(s, {4, 1, 0.5, 1}, {4, 6, 0.5, 1})), (PixelSet{{3, 1}, {3, 2}, {3, 3}, {3, 4}, {3, 5}}));
}

TEST(RasterLines, BasicLineSegmentRasterization_Diagonals) {
  const RasterState s = test::fullScreenState(32, 32);
  // |dx| = |dy|: "the X axis is chosen as the major axis", so the parallelogram extends 1/2
  // along y. Centres (i + 1/2, i + 1/2) lie on the line, x in [0.5, 4.5): i = 0..3.
  EXPECT_EQ(pixels(drawLine(s, {0.5, 0.5, 0.5, 1}, {4.5, 4.5, 0.5, 1})), (PixelSet{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
  // Through pixel corners: (8, 0) to (0, 8); at x = i + 1/2 the line is at y = 7.5 - i.
  PixelSet anti;
  for (int i = 0; i < 8; ++i) anti.insert({i, 7 - i});
  EXPECT_EQ(pixels(drawLine(s, {8, 0, 0.5, 1}, {0, 8, 0.5, 1})), anti);
  // Slope 1/2: at x = i + 1/2 the line is at y = i/2 + 1/4; the row j with |j + 1/2 - y| <= 1/2.
  EXPECT_EQ(pixels(drawLine(s, {0, 0, 0.5, 1}, {8, 4, 0.5, 1})),
            (PixelSet{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 2}, {5, 2}, {6, 3}, {7, 3}}));
}

TEST(RasterLines, BasicLineSegmentRasterization_RandomLinesMatchTheParallelogram) {
  const RasterState s = test::fullScreenState(32, 32);
  std::mt19937 rng(7);
  for (int n = 0; n < 300; ++n) {
    // Endpoints in 1/256 (often on 1/2 so that many samples fall exactly on edges).
    const int step = rng() % 2 ? 1 : 128;
    auto coord = [&] { return int64_t(std::uniform_int_distribution<int>(0, 32 * 256 / step)(rng)) * step; };
    const int64_t ax = coord(), ay = coord(), bx = coord(), by = coord();
    const test::Raster r = drawLine(s, {ax / 256.0, ay / 256.0, 0.5, 1}, {bx / 256.0, by / 256.0, 0.5, 1});
    std::map<int, int> perMajor;  // covered pixels per column (x-major) or row (y-major)
    const bool xMajor = std::llabs(bx - ax) >= std::llabs(by - ay);
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) {
        const bool covered = r.count.count({x, y}) != 0;
        ASSERT_EQ(covered, test::oracleLineCovers(ax, ay, bx, by, x, y))
            << "line " << n << " (" << ax << "," << ay << ")-(" << bx << "," << by << ") pixel " << x << "," << y;
        if (covered) ++perMajor[xMajor ? x : y];
      }
    }
    for (const auto& [c, k] : perMajor) EXPECT_EQ(k, 1) << "line " << n << ": one pixel per column/row";
  }
}

TEST(RasterLines, BasicLineSegmentRasterization_StripsShareEndpointsWithoutOverlap) {
  // Consecutive segments that keep their major axis and direction meet on the same minor-axis
  // edge (2 or 3); the tie rule gives a sample on it to exactly one of them. So a strip going
  // right covers exactly one pixel in every column whose centre is in [x_first, x_last), none
  // twice, whether the joints are on pixel centres, corners or anywhere on the grid.
  const RasterState s = test::fullScreenState(32, 32);
  std::mt19937 rng(11);
  for (int n = 0; n < 100; ++n) {
    std::vector<ClipLine> strip;
    double x = (rng() % 8) / 2.0, y = 8 + (rng() % 32) / 2.0;
    const double x0 = x;
    while (true) {
      // x-major steps (|dy| < dx) that stay inside the viewport.
      const double dx = 1 + (rng() % 16) / (n % 2 ? 2.0 : 16.0);
      double dy = std::uniform_real_distribution<double>(-0.9 * dx, 0.9 * dx)(rng);
      if (y + dy < 1 || y + dy > 31) dy = -dy;
      const double nx = x + dx, ny = std::round((y + dy) * 256) / 256;
      if (nx > 30) break;
      strip.push_back(test::lineFromWindow(s.viewport, {x, y, 0.5, 1}, {nx, ny, 0.5, 1}));
      x = nx, y = ny;
    }
    const test::Raster r = test::rasterizeLines(strip, s, s.scissor);
    std::map<int, int> perColumn;
    for (const auto& [p, k] : r.count) {
      EXPECT_EQ(k, 1) << "strip " << n << " pixel " << p.first << "," << p.second << " drawn twice";
      perColumn[p.first] += k;
    }
    for (int c = 0; c < 32; ++c) {
      const bool inside = c + 0.5 >= x0 && c + 0.5 < x;
      EXPECT_EQ(perColumn[c], inside ? 1 : 0) << "strip " << n << " column " << c;
    }
  }
}

TEST(RasterLines, ScissorTilesAndQuadOrder) {
  RasterState s = test::fullScreenState(32, 32);
  const ClipLine lines[] = {test::lineFromWindow(s.viewport, {0.3, 1.7, 0.5, 1}, {31.2, 29.9, 0.5, 1}),
                            test::lineFromWindow(s.viewport, {30.5, 0.5, 0.5, 1}, {2.25, 20.75, 0.5, 1}),
                            test::lineFromWindow(s.viewport, {0, 16, 0.5, 1}, {32, 16, 0.5, 1})};
  for (const ClipLine& l : lines) {
    const test::Raster whole = test::rasterizeLines({l}, s, s.scissor);
    // Quads come in rows top to bottom, left to right within a row.
    for (size_t i = 1; i < whole.quads.size(); ++i) {
      const Quad &a = whole.quads[i - 1], &b = whole.quads[i];
      EXPECT_TRUE(a.y < b.y || (a.y == b.y && a.x < b.x));
    }
    // The union over 8x8 tiles is the whole, each pixel once and inside its tile.
    test::Raster tiled;
    for (int ty = 0; ty < 32; ty += 8) {
      for (int tx = 0; tx < 32; tx += 8) {
        const test::Raster t = test::rasterizeLines({l}, s, {tx, ty, tx + 8, ty + 8});
        for (const auto& [p, k] : t.count) {
          EXPECT_TRUE(p.first >= tx && p.first < tx + 8 && p.second >= ty && p.second < ty + 8);
          tiled.count[p] += k;
        }
      }
    }
    EXPECT_EQ(pixels(tiled), pixels(whole));
    // The scissor keeps exactly the pixels inside it.
    RasterState cut = s;
    cut.scissor = {5, 3, 21, 19};
    PixelSet expected;
    for (const auto& p : pixels(whole))
      if (p.first >= 5 && p.first < 21 && p.second >= 3 && p.second < 19) expected.insert(p);
    EXPECT_EQ(pixels(test::rasterizeLines({l}, cut, cut.scissor)), expected);
  }
}

TEST(RasterLines, PrimitiveClipping_LongLinesAndDegenerateOnes) {
  const RasterState s = test::fullScreenState(32, 32);
  // Far beyond the viewport (and the line guard band): clipping leaves the visible part intact.
  PixelSet row, diagonal;
  for (int i = 0; i < 32; ++i) row.insert({i, 3}), diagonal.insert({i, i});
  EXPECT_EQ(pixels(drawLine(s, {-40000, 3.5, 0.5, 1}, {40000, 3.5, 0.5, 1})), row);
  EXPECT_EQ(pixels(drawLine(s, {-40000, -40000, 0.5, 1}, {40000, 40000, 0.5, 1})), diagonal);
  // Zero length after snapping: no parallelogram area, nothing to set up.
  std::vector<SetupLine> out;
  EXPECT_EQ(setupLine(test::lineFromWindow(s.viewport, {5.5, 5.5, 0.5, 1}, {5.5001, 5.5, 0.5, 1}), s, out), 0u);
  // Entirely behind the near plane.
  EXPECT_EQ(setupLine(test::lineFromWindow(s.viewport, {5.5, 5.5, -0.5, 1}, {20, 9, -0.1, 2}), s, out), 0u);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace tessera::raster
