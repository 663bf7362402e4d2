// "Basic Polygon Rasterization": point sampling at pixel centres, and the tie-breaking rule:
// "if two polygons lie on either side of a common edge (with identical endpoints) on which a
// sample point lies, then exactly one of the polygons must result in a covered sample".
// Scissor ("Scissor Test") and tile restriction of what rasterizeTriangle emits.
#include <gtest/gtest.h>

#include <random>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

void expectEveryPixelOnce(const test::Raster& r, int width, int height, const std::string& what) {
  int missing = 0, doubled = 0;
  for (int y = 0; y < height; ++y) {
    for (int x = 0; x < width; ++x) {
      const auto it = r.count.find({x, y});
      const int n = it == r.count.end() ? 0 : it->second;
      missing += n == 0;
      doubled += n > 1;
    }
  }
  EXPECT_EQ(missing, 0) << what;
  EXPECT_EQ(doubled, 0) << what;
  EXPECT_EQ(r.count.size(), size_t(width) * height) << what << ": pixels outside the viewport";
}

TEST(RasterCoverage, BasicPolygonRasterization_FullScreenPairCoversEachPixelOnce) {
  const RasterState s = test::fullScreenState(64, 64);
  // Both diagonals: x = y passes through every pixel centre (x+0.5, x+0.5) of the diagonal, and
  // x + y = 64 through every (x+0.5, 63-x+0.5).
  const WindowVertex a{0, 0, 0.5, 1}, b{64, 0, 0.5, 1}, c{64, 64, 0.5, 1}, d{0, 64, 0.5, 1};
  const WindowVertex splits[2][2][3] = {{{a, b, c}, {a, c, d}}, {{a, b, d}, {b, c, d}}};
  for (const auto& pair : splits) {
    std::vector<SetupTriangle> setups;
    for (const auto& tri : pair) setupTriangle(test::clipFromWindow(s.viewport, tri), s, setups);
    test::Raster r;
    test::rasterizeInto(setups, s.scissor, r);
    expectEveryPixelOnce(r, 64, 64, "full-screen pair");
  }
}

TEST(RasterCoverage, BasicPolygonRasterization_RandomMeshCoversEachPixelOnce) {
  // A jittered grid over the viewport, each cell split along a random diagonal, each triangle
  // with a random winding and every vertex with its own w (so positions go through the
  // perspective division): the triangles tile the viewport, so every pixel centre must be
  // covered by exactly one of them. Vertices often sit on pixel centres or half-pixels so that
  // many samples lie exactly on shared edges.
  constexpr int kW = 64, kH = 48, kCell = 8;
  constexpr int nx = kW / kCell, ny = kH / kCell;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    std::mt19937 rng(seed);
    RasterState s = test::fullScreenState(kW, kH);
    s.cullMode = VK_CULL_MODE_NONE;
    std::vector<WindowVertex> grid((nx + 1) * (ny + 1));
    for (int j = 0; j <= ny; ++j) {
      for (int i = 0; i <= nx; ++i) {
        double x = i * kCell, y = j * kCell;
        // Jitter interior vertices by up to +-2 pixels in steps of 1/256, 1/2 or 1 pixel.
        const int step = std::uniform_int_distribution<int>(0, 2)(rng) == 0 ? 1 : (rng() % 2 ? 128 : 256);
        auto jitter = [&] { return std::uniform_int_distribution<int>(-512 / step, 512 / step)(rng) * step / 256.0; };
        if (i > 0 && i < nx) x += jitter() + (rng() % 2 ? 0.5 : 0);
        if (j > 0 && j < ny) y += jitter() + (rng() % 2 ? 0.5 : 0);
        const double w = std::uniform_real_distribution<double>(0.5, 4)(rng);
        grid[j * (nx + 1) + i] = {x, y, 0.5, w};
      }
    }
    std::vector<SetupTriangle> setups;
    for (int j = 0; j < ny; ++j) {
      for (int i = 0; i < nx; ++i) {
        const WindowVertex p00 = grid[j * (nx + 1) + i], p10 = grid[j * (nx + 1) + i + 1];
        const WindowVertex p01 = grid[(j + 1) * (nx + 1) + i], p11 = grid[(j + 1) * (nx + 1) + i + 1];
        WindowVertex tris[2][3];
        if (rng() % 2) {
          tris[0][0] = p00, tris[0][1] = p10, tris[0][2] = p11;
          tris[1][0] = p00, tris[1][1] = p11, tris[1][2] = p01;
        } else {
          tris[0][0] = p00, tris[0][1] = p10, tris[0][2] = p01;
          tris[1][0] = p10, tris[1][1] = p11, tris[1][2] = p01;
        }
        for (auto& t : tris) {
          // Precondition of the generator: the cell's triangles keep the grid's orientation,
          // so the mesh really tiles the viewport.
          const double area = (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[1].y - t[0].y) * (t[2].x - t[0].x);
          ASSERT_GT(area, 0) << "seed " << seed;
          if (rng() % 2) std::swap(t[1], t[2]);  // random winding
          setupTriangle(test::clipFromWindow(s.viewport, t), s, setups);
        }
      }
    }
    test::Raster r;
    test::rasterizeInto(setups, s.scissor, r);
    expectEveryPixelOnce(r, kW, kH, "seed " + std::to_string(seed));
  }
}

