// "Polygon Mode" (raster/polygon_mode.cpp): VK_POLYGON_MODE_LINE draws the edges of the clipped
// polygon as line segments and VK_POLYGON_MODE_POINT its vertices as points, "after" the
// polygon "is clipped and possibly culled"; "Depth Bias" applies to every fragment of a
// polygon whatever its mode. Expected values come from the spec's formulas and from the line
// oracle of raster_test_support.h (oracleLineCovers, the non-strict parallelogram written
// independently of lines.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;
using PixelSet = std::set<std::pair<int, int>>;

test::Raster drawEdges(const std::vector<SetupLine>& edges, const Rect& tile) {
  test::Raster r;
  for (const SetupLine& l : edges) rasterizeLine(l, tile, [&](const Quad& q) { test::collect(q, r); });
  return r;
}

int64_t fixed(double v) { return std::llround(v * 256); }

// A triangle fully inside a 32x32 viewport, vertices off the pixel grid. Its area
// a = -1/2 sum(x_i y_i+1 - x_i+1 y_i) ("Basic Polygon Rasterization") is negative: front-facing
// with VK_FRONT_FACE_CLOCKWISE.
const WindowVertex kTri[3] = {{3.3, 4.1, 0.5, 1}, {27.6, 9.7, 0.5, 1}, {11.2, 26.4, 0.5, 1}};

TEST(PolygonMode, PolygonModeLine_EdgesAreTheTrianglesThreeEdgesAsLines) {
  RasterState s = test::fullScreenState(32, 32);
  const ClipTriangle tri = test::clipFromWindow(s.viewport, kTri);
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  // Edge i runs from vertex i to vertex i + 1 (the last closes the polygon).
  for (int i = 0; i < 3; ++i) {
    const WindowVertex &a = kTri[i], &b = kTri[(i + 1) % 3];
    EXPECT_FLOAT_EQ(edges[i].x[0], float(fixed(a.x)) / 256) << i;
    EXPECT_FLOAT_EQ(edges[i].y[1], float(fixed(b.y)) / 256) << i;
  }
  // The pixels: the union of the three edges' parallelograms, each pixel at most once per edge.
  const test::Raster r = drawEdges(edges, s.scissor);
  PixelSet expected;
  for (int i = 0; i < 3; ++i) {
    const WindowVertex &a = kTri[i], &b = kTri[(i + 1) % 3];
    for (int y = 0; y < 32; ++y)
      for (int x = 0; x < 32; ++x)
        if (test::oracleLineCovers(fixed(a.x), fixed(a.y), fixed(b.x), fixed(b.y), x, y)) expected.insert({x, y});
  }
  PixelSet got;
  for (const auto& [p, n] : r.count) got.insert(p);
  EXPECT_EQ(got, expected);
  EXPECT_GT(expected.size(), 40u);
  // Interior pixels are not drawn ("polygon edges are drawn as line segments").
  EXPECT_EQ(r.count.count({12, 12}), 0u);
}

TEST(PolygonMode, PolygonModeLine_WeightsReferToTheTrianglesVertices) {
  RasterState s = test::fullScreenState(32, 32);
  const ClipTriangle tri = test::clipFromWindow(s.viewport, kTri);
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  // Edge 1 runs from vertex 1 to vertex 2: vertex 0's weight is 0 on it, and the two others
  // sum to 1 at every fragment ("Basic Line Segment Rasterization" with the edge's endpoints).
  int seen = 0;
  rasterizeLine(edges[1], s.scissor, [&](const Quad& q) {
    for (int p = 0; p < 4; ++p) {
      if (!(q.coverage >> p & 1)) continue;
      EXPECT_EQ(q.baryPersp[p][0], 0.0f);
      EXPECT_NEAR(q.baryPersp[p][1] + q.baryPersp[p][2], 1.0, 1e-6);
      EXPECT_NEAR(q.baryLinear[p][1] + q.baryLinear[p][2], 1.0, 1e-6);
      ++seen;
    }
  });
  EXPECT_GT(seen, 10);
  // Vertex 2's weight grows along the edge: at the fragment nearest vertex 2 it is near 1.
  EXPECT_NEAR(edges[1].clipBary[1][2], 1.0f, 0);
  EXPECT_NEAR(edges[1].clipBary[0][1], 1.0f, 0);
}

