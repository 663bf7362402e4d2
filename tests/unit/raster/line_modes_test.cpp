// VK_EXT_line_rasterization's modes and "Line Stipple" through setupLine and rasterizeLine
// (raster.h), each against the rule as the spec states it, computed here another way:
//  - RECTANGULAR_SMOOTH ("Smooth Lines"): each covered pixel's coverage value against the area
//    of its square inside the rectangle (and the kept unit-length rectangles), integrated here
//    column by column between the boundaries' crossings; every overlapped pixel covered, all its
//    samples;
//  - RECTANGULAR ("Basic Line Segment Rasterization"): the rectangle centred on the segment,
//    half the width on each side, its ends through the endpoints perpendicular to it; checked
//    with distances and projections in double at every pixel centre (and sample) not within
//    1e-9 pixel of an edge, and the edge cases by the polygon tie-break rule.
//  - BRESENHAM ("Bresenham Line Segment Rasterization"): the diamond-exit fragments of every
//    pixel of a box around the segment (rules::diamondExitProduces, itself checked against a
//    geometric oracle in bresenham_test.cpp), so the walk's candidate pixels must find them all;
//    wide lines as runs of w from the segment moved by (w - 1)/2; the run's interpolation; all
//    samples covered.
//  - "Line Stipple": b = floor(s / r) mod 16 with s per unit-length rectangle (rectangular) or
//    per fragment (Bresenham), reset per independent segment, carried along strips and past a
//    clipped start; the same pixels whether a line is drawn whole or tile by tile.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <set>

#include "draw_internal.h"
#include "raster_test_support.h"
#include "rules.h"

namespace tessera::raster {
namespace {

using test::Expect;
using test::WindowVertex;
using PixelSet = std::set<std::pair<int, int>>;

constexpr int kSize = 64;

PixelSet pixels(const test::Raster& r) {
  PixelSet s;
  for (const auto& [p, n] : r.count) {
    EXPECT_EQ(n, 1) << "pixel " << p.first << "," << p.second << " covered twice";
    s.insert(p);
  }
  return s;
}

RasterState lineState(VkLineRasterizationModeEXT mode, float width) {
  RasterState s = test::fullScreenState(kSize, kSize);
  s.lineMode = mode;
  s.lineWidth = width;
  return s;
}

// One line set up and rasterized over `tile` (the whole target by default).
struct DrawnLine {
  std::vector<SetupLine> setups;
  test::Raster raster;
};
DrawnLine draw(const RasterState& s, const WindowVertex& a, const WindowVertex& b, double stippleCounter = 0,
               const Rect* tile = nullptr) {
  DrawnLine d;
  setupLine(test::lineFromWindow(s.viewport, a, b), s, stippleCounter, d.setups);
  for (const SetupLine& sl : d.setups)
    rasterizeLine(sl, tile ? *tile : s.scissor, [&](const Quad& q) { test::collect(q, d.raster); });
  return d;
}

// The snapped endpoints set-up drew (1/256 pixel).
void snapped(const SetupLine& l, int64_t e[4]) {
  for (int k = 0; k < 2; ++k) {
    e[2 * k] = std::llround(double(l.x[k]) * 256);
    e[2 * k + 1] = std::llround(double(l.y[k]) * 256);
  }
}

// ---- RECTANGULAR ------------------------------------------------------------------------------

// Where (px, py) (pixels) lies in the rectangle of the segment a-b (pixels) of half width h:
// inside, outside, or within 1e-9 of an edge (not checked here).
Expect rectangleOracle(double ax, double ay, double bx, double by, double h, double px, double py) {
  const double dx = bx - ax, dy = by - ay, len = std::hypot(dx, dy);
  const double along = ((px - ax) * dx + (py - ay) * dy) / len;    // distance along from p_a
  const double across = std::fabs((px - ax) * dy - (py - ay) * dx) / len;  // distance from the line
  const double margins[3] = {along, len - along, h - across};
  bool near = false;
  for (double m : margins) {
    if (m < -1e-9) return Expect::Outside;
    if (m <= 1e-9) near = true;
  }
  return near ? Expect::Ambiguous : Expect::Inside;
}

TEST(LineModes, RectangularLines_BasicLineSegmentRasterization_RectangleCentredOnTheSegment) {
  std::mt19937 rng(7031);
  std::uniform_real_distribution<double> coord(4, 60);
  int checked = 0;
  for (int round = 0; round < 120; ++round) {
    const float width = std::array<float, 4>{1.0f, 3.0f, 2.5f, 6.0f}[round % 4];
    for (uint32_t samples : {1u, 4u}) {
      RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, width);
      s.samples = samples;
      const DrawnLine d = draw(s, {coord(rng), coord(rng), 0.5, 1}, {coord(rng), coord(rng), 0.5, 1});
      ASSERT_EQ(d.setups.size(), 1u);
      int64_t e[4];
      snapped(d.setups[0], e);
      for (int py = 0; py < kSize; ++py)
        for (int px = 0; px < kSize; ++px) {
          const auto it = d.raster.fragment.find({px, py});
          for (uint32_t k = 0; k < samples; ++k) {
            int64_t sx, sy;
            rules::sampleLocation(px, py, samples, k, &sx, &sy);
            const Expect want = rectangleOracle(e[0] / 256.0, e[1] / 256.0, e[2] / 256.0, e[3] / 256.0, width / 2.0,
                                                sx / 256.0, sy / 256.0);
            if (want == Expect::Ambiguous) continue;
            const bool got = it != d.raster.fragment.end() && (it->second.quad.sampleCoverage[it->second.slot] >> k & 1);
            ASSERT_EQ(got, want == Expect::Inside) << "round " << round << " width " << width << " samples " << samples
                                                   << " pixel " << px << "," << py << " sample " << k;
            ++checked;
          }
        }
      pixels(d.raster);  // each pixel at most once
    }
  }
  EXPECT_GT(checked, 100000);
}

TEST(LineModes, RectangularLines_BasicLineSegmentRasterization_EdgesFollowThePolygonTieBreak) {
  // Along y = 3 (a pixel edge), width 1: the rectangle [2.5, 8.5] x [2.5, 3.5] has the centres
  // of rows 2 and 3 on its long edges and those of columns 2 and 8 on its ends. The top edge
  // (interior below) and the left end (interior to the right) are inclusive, the bottom edge
  // and the right end not ("Basic Polygon Rasterization"'s tie-break): row 2, columns 2..7.
  const RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, 1.0f);
  PixelSet expected;
  for (int x = 2; x <= 7; ++x) expected.insert({x, 2});
  EXPECT_EQ(pixels(draw(s, {2.5, 3.0, 0.5, 1}, {8.5, 3.0, 0.5, 1}).raster), expected);
  // Drawn the other way the ends swap roles but the tie-break does not: the same pixels.
  EXPECT_EQ(pixels(draw(s, {8.5, 3.0, 0.5, 1}, {2.5, 3.0, 0.5, 1}).raster), expected);
  // Two segments of a strip meeting at a pixel centre (12.5, 20.5) going on in one direction
  // share their end and start edges: the centre on it belongs to exactly one of them.
  test::Raster both;
  for (const auto& [a, b] : {std::pair<WindowVertex, WindowVertex>{{4.5, 20.5, 0.5, 1}, {12.5, 20.5, 0.5, 1}},
                             std::pair<WindowVertex, WindowVertex>{{12.5, 20.5, 0.5, 1}, {30.5, 20.5, 0.5, 1}}}) {
    const DrawnLine d = draw(s, a, b);
    for (const Quad& q : d.raster.quads) test::collect(q, both);
  }
  const PixelSet joined = pixels(both);  // fails on a pixel covered twice
  EXPECT_EQ(joined.count({12, 20}), 1u);
  EXPECT_EQ(joined.size(), 30u - 4u);  // columns 4 .. 29
}

