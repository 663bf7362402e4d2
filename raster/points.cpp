// setupPoint and rasterizePoint (raster.h): "Basic Point Rasterization". A point is a square of
// side `size` centred on the vertex's framebuffer position; a pixel is covered when its sample
// (the centre, one sample) lies in the square. Every fragment gets the vertex's own data, and
// PointCoord varies from 0 to 1 across the square.
//
// Samples exactly on the square's boundary: the spec says only that sample points "intersect
// the region". Tessera decides them as it does for polygons ("Basic Polygon Rasterization", the
// tie-breaking rule of rules::isTopLeft), as if the square were two triangles: the left and top
// edges are inside, the right and bottom edges outside. So the square covers the half-open
// [x - size/2, x + size/2) x [y - size/2, y + size/2): a 1x1 point covers exactly one pixel
// wherever it lies; one centred on a pixel corner has four pixel centres on its corners and
// covers the one at its top-left corner (the pixel up and to the left of that pixel corner).
#include <cmath>

#include "clip.h"
#include "rules.h"

namespace tessera::raster {
namespace {

int32_t floorToEven(int32_t v) { return v & ~1; }  // two's complement: also right for v < 0

// The pixels the point covers: an axis-aligned square covers a rectangle of pixel centres, those
// in [cx - half, cx + half) on both axes (left/top inclusive, right/bottom exclusive), with the
// snapped centre ("Controlling the Viewport": framebuffer coordinates have subPixelPrecisionBits
// of precision) and half the side in fixed point. The exclusive end is one sub-pixel step
// before cx + half, as every snapped coordinate and pixel centre lies on the 1/256 grid.
Rect coveredPixels(float x, float y, float size) {
  const int64_t cx = rules::snapToSubPixelGrid(x), cy = rules::snapToSubPixelGrid(y);
  const int64_t half = rules::snapToSubPixelGrid(double{size} / 2);
  const rules::PixelSpan xs = rules::pixelCentresWithin(cx - half, cx + half - 1);
  const rules::PixelSpan ys = rules::pixelCentresWithin(cy - half, cy + half - 1);
  return {xs.first, ys.first, xs.end, ys.end};
}

}  // namespace

bool setupPoint(const float position[4], float pointSize, const RasterState& state, SetupPoint* out) {
  // Non-finite positions give no defined primitive.
  for (int k = 0; k < 4; ++k)
    if (!std::isfinite(position[k])) return false;
  // "Primitive Clipping" with pointClippingBehavior ALL_CLIP_PLANES: a point is kept whole or
  // discarded whole, never cut.
  if (!pointInsideClipVolume(position, state)) return false;

  const double w = position[3];
  // "Coordinate Transformations" and "Controlling the Viewport".
  const rules::FramebufferPoint f =
      rules::viewportTransform(state.viewport, position[0] / w, position[1] / w, position[2] / w);
  out->x = static_cast<float>(f.x);
  out->y = static_cast<float>(f.y);
  // Every fragment of a point has the vertex's depth, so the fragment clamp ("Depth Clamping and
  // Range Adjustment") is applied once here. No depth bias: "Depth Bias" applies to polygons
  // (including polygon mode POINT, which Tessera does not offer), not to point primitives.
  out->z = rules::clampFragmentDepth(f.z, rules::fragmentDepthRange(state));
  out->invW = static_cast<float>(1.0 / w);
  out->size = rules::clampPointSize(pointSize);

  const Rect clipRect = rules::intersect(state.scissor, rules::viewportPixels(state.viewport));
  out->bounds = rules::intersect(coveredPixels(out->x, out->y, out->size), clipRect);
  return !rules::isEmpty(out->bounds);
}

void rasterizePoint(const SetupPoint& point, const Rect& tile, const QuadSink& sink) {
  // bounds holds exactly the covered pixels inside the scissor and viewport (setupPoint).
  const Rect region = rules::intersect(point.bounds, tile);
  if (rules::isEmpty(region)) return;

  // Quads in the fixed order of rasterizeTriangle: rows top to bottom, left to right.
  for (int32_t qy = floorToEven(region.y0); qy < region.y1; qy += 2) {
    for (int32_t qx = floorToEven(region.x0); qx < region.x1; qx += 2) {
      Quad q{};
      q.x = qx;
      q.y = qy;
      for (int slot = 0; slot < 4; ++slot) {
        const int32_t px = qx + (slot & 1), py = qy + (slot >> 1);
        if (px >= region.x0 && px < region.x1 && py >= region.y0 && py < region.y1) q.coverage |= 1u << slot;
      }
      if (q.coverage == 0) continue;
      for (int slot = 0; slot < 4; ++slot) {
        // "All fragments produced in rasterizing a point are assigned the same associated data,
        // which are those of the vertex": weight 1 on the single vertex, helpers included.
        q.z[slot] = point.z;
        q.invW[slot] = point.invW;
        q.baryPersp[slot][0] = q.baryLinear[slot][0] = 1.0f;
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
