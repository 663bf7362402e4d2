// "Primitive Clipping": the view volume -w <= x <= w, -w <= y <= w, 0 <= z <= w (no z planes
// with depthClampEnable), and "Depth Clamping and Range Adjustment". Coverage is checked
// against the analytic oracle of raster_test_support.h, which intersects each pixel's ray with
// the unclipped triangle's plane and tests the point against the view volume.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "clip.h"
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

// Compares coverage with the oracle over the scissor; returns the number of covered pixels.
// `projected` selects the screen-space oracle (all w > 0) over the ray/plane one.
int expectMatchesOracle(const ClipTriangle& t, const RasterState& s, const char* what, bool projected = false) {
  const test::Raster r = test::rasterize(t, s, s.scissor);
  int ambiguous = 0, inside = 0;
  for (int y = s.scissor.y0; y < s.scissor.y1; ++y) {
    for (int x = s.scissor.x0; x < s.scissor.x1; ++x) {
      const test::Expect e = projected ? test::projectedOracle(t, s, x, y) : test::clippedOracle(t, s, x, y, 2e-4);
      const auto it = r.count.find({x, y});
      const int n = it == r.count.end() ? 0 : it->second;
      EXPECT_LE(n, 1) << what << " pixel " << x << "," << y << " covered twice (fan triangles overlap)";
      if (e == test::Expect::Ambiguous) {
        ++ambiguous;
        continue;
      }
      inside += e == test::Expect::Inside;
      EXPECT_EQ(n == 1, e == test::Expect::Inside) << what << " pixel " << x << "," << y;
    }
  }
  EXPECT_LT(ambiguous, 16) << what;
  return inside;
}

TEST(RasterClip, PrimitiveClipping_CrossesNearPlane) {
  RasterState s = test::fullScreenState(48, 48);
  // The third vertex has z < 0 with small w: only the part with z >= 0 is drawn.
  const ClipTriangle t = tri({{-0.8f, -0.7f, 0.6f, 1}, {0.7f, -0.8f, 0.9f, 1.2f}, {0.05f, 0.08f, -0.3f, 0.1f}});
  std::vector<SetupTriangle> setups;
  EXPECT_GE(setupTriangle(t, s, setups), 2u) << "a quadrilateral after clipping: a fan of two";
  EXPECT_GT(expectMatchesOracle(t, s, "near"), 100);
  const test::Raster r = test::rasterize(t, s, s.scissor);
  for (const auto& [p, f] : r.fragment) EXPECT_GE(f.quad.z[f.slot], 0.0f);
}

TEST(RasterClip, PrimitiveClipping_PartlyBehindTheEye) {
  // One vertex has w < 0 (behind the eye); its projection would land on the wrong side. Both
  // with depth clipping and with depth clamping (only w > 0 is clipped then).
  for (const bool clamp : {false, true}) {
    RasterState s = test::fullScreenState(48, 48);
    s.depthClampEnable = clamp;
    const ClipTriangle t = tri({{-0.6f, -0.5f, 0.5f, 1}, {0.6f, -0.6f, 0.5f, 1}, {0.4f, 1.2f, -1.5f, -1}});
    EXPECT_GT(expectMatchesOracle(t, s, clamp ? "behind, clamp" : "behind"), 100);
  }
}

TEST(RasterClip, PrimitiveClipping_OutsideEntirely) {
  RasterState s = test::fullScreenState(32, 32);
  std::vector<SetupTriangle> out;
  // Beyond x = w (but well inside the guard band), beyond y = -w, behind the eye, beyond the
  // far plane, in front of the near plane: nothing.
  EXPECT_EQ(setupTriangle(tri({{1.1f, 0, 0.5f, 1}, {3, 0.5f, 0.5f, 1}, {2, -0.5f, 0.5f, 1}}), s, out), 0u);
  EXPECT_EQ(setupTriangle(tri({{0, -1.5f, 0.5f, 1}, {0.5f, -3, 0.5f, 1}, {-0.5f, -2, 0.5f, 1}}), s, out), 0u);
  EXPECT_EQ(setupTriangle(tri({{0, 0, 0.5f, -1}, {0.5f, 0, 0.5f, -1}, {0, 0.5f, 0.5f, -2}}), s, out), 0u);
  EXPECT_EQ(setupTriangle(tri({{0, 0, 1.5f, 1}, {0.5f, 0, 1.2f, 1}, {0, 0.5f, 2, 1}}), s, out), 0u);
  EXPECT_EQ(setupTriangle(tri({{0, 0, -0.5f, 1}, {0.5f, 0, -0.2f, 1}, {0, 0.5f, -1, 1}}), s, out), 0u);
  EXPECT_TRUE(out.empty());
}

