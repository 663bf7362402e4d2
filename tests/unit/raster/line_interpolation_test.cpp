// Interpolation along lines ("Basic Line Segment Rasterization": t of the fragment centre along
// the segment, perspective interpolation for outputs and w, linear interpolation for depth),
// through clipping ("Primitive Clipping", "Clipping Shader Outputs") and "Depth Clamping and
// Range Adjustment". The oracle does not use the spec's perspective formula: it finds, by
// bisection, the clip-space point of the ORIGINAL segment whose projection lies at the pixel
// centre's orthogonal projection onto the projected segment, and compares weights, 1/w and depth
// with that point's.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

struct LinePoint {
  double s;  // clip-space parameter: P = (1 - s) V_0 + s V_1 (perspective weights)
  double u;  // framebuffer parameter along the projected segment (NoPerspective weights)
  double w, z;  // the point's clip w and framebuffer depth
};

void project(const Viewport& vp, const double p[4], double& x, double& y) {
  x = vp.x + vp.width / 2.0 * (1 + p[0] / p[3]);
  y = vp.y + vp.height / 2.0 * (1 + p[1] / p[3]);
}

LinePoint oracle(const ClipLine& l, const Viewport& vp, double cx, double cy) {
  double v[2][4], ax, ay, bx, by;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) v[i][k] = l.position[i][k];
  project(vp, v[0], ax, ay);
  project(vp, v[1], bx, by);
  const double len2 = (bx - ax) * (bx - ax) + (by - ay) * (by - ay);
  auto param = [&](double px, double py) { return ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / len2; };
  auto at = [&](double s, double p[4]) {
    for (int k = 0; k < 4; ++k) p[k] = (1 - s) * v[0][k] + s * v[1][k];
  };
  LinePoint r;
  r.u = param(cx, cy);
  double lo = -0.2, hi = 1.2;  // w stays > 0 there in these tests; param is increasing in s
  for (int it = 0; it < 80; ++it) {
    const double mid = (lo + hi) / 2;
    double p[4], px, py;
    at(mid, p);
    project(vp, p, px, py);
    (param(px, py) < r.u ? lo : hi) = mid;
  }
  double p[4];
  r.s = (lo + hi) / 2;
  at(r.s, p);
  r.w = p[3];
  r.z = vp.minDepth + (double{vp.maxDepth} - vp.minDepth) * p[2] / p[3];
  return r;
}

// Checks every pixel of every emitted quad, helpers included (they need weights for derivatives).
void expectMatchesOracle(const ClipLine& l, const RasterState& s, const test::Raster& r, double tol) {
  ASSERT_FALSE(r.quads.empty());
  for (const Quad& q : r.quads) {
    for (int p = 0; p < 4; ++p) {
      const LinePoint e = oracle(l, s.viewport, q.x + (p & 1) + 0.5, q.y + (p >> 1) + 0.5);
      const std::string at = std::to_string(q.x + (p & 1)) + "," + std::to_string(q.y + (p >> 1));
      EXPECT_NEAR(q.baryPersp[p][0], 1 - e.s, tol) << at;
      EXPECT_NEAR(q.baryPersp[p][1], e.s, tol) << at;
      EXPECT_NEAR(q.baryLinear[p][0], 1 - e.u, tol) << at;
      EXPECT_NEAR(q.baryLinear[p][1], e.u, tol) << at;
      EXPECT_EQ(q.baryPersp[p][2], 0.0f);
      EXPECT_EQ(q.baryLinear[p][2], 0.0f);
      EXPECT_NEAR(q.invW[p], 1 / e.w, tol) << at;
      if (q.coverage & (1u << p)) {
        EXPECT_NEAR(q.z[p], e.z, tol) << at;
      }
    }
  }
}

TEST(RasterLineInterpolation, BasicLineSegmentRasterization_PerspectiveWeightsAndDepth) {
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.25f;
  s.viewport.maxDepth = 0.75f;
  // w from 1 to 4: perspective weights differ from the linear ones by up to ~0.3 mid-line.
  const ClipLine l = test::lineFromWindow(s.viewport, {2.5, 3.5, 0.1, 1}, {29.25, 20.5, 0.9, 4});
  const test::Raster r = test::rasterizeLines({l}, s, s.scissor);
  EXPECT_EQ(r.count.size(), 27u) << "x-major from x = 2.5 to 29.25: columns 2..28";
  expectMatchesOracle(l, s, r, 2e-4);
  const LinePoint mid = oracle(l, s.viewport, 16.5, 12.5);
  EXPECT_GT(mid.u - mid.s, 0.25) << "the test must tell perspective from linear weights";
}

