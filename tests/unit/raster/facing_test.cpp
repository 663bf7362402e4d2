// "Basic Polygon Rasterization": front-facing from the sign of
// a = -1/2 sum_i (x_i y_(i+1) - x_(i+1) y_i) in framebuffer coordinates (y pointing down),
// COUNTER_CLOCKWISE: a > 0 is front, CLOCKWISE: a < 0 is front, zero area is back-facing;
// then culling by cullMode.
#include <gtest/gtest.h>

#include "raster_test_support.h"

namespace tessera::raster {
namespace {

// Framebuffer (0,0) -> (8,0) -> (0,8): sum = 0*0-8*0 + 8*8-0*0 + 0*0-0*8 = 64, a = -32 < 0.
// On the screen (y down) this runs right, then down-left: clockwise.
const test::WindowVertex kNegativeArea[3] = {{2, 2, 0.5, 1}, {10, 2, 0.5, 1}, {2, 10, 0.5, 1}};
// The same triangle with two vertices swapped: a = +32.
const test::WindowVertex kPositiveArea[3] = {{2, 2, 0.5, 1}, {2, 10, 0.5, 1}, {10, 2, 0.5, 1}};

struct Outcome {
  size_t count;
  bool front;
};

Outcome setup(const test::WindowVertex (&v)[3], VkFrontFace ff, VkCullModeFlags cull, float viewportHeight = 16) {
  RasterState s = test::fullScreenState(16, 16);
  s.frontFace = ff;
  s.cullMode = cull;
  const ClipTriangle t = test::clipFromWindow(s.viewport, v);
  if (viewportHeight < 0) s.viewport = {0, 16, 16, -16, 0, 1};  // y flipped: same clip triangle
  std::vector<SetupTriangle> out;
  setupTriangle(t, s, out);
  return {out.size(), out.empty() ? false : out[0].frontFacing};
}

TEST(RasterFacing, BasicPolygonRasterization_FrontFaceAndWinding) {
  EXPECT_TRUE(setup(kNegativeArea, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).front);
  EXPECT_FALSE(setup(kNegativeArea, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_NONE).front);
  EXPECT_TRUE(setup(kPositiveArea, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_NONE).front);
  EXPECT_FALSE(setup(kPositiveArea, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).front);
}

TEST(RasterFacing, BasicPolygonRasterization_NegativeViewportHeightFlipsFacing) {
  // "Controlling the Viewport" with height < 0 mirrors y_f, which negates a: the clip-space
  // triangle that had a < 0 now has a > 0.
  EXPECT_FALSE(setup(kNegativeArea, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE, -16).front);
  EXPECT_TRUE(setup(kNegativeArea, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_NONE, -16).front);
}

TEST(RasterFacing, BasicPolygonRasterization_CullModes) {
  struct Case {
    VkCullModeFlags cull;
    bool keepsFront, keepsBack;
  };
  for (const Case c : {Case{VK_CULL_MODE_NONE, true, true}, Case{VK_CULL_MODE_FRONT_BIT, false, true},
                       Case{VK_CULL_MODE_BACK_BIT, true, false}, Case{VK_CULL_MODE_FRONT_AND_BACK, false, false}}) {
    for (const VkFrontFace ff : {VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_FRONT_FACE_CLOCKWISE}) {
      // kPositiveArea is front for COUNTER_CLOCKWISE, kNegativeArea for CLOCKWISE.
      const auto& front = ff == VK_FRONT_FACE_COUNTER_CLOCKWISE ? kPositiveArea : kNegativeArea;
      const auto& back = ff == VK_FRONT_FACE_COUNTER_CLOCKWISE ? kNegativeArea : kPositiveArea;
      EXPECT_EQ(setup(front, ff, c.cull).count, c.keepsFront ? 1u : 0u) << c.cull << " " << ff;
      EXPECT_EQ(setup(back, ff, c.cull).count, c.keepsBack ? 1u : 0u) << c.cull << " " << ff;
    }
  }
}

TEST(RasterFacing, BasicPolygonRasterization_ZeroAreaIsDropped) {
  // Collinear vertices: a = 0, back-facing, and no sample lies inside: nothing to rasterize,
  // whatever the cull mode.
  const test::WindowVertex line[3] = {{1, 1, 0.5, 1}, {5, 5, 0.5, 1}, {9, 9, 0.5, 1}};
  EXPECT_EQ(setup(line, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).count, 0u);
  EXPECT_EQ(setup(line, VK_FRONT_FACE_COUNTER_CLOCKWISE, VK_CULL_MODE_FRONT_BIT).count, 0u);
  // Zero area only after snapping to 1/256 pixel: the third vertex is 1/1024 off the line.
  const test::WindowVertex sliver[3] = {{1, 1, 0.5, 1}, {9, 1, 0.5, 1}, {5, 1 + 1.0 / 1024, 0.5, 1}};
  EXPECT_EQ(setup(sliver, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).count, 0u);
  // 1/256 off the line survives snapping: a (thin) triangle.
  const test::WindowVertex thin[3] = {{1, 1, 0.5, 1}, {9, 1, 0.5, 1}, {5, 1 + 1.0 / 256, 0.5, 1}};
  EXPECT_EQ(setup(thin, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).count, 0u)
      << "covers no pixel centre, so its bounds are empty";
  const test::WindowVertex thinOverCentre[3] = {{1, 1.5, 0.5, 1}, {9, 1.5, 0.5, 1}, {5, 1.5 + 1.0 / 256, 0.5, 1}};
  EXPECT_EQ(setup(thinOverCentre, VK_FRONT_FACE_CLOCKWISE, VK_CULL_MODE_NONE).count, 1u);
}

}  // namespace
}  // namespace tessera::raster