TEST(RasterClip, PrimitiveClipping_CrossesXAndYPlanes) {
  // The viewport is smaller than the scissor: the x and y planes of the view volume limit
  // coverage to the viewport rectangle.
  RasterState s = test::fullScreenState(32, 32);
  s.viewport = {8, 8, 16, 16, 0, 1};
  // Covers the whole view volume: exactly the viewport's 16x16 pixels.
  const test::Raster r = test::rasterize(tri({{-3, -3, 0.5f, 1}, {5, -3, 0.5f, 1}, {-3, 5, 0.5f, 1}}), s, s.scissor);
  EXPECT_EQ(r.count.size(), 256u);
  for (const auto& [p, n] : r.count) {
    EXPECT_TRUE(p.first >= 8 && p.first < 24 && p.second >= 8 && p.second < 24) << p.first << "," << p.second;
    EXPECT_EQ(n, 1);
  }
  // Crossing x = w and y = -w with a perspective w.
  EXPECT_GT(expectMatchesOracle(tri({{0.2f, 0.1f, 0.5f, 1}, {2.5f, -0.3f, 1, 2}, {0.6f, -2.4f, 0.5f, 1.5f}}), s, "x,y"), 20);
  // Crossing x = -w with a negative viewport height (y flipped).
  s.viewport = {8, 24, 16, -16, 0, 1};
  EXPECT_GT(expectMatchesOracle(tri({{-1.7f, 0.1f, 0.5f, 1}, {0.4f, -0.5f, 0.5f, 1}, {0.3f, 0.7f, 0.5f, 1}}), s, "-x flipped"), 20);
}

TEST(RasterClip, PrimitiveClipping_FarBeyondTheGuardBand) {
  // A vertex 10^6 viewport widths away: clipped against the guard band, the covered pixels are
  // still exactly those of the unclipped triangle.
  RasterState s = test::fullScreenState(32, 32);
  EXPECT_GT(expectMatchesOracle(tri({{-0.5f, -0.5f, 0.5f, 1}, {1e6f, 0.2f, 0.5f, 1}, {-0.4f, 0.6f, 0.5f, 1}}), s, "guard", true), 100);
  EXPECT_GT(expectMatchesOracle(tri({{-0.5f, -0.5f, 0.5f, 1}, {2e6f, 1e6f, 0.5f, 2}, {-1e7f, 3e6f, 0.5f, 4}}), s, "guard 2", true), 100);
}

TEST(RasterClip, DepthClampingAndRange_ClampVersusClip) {
  // z_d runs from -0.5 to 1.5 across the triangle; the viewport maps [0, 1] to [0.2, 0.8].
  const ClipTriangle t = tri({{-0.9f, -0.9f, -0.5f, 1}, {0.9f, -0.9f, 1.5f, 1}, {0, 0.9f, 0.5f, 1}});
  for (const bool clamp : {false, true}) {
    RasterState s = test::fullScreenState(40, 40);
    s.viewport.minDepth = 0.2f;
    s.viewport.maxDepth = 0.8f;
    s.depthClampEnable = clamp;
    const int inside = expectMatchesOracle(t, s, clamp ? "clamp" : "clip");
    const test::Raster r = test::rasterize(t, s, s.scissor);
    for (const auto& [p, f] : r.fragment) {
      const test::RayHit h = test::hitAtPixel(t, s.viewport, p.first, p.second);
      const double zf = 0.2 + 0.6 * h.pos[2] / h.pos[3];  // "Controlling the Viewport"
      // With clipping z_f stays in [0.2, 0.8]; with clamping it is clamped to that range.
      EXPECT_NEAR(f.quad.z[f.slot], std::fmin(std::fmax(zf, 0.2), 0.8), 2e-6) << p.first << "," << p.second;
    }
    if (clamp) {
      // Without z clipping the whole triangle is drawn: more pixels than with clipping.
      RasterState clipped = s;
      clipped.depthClampEnable = false;
      EXPECT_GT(inside, expectMatchesOracle(t, clipped, "clip again") + 100);
    }
  }
  // A triangle entirely in front of the near plane: clipped away, but drawn at minDepth with
  // depth clamping.
  const ClipTriangle nearTri = tri({{-0.5f, -0.5f, -0.5f, 1}, {0.5f, -0.5f, -0.2f, 1}, {0, 0.5f, -1, 1}});
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.25f;
  s.viewport.maxDepth = 0.75f;
  std::vector<SetupTriangle> out;
  EXPECT_EQ(setupTriangle(nearTri, s, out), 0u);
  s.depthClampEnable = true;
  const test::Raster r = test::rasterize(nearTri, s, s.scissor);
  EXPECT_GT(r.count.size(), 50u);
  for (const auto& [p, f] : r.fragment) EXPECT_EQ(f.quad.z[f.slot], 0.25f);
}

}  // namespace
}  // namespace tessera::raster

