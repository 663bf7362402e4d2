// "Bresenham Line Segment Rasterization" (VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT): the
// fragments of a line by the diamond-exit rule (rules::diamondExitProduces, exact), found by
// walking the major axis: each column (row) has at most one, and only its two candidate pixels
// are tested (rules::bresenhamFragmentAt), never the bounding box.
//
// Width: "Bresenham line segments of width other than one are rasterized by offsetting them in
// the minor direction ... the segment with endpoints (x0, y0 - (w-1)/2) and (x1, y1 - (w-1)/2)
// is rasterized, but instead of a single fragment, a column of fragments of height w (a row of
// fragments of length w for a y-major segment) is produced at each x (y for y-major) location.
// The lowest fragment of this column is the fragment that would be produced by rasterizing the
// segment of width 1 with the modified coordinates": rows n .. n + w - 1 of column m when the
// moved segment produces (m, n).
//
// Interpolation: "The preferred method of attribute interpolation for a wide line is to
// generate the same attribute values for all fragments in the row or column described above,
// as if the adjusted line was used for interpolation and those values replicated to the other
// fragments, except for FragCoord which is interpolated as usual": t of the run's first
// fragment's centre along the moved segment ("Basic Line Segment Rasterization"'s formula),
// for the whole run; FragCoord.xy is each pixel's own. Width 1 is the same formula at each
// fragment. Helper pixels take t at their own centre.
//
// Multisampling: "Bresenham lines cover the same pixels regardless of the number of
// rasterization samples, and cover all samples in those pixels", and "sample locations may all
// be treated as being at the pixel center (this may affect attribute and depth
// interpolation)": every sample's depth, the centroid and per-sample weights are the centre's.
//
// "Line Stipple": "s is incremented after production of each fragment of a line segment
// (fragments are produced in order, beginning at the starting point and working towards the
// ending point)": the fragment in major coordinate m has s = stippleOrigin + |m - first|, first
// being the first fragment's coordinate; a wide line's run shares its first fragment's s (the
// run is what is produced "at each x location"). The counter is computed from m, so a tile
// drawing a part of the line finds the value the whole walk would have reached.
#include <algorithm>
#include <cmath>
#include <vector>

#include "line_internal.h"

