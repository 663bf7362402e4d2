// 4x multisample rasterization: coverage per sample at the standard sample locations
// ("Multisampling", standard sample locations for VK_SAMPLE_COUNT_4_BIT: (0.375, 0.125),
// (0.875, 0.375), (0.125, 0.625), (0.625, 0.875)), with the edge functions and tie-breaking
// rule of "Basic Polygon Rasterization"; the depth at each sample ("Depth Bias", "Depth
// Clamping and Range Adjustment"); the Centroid location's weights ("Interpolation
// Decorations"); points ("Basic Point Rasterization") and non-strict lines ("Basic Line Segment
// Rasterization") sampled the same way. Expectations are worked out by hand in the comments or
// come from the exact oracles of raster_test_support.h evaluated at the sample locations; the
// randomized checks against those oracles, for 4 samples as for 2, 8 and 16, are in
// sample_counts_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cmath>
#include <map>
#include <random>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

RasterState msaaState(int width, int height) {
  RasterState s = test::fullScreenState(width, height);
  s.samples = 4;
  return s;
}

// What rasterizeTriangle emitted, per pixel: the sample mask (OR over every quad) and the last
// fragment.
struct SampleRaster {
  std::map<std::pair<int, int>, uint32_t> mask;
  std::map<std::pair<int, int>, test::Fragment> fragment;
  std::vector<Quad> quads;
};

void collectSamples(const Quad& q, SampleRaster& r) {
  r.quads.push_back(q);
  for (int slot = 0; slot < 4; ++slot) {
    const std::pair<int, int> p{q.x + (slot & 1), q.y + (slot >> 1)};
    // The pixel's coverage bit is exactly "some sample covered".
    EXPECT_EQ((q.coverage >> slot & 1) != 0, q.sampleCoverage[slot] != 0) << p.first << "," << p.second;
    if (q.sampleCoverage[slot] == 0) continue;
    r.mask[p] |= q.sampleCoverage[slot];
    r.fragment[p] = {q.coverage, slot, q};
  }
}

SampleRaster drawTriangles(const RasterState& s, const std::vector<std::array<WindowVertex, 3>>& tris,
                           std::vector<SetupTriangle>* setupsOut = nullptr) {
  std::vector<SetupTriangle> setups;
  for (const auto& t : tris) {
    const WindowVertex v[3] = {t[0], t[1], t[2]};
    setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
  }
  SampleRaster r;
  for (const SetupTriangle& t : setups) rasterizeTriangle(t, s.scissor, [&](const Quad& q) { collectSamples(q, r); });
  if (setupsOut) *setupsOut = setups;
  return r;
}

uint32_t maskAt(const SampleRaster& r, int x, int y) {
  const auto it = r.mask.find({x, y});
  return it == r.mask.end() ? 0 : it->second;
}

// ---- Triangles: coverage.

TEST(RasterMultisample, Multisampling_EdgeBetweenSamplesGivesPartialCoverage) {
  // A vertical edge at x = 0.25 with the triangle to its left (third vertex at x = -6): in
  // column 0 only sample 2 (x = 0.125) lies left of it; samples 0, 1, 3 (x = 0.375, 0.875,
  // 0.625) and the centre (0.5) do not. So every pixel of column 0 has sampleCoverage 0b0100,
  // even though the triangle's bounding box (x <= 0.25) holds no pixel centre: the bounds must
  // take in pixels by their samples. The edge spans y in [-2, 10], the viewport 8 rows.
  const RasterState s = msaaState(8, 8);
  std::vector<SetupTriangle> setups;
  const SampleRaster r = drawTriangles(s, {{{{0.25, -2, 0.5, 1}, {0.25, 10, 0.5, 1}, {-6, 4, 0.5, 1}}}}, &setups);
  ASSERT_EQ(setups.size(), 1u);
  EXPECT_EQ(setups[0].samples, 4u);
  EXPECT_EQ(setups[0].bounds.x0, 0);
  EXPECT_EQ(setups[0].bounds.x1, 1);
  EXPECT_EQ(r.mask.size(), 8u);
  for (int y = 0; y < 8; ++y) EXPECT_EQ(maskAt(r, 0, y), 0b0100u) << "row " << y;

  // With one sample the same triangle covers nothing: no pixel centre is inside.
  RasterState one = s;
  one.samples = 1;
  const SampleRaster r1 = drawTriangles(one, {{{{0.25, -2, 0.5, 1}, {0.25, 10, 0.5, 1}, {-6, 4, 0.5, 1}}}});
  EXPECT_TRUE(r1.mask.empty());
}

