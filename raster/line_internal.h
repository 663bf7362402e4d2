// What the line files share (internal to raster/): lines.cpp (set-up, DEFAULT and RECTANGULAR
// lines, "Line Stipple"'s counter) and bresenham_lines.cpp ("Bresenham Line Segment
// Rasterization"): a segment on the sub-pixel grid, the interpolation of "Basic Line Segment
// Rasterization" along it, and the Bresenham pieces.
#pragma once

#include <cstdint>

#include "rules.h"
#include "tessera/raster.h"

namespace tessera::raster {

// A segment's endpoints on the sub-pixel grid (1/256 pixel), p_a first.
struct LineSegment {
  int64_t ax, ay, bx, by;
  bool degenerate() const { return ax == bx && ay == by; }
};
// A SetupLine's (clipped) segment: its endpoints are on the grid already, so snapping them
// again recovers them exactly.
inline LineSegment segmentOf(const SetupLine& line) {
  return {rules::snapToSubPixelGrid(line.x[0]), rules::snapToSubPixelGrid(line.y[0]), rules::snapToSubPixelGrid(line.x[1]),
          rules::snapToSubPixelGrid(line.y[1])};
}

// The mode a line is drawn with: the mode itself, DEFAULT for values the extension does not name.
VkLineRasterizationModeEXT drawnLineMode(VkLineRasterizationModeEXT mode);

// "Basic Line Segment Rasterization": t of the location (sx, sy) along `seg` as the weights
// {1 - t, t} of its two endpoints.
inline void segmentWeights(const LineSegment& seg, int64_t sx, int64_t sy, double lin[2]) {
  const double t = rules::lineParameter(seg.ax, seg.ay, seg.bx, seg.by, sx, sy);
  lin[0] = 1 - t;
  lin[1] = t;
}
// "The depth value z for a sample is determined using linear interpolation", the bias of a
// polygon drawn as lines added ("Depth Bias"), then clamped.
inline float lineDepthAt(const SetupLine& line, const double lin[2]) {
  const double z = lin[0] * line.z[0] + lin[1] * line.z[1] + line.depthBias;
  return rules::clampFragmentDepth(z, {line.depthMin, line.depthMax});
}
// 1/w is linear in t because w is perspective-interpolated ("The clip coordinate w for a
// sample is determined using perspective interpolation": w = 1 / ((1-t)/w_a + t/w_b)).
inline double lineInvWAt(const SetupLine& line, const double lin[2]) {
  return lin[0] * line.invW[0] + lin[1] * line.invW[1];
}
// The original endpoints' perspective-correct and framebuffer-space weights at a location with
// segment weights `lin` and interpolated 1/w `invW` ([2] = 0 for a line primitive).
void lineOriginalWeights(const SetupLine& line, const double lin[2], double invW, float persp[3], float linear[3]);

// ---- "Bresenham Line Segment Rasterization" (bresenham_lines.cpp).
// The segment a Bresenham line of width w rasterizes: "the segment with endpoints
// (x0, y0 - (w-1)/2) and (x1, y1 - (w-1)/2)" for an x-major one (x moved for a y-major one);
// (w - 1)/2 is a multiple of 1/2, exact on the grid.
LineSegment bresenhamSegment(const LineSegment& seg, int32_t width);
// Set-up of a BRESENHAM SetupLine whose segment, width and facing are filled: bresenhamFirst and
// the bounds (the fragments' box, not yet clipped). False when the rule produces no fragment.
bool setupBresenham(const LineSegment& seg, SetupLine& line, Rect* bounds);
// The quads of a BRESENHAM line inside `region` (its bounds and a tile), in the order
// rasterizeTriangle emits them.
void rasterizeBresenham(const SetupLine& line, const Rect& region, const QuadSink& sink);
// "Line Stipple": the counter's advance over a whole Bresenham segment, the number of fragments
// it produces.
double bresenhamStippleAdvance(const LineSegment& seg, int32_t width);
// The first fragment's major-axis coordinate of the segment from (fromX, fromY) (pixels, not
// snapped: an unclipped start, possibly far away) through `towards` (the clipped segment, which
// lies on the same line), moved for width w as bresenhamSegment moves it. Exact within 2^20
// pixels; beyond that, the column (row) holding the start.
int32_t bresenhamFirstFrom(double fromX, double fromY, const LineSegment& towards, int32_t width);

}  // namespace tessera::raster
