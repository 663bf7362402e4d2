// Helpers shared by the raster unit tests: building states and clip-space triangles from
// framebuffer coordinates, collecting what rasterizeTriangle emits, and independent oracles
// (written here, not taken from raster/) for coverage and interpolation.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>
#include <vector>

#include "tessera/raster.h"

namespace tessera::raster::test {

inline RasterState fullScreenState(int width, int height) {
  RasterState s;
  s.viewport = {0, 0, float(width), float(height), 0, 1};
  s.scissor = {0, 0, width, height};
  return s;
}

// A vertex given in framebuffer coordinates (x_f, y_f), NDC depth z_d and clip w: the clip
// position that the viewport transform maps back to it ("Controlling the Viewport").
struct WindowVertex {
  double x, y, zd, w;
};

inline ClipTriangle clipFromWindow(const Viewport& vp, const WindowVertex (&v)[3]) {
  ClipTriangle t;
  for (int i = 0; i < 3; ++i) {
    const double xd = (v[i].x - (vp.x + vp.width / 2.0)) / (vp.width / 2.0);
    const double yd = (v[i].y - (vp.y + vp.height / 2.0)) / (vp.height / 2.0);
    t.position[i][0] = float(xd * v[i].w);
    t.position[i][1] = float(yd * v[i].w);
    t.position[i][2] = float(v[i].zd * v[i].w);
    t.position[i][3] = float(v[i].w);
  }
  return t;
}

struct Fragment {
  uint32_t quadCoverage;
  int slot;
  Quad quad;
};

// Everything rasterizeTriangle emitted for all `setups` over `tile`, per pixel; `count` says
// how many times each pixel was covered.
struct Raster {
  std::map<std::pair<int, int>, int> count;
  std::map<std::pair<int, int>, Fragment> fragment;  // the last covering fragment
  std::vector<Quad> quads;
};

inline void rasterizeInto(const std::vector<SetupTriangle>& setups, const Rect& tile, Raster& r) {
  for (const SetupTriangle& t : setups) {
    rasterizeTriangle(t, tile, [&](const Quad& q) {
      r.quads.push_back(q);
      for (int slot = 0; slot < 4; ++slot) {
        if (!(q.coverage & (1u << slot))) continue;
        const std::pair<int, int> p{q.x + (slot & 1), q.y + (slot >> 1)};
        ++r.count[p];
        r.fragment[p] = {q.coverage, slot, q};
      }
    });
  }
}

inline Raster rasterize(const ClipTriangle& tri, const RasterState& s, const Rect& tile) {
  std::vector<SetupTriangle> setups;
  setupTriangle(tri, s, setups);
  Raster r;
  rasterizeInto(setups, tile, r);
  return r;
}

// Coverage oracle for a triangle with integer vertices in 1/256 pixel: the sample at (sx, sy)
// (1/256 pixel) is covered iff the perturbed point s + (eps, eps^2) lies strictly inside the
// triangle for every small enough eps > 0. That is the "top-left" convention written
// differently: a sample on an edge counts when the interior lies to its right (+x), or below
// (+y) for a horizontal edge.
inline bool oracleCoversAt(const int64_t x[3], const int64_t y[3], int64_t sx, int64_t sy) {
  using i128 = __int128;
  const i128 orient = i128(x[1] - x[0]) * (y[2] - y[0]) - i128(y[1] - y[0]) * (x[2] - x[0]);
  if (orient == 0) return false;
  const i128 cx = sx, cy = sy;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const i128 ex = x[j] - x[i], ey = y[j] - y[i];
    // cross(e, c + d - v_i) = cross(e, c - v_i) + ex*eps^2 - ey*eps for d = (eps, eps^2).
    const i128 e0 = ex * (cy - y[i]) - ey * (cx - x[i]);
    int sign;
    if (e0 != 0) sign = e0 > 0 ? 1 : -1;
    else if (ey != 0) sign = -ey > 0 ? 1 : -1;
    else sign = ex > 0 ? 1 : -1;
    if (sign != (orient > 0 ? 1 : -1)) return false;
  }
  return true;
}

// The same at the centre of pixel (px, py), the single-sample location.
inline bool oracleCovers(const int64_t x[3], const int64_t y[3], int px, int py) {
  return oracleCoversAt(x, y, int64_t(px) * 256 + 128, int64_t(py) * 256 + 128);
}

// Analytic oracle for a clip-space triangle at a pixel centre: the barycentric coordinates b
// (sum 1) of the point P = sum_i b_i V_i on the triangle's plane that projects to the pixel
// centre (x_c - x_d w_c = 0, y_c - y_d w_c = 0), found by solving the 3x3 system directly.
// These are exactly the perspective-correct weights of the original triangle.
struct RayHit {
  bool valid;      // the system is regular
  double b[3];     // barycentrics of P
  double pos[4];   // P in clip coordinates
};

