// setupLine and rasterizeLine (raster.h): clipping, projection, viewport transform and snapping
// of a line segment, then "Basic Line Segment Rasterization" for strictLines = VK_FALSE, of the
// line width (wideLines: the same parallelogram with minor-axis edges lineWidth long).
//
// The rule: the non-strict PARALLELOGRAM, not Bresenham's diamond-exit rule. With strictLines
// false the spec generates "the edges of the lines ... as a parallelogram surrounding the
// original line": edges 2 and 3 run along the minor axis through the endpoints, lineWidth long
// and centred on them; edges 0 and 1 are parallel to the line; "Samples that fall exactly on the
// edge of the parallelogram follow the polygon rasterization rules". Bresenham ("Bresenham Line
// Segment Rasterization") is only an allowed deviation for non-antialiased non-strict lines.
// The parallelogram is chosen because:
//  - it is the rule the spec states for non-strict lines; the CTS line verifier
//    (tcuRasterizationVerifier verifyRelaxedLineGroupRasterization) checks it first, and accepts
//    the diamond-exit reference only as a last resort and only without multisampling, so the
//    parallelogram keeps the multisampled line tests open later; the interpolation verifier
//    likewise accepts Bresenham lines only through its "projected weights" fallback;
//  - its coverage is the polygon coverage Tessera already has: fixed-point edge functions with
//    the top-left tie-break (rules::makeEdge), so lines and triangles decide ties one way;
//  - it keeps Bresenham's useful properties for width 1: one pixel per column (row) of an
//    x-major (y-major) line, since the two long edges are one pixel apart along the minor axis
//    and exactly one of them is inclusive; and segments of a strip that continue in the same
//    direction share their minor-axis end edge exactly, so the tie-break gives a sample on it to
//    exactly one of them (no pixel drawn twice at a shared endpoint, none lost).
// (lavapipe, for comparison, rasterizes VK_LINE_RASTERIZATION_MODE_DEFAULT as rectangles and
// uses its diamond-exit path only for the BRESENHAM mode.)
//
// Multisampling: each sample location (the standard locations with 4 samples) is tested
// against the same parallelogram ("Basic Line Segment Rasterization": with strictLines false
// and multisampling the coverage is that of the parallelogram), and depth and the centroid
// weights use the same formula at the sample or centroid location.
//
// Interpolation uses the line formula of "Basic Line Segment Rasterization" (t is the fragment
// centre projected onto the segment, perspective weights from t and the endpoints' 1/w, z linear
// in t): strictLines false allows it ("Implementations may instead interpolate each fragment
// according to the formula in Basic Line Segment Rasterization using the original line segment
// endpoints") in place of the two-triangle interpolation of the parallelogram.
//
// VK_EXT_line_rasterization adds, by RasterState::lineMode:
//  - RECTANGULAR: "Basic Line Segment Rasterization" as written, the rectangle centred on the
//    segment with its ends perpendicular to it (rules::rectangleCovers, exact), interpolated by
//    the same segment formula. The walk is the parallelogram's, over the rectangle's corners.
//  - BRESENHAM: bresenham_lines.cpp.
//  - RECTANGULAR_SMOOTH ("Smooth Lines"): RECTANGULAR's rectangle; "The rules for determining
//    which pixels are covered are implementation-dependent": every pixel whose square it
//    overlaps (area above 0), all its samples, the area itself (rules::rectanglePixelArea) as
//    Quad::lineCoverage, which the fragment stage multiplies into colour location 0's alpha
//    ("Multisample Coverage").
//  - "Line Stipple" for all of them. The counter at a location is a function of where it lies
//    on the line, never a count of the fragments visited: the binned path draws each line
//    tile by tile and must discard what the reference path discards. DEFAULT, RECTANGULAR and
//    RECTANGULAR_SMOOTH lines: s = floor(stippleOrigin + the location's distance along the
//    segment), per sample (the unit-length rectangles the spec cuts the line into are regions,
//    like the line itself; a smooth line's coverage value is the area in the kept ones); a
//    strip's segments carry the counter on (lineStippleAdvance). A segment whose
//    start clipping removed starts at the counter its unclipped start would have had, carried
//    along the line to the clipped start, so a pattern does not shift when the line leaves
//    the view.
#include <algorithm>
#include <bit>
#include <cmath>

#include "clip.h"
#include "line_internal.h"
#include "polygon.h"

