// The rasterization rules as small named functions, each citing the specification section it
// implements. Setup (setup.cpp), clipping (clip.cpp) and coverage (coverage.cpp) call these;
// nothing else in raster/ re-derives a rule. Section names are those of the Vulkan 1.3
// specification ("Rasterization", "Fixed-Function Vertex Post-Processing", "Fragment
// Operations").
#pragma once

#include <cmath>
#include <cstdint>

#include "tessera/raster.h"

namespace tessera::raster::rules {

// ---- Sub-pixel precision ("Controlling the Viewport": x_f and y_f have limited precision,
// VkPhysicalDeviceLimits::subPixelPrecisionBits fractional bits). Tessera reports 8.
inline constexpr int kSubPixelBits = 8;
inline constexpr int64_t kSubPixelOne = int64_t{1} << kSubPixelBits;  // one pixel, fixed point

// Rounds a framebuffer coordinate to the sub-pixel grid (to nearest, halves away from zero),
// in units of 1/256 pixel. The caller keeps |coord| within the guard band (clip.h) so the
// result and every edge-function product fit in int64. Inline (set-up snaps every vertex).
inline int64_t snapToSubPixelGrid(double framebufferCoord) {
  // "Controlling the Viewport": subPixelPrecisionBits fractional bits are retained.
  const double v = framebufferCoord * static_cast<double>(kSubPixelOne);
  // std::llround without the library call: below 2^52 the truncation and the fraction it
  // leaves are exact, and a fraction of exactly +-1/2 rounds away from zero as llround does
  // (tests/unit/raster/snap_test.cpp compares the two). Larger values (and NaN) take llround.
  if (!(std::fabs(v) < 0x1p52)) return std::llround(v);
  const int64_t truncated = static_cast<int64_t>(v);
  const double fraction = v - static_cast<double>(truncated);
  return truncated + int64_t(fraction >= 0.5) - int64_t(fraction <= -0.5);
}

// ---- Sample locations ("Multisampling", standard sample locations): with
// VK_SAMPLE_COUNT_1_BIT the only sample is at the pixel centre (0.5, 0.5); "Basic Polygon
// Rasterization" also requires the fragment centre for associated data at one sample.
// The framebuffer coordinate of the centre, fixed point.
inline int64_t pixelCenter(int32_t pixel) { return int64_t{pixel} * kSubPixelOne + kSubPixelOne / 2; }
// rasterizationSamples as the rasterizer uses it: 1, 2, 4, 8 or 16 (raster.h), the counts the
// device may report in VkPhysicalDeviceLimits::framebuffer*SampleCounts; any other value
// samples once, at the centre.
inline uint32_t rasterSampleCount(uint32_t samples) { return isSupportedSampleCount(samples) ? samples : 1; }
// With 2, 4, 8 or 16 samples the standard locations of raster.h's kStandardSampleLocations,
// exact on the 1/256 grid. Sample s (< samples) of pixel (pixelX, pixelY), fixed point; with
// one sample the pixel centre.
void sampleLocation(int32_t pixelX, int32_t pixelY, uint32_t samples, uint32_t s, int64_t* sx, int64_t* sy);
// The same with a draw's own locations (VK_EXT_sample_locations) when `custom` is non-null and
// samples > 1: sample s at custom->x[s] / 16, custom->y[s] / 16 from the pixel's corner.
void sampleLocation(int32_t pixelX, int32_t pixelY, uint32_t samples, const SampleLocations* custom, uint32_t s,
                    int64_t* sx, int64_t* sy);
// The smallest and largest offset from the pixel's top-left corner of any sample location on
// either axis (fixed point): with one sample both are the centre's 1/2, with 4 samples 1/8 and
// 7/8, with 16 samples 0 and 15/16. What bounds and block tests widen by to take in every
// sample of a pixel.
struct SampleOffsetRange {
  int64_t min, max;
};
// With custom locations (`custom`, samples > 1): 0 and 15/16, every place one may lie.
SampleOffsetRange sampleOffsetRange(uint32_t samples, bool custom = false);

// ---- Viewport ("Controlling the Viewport").
struct FramebufferPoint {
  double x, y, z;
};
// x_f = (p_x / 2) x_d + o_x, y_f = (p_y / 2) y_d + o_y, z_f = p_z z_d + o_z with
// o_x = x + width/2, o_y = y + height/2, p_x = width, p_y = height, and o_z = minDepth,
// p_z = maxDepth - minDepth; with negativeOneToOne (VK_EXT_depth_clip_control, z_d in [-1, 1])
// o_z = (maxDepth + minDepth) / 2, p_z = (maxDepth - minDepth) / 2.
inline FramebufferPoint viewportTransform(const Viewport& vp, bool negativeOneToOne, double xd, double yd, double zd) {
  const double px = vp.width, py = vp.height;
  const double ox = double{vp.x} + px / 2, oy = double{vp.y} + py / 2;
  const double range = double{vp.maxDepth} - double{vp.minDepth};
  const double pz = negativeOneToOne ? range / 2 : range;
  const double oz = negativeOneToOne ? (double{vp.maxDepth} + double{vp.minDepth}) / 2 : double{vp.minDepth};
  return {px / 2 * xd + ox, py / 2 * yd + oy, pz * zd + oz};
}

// ---- Depth clipping ("Primitive Clipping"): the view volume's z condition z_m <= z_c <= w_c.
// Whether it applies: VkPipelineRasterizationDepthClipStateCreateInfoEXT::depthClipEnable when
// the pipeline has that structure; without it, "depth clipping is disabled" exactly when
// depthClampEnable is VK_TRUE.
inline bool clipsDepth(const RasterState& state) {
  if (state.depthClip == RasterState::DepthClip::FollowClamp) return !state.depthClampEnable;
  return state.depthClip == RasterState::DepthClip::Enabled;
}
// z_m: -w_c with VkPipelineViewportDepthClipControlCreateInfoEXT::negativeOneToOne, else 0. As
// the coefficient of w_c in the near half-space z_c - z_m >= 0, i.e. z_c + k w_c >= 0.
inline double nearPlaneWCoefficient(const RasterState& state) { return state.negativeOneToOne ? 1.0 : 0.0; }

// The pixels whose centre lies inside the viewport rectangle, i.e. inside the view volume's
// x/y planes ("Primitive Clipping"). Pixels are taken in [left, right) x [top, bottom): a
// centre exactly on the left or top boundary is inside, on the right or bottom one outside,
// the same decision the tie-breaking rule makes for a polygon clipped exactly there.
Rect viewportPixels(const Viewport& vp);

inline Rect intersect(const Rect& a, const Rect& b) {
  return {a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0, a.x1 < b.x1 ? a.x1 : b.x1, a.y1 < b.y1 ? a.y1 : b.y1};
}
inline bool isEmpty(const Rect& r) { return r.x0 >= r.x1 || r.y0 >= r.y1; }

// ---- Facing and culling ("Basic Polygon Rasterization").
// The shoelace sum S = sum_i x_i y_(i+1) - x_(i+1) y_i over the polygon's snapped framebuffer
// coordinates (fixed point). The spec's signed area is a = -S/2.
// Taken relative to vertex 0 (which leaves the sum unchanged) so the products stay within the
// guard band's 2^29 x 2^29 bound and the sum of at most kMaxClipVertices terms fits in int64.
inline int64_t shoelaceSum(const int64_t* x, const int64_t* y, int count) {
  int64_t sum = 0;
  for (int i = 1; i + 1 < count; ++i) {
    const int64_t ax = x[i] - x[0], ay = y[i] - y[0];
    const int64_t bx = x[i + 1] - x[0], by = y[i + 1] - y[0];
    sum += ax * by - bx * ay;
  }
  return sum;
}
// COUNTER_CLOCKWISE: front iff a > 0; CLOCKWISE: front iff a < 0; a == 0 is back-facing.
// Framebuffer y points down, so a triangle that looks clockwise on screen has S > 0, a < 0.
// "Any triangle which is not front-facing is back-facing, including zero-area triangles."
inline bool isFrontFacing(int64_t shoelace, VkFrontFace frontFace) {
  if (shoelace == 0) return false;
  const bool positiveArea = shoelace < 0;
  return frontFace == VK_FRONT_FACE_CLOCKWISE ? !positiveArea : positiveArea;
}
// cullMode FRONT discards front-facing, BACK back-facing, FRONT_AND_BACK both.
inline bool isCulled(VkCullModeFlags cullMode, bool frontFacing) {
  return (cullMode & (frontFacing ? VK_CULL_MODE_FRONT_BIT : VK_CULL_MODE_BACK_BIT)) != 0;
}

// ---- Coverage ("Basic Polygon Rasterization", point sampling with a tie-breaking rule).
// One edge of a triangle as a fixed-point edge function, oriented so that the triangle's
// interior is where value() > 0.
struct EdgeFunction {
  int64_t x0, y0;   // start vertex (fixed point)
  int64_t dx, dy;   // end - start, already multiplied by the orientation sign
  bool inclusive;   // the tie-break: samples with value() == 0 are covered (top-left rule)