inline RayHit hitAtPixel(const ClipTriangle& t, const Viewport& vp, int px, int py) {
  const double xd = (px + 0.5 - (vp.x + vp.width / 2.0)) / (vp.width / 2.0);
  const double yd = (py + 0.5 - (vp.y + vp.height / 2.0)) / (vp.height / 2.0);
  double m[3][4];
  for (int i = 0; i < 3; ++i) {
    const float* v = t.position[i];
    m[0][i] = v[0] - xd * v[3];
    m[1][i] = v[1] - yd * v[3];
    m[2][i] = 1;
  }
  m[0][3] = 0;
  m[1][3] = 0;
  m[2][3] = 1;
  // Cramer's rule.
  auto det3 = [](double a[3][3]) {
    return a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) - a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
           a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]);
  };
  double a[3][3];
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) a[r][c] = m[r][c];
  const double d = det3(a);
  RayHit h{};
  if (std::fabs(d) < 1e-12) return h;
  h.valid = true;
  for (int k = 0; k < 3; ++k) {
    double ak[3][3];
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) ak[r][c] = c == k ? m[r][3] : m[r][c];
    h.b[k] = det3(ak) / d;
  }
  for (int c = 0; c < 4; ++c) h.pos[c] = h.b[0] * t.position[0][c] + h.b[1] * t.position[1][c] + h.b[2] * t.position[2][c];
  return h;
}

enum class Expect { Inside, Outside, Ambiguous };

// Whether the pixel centre is inside the clipped triangle: inside the triangle (b >= 0), in
// front of the eye (w > 0) and, with depth clipping, 0 <= z <= w ("Primitive Clipping"), and
// inside the viewport rectangle. Ambiguous within `margin` of any of these boundaries, where
// snapping may decide either way.
inline Expect clippedOracle(const ClipTriangle& t, const RasterState& s, int px, int py, double margin = 1e-3) {
  const Viewport& vp = s.viewport;
  const double cx = px + 0.5, cy = py + 0.5;
  const double vx0 = std::fmin(vp.x, vp.x + vp.width), vx1 = std::fmax(vp.x, vp.x + vp.width);
  const double vy0 = std::fmin(vp.y, vp.y + vp.height), vy1 = std::fmax(vp.y, vp.y + vp.height);
  if (cx < vx0 || cx >= vx1 || cy < vy0 || cy >= vy1) return Expect::Outside;
  if (px < s.scissor.x0 || px >= s.scissor.x1 || py < s.scissor.y0 || py >= s.scissor.y1) return Expect::Outside;
  const RayHit h = hitAtPixel(t, vp, px, py);
  if (!h.valid) return Expect::Ambiguous;
  double q[6 + kMaxUserClipPlanes] = {h.b[0], h.b[1], h.b[2], h.pos[3], 1, 1};
  int n = 4;
  // Client-defined half-spaces: each ClipDistance "linearly interpolated across the primitive"
  // (the hit's clip-space weights) must be >= 0.
  for (uint32_t p = 0; p < t.clipDistances; ++p)
    q[n++] = h.b[0] * t.clipDistance[0][p] + h.b[1] * t.clipDistance[1][p] + h.b[2] * t.clipDistance[2][p];
  // "Primitive Clipping": z_m <= z <= w (z_m = -w with negativeOneToOne, else 0) unless depth
  // clipping is off: depthClipEnable VK_FALSE, or no depth clip state and depthClampEnable.
  const bool clipZ = s.depthClip == RasterState::DepthClip::FollowClamp ? !s.depthClampEnable
                                                                        : s.depthClip == RasterState::DepthClip::Enabled;
  if (clipZ) {
    const double zm = s.negativeOneToOne ? -h.pos[3] : 0.0;
    q[n++] = (h.pos[2] - zm) / std::fabs(h.pos[3]);         // z >= z_m (scaled by |w|)
    q[n++] = (h.pos[3] - h.pos[2]) / std::fabs(h.pos[3]);  // z <= w
  }
  bool ambiguous = false;
  for (int i = 0; i < n; ++i) {
    if (q[i] < -margin) return Expect::Outside;
    if (q[i] <= margin) ambiguous = true;
  }
  return ambiguous ? Expect::Ambiguous : Expect::Inside;
}

// Screen-space barycentrics of (px, py)'s centre in the triangle with framebuffer vertices
// (x_i, y_i): area ratios ("Basic Polygon Rasterization").
inline void screenBary(const double x[3], const double y[3], double px, double py, double out[3]) {
  auto area = [](double ax, double ay, double bx, double by, double cx, double cy) {
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
  };
  const double total = area(x[0], y[0], x[1], y[1], x[2], y[2]);
  out[0] = area(px, py, x[1], y[1], x[2], y[2]) / total;
  out[1] = area(x[0], y[0], px, py, x[2], y[2]) / total;
  out[2] = area(x[0], y[0], x[1], y[1], px, py) / total;
}