TEST(RasterMultisample, BasicPolygonRasterization_TieBreakAtASampleOnASharedEdge) {
  // Two triangles sharing the vertical edge x = 0.375, which passes exactly through sample 0
  // of column 0 (x = 96/256). The tie-breaking rule gives a sample on an edge to the triangle
  // whose interior lies to its right (+x): the right triangle covers samples 0, 1, 3
  // (x = 0.375, 0.875, 0.625) = 0b1011, the left one sample 2 (x = 0.125) = 0b0100. Together
  // every sample once. Also at the pixel centre (single sample, x = 0.5) only the right one.
  const RasterState s = msaaState(4, 4);
  const WindowVertex top{0.375, -4, 0.5, 1}, bottom{0.375, 8, 0.5, 1};
  const std::array<WindowVertex, 3> right{{top, bottom, {8, 2, 0.5, 1}}}, left{{top, {-8, 2, 0.5, 1}, bottom}};
  const SampleRaster rr = drawTriangles(s, {right}), rl = drawTriangles(s, {left});
  for (int y = 0; y < 4; ++y) {
    EXPECT_EQ(maskAt(rr, 0, y), 0b1011u) << "row " << y;
    EXPECT_EQ(maskAt(rl, 0, y), 0b0100u) << "row " << y;
    for (int x = 1; x < 4; ++x) {
      EXPECT_EQ(maskAt(rr, x, y), 0b1111u);
      EXPECT_EQ(maskAt(rl, x, y), 0u);
    }
  }
}

TEST(RasterMultisample, TilesPartitionTheSamples) {
  // Rasterizing tile by tile (as the draw loop does) gives the same samples as one call.
  std::mt19937 rng(13);
  const RasterState s = msaaState(64, 48);
  for (int n = 0; n < 40; ++n) {
    WindowVertex v[3];
    for (auto& p : v)
      p = {std::uniform_real_distribution<double>(-8, 72)(rng), std::uniform_real_distribution<double>(-8, 56)(rng), 0.5, 1};
    std::vector<SetupTriangle> setups;
    setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
    SampleRaster whole, tiled;
    for (const SetupTriangle& t : setups) rasterizeTriangle(t, s.scissor, [&](const Quad& q) { collectSamples(q, whole); });
    for (int ty = 0; ty < 48; ty += 16)
      for (int tx = 0; tx < 64; tx += 16)
        for (const SetupTriangle& t : setups)
          rasterizeTriangle(t, {tx, ty, tx + 16, ty + 16}, [&](const Quad& q) { collectSamples(q, tiled); });
    EXPECT_EQ(whole.mask, tiled.mask) << n;
  }
}

// ---- Triangles: depth and centroid.

TEST(RasterMultisample, DepthBias_SampleDepthIsThePlaneAtTheSample) {
  // Window depth z = x / 16 over (0, 0), (16, 0), (0, 16) ("depth values for triangles must be
  // determined using linear interpolation"), plus a constant bias of 4 r with r = 2^-16 for
  // D16_UNORM ("Depth Bias Computation"): 2^-14. Pixel (2, 3): the samples' x are 2.375,
  // 2.875, 2.125, 2.625, so sampleZ = x / 16 + 2^-14; the centre (2.5) gives z.
  RasterState s = msaaState(16, 16);
  s.depthBiasEnable = true;
  s.depthBiasConstantFactor = 4;
  s.depthFormat = VK_FORMAT_D16_UNORM;
  const SampleRaster r = drawTriangles(s, {{{{0, 0, 0, 1}, {16, 0, 1, 1}, {0, 16, 0, 1}}}});
  const test::Fragment& f = r.fragment.at({2, 3});
  const double bias = 1.0 / 16384;
  const double expected[4] = {2.375 / 16 + bias, 2.875 / 16 + bias, 2.125 / 16 + bias, 2.625 / 16 + bias};
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(f.quad.sampleZ[f.slot][k], expected[k], 1e-7) << "sample " << k;
  EXPECT_NEAR(f.quad.z[f.slot], 2.5 / 16 + bias, 1e-7);
}