TEST(LineModes, RectangularLines_EndsArePerpendicularNotAlongTheMinorAxis) {
  // A 45-degree line of width 3: the rectangle's cross-section along the minor axis (y) is
  // 3 * sqrt(2) = 4.24 pixels, the DEFAULT parallelogram's 3: a column in the middle holds 4
  // pixels of the one and 3 of the other.
  auto column = [](VkLineRasterizationModeEXT mode) {
    int n = 0;
    for (const auto& [p, c] : draw(lineState(mode, 3.0f), {10.3, 10.1, 0.5, 1}, {40.3, 40.1, 0.5, 1}).raster.count)
      n += p.first == 25;
    return n;
  };
  EXPECT_EQ(column(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT), 4);
  EXPECT_EQ(column(VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT), 3);
}

TEST(LineModes, RectangularLines_BasicLineSegmentRasterization_TIsTheCentreProjectedOntoTheSegment) {
  const RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, 4.0f);
  const DrawnLine d = draw(s, {6.2, 9.7, 0.25, 1}, {50.9, 31.3, 0.75, 1});
  ASSERT_FALSE(d.raster.fragment.empty());
  int64_t e[4];
  snapped(d.setups[0], e);
  const double ax = e[0] / 256.0, ay = e[1] / 256.0, dx = e[2] / 256.0 - ax, dy = e[3] / 256.0 - ay;
  for (const auto& [p, f] : d.raster.fragment) {
    const double t = ((p.first + 0.5 - ax) * dx + (p.second + 0.5 - ay) * dy) / (dx * dx + dy * dy);
    EXPECT_NEAR(f.quad.baryLinear[f.slot][1], t, 1e-6);
    EXPECT_NEAR(f.quad.z[f.slot], 0.25 + 0.5 * t, 1e-6);  // z linear in t
  }
}

// ---- BRESENHAM --------------------------------------------------------------------------------

// The fragments of a Bresenham line of width w from a to b (1/256 pixel): every pixel of a box
// around the moved segment the rule produces, with its run of w along the minor axis.
PixelSet bresenhamOracle(int64_t ax, int64_t ay, int64_t bx, int64_t by, int w) {
  const bool xMajor = std::llabs(bx - ax) >= std::llabs(by - ay);
  const int64_t shift = int64_t(w - 1) * 128;  // (w - 1)/2 pixel
  if (xMajor) ay -= shift, by -= shift;
  else ax -= shift, bx -= shift;
  PixelSet s;
  for (int y = int(std::min(ay, by) / 256) - 3; y <= int(std::max(ay, by) / 256) + 3; ++y)
    for (int x = int(std::min(ax, bx) / 256) - 3; x <= int(std::max(ax, bx) / 256) + 3; ++x)
      if (rules::diamondExitProduces(ax, ay, bx, by, x, y))
        for (int k = 0; k < w; ++k) s.insert(xMajor ? std::pair{x, y + k} : std::pair{x + k, y});
  return s;
}