namespace tessera::raster {
namespace {

struct Axes {
  bool xMajor;
  int32_t dir;  // +1 when the major coordinate grows from p_a to p_b
};
Axes axesOf(const LineSegment& seg) {
  const int64_t dx = seg.bx - seg.ax, dy = seg.by - seg.ay;
  const bool xMajor = rules::isXMajor(dx, dy);
  return {xMajor, (xMajor ? dx : dy) > 0 ? 1 : -1};
}

// Depth and weights of one pixel from its segment weights, at the centre for every sample.
void shadeAtCentre(const SetupLine& line, const double lin[2], Quad& q, int slot) {
  q.z[slot] = lineDepthAt(line, lin);
  const double invW = lineInvWAt(line, lin);
  q.invW[slot] = static_cast<float>(invW);
  lineOriginalWeights(line, lin, invW, q.baryPersp[slot], q.baryLinear[slot]);
  for (uint32_t s = 0; s < std::max(line.samples, 1u); ++s) {
    q.sampleZ[slot][s] = q.z[slot];
    if (!line.sampleWeights) continue;
    for (int i = 0; i < 3; ++i) {
      q.samplePersp[slot][s][i] = q.baryPersp[slot][i];
      q.sampleLinear[slot][s][i] = q.baryLinear[slot][i];
    }
  }
  for (int i = 0; i < 3; ++i) {
    q.centroidPersp[slot][i] = q.baryPersp[slot][i];
    q.centroidLinear[slot][i] = q.baryLinear[slot][i];
  }
}

struct Fragment {
  int32_t px, py;
  double t;  // the run's t along the moved segment
};

// Fragments in the quad order of rasterizeTriangle: quad rows top to bottom, quads left to
// right (pixels within a quad in any order).
bool quadOrder(const Fragment& a, const Fragment& b) {
  const int32_t ay = a.py & ~1, by = b.py & ~1;
  if (ay != by) return ay < by;
  return (a.px & ~1) < (b.px & ~1);
}

}  // namespace

LineSegment bresenhamSegment(const LineSegment& seg, int32_t width) {
  const int64_t shift = int64_t{width - 1} * rules::kSubPixelOne / 2;
  if (rules::isXMajor(seg.bx - seg.ax, seg.by - seg.ay)) return {seg.ax, seg.ay - shift, seg.bx, seg.by - shift};
  return {seg.ax - shift, seg.ay, seg.bx - shift, seg.by};
}

bool setupBresenham(const LineSegment& seg, SetupLine& line, Rect* bounds) {
  const LineSegment moved = bresenhamSegment(seg, line.bresenhamWidth);
  int32_t first, last, minorFirst, minorLast;
  if (!rules::bresenhamFragmentSpan(moved.ax, moved.ay, moved.bx, moved.by, &first, &last)) return false;
  rules::bresenhamFragmentAt(moved.ax, moved.ay, moved.bx, moved.by, first, &minorFirst);
  rules::bresenhamFragmentAt(moved.ax, moved.ay, moved.bx, moved.by, last, &minorLast);
  line.bresenhamFirst = first;
  // The fragments' minor coordinates follow the line monotonically, so the first and last runs
  // span the box.
  const int32_t m0 = std::min(first, last), m1 = std::max(first, last) + 1;
  const int32_t n0 = std::min(minorFirst, minorLast), n1 = std::max(minorFirst, minorLast) + line.bresenhamWidth;
  *bounds = axesOf(moved).xMajor ? Rect{m0, n0, m1, n1} : Rect{n0, m0, n1, m1};
  return true;
}

void rasterizeBresenham(const SetupLine& line, const Rect& region, const QuadSink& sink) {
  const LineSegment moved = bresenhamSegment(segmentOf(line), line.bresenhamWidth);
  if (moved.degenerate()) return;
  const Axes axes = axesOf(moved);
  const int32_t majorLo = axes.xMajor ? region.x0 : region.y0, majorHi = axes.xMajor ? region.x1 : region.y1;
  const int32_t minorLo = axes.xMajor ? region.y0 : region.x0, minorHi = axes.xMajor ? region.y1 : region.x1;
  thread_local std::vector<Fragment> fragments;
  fragments.clear();
  for (int32_t m = majorLo; m < majorHi; ++m) {
    int32_t n;
    if (!rules::bresenhamFragmentAt(moved.ax, moved.ay, moved.bx, moved.by, m, &n)) continue;
    if (line.stipple) {
      const int64_t before = int64_t{axes.dir} * (int64_t{m} - line.bresenhamFirst);
      if (!rules::stippleKeeps(rules::bresenhamStippleCounter(line.stippleOrigin, before), line.stippleFactor,
                               line.stipplePattern))
        continue;
    }
    const int32_t baseX = axes.xMajor ? m : n, baseY = axes.xMajor ? n : m;
    const double t = rules::lineParameter(moved.ax, moved.ay, moved.bx, moved.by, rules::pixelCenter(baseX),
                                          rules::pixelCenter(baseY));
    const int32_t runEnd = std::min(n + line.bresenhamWidth, minorHi);
    for (int32_t k = std::max(n, minorLo); k < runEnd; ++k)
      fragments.push_back(axes.xMajor ? Fragment{m, k, t} : Fragment{k, m, t});
  }
  std::stable_sort(fragments.begin(), fragments.end(), quadOrder);

  const uint32_t allSamples = (1u << line.samples) - 1;
  for (size_t i = 0; i < fragments.size();) {
    Quad q{};
    q.x = fragments[i].px & ~1;
    q.y = fragments[i].py & ~1;
    double t[4] = {};
    for (; i < fragments.size() && (fragments[i].px & ~1) == q.x && (fragments[i].py & ~1) == q.y; ++i) {
      const int slot = (fragments[i].py - q.y) * 2 + (fragments[i].px - q.x);
      q.coverage |= 1u << slot;
      q.sampleCoverage[slot] = allSamples;
      t[slot] = fragments[i].t;
    }
    for (int slot = 0; slot < 4; ++slot) {
      double lin[2];
      if (q.coverage >> slot & 1) {
        lin[0] = 1 - t[slot];
        lin[1] = t[slot];
      } else {
        segmentWeights(moved, rules::pixelCenter(q.x + (slot & 1)), rules::pixelCenter(q.y + (slot >> 1)), lin);
      }
      shadeAtCentre(line, lin, q, slot);
    }
    sink(q);
  }
}

double bresenhamStippleAdvance(const LineSegment& seg, int32_t width) {
  const LineSegment moved = bresenhamSegment(seg, width);
  int32_t first, last;
  if (moved.degenerate() || !rules::bresenhamFragmentSpan(moved.ax, moved.ay, moved.bx, moved.by, &first, &last)) return 0;
  return double(std::abs(int64_t{last} - first) + 1);
}

int32_t bresenhamFirstFrom(double fromX, double fromY, const LineSegment& towards, int32_t width) {
  const bool xMajor = rules::isXMajor(towards.bx - towards.ax, towards.by - towards.ay);
  if (std::fabs(fromX) < double(1 << 20) && std::fabs(fromY) < double(1 << 20)) {
    const LineSegment unclipped{rules::snapToSubPixelGrid(fromX), rules::snapToSubPixelGrid(fromY), towards.bx, towards.by};
    const LineSegment moved = bresenhamSegment(unclipped, width);
    int32_t first, last;
    if (!moved.degenerate() && rules::bresenhamFragmentSpan(moved.ax, moved.ay, moved.bx, moved.by, &first, &last))
      return first;
  }
  // Moving the segment changes only its minor coordinates.
  const double major = std::clamp(std::floor(xMajor ? fromX : fromY), -2147483648.0, 2147483647.0);
  return static_cast<int32_t>(major);
}

}  // namespace tessera::raster
