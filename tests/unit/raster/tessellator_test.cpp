// The fixed-function tessellator against the rules of the spec's "Tessellation" chapter
// ("Tessellator Patch Discard", "Tessellator Spacing", "Triangle Tessellation", "Quad
// Tessellation", "Isoline Tessellation") and the appendix "Tessellation Invariance": level
// clamping and rounding, vertex and primitive counts per level, segment lengths of fractional
// spacing, coverage of the domain without overlap, winding, and identical vertices on edges
// that two patches share. Expected values are computed here from the chapter's rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include "tessellator.h"

namespace tessera::raster {
namespace {

TessMode modeOf(TessDomain d, TessSpacing s, bool cw = false, bool points = false, bool lowerLeft = false) {
  TessMode m;
  m.domain = d;
  m.spacing = s;
  m.clockwise = cw;
  m.pointMode = points;
  m.lowerLeftOrigin = lowerLeft;
  return m;
}

Tessellation run(const TessMode& m, std::initializer_list<float> outer, std::initializer_list<float> inner) {
  float o[4] = {1, 1, 1, 1}, in[2] = {1, 1};
  std::copy(outer.begin(), outer.end(), o);
  std::copy(inner.begin(), inner.end(), in);
  Tessellation t;
  EXPECT_TRUE(tessellate(m, o, in, t));
  return t;
}

// "Tessellator Spacing": a = u0 v1 - u1 v0 + u1 v2 - u2 v1 + u2 v0 - u0 v2.
double signedArea(const Tessellation& t, size_t i) {
  const TessCoord& p0 = t.coords[t.indices[i]];
  const TessCoord& p1 = t.coords[t.indices[i + 1]];
  const TessCoord& p2 = t.coords[t.indices[i + 2]];
  return double(p0.u) * p1.v - double(p1.u) * p0.v + double(p1.u) * p2.v - double(p2.u) * p1.v + double(p2.u) * p0.v -
         double(p0.u) * p2.v;
}

uint32_t segmentsOf(TessSpacing s, float level) { return subdivideLevel(s, level).segments; }

TEST(Tessellator, LevelsAreClampedAndRoundedAsTheSpacingSays) {
  // "Tessellator Spacing": equal [1, max] rounded up; fractional even [2, max] up to even;
  // fractional odd [1, max - 1] up to odd.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, 2.3f), 3u);
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, 3.0f), 3u);
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, 0.2f), 1u);
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, -4.0f), 1u);
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, 1000.0f), 64u);
  EXPECT_EQ(segmentsOf(TessSpacing::Equal, nan), 1u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalEven, 1.0f), 2u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalEven, 2.1f), 4u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalEven, 4.0f), 4u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalEven, 63.5f), 64u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalEven, 99.0f), 64u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalOdd, 0.5f), 1u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalOdd, 1.0f), 1u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalOdd, 1.01f), 3u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalOdd, 3.5f), 5u);
  EXPECT_EQ(segmentsOf(TessSpacing::FractionalOdd, 64.0f), 63u);
  EXPECT_DOUBLE_EQ(subdivideLevel(TessSpacing::FractionalOdd, 64.0f).level, 63.0);
  EXPECT_DOUBLE_EQ(subdivideLevel(TessSpacing::FractionalEven, 0.0f).level, 2.0);
}

TEST(Tessellator, EdgePositionsAreSymmetricExactAndFollowTheSpacing) {
  for (TessSpacing s : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd})
    for (float level = 0.5f; level <= 66.0f; level += 0.37f) {
      const EdgeSubdivision e = subdivideLevel(s, level);
      const std::vector<float> t = edgePositions(s, e);
      const uint32_t n = e.segments;
      ASSERT_EQ(t.size(), n + 1);
      EXPECT_EQ(t.front(), 0.0f);
      EXPECT_EQ(t.back(), 1.0f);
      for (uint32_t k = 0; k <= n; ++k) {
        // "Tessellation Invariance" rule 3 (symmetric, exactly) and rule 8 (1 - x exact).
        EXPECT_EQ(t[n - k], 1.0f - t[k]) << "level " << level << " k " << k;
        EXPECT_EQ(1.0f - (1.0f - t[k]), t[k]);
        if (k > 0) {
          EXPECT_LE(t[k - 1], t[k]);
        }
      }
      if (s == TessSpacing::Equal || n == 1) {
        for (uint32_t k = 0; k <= n; ++k) EXPECT_NEAR(t[k], double(k) / n, 1e-7);
        continue;
      }
      // n - 2 segments of equal length 1/f and two equal shorter ones placed symmetrically,
      // whose length relative to the others is 1 - (n - f) / 2 (monotonic in n - f, equal at
      // n = f, 0 as n - f approaches 2).
      const double f = e.level;
      for (uint32_t k = 2; k + 1 < n; ++k) EXPECT_NEAR(t[k] - t[k - 1], 1.0 / f, 1e-6) << "level " << level;
      const double first = t[1] - t[0], last = t[n] - t[n - 1];
      EXPECT_NEAR(first, last, 1e-6);
      EXPECT_NEAR(first * f, 1.0 - (n - f) / 2, 1e-5) << "level " << level;
      EXPECT_LE(first, 1.0 / f + 1e-6);
    }
}