// Screen-space oracle for a clip-space triangle whose vertices all have w > 0 (its projection
// is an ordinary triangle): inside iff the pixel centre is more than `margin` pixels inside
// every projected edge and inside the viewport and scissor; ambiguous within `margin`.
inline Expect projectedOracle(const ClipTriangle& t, const RasterState& s, int px, int py, double margin = 0.01) {
  const Viewport& vp = s.viewport;
  const double cx = px + 0.5, cy = py + 0.5;
  const double vx0 = std::fmin(vp.x, vp.x + vp.width), vx1 = std::fmax(vp.x, vp.x + vp.width);
  const double vy0 = std::fmin(vp.y, vp.y + vp.height), vy1 = std::fmax(vp.y, vp.y + vp.height);
  if (cx < vx0 || cx >= vx1 || cy < vy0 || cy >= vy1) return Expect::Outside;
  if (px < s.scissor.x0 || px >= s.scissor.x1 || py < s.scissor.y0 || py >= s.scissor.y1) return Expect::Outside;
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = vp.x + vp.width / 2.0 * (1 + double(t.position[i][0]) / t.position[i][3]);
    y[i] = vp.y + vp.height / 2.0 * (1 + double(t.position[i][1]) / t.position[i][3]);
  }
  const double orient = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
  bool ambiguous = false;
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    const double ex = x[j] - x[i], ey = y[j] - y[i];
    const double dist = (ex * (cy - y[i]) - ey * (cx - x[i])) / std::hypot(ex, ey) * (orient > 0 ? 1 : -1);
    if (dist < -margin) return Expect::Outside;
    if (dist <= margin) ambiguous = true;
  }
  return ambiguous ? Expect::Ambiguous : Expect::Inside;
}

// ---- Points and lines.

// The clip position of a vertex given in framebuffer coordinates (as clipFromWindow).
inline void clipFromWindow(const Viewport& vp, const WindowVertex& v, float out[4]) {
  out[0] = float((v.x - (vp.x + vp.width / 2.0)) / (vp.width / 2.0) * v.w);
  out[1] = float((v.y - (vp.y + vp.height / 2.0)) / (vp.height / 2.0) * v.w);
  out[2] = float(v.zd * v.w);
  out[3] = float(v.w);
}

inline ClipLine lineFromWindow(const Viewport& vp, const WindowVertex& a, const WindowVertex& b) {
  ClipLine l;
  clipFromWindow(vp, a, l.position[0]);
  clipFromWindow(vp, b, l.position[1]);
  return l;
}

// Adds one emitted quad to `r` (as rasterizeInto does for triangles).
inline void collect(const Quad& q, Raster& r) {
  r.quads.push_back(q);
  for (int slot = 0; slot < 4; ++slot) {
    if (!(q.coverage & (1u << slot))) continue;
    const std::pair<int, int> p{q.x + (slot & 1), q.y + (slot >> 1)};
    ++r.count[p];
    r.fragment[p] = {q.coverage, slot, q};
  }
}

inline Raster rasterizeLines(const std::vector<ClipLine>& lines, const RasterState& s, const Rect& tile) {
  Raster r;
  for (const ClipLine& l : lines) {
    std::vector<SetupLine> setups;
    setupLine(l, s, setups);
    for (const SetupLine& sl : setups) rasterizeLine(sl, tile, [&](const Quad& q) { collect(q, r); });
  }
  return r;
}

// Coverage oracle for a width-1 non-strict line with endpoints in 1/256 pixel ("Basic Line
// Segment Rasterization", strictLines false): the parallelogram whose edges 2 and 3 lie along
// the minor axis, one pixel long and centred on the endpoints (x is the major axis when
// |dx| >= |dy|), split along a diagonal into two triangles; the sample at (sx, sy) (1/256
// pixel) is covered when the perturbed-point oracle puts it in either triangle (the polygon
// tie-breaking rule).
// `halfWidth` (1/256 pixel): half the line width, for wide lines ("Wide Lines": the minor-axis
// edges are lineWidth long).
inline bool oracleLineCoversAt(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t sx, int64_t sy,
                               int64_t halfWidth = 128) {
  const bool xMajor = std::llabs(bx - ax) >= std::llabs(by - ay);
  const int64_t mx = xMajor ? 0 : halfWidth, my = xMajor ? halfWidth : 0;
  const int64_t cx[4] = {ax - mx, bx - mx, bx + mx, ax + mx}, cy[4] = {ay - my, by - my, by + my, ay + my};
  const int64_t t1x[3] = {cx[0], cx[1], cx[2]}, t1y[3] = {cy[0], cy[1], cy[2]};
  const int64_t t2x[3] = {cx[0], cx[2], cx[3]}, t2y[3] = {cy[0], cy[2], cy[3]};
  return oracleCoversAt(t1x, t1y, sx, sy) || oracleCoversAt(t2x, t2y, sx, sy);
}

// The same at the centre of pixel (px, py).
inline bool oracleLineCovers(int64_t ax, int64_t ay, int64_t bx, int64_t by, int px, int py, int64_t halfWidth = 128) {
  return oracleLineCoversAt(ax, ay, bx, by, int64_t(px) * 256 + 128, int64_t(py) * 256 + 128, halfWidth);
}

}  // namespace tessera::raster::test
