// Depth clipping independent of clamping (VK_EXT_depth_clip_enable), the [-1, 1] clip volume
// (VK_EXT_depth_clip_control) and fragment depths outside [0, 1] (VK_EXT_depth_range_unrestricted):
// "Primitive Clipping", "Controlling the Viewport" and "Depth Clamping and Range Adjustment".
// Expected values are computed by hand from those sections; coverage is checked against the
// analytic oracle of raster_test_support.h (which applies the z condition on its own).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "clip.h"
#include "raster_test_support.h"
#include "rules.h"

namespace tessera::raster {
namespace {

using DepthClip = RasterState::DepthClip;

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

// Pixels covered, each checked against the oracle (ambiguous edge pixels skipped).
int coveredMatchingOracle(const ClipTriangle& t, const RasterState& s, const char* what) {
  const test::Raster r = test::rasterize(t, s, s.scissor);
  int inside = 0;
  for (int y = s.scissor.y0; y < s.scissor.y1; ++y)
    for (int x = s.scissor.x0; x < s.scissor.x1; ++x) {
      const test::Expect e = test::clippedOracle(t, s, x, y, 2e-4);
      if (e == test::Expect::Ambiguous) continue;
      inside += e == test::Expect::Inside;
      EXPECT_EQ(r.count.count({x, y}) == 1, e == test::Expect::Inside) << what << " pixel " << x << "," << y;
    }
  return inside;
}

TEST(RasterDepthClip, PrimitiveClipping_DepthClipEnableDecidesIndependentlyOfClamp) {
  // "Primitive Clipping": with VkPipelineRasterizationDepthClipStateCreateInfoEXT its
  // depthClipEnable decides; without it depth clipping is disabled iff depthClampEnable.
  RasterState s;
  EXPECT_TRUE(rules::clipsDepth(s));
  s.depthClampEnable = true;
  EXPECT_FALSE(rules::clipsDepth(s));
  s.depthClip = DepthClip::Enabled;
  EXPECT_TRUE(rules::clipsDepth(s));  // clamped and clipped
  s.depthClampEnable = false;
  s.depthClip = DepthClip::Disabled;
  EXPECT_FALSE(rules::clipsDepth(s));  // neither
}

// z_d runs from -0.5 to 1.5 across this triangle (w = 1): it crosses the near and the far plane.
const ClipTriangle kAcrossBothPlanes = tri({{-0.9f, -0.9f, -0.5f, 1}, {0.9f, -0.9f, 1.5f, 1}, {0, 0.9f, 0.5f, 1}});

TEST(RasterDepthClip, PrimitiveClipping_ClipOffClampOffDrawsTheWholeTriangle) {
  RasterState clipped = test::fullScreenState(40, 40);
  RasterState unclipped = clipped;
  unclipped.depthClip = DepthClip::Disabled;
  const int clippedPixels = coveredMatchingOracle(kAcrossBothPlanes, clipped, "clipped");
  const int wholePixels = coveredMatchingOracle(kAcrossBothPlanes, unclipped, "unclipped");
  // Clipping at z = 0 and z = w cuts off the two lower corners (162 of 648 pixels).
  EXPECT_GT(wholePixels, clippedPixels + 100);
  // A triangle wholly beyond the far plane is drawn too.
  std::vector<SetupTriangle> out;
  EXPECT_EQ(setupTriangle(tri({{0, 0, 1.5f, 1}, {0.5f, 0, 1.2f, 1}, {0, 0.5f, 2, 1}}), unclipped, out), 1u);
}

TEST(RasterDepthClip, DepthClampingAndRangeAdjustment_ClipOffClampOffDepthOutsideZeroOne) {
  // The viewport maps z_d in [0, 1] to [0, 1]; z_f = z_d. Without clamping, z_f outside [0, 1]
  // is kept only with VK_EXT_depth_range_unrestricted and a float depth attachment; otherwise it
  // is undefined and Tessera clamps it to [0, 1].
  for (const VkFormat format : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM})
    for (const bool unrestricted : {false, true}) {
      RasterState s = test::fullScreenState(40, 40);
      s.depthClip = DepthClip::Disabled;
      s.depthFormat = format;
      s.depthRangeUnrestricted = unrestricted;
      const bool keeps = unrestricted && format == VK_FORMAT_D32_SFLOAT;
      const test::Raster r = test::rasterize(kAcrossBothPlanes, s, s.scissor);
      int outsideZeroOne = 0;
      for (const auto& [p, f] : r.fragment) {
        const test::RayHit h = test::hitAtPixel(kAcrossBothPlanes, s.viewport, p.first, p.second);
        const double zf = h.pos[2] / h.pos[3];
        outsideZeroOne += zf < -0.01 || zf > 1.01;
        const double want = keeps ? zf : std::fmin(std::fmax(zf, 0.0), 1.0);
        EXPECT_NEAR(f.quad.z[f.slot], want, 2e-6) << p.first << "," << p.second << " unrestricted " << unrestricted;
      }
      EXPECT_GT(outsideZeroOne, 100);
    }
}

TEST(RasterDepthClip, DepthClampingAndRangeAdjustment_ClipOnClampOn) {
  // Clipped at the near and far planes AND clamped to the viewport's [0.2, 0.8]: the clipped
  // triangle's z_f already lies in [0.2, 0.8], so coverage is that of plain clipping and
  // z_f = 0.2 + 0.6 z_d ("Controlling the Viewport").
  RasterState s = test::fullScreenState(40, 40);
  s.viewport.minDepth = 0.2f;
  s.viewport.maxDepth = 0.8f;
  s.depthClampEnable = true;
  s.depthClip = DepthClip::Enabled;
  RasterState plain = s;
  plain.depthClampEnable = false;
  plain.depthClip = DepthClip::FollowClamp;
  EXPECT_EQ(coveredMatchingOracle(kAcrossBothPlanes, s, "clip+clamp"),
            coveredMatchingOracle(kAcrossBothPlanes, plain, "clip"));
  const test::Raster r = test::rasterize(kAcrossBothPlanes, s, s.scissor);
  EXPECT_GT(r.fragment.size(), 200u);
  for (const auto& [p, f] : r.fragment) {
    const test::RayHit h = test::hitAtPixel(kAcrossBothPlanes, s.viewport, p.first, p.second);
    EXPECT_NEAR(f.quad.z[f.slot], std::fmin(std::fmax(0.2 + 0.6 * h.pos[2] / h.pos[3], 0.2), 0.8), 2e-6);
  }
}

TEST(RasterDepthClip, DepthClampingAndRangeAdjustment_UnrestrictedViewportRange) {
  // VK_EXT_depth_range_unrestricted: minDepth -1, maxDepth 3 with clamping: z_f = -1 + 4 z_d
  // is clamped to [-1, 3] and kept with a float attachment. A triangle at z_d = 0.125 draws at
  // -0.5; one at z_d = 0.875 at 2.5.
  RasterState s = test::fullScreenState(16, 16);
  s.viewport.minDepth = -1;
  s.viewport.maxDepth = 3;
  s.depthClampEnable = true;
  s.depthFormat = VK_FORMAT_D32_SFLOAT;
  s.depthRangeUnrestricted = true;
  for (const float zd : {0.125f, 0.875f}) {
    const test::Raster r = test::rasterize(tri({{-1, -1, zd, 1}, {3, -1, zd, 1}, {-1, 3, zd, 1}}), s, s.scissor);
    ASSERT_EQ(r.fragment.size(), 256u);
    for (const auto& [p, f] : r.fragment) EXPECT_NEAR(f.quad.z[f.slot], -1 + 4 * zd, 1e-6);
  }
  // And without the extension enabled on the device such values are clamped to [0, 1].
  const rules::DepthRange restricted = [&] {
    RasterState t = s;
    t.depthRangeUnrestricted = false;
    return rules::fragmentDepthRange(t);
  }();
  EXPECT_EQ(restricted.min, 0.0f);
  EXPECT_EQ(restricted.max, 1.0f);
  // Without clamping and with the extension: no bound at all.
  s.depthClampEnable = false;
  EXPECT_EQ(rules::fragmentDepthRange(s).min, std::numeric_limits<float>::lowest());
  EXPECT_EQ(rules::fragmentDepthRange(s).max, std::numeric_limits<float>::max());
}

TEST(RasterDepthClip, ControllingTheViewport_NegativeOneToOneTransform) {
  // o_z = (maxDepth + minDepth) / 2, p_z = (maxDepth - minDepth) / 2 with negativeOneToOne.
  const Viewport vp{0, 0, 16, 16, 0.2f, 0.8f};
  EXPECT_NEAR(rules::viewportTransform(vp, true, 0, 0, -1).z, 0.2, 1e-7);
  EXPECT_NEAR(rules::viewportTransform(vp, true, 0, 0, 0).z, 0.5, 1e-7);
  EXPECT_NEAR(rules::viewportTransform(vp, true, 0, 0, 1).z, 0.8, 1e-7);
  EXPECT_NEAR(rules::viewportTransform(vp, false, 0, 0, 0).z, 0.2, 1e-7);
  EXPECT_NEAR(rules::viewportTransform(vp, false, 0, 0, 1).z, 0.8, 1e-7);
}

TEST(RasterDepthClip, PrimitiveClipping_NegativeOneToOneNearPlaneIsMinusW) {
  // z_d from -0.9 to 1.5: with z_m = -w only the far plane cuts; with z_m = 0 both do.
  const ClipTriangle t = tri({{-0.9f, -0.9f, -0.9f, 1}, {0.9f, -0.9f, 1.5f, 1}, {0, 0.9f, 0.3f, 1}});
  RasterState zeroToOne = test::fullScreenState(40, 40);
  RasterState minusOne = zeroToOne;
  minusOne.negativeOneToOne = true;
  const int narrow = coveredMatchingOracle(t, zeroToOne, "[0, 1]");
  const int wide = coveredMatchingOracle(t, minusOne, "[-1, 1]");
  EXPECT_GT(wide, narrow + 100);
  // Depth: z_f = 0.5 + 0.5 z_d, within [0, 1] after clipping to -w <= z <= w.
  const test::Raster r = test::rasterize(t, minusOne, minusOne.scissor);
  for (const auto& [p, f] : r.fragment) {
    const test::RayHit h = test::hitAtPixel(t, minusOne.viewport, p.first, p.second);
    EXPECT_NEAR(f.quad.z[f.slot], std::fmin(std::fmax(0.5 + 0.5 * h.pos[2] / h.pos[3], 0.0), 1.0), 2e-6);
  }
  // A triangle wholly at z_d in [-1, 0) is inside the [-1, 1] volume only.
  const ClipTriangle nearSide = tri({{-1, -1, -0.5f, 1}, {3, -1, -0.5f, 1}, {-1, 3, -0.5f, 1}});
  std::vector<SetupTriangle> out;
  EXPECT_EQ(setupTriangle(nearSide, zeroToOne, out), 0u);
  const test::Raster whole = test::rasterize(nearSide, minusOne, minusOne.scissor);
  ASSERT_EQ(whole.fragment.size(), 40u * 40u);
  for (const auto& [p, f] : whole.fragment) EXPECT_NEAR(f.quad.z[f.slot], 0.25f, 1e-6);
}

TEST(RasterDepthClip, PrimitiveClipping_PointsAndLines) {
  // Points are discarded outside the volume's z range only while depth clipping is on.
  RasterState s = test::fullScreenState(16, 16);
  const float beyondFar[4] = {0, 0, 1.5f, 1}, nearSide[4] = {0, 0, -0.5f, 1};
  EXPECT_FALSE(pointInsideClipVolume(beyondFar, s));
  EXPECT_FALSE(pointInsideClipVolume(nearSide, s));
  s.negativeOneToOne = true;
  EXPECT_TRUE(pointInsideClipVolume(nearSide, s));
  EXPECT_FALSE(pointInsideClipVolume(beyondFar, s));
  s.depthClip = DepthClip::Disabled;
  EXPECT_TRUE(pointInsideClipVolume(beyondFar, s));
  // A line from z_d = -1 to 2: clipped to t in [1/3, 2/3] with [0, 1], [0, 2/3] with [-1, 1],
  // kept whole without depth clipping.
  const ClipLine line{{{-0.5f, 0, -1, 1}, {0.5f, 0, 2, 1}}};
  ClipSegment seg;
  RasterState l = test::fullScreenState(16, 16);
  ASSERT_TRUE(clipLine(line, l, seg));
  EXPECT_NEAR(seg.bary[0][1], 1.0 / 3, 1e-12);
  EXPECT_NEAR(seg.bary[1][1], 2.0 / 3, 1e-12);
  l.negativeOneToOne = true;
  ASSERT_TRUE(clipLine(line, l, seg));
  EXPECT_EQ(seg.bary[0][1], 0.0);
  EXPECT_NEAR(seg.bary[1][1], 2.0 / 3, 1e-12);
  l.depthClip = DepthClip::Disabled;
  ASSERT_TRUE(clipLine(line, l, seg));
  EXPECT_EQ(seg.bary[0][1], 0.0);
  EXPECT_EQ(seg.bary[1][1], 1.0);
}

}  // namespace
}  // namespace tessera::raster