// Vertex and triangle counts of quad tessellation with equal spacing, from "Quad
// Tessellation": an inner grid of (n - 1)(m - 1) vertices whose (n - 2)(m - 2) cells are
// triangle pairs, the outer ring's o0 + o1 + o2 + o3 vertices, and between the outer ring and
// the inner rectangle one triangle per segment of either side.
TEST(Tessellator, QuadCountsPerLevel) {
  const TessMode mode = modeOf(TessDomain::Quads, TessSpacing::Equal);
  for (float i0 : {1.0f, 2.0f, 3.0f, 4.5f, 7.0f})
    for (float i1 : {1.0f, 2.0f, 5.0f})
      for (float o : {1.0f, 2.0f, 3.3f, 6.0f}) {
        const float outer[4] = {o, o + 1, 2, 1};
        const Tessellation t = run(mode, {outer[0], outer[1], outer[2], outer[3]}, {i0, i1});
        uint32_t on[4];
        for (int e = 0; e < 4; ++e) on[e] = segmentsOf(TessSpacing::Equal, outer[e]);
        const uint32_t m = std::max(2u, segmentsOf(TessSpacing::Equal, i0)), n = std::max(2u, segmentsOf(TessSpacing::Equal, i1));
        const uint32_t vertices = (n - 1) * (m - 1) + on[0] + on[1] + on[2] + on[3];
        const uint32_t triangles = 2 * (n - 2) * (m - 2) + on[0] + on[1] + on[2] + on[3] + 2 * (n - 2) + 2 * (m - 2);
        EXPECT_EQ(t.coords.size(), vertices) << i0 << " " << i1 << " " << o;
        EXPECT_EQ(t.primitiveCount(), triangles) << i0 << " " << i1 << " " << o;
      }
  // All levels 1: "only a single triangle pair covering the outer rectangle".
  const Tessellation one = run(mode, {1, 1, 1, 1}, {1, 1});
  EXPECT_EQ(one.coords.size(), 4u);
  EXPECT_EQ(one.primitiveCount(), 2u);
}

// "Triangle Tessellation" with equal spacing: concentric triangles whose sides have n - 2k
// segments (the innermost a point when n is even, an undivided triangle when n is odd), each
// band between neighbouring rings one triangle per segment of either side.
TEST(Tessellator, TriangleCountsPerLevel) {
  const TessMode mode = modeOf(TessDomain::Triangles, TessSpacing::Equal);
  for (float in : {1.0f, 2.0f, 3.0f, 4.0f, 5.5f, 9.0f})
    for (float o : {1.0f, 2.0f, 4.0f, 7.5f}) {
      const float outer[3] = {o, 1, 3};
      const Tessellation t = run(mode, {outer[0], outer[1], outer[2]}, {in});
      uint32_t outerSum = 0;
      for (float l : outer) outerSum += segmentsOf(TessSpacing::Equal, l);
      const uint32_t n = std::max(2u, segmentsOf(TessSpacing::Equal, in));
      uint32_t vertices = outerSum + (n % 2 == 0 ? 1 : 0);
      for (uint32_t s = n - 2; s > 0 && s < n; s -= std::min(s, 2u)) vertices += 3 * s;
      uint32_t triangles = outerSum + 3 * (n - 2) + (n % 2 == 1 ? 1 : 0);
      for (uint32_t s = n - 2; s >= 2 && s < n; s -= 2) triangles += 3 * (s + s - 2);
      EXPECT_EQ(t.coords.size(), vertices) << in << " " << o;
      EXPECT_EQ(t.primitiveCount(), triangles) << in << " " << o;
    }
  // All levels 1: the single triangle (0,0,1), (1,0,0), (0,1,0).
  const Tessellation one = run(mode, {1, 1, 1}, {1});
  ASSERT_EQ(one.primitiveCount(), 1u);
  std::set<std::tuple<float, float, float>> corners;
  for (const TessCoord& c : one.coords) corners.insert({c.u, c.v, c.w});
  EXPECT_EQ(corners, (std::set<std::tuple<float, float, float>>{{0, 0, 1}, {1, 0, 0}, {0, 1, 0}}));
}