// Endpoints on the grid, often on pixel centres or edges, so the perturbation decides.
double gridCoord(std::mt19937& rng) {
  const int v = std::uniform_int_distribution<int>(6 * 256, 58 * 256)(rng);
  switch (rng() % 3) {
    case 0: return (v / 256 * 256 + 128) / 256.0;
    case 1: return (v / 128 * 128) / 256.0;
    default: return v / 256.0;
  }
}

TEST(LineModes, BresenhamLines_BresenhamLineSegmentRasterization_TheDiamondExitFragments) {
  std::mt19937 rng(1406);
  int fragments = 0;
  for (int round = 0; round < 400; ++round) {
    const int w = round % 5 == 4 ? 4 : round % 5 == 3 ? 3 : 1;
    const RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, float(w));
    const DrawnLine d = draw(s, {gridCoord(rng), gridCoord(rng), 0.5, 1}, {gridCoord(rng), gridCoord(rng), 0.5, 1});
    const PixelSet got = pixels(d.raster);
    if (d.setups.empty()) {
      EXPECT_TRUE(got.empty());
      continue;
    }
    int64_t e[4];
    snapped(d.setups[0], e);
    PixelSet want;
    for (const auto& p : bresenhamOracle(e[0], e[1], e[2], e[3], w))
      if (p.first >= 0 && p.first < kSize && p.second >= 0 && p.second < kSize) want.insert(p);
    ASSERT_EQ(got, want) << "round " << round << " width " << w << " segment (" << e[0] << "," << e[1] << ")-(" << e[2]
                         << "," << e[3] << ")/256";
    fragments += int(got.size());
  }
  EXPECT_GT(fragments, 5000);
}

TEST(LineModes, BresenhamLines_WidthIsTheRoundedLineWidth) {
  // "rounding the line width to the nearest integer, clamping it to the implementation-dependent
  // lineWidthRange (with both values rounded to the nearest integer), then clamping it to be no
  // less than 1": [1, 255] here.
  EXPECT_EQ(rules::bresenhamLineWidth(1.0f), 1);
  EXPECT_EQ(rules::bresenhamLineWidth(2.49f), 2);
  EXPECT_EQ(rules::bresenhamLineWidth(2.5f), 3);
  EXPECT_EQ(rules::bresenhamLineWidth(0.2f), 1);
  EXPECT_EQ(rules::bresenhamLineWidth(1000.0f), 255);
  EXPECT_EQ(rules::bresenhamLineWidth(std::nanf("")), 1);
  // Width 3.4 draws runs of 3: from (10.5, 20.5) to (30.5, 26.5), x-major, moved up by 1.
  const DrawnLine d = draw(lineState(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, 3.4f), {10.5, 20.5, 0.5, 1}, {30.5, 26.5, 0.5, 1});
  EXPECT_EQ(pixels(d.raster), bresenhamOracle(10 * 256 + 128, 20 * 256 + 128, 30 * 256 + 128, 26 * 256 + 128, 3));
  EXPECT_EQ(d.raster.count.size(), 20u * 3u);  // half-open: columns 10 .. 29
  EXPECT_EQ(d.raster.count.count({10, 19}), 1u);  // the run of the first column: rows 19 .. 21
  EXPECT_EQ(d.raster.count.count({10, 21}), 1u);
  EXPECT_EQ(d.raster.count.count({10, 22}), 0u);
}

TEST(LineModes, BresenhamLines_RunsShareTheirFirstFragmentsInterpolationAndCoverEverySample) {
  // "generate the same attribute values for all fragments in the row or column ... as if the
  // adjusted line was used for interpolation"; "Bresenham lines cover the same pixels regardless
  // of the number of rasterization samples, and cover all samples in those pixels". A y-major
  // line of width 3: runs along x, from the segment moved left by 1.
  for (uint32_t samples : {1u, 4u}) {
    RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, 3.0f);
    s.samples = samples;
    const DrawnLine d = draw(s, {20.3, 5.2, 0.2, 1}, {28.1, 50.7, 0.8, 1});
    ASSERT_FALSE(d.raster.fragment.empty());
    int64_t e[4];
    snapped(d.setups[0], e);
    const double ax = e[0] / 256.0 - 1, ay = e[1] / 256.0, dx = e[2] / 256.0 - e[0] / 256.0, dy = e[3] / 256.0 - ay;
    std::set<int> rows;
    for (const auto& [p, f] : d.raster.fragment) {
      if (rows.count(p.second)) continue;
      rows.insert(p.second);
      // The run's first fragment is its lowest x; t at its centre along the moved segment.
      int first = p.first;
      while (d.raster.fragment.count({first - 1, p.second})) --first;
      const double t = ((first + 0.5 - ax) * dx + (p.second + 0.5 - ay) * dy) / (dx * dx + dy * dy);
      for (int k = 0; k < 3; ++k) {
        const auto it = d.raster.fragment.find({first + k, p.second});
        ASSERT_NE(it, d.raster.fragment.end()) << "run at row " << p.second;
        const test::Fragment& g = it->second;
        EXPECT_NEAR(g.quad.baryLinear[g.slot][1], t, 1e-6);
        EXPECT_NEAR(g.quad.z[g.slot], 0.2 + 0.6 * t, 1e-6);
        EXPECT_EQ(g.quad.sampleCoverage[g.slot], (1u << samples) - 1);
        for (uint32_t k2 = 0; k2 < samples; ++k2) EXPECT_EQ(g.quad.sampleZ[g.slot][k2], g.quad.z[g.slot]);
      }
      EXPECT_EQ(d.raster.fragment.count({first + 3, p.second}), 0u);
    }
    EXPECT_EQ(rows.size(), d.raster.fragment.size() / 3);
  }
}