namespace tessera::raster {
namespace {

// "Primitive Clipping": clipTriangle's quick acceptance of triangles inside every half-space
// against clipping plane by plane (clipTriangleByPlanes, the path it shortcuts): identical
// polygons, bit for bit, for random triangles near every boundary (w near kMinClipW, z near 0
// and near w, x and y at the guard band, NaN and infinite coordinates), with and without depth
// clamping, and some of them accepted quickly.
TEST(RasterClip, PrimitiveClipping_QuickAcceptanceEqualsClippingPlaneByPlane) {
  std::mt19937 rng(31);
  auto pick = [&](std::initializer_list<double> values) { return *(values.begin() + rng() % values.size()); };
  int wholeTriangles = 0;
  for (int round = 0; round < 20000; ++round) {
    RasterState s = test::fullScreenState(64, 48);
    s.depthClampEnable = rng() % 4 == 0;
    const double hx = 32, hy = 24;  // half the viewport, its origin at 0
    ClipTriangle t{};
    for (int i = 0; i < 3; ++i) {
      const double w = pick({1.0, 0.5, kMinClipW, std::nextafter(kMinClipW, 0.0), -1.0, 3.0});
      const double bx = (kGuardBand + hx) / hx * w;  // x at the guard band's right edge
      t.position[i][0] = pick({0.0, 0.3 * w, -0.9 * w, bx, std::nextafter(bx, 1e30), -bx, std::nextafter(-bx, -1e30),
                               std::numeric_limits<double>::quiet_NaN()});
      const double by = (kGuardBand + hy) / hy * w;
      t.position[i][1] = pick({0.0, 0.5 * w, by, std::nextafter(by, 1e30), -std::nextafter(by, 1e30),
                               std::numeric_limits<double>::infinity()});
      t.position[i][2] = pick({0.0, -0.0, 0.5 * w, w, std::nextafter(w, 1e30), std::nextafter(0.0, -1.0), -0.2});
      t.position[i][3] = w;
    }
    ClipPolygon quick, planes;
    const bool keptQuick = clipTriangle(t, s, quick), keptPlanes = clipTriangleByPlanes(t, s, planes);
    ASSERT_EQ(keptQuick, keptPlanes) << "round " << round;
    ASSERT_EQ(quick.count, planes.count) << "round " << round;
    for (int v = 0; v < quick.count; ++v)
      for (int k = 0; k < 4; ++k) {
        const double a = quick.vertex[v].position[k], b = planes.vertex[v].position[k];
        ASSERT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "round " << round << " vertex " << v;
        if (k < 3) {
          const double ba = quick.vertex[v].bary[k], bb = planes.vertex[v].bary[k];
          ASSERT_TRUE(ba == bb || (std::isnan(ba) && std::isnan(bb))) << "round " << round << " vertex " << v;
        }
      }
    bool inside = keptQuick && quick.count == 3;
    for (int v = 0; inside && v < 3; ++v)
      for (int k = 0; k < 4; ++k) inside = inside && quick.vertex[v].position[k] == double(t.position[v][k]);
    wholeTriangles += inside;
  }
  EXPECT_GE(wholeTriangles, 100);
}

}  // namespace
}  // namespace tessera::raster