  // Twice the signed area of (start, end, sample) times the orientation: exact in int64.
  int64_t value(int64_t sx, int64_t sy) const { return dx * (sy - y0) - dy * (sx - x0); }
  bool covers(int64_t v) const { return v > 0 || (v == 0 && inclusive); }
};
// The tie-breaking rule: a sample exactly on an edge is covered iff the edge is a "left" edge
// (interior to its right, +x) or a "top" edge (horizontal with the interior below it, +y; y
// points down in framebuffer coordinates). (gx, gy) is the gradient of the oriented edge
// function, which points into the interior. Two triangles sharing an edge see opposite
// gradients, so exactly one of them covers a sample on it, as the spec requires.
inline bool isTopLeft(int64_t gx, int64_t gy) { return gx > 0 || (gx == 0 && gy > 0); }
// orientation: +1 when the triangle's shoelace sum is positive, -1 when negative.
inline EdgeFunction makeEdge(int64_t ax, int64_t ay, int64_t bx, int64_t by, int orientation) {
  EdgeFunction e;
  e.x0 = ax;
  e.y0 = ay;
  e.dx = (bx - ax) * orientation;
  e.dy = (by - ay) * orientation;
  // value = dx (sy - y0) - dy (sx - x0): gradient (-dy, dx).
  e.inclusive = isTopLeft(-e.dy, e.dx);
  return e;
}

// ---- Depth bias ("Depth Bias Computation"), depth_bias.cpp.
// r for the depth attachment format: 2^-n for an n-bit UNORM depth (the "depthBiasExact"
// value; the spec allows up to 2 x 2^-n), 2^(e - 23) for 32-bit float depth where e is the
// exponent of the largest |z| of the primitive; 0 when there is no depth attachment (r is
// undefined then). VK_EXT_depth_bias_control's representations: ForceUnorm makes it the
// constant 2^-n with n the depth bits, or the mantissa bits plus one (2^-24 for 32-bit float);
// Float makes it 1, attachment or not.
double minimumResolvableDifference(VkFormat depthFormat, double maxAbsDepth,
                                   RasterState::DepthBiasRepresentation representation = RasterState::DepthBiasRepresentation::Format);
// m = sqrt((dz/dx)^2 + (dz/dy)^2), the spec's exact maximum depth slope.
double maximumDepthSlope(double dzdx, double dzdy);
// o = dbclamp(m * depthBiasSlopeFactor + r * depthBiasConstantFactor).
double depthBiasValue(double m, double r, float slopeFactor, float constantFactor, float clamp);

// ---- Fragment depth ("Depth Clamping and Range Adjustment", "Depth Bias"): the range a
// fragment's depth (bias added) is clamped to. With depthClampEnable z_f is clamped to the
// viewport's [min(minDepth, maxDepth), max(minDepth, maxDepth)], without it not at all. Then a
// z_f outside [0, 1] is undefined unless VK_EXT_depth_range_unrestricted is enabled and the
// depth attachment is a floating-point format, where it is kept: otherwise Tessera clamps it
// to [0, 1] (deterministic, and what "fragment depth values are always limited to the range
// [0,1] by clamping after depth bias addition" asks of the usual case).
struct DepthRange {
  float min, max;
};
DepthRange fragmentDepthRange(const RasterState& state);
// Whether the depth attachment format stores depth as a 32-bit float (D32_SFLOAT[_S8_UINT]).
bool isFloatDepthFormat(VkFormat format);
// Inline so that the block walker's per-pixel loops vectorize. A NaN depth (degenerate input)
// becomes range.min, and -0 becomes +0 with the usual [0, 1] range: one stored value for zero.
inline float clampFragmentDepth(double z, const DepthRange& range) {
  const double lo = range.min, hi = range.max;
  const double atLeastMin = z > lo ? z : lo;
  return static_cast<float>(atLeastMin < hi ? atLeastMin : hi);
}

// ---- Pixel spans. The pixels p whose centre p + 0.5 lies in [lo, hi] (fixed point), as the
// half-open range [first, last + 1); empty when none does.
struct PixelSpan {
  int32_t first, end;
};
PixelSpan pixelCentresWithin(int64_t lo, int64_t hi);
// The pixels p some sample location of which may lie in [lo, hi]: p + min offset <= hi and
// p + max offset >= lo (sampleOffsetRange). With one sample exactly pixelCentresWithin.
// Arithmetic shifts floor for negatives too: p * 256 + max >= lo <=> p >= ceil((lo - max) / 256),
// p * 256 + min <= hi <=> p <= floor((hi - min) / 256).
inline PixelSpan pixelSamplesWithin(int64_t lo, int64_t hi, uint32_t samples, bool custom = false) {
  const SampleOffsetRange r = sampleOffsetRange(samples, custom);
  const int64_t first = -((r.max - lo) >> kSubPixelBits);
  const int64_t last = (hi - r.min) >> kSubPixelBits;
  return {static_cast<int32_t>(first), static_cast<int32_t>(last + 1 > first ? last + 1 : first)};
}

// ---- Points ("Points", "Basic Point Rasterization").
// pointSizeRange as Tessera reports it (raster.h: kPointSizeRange).
inline constexpr float kPointSizeMin = kPointSizeRange[0], kPointSizeMax = kPointSizeRange[1];
// "clamped to the implementation-dependent point size range"; "If an unsupported size is
// requested, the nearest supported size is used instead". A non-finite size (the value "must be
// greater than zero") also gets the nearest supported one, kPointSizeMin.
float clampPointSize(float size);
// PointCoord: s = 1/2 + (x_p - x_f) / size, with (x_p, y_p) where it is evaluated (the
// fragment centre here) and (x_f, y_f) "the exact, unrounded framebuffer coordinate of the
// vertex"; t likewise with y.
float pointSpriteCoord(double sampleCoord, double vertexCoord, float size);

// ---- Lines ("Basic Line Segment Rasterization").
// "Line Segments": "If an unsupported width is requested, the nearest supported width is used
// instead": the width clamped to lineWidthRange (raster.h: kLineWidthRange); NaN gives 1.
float clampLineWidth(float width);
// Half a (clamped) width on the sub-pixel grid, fixed point: the distance of the
// parallelogram's long edges from the line along the minor axis. 128 for width 1.
int64_t lineHalfWidth(float width);
// The non-strict parallelogram's major axis: "the axis in which there is the greatest distance
// between the line start and end points. If the difference is equal in both directions then
// the X axis is chosen as the major axis."
bool isXMajor(int64_t dx, int64_t dy);
// t = ((p_r - p_a) . (p_b - p_a)) / ||p_b - p_a||^2: "the normalized distance of the fragment
// along the line" (0 at p_a, 1 at p_b), from fixed-point positions (exact products).
double lineParameter(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t rx, int64_t ry);

// "Basic Line Segment Rasterization" with VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT: "a
// rectangle centered on the line segment. Two of the edges are parallel to the specified line
// segment; each is at a distance of one-half the current width from that segment ... The other
// two edges pass through the line endpoints and are perpendicular to the direction of the
// specified line segment." Whether the sample (sx, sy) lies in the rectangle of the segment
// from (ax, ay) to (bx, by) with half width `halfWidth` (all 1/256 pixel, halfWidth from
// lineHalfWidth): decided exactly (squared distances in 128-bit integers), a sample exactly on
// an edge covered when the edge is a top or left one (isTopLeft, the polygon tie-break: two
// rectangles sharing an edge, as segments of a strip going on in one direction do at their
// joint, give a sample on it to exactly one of them). The segment must not be degenerate.
bool rectangleCovers(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t halfWidth, int64_t sx, int64_t sy);

// "Smooth Lines" (VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT): "the fragment computes a
// coverage value that approximates the area of the intersection of the rectangle with the pixel
// square". The area (in pixels, from 0 to 1) of the part of pixel (px, py)'s square inside the
// rectangle of the segment from (ax, ay) to (bx, by) with half width `halfWidth` (1/256 pixel,
// as rectangleCovers) whose distance along the segment from (ax, ay) lies in [alongFrom,
// alongTo] (pixels; "Line Stipple"'s unit-length rectangles), computed exactly up to double
// rounding: in the segment's frame the rectangle is axis-aligned and the pixel square a rotated
// square, clipped by the rectangle's four sides. The segment must not be degenerate.
double rectanglePixelArea(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t halfWidth, int32_t px, int32_t py,
                          double alongFrom, double alongTo);

// "Bresenham Line Segment Rasterization" (VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT), the
// diamond-exit rule, exactly (raster/diamond_exit.cpp): whether the segment from (ax, ay) to
// (bx, by) (1/256 pixel) produces the fragment of pixel (px, py): the segment perturbed by
// -(ε, ε²) meets the open diamond |x - x_f| + |y - y_f| < 1/2 around the pixel centre and its
// perturbed end point is not inside it. Coordinates within +-2^28 (2^20 pixels).
bool diamondExitProduces(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t px, int32_t py);
// "The actual width w of Bresenham lines is determined by rounding the line width to the
// nearest integer, clamping it to the implementation-dependent lineWidthRange (with both values
// rounded to the nearest integer), then clamping it to be no less than 1." NaN gives 1.
int32_t bresenhamLineWidth(float width);
// The fragment the diamond-exit rule produces in one column of an x-major segment (one row of
// a y-major one; "x-major line segments have slope in the closed interval [-1,1]", isXMajor):
// a segment meets the diamond of pixel (m, n) only where the line's minor coordinate at the
// column's centre m + 1/2 is within 1/2 of n + 1/2, so n is floor of that coordinate, or one
// less when it is an integer (the perturbation decides); the rule decides between them and
// whether the column has a fragment at all. True with its minor coordinate in *minor; at most
// one per column ("two fragments that lie in the same framebuffer-coordinate column must not
// be produced"). Coordinates within +-2^28, the segment not degenerate.
bool bresenhamFragmentAt(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t major, int32_t* minor);
// The major-axis coordinates of the first and last fragments the diamond-exit rule produces
// along a segment ("fragments are produced in order, beginning at the starting point and
// working towards the ending point"): every column (row) between them has one. False when it
// produces none. Found by walking from each end: a few columns.
bool bresenhamFragmentSpan(int64_t ax, int64_t ay, int64_t bx, int64_t by, int32_t* first, int32_t* last);

// ---- "Line Stipple".
// lineStippleFactor "must be in the range [1,256]": other values (invalid usage) are clamped.
inline uint32_t clampStippleFactor(uint32_t factor) { return factor < 1 ? 1 : factor > 256 ? 256 : factor; }
// "b = floor(s / r) mod 16. Then a fragment is produced if the b'th bit of p is 1, and discarded
// otherwise", for any integer counter s (negative too: floor and mod as in mathematics).
inline bool stippleKeeps(int64_t s, uint32_t factor, uint16_t pattern) {
  const int64_t r = clampStippleFactor(factor);
  const int64_t q = s >= 0 ? s / r : -((-s + r - 1) / r);  // floor(s / r)
  return (pattern >> (q & 15)) & 1;                      // & 15 is mod 16 for negatives too
}
// BRESENHAM lines: "s is incremented after production of each fragment": the counter of the
// fragment produced after `fragmentsBefore` others of the segment, whose first has s = origin
// (an integer, as every Bresenham advance is). Beyond +-2^52 (or NaN), 0.
inline int64_t bresenhamStippleCounter(double origin, int64_t fragmentsBefore) {
  const double s = std::floor(origin) + static_cast<double>(fragmentsBefore);
  return std::fabs(s) < 0x1p52 ? static_cast<int64_t>(s) : 0;
}
// RECTANGULAR (and DEFAULT) lines: "the rectangular region is subdivided into adjacent
// unit-length rectangles, and s is incremented once for each rectangle": the counter of a
// location at `distance` pixels along the segment from its start, where the counter is
// `origin` (a remainder of the strip's earlier segments carried over: fractional). A value
// beyond +-2^52 (or NaN, from degenerate input) counts as 0.
inline int64_t rectangularStippleCounter(double origin, double distance) {
  const double s = std::floor(origin + distance);
  return std::fabs(s) < 0x1p52 ? static_cast<int64_t>(s) : 0;
}

}  // namespace tessera::raster::rules
