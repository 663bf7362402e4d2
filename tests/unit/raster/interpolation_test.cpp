// "Basic Polygon Rasterization": perspective interpolation
// f = (a f_a/w_a + b f_b/w_b + c f_c/w_c) / (a/w_a + b/w_b + c/w_c), linear interpolation of
// depth and NoPerspective data, and "Clipping Shader Outputs": clipped vertices' outputs are
// interpolated in clip space (perspective-correct), NoPerspective ones "adjusted to produce
// results that vary linearly in framebuffer space".
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "pixel_weights.h"
#include "raster_test_support.h"

namespace tessera::raster {
namespace {

ClipTriangle tri(std::initializer_list<std::initializer_list<float>> v) {
  ClipTriangle t{};
  int i = 0;
  for (const auto& p : v) {
    int k = 0;
    for (float c : p) t.position[i][k++] = c;
    ++i;
  }
  return t;
}

// Perspective weights, 1/w and depth of every covered pixel against the ray/plane oracle.
// `tolerance` covers sub-pixel snapping: the rasterized triangle is the snapped one, the oracle
// uses the exact geometry (1/512 pixel over a ~20-pixel triangle moves weights by ~1e-4).
void expectPerspectiveMatchesRay(const ClipTriangle& t, const RasterState& s, double tolerance, double zTolerance) {
  const test::Raster r = test::rasterize(t, s, s.scissor);
  ASSERT_GT(r.fragment.size(), 50u);
  for (const auto& [p, f] : r.fragment) {
    const test::RayHit h = test::hitAtPixel(t, s.viewport, p.first, p.second);
    ASSERT_TRUE(h.valid);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(f.quad.baryPersp[f.slot][i], h.b[i], tolerance) << p.first << "," << p.second;
    EXPECT_NEAR(f.quad.invW[f.slot], 1.0 / h.pos[3], tolerance * std::fabs(1.0 / h.pos[3]));
    const double zf = s.viewport.minDepth + (s.viewport.maxDepth - s.viewport.minDepth) * h.pos[2] / h.pos[3];
    EXPECT_NEAR(f.quad.z[f.slot], zf, zTolerance);
  }
}

TEST(RasterInterpolation, BasicPolygonRasterization_PerspectiveWeights) {
  RasterState s = test::fullScreenState(48, 48);
  s.viewport.minDepth = 0.25f;
  s.viewport.maxDepth = 0.75f;
  // Vertices project onto the 1/256 grid (x_f = 24 + 24 x_c/w_c with x_c/w_c = k/96), so
  // snapping is exact and the weights match to single precision.
  const test::WindowVertex v[3] = {{3.0, 4.5, 0.1, 1}, {44.25, 7.75, 0.8, 3}, {20.5, 45.0, 0.875, 4}};
  expectPerspectiveMatchesRay(test::clipFromWindow(s.viewport, v), s, 1e-5, 1e-6);
}

TEST(RasterInterpolation, ClippingShaderOutputs_PerspectiveWeightsAfterNearClipping) {
  // Clipped at the near plane and at w > 0: the weights still belong to the original vertices
  // and are exactly the perspective-correct ones of the unclipped triangle.
  RasterState s = test::fullScreenState(48, 48);
  expectPerspectiveMatchesRay(tri({{-0.8f, -0.7f, 0.6f, 1}, {0.7f, -0.8f, 0.9f, 1.2f}, {0.05f, 0.08f, -0.3f, 0.1f}}), s, 5e-4, 3e-4);
  expectPerspectiveMatchesRay(tri({{-0.6f, -0.5f, 0.5f, 1}, {0.6f, -0.6f, 0.5f, 1}, {0.4f, 1.2f, -1.5f, -1}}), s, 5e-4, 3e-4);
}

TEST(RasterInterpolation, BasicPolygonRasterization_LinearWeightsAndDepth) {
  // Unclipped: NoPerspective weights are the framebuffer-space barycentrics, depth the linear
  // interpolation of the vertices' z_f.
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.25f;
  s.viewport.maxDepth = 0.75f;
  const double x[3] = {1.5, 30.25, 12.75}, y[3] = {3.0, 9.5, 30.0}, zd[3] = {0.0, 1.0, 0.5}, w[3] = {2, 0.5, 1};
  test::WindowVertex v[3];
  for (int i = 0; i < 3; ++i) v[i] = {x[i], y[i], zd[i], w[i]};
  const test::Raster r = test::rasterize(test::clipFromWindow(s.viewport, v), s, s.scissor);
  ASSERT_GT(r.fragment.size(), 100u);
  for (const auto& [p, f] : r.fragment) {
    double a[3];
    test::screenBary(x, y, p.first + 0.5, p.second + 0.5, a);
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(f.quad.baryLinear[f.slot][i], a[i], 1e-5);
    EXPECT_NEAR(f.quad.z[f.slot], 0.25 + 0.5 * (a[0] * zd[0] + a[1] * zd[1] + a[2] * zd[2]), 1e-6);
  }
}

TEST(RasterInterpolation, ClippingShaderOutputs_NoPerspectiveAcrossGuardBandClipping) {
  // All w > 0 and one vertex far outside (clipped against the guard band): NoPerspective
  // weights are the screen-space barycentrics of the whole projected (unclipped) triangle.
  RasterState s = test::fullScreenState(32, 32);
  const ClipTriangle t = tri({{-0.5f, -0.5f, 0.5f, 1}, {2e6f, 1e6f, 0.5f, 2}, {-0.4f, 0.6f, 0.5f, 0.5f}});
  double x[3], y[3];
  for (int i = 0; i < 3; ++i) {
    x[i] = 16 + 16.0 * t.position[i][0] / t.position[i][3];
    y[i] = 16 + 16.0 * t.position[i][1] / t.position[i][3];
  }
  const test::Raster r = test::rasterize(t, s, s.scissor);
  ASSERT_GT(r.fragment.size(), 100u);
  for (const auto& [p, f] : r.fragment) {
    double a[3];
    test::screenBary(x, y, p.first + 0.5, p.second + 0.5, a);
    // 1e-4: the two vertices inside the viewport are off the 1/256 grid (snapping).
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(f.quad.baryLinear[f.slot][i], a[i], 1e-4) << p.first << "," << p.second;
  }
}

TEST(RasterInterpolation, ClippingShaderOutputs_NoPerspectiveIsLinearInFramebufferSpace) {
  // Clipped at the near plane with a vertex behind the eye: over the whole clipped polygon
  // (several fan triangles) the NoPerspective weights are one affine function of (x, y), and
  // they sum to 1.
  RasterState s = test::fullScreenState(48, 48);
  const ClipTriangle t = tri({{-0.6f, -0.5f, 0.5f, 1}, {0.6f, -0.6f, 0.5f, 1}, {0.4f, 1.2f, -1.5f, -1}});
  std::vector<SetupTriangle> setups;
  ASSERT_GE(setupTriangle(t, s, setups), 2u);
  test::Raster r;
  test::rasterizeInto(setups, s.scissor, r);
  ASSERT_GT(r.fragment.size(), 100u);
  // Fit w_i(x, y) = c0 + cx x + cy y through three far-apart fragments.
  const auto first = r.fragment.begin(), last = std::prev(r.fragment.end());
  auto third = r.fragment.begin();
  double best = 0;
  for (auto it = r.fragment.begin(); it != r.fragment.end(); ++it) {
    const double ax = last->first.first - first->first.first, ay = last->first.second - first->first.second;
    const double bx = it->first.first - first->first.first, by = it->first.second - first->first.second;
    if (std::fabs(ax * by - ay * bx) > best) {
      best = std::fabs(ax * by - ay * bx);
      third = it;
    }
  }
  ASSERT_GT(best, 50);
  const std::pair<int, int> pts[3] = {first->first, last->first, third->first};
  const test::Fragment* frs[3] = {&first->second, &last->second, &third->second};
  for (int i = 0; i < 3; ++i) {
    double xs[3], ys[3], vals[3];
    for (int k = 0; k < 3; ++k) {
      xs[k] = pts[k].first;
      ys[k] = pts[k].second;
      vals[k] = frs[k]->quad.baryLinear[frs[k]->slot][i];
    }
    double b[3];
    for (const auto& [p, f] : r.fragment) {
      test::screenBary(xs, ys, p.first, p.second, b);  // affine interpolation through the 3 fits
      const double expected = b[0] * vals[0] + b[1] * vals[1] + b[2] * vals[2];
      EXPECT_NEAR(f.quad.baryLinear[f.slot][i], expected, 1e-4) << i << " at " << p.first << "," << p.second;
    }
  }
  for (const auto& [p, f] : r.fragment) {
    const float* l = f.quad.baryLinear[f.slot];
    EXPECT_NEAR(l[0] + l[1] + l[2], 1.0, 1e-5);
  }
}

// The block walker converts edge values with pixel::exactDouble so that its loops vectorize;
// windowBarycentrics (the reference quad walker's) converts them with static_cast. Both must give
// the same double for every int64 ("Basic Polygon Rasterization" barycentrics are computed from
// exact edge values), including values past 2^53 that round, ties and the extremes.
TEST(RasterInterpolation, BasicPolygonRasterization_ExactDoubleEqualsTheConversion) {
  std::vector<int64_t> values = {0, 1, -1, std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(),
                                 (int64_t(1) << 53) + 1, -(int64_t(1) << 53) - 1, (int64_t(1) << 54) + 2,
                                 (int64_t(1) << 54) + 6, int64_t(0xFFFFFFFF), -int64_t(0xFFFFFFFF), int64_t(1) << 32,
                                 -(int64_t(1) << 32), (int64_t(1) << 62) + 1025};
  std::mt19937_64 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const int shift = int(rng() % 64);
    values.push_back(int64_t(rng()) >> shift);  // every magnitude, both signs
  }
  for (int64_t v : values) {
    const double expected = static_cast<double>(v), got = pixel::exactDouble(v);
    ASSERT_EQ(std::memcmp(&expected, &got, 8), 0) << v;
  }
}

// "Basic Polygon Rasterization": perspective-correct weights a_k/w_k / sum_j a_j/w_j are the
// window-space weights a_k when every w_k is the same. Set-up marks such triangles
// (SetupTriangle::uniformW: clip-space w equal at the three vertices, as in 2D and full-screen
// drawing; not when one differs) and pixel::perspectiveWeights then returns a_k without the
// division. The shortcut against the division it replaces, on random affine triangles and
// locations: within 2 ulps of a double, far below the float the weights become.
TEST(RasterInterpolation, BasicPolygonRasterization_UniformWWeightsAreTheWindowWeights) {
  RasterState s = test::fullScreenState(64, 64);
  TriangleSetupConstants constants = triangleSetupConstants(s);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> coord(-0.9f, 0.9f), wDist(0.25f, 4.0f);
  int affine = 0;
  for (int i = 0; i < 2000; ++i) {
    const float w = wDist(rng), w2 = i % 4 == 0 ? w * 1.5f : w;  // every fourth triangle is not affine
    ClipTriangle t{};
    for (int k = 0; k < 3; ++k) {
      const float cw = k == 2 ? w2 : w;
      t.position[k][0] = coord(rng) * cw, t.position[k][1] = coord(rng) * cw, t.position[k][2] = 0.5f * cw;
      t.position[k][3] = cw;
    }
    std::vector<SetupTriangle> out, polygon;
    setupTriangle(t, s, constants, out);
    setupTriangleAsPolygon(t, s, polygon);  // the clipping path marks them alike
    ASSERT_EQ(out.size(), polygon.size());
    for (size_t k = 0; k < out.size(); ++k) ASSERT_EQ(out[k].uniformW, polygon[k].uniformW);
    for (const SetupTriangle& st : out) {
      ASSERT_EQ(st.uniformW, i % 4 != 0) << "triangle " << i;
      if (!st.uniformW) continue;
      ++affine;
      SetupTriangle general = st;
      general.uniformW = false;
      for (int j = 0; j < 20; ++j) {
        // Barycentric coordinates, summing to 1 up to rounding as set-up's do.
        double a[3] = {double(1 + rng() % 1000), double(rng() % 1000), double(rng() % 1000)};
        const double sum = a[0] + a[1] + a[2];
        for (double& x : a) x /= sum;
        const double invW = pixel::invWAt(st, a);
        double fast[3], slow[3];
        pixel::perspectiveWeights(st, a, invW, fast);
        pixel::perspectiveWeights(general, a, invW, slow);
        for (int k = 0; k < 3; ++k) {
          EXPECT_EQ(fast[k], a[k]);
          EXPECT_NEAR(fast[k], slow[k], 4 * std::numeric_limits<double>::epsilon()) << "triangle " << i << " weight " << k;
        }
      }
    }
  }
  EXPECT_GT(affine, 1000);
}

// "Basic Polygon Rasterization": depth is interpolated linearly, z_f = a z_a + b z_b + c z_c
// with a + b + c = 1, so a triangle whose vertices share one depth has that depth everywhere,
// exactly. Set-up marks such triangles (SetupTriangle::flatDepth, on both set-up paths) and
// pixel::depthAt returns the depth with the bias added, rather than the weighted sum, whose
// rounding (weights summing to 1 only up to rounding) can carry z + bias across a float
// rounding boundary: for z = 0.5, bias = 2^-25 (half a float ulp: z + bias is a tie) and
// weights 409/985, 565/985, 11/985 the sum gives 0.5 + 2^-24, the exact value rounds to 0.5.
TEST(RasterInterpolation, BasicPolygonRasterization_FlatDepthIsTheVerticesDepthExactly) {
  RasterState s = test::fullScreenState(64, 64);
  TriangleSetupConstants constants = triangleSetupConstants(s);
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> coord(-0.9f, 0.9f), wDist(0.25f, 4.0f), zDist(0.0f, 1.0f);
  int flat = 0;
  for (int i = 0; i < 2000; ++i) {
    const float z = zDist(rng);
    ClipTriangle t{};
    for (int k = 0; k < 3; ++k) {
      const float w = wDist(rng);
      // Every fourth triangle has a vertex at another depth.
      const float zk = i % 4 == 0 && k == 1 ? z * 0.5f + 0.25f : z;
      t.position[k][0] = coord(rng) * w, t.position[k][1] = coord(rng) * w, t.position[k][2] = zk * w;
      t.position[k][3] = w;
    }
    std::vector<SetupTriangle> out, polygon;
    setupTriangle(t, s, constants, out);
    setupTriangleAsPolygon(t, s, polygon);
    ASSERT_EQ(out.size(), polygon.size());
    for (size_t k = 0; k < out.size(); ++k) ASSERT_EQ(out[k].flatDepth, polygon[k].flatDepth);
    for (const SetupTriangle& st : out) {
      ASSERT_EQ(st.flatDepth, st.z[0] == st.z[1] && st.z[1] == st.z[2]) << "triangle " << i;
      if (!st.flatDepth) continue;
      ++flat;
      for (int j = 0; j < 20; ++j) {
        double a[3] = {double(1 + rng() % 1000), double(rng() % 1000), double(rng() % 1000)};
        const double sum = a[0] + a[1] + a[2];
        for (double& x : a) x /= sum;
        const float got = pixel::depthAt(st, a);
        EXPECT_EQ(got, rules::clampFragmentDepth(double(st.z[0]) + st.depthBias, {st.depthMin, st.depthMax}));
      }
    }
  }
  EXPECT_GT(flat, 1000);
  SetupTriangle tie{};
  tie.z[0] = tie.z[1] = tie.z[2] = 0.5f;
  tie.flatDepth = true;
  tie.depthBias = std::ldexp(1.0f, -25);
  tie.depthMin = 0.0f;
  tie.depthMax = 1.0f;
  const double weights[3] = {409.0 / 985, 565.0 / 985, 11.0 / 985};
  EXPECT_EQ(pixel::depthAt(tie, weights), 0.5f);
}

}  // namespace
}  // namespace tessera::raster