namespace tessera::raster {
namespace {

int32_t floorToEven(int32_t v) { return v & ~1; }  // two's complement: also right for v < 0

// The parallelogram of a segment (DEFAULT). Corners in order a - m, b - m, b + m, a + m, with m
// half the width along the minor axis (rules::lineHalfWidth); edge k runs from corner k to
// corner k + 1.
struct Parallelogram {
  LineSegment seg;
  double cx[4], cy[4];  // corners, for the candidate pixels (exact: integers below 2^24)
  rules::EdgeFunction edge[4];

  bool covers(int64_t sx, int64_t sy) const {
    for (const rules::EdgeFunction& e : edge)
      if (!e.covers(e.value(sx, sy))) return false;
    return true;
  }
};

// False for a zero-length segment, whose parallelogram has no area (it covers no sample).
bool makeParallelogram(const LineSegment& seg, int64_t halfWidth, Parallelogram& p) {
  if (seg.degenerate()) return false;
  p.seg = seg;
  const bool xMajor = rules::isXMajor(seg.bx - seg.ax, seg.by - seg.ay);
  // Edges 2 and 3 "are aligned to the minor axis and are centered on the endpoints of the line
  // ... and each is lineWidth long".
  const int64_t mx = xMajor ? 0 : halfWidth, my = xMajor ? halfWidth : 0;
  const int64_t ex[4] = {seg.ax, seg.bx, seg.bx, seg.ax}, ey[4] = {seg.ay, seg.by, seg.by, seg.ay};
  const int sign[4] = {-1, -1, 1, 1};
  int64_t cx[4], cy[4];
  for (int k = 0; k < 4; ++k) {
    cx[k] = ex[k] + sign[k] * mx;
    cy[k] = ey[k] + sign[k] * my;
    p.cx[k] = static_cast<double>(cx[k]);
    p.cy[k] = static_cast<double>(cy[k]);
  }
  // Orient the edge functions so the interior is positive, as for a triangle.
  const int orientation = rules::shoelaceSum(cx, cy, 4) > 0 ? 1 : -1;
  for (int k = 0; k < 4; ++k) {
    const int n = (k + 1) % 4;
    p.edge[k] = rules::makeEdge(cx[k], cy[k], cx[n], cy[n], orientation);
  }
  return true;
}

// The rectangle of a segment (RECTANGULAR): coverage decided exactly by rules::rectangleCovers;
// its corners a +- n, b +- n (n half the width along the segment's normal) in double only
// bound the candidate pixels, widened by one pixel against their rounding.
struct Rectangle {
  LineSegment seg;
  int64_t halfWidth;
  double cx[4], cy[4];