// "Isoline Tessellation": TessLevelOuter[0] lines at v = j / n (spacing ignored), none at
// v = 1, each of TessLevelOuter[1] segments under the spacing.
TEST(Tessellator, IsolineCountsAndCoordinates) {
  for (TessSpacing s : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd}) {
    const Tessellation t = run(modeOf(TessDomain::Isolines, s), {3.5f, 4.2f, 0.0f, 0.0f}, {});
    const uint32_t lines = 4, segments = segmentsOf(s, 4.2f);
    EXPECT_EQ(t.verticesPerPrimitive, 2u);
    EXPECT_EQ(t.primitiveCount(), lines * segments);
    std::set<float> vs;
    for (const TessCoord& c : t.coords) vs.insert(c.v);
    EXPECT_EQ(vs, (std::set<float>{0.0f, 0.25f, 0.5f, 0.75f}));
    for (size_t i = 0; i < t.indices.size(); i += 2)
      EXPECT_EQ(t.coords[t.indices[i]].v, t.coords[t.indices[i + 1]].v);  // segments of one isoline
  }
}

TEST(Tessellator, PatchDiscard) {
  // "Tessellator Patch Discard": a relevant outer level <= 0 or NaN; inner levels never discard.
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float in[2] = {-3, -3};
  Tessellation t;
  for (TessDomain d : {TessDomain::Triangles, TessDomain::Quads, TessDomain::Isolines}) {
    const uint32_t relevant = d == TessDomain::Quads ? 4 : d == TessDomain::Triangles ? 3 : 2;
    for (uint32_t e = 0; e < 4; ++e)
      for (float bad : {0.0f, -1.0f, nan}) {
        float outer[4] = {2, 2, 2, 2};
        outer[e] = bad;
        EXPECT_EQ(tessellate(modeOf(d, TessSpacing::Equal), outer, in, t), e >= relevant) << int(d) << " " << e;
      }
    const float outer[4] = {2, 2, 2, 2};
    EXPECT_TRUE(tessellate(modeOf(d, TessSpacing::Equal), outer, in, t));
  }
}

// Coverage: every triangle inside the domain, all with the winding the mode asks for, their
// areas adding up to the domain's, and every edge between two vertices used once in each
// direction unless it lies on the domain's boundary (no overlap, no crack inside a patch).
void expectCoversDomain(const Tessellation& t, TessDomain d, bool positive, const char* what) {
  double area = 0;
  std::map<std::pair<uint32_t, uint32_t>, int> edges;
  for (size_t i = 0; i + 2 < t.indices.size(); i += 3) {
    const double a = signedArea(t, i);
    if (a != 0) {
      EXPECT_EQ(a > 0, positive) << what << " triangle " << i / 3;
    }
    area += std::abs(a) / 2;
    for (int k = 0; k < 3; ++k) edges[{t.indices[i + k], t.indices[i + (k + 1) % 3]}]++;
  }
  EXPECT_NEAR(area, d == TessDomain::Quads ? 1.0 : 0.5, 1e-5) << what;
  auto onBoundary = [&](uint32_t a, uint32_t b) {
    const TessCoord &p = t.coords[a], &q = t.coords[b];
    if (d == TessDomain::Quads)
      return (p.u == 0 && q.u == 0) || (p.u == 1 && q.u == 1) || (p.v == 0 && q.v == 0) || (p.v == 1 && q.v == 1);
    return (p.u == 0 && q.u == 0) || (p.v == 0 && q.v == 0) || (p.w == 0 && q.w == 0);
  };
  for (const auto& [e, count] : edges) {
    EXPECT_EQ(count, 1) << what << " edge used twice in one direction";
    if (!onBoundary(e.first, e.second)) {
      EXPECT_EQ(edges.count({e.second, e.first}), 1u) << what << " interior edge without its twin";
    }
  }
  for (const TessCoord& c : t.coords) {
    EXPECT_GE(c.u, 0.0f);
    EXPECT_LE(c.u, 1.0f);
    EXPECT_GE(c.v, 0.0f);
    EXPECT_LE(c.v, 1.0f);
    EXPECT_EQ(1.0f - (1.0f - c.u), c.u);  // rule 8
    EXPECT_EQ(1.0f - (1.0f - c.v), c.v);
    if (d == TessDomain::Triangles) {
      EXPECT_EQ(double(c.u) + c.v + c.w, 1.0) << what;
    }
  }
}