TEST(RasterMultisample, DepthClamping_EachSampleIsClampedOnItsOwn) {
  // With depthClampEnable, z = (x - 2.5) / 4 over (0, 0), (16, 0), (0, 16) (vertex depths
  // -0.625, 3.375, -0.625 are kept, not clipped) and fragment depth clamped to the viewport's
  // [0, 1] ("Depth Clamping and Range Adjustment"). Pixel (2, 3): samples at x = 2.375 (-1/32
  // -> 0), 2.875 (3/32), 2.125 (-3/32 -> 0), 2.625 (1/32); the centre is exactly 0.
  RasterState s = msaaState(16, 16);
  s.depthClampEnable = true;
  const SampleRaster r = drawTriangles(s, {{{{0, 0, -0.625, 1}, {16, 0, 3.375, 1}, {0, 16, -0.625, 1}}}});
  const test::Fragment& f = r.fragment.at({2, 3});
  const float expected[4] = {0.0f, 0.09375f, 0.0f, 0.03125f};
  for (int k = 0; k < 4; ++k) EXPECT_NEAR(f.quad.sampleZ[f.slot][k], expected[k], 1e-7) << "sample " << k;
  EXPECT_NEAR(f.quad.z[f.slot], 0.0f, 1e-7);
}

TEST(RasterMultisample, InterpolationDecorations_CentroidOfAPartlyCoveredPixel) {
  // Triangle A = (0.375, 0) w 1, B = (0.375, 8) w 2, C = (8.375, 0) w 4. Pixel (0, 0): sample
  // 0 (0.375, 0.125) lies on the left edge AB (covered: interior to its right) and inside the
  // top edge y = 0; samples 1 (0.875, 0.375) and 3 (0.625, 0.875) are inside; sample 2
  // (0.125, 0.625) is left of AB. Coverage 0b1011: the centroid is sample 0, on AB at 1/64 of
  // the way from A to B: window weights (63/64, 1/64, 0); perspective weights
  // (a_k / w_k) / sum = (63/64, 1/128, 0) / (127/128) = (126/127, 1/127, 0).
  const RasterState s = msaaState(16, 16);
  const SampleRaster r = drawTriangles(s, {{{{0.375, 0, 0.5, 1}, {0.375, 8, 0.5, 2}, {8.375, 0, 0.5, 4}}}});
  const test::Fragment& f = r.fragment.at({0, 0});
  EXPECT_EQ(f.quad.sampleCoverage[f.slot], 0b1011u);
  const double lin[3] = {63.0 / 64, 1.0 / 64, 0}, persp[3] = {126.0 / 127, 1.0 / 127, 0};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(f.quad.centroidLinear[f.slot][i], lin[i], 1e-6) << i;
    EXPECT_NEAR(f.quad.centroidPersp[f.slot][i], persp[i], 1e-6) << i;
  }
  // The centre (0.5, 0.5) has different weights: the centroid is not the centre here.
  EXPECT_GT(std::fabs(f.quad.baryLinear[f.slot][2] - f.quad.centroidLinear[f.slot][2]), 0.01);

  // A fully covered pixel (4, 2): the centroid is the centre.
  const test::Fragment& g = r.fragment.at({4, 2});
  EXPECT_EQ(g.quad.sampleCoverage[g.slot], 0b1111u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(g.quad.centroidLinear[g.slot][i], g.quad.baryLinear[g.slot][i]);
    EXPECT_EQ(g.quad.centroidPersp[g.slot][i], g.quad.baryPersp[g.slot][i]);
  }
}