  bool covers(int64_t sx, int64_t sy) const {
    return rules::rectangleCovers(seg.ax, seg.ay, seg.bx, seg.by, halfWidth, sx, sy);
  }
};

bool makeRectangle(const LineSegment& seg, int64_t halfWidth, Rectangle& r) {
  if (seg.degenerate()) return false;
  r.seg = seg;
  r.halfWidth = halfWidth;
  const double dx = static_cast<double>(seg.bx - seg.ax), dy = static_cast<double>(seg.by - seg.ay);
  const double scale = static_cast<double>(halfWidth) / std::sqrt(dx * dx + dy * dy);
  const double nx = -dy * scale, ny = dx * scale;
  const double ex[4] = {double(seg.ax), double(seg.bx), double(seg.bx), double(seg.ax)};
  const double ey[4] = {double(seg.ay), double(seg.by), double(seg.by), double(seg.ay)};
  const int sign[4] = {-1, -1, 1, 1};
  for (int k = 0; k < 4; ++k) {
    r.cx[k] = ex[k] + sign[k] * nx;
    r.cy[k] = ey[k] + sign[k] * ny;
  }
  return true;
}

// Pixels with a sample location in the box of the corners widened by `margin` sub-pixel units
// each way (the parallelogram's corners are exact, the rectangle's rounded: 1).
Rect boundingPixels(const double cx[4], const double cy[4], int64_t margin, uint32_t samples, bool custom) {
  const auto [x0, x1] = std::minmax({cx[0], cx[1], cx[2], cx[3]});
  const auto [y0, y1] = std::minmax({cy[0], cy[1], cy[2], cy[3]});
  const rules::PixelSpan xs =
      rules::pixelSamplesWithin(int64_t(std::floor(x0)) - margin, int64_t(std::ceil(x1)) + margin, samples, custom);
  const rules::PixelSpan ys =
      rules::pixelSamplesWithin(int64_t(std::floor(y0)) - margin, int64_t(std::ceil(y1)) + margin, samples, custom);
  return {xs.first, ys.first, xs.end, ys.end};
}

// The x-extent (fixed point) of the convex quadrilateral with corners (cx, cy) between the lines
// y = y0 and y = y1 (a convex polygon's extent in a strip is reached on its clipped edges). False
// when it does not reach the strip.
bool stripExtent(const double cx[4], const double cy[4], double y0, double y1, double* lowest, double* highest) {
  double lo = INFINITY, hi = -INFINITY;
  auto take = [&](double x) { lo = std::min(lo, x), hi = std::max(hi, x); };
  for (int k = 0; k < 4; ++k) {
    const int n = (k + 1) % 4;
    const double xa = cx[k], ya = cy[k], xb = cx[n], yb = cy[n];
    if (std::max(ya, yb) < y0 || std::min(ya, yb) > y1) continue;  // edge outside the strip
    if (ya == yb) {
      take(xa), take(xb);
      continue;
    }
    const double ta = std::clamp((y0 - ya) / (yb - ya), 0.0, 1.0), tb = std::clamp((y1 - ya) / (yb - ya), 0.0, 1.0);
    take(xa + ta * (xb - xa)), take(xa + tb * (xb - xa));
  }
  *lowest = lo, *highest = hi;
  return lo <= hi;
}

// Candidate columns for the quad row at qy: the quadrilateral's extent between the lowest and
// highest sample line of the two rows, widened by one pixel on each side against rounding; the
// exact coverage test decides.
rules::PixelSpan rowCandidates(const double cx[4], const double cy[4], uint32_t samples, bool custom, int32_t qy) {
  const rules::SampleOffsetRange r = rules::sampleOffsetRange(samples, custom);
  const double y0 = static_cast<double>(qy * rules::kSubPixelOne + r.min);
  const double y1 = static_cast<double>((qy + 1) * rules::kSubPixelOne + r.max);
  double lo, hi;
  if (!stripExtent(cx, cy, y0, y1, &lo, &hi)) return {0, 0};
  const rules::PixelSpan s =
      rules::pixelSamplesWithin(static_cast<int64_t>(std::floor(lo)), static_cast<int64_t>(std::ceil(hi)), samples, custom);
  return {s.first - 1, s.end + 1};
}

// The same for pixel squares (smooth lines): the columns whose squares may meet the
// quadrilateral in the quad row at qy, widened by one pixel on each side.
rules::PixelSpan rowSquareCandidates(const double cx[4], const double cy[4], int32_t qy) {
  double lo, hi;
  if (!stripExtent(cx, cy, double(qy * rules::kSubPixelOne), double((qy + 2) * rules::kSubPixelOne), &lo, &hi)) return {0, 0};
  const double one = double(rules::kSubPixelOne);
  return {static_cast<int32_t>(std::floor(lo / one)) - 1, static_cast<int32_t>(std::floor(hi / one)) + 2};
}

// The pixels whose squares meet the box of the corners, widened by one each way.
Rect boundingSquares(const double cx[4], const double cy[4]) {
  const auto [x0, x1] = std::minmax({cx[0], cx[1], cx[2], cx[3]});
  const auto [y0, y1] = std::minmax({cy[0], cy[1], cy[2], cy[3]});
  const double one = double(rules::kSubPixelOne);
  return {static_cast<int32_t>(std::floor(x0 / one)) - 1, static_cast<int32_t>(std::floor(y0 / one)) - 1,
          static_cast<int32_t>(std::floor(x1 / one)) + 2, static_cast<int32_t>(std::floor(y1 / one)) + 2};
}

// "Line Stipple" for DEFAULT and RECTANGULAR lines: whether the unit-length rectangle holding a
// sample location is kept. Its counter is rules::rectangularStippleCounter of the location's
// distance along the segment (its projection onto it, in pixels) from the segment's start.
struct AreaStipple {
  bool enabled = false;
  uint16_t pattern = 0xFFFF;
  uint32_t factor = 1;
  double origin = 0;
  LineSegment seg{};
  double length = 1;  // |p_b - p_a|, 1/256 pixel

