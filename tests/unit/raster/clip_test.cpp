// "Primitive Clipping": the view volume -w <= x <= w, -w <= y <= w, 0 <= z <= w (no z planes
// with depthClampEnable), and "Depth Clamping and Range Adjustment". Coverage is checked
// against the analytic oracle of raster_test_support.h, which intersects each pixel's ray with
// the unclipped triangle's plane and tests the point against the view volume.
#include <gtest/gtest.h>

#include <algorithm>
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
    // The barycentric maps are defined only without identityWeights (SetupTriangle).
    for (int j = 0; j < 3 && !a.identityWeights; ++j) {
      ASSERT_EQ(std::bit_cast<uint32_t>(a.clipBary[k][j]), std::bit_cast<uint32_t>(b.clipBary[k][j])) << round;
      ASSERT_EQ(std::bit_cast<uint32_t>(a.windowBary[k][j]), std::bit_cast<uint32_t>(b.windowBary[k][j])) << round;
    }
  }
  ASSERT_EQ(a.identityWeights, b.identityWeights) << round;
  ASSERT_EQ(a.uniformW, b.uniformW) << round;
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

namespace tessera::raster {
namespace {

// "Primitive Clipping", client-defined half-spaces (ClipDistance): random triangles inside and
// across the view volume, each with 1 to 8 random clip distances per vertex. The pixels drawn
// must be those where the triangle's perspective-correct blend of every distance is >= 0
// (the oracle of raster_test_support.h), and the quick acceptance must agree with clipping
// plane by plane. A distance that is a plane's dot product with the position clips exactly
// where that plane would.
TEST(RasterClip, PrimitiveClipping_ClientDefinedHalfSpaces) {
  std::mt19937 rng(77);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  int clippedSome = 0, keptSome = 0;
  for (int round = 0; round < 300; ++round) {
    RasterState s = test::fullScreenState(40, 32);
    ClipTriangle t{};
    for (int i = 0; i < 3; ++i) {
      const double w = uniform(0.5, 2.0);
      t.position[i][0] = float(uniform(-1.3, 1.3) * w);
      t.position[i][1] = float(uniform(-1.3, 1.3) * w);
      t.position[i][2] = float(uniform(0.1, 0.9) * w);
      t.position[i][3] = float(w);
    }
    // The oracle's margin is in barycentric units: on a sliver it is far narrower than the
    // 1/256-pixel snapping of the vertices, so slivers (an altitude under 2 pixels) are skipped.
    double sx[3], sy[3];
    for (int i = 0; i < 3; ++i) {
      sx[i] = t.position[i][0] / t.position[i][3] * 20.0;
      sy[i] = t.position[i][1] / t.position[i][3] * 16.0;
    }
    const double area2 = std::fabs((sx[1] - sx[0]) * (sy[2] - sy[0]) - (sy[1] - sy[0]) * (sx[2] - sx[0]));
    double longest = 0;
    for (int i = 0; i < 3; ++i) longest = std::max(longest, std::hypot(sx[(i + 1) % 3] - sx[i], sy[(i + 1) % 3] - sy[i]));
    if (area2 < 2.0 * longest) {
      --round;
      continue;
    }
    t.clipDistances = 1 + rng() % kMaxUserClipPlanes;
    for (uint32_t p = 0; p < t.clipDistances; ++p)
      for (int i = 0; i < 3; ++i) t.clipDistance[i][p] = float(uniform(p == 0 ? -1.0 : -0.3, 1.0));
    const ClipTriangle whole = [&] {
      ClipTriangle c = t;
      c.clipDistances = 0;
      return c;
    }();
    const int withPlanes = expectMatchesOracle(t, s, "clip distances");
    const int without = expectMatchesOracle(whole, s, "no clip distances");
    EXPECT_LE(withPlanes, without) << round;
    clippedSome += withPlanes < without;
    keptSome += withPlanes > 0;
    ClipPolygon quick, planes;
    ASSERT_EQ(clipTriangle(t, s, quick), clipTriangleByPlanes(t, s, planes)) << round;
    ASSERT_EQ(quick.count, planes.count) << round;
    // Every vertex of the clipped polygon lies inside every half-space (up to rounding).
    for (int v = 0; v < planes.count; ++v)
      for (uint32_t p = 0; p < t.clipDistances; ++p) {
        double d = 0;
        for (int k = 0; k < 3; ++k) d += planes.vertex[v].bary[k] * t.clipDistance[k][p];
        EXPECT_GE(d, -1e-6) << round << " vertex " << v << " plane " << p;
      }
  }
  EXPECT_GT(clippedSome, 50);
  EXPECT_GT(keptSome, 50);

  // d = x + 0.25 w clips where the half-space x_d >= -0.25 does: the left 3/8 of the viewport.
  RasterState s = test::fullScreenState(32, 32);
  ClipTriangle t = tri({{-3, -3, 0.5f, 1}, {3, -3, 0.5f, 1}, {0, 3, 0.5f, 1}});
  t.clipDistances = 1;
  for (int i = 0; i < 3; ++i) t.clipDistance[i][0] = t.position[i][0] + 0.25f * t.position[i][3];
  const test::Raster r = test::rasterize(t, s, s.scissor);
  for (int y = 0; y < 32; ++y)
    for (int x = 0; x < 32; ++x) EXPECT_EQ(r.count.count({x, y}) == 1, x >= 12) << x << "," << y;
}

// Lines: the segment's part with every interpolated distance >= 0; a segment entirely outside
// one half-space is discarded.
TEST(RasterClip, PrimitiveClipping_ClientDefinedHalfSpacesOnLines) {
  RasterState s = test::fullScreenState(32, 32);
  ClipLine line{};
  const float a[4] = {-0.5f, 0, 0.5f, 1}, b[4] = {0.5f, 0, 0.5f, 1};
  std::copy(a, a + 4, line.position[0]);
  std::copy(b, b + 4, line.position[1]);
  line.clipDistances = 2;
  line.clipDistance[0][0] = 1, line.clipDistance[1][0] = -1;    // t <= 0.5
  line.clipDistance[0][1] = -1, line.clipDistance[1][1] = 3;    // t >= 0.25
  ClipSegment seg;
  ASSERT_TRUE(clipLine(line, s, seg));
  EXPECT_DOUBLE_EQ(seg.bary[0][1], 0.25);
  EXPECT_DOUBLE_EQ(seg.bary[1][1], 0.5);
  EXPECT_DOUBLE_EQ(seg.position[0][0], -0.25);
  EXPECT_DOUBLE_EQ(seg.position[1][0], 0.0);
  line.clipDistance[0][1] = -1, line.clipDistance[1][1] = -0.5;  // outside plane 1 entirely
  EXPECT_FALSE(clipLine(line, s, seg));
}

// "CullDistance": discarded when some element is negative at every vertex; 0 is not negative.
// Points: ALL_CLIP_PLANES discards a point with a negative ClipDistance.
TEST(RasterClip, CullDistanceAndPointClipDistance) {
  const float v0[3] = {-1, 0.5f, -2}, v1[3] = {-0.5f, -1, 0}, v2[3] = {-3, 2, -0.1f};
  const float* all[3] = {v0, v1, v2};
  EXPECT_TRUE(culledByCullDistances(all, 3, 1));   // element 0 negative at all three
  EXPECT_TRUE(culledByCullDistances(all, 2, 3));   // a line of v0, v1: element 0
  const float* mixed[3] = {v1, v2, v0};
  EXPECT_TRUE(culledByCullDistances(mixed, 3, 3));
  const float w0[2] = {1, -1}, w1[2] = {-1, 0}, w2[2] = {-2, -1};
  const float* none[3] = {w0, w1, w2};
  EXPECT_FALSE(culledByCullDistances(none, 3, 2));  // each element has a vertex >= 0
  const float* single[1] = {w2};
  EXPECT_TRUE(culledByCullDistances(single, 1, 2));
  EXPECT_FALSE(culledByCullDistances(single, 1, 0));  // no cull distances: never culled
  EXPECT_TRUE(pointInsideClipDistances(w0, 1));
  EXPECT_FALSE(pointInsideClipDistances(w0, 2));
  EXPECT_TRUE(pointInsideClipDistances(w1 + 1, 1));  // exactly 0: on the plane, kept
  EXPECT_TRUE(pointInsideClipDistances(w2, 0));
}

}  // namespace
}  // namespace tessera::raster