TEST(RasterMultisample, Multisampling_OneSampleFillsTheNewFieldsFromTheCentre) {
  // samples == 1: sampleCoverage is the coverage bit, sampleZ's one sample is z, and the centroid is
  // the centre, for covered and helper pixels alike.
  std::mt19937 rng(3);
  const RasterState s = test::fullScreenState(32, 32);
  for (int n = 0; n < 30; ++n) {
    WindowVertex v[3];
    for (auto& p : v)
      p = {std::uniform_real_distribution<double>(-4, 36)(rng), std::uniform_real_distribution<double>(-4, 36)(rng),
           std::uniform_real_distribution<double>(0, 1)(rng), std::uniform_real_distribution<double>(0.5, 3)(rng)};
    const SampleRaster r = drawTriangles(s, {{v[0], v[1], v[2]}});
    for (const Quad& q : r.quads) {
      for (int slot = 0; slot < 4; ++slot) {
        EXPECT_EQ(q.sampleCoverage[slot], q.coverage >> slot & 1);
        EXPECT_EQ(q.sampleZ[slot][0], q.z[slot]);
        for (int i = 0; i < 3; ++i) {
          EXPECT_EQ(q.centroidPersp[slot][i], q.baryPersp[slot][i]);
          EXPECT_EQ(q.centroidLinear[slot][i], q.baryLinear[slot][i]);
        }
      }
    }
  }
}

// ---- Points.

TEST(RasterMultisample, BasicPointRasterization_PointOnAPixelCornerSplitsItsSamples) {
  // A 1x1 point at (1, 1) covers [0.5, 1.5) x [0.5, 1.5). One sample from each of the four
  // pixels around the corner lies in it: pixel (0, 0) sample 3 (0.625, 0.875); pixel (1, 0)
  // sample 2 (1.125, 0.625); pixel (0, 1) sample 1 (0.875, 1.375); pixel (1, 1) sample 0
  // (1.375, 1.125). Every other sample is outside (e.g. (0, 0) sample 1 at y = 0.375 < 0.5).
  // With one sample only pixel (0, 0) is covered (its centre on the square's top-left corner).
  RasterState s = msaaState(8, 8);
  float pos[4];
  test::clipFromWindow(s.viewport, {1, 1, 0.25, 1}, pos);
  SetupPoint sp;
  ASSERT_TRUE(setupPoint(pos, 1, s, &sp));
  EXPECT_EQ(sp.samples, 4u);
  EXPECT_EQ(sp.bounds.x0, 0);
  EXPECT_EQ(sp.bounds.y0, 0);
  EXPECT_EQ(sp.bounds.x1, 2);
  EXPECT_EQ(sp.bounds.y1, 2);
  SampleRaster r;
  rasterizePoint(sp, s.scissor, [&](const Quad& q) { collectSamples(q, r); });
  EXPECT_EQ(maskAt(r, 0, 0), 0b1000u);
  EXPECT_EQ(maskAt(r, 1, 0), 0b0100u);
  EXPECT_EQ(maskAt(r, 0, 1), 0b0010u);
  EXPECT_EQ(maskAt(r, 1, 1), 0b0001u);
  EXPECT_EQ(r.mask.size(), 4u);
  ASSERT_EQ(r.quads.size(), 1u);
  const Quad& q = r.quads[0];
  for (int slot = 0; slot < 4; ++slot) {
    for (int k = 0; k < 4; ++k) EXPECT_EQ(q.sampleZ[slot][k], 0.25f);
    EXPECT_EQ(q.centroidPersp[slot][0], 1.0f);
    EXPECT_EQ(q.centroidLinear[slot][0], 1.0f);
    EXPECT_EQ(q.centroidPersp[slot][1], 0.0f);
    EXPECT_EQ(q.centroidLinear[slot][2], 0.0f);
  }
  // PointCoord stays at the pixel centre: pixel (0, 0) centre 0.5 -> 0.5 + (0.5 - 1) / 1 = 0.
  EXPECT_EQ(q.pointCoord[0][0], 0.0f);
  EXPECT_EQ(q.pointCoord[3][1], 1.0f);

  s.samples = 1;
  ASSERT_TRUE(setupPoint(pos, 1, s, &sp));
  SampleRaster r1;
  rasterizePoint(sp, s.scissor, [&](const Quad& qq) { collectSamples(qq, r1); });
  EXPECT_EQ(r1.mask.size(), 1u);
  EXPECT_EQ(maskAt(r1, 0, 0), 1u);
}