TEST(Tessellator, TrianglesAndQuadsCoverTheDomainWithTheRequestedWinding) {
  const float levels[] = {1.0f, 1.5f, 2.0f, 2.7f, 3.0f, 4.0f, 5.2f, 8.0f};
  for (TessDomain d : {TessDomain::Triangles, TessDomain::Quads})
    for (TessSpacing s : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd})
      for (bool cw : {false, true})
        for (bool lowerLeft : {false, true})
          for (float i0 : levels)
            for (float o : levels) {
              // Fractional odd inner levels <= 1 give zero-length segments (the spec's inner
              // vertices on the edge); the edge-pairing check does not apply to them.
              if (s == TessSpacing::FractionalOdd && i0 <= 1.0f) continue;
              const Tessellation t = run(modeOf(d, s, cw, false, lowerLeft), {o, 2.5f, 1.0f, o + 2}, {i0, 3.0f});
              // Upper-left origin: clockwise when a > 0; lower-left: counter-clockwise when a > 0.
              const std::string what = "domain " + std::to_string(int(d)) + " spacing " + std::to_string(int(s)) + " cw " +
                                       std::to_string(cw) + " ll " + std::to_string(lowerLeft) + " inner " +
                                       std::to_string(i0) + " outer " + std::to_string(o);
              expectCoversDomain(t, d, cw != lowerLeft, what.c_str());
            }
}

// "Tessellation Invariance" rules 2 and 4: an outer edge's vertices depend only on its level
// and the spacing, whichever edge it is, so two patches sharing an edge with equal levels
// have the same vertices there (the right edge u = 1 of one quad patch and the left edge u = 0
// of its neighbour; a triangle's w = 0 edge and another's v = 0 edge).
TEST(Tessellator, SharedEdgesAreWatertight) {
  for (TessSpacing s : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd})
    for (float level : {1.0f, 2.0f, 3.3f, 4.9f, 7.0f, 12.5f}) {
      const TessMode quads = modeOf(TessDomain::Quads, s);
      const Tessellation left = run(quads, {3, 2, level, 5}, {4, 2});
      const Tessellation right = run(quads, {level, 6, 1, 2.5f}, {2, 7});
      std::set<float> a, b;
      for (const TessCoord& c : left.coords)
        if (c.u == 1.0f) a.insert(c.v);
      for (const TessCoord& c : right.coords)
        if (c.u == 0.0f) b.insert(c.v);
      EXPECT_EQ(a, b) << "spacing " << int(s) << " level " << level;
      EXPECT_EQ(a.size(), segmentsOf(s, level) + 1);

      const TessMode triangles = modeOf(TessDomain::Triangles, s);
      const Tessellation t1 = run(triangles, {2, 5, level}, {3});
      const Tessellation t2 = run(triangles, {4, level, 1}, {6});
      std::set<std::pair<float, float>> e1, e2;  // (x, 1 - x) of the w = 0 edge, (x, 1 - x) of v = 0
      for (const TessCoord& c : t1.coords)
        if (c.w == 0.0f) e1.insert({c.u, c.v});
      for (const TessCoord& c : t2.coords)
        if (c.v == 0.0f) e2.insert({c.u, c.w});
      EXPECT_EQ(e1, e2) << "spacing " << int(s) << " level " << level;
    }
}