TEST(RasterLineInterpolation, PrimitiveClipping_LineCrossingTheNearPlane) {
  const RasterState s = test::fullScreenState(32, 32);
  // z_c from 0.5 (w = 1) to -1 (w = 2): z_c = 0 at s = 1/3, where w = 4/3. That point's
  // framebuffer weights of the endpoints are (2/3 * 1, 1/3 * 2) / (4/3) = (1/2, 1/2): it projects
  // half-way between (4.5, 4.5) and (28.5, 20.5), at (16.5, 12.5).
  const ClipLine l = test::lineFromWindow(s.viewport, {4.5, 4.5, 0.5, 1}, {28.5, 20.5, -0.5, 2});
  std::vector<SetupLine> setups;
  ASSERT_EQ(setupLine(l, s, setups), 1u);
  const SetupLine& sl = setups[0];
  EXPECT_FLOAT_EQ(sl.clipBary[0][0], 1);
  EXPECT_FLOAT_EQ(sl.clipBary[0][1], 0);
  EXPECT_NEAR(sl.clipBary[1][0], 2.0 / 3, 1e-6);
  EXPECT_NEAR(sl.clipBary[1][1], 1.0 / 3, 1e-6);
  EXPECT_NEAR(sl.windowBary[1][0], 0.5, 1e-6);
  EXPECT_NEAR(sl.windowBary[1][1], 0.5, 1e-6);
  EXPECT_NEAR(sl.x[1], 16.5, 1.0 / 256);
  EXPECT_NEAR(sl.y[1], 12.5, 1.0 / 256);
  EXPECT_NEAR(sl.z[1], 0.0, 1e-6);
  EXPECT_NEAR(sl.invW[1], 0.75, 1e-6);

  const test::Raster r = test::rasterizeLines({l}, s, s.scissor);
  EXPECT_EQ(r.count.size(), 12u) << "columns 4..15: the part with z >= 0";
  expectMatchesOracle(l, s, r, 2e-4);
  for (const auto& [p, f] : r.fragment) EXPECT_GE(f.quad.z[f.slot], 0.0f);
}

TEST(RasterLineInterpolation, DepthClampingAndRangeAdjustment) {
  // z_d from -0.5 to 1.5 along row 8, w = 1; viewport depth [0.25, 0.75]. At pixel x the centre
  // is at u = x / 30, z_d = -0.5 + 2u, and z_f = 0.25 + 0.5 z_d.
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.25f;
  s.viewport.maxDepth = 0.75f;
  const ClipLine l = test::lineFromWindow(s.viewport, {0.5, 8.5, -0.5, 1}, {30.5, 8.5, 1.5, 1});
  auto zf = [](int x) { return 0.25 + 0.5 * (-0.5 + 2 * (x / 30.0)); };

  // Depth clipping: only 0 <= z_d <= 1, i.e. u in [1/4, 3/4], x in [8, 23): pixels 8..22.
  const test::Raster clipped = test::rasterizeLines({l}, s, s.scissor);
  ASSERT_EQ(clipped.count.size(), 15u);
  for (const auto& [p, f] : clipped.fragment) {
    EXPECT_GE(p.first, 8);
    EXPECT_LE(p.first, 22);
    EXPECT_NEAR(f.quad.z[f.slot], zf(p.first), 1e-6) << p.first;
    EXPECT_NEAR(f.quad.baryLinear[f.slot][1], p.first / 30.0, 1e-6) << p.first;
  }

  // depthClampEnable: no z clipping; each fragment's depth is clamped to the viewport's range.
  s.depthClampEnable = true;
  const test::Raster clamped = test::rasterizeLines({l}, s, s.scissor);
  ASSERT_EQ(clamped.count.size(), 30u);
  for (const auto& [p, f] : clamped.fragment)
    EXPECT_NEAR(f.quad.z[f.slot], std::clamp(zf(p.first), 0.25, 0.75), 1e-6) << p.first;
  EXPECT_NEAR(clamped.fragment.at({15, 8}).quad.z[clamped.fragment.at({15, 8}).slot], 0.5, 1e-6);
}

}  // namespace
}  // namespace tessera::raster