TEST(PolygonMode, PolygonModeLine_CullingAndFacingComeFirst) {
  RasterState s = test::fullScreenState(32, 32);
  const ClipTriangle tri = test::clipFromWindow(s.viewport, kTri);
  std::vector<SetupLine> edges;
  s.frontFace = VK_FRONT_FACE_CLOCKWISE;
  s.cullMode = VK_CULL_MODE_FRONT_BIT;
  EXPECT_EQ(setupPolygonEdges(tri, s, edges), 0u) << "culled before the mode applies";
  s.cullMode = VK_CULL_MODE_BACK_BIT;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  for (const SetupLine& l : edges) EXPECT_TRUE(l.frontFacing);
  edges.clear();
  s.frontFace = VK_FRONT_FACE_COUNTER_CLOCKWISE;
  EXPECT_EQ(setupPolygonEdges(tri, s, edges), 0u);
  s.cullMode = VK_CULL_MODE_NONE;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  for (const SetupLine& l : edges) EXPECT_FALSE(l.frontFacing) << "the polygon's facing, not a line's";
}

TEST(PolygonMode, PolygonModeLine_ZeroAreaTriangleIsBackFacingAndStillHasEdges) {
  // "Any triangle which is not front-facing is back-facing, including zero-area triangles":
  // culled with BACK, otherwise its edges are drawn.
  RasterState s = test::fullScreenState(32, 32);
  const WindowVertex flat[3] = {{2.5, 2.5, 0.5, 1}, {20.5, 20.5, 0.5, 1}, {10.5, 10.5, 0.5, 1}};
  const ClipTriangle tri = test::clipFromWindow(s.viewport, flat);
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  for (const SetupLine& l : edges) EXPECT_FALSE(l.frontFacing);
  const test::Raster r = drawEdges(edges, s.scissor);
  EXPECT_EQ(r.count.count({15, 15}), 1u);
  edges.clear();
  s.cullMode = VK_CULL_MODE_BACK_BIT;
  EXPECT_EQ(setupPolygonEdges(tri, s, edges), 0u);
  // FILL draws nothing of it.
  std::vector<SetupTriangle> filled;
  s.cullMode = VK_CULL_MODE_NONE;
  EXPECT_EQ(setupTriangle(tri, s, filled), 0u);
}

TEST(PolygonMode, PolygonModeLine_ClippedPolygonEdgesIncludeTheNearPlaneEdge) {
  // One vertex behind the near plane (z_c < 0): clipping leaves a quadrilateral, whose four
  // edges are drawn; the edge clipping made lies on z_c = 0, window depth minDepth.
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.25f;
  const WindowVertex v[3] = {{4.3, 4.1, 0.5, 1}, {27.6, 6.7, 0.5, 1}, {14.2, 27.4, -0.5, 1}};
  const ClipTriangle tri = test::clipFromWindow(s.viewport, v);
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 4u);
  int onNearPlane = 0;
  for (const SetupLine& l : edges) {
    if (std::fabs(l.z[0] - 0.25f) < 1e-6f && std::fabs(l.z[1] - 0.25f) < 1e-6f) ++onNearPlane;
    for (int e = 0; e < 2; ++e) EXPECT_NEAR(l.clipBary[e][0] + l.clipBary[e][1] + l.clipBary[e][2], 1.0, 1e-6);
  }
  EXPECT_EQ(onNearPlane, 1);
  // POINT mode: the four vertices of the same polygon.
  std::vector<SetupPoint> points;
  EXPECT_EQ(setupPolygonVertices(tri, s, points), 4u);
}

