// setupPoint and rasterizePoint (raster.h): "Basic Point Rasterization". A point is a square of
// side `size` centred on the vertex's framebuffer position; a sample is covered when its
// location (the pixel centre with one sample, the standard locations with 4: "Multisampling")
// lies in the square, a pixel when any of its samples is. Every fragment gets the vertex's own
// data, and PointCoord varies from 0 to 1 across the square.
//
// Samples exactly on the square's boundary: the spec says only that sample points "intersect
// the region". Tessera decides them as it does for polygons ("Basic Polygon Rasterization", the
// tie-breaking rule of rules::isTopLeft), as if the square were two triangles: the left and top
// edges are inside, the right and bottom edges outside. So the square covers the half-open
// [x - size/2, x + size/2) x [y - size/2, y + size/2): a 1x1 point covers exactly one pixel
// wherever it lies; one centred on a pixel corner has four pixel centres on its corners and
// covers the one at its top-left corner (the pixel up and to the left of that pixel corner).
// With 4 samples the same square covers each sample index in exactly one pixel (the samples
// of one index are a pixel apart), so a 1x1 point covers 4 samples over 1 to 4 pixels.
#include <algorithm>
#include <cmath>

#include "clip.h"
#include "polygon.h"
#include "rules.h"

namespace tessera::raster {
namespace {

int32_t floorToEven(int32_t v) { return v & ~1; }  // two's complement: also right for v < 0

// The point's square on the sub-pixel grid: the snapped centre ("Controlling the Viewport":
// framebuffer coordinates have subPixelPrecisionBits of precision) and half the side, both
// fixed point. It covers [cx - half, cx + half) on both axes (left/top inclusive,
// right/bottom exclusive); as every snapped coordinate and sample location lies on the 1/256
// grid, the exclusive end is cx + half - 1 inclusive.
struct Square {
  int64_t cx, cy, half;
  bool covers(int64_t sx, int64_t sy) const {
    return sx >= cx - half && sx < cx + half && sy >= cy - half && sy < cy + half;
  }
};

Square squareOf(float x, float y, float size) {
  return {rules::snapToSubPixelGrid(x), rules::snapToSubPixelGrid(y), rules::snapToSubPixelGrid(double{size} / 2)};
}

// The pixels with a covered sample. An axis-aligned square covers a rectangle of the
// locations of each sample index; the union of those rectangles' bounding box. With one sample
// that is exactly the covered pixels (the centres in the square).
Rect coveredPixels(const Square& sq, uint32_t samples, const SampleLocations* custom) {
  Rect r{0, 0, 0, 0};
  for (uint32_t s = 0; s < samples; ++s) {
    // Sample s of pixel p lies at p * 256 + offset; the offset is that of pixel 0.
    int64_t ox, oy;
    rules::sampleLocation(0, 0, samples, custom, s, &ox, &oy);
    // p * 256 + o in [lo, hi]  <=>  p + 0.5 in [lo - o + 128, hi - o + 128] (a centre span).
    const int64_t shiftX = rules::kSubPixelOne / 2 - ox, shiftY = rules::kSubPixelOne / 2 - oy;
    const rules::PixelSpan xs = rules::pixelCentresWithin(sq.cx - sq.half + shiftX, sq.cx + sq.half - 1 + shiftX);
    const rules::PixelSpan ys = rules::pixelCentresWithin(sq.cy - sq.half + shiftY, sq.cy + sq.half - 1 + shiftY);
    const Rect sr{xs.first, ys.first, xs.end, ys.end};
    if (rules::isEmpty(sr)) continue;
    r = rules::isEmpty(r) ? sr
                          : Rect{std::min(r.x0, sr.x0), std::min(r.y0, sr.y0), std::max(r.x1, sr.x1),
                                 std::max(r.y1, sr.y1)};
  }
  return r;
}

uint32_t pixelSampleCoverage(const Square& sq, uint32_t samples, const SampleLocations* custom, int32_t px, int32_t py) {
  uint32_t mask = 0;
  for (uint32_t s = 0; s < samples; ++s) {
    int64_t sx, sy;
    rules::sampleLocation(px, py, samples, custom, s, &sx, &sy);
    if (sq.covers(sx, sy)) mask |= 1u << s;
  }
  return mask;
}

}  // namespace

bool setupPointAt(const WindowVertex& v, float pointSize, const RasterState& state, float depthBias, bool frontFacing,
                  SetupPoint* out) {
  out->x = static_cast<float>(v.x);
  out->y = static_cast<float>(v.y);
  // Every fragment of a point has the vertex's depth, so the fragment clamp ("Depth Clamping and
  // Range Adjustment") is applied once here, after the bias of a polygon drawn as points
  // ("Depth Bias" applies to polygons in every polygon mode, not to point primitives: 0 then).
  out->z = rules::clampFragmentDepth(v.z + depthBias, rules::fragmentDepthRange(state));
  out->invW = static_cast<float>(v.invW);
  out->size = rules::clampPointSize(pointSize);
  out->samples = rules::rasterSampleCount(state.samples);
  out->customLocations = state.customSampleLocations && out->samples > 1;
  for (int i = 0; i < 3; ++i) {
    out->clipBary[i] = static_cast<float>(v.clipBary[i]);
    out->windowBary[i] = static_cast<float>(v.windowBary[i]);
  }
  out->frontFacing = frontFacing;
  const Rect clipRect = rules::intersect(state.scissor, rules::viewportPixels(state.viewport));
  out->bounds = rules::intersect(
      coveredPixels(squareOf(out->x, out->y, out->size), out->samples, out->customLocations ? &state.customLocations : nullptr),
      clipRect);
  return !rules::isEmpty(out->bounds);
}

bool pointLeavesClipping(const float position[4], const RasterState& state) {
  // Non-finite positions give no defined primitive.
  for (int k = 0; k < 4; ++k)
    if (!std::isfinite(position[k])) return false;
  // "Primitive Clipping" with pointClippingBehavior ALL_CLIP_PLANES: a point is kept whole or
  // discarded whole, never cut.
  return pointInsideClipVolume(position, state);
}

bool setupPoint(const float position[4], float pointSize, const RasterState& state, SetupPoint* out) {
  if (!pointLeavesClipping(position, state)) return false;

  const double w = position[3];
  // "Coordinate Transformations" and "Controlling the Viewport".
  const rules::FramebufferPoint f =
      rules::viewportTransform(state.viewport, state.negativeOneToOne, position[0] / w, position[1] / w, position[2] / w);
  WindowVertex v{};
  v.x = f.x, v.y = f.y, v.z = f.z;
  v.invW = 1.0 / w;
  v.clipBary[0] = v.windowBary[0] = 1.0;  // the point's own vertex
  return setupPointAt(v, pointSize, state, 0.0f, true, out);
}

void rasterizePoint(const SetupPoint& point, const Rect& tile, const QuadSink& sink, const SampleLocations* custom) {
  if (!point.customLocations) custom = nullptr;
  // bounds holds every covered pixel inside the scissor and viewport (setupPoint).
  const Rect region = rules::intersect(point.bounds, tile);
  if (rules::isEmpty(region)) return;
  const Square sq = squareOf(point.x, point.y, point.size);

  // Quads in the fixed order of rasterizeTriangle: rows top to bottom, left to right.
  for (int32_t qy = floorToEven(region.y0); qy < region.y1; qy += 2) {
    for (int32_t qx = floorToEven(region.x0); qx < region.x1; qx += 2) {
      Quad q;  // not value-initialized: with 16 samples a Quad is 2 KiB, and every field read is set
      q.x = qx;
      q.y = qy;
      q.coverage = 0;
      for (int slot = 0; slot < 4; ++slot) {
        q.sampleCoverage[slot] = 0;
        q.lineCoverage[slot] = 1.0f;
        const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
        if (px < region.x0 || px >= region.x1 || py < region.y0 || py >= region.y1) continue;
        q.sampleCoverage[slot] = pixelSampleCoverage(sq, point.samples, custom, px, py);
        if (q.sampleCoverage[slot] != 0) q.coverage |= 1u << slot;
      }
      if (q.coverage == 0) continue;
      for (int slot = 0; slot < 4; ++slot) {
        // "All fragments produced in rasterizing a point are assigned the same associated data,
        // which are those of the vertex": the vertex's weights (1 on a point primitive's single
        // vertex), helpers included, at every sample and at the centroid; the depth is the
        // vertex's at every sample.
        q.z[slot] = point.z;
        for (uint32_t k = 0; k < point.samples; ++k) q.sampleZ[slot][k] = point.z;
        q.invW[slot] = point.invW;
        for (int i = 0; i < 3; ++i) {
          q.baryPersp[slot][i] = q.centroidPersp[slot][i] = point.clipBary[i];
          q.baryLinear[slot][i] = q.centroidLinear[slot][i] = point.windowBary[i];
          for (uint32_t k = 0; k < point.samples; ++k) {
            q.samplePersp[slot][k][i] = point.clipBary[i];
            q.sampleLinear[slot][k][i] = point.windowBary[i];
          }
        }
        // PointCoord at the fragment centre, from the unrounded vertex position. Helper pixels
        // get the same formula, so derivatives of PointCoord are 1/size per pixel.
        const double cx = qx + (slot & 1) + 0.5, cy = qy + (slot >> 1) + 0.5;
        q.pointCoord[slot][0] = rules::pointSpriteCoord(cx, point.x, point.size);
        q.pointCoord[slot][1] = rules::pointSpriteCoord(cy, point.y, point.size);
      }
      sink(q);
    }
  }
}

}  // namespace tessera::raster