  bool keeps(int64_t sx, int64_t sy) const {
    if (!enabled) return true;
    const int64_t along = (seg.bx - seg.ax) * (sx - seg.ax) + (seg.by - seg.ay) * (sy - seg.ay);
    const double distance = static_cast<double>(along) / (length * static_cast<double>(rules::kSubPixelOne));
    return rules::stippleKeeps(rules::rectangularStippleCounter(origin, distance), factor, pattern);
  }
};

AreaStipple areaStipple(const SetupLine& line, const LineSegment& seg) {
  AreaStipple st;
  st.enabled = line.stipple;
  st.pattern = line.stipplePattern;
  st.factor = line.stippleFactor;
  st.origin = line.stippleOrigin;
  st.seg = seg;
  const double dx = static_cast<double>(seg.bx - seg.ax), dy = static_cast<double>(seg.by - seg.ay);
  st.length = std::sqrt(dx * dx + dy * dy);
  return st;
}

// Bit s: sample s of pixel (px, py) lies in the shape and in a rectangle the stipple keeps.
template <typename Shape>
uint32_t pixelSampleCoverage(const Shape& shape, const AreaStipple& stipple, uint32_t samples, const SampleLocations* custom,
                             int32_t px, int32_t py) {
  uint32_t mask = 0;
  for (uint32_t s = 0; s < samples; ++s) {
    int64_t sx, sy;
    rules::sampleLocation(px, py, samples, custom, s, &sx, &sy);
    if (shape.covers(sx, sy) && stipple.keeps(sx, sy)) mask |= 1u << s;
  }
  return mask;
}

// The Centroid location's weights ("Interpolation Decorations", raster.h says which): the
// centre's unless the pixel is only partly covered, then those at its lowest covered sample.
void centroidWeights(const SetupLine& line, const LineSegment& seg, const SampleLocations* custom, int32_t px, int32_t py,
                     Quad& q, int slot) {
  const uint32_t mask = q.sampleCoverage[slot];
  const uint32_t all = (1u << line.samples) - 1;
  if (line.samples == 1 || mask == 0 || mask == all) {
    for (int i = 0; i < 3; ++i) {
      q.centroidPersp[slot][i] = q.baryPersp[slot][i];
      q.centroidLinear[slot][i] = q.baryLinear[slot][i];
    }
    return;
  }
  int64_t sx, sy;
  rules::sampleLocation(px, py, line.samples, custom, static_cast<uint32_t>(std::countr_zero(mask)), &sx, &sy);
  double lin[2];
  segmentWeights(seg, sx, sy, lin);
  lineOriginalWeights(line, lin, lineInvWAt(line, lin), q.centroidPersp[slot], q.centroidLinear[slot]);
}

// Depth and weights of one pixel (covered or not: helper pixels get the extrapolated values).
void shadePixel(const SetupLine& line, const LineSegment& seg, const SampleLocations* custom, int32_t px, int32_t py, Quad& q,
                int slot) {
  // "Basic Line Segment Rasterization": t of the fragment centre along the (clipped) segment.
  double lin[2];
  segmentWeights(seg, rules::pixelCenter(px), rules::pixelCenter(py), lin);
  q.z[slot] = lineDepthAt(line, lin);
  const double invW = lineInvWAt(line, lin);
  q.invW[slot] = static_cast<float>(invW);
  lineOriginalWeights(line, lin, invW, q.baryPersp[slot], q.baryLinear[slot]);
  // Each sample's own depth for the per-sample depth test; one sample: the centre's.
  if (line.samples <= 1) q.sampleZ[slot][0] = q.z[slot];
  for (uint32_t s = 0; line.samples > 1 && s < line.samples; ++s) {
    int64_t sx, sy;
    rules::sampleLocation(px, py, line.samples, custom, s, &sx, &sy);
    double sl[2];
    segmentWeights(seg, sx, sy, sl);
    q.sampleZ[slot][s] = lineDepthAt(line, sl);
    if (line.sampleWeights) lineOriginalWeights(line, sl, lineInvWAt(line, sl), q.samplePersp[slot][s], q.sampleLinear[slot][s]);
  }
  centroidWeights(line, seg, custom, px, py, q, slot);
}

// The quads of a DEFAULT or RECTANGULAR line inside `region`, in the fixed order of
// rasterizeTriangle: rows top to bottom, left to right.
template <typename Shape>
void rasterizeArea(const SetupLine& line, const Shape& shape, const Rect& region, const QuadSink& sink,
                   const SampleLocations* custom) {
  const AreaStipple stipple = areaStipple(line, shape.seg);
  for (int32_t qy = floorToEven(region.y0); qy < region.y1; qy += 2) {
    const rules::PixelSpan span = rowCandidates(shape.cx, shape.cy, line.samples, custom != nullptr, qy);
    const int32_t x0 = std::max(span.first, region.x0), x1 = std::min(span.end, region.x1);
    for (int32_t qx = floorToEven(x0); qx < x1; qx += 2) {
      Quad q{};
      q.x = qx;
      q.y = qy;
      for (int slot = 0; slot < 4; ++slot) {
        const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
        if (px < region.x0 || px >= region.x1 || py < region.y0 || py >= region.y1) continue;
        q.sampleCoverage[slot] = pixelSampleCoverage(shape, stipple, line.samples, custom, px, py);
        if (q.sampleCoverage[slot] != 0) q.coverage |= 1u << slot;
      }
      if (q.coverage == 0) continue;
      for (int slot = 0; slot < 4; ++slot) shadePixel(line, shape.seg, custom, qx + (slot & 1), qy + (slot >> 1), q, slot);
      sink(q);
    }
  }
}

// "Smooth Lines": the coverage value of pixel (px, py), the area of its square inside the
// rectangle; with "Line Stipple" inside the unit-length rectangles the stipple keeps (rectangle
// k holds the distances d along the segment with floor(origin + d) = k: [k - origin,
// k + 1 - origin)). A pixel's square spans under 1.5 pixels along the line: at most three.
double smoothCoverage(const Rectangle& r, const AreaStipple& stipple, int32_t px, int32_t py) {
  const LineSegment& s = r.seg;
  if (!stipple.enabled) return rules::rectanglePixelArea(s.ax, s.ay, s.bx, s.by, r.halfWidth, px, py, -INFINITY, INFINITY);
  const double one = double(rules::kSubPixelOne), length = stipple.length / one;
  double lo = INFINITY, hi = -INFINITY;
  for (int corner = 0; corner < 4; ++corner) {
    const double x = double(px + (corner & 1)) - double(s.ax) / one, y = double(py + (corner >> 1)) - double(s.ay) / one;
    const double along = (x * double(s.bx - s.ax) + y * double(s.by - s.ay)) / stipple.length;
    lo = std::min(lo, along), hi = std::max(hi, along);
  }
  lo = std::max(lo, 0.0), hi = std::min(hi, length);
  if (!(lo <= hi)) return 0;
  double area = 0;
  const int64_t last = rules::rectangularStippleCounter(stipple.origin, hi);
  for (int64_t k = rules::rectangularStippleCounter(stipple.origin, lo); k <= last; ++k) {
    if (!rules::stippleKeeps(k, stipple.factor, stipple.pattern)) continue;
    const double from = double(k) - stipple.origin, to = double(k + 1) - stipple.origin;
    area += rules::rectanglePixelArea(s.ax, s.ay, s.bx, s.by, r.halfWidth, px, py, from, to);
  }
  return area;
}

// The quads of a RECTANGULAR_SMOOTH line inside `region`, in the order of rasterizeArea: the
// pixels with a coverage value above 0, every sample of them covered (the value, not the samples,
// says how much of the pixel the line covers; "The rules for determining which pixels are
// covered are implementation-dependent").
void rasterizeSmooth(const SetupLine& line, const Rectangle& r, const Rect& region, const QuadSink& sink,
                     const SampleLocations* custom) {
  const AreaStipple stipple = areaStipple(line, r.seg);
  const uint32_t allSamples = (1u << line.samples) - 1;
  for (int32_t qy = floorToEven(region.y0); qy < region.y1; qy += 2) {
    const rules::PixelSpan span = rowSquareCandidates(r.cx, r.cy, qy);
    const int32_t x0 = std::max(span.first, region.x0), x1 = std::min(span.end, region.x1);
    for (int32_t qx = floorToEven(x0); qx < x1; qx += 2) {
      Quad q{};
      q.x = qx;
      q.y = qy;
      for (int slot = 0; slot < 4; ++slot) {
        const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
        if (px < region.x0 || px >= region.x1 || py < region.y0 || py >= region.y1) continue;
        const double area = smoothCoverage(r, stipple, px, py);
        if (!(area > 0)) continue;
        q.coverage |= 1u << slot;
        q.sampleCoverage[slot] = allSamples;
        q.lineCoverage[slot] = static_cast<float>(std::min(area, 1.0));
      }
      if (q.coverage == 0) continue;
      for (int slot = 0; slot < 4; ++slot) shadePixel(line, r.seg, custom, qx + (slot & 1), qy + (slot >> 1), q, slot);
      sink(q);
    }
  }
}

// The framebuffer position (pixels) of a clip-space position: "Coordinate Transformations"
// (division by w_c) and "Controlling the Viewport". False when it has none (w below
// kMinClipW: behind the eye, or NaN) or it is not finite.
bool projectToFramebuffer(const float position[4], const RasterState& state, double* x, double* y) {
  const double w = position[3];
  if (!(w >= kMinClipW)) return false;
  const rules::FramebufferPoint f =
      rules::viewportTransform(state.viewport, state.negativeOneToOne, position[0] / w, position[1] / w, position[2] / w);
  *x = f.x, *y = f.y;
  return std::isfinite(f.x) && std::isfinite(f.y);
}

// Positions this far out (pixels) are snapped as set-up snaps them: sub-pixel coordinates and
// the rules' products stay exact (rules::diamondExitProduces takes 2^28 sub-pixel units).
constexpr double kExactStippleRange = 1 << 20;

// s of the set-up segment's start (DEFAULT, RECTANGULAR) or first fragment (BRESENHAM), from
// the counter at its first vertex: carried from the unclipped start when clipping moved it.
double stippleOriginOf(const SetupLine& line, const LineSegment& seg, const LineStippleStart& start) {
  if (!start.clippedStart) return start.counter;
  if (line.mode != VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT) {
    // The distance the clipping cut off, from the start as set-up would have snapped it.
    const bool near = std::max(std::fabs(start.fromX), std::fabs(start.fromY)) < kExactStippleRange;
    const double fromX = near ? double(rules::snapToSubPixelGrid(start.fromX)) : start.fromX * double(rules::kSubPixelOne);
    const double fromY = near ? double(rules::snapToSubPixelGrid(start.fromY)) : start.fromY * double(rules::kSubPixelOne);
    return start.counter + std::hypot(double(seg.ax) - fromX, double(seg.ay) - fromY) / double(rules::kSubPixelOne);
  }
  // The fragments the unclipped segment would have produced before the visible part's first.
  const LineSegment moved = bresenhamSegment(seg, line.bresenhamWidth);
  const bool xMajor = rules::isXMajor(moved.bx - moved.ax, moved.by - moved.ay);
  const int64_t majorDelta = xMajor ? moved.bx - moved.ax : moved.by - moved.ay;
  const int32_t first = bresenhamFirstFrom(start.fromX, start.fromY, seg, line.bresenhamWidth);
  return start.counter + double(majorDelta > 0 ? line.bresenhamFirst - first : first - line.bresenhamFirst);
}

}  // namespace

VkLineRasterizationModeEXT drawnLineMode(VkLineRasterizationModeEXT mode) {
  switch (mode) {
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT:
      return VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT:
      return VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT;
    case VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT:
      return VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT;
    case VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT:
    default:  // not a mode the extension names (invalid usage)
      return VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT;
  }
}

void lineOriginalWeights(const SetupLine& line, const double lin[2], double invW, float persp[3], float linear[3]) {
  // Perspective interpolation: f = ((1-t) f_a/w_a + t f_b/w_b) / ((1-t)/w_a + t/w_b). invW only
  // reaches 0 for helper pixels far beyond an endpoint; use the linear weights there.
  double pw[2];
  for (int k = 0; k < 2; ++k) pw[k] = invW != 0 ? lin[k] * line.invW[k] / invW : lin[k];
  // Map the clipped endpoints' weights back to the original two vertices ("Clipping Shader
  // Outputs"): clip-space weights for perspective data, framebuffer-space ones for NoPerspective.
  for (int i = 0; i < 3; ++i) {
    persp[i] = static_cast<float>(pw[0] * line.clipBary[0][i] + pw[1] * line.clipBary[1][i]);
    linear[i] = static_cast<float>(lin[0] * line.windowBary[0][i] + lin[1] * line.windowBary[1][i]);
  }
}

double segmentStippleAdvance(int64_t ax, int64_t ay, int64_t bx, int64_t by, const RasterState& state) {
  if (ax == bx && ay == by) return 0;
  const LineSegment seg{ax, ay, bx, by};
  if (drawnLineMode(state.lineMode) == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT)
    return bresenhamStippleAdvance(seg, rules::bresenhamLineWidth(state.lineWidth));
  return std::hypot(double(bx - ax), double(by - ay)) / double(rules::kSubPixelOne);
}

double lineStippleAdvance(const float a[4], const float b[4], const RasterState& state) {
  double ax, ay, bx, by;
  if (!projectToFramebuffer(a, state, &ax, &ay) || !projectToFramebuffer(b, state, &bx, &by)) return 0;
  const bool exact = std::max({std::fabs(ax), std::fabs(ay), std::fabs(bx), std::fabs(by)}) < kExactStippleRange;
  if (exact)  // snapped as set-up snaps the endpoints of an unclipped segment
    return segmentStippleAdvance(rules::snapToSubPixelGrid(ax), rules::snapToSubPixelGrid(ay), rules::snapToSubPixelGrid(bx),
                                 rules::snapToSubPixelGrid(by), state);
  // Far beyond the view (such a segment is clipped: its counter is the implementation's to
  // choose): the length, or the major-axis columns crossed.
  if (drawnLineMode(state.lineMode) == VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT)
    return std::fabs(std::fabs(bx - ax) >= std::fabs(by - ay) ? std::floor(bx) - std::floor(ax) : std::floor(by) - std::floor(ay));
  return std::hypot(bx - ax, by - ay);
}

bool setupSegment(const WindowVertex& a, const WindowVertex& b, const RasterState& state, float depthBias,
                  bool frontFacing, const LineStippleStart& stipple, SetupLine& s) {
  // Clipping keeps both ends within the line guard band in exact arithmetic. With coordinates
  // near the float range (a vertex at w = 3.4e38, the other at w = 0) the clipped end's rounding
  // can stay at w = 0, its window coordinate infinite and snapped to INT64_MIN; the Bresenham
  // span search from such an end never finished (a hung draw). What set-up's fixed point holds
  // is checked here, for lines and polygon edges alike: anything else is dropped.
  constexpr int64_t kBand = int64_t(kLineGuardBand + 1) * rules::kSubPixelOne;
  for (const WindowVertex* v : {&a, &b})
    if (!(v->sx >= -kBand && v->sx <= kBand && v->sy >= -kBand && v->sy <= kBand)) return false;
  const WindowVertex* ends[2] = {&a, &b};
  for (int e = 0; e < 2; ++e) {
    const WindowVertex& v = *ends[e];
    // The snapped value k/256 is stored exactly: |k| < 2^24 inside the line guard band (clip.h).
    s.x[e] = static_cast<float>(static_cast<double>(v.sx) / rules::kSubPixelOne);
    s.y[e] = static_cast<float>(static_cast<double>(v.sy) / rules::kSubPixelOne);
    s.z[e] = static_cast<float>(v.z);
    s.invW[e] = static_cast<float>(v.invW);
    for (int i = 0; i < 3; ++i) {
      s.clipBary[e][i] = static_cast<float>(v.clipBary[i]);
      s.windowBary[e][i] = static_cast<float>(v.windowBary[i]);
    }
  }
  s.width = rules::clampLineWidth(state.lineWidth);
  s.mode = drawnLineMode(state.lineMode);
  const rules::DepthRange depthRange = rules::fragmentDepthRange(state);
  s.depthMin = depthRange.min;
  s.depthMax = depthRange.max;
  s.depthBias = depthBias;
  s.frontFacing = frontFacing;
  s.samples = rules::rasterSampleCount(state.samples);
  s.customLocations = state.customSampleLocations && s.samples > 1;
  s.sampleWeights = state.sampleWeights;

  const LineSegment seg{a.sx, a.sy, b.sx, b.sy};
  Rect bounds;
  switch (s.mode) {
    case VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT:
      s.bresenhamWidth = rules::bresenhamLineWidth(state.lineWidth);
      if (seg.degenerate() || !setupBresenham(seg, s, &bounds)) return false;
      break;
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT: {
      Rectangle r;
      if (!makeRectangle(seg, rules::lineHalfWidth(s.width), r)) return false;
      bounds = boundingPixels(r.cx, r.cy, 1, s.samples, s.customLocations);
      break;
    }
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT: {
      Rectangle r;
      if (!makeRectangle(seg, rules::lineHalfWidth(s.width), r)) return false;
      bounds = boundingSquares(r.cx, r.cy);
      break;
    }
    default: {
      Parallelogram p;
      if (!makeParallelogram(seg, rules::lineHalfWidth(s.width), p)) return false;
      bounds = boundingPixels(p.cx, p.cy, 0, s.samples, s.customLocations);
      break;
    }
  }
  // "Line Stipple".
  s.stipple = state.lineStippleEnable;
  s.stippleFactor = rules::clampStippleFactor(state.lineStippleFactor);
  s.stipplePattern = state.lineStipplePattern;
  s.stippleOrigin = s.stipple ? stippleOriginOf(s, seg, stipple) : 0;

  const Rect clipRect = rules::intersect(state.scissor, rules::viewportPixels(state.viewport));
  s.bounds = rules::intersect(bounds, clipRect);
  return !rules::isEmpty(s.bounds);
}

uint32_t setupLine(const ClipLine& line, const RasterState& state, double stippleCounter, std::vector<SetupLine>& out) {
  for (const auto& v : line.position)
    for (float c : v)
      if (!std::isfinite(c)) return 0;

  ClipSegment seg;
  if (!clipLine(line, state, seg)) return 0;

  WindowVertex ends[2];
  for (int e = 0; e < 2; ++e) {
    const double w = seg.position[e][3];  // >= kMinClipW after clipping
    // "Coordinate Transformations" (division by w_c), "Controlling the Viewport" (transform and
    // sub-pixel precision).
    const rules::FramebufferPoint f = rules::viewportTransform(state.viewport, state.negativeOneToOne, seg.position[e][0] / w,
                                                               seg.position[e][1] / w, seg.position[e][2] / w);
    WindowVertex& v = ends[e];
    v.x = f.x, v.y = f.y, v.z = f.z;
    v.sx = rules::snapToSubPixelGrid(f.x);
    v.sy = rules::snapToSubPixelGrid(f.y);
    v.invW = 1.0 / w;
    // Clip-space weights give perspective-correct outputs; the framebuffer-space weights of the
    // original endpoints at this point are bary_i w_i / w (the same derivation as setup.cpp's
    // for triangles: x_f/w-weighted sums).
    for (int i = 0; i < 2; ++i) {
      v.clipBary[i] = seg.bary[e][i];
      v.windowBary[i] = seg.bary[e][i] * line.position[i][3] / w;
    }
    v.clipBary[2] = v.windowBary[2] = 0;
  }
  LineStippleStart stipple;
  stipple.counter = stippleCounter;
  // Clipping moved the start (its weight of the first vertex is below 1): carry the counter
  // from the unclipped start, when that has a framebuffer position.
  if (state.lineStippleEnable && seg.bary[0][1] > 0)
    stipple.clippedStart = projectToFramebuffer(line.position[0], state, &stipple.fromX, &stipple.fromY);
  SetupLine s;
  if (!setupSegment(ends[0], ends[1], state, 0.0f, true, stipple, s)) return 0;
  out.push_back(s);
  return 1;
}

void rasterizeLine(const SetupLine& line, const Rect& tile, const QuadSink& sink, const SampleLocations* custom) {
  if (!line.customLocations) custom = nullptr;
  const Rect region = rules::intersect(line.bounds, tile);
  if (rules::isEmpty(region)) return;
  const LineSegment seg = segmentOf(line);
  switch (line.mode) {
    case VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT:
      rasterizeBresenham(line, region, sink);
      return;
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT: {
      Rectangle r;
      if (makeRectangle(seg, rules::lineHalfWidth(line.width), r)) rasterizeArea(line, r, region, sink, custom);
      return;
    }
    case VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT: {
      Rectangle r;
      if (makeRectangle(seg, rules::lineHalfWidth(line.width), r)) rasterizeSmooth(line, r, region, sink, custom);
      return;
    }
    default: {
      Parallelogram p;
      if (makeParallelogram(seg, rules::lineHalfWidth(line.width), p)) rasterizeArea(line, p, region, sink, custom);
      return;
    }
  }
}

}  // namespace tessera::raster
