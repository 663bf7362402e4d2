// "Primitive Clipping" of a triangle against half-spaces in clip coordinates, one half-space
// at a time (Sutherland-Hodgman), as the spec's "Clipping Shader Outputs" describes: each new
// vertex lies on an edge of the polygon clipped so far, and its outputs are interpolated with
// the same t (here: its barycentrics relative to the original triangle).
#include "clip.h"

#include "rules.h"

#include <algorithm>
#include <cmath>

namespace tessera::raster {
namespace {

// A half-space {P : dot(c, P) + offset >= 0} in clip coordinates.
struct Plane {
  double c[4];
  double offset = 0;
  double distance(const double p[4]) const {
    return c[0] * p[0] + c[1] * p[1] + c[2] * p[2] + c[3] * p[3] + offset;
  }
};

// The planes in a fixed order (the order matters only for determinism: two triangles sharing
// an edge must create identical vertices on it). `band`: the guard band's half-width in pixels.
int buildPlanes(const RasterState& state, double band, Plane planes[7]) {
  int n = 0;
  planes[n++] = {{0, 0, 0, 1}, -kMinClipW};  // w >= kMinClipW > 0
  if (rules::clipsDepth(state)) {
    // "Primitive Clipping": z_m <= z_c <= w_c, z_m = 0 or (negativeOneToOne) -w_c. Without
    // depth clipping "there is no near or far plane clipping".
    planes[n++] = {{0, 0, 1, rules::nearPlaneWCoefficient(state)}};  // z - z_m >= 0
    planes[n++] = {{0, 0, -1, 1}};                                    // z <= w
  }
  // The guard band: -B <= x_f <= B with x_f = (p_x/2) x_c/w_c + o_x. For w_c > 0 (already
  // ensured by the first plane) that is (p_x/2) x_c + (o_x + B) w_c >= 0 and
  // -(p_x/2) x_c + (B - o_x) w_c >= 0; the same for y with p_y (which may be negative).
  const Viewport& vp = state.viewport;
  const double hx = double{vp.width} / 2, ox = double{vp.x} + hx;
  const double hy = double{vp.height} / 2, oy = double{vp.y} + hy;
  planes[n++] = {{hx, 0, 0, ox + band}};
  planes[n++] = {{-hx, 0, 0, band - ox}};
  planes[n++] = {{0, hy, 0, oy + band}};
  planes[n++] = {{0, -hy, 0, band - oy}};
  return n;
}

// The point where the edge from `in` (inside) to `out` (outside) crosses the plane. Always
// computed from the inside vertex so that both triangles sharing an edge get the same point.
ClipVertex intersect(const ClipVertex& in, double dIn, const ClipVertex& out, double dOut) {
  const double t = dIn / (dIn - dOut);  // in (0, 1]: dIn >= 0 > dOut
  ClipVertex v;
  for (int k = 0; k < 4; ++k) v.position[k] = in.position[k] + t * (out.position[k] - in.position[k]);
  for (int k = 0; k < 3; ++k) v.bary[k] = in.bary[k] + t * (out.bary[k] - in.bary[k]);
  return v;
}

// One Sutherland-Hodgman step: keeps the part of `poly` where distance(vertex) >= 0 (a plane
// in clip coordinates, or a client-defined clip distance).
template <typename Distance>
void clipAgainst(const Distance& distance, ClipPolygon& poly) {
  ClipPolygon result;
  for (int i = 0; i < poly.count; ++i) {
    const ClipVertex& a = poly.vertex[i];
    const ClipVertex& b = poly.vertex[(i + 1) % poly.count];
    const double da = distance(a);
    const double db = distance(b);
    if (da >= 0) result.vertex[result.count++] = a;
    if ((da >= 0) != (db >= 0)) {
      result.vertex[result.count++] = da >= 0 ? intersect(a, da, b, db) : intersect(b, db, a, da);
    }
  }
  poly = result;
}

// A client-defined clip distance at a point with weights `bary` of the original vertices. An
// original vertex (weights 1, 0, 0) gets its own value exactly, NaN included.
double userDistance(const double bary[3], const double d[3]) {
  double sum = 0;
  for (int k = 0; k < 3; ++k)
    if (bary[k] != 0) sum += bary[k] * d[k];
  return sum;
}

}  // namespace

// Whether every vertex is inside every plane of buildPlanes, decided exactly as the generic
// loop below decides it, for finite coordinates: a plane's distance c . p + offset with its zero
// coefficients left out is the same double (x + 0 = x, and -0 vs +0 does not change `< 0`).
// Most triangles need no clipping; this saves building the planes and the polygon for them.
bool vertexTriviallyInside(const float position[4], const RasterState& state) {
  const Viewport& vp = state.viewport;
  const double hx = double{vp.width} / 2, ox = double{vp.x} + hx;
  const double hy = double{vp.height} / 2, oy = double{vp.y} + hy;
  const double x = position[0], y = position[1], z = position[2], w = position[3];
  if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z) || !std::isfinite(w)) return false;
  if (w + -kMinClipW < 0) return false;
  if (rules::clipsDepth(state) && (z + rules::nearPlaneWCoefficient(state) * w < 0 || -z + w < 0)) return false;
  if (hx * x + (ox + kGuardBand) * w < 0 || -hx * x + (kGuardBand - ox) * w < 0) return false;
  if (hy * y + (oy + kGuardBand) * w < 0 || -hy * y + (kGuardBand - oy) * w < 0) return false;
  return true;
}