// ---- Lines.

TEST(RasterMultisample, BasicLineSegmentRasterization_HorizontalLineCoversSomeSamples) {
  // The x-major line (0.5, 1) - (4.5, 1), width 1: the parallelogram [0.5, 4.5] x [0.5, 1.5],
  // its top and left edges inclusive, bottom and right exclusive. Row 0 holds samples 2 and 3
  // (y = 0.625, 0.875), row 1 samples 0 and 1 (y = 1.125, 1.375). In x: pixel 0 keeps those at
  // x >= 0.5 (sample 3 at 0.625 in row 0, sample 1 at 0.875 in row 1), pixel 4 those below
  // 4.5 (sample 2 at 4.125, sample 0 at 4.375). With one sample row 0 is covered (centres on
  // the top edge) and row 1 is not (centres on the bottom edge), pixels 0..3.
  RasterState s = msaaState(8, 8);
  std::vector<SetupLine> setups;
  ASSERT_EQ(setupLine(test::lineFromWindow(s.viewport, {0.5, 1, 0, 1}, {4.5, 1, 1, 1}), s, setups), 1u);
  EXPECT_EQ(setups[0].samples, 4u);
  SampleRaster r;
  rasterizeLine(setups[0], s.scissor, [&](const Quad& q) { collectSamples(q, r); });
  const uint32_t row0[5] = {0b1000, 0b1100, 0b1100, 0b1100, 0b0100};
  const uint32_t row1[5] = {0b0010, 0b0011, 0b0011, 0b0011, 0b0001};
  for (int x = 0; x < 5; ++x) {
    EXPECT_EQ(maskAt(r, x, 0), row0[x]) << x;
    EXPECT_EQ(maskAt(r, x, 1), row1[x]) << x;
  }
  EXPECT_EQ(r.mask.size(), 10u);

  // Depth along the segment, z = t = (x - 0.5) / 4 at each sample: pixel (2, 1) sample 0 at
  // x = 2.375 -> 0.46875, sample 1 at 2.875 -> 0.59375.
  const test::Fragment& f = r.fragment.at({2, 1});
  EXPECT_NEAR(f.quad.sampleZ[f.slot][0], 0.46875, 1e-7);
  EXPECT_NEAR(f.quad.sampleZ[f.slot][1], 0.59375, 1e-7);
  // Centroid of pixel (2, 0) (samples 2 and 3): sample 2 at x = 2.125, t = 0.40625: weights
  // (0.59375, 0.40625, 0), the same in both spaces as w = 1.
  const test::Fragment& g = r.fragment.at({2, 0});
  const double w[3] = {0.59375, 0.40625, 0};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(g.quad.centroidLinear[g.slot][i], w[i], 1e-7) << i;
    EXPECT_NEAR(g.quad.centroidPersp[g.slot][i], w[i], 1e-7) << i;
  }

  s.samples = 1;
  setups.clear();
  ASSERT_EQ(setupLine(test::lineFromWindow(s.viewport, {0.5, 1, 0, 1}, {4.5, 1, 1, 1}), s, setups), 1u);
  SampleRaster r1;
  rasterizeLine(setups[0], s.scissor, [&](const Quad& q) { collectSamples(q, r1); });
  EXPECT_EQ(r1.mask.size(), 4u);
  for (int x = 0; x < 4; ++x) EXPECT_EQ(maskAt(r1, x, 0), 1u) << x;
}

}  // namespace
}  // namespace tessera::raster