TEST(Tessellator, VertexOrderChangesOnlyTheOrderWithinTriangles) {
  // "Tessellation Invariance" rule 5.
  for (TessDomain d : {TessDomain::Triangles, TessDomain::Quads}) {
    const Tessellation ccw = run(modeOf(d, TessSpacing::FractionalOdd, false), {3.2f, 4, 1.5f, 2}, {5.5f, 2.2f});
    const Tessellation cw = run(modeOf(d, TessSpacing::FractionalOdd, true), {3.2f, 4, 1.5f, 2}, {5.5f, 2.2f});
    auto triangleSet = [](const Tessellation& t) {
      std::multiset<std::vector<std::tuple<float, float, float>>> out;
      for (size_t i = 0; i + 2 < t.indices.size(); i += 3) {
        std::vector<std::tuple<float, float, float>> v;
        for (int k = 0; k < 3; ++k) {
          const TessCoord& c = t.coords[t.indices[i + k]];
          v.push_back({c.u, c.v, c.w});
        }
        std::sort(v.begin(), v.end());
        out.insert(v);
      }
      return out;
    };
    EXPECT_EQ(triangleSet(ccw), triangleSet(cw));
  }
}

TEST(Tessellator, PointModeGivesEachDistinctVertexOnce) {
  for (TessDomain d : {TessDomain::Triangles, TessDomain::Quads, TessDomain::Isolines}) {
    const Tessellation lines = run(modeOf(d, TessSpacing::Equal), {3, 4, 2, 5}, {3, 2});
    const Tessellation points = run(modeOf(d, TessSpacing::Equal, false, true), {3, 4, 2, 5}, {3, 2});
    EXPECT_EQ(points.verticesPerPrimitive, 1u);
    EXPECT_EQ(points.primitiveCount(), lines.coords.size());
    std::set<std::tuple<float, float, float>> distinct;
    for (uint32_t i : points.indices) distinct.insert({points.coords[i].u, points.coords[i].v, points.coords[i].w});
    EXPECT_EQ(distinct.size(), points.primitiveCount()) << int(d);
    // Every vertex of a primitive of the non-point tessellation is one of the points.
    for (uint32_t i : lines.indices) EXPECT_TRUE(distinct.count({lines.coords[i].u, lines.coords[i].v, lines.coords[i].w}));
  }
}

TEST(Tessellator, InnerLevelOneWithSubdividedOuterEdgesSplitsTheInside) {
  // "if either clamped inner tessellation level is one, that tessellation level is treated as
  // though it were originally specified as 1 + epsilon": two segments with equal spacing.
  const Tessellation q = run(modeOf(TessDomain::Quads, TessSpacing::Equal), {2, 1, 1, 1}, {1, 1});
  EXPECT_EQ(q.coords.size(), 1u + 5u);  // the centre and the outer ring
  bool centre = false;
  for (const TessCoord& c : q.coords) centre |= c.u == 0.5f && c.v == 0.5f;
  EXPECT_TRUE(centre);
  const Tessellation t = run(modeOf(TessDomain::Triangles, TessSpacing::Equal), {1, 1, 3}, {1});
  EXPECT_EQ(t.coords.size(), 1u + 5u);
  EXPECT_EQ(t.primitiveCount(), 5u);
}