TEST(RasterCoverage, BasicPolygonRasterization_VerticesOnPixelCentres) {
  // Vertices at pixel centres (2.5, 2.5), (10.5, 2.5), (2.5, 10.5): the samples on the top
  // edge (y = 2.5, interior below) and the left edge (x = 2.5, interior right) are covered,
  // those on the hypotenuse x + y = 13 (interior up-left) are not. Covered: x, y >= 2 and
  // x + y <= 11, i.e. 1 + 2 + ... + 8 = 36 pixels. The other half of the 8x8 square
  // (10.5, 2.5), (10.5, 10.5), (2.5, 10.5) covers x, y <= 9 with x + y >= 12: 28 pixels.
  const RasterState s = test::fullScreenState(16, 16);
  const WindowVertex a{2.5, 2.5, 0.5, 1}, b{10.5, 2.5, 0.5, 1}, c{2.5, 10.5, 0.5, 1}, d{10.5, 10.5, 0.5, 1};
  const WindowVertex lower[3] = {a, b, c};
  const WindowVertex upper[3] = {b, d, c};
  const test::Raster r1 = test::rasterize(test::clipFromWindow(s.viewport, lower), s, s.scissor);
  const test::Raster r2 = test::rasterize(test::clipFromWindow(s.viewport, upper), s, s.scissor);
  EXPECT_EQ(r1.count.size(), 36u);
  EXPECT_EQ(r2.count.size(), 28u);
  for (int y = 0; y < 16; ++y) {
    for (int x = 0; x < 16; ++x) {
      const bool in1 = x >= 2 && y >= 2 && x + y <= 11;
      const bool in2 = x <= 9 && y <= 9 && x + y >= 12;
      EXPECT_EQ(r1.count.count({x, y}) != 0, in1) << x << "," << y;
      EXPECT_EQ(r2.count.count({x, y}) != 0, in2) << x << "," << y;
    }
  }
}

TEST(RasterCoverage, BasicPolygonRasterization_MatchesExactOracle) {
  // Random triangles with vertices on the quarter-pixel grid (so many samples lie exactly on
  // edges and vertices) against the exact rational point-in-triangle test with the perturbed-
  // sample tie-break (raster_test_support.h).
  std::mt19937 rng(7);
  const RasterState s = test::fullScreenState(32, 32);
  for (int n = 0; n < 400; ++n) {
    WindowVertex v[3];
    int64_t fx[3], fy[3];
    for (int i = 0; i < 3; ++i) {
      fx[i] = std::uniform_int_distribution<int>(-8, 33 * 4)(rng) * 64;  // quarter pixels, 1/256 units
      fy[i] = std::uniform_int_distribution<int>(-8, 33 * 4)(rng) * 64;
      v[i] = {fx[i] / 256.0, fy[i] / 256.0, 0.5, 1};
    }
    const test::Raster r = test::rasterize(test::clipFromWindow(s.viewport, v), s, s.scissor);
    for (int y = 0; y < 32; ++y) {
      for (int x = 0; x < 32; ++x) {
        ASSERT_EQ(r.count.count({x, y}) != 0, test::oracleCovers(fx, fy, x, y))
            << "triangle " << n << " pixel " << x << "," << y;
      }
    }
  }
}

TEST(RasterCoverage, ScissorTest_RestrictsCoverage) {
  // A triangle covering the whole viewport with a scissor rectangle: exactly the scissor's
  // pixels.
  RasterState s = test::fullScreenState(32, 32);
  s.scissor = {5, 7, 21, 13};
  const WindowVertex big[3] = {{-10, -10, 0.5, 1}, {100, -10, 0.5, 1}, {-10, 100, 0.5, 1}};
  const test::Raster r = test::rasterize(test::clipFromWindow(s.viewport, big), s, {0, 0, 32, 32});
  EXPECT_EQ(r.count.size(), size_t(16 * 6));
  for (const auto& [p, n] : r.count) {
    EXPECT_TRUE(p.first >= 5 && p.first < 21 && p.second >= 7 && p.second < 13) << p.first << "," << p.second;
  }
}

TEST(RasterCoverage, TilesPartitionTheCoverage) {
  // Rasterizing tile by tile gives the same pixels, each once, as one call over everything;
  // every quad lies inside its tile.
  std::mt19937 rng(11);
  const RasterState s = test::fullScreenState(80, 72);
  for (int n = 0; n < 50; ++n) {
    WindowVertex v[3];
    for (auto& p : v) p = {std::uniform_real_distribution<double>(-10, 90)(rng), std::uniform_real_distribution<double>(-10, 80)(rng), 0.5, 1};
    std::vector<SetupTriangle> setups;
    setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
    test::Raster whole, tiled;
    test::rasterizeInto(setups, s.scissor, whole);
    for (int ty = 0; ty < 72; ty += 16) {
      for (int tx = 0; tx < 80; tx += 16) {
        const Rect tile{tx, ty, tx + 16, ty + 16};
        const size_t before = tiled.quads.size();
        test::rasterizeInto(setups, tile, tiled);
        for (size_t q = before; q < tiled.quads.size(); ++q) {
          EXPECT_TRUE(tiled.quads[q].x >= tx && tiled.quads[q].x + 2 <= tile.x1 && tiled.quads[q].y >= ty &&
                      tiled.quads[q].y + 2 <= tile.y1);
        }
      }
    }
    EXPECT_EQ(whole.count, tiled.count) << n;
    for (const auto& [p, count] : tiled.count) EXPECT_EQ(count, 1);
  }
}

}  // namespace
}  // namespace tessera::raster
