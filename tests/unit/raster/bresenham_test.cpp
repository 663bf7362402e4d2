// "Bresenham Line Segment Rasterization": the diamond-exit rule (rules::diamondExitProduces,
// raster/diamond_exit.cpp) against an oracle written here from the spec's words with another
// method: the perturbed segment p' = p - (ε, ε²) (ε = 2^-30 pixel, far below the 1/256 grid's
// smallest gap) is clipped against the four open half-planes of each diamond
// R_f = {|x - x_f| + |y - y_f| < 1/2} in double precision; f is produced when some part of the
// segment is left and p_b' is not inside R_f. Then the properties the spec lists for the rule
// on random segments: one fragment per column of an x-major line (per row of a y-major one),
// half-open segments, and connected segments of one direction neither duplicating nor losing
// fragments at their shared endpoint.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>

#include "rules.h"

namespace tessera::raster {
namespace {

constexpr double kEps = 1.0 / (1ull << 30);

// Whether the segment from a to b (pixels, perturbed) meets the open diamond of pixel (px, py).
bool oracleMeetsDiamond(double ax, double ay, double bx, double by, int px, int py) {
  const double cx = px + 0.5, cy = py + 0.5;
  // |x - cx| + |y - cy| < 1/2 is four half-planes s_x (x - cx) + s_y (y - cy) < 1/2.
  double lo = -INFINITY, hi = INFINITY;
  for (int sx : {-1, 1})
    for (int sy : {-1, 1}) {
      const double alpha = sx * (ax - cx) + sy * (ay - cy), beta = sx * (bx - ax) + sy * (by - ay);
      // alpha + beta t < 1/2
      if (beta > 0) hi = std::min(hi, (0.5 - alpha) / beta);
      else if (beta < 0) lo = std::max(lo, (0.5 - alpha) / beta);
      else if (!(alpha < 0.5)) return false;
    }
  return lo < hi && lo < 1 && hi > 0;
}

bool oracleProduces(int64_t ax, int64_t ay, int64_t bx, int64_t by, int px, int py) {
  const double pax = ax / 256.0 - kEps, pay = ay / 256.0 - kEps * kEps;
  const double pbx = bx / 256.0 - kEps, pby = by / 256.0 - kEps * kEps;
  const bool bInside = std::fabs(pbx - (px + 0.5)) + std::fabs(pby - (py + 0.5)) < 0.5;
  return oracleMeetsDiamond(pax, pay, pbx, pby, px, py) && !bInside;
}

using PixelSet = std::set<std::pair<int, int>>;

PixelSet produced(int64_t ax, int64_t ay, int64_t bx, int64_t by) {
  PixelSet s;
  const int x0 = int(std::min(ax, bx) / 256) - 2, x1 = int(std::max(ax, bx) / 256) + 2;
  const int y0 = int(std::min(ay, by) / 256) - 2, y1 = int(std::max(ay, by) / 256) + 2;
  for (int y = y0; y <= y1; ++y)
    for (int x = x0; x <= x1; ++x)
      if (rules::diamondExitProduces(ax, ay, bx, by, x, y)) s.insert({x, y});
  return s;
}

TEST(BresenhamLines, DiamondExitRule_MatchesTheOracleOnRandomSegments) {
  std::mt19937 rng(2604);
  // Endpoints on the 1/256 grid, many exactly on pixel centres, edges and diamond corners so
  // that the perturbation decides.
  std::uniform_int_distribution<int> coord(4 * 256, 60 * 256), snap(0, 3);
  auto pick = [&] {
    int v = coord(rng);
    switch (snap(rng)) {
      case 0: return int64_t(v / 256 * 256 + 128);  // a pixel centre
      case 1: return int64_t(v / 128 * 128);        // a centre or a pixel edge (diamond corners)
      default: return int64_t(v);
    }
  };
  int fragments = 0;
  for (int round = 0; round < 400; ++round) {
    const int64_t ax = pick(), ay = pick(), bx = pick(), by = pick();
    if (ax == bx && ay == by) continue;
    for (int y = int(std::min(ay, by) / 256) - 2; y <= int(std::max(ay, by) / 256) + 2; ++y)
      for (int x = int(std::min(ax, bx) / 256) - 2; x <= int(std::max(ax, bx) / 256) + 2; ++x) {
        const bool want = oracleProduces(ax, ay, bx, by, x, y);
        ASSERT_EQ(rules::diamondExitProduces(ax, ay, bx, by, x, y), want)
            << "segment (" << ax << "," << ay << ")-(" << bx << "," << by << ") /256, pixel " << x << "," << y;
        fragments += want;
      }
  }
  EXPECT_GT(fragments, 4000);
}

TEST(BresenhamLines, DiamondExitRule_CentreToCentreIsHalfOpenBresenham) {
  // "When p_a and p_b lie on fragment centers, this characterization of fragments reduces to
  // Bresenham's algorithm with one modification: ... the final fragment (corresponding to p_b)
  // is not drawn." From (2.5, 3.5) to (10.5, 6.5): columns 2..9, one fragment each.
  const PixelSet s = produced(2 * 256 + 128, 3 * 256 + 128, 10 * 256 + 128, 6 * 256 + 128);
  EXPECT_EQ(s.size(), 8u);
  EXPECT_EQ(s.count({2, 3}), 1u);
  EXPECT_EQ(s.count({10, 6}), 0u);
  for (const auto& [x, y] : s) {
    const double exact = 3.5 + (x + 0.5 - 2.5) * 3.0 / 8.0;  // the line at the column's centre
    EXPECT_LE(std::fabs(y + 0.5 - exact), 0.5) << x;
  }
}

TEST(BresenhamLines, DiamondExitRule_SegmentsOnPixelEdgesAreDecidedByThePerturbation) {
  // A horizontal segment along y = 3, the edge between rows 2 and 3, passes through the
  // diamonds' corners; p' = p - (ε, ε²) lies above the edge, inside row 2's diamonds (the ε²
  // term decides). A vertical one along x = 5 moves left by ε: column 4.
  const PixelSet horizontal = produced(2 * 256 + 128, 3 * 256, 8 * 256 + 128, 3 * 256);
  EXPECT_EQ(horizontal, (PixelSet{{2, 2}, {3, 2}, {4, 2}, {5, 2}, {6, 2}, {7, 2}}));
  const PixelSet vertical = produced(5 * 256, 1 * 256 + 128, 5 * 256, 4 * 256 + 128);
  EXPECT_EQ(vertical, (PixelSet{{4, 1}, {4, 2}, {4, 3}}));
}

TEST(BresenhamLines, DiamondExitRule_OneFragmentPerMajorAxisStepAndNoDuplicatesAtJoints) {
  // "For an x-major line, two fragments that lie in the same framebuffer-coordinate column must
  // not be produced"; "If two line segments share a common endpoint, and both segments are
  // either x-major (both left-to-right or both right-to-left) or y-major ..., then rasterizing
  // both segments must not produce duplicate fragments. Fragments also must not be omitted so
  // as to interrupt continuity."
  std::mt19937 rng(1605);
  std::uniform_int_distribution<int> step(3 * 256, 12 * 256), minor(-256 * 3, 256 * 3), start(8 * 256, 12 * 256);
  for (int round = 0; round < 300; ++round) {
    const bool xMajor = round % 2 == 0;
    const int dir = round % 4 < 2 ? 1 : -1;
    int64_t p[3][2];
    p[0][0] = start(rng) + (dir < 0 ? 40 * 256 : 0);
    p[0][1] = start(rng) + (dir < 0 ? 40 * 256 : 0);
    for (int k = 1; k < 3; ++k) {
      const int64_t major = step(rng) * dir, m = std::clamp<int64_t>(minor(rng), -std::llabs(major), std::llabs(major));
      p[k][0] = p[k - 1][0] + (xMajor ? major : m);
      p[k][1] = p[k - 1][1] + (xMajor ? m : major);
    }
    const PixelSet first = produced(p[0][0], p[0][1], p[1][0], p[1][1]);
    const PixelSet second = produced(p[1][0], p[1][1], p[2][0], p[2][1]);
    for (const PixelSet* s : {&first, &second}) {
      std::set<int> majors;
      for (const auto& [x, y] : *s) EXPECT_TRUE(majors.insert(xMajor ? x : y).second) << "two fragments in one " << (xMajor ? "column" : "row");
    }
    for (const auto& f : first) EXPECT_EQ(second.count(f), 0u) << "duplicate at the joint, round " << round;
    // Continuity: the union covers every column (row) between the first and last fragments.
    std::set<int> majors;
    for (const PixelSet* s : {&first, &second})
      for (const auto& [x, y] : *s) majors.insert(xMajor ? x : y);
    ASSERT_FALSE(majors.empty());
    EXPECT_EQ(int(majors.size()), *majors.rbegin() - *majors.begin() + 1) << "a gap, round " << round;
  }
}

}  // namespace
}  // namespace tessera::raster