TEST(Tessellator, InnerTrianglesAndInnerGridWhereTheChapterPutsThem) {
  // "Triangle Tessellation": an inner triangle's corner is where the perpendiculars through
  // the subdivision vertices nearest the outer corner meet; with equal spacing and n segments
  // the first ring's corner near (1, 0, 0) is (1 - 4/(3n), 2/(3n), 2/(3n)), and the k-th ring's
  // (1 - 4k/(3n), 2k/(3n), 2k/(3n)). An even n ends in the centre point.
  for (float level : {3.0f, 4.0f, 6.0f, 7.0f}) {
    const Tessellation t = run(modeOf(TessDomain::Triangles, TessSpacing::Equal), {2, 3, 4}, {level});
    const double n = level;
    for (uint32_t k = 1; 2 * k < uint32_t(level); ++k) {
      bool found = false;
      for (const TessCoord& c : t.coords)
        found |= std::abs(c.u - (1 - 4.0 * k / (3 * n))) < 1e-6 && std::abs(c.v - 2.0 * k / (3 * n)) < 1e-6 &&
                 std::abs(c.w - 2.0 * k / (3 * n)) < 1e-6;
      EXPECT_TRUE(found) << "inner level " << level << " ring " << k;
    }
    bool centre = false;
    for (const TessCoord& c : t.coords) centre |= std::abs(c.u - 1.0 / 3) < 1e-6 && std::abs(c.v - 1.0 / 3) < 1e-6;
    EXPECT_EQ(centre, uint32_t(level) % 2 == 0) << level;
  }
  // "Quad Tessellation": the inner grid lines at u = i / n (TessLevelInner[0], the horizontal
  // inner edges' IL0 in the chapter's figure) and v = j / m (TessLevelInner[1]) with equal
  // spacing.
  const Tessellation q = run(modeOf(TessDomain::Quads, TessSpacing::Equal), {1, 1, 1, 1}, {3, 5});
  std::set<std::pair<float, float>> inside;
  for (const TessCoord& c : q.coords)
    if (c.u > 0 && c.u < 1 && c.v > 0 && c.v < 1) inside.insert({c.u, c.v});
  std::set<std::pair<float, float>> expected;
  for (int i = 1; i < 3; ++i)
    for (int j = 1; j < 5; ++j) expected.insert({float(i / 3.0), float(j / 5.0)});
  ASSERT_EQ(inside.size(), expected.size());
  auto e = expected.begin();
  for (const auto& p : inside) {
    EXPECT_NEAR(p.first, e->first, 1e-7);
    EXPECT_NEAR(p.second, e->second, 1e-7);
    ++e;
  }
}

}  // namespace
}  // namespace tessera::raster

namespace tessera::raster {
namespace {

// "Quad Tessellation" leaves how the inner rectangle's cells become triangles to the
// implementation; Tessera cuts each cell along the diagonal pointing away from the domain's
// centre, so that the inner triangles are mirror images of each other about u = 1/2 and
// v = 1/2 (what the CTS's misc_draw.fill_overlap_quads_* reference images show). For every
// spacing and symmetric levels: the set of inner triangles (no vertex on the outer edge) is
// unchanged by u -> 1 - u and by v -> 1 - v, except in a cell the mirror axis halves (odd
// segment counts), whose one diagonal cannot be its own mirror.
TEST(Tessellator, QuadInnerTrianglesAreMirrorSymmetric) {
  using Tri = std::array<std::pair<float, float>, 3>;
  auto key = [](Tri t) {
    std::sort(t.begin(), t.end());
    return t;
  };
  for (TessSpacing s : {TessSpacing::Equal, TessSpacing::FractionalEven, TessSpacing::FractionalOdd})
    for (float level : {3.0f, 4.0f, 5.5f, 8.0f, 9.0f, 11.3f}) {
      const Tessellation t = run(modeOf(TessDomain::Quads, s), {level, level, level, level}, {level, level});
      std::set<Tri> inner;
      for (size_t i = 0; i + 2 < t.indices.size(); i += 3) {
        Tri tri;
        bool onEdge = false;
        for (int k = 0; k < 3; ++k) {
          const TessCoord& c = t.coords[t.indices[i + k]];
          tri[k] = {c.u, c.v};
          onEdge |= c.u == 0.0f || c.u == 1.0f || c.v == 0.0f || c.v == 1.0f;
        }
        if (!onEdge) inner.insert(key(tri));
      }
      ASSERT_FALSE(inner.empty()) << "level " << level;
      // Whether a triangle lies in a cell that the axis coordinate = 1/2 cuts in half.
      auto inMiddleCell = [](const Tri& tri, bool u) {
        float lo = 2.0f, hi = -1.0f;
        for (const auto& p : tri) lo = std::min(lo, u ? p.first : p.second), hi = std::max(hi, u ? p.first : p.second);
        return lo < 0.5f && hi > 0.5f;
      };
      for (const Tri& tri : inner) {
        if (inMiddleCell(tri, true) || inMiddleCell(tri, false)) continue;
        Tri mirrorU = tri, mirrorV = tri;
        for (auto& p : mirrorU) p.first = 1.0f - p.first;
        for (auto& p : mirrorV) p.second = 1.0f - p.second;
        EXPECT_TRUE(inner.count(key(mirrorU))) << "spacing " << int(s) << " level " << level << ": no mirror in u";
        EXPECT_TRUE(inner.count(key(mirrorV))) << "spacing " << int(s) << " level " << level << ": no mirror in v";
      }
    }
}

}  // namespace
}  // namespace tessera::raster