// ---- RECTANGULAR_SMOOTH -----------------------------------------------------------------------

// The area of pixel (px, py)'s square inside the rectangle of a-b (pixels) of half width h,
// restricted to distances along the segment in [from, to], integrated over x: for each x the
// points inside are an interval of y (four linear constraints and the square's rows), whose
// length is piecewise linear in x with kinks only where two of the boundary lines cross (and
// jumps where a boundary is vertical); the midpoint rule is exact between those x.
double areaOracle(double ax, double ay, double bx, double by, double h, int px, int py, double from = -1e30, double to = 1e30) {
  const double dx = bx - ax, dy = by - ay, len = std::hypot(dx, dy);
  from = std::max(from, 0.0), to = std::min(to, len);
  // Constraint k0 + k1 x + c1 y in [low, high]: along the segment, then across it.
  struct Constraint {
    double k0, k1, c1, low, high;
  };
  const Constraint constraints[2] = {{(-dx * ax - dy * ay) / len, dx / len, dy / len, from, to},
                                     {(dy * ax - dx * ay) / len, -dy / len, dx / len, -h, h}};
  auto intervalLength = [&](double x) {
    double lo = py, hi = py + 1;
    for (const Constraint& c : constraints) {
      const double c0 = c.k0 + c.k1 * x;
      if (c.c1 == 0) {
        if (c0 < c.low || c0 > c.high) return 0.0;
        continue;
      }
      double y0 = (c.low - c0) / c.c1, y1 = (c.high - c0) / c.c1;
      if (y0 > y1) std::swap(y0, y1);
      lo = std::max(lo, y0), hi = std::min(hi, y1);
    }
    return std::max(hi - lo, 0.0);
  };
  // Boundary lines y = m x + q (the square's rows too) and vertical boundaries x = v.
  std::vector<std::pair<double, double>> lines = {{0.0, double(py)}, {0.0, double(py + 1)}};
  std::vector<double> breaks = {double(px), double(px + 1)};
  for (const Constraint& c : constraints)
    for (const double bound : {c.low, c.high}) {
      if (c.c1 != 0) lines.push_back({-c.k1 / c.c1, (bound - c.k0) / c.c1});
      else if (c.k1 != 0) breaks.push_back((bound - c.k0) / c.k1);
    }
  for (size_t i = 0; i < lines.size(); ++i)
    for (size_t j = i + 1; j < lines.size(); ++j)
      if (lines[i].first != lines[j].first) breaks.push_back((lines[j].second - lines[i].second) / (lines[i].first - lines[j].first));
  std::sort(breaks.begin(), breaks.end());
  double area = 0;
  for (size_t i = 0; i + 1 < breaks.size(); ++i) {
    const double x0 = std::max(breaks[i], double(px)), x1 = std::min(breaks[i + 1], double(px + 1));
    if (x1 > x0) area += (x1 - x0) * intervalLength((x0 + x1) / 2);
  }
  return area;
}

TEST(LineModes, SmoothLines_CoverageIsTheAreaOfThePixelSquareInsideTheRectangle) {
  // "Smooth Lines": "lines are considered to be rectangles using the same geometry as for
  // VK_LINE_RASTERIZATION_MODE_RECTANGULAR lines ... the fragment computes a coverage value that
  // approximates the area of the intersection of the rectangle with the pixel square". Every
  // pixel the rectangle overlaps is covered (all its samples), with that area; the areas add up
  // to the rectangle's.
  std::mt19937 rng(9051);
  std::uniform_real_distribution<double> coord(4, 60);
  int checked = 0;
  for (int round = 0; round < 60; ++round) {
    const float width = std::array<float, 4>{1.0f, 3.0f, 2.5f, 0.5f}[round % 4];
    RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT, width);
    s.samples = round % 3 == 2 ? 4 : 1;
    const DrawnLine d = draw(s, {coord(rng), coord(rng), 0.5, 1}, {coord(rng), coord(rng), 0.5, 1});
    ASSERT_EQ(d.setups.size(), 1u);
    int64_t e[4];
    snapped(d.setups[0], e);
    const double ax = e[0] / 256.0, ay = e[1] / 256.0, bx = e[2] / 256.0, by = e[3] / 256.0;
    const double h = rules::clampLineWidth(width) / 2.0;
    double total = 0;
    for (int py = 0; py < kSize; ++py)
      for (int px = 0; px < kSize; ++px) {
        // Pixels beyond h + 1 of the segment's box have no area (and must not be covered).
        const bool far = px + 1 < std::min(ax, bx) - h - 1 || px > std::max(ax, bx) + h + 1 ||
                         py + 1 < std::min(ay, by) - h - 1 || py > std::max(ay, by) + h + 1;
        const double want = far ? 0.0 : areaOracle(ax, ay, bx, by, h, px, py);
        const auto it = d.raster.fragment.find({px, py});
        if (want < 1e-9) {
          if (want == 0) {
            EXPECT_EQ(it, d.raster.fragment.end()) << "pixel " << px << "," << py << " outside the rectangle";
          }
          continue;
        }
        ASSERT_NE(it, d.raster.fragment.end()) << "round " << round << " pixel " << px << "," << py << " area " << want;
        const test::Fragment& f = it->second;
        EXPECT_NEAR(f.quad.lineCoverage[f.slot], want, 1e-6) << "round " << round << " pixel " << px << "," << py;
        EXPECT_EQ(f.quad.sampleCoverage[f.slot], (1u << s.samples) - 1);
        total += f.quad.lineCoverage[f.slot];
        ++checked;
      }
    pixels(d.raster);
    // The areas add up to the rectangle's (clamped width: 0.5 draws as 1).
    EXPECT_NEAR(total, std::hypot(bx - ax, by - ay) * 2 * h, 1e-4) << "round " << round;
  }
  EXPECT_GT(checked, 2000);
}