TEST(PolygonMode, PolygonModePoint_VerticesAsOnePixelPoints) {
  RasterState s = test::fullScreenState(32, 32);
  s.viewport.minDepth = 0.2f;
  s.viewport.maxDepth = 0.6f;
  s.frontFace = VK_FRONT_FACE_CLOCKWISE;
  const ClipTriangle tri = test::clipFromWindow(s.viewport, kTri);
  std::vector<SetupPoint> points;
  ASSERT_EQ(setupPolygonVertices(tri, s, points), 3u);
  for (int i = 0; i < 3; ++i) {
    // "Basic Point Rasterization": a 1x1 square centred on the vertex covers the one pixel
    // whose centre it holds; the fragments have that vertex's data (weight 1 on vertex i).
    EXPECT_EQ(points[i].size, 1.0f);
    EXPECT_NEAR(points[i].x, kTri[i].x, 1e-5);
    EXPECT_NEAR(points[i].z, 0.2 + 0.4 * 0.5, 1e-6);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(points[i].clipBary[k], i == k ? 1.0f : 0.0f);
    test::Raster r;
    rasterizePoint(points[i], s.scissor, [&](const Quad& q) { test::collect(q, r); });
    ASSERT_EQ(r.count.size(), 1u);
    EXPECT_EQ(r.count.begin()->first, std::make_pair(int(kTri[i].x), int(kTri[i].y)));
    const test::Fragment& f = r.fragment.begin()->second;
    for (int k = 0; k < 3; ++k) EXPECT_EQ(f.quad.baryPersp[f.slot][k], i == k ? 1.0f : 0.0f);
  }
  s.cullMode = VK_CULL_MODE_FRONT_BIT;
  points.clear();
  EXPECT_EQ(setupPolygonVertices(tri, s, points), 0u) << "culled before the mode applies";
}

TEST(PolygonMode, DepthBias_AppliesToEdgesAndVerticesOfThePolygon) {
  // "Depth Bias": o = m * depthBiasSlopeFactor + r * depthBiasConstantFactor with r = 2^-16
  // for D16_UNORM; the triangle's depth varies along x by 0.01 per pixel (m = 0.01).
  RasterState s = test::fullScreenState(32, 32);
  s.depthFormat = VK_FORMAT_D16_UNORM;
  s.depthBiasEnable = true;
  s.depthBiasConstantFactor = 8;
  s.depthBiasSlopeFactor = 2;
  WindowVertex v[3] = {{2.0, 2.0, 0.3, 1}, {30.0, 2.0, 0.58, 1}, {2.0, 30.0, 0.3, 1}};
  const ClipTriangle tri = test::clipFromWindow(s.viewport, v);
  const double expected = 0.01 * 2 + 8.0 / 65536;
  std::vector<SetupLine> edges;
  ASSERT_EQ(setupPolygonEdges(tri, s, edges), 3u);
  for (const SetupLine& l : edges) EXPECT_NEAR(l.depthBias, expected, 1e-6);
  // The vertical edge 2 -> 0 at x = 2 has z = 0.3: its fragments' depth is 0.3 + o.
  rasterizeLine(edges[2], s.scissor, [&](const Quad& q) {
    for (int p = 0; p < 4; ++p) {
      if (q.coverage >> p & 1) {
        EXPECT_NEAR(q.z[p], 0.3 + expected, 1e-6);
      }
    }
  });
  std::vector<SetupPoint> points;
  ASSERT_EQ(setupPolygonVertices(tri, s, points), 3u);
  EXPECT_NEAR(points[1].z, 0.58 + expected, 1e-6);
  // The same bias as FILL gives the polygon.
  std::vector<SetupTriangle> filled;
  ASSERT_EQ(setupTriangle(tri, s, filled), 1u);
  EXPECT_FLOAT_EQ(filled[0].depthBias, edges[0].depthBias);
  // Line primitives get none ("Depth Bias" is for polygons).
  const test::Raster line = test::rasterizeLines({test::lineFromWindow(s.viewport, v[0], v[1])}, s, s.scissor);
  ASSERT_FALSE(line.fragment.empty());
  const test::Fragment& f = line.fragment.begin()->second;
  EXPECT_LT(f.quad.z[f.slot], 0.3 + 0.28 + 1e-3);
  EXPECT_NEAR(f.quad.z[f.slot], 0.3 + 0.01 * (f.quad.x + f.slot % 2 + 0.5 - 2.0), 2e-3);
}

}  // namespace
}  // namespace tessera::raster
