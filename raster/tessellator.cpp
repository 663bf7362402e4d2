// The fixed-function tessellator (see tessellator.h). Everything is computed in double and
// each coordinate quantized to a multiple of 2^-24 before it becomes a float: such an x in
// [0, 1] has 1 - x exactly representable, which "Tessellation Invariance" rule 8 asks for, and
// the third barycentric coordinate 1 - u - v is then exact too.
//
// Triangles and quads are built as closed rings of vertices walked counter-clockwise in the
// (u, v) plane (u to the right, v up): the outer ring from the outer levels, inside it the
// inner triangles ("Triangle Tessellation": each ring's corner where the perpendiculars
// through the subdivision vertex nearest the corner meet) or the inner rectangle's boundary
// ("Quad Tessellation"). Neighbouring rings are joined side by side by merging their
// vertices in order along the side, so the triangles between an inner and an outer side
// depend only on those two sides' subdivisions (rule 7). Vertices along a side carry the
// position t of the outer-edge point they were projected from, which is what the merge sorts.
#include "tessellator.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace tessera::raster {
namespace {

constexpr double kQuantum = 16777216.0;  // 2^24

double quantize(double x) {
  x = std::clamp(x, 0.0, 1.0);
  return std::nearbyint(x * kQuantum) / kQuantum;
}

// Clamps to [lo, hi]; NaN goes to lo.
double clampLevel(float level, double lo, double hi) {
  if (!(double(level) >= lo)) return lo;
  return std::min(double(level), hi);
}

// The inner level of a domain whose other levels are not all 1: a level that rounded to one
// segment is taken as 1 + epsilon ("Triangle Tessellation", "Quad Tessellation").
EdgeSubdivision innerSubdivision(TessSpacing spacing, float level) {
  EdgeSubdivision e = subdivideLevel(spacing, level);
  if (e.segments != 1) return e;
  e.level = 1.0;  // 1 + epsilon rounds up as follows; the extra segments have length ~0
  e.segments = spacing == TessSpacing::FractionalOdd ? 3 : 2;
  return e;
}

struct Builder {
  Tessellation& out;
  uint32_t add(double u, double v) {  // quantized u, v; w = 1 - u - v for triangles
    out.coords.push_back(TessCoord{float(u), float(v), 0.0f});
    return uint32_t(out.coords.size() - 1);
  }
  uint32_t addBarycentric(double u, double v) {
    u = quantize(u);
    v = quantize(v);
    const double w = std::max(0.0, 1.0 - u - v);
    out.coords.push_back(TessCoord{float(u), float(v), float(w)});
    return uint32_t(out.coords.size() - 1);
  }
  void triangle(uint32_t a, uint32_t b, uint32_t c) { out.indices.insert(out.indices.end(), {a, b, c}); }
};

// One side of a ring: its vertices in walking order and their positions along the side.
struct Side {
  std::vector<uint32_t> vertex;
  std::vector<double> t;
};

// Fills the band between an outer side and the inner side next to it. Both sides run the same
// way (counter-clockwise around the domain), the inner one may be a single vertex. Triangles
// are made as (outer, outer next, inner) and (outer, inner next, inner), which keeps the
// counter-clockwise order of the rings.
void stitch(Builder& b, const Side& outer, const Side& inner) {
  const size_t p = outer.vertex.size() - 1, q = inner.vertex.size() - 1;
  size_t a = 0, c = 0;
  while (a < p || c < q) {
    bool advanceOuter;
    if (a == p) advanceOuter = false;
    else if (c == q) advanceOuter = true;
    else advanceOuter = outer.t[a] + outer.t[a + 1] <= inner.t[c] + inner.t[c + 1];
    if (advanceOuter) {
      b.triangle(outer.vertex[a], outer.vertex[a + 1], inner.vertex[c]);
      ++a;
    } else {
      b.triangle(outer.vertex[a], inner.vertex[c + 1], inner.vertex[c]);
      ++c;
    }
  }
}

// "Triangle Tessellation". Corners U = (1,0,0), V = (0,1,0), W = (0,0,1), walked U -> V -> W
// (counter-clockwise in (u, v)). Ring k of the inner subdivision (positions t[0..n]) has
// every barycentric coordinate >= c = 2 t[k] / 3; the point of its side opposite W projected
// from the outer edge's point (1 - t, t, 0) is (1 - t - c/2, t - c/2, c), and the other two
// sides are the same with the coordinates rotated.
void tessellateTriangles(const TessMode& mode, const float outer[4], const float inner[2], Builder& b) {
  const EdgeSubdivision o[3] = {subdivideLevel(mode.spacing, outer[0]), subdivideLevel(mode.spacing, outer[1]),
                                subdivideLevel(mode.spacing, outer[2])};
  if (subdivideLevel(mode.spacing, inner[0]).segments == 1 && o[0].segments == 1 && o[1].segments == 1 &&
      o[2].segments == 1) {
    const uint32_t w = b.addBarycentric(0, 0), u = b.addBarycentric(1, 0), v = b.addBarycentric(0, 1);
    b.triangle(w, u, v);
    return;
  }
  const EdgeSubdivision in = innerSubdivision(mode.spacing, inner[0]);
  const std::vector<float> t = edgePositions(mode.spacing, in);
  const uint32_t n = in.segments;

  // Point on side s (0: w = c from U to V, 1: u = c from V to W, 2: v = c from W to U) at t.
  auto point = [&](uint32_t side, double tt, double c) {
    const double a = 1.0 - tt - c / 2, bb = tt - c / 2;  // along-side coordinates
    switch (side) {
      case 0: return b.addBarycentric(a, bb);                // (a, bb, c)
      case 1: return b.addBarycentric(c, a);                 // (c, a, bb)
      default: return b.addBarycentric(bb, c);               // (bb, c, a)
    }
  };
  // The outer ring: side 0 is the w = 0 edge (TessLevelOuter[2]), side 1 the u = 0 edge
  // (TessLevelOuter[0]), side 2 the v = 0 edge (TessLevelOuter[1]).
  const uint32_t outerLevelOfSide[3] = {2, 0, 1};
  auto ringSides = [&](const std::vector<double> (&positions)[3], double c) {
    std::array<Side, 3> sides;
    // Each side's first vertex is the previous side's last (the shared corner).
    std::array<uint32_t, 3> corner;
    for (uint32_t s = 0; s < 3; ++s) corner[s] = point(s, positions[s].front(), c);
    for (uint32_t s = 0; s < 3; ++s) {
      const std::vector<double>& pos = positions[s];
      Side& side = sides[s];
      side.t = pos;
      side.vertex.push_back(corner[s]);
      for (size_t i = 1; i + 1 < pos.size(); ++i) side.vertex.push_back(point(s, pos[i], c));
      if (pos.size() > 1) side.vertex.push_back(corner[(s + 1) % 3]);
    }
    return sides;
  };
  std::vector<double> outerPositions[3];
  for (uint32_t s = 0; s < 3; ++s) {
    const std::vector<float> e = edgePositions(mode.spacing, o[outerLevelOfSide[s]]);
    outerPositions[s].assign(e.begin(), e.end());
  }
  std::array<Side, 3> previous = ringSides(outerPositions, 0.0);
  for (uint32_t k = 1; 2 * k <= n; ++k) {
    const double c = 2.0 * double(t[k]) / 3.0;
    std::array<Side, 3> ring;
    if (2 * k == n) {
      // The degenerate innermost triangle: the centre point.
      const uint32_t centre = b.addBarycentric(1.0 / 3, 1.0 / 3);
      for (Side& s : ring) s.vertex = {centre}, s.t = {0.5};
    } else {
      std::vector<double> positions[3];
      for (uint32_t s = 0; s < 3; ++s) positions[s].assign(t.begin() + k, t.begin() + (n - k) + 1);
      ring = ringSides(positions, c);
    }
    for (uint32_t s = 0; s < 3; ++s) stitch(b, previous[s], ring[s]);
    previous = ring;
  }
  if (n % 2 == 1) {  // the innermost triangle is not subdivided: added as it is
    b.triangle(previous[0].vertex[0], previous[1].vertex[0], previous[2].vertex[0]);
  }
}

// "Quad Tessellation". The ring is walked (0,0) -> (1,0) -> (1,1) -> (0,1): side 0 the v = 0
// edge (TessLevelOuter[1]), side 1 u = 1 (TessLevelOuter[2]), side 2 v = 1 (TessLevelOuter[3]),
// side 3 u = 0 (TessLevelOuter[0]). The inner grid's u positions come from TessLevelInner[0]
// and its v positions from TessLevelInner[1] (the chapter's figure puts IL0 on the horizontal
// inner edges and IL1 on the vertical ones; the CTS's reference coordinates agree).
void tessellateQuads(const TessMode& mode, const float outer[4], const float inner[2], Builder& b) {
  EdgeSubdivision o[4];
  for (uint32_t i = 0; i < 4; ++i) o[i] = subdivideLevel(mode.spacing, outer[i]);
  if (subdivideLevel(mode.spacing, inner[0]).segments == 1 && subdivideLevel(mode.spacing, inner[1]).segments == 1 &&
      o[0].segments == 1 && o[1].segments == 1 && o[2].segments == 1 && o[3].segments == 1) {
    const uint32_t a = b.add(0, 0), c = b.add(1, 0), d = b.add(1, 1), e = b.add(0, 1);
    b.triangle(a, c, d);
    b.triangle(a, d, e);
    return;
  }
  const std::vector<float> us = edgePositions(mode.spacing, innerSubdivision(mode.spacing, inner[0]));
  const std::vector<float> vs = edgePositions(mode.spacing, innerSubdivision(mode.spacing, inner[1]));
  const uint32_t n = uint32_t(us.size() - 1), m = uint32_t(vs.size() - 1);

  // Outer ring. Side s's point at t: (t, 0), (1, t), (1 - t, 1), (0, 1 - t).
  auto outerPoint = [&](uint32_t s, double t) {
    switch (s) {
      case 0: return b.add(t, 0);
      case 1: return b.add(1, t);
      case 2: return b.add(1 - t, 1);
      default: return b.add(0, 1 - t);
    }
  };
  const uint32_t outerLevelOfSide[4] = {1, 2, 3, 0};
  std::array<Side, 4> ring;
  std::array<uint32_t, 4> corner;
  for (uint32_t s = 0; s < 4; ++s) corner[s] = outerPoint(s, 0);
  for (uint32_t s = 0; s < 4; ++s) {
    const std::vector<float> e = edgePositions(mode.spacing, o[outerLevelOfSide[s]]);
    Side& side = ring[s];
    side.t.assign(e.begin(), e.end());
    side.vertex.push_back(corner[s]);
    for (size_t i = 1; i + 1 < e.size(); ++i) side.vertex.push_back(outerPoint(s, e[i]));
    side.vertex.push_back(corner[(s + 1) % 4]);
  }

  // The inner grid: vertex (i, j) at (us[i], vs[j]) for 1 <= i <= n-1, 1 <= j <= m-1.
  std::vector<uint32_t> grid(size_t(n + 1) * (m + 1));
  auto at = [&](uint32_t i, uint32_t j) -> uint32_t& { return grid[size_t(j) * (n + 1) + i]; };
  for (uint32_t j = 1; j < m; ++j)
    for (uint32_t i = 1; i < n; ++i) at(i, j) = b.add(us[i], vs[j]);
  // Each grid cell is cut along the diagonal that points away from the domain's centre (the
  // chapter leaves the cut to the implementation): "/" in the lower-left and upper-right
  // quarters, "\" in the other two, so the triangles are mirror-symmetric about both axes and
  // a value interpolated from vertices that depend on the distance to the nearest edge (the
  // CTS's misc_draw.fill_overlap_quads_*) shows square rings, not staircases along two of the
  // corners' diagonals.
  for (uint32_t j = 1; j + 1 < m; ++j)
    for (uint32_t i = 1; i + 1 < n; ++i) {
      const bool lowerLeftOrUpperRight = (us[i] + us[i + 1] < 1.0) == (vs[j] + vs[j + 1] < 1.0);
      if (lowerLeftOrUpperRight) {
        b.triangle(at(i, j), at(i + 1, j), at(i + 1, j + 1));
        b.triangle(at(i, j), at(i + 1, j + 1), at(i, j + 1));
      } else {
        b.triangle(at(i, j), at(i + 1, j), at(i, j + 1));
        b.triangle(at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
      }
    }
  // The inner rectangle's sides, walked the ring's way, positions as the outer side's t.
  std::array<Side, 4> innerRing;
  for (uint32_t i = 1; i < n; ++i) innerRing[0].vertex.push_back(at(i, 1)), innerRing[0].t.push_back(us[i]);
  for (uint32_t j = 1; j < m; ++j) innerRing[1].vertex.push_back(at(n - 1, j)), innerRing[1].t.push_back(vs[j]);
  for (uint32_t i = n - 1; i >= 1; --i)
    innerRing[2].vertex.push_back(at(i, m - 1)), innerRing[2].t.push_back(1.0 - us[i]);
  for (uint32_t j = m - 1; j >= 1; --j)
    innerRing[3].vertex.push_back(at(1, j)), innerRing[3].t.push_back(1.0 - vs[j]);
  for (uint32_t s = 0; s < 4; ++s) stitch(b, ring[s], innerRing[s]);
}

// "Isoline Tessellation": TessLevelOuter[0] lines (equal spacing whatever the mode) at
// v = j / n for j < n, each cut into segments by TessLevelOuter[1] and the spacing.
void tessellateIsolines(const TessMode& mode, const float outer[4], Tessellation& out) {
  const std::vector<float> lines = edgePositions(TessSpacing::Equal, subdivideLevel(TessSpacing::Equal, outer[0]));
  const std::vector<float> us = edgePositions(mode.spacing, subdivideLevel(mode.spacing, outer[1]));
  for (size_t j = 0; j + 1 < lines.size(); ++j) {
    const uint32_t first = uint32_t(out.coords.size());
    for (float u : us) out.coords.push_back(TessCoord{u, lines[j], 0.0f});
    for (uint32_t i = 0; i + 1 < us.size(); ++i) out.indices.insert(out.indices.end(), {first + i, first + i + 1});
  }
}

}  // namespace

EdgeSubdivision subdivideLevel(TessSpacing spacing, float level) {
  const double max = kMaxTessellationLevel;
  EdgeSubdivision e;
  switch (spacing) {
    case TessSpacing::Equal:
      e.level = clampLevel(level, 1.0, max);
      e.segments = uint32_t(std::ceil(e.level));
      break;
    case TessSpacing::FractionalEven: {
      e.level = clampLevel(level, 2.0, max);
      const uint32_t n = uint32_t(std::ceil(e.level));
      e.segments = n + (n & 1);
      break;
    }
    case TessSpacing::FractionalOdd: {
      e.level = clampLevel(level, 1.0, max - 1);
      const uint32_t n = uint32_t(std::ceil(e.level));
      e.segments = n + 1 - (n & 1);
      break;
    }
  }
  return e;
}

std::vector<float> edgePositions(TessSpacing spacing, EdgeSubdivision edge) {
  const uint32_t n = std::max(edge.segments, 1u);
  std::vector<float> t(n + 1);
  // Segment lengths for fractional spacing: n - 2 of 1/f and two of (1 - (n - 2)/f) / 2.
  const double full = 1.0 / edge.level;
  const double shortSegment = (1.0 - double(n - 2) * full) / 2;
  for (uint32_t k = 0; 2 * k <= n; ++k) {
    double x;
    if (k == 0) x = 0;
    else if (spacing == TessSpacing::Equal || n == 1) x = double(k) / n;
    else x = shortSegment + double(k - 1) * full;
    if (2 * k == n) x = 0.5;
    t[k] = float(quantize(x));
    t[n - k] = float(1.0 - double(t[k]));  // exact: t[k] is a multiple of 2^-24
  }
  return t;
}

bool tessellate(const TessMode& mode, const float outer[4], const float inner[2], Tessellation& out) {
  out.coords.clear();
  out.indices.clear();
  // "Tessellator Patch Discard": the relevant outer levels (four for quads, three for
  // triangles, two for isolines) must all be > 0 (NaN discards as well).
  const uint32_t relevant = mode.domain == TessDomain::Quads ? 4 : mode.domain == TessDomain::Triangles ? 3 : 2;
  for (uint32_t i = 0; i < relevant; ++i)
    if (!(outer[i] > 0.0f)) return false;
  Builder b{out};
  switch (mode.domain) {
    case TessDomain::Triangles: tessellateTriangles(mode, outer, inner, b); break;
    case TessDomain::Quads: tessellateQuads(mode, outer, inner, b); break;
    case TessDomain::Isolines: tessellateIsolines(mode, outer, out); break;
  }
  if (mode.pointMode) {
    // "one point for each distinct vertex produced by tessellation"
    out.indices.resize(out.coords.size());
    for (uint32_t i = 0; i < out.coords.size(); ++i) out.indices[i] = i;
    out.verticesPerPrimitive = 1;
    return true;
  }
  out.verticesPerPrimitive = mode.domain == TessDomain::Isolines ? 2 : 3;
  if (mode.domain == TessDomain::Isolines) return true;
  // "Tessellator Spacing": with an upper-left origin a triangle is clockwise when
  // a = u0 v1 - u1 v0 + u1 v2 - u2 v1 + u2 v0 - u0 v2 is positive; a lower-left origin swaps
  // the meaning. Triangles are built with a >= 0 (degenerate ones with a = 0 keep that order).
  const bool wantPositive = mode.clockwise != mode.lowerLeftOrigin;
  if (!wantPositive)
    for (size_t i = 0; i + 2 < out.indices.size(); i += 3) std::swap(out.indices[i + 1], out.indices[i + 2]);
  return true;
}

}  // namespace tessera::raster