TEST(LineModes, SmoothLines_StippledCoverageIsTheAreaOfTheKeptUnitRectangles) {
  // "Line Stipple" for RECTANGULAR_SMOOTH lines: the same unit-length rectangles as RECTANGULAR
  // ones; the coverage value counts only the parts of the pixel's square in kept ones.
  std::mt19937 rng(3307);
  std::uniform_real_distribution<double> coord(4, 60);
  for (int round = 0; round < 30; ++round) {
    const uint32_t factor = 1 + round % 3;
    const uint16_t pattern = uint16_t(rng());
    RasterState s = lineState(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT, round % 2 ? 3.0f : 1.0f);
    s.lineStippleEnable = true;
    s.lineStippleFactor = factor;
    s.lineStipplePattern = pattern;
    const double counter = double(rng() % 20) + 0.25;
    const DrawnLine d = draw(s, {coord(rng), coord(rng), 0.5, 1}, {coord(rng), coord(rng), 0.5, 1}, counter);
    ASSERT_EQ(d.setups.size(), 1u);
    int64_t e[4];
    snapped(d.setups[0], e);
    const double ax = e[0] / 256.0, ay = e[1] / 256.0, bx = e[2] / 256.0, by = e[3] / 256.0;
    const double len = std::hypot(bx - ax, by - ay), h = s.lineWidth / 2.0;
    // Kept rectangle k spans the distances [k - counter, k + 1 - counter).
    auto keptArea = [&](int px, int py) {
      double a = 0;
      for (int64_t k = int64_t(std::floor(counter)); k - counter < len; ++k)
        if ((pattern >> ((k / factor) % 16)) & 1) a += areaOracle(ax, ay, bx, by, h, px, py, k - counter, k + 1 - counter);
      return a;
    };
    for (int py = 0; py < kSize; ++py)
      for (int px = 0; px < kSize; ++px) {
        const bool far = px + 1 < std::min(ax, bx) - h - 1 || px > std::max(ax, bx) + h + 1 ||
                         py + 1 < std::min(ay, by) - h - 1 || py > std::max(ay, by) + h + 1;
        if (far) {
          EXPECT_EQ(d.raster.fragment.count({px, py}), 0u);
          continue;
        }
        if (areaOracle(ax, ay, bx, by, h, px, py) == 0) continue;
        const double want = keptArea(px, py);
        const auto it = d.raster.fragment.find({px, py});
        if (want < 1e-9) {
          if (want == 0) {
            EXPECT_EQ(it, d.raster.fragment.end()) << "round " << round << " pixel " << px << "," << py;
          }
          continue;
        }
        ASSERT_NE(it, d.raster.fragment.end()) << "round " << round << " pixel " << px << "," << py;
        EXPECT_NEAR(it->second.quad.lineCoverage[it->second.slot], want, 2e-6) << "round " << round;
      }
  }
}

// ---- "Line Stipple" ---------------------------------------------------------------------------

TEST(LineStipple, LineStipple_BitFloorSOverRModulo16OfThePattern) {
  // "b = floor(s / r) mod 16 ... a fragment is produced if the b'th bit of p is 1": bits
  // numbered from the least significant.
  for (int64_t s = 0; s < 64; ++s) {
    EXPECT_EQ(rules::stippleKeeps(s, 1, 0x00FF), (s % 16) < 8) << s;
    EXPECT_EQ(rules::stippleKeeps(s, 3, 0x0001), (s / 3) % 16 == 0) << s;
    EXPECT_EQ(rules::stippleKeeps(s, 256, 0x0002), s >= 256 && s < 512 ? true : false) << s;
  }
  EXPECT_FALSE(rules::stippleKeeps(-1, 1, 0x7FFF));  // floor(-1 / 1) mod 16 = 15
  EXPECT_TRUE(rules::stippleKeeps(-1, 2, 0x8000));   // floor(-1 / 2) = -1, bit 15
  // Factors outside [1, 256] are invalid usage: clamped, never a division by zero.
  EXPECT_EQ(rules::stippleKeeps(5, 0, 0x0020), rules::stippleKeeps(5, 1, 0x0020));
  EXPECT_EQ(rules::stippleKeeps(600, 100000, 0x0004), rules::stippleKeeps(600, 256, 0x0004));
}