bool triviallyInside(const ClipTriangle& tri, const RasterState& state) {
  for (int i = 0; i < 3; ++i) {
    if (!vertexTriviallyInside(tri.position[i], state)) return false;
    for (uint32_t p = 0; p < tri.clipDistances; ++p)
      if (tri.clipDistance[i][p] < 0) return false;
  }
  return true;
}

bool clipTriangle(const ClipTriangle& tri, const RasterState& state, ClipPolygon& out) {
  if (!triviallyInside(tri, state)) return clipTriangleByPlanes(tri, state, out);
  out.count = 3;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 4; ++k) out.vertex[i].position[k] = tri.position[i][k];
    for (int k = 0; k < 3; ++k) out.vertex[i].bary[k] = i == k ? 1.0 : 0.0;
  }
  return true;
}

bool clipTriangleByPlanes(const ClipTriangle& tri, const RasterState& state, ClipPolygon& out) {
  return clipTriangleToBand(tri, state, kGuardBand, out);
}

bool clipTriangleToBand(const ClipTriangle& tri, const RasterState& state, double band, ClipPolygon& out) {
  out.count = 3;
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 4; ++k) out.vertex[i].position[k] = tri.position[i][k];
    for (int k = 0; k < 3; ++k) out.vertex[i].bary[k] = i == k ? 1.0 : 0.0;
  }

  // Against one half-space: false when nothing remains.
  auto clip = [&](const auto& distance) {
    int outside = 0;
    for (int i = 0; i < out.count; ++i) outside += distance(out.vertex[i]) < 0;
    if (outside == 0) return true;  // the common case: nothing to clip against this plane
    if (outside == out.count) {     // entirely outside one half-space: nothing remains
      out.count = 0;
      return false;
    }
    clipAgainst(distance, out);
    return true;
  };
  Plane planes[7];
  const int planeCount = buildPlanes(state, band, planes);
  for (int p = 0; p < planeCount; ++p)
    if (!clip([&](const ClipVertex& v) { return planes[p].distance(v.position); })) return false;
  // Client-defined half-spaces: a vertex's clip distance is the original vertices' distances
  // weighted as its position is ("linearly interpolated across the primitive").
  for (uint32_t p = 0; p < tri.clipDistances; ++p) {
    const double d[3] = {tri.clipDistance[0][p], tri.clipDistance[1][p], tri.clipDistance[2][p]};
    if (!clip([&](const ClipVertex& v) { return userDistance(v.bary, d); })) return false;
  }
  return out.count >= 3;
}

bool clipLine(const ClipLine& line, const RasterState& state, ClipSegment& out) {
  // Parametric clipping (Liang-Barsky) of P(t) = V_0 + t (V_1 - V_0): every plane's distance is
  // linear in t, so each plane bounds t from one side. Keeping [t0, t1] on the ORIGINAL segment,
  // rather than moving endpoints plane by plane, gives every new endpoint straight from the
  // original vertices and their t ("Primitive Clipping": P = t P_1 + (1 - t) P_2).
  double v[2][4];
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) v[i][k] = line.position[i][k];

  Plane planes[7];
  const int planeCount = buildPlanes(state, kLineGuardBand, planes);
  double t0 = 0, t1 = 1;
  auto bound = [&](double d0, double d1) {
    if (d0 < 0 && d1 < 0) return false;            // entirely outside one half-space
    if (d0 < 0) t0 = std::max(t0, d0 / (d0 - d1));  // enters the half-space at this t
    if (d1 < 0) t1 = std::min(t1, d0 / (d0 - d1));  // leaves it at this t
    return true;
  };
  for (int p = 0; p < planeCount; ++p)
    if (!bound(planes[p].distance(v[0]), planes[p].distance(v[1]))) return false;
  // Client-defined half-spaces: each distance is linear along the segment, like the planes'.
  for (uint32_t p = 0; p < line.clipDistances; ++p)
    if (!bound(line.clipDistance[0][p], line.clipDistance[1][p])) return false;
  // A segment reduced to a point (or to nothing) has no length to rasterize.
  if (!(t0 < t1)) return false;

  const double t[2] = {t0, t1};
  for (int e = 0; e < 2; ++e) {
    for (int k = 0; k < 4; ++k) out.position[e][k] = v[0][k] + t[e] * (v[1][k] - v[0][k]);
    out.bary[e][0] = 1 - t[e];
    out.bary[e][1] = t[e];
  }
  // Unclipped endpoints are the original vertices exactly (no rounding through t).
  if (t0 == 0)
    for (int k = 0; k < 4; ++k) out.position[0][k] = v[0][k];
  if (t1 == 1)
    for (int k = 0; k < 4; ++k) out.position[1][k] = v[1][k];
  return true;
}

bool pointInsideClipVolume(const float position[4], const RasterState& state) {
  const double x = position[0], y = position[1], z = position[2], w = position[3];
  if (!(w >= kMinClipW)) return false;  // also rejects NaN
  if (!(-w <= x && x <= w && -w <= y && y <= w)) return false;
  if (rules::clipsDepth(state) && !(-rules::nearPlaneWCoefficient(state) * w <= z && z <= w)) return false;
  return true;
}

}  // namespace tessera::raster

namespace tessera::raster {

bool pointInsideClipDistances(const float* clipDistance, uint32_t count) {
  for (uint32_t p = 0; p < count; ++p)
    if (clipDistance[p] < 0) return false;
  return true;
}

bool culledByCullDistances(const float* const* cullDistance, uint32_t vertexCount, uint32_t count) {
  for (uint32_t p = 0; p < count; ++p) {
    bool allNegative = true;
    for (uint32_t v = 0; v < vertexCount; ++v) allNegative &= cullDistance[v][p] < 0;
    if (allNegative) return true;
  }
  return false;
}

}  // namespace tessera::raster