namespace tessera::raster {
namespace {

void expectSameSetup(const SetupTriangle& a, const SetupTriangle& b, int round) {
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(a.x[k], b.x[k]) << round;
    ASSERT_EQ(a.y[k], b.y[k]) << round;
    ASSERT_EQ(std::bit_cast<uint32_t>(a.z[k]), std::bit_cast<uint32_t>(b.z[k])) << round;
    ASSERT_EQ(std::bit_cast<uint32_t>(a.invW[k]), std::bit_cast<uint32_t>(b.invW[k])) << round;
    for (int j = 0; j < 3; ++j) {
      ASSERT_EQ(std::bit_cast<uint32_t>(a.clipBary[k][j]), std::bit_cast<uint32_t>(b.clipBary[k][j])) << round;
      ASSERT_EQ(std::bit_cast<uint32_t>(a.windowBary[k][j]), std::bit_cast<uint32_t>(b.windowBary[k][j])) << round;
    }
  }
  ASSERT_EQ(std::bit_cast<uint32_t>(a.depthBias), std::bit_cast<uint32_t>(b.depthBias)) << round;
  ASSERT_EQ(a.depthMin, b.depthMin) << round;
  ASSERT_EQ(a.depthMax, b.depthMax) << round;
  ASSERT_EQ(a.frontFacing, b.frontFacing) << round;
  ASSERT_EQ(a.bounds.x0, b.bounds.x0) << round;
  ASSERT_EQ(a.bounds.y0, b.bounds.y0) << round;
  ASSERT_EQ(a.bounds.x1, b.bounds.x1) << round;
  ASSERT_EQ(a.bounds.y1, b.bounds.y1) << round;
  ASSERT_EQ(a.samples, b.samples) << round;
  ASSERT_EQ(a.sampleWeights, b.sampleWeights) << round;
}

// setupTriangle's shortcut for triangles inside every clip half-space (no polygon built) against
// setting every triangle up as a clipped polygon (setupTriangleAsPolygon): the same
// SetupTriangles, bit for bit, on random triangles of every size (most inside, some clipped,
// some degenerate after snapping), with random viewports, scissors, cull modes, front faces,
// depth bias ("Depth Bias Computation"), depth clamping and 1 or 4 samples.
TEST(RasterClip, BasicPolygonRasterization_UnclippedSetupEqualsThePolygonPath) {
  std::mt19937 rng(2026);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  int unclipped = 0, emitted = 0;
  for (int round = 0; round < 40000; ++round) {
    RasterState s = test::fullScreenState(1 + int(rng() % 300), 1 + int(rng() % 200));
    s.viewport.x = float(uniform(-50, 50));
    s.viewport.y = float(uniform(-50, 50));
    if (rng() % 4 == 0) s.viewport.height = -s.viewport.height;  // flipped y (Vulkan 1.1)
    s.viewport.minDepth = float(uniform(0, 0.5));
    s.viewport.maxDepth = float(uniform(0.5, 1));
    if (rng() % 3 == 0) s.scissor = Rect{int32_t(rng() % 40), int32_t(rng() % 40), 40 + int32_t(rng() % 200), 40 + int32_t(rng() % 200)};
    s.cullMode = VkCullModeFlags(rng() % 4);
    s.frontFace = rng() % 2 ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
    s.depthClampEnable = rng() % 4 == 0;
    s.depthBiasEnable = rng() % 3 == 0;
    s.depthBiasConstantFactor = float(uniform(-100, 100));
    s.depthBiasSlopeFactor = float(uniform(-2, 2));
    s.depthBiasClamp = rng() % 2 ? 0.0f : float(uniform(-0.01, 0.01));
    s.depthFormat = rng() % 2 ? VK_FORMAT_D32_SFLOAT : VK_FORMAT_D16_UNORM;
    s.samples = rng() % 2 ? 4 : 1;
    ClipTriangle t{};
    const double size = rng() % 3 == 0 ? 3.0 : rng() % 2 ? 0.2 : 0.01;
    const double cx = uniform(-1, 1), cy = uniform(-1, 1);
    for (int i = 0; i < 3; ++i) {
      const double w = rng() % 10 == 0 ? uniform(-0.5, 2) : uniform(0.2, 4);
      t.position[i][0] = float((cx + uniform(-size, size)) * w);
      t.position[i][1] = float((cy + uniform(-size, size)) * w);
      t.position[i][2] = float(uniform(-0.1, 1.1) * w);
      t.position[i][3] = float(w);
    }
    std::vector<SetupTriangle> quick, polygon;
    const uint32_t n = setupTriangle(t, s, quick);
    ASSERT_EQ(n, setupTriangleAsPolygon(t, s, polygon)) << round;
    ASSERT_EQ(quick.size(), polygon.size()) << round;
    for (size_t k = 0; k < quick.size(); ++k) expectSameSetup(quick[k], polygon[k], round);
    unclipped += triviallyInside(t, s);
    emitted += n > 0;
  }
  EXPECT_GE(unclipped, 10000);
  EXPECT_GE(emitted, 5000);
}

}  // namespace
}  // namespace tessera::raster