RasterState stippled(VkLineRasterizationModeEXT mode, float width, uint32_t factor, uint16_t pattern) {
  RasterState s = lineState(mode, width);
  s.lineStippleEnable = true;
  s.lineStippleFactor = factor;
  s.lineStipplePattern = pattern;
  return s;
}

TEST(LineStipple, LineStipple_RectangularLinesCountUnitRectanglesAlongTheLine) {
  // "the rectangular region is subdivided into adjacent unit-length rectangles, and s is
  // incremented once for each rectangle": a sample at distance d from p_a has s = floor(d).
  std::mt19937 rng(515);
  std::uniform_real_distribution<double> coord(3, 61);
  int kept = 0, dropped = 0;
  for (int round = 0; round < 60; ++round) {
    const uint32_t factor = round % 2 ? 3 : 1;
    const uint16_t pattern = uint16_t(rng());
    const float width = round % 3 == 0 ? 3.0f : 1.0f;
    const RasterState s = stippled(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, width, factor, pattern);
    RasterState plain = s;
    plain.lineStippleEnable = false;
    const WindowVertex a{coord(rng), coord(rng), 0.5, 1}, b{coord(rng), coord(rng), 0.5, 1};
    const DrawnLine d = draw(s, a, b), whole = draw(plain, a, b);
    int64_t e[4];
    snapped(whole.setups[0], e);
    const double ax = e[0] / 256.0, ay = e[1] / 256.0, dx = e[2] / 256.0 - ax, dy = e[3] / 256.0 - ay;
    const double len = std::hypot(dx, dy);
    for (const auto& [p, n] : whole.raster.count) {
      const double along = ((p.first + 0.5 - ax) * dx + (p.second + 0.5 - ay) * dy) / len;
      if (std::fabs(along - std::round(along)) < 1e-9) continue;  // on a rectangle boundary
      const int64_t sCounter = int64_t(std::floor(along));
      const bool want = (pattern >> ((sCounter / factor) % 16)) & 1;
      EXPECT_EQ(d.raster.count.count(p) == 1, want) << "round " << round << " pixel " << p.first << "," << p.second;
      (want ? kept : dropped)++;
    }
    for (const auto& [p, n] : d.raster.count) EXPECT_EQ(whole.raster.count.count(p), 1u);  // stipple only removes
  }
  EXPECT_GT(kept, 500);
  EXPECT_GT(dropped, 500);
}

TEST(LineStipple, LineStipple_BresenhamLinesCountFragmentsFromTheStartingPoint) {
  // "s is incremented after production of each fragment of a line segment (fragments are
  // produced in order, beginning at the starting point and working towards the ending point)".
  // Right to left and bottom to top, so the count runs against the walk's direction; a wide
  // line's run shares its first fragment's s.
  for (const auto& [a, b] : {std::pair<WindowVertex, WindowVertex>{{50.5, 10.5, 0.5, 1}, {8.5, 21.5, 0.5, 1}},
                             std::pair<WindowVertex, WindowVertex>{{30.7, 60.2, 0.5, 1}, {20.1, 4.9, 0.5, 1}}}) {
    for (int w : {1, 3}) {
      const uint16_t pattern = 0x3A5C;
      const uint32_t factor = 3;
      const RasterState s = stippled(VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, float(w), factor, pattern);
      RasterState plain = s;
      plain.lineStippleEnable = false;
      const DrawnLine d = draw(s, a, b), whole = draw(plain, a, b);
      const bool xMajor = std::fabs(b.x - a.x) >= std::fabs(b.y - a.y);
      const int dir = (xMajor ? b.x - a.x : b.y - a.y) > 0 ? 1 : -1;
      // The first fragment's major coordinate: the extreme one against the direction.
      int first = dir > 0 ? INT32_MAX : INT32_MIN;
      for (const auto& [p, n] : whole.raster.count) {
        const int m = xMajor ? p.first : p.second;
        first = dir > 0 ? std::min(first, m) : std::max(first, m);
      }
      int kept = 0;
      for (const auto& [p, n] : whole.raster.count) {
        const int sCounter = dir * ((xMajor ? p.first : p.second) - first);
        const bool want = (pattern >> ((sCounter / int(factor)) % 16)) & 1;
        EXPECT_EQ(d.raster.count.count(p) == 1, want) << "width " << w << " pixel " << p.first << "," << p.second;
        kept += want;
      }
      EXPECT_GT(kept, 10);
      EXPECT_LT(kept, int(whole.raster.count.size()));
    }
  }
}

TEST(LineStipple, LineStipple_StripsCarryTheCounterOnIndependentSegmentsReset) {
  // "s is reset to 0 at the start of each strip (for line strips), and before every line
  // segment in a group of independent segments"; "If the last rectangle in a line segment is
  // shorter than unit-length, then the remainder may carry over to the next line segment in the
  // line strip using the same value of s (this is the preferred behavior)": the second segment's
  // counter starts at the first's length (rectangular) or fragment count (Bresenham).
  const Viewport vp = test::fullScreenState(kSize, kSize).viewport;
  const WindowVertex v[3] = {{5.25, 7.5, 0.5, 1}, {25.5, 12.75, 0.5, 1}, {40.0, 50.25, 0.5, 1}};
  float pos[3][4];
  for (int i = 0; i < 3; ++i) test::clipFromWindow(vp, v[i], pos[i]);
  for (VkLineRasterizationModeEXT mode : {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}) {
    const RasterState s = stippled(mode, 1.0f, 1, 0x00FF);
    LineStippleCounter strip;
    EXPECT_EQ(strip.next(true, pos[0], pos[1], s), 0.0);
    const double second = strip.next(false, pos[1], pos[2], s);
    if (mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT) {
      EXPECT_DOUBLE_EQ(second, std::hypot(25.5 - 5.25, 12.75 - 7.5));
    } else {
      // The first segment's fragments, one per column 5 .. 24 (x-major, centre to centre would
      // be half-open; here the rule decides at the ends).
      RasterState plain = s;
      plain.lineStippleEnable = false;
      const DrawnLine first = draw(plain, v[0], v[1]);
      EXPECT_EQ(second, double(first.raster.count.size()));
      EXPECT_EQ(second, 20.0);
    }
    LineStippleCounter list;
    EXPECT_EQ(list.next(true, pos[0], pos[1], s), 0.0);
    EXPECT_EQ(list.next(true, pos[1], pos[2], s), 0.0);
    // The second segment drawn with the carried counter: its first kept rectangle is shorter.
    if (mode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT) {
      const DrawnLine d = draw(s, v[1], v[2], second);
      for (const auto& [p, n] : d.raster.count) {
        const double dx = 40.0 - 25.5, dy = 50.25 - 12.75;
        const double along = ((p.first + 0.5 - 25.5) * dx + (p.second + 0.5 - 12.75) * dy) / std::hypot(dx, dy);
        EXPECT_LT(int64_t(std::floor(second + along)) % 16, 8) << p.first << "," << p.second;
      }
      EXPECT_FALSE(d.raster.count.empty());
    }
  }
}

TEST(LineStipple, LineStipple_AClippedStartKeepsTheUnclippedLinesPattern) {
  // "If the line segment has been clipped, then the value of s at the beginning of the line
  // segment is implementation-dependent": Tessera carries the counter from the unclipped start,
  // so the fragments a near-plane clip leaves are those of the whole line.
  for (VkLineRasterizationModeEXT mode : {VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT}) {
    for (float width : {1.0f, 3.0f}) {
      const RasterState s = stippled(mode, width, 2, 0x0F33);
      // The same framebuffer positions; the second line's start lies before the near plane
      // (z_d -0.5 to 0.5), which clips it in its middle.
      const WindowVertex a{4.3, 6.1, 0.9, 1}, b{58.2, 40.7, 0.5, 1}, clippedA{4.3, 6.1, -0.5, 1};
      const DrawnLine whole = draw(s, a, b), clipped = draw(s, clippedA, b);
      ASSERT_EQ(clipped.setups.size(), 1u);
      EXPECT_GT(clipped.setups[0].x[0], 20.0f) << "the start is clipped";
      int compared = 0;
      for (const auto& [p, n] : clipped.raster.count) {
        if (p.first < clipped.setups[0].x[0] + 3) continue;  // near the clipped start: snapping differs
        EXPECT_EQ(whole.raster.count.count(p), 1u) << "mode " << mode << " pixel " << p.first << "," << p.second;
        ++compared;
      }
      for (const auto& [p, n] : whole.raster.count) {
        if (p.first < clipped.setups[0].x[0] + 3) continue;
        EXPECT_EQ(clipped.raster.count.count(p), 1u) << "mode " << mode << " pixel " << p.first << "," << p.second;
      }
      EXPECT_GT(compared, 10);
    }
  }
}

TEST(LineStipple, LineStipple_TilesDrawWhatTheWholeLineDraws) {
  // The binned path rasterizes each line tile by tile: the counter must come from each
  // fragment's place on the line. Random lines in every mode, stippled, over 16x16 tiles.
  std::mt19937 rng(88);
  std::uniform_real_distribution<double> coord(-10, 74);
  const VkLineRasterizationModeEXT modes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  int fragments = 0;
  for (int round = 0; round < 120; ++round) {
    RasterState s = stippled(modes[round % 4], round % 2 ? 1.0f : 3.5f, 1 + rng() % 4, uint16_t(rng()));
    s.samples = round % 4 == 3 ? 4 : 1;
    const WindowVertex a{coord(rng), coord(rng), 0.5, 1}, b{coord(rng), coord(rng), 0.5, 1};
    const double counter = double(rng() % 40) + (modes[round % 4] == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT ? 0.0 : 0.37);
    const DrawnLine whole = draw(s, a, b, counter);
    test::Raster tiled;
    for (int ty = 0; ty < kSize; ty += 16)
      for (int tx = 0; tx < kSize; tx += 16) {
        const Rect tile{tx, ty, tx + 16, ty + 16};
        for (const SetupLine& sl : whole.setups) rasterizeLine(sl, tile, [&](const Quad& q) { test::collect(q, tiled); });
      }
    ASSERT_EQ(pixels(tiled), pixels(whole.raster)) << "round " << round;
    for (const auto& [p, f] : whole.raster.fragment) {
      const test::Fragment& g = tiled.fragment.at(p);
      EXPECT_EQ(g.quad.sampleCoverage[g.slot], f.quad.sampleCoverage[f.slot]);
      EXPECT_EQ(g.quad.z[g.slot], f.quad.z[f.slot]);
      if (s.lineMode == VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT) {
        EXPECT_EQ(g.quad.lineCoverage[g.slot], f.quad.lineCoverage[f.slot]);
      }
    }
    fragments += int(whole.raster.count.size());
  }
  EXPECT_GT(fragments, 2000);
}

TEST(LineStipple, LineStipple_PolygonEdgesAreStippledAsOneClosedStrip) {
  // Polygon mode LINE draws the polygon's edges as lines, stipple included; the counter starts at
  // the first vertex and runs on around the edges.
  RasterState s = stippled(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, 1.0f, 1, 0x0F0F);
  const WindowVertex tri[3] = {{10.25, 10.5, 0.5, 1}, {50.5, 14.0, 0.5, 1}, {20.0, 45.75, 0.5, 1}};
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(test::clipFromWindow(s.viewport, tri), s, edges), 3u);
  double counter = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(edges[i].stippleOrigin, counter, 1e-9) << "edge " << i;
    const WindowVertex& p = tri[i];
    const WindowVertex& q = tri[(i + 1) % 3];
    counter += std::hypot(q.x - p.x, q.y - p.y);
  }
  // Bresenham: fragments counted.
  s.lineMode = VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
  edges.clear();
  ASSERT_EQ(setupPolygonEdges(test::clipFromWindow(s.viewport, tri), s, edges), 3u);
  counter = 0;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(edges[i].stippleOrigin, counter) << "edge " << i;
    RasterState plain = s;
    plain.lineStippleEnable = false;
    counter += double(draw(plain, tri[i], tri[(i + 1) % 3]).raster.count.size());
  }
}

TEST(LineModes, BadInput_InvalidLineStateDrawsSomethingDefinedAndNeverCrashes) {
  // Invalid usage must not crash: a mode the extension does not name draws as DEFAULT; stipple
  // factors outside [1, 256] are clamped; NaN widths take the narrowest; non-finite or enormous
  // positions give nothing or a clipped line, with any counter.
  // p_a lies past its pixel's centre, inside its diamond: a Bresenham line would start in
  // column 5, the parallelogram (and a rectangle) in column 6.
  const WindowVertex a{5.75, 7.5, 0.5, 1}, b{50.2, 38.9, 0.5, 1};
  for (const float width : {3.0f, std::nanf("")}) {
    // The parallelogram of "Basic Line Segment Rasterization" (raster_test_support.h's oracle),
    // width 3, or 1 for NaN.
    const DrawnLine d = draw(lineState(VkLineRasterizationModeEXT(77), width), a, b);
    ASSERT_EQ(d.setups.size(), 1u);
    int64_t e[4];
    snapped(d.setups[0], e);
    PixelSet parallelogram;
    for (int y = 0; y < kSize; ++y)
      for (int x = 0; x < kSize; ++x)
        if (test::oracleLineCovers(e[0], e[1], e[2], e[3], x, y, width == 3.0f ? 384 : 128)) parallelogram.insert({x, y});
    EXPECT_EQ(pixels(d.raster), parallelogram) << "width " << width;
  }
  RasterState s = stippled(VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT, 1.0f, 0, 0x00FF), clamped = s;
  clamped.lineStippleFactor = 1;
  EXPECT_EQ(pixels(draw(s, a, b).raster), pixels(draw(clamped, a, b).raster));
  s.lineStippleFactor = 100000;
  clamped.lineStippleFactor = 256;
  const DrawnLine longLine = draw(s, a, b, 250);  // the counter crosses 256 along the line
  EXPECT_EQ(pixels(longLine.raster), pixels(draw(clamped, a, b, 250).raster));
  EXPECT_FALSE(longLine.raster.count.empty());
  const VkLineRasterizationModeEXT modes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  const float inf = INFINITY, nan = std::nanf("");
  const float positions[][2][4] = {{{nan, 0, 0, 1}, {0.5f, 0.5f, 0, 1}},
                                   {{0, 0, 0, inf}, {0.5f, 0.5f, 0, 1}},
                                   {{-3e37f, 1e30f, 0.5f, 1}, {3e37f, -2e36f, 0.5f, 1}},
                                   {{-1e6f, 0.3f, 0.5f, 1}, {1e6f, 0.2f, 0.5f, 1}},
                                   {{0.1f, 0.1f, 0.5f, -1e-30f}, {0.2f, 0.4f, 0.5f, 1}},
                                   {{0.25f, 0.25f, 0.5f, 1}, {0.25f, 0.25f, 0.5f, 1}}};
  for (const VkLineRasterizationModeEXT mode : modes)
    for (const uint32_t factor : {0u, 1u, 100000u})
      for (const auto& p : positions) {
        RasterState t = stippled(mode, 255.0f, factor, 0xA5A5);
        LineStippleCounter strip;
        ClipLine line;
        std::memcpy(line.position, p, sizeof(line.position));
        for (int k = 0; k < 2; ++k) {
          const double counter = strip.next(k == 0, p[0], p[1], t);
          EXPECT_FALSE(std::isnan(counter));
          std::vector<SetupLine> setups;
          setupLine(line, t, k == 0 ? 1e300 : counter, setups);
          for (const SetupLine& sl : setups) rasterizeLine(sl, t.scissor, [](const Quad&) {});
        }
      }
}

}  // namespace
}  // namespace tessera::raster
