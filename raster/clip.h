// Primitive clipping of one triangle ("Primitive Clipping", "Clipping Shader Outputs"):
// internal to raster/, used by setup.cpp.
#pragma once

#include "tessera/raster.h"

namespace tessera::raster {

// Window coordinates are kept within +-kGuardBand pixels: x and y are clipped against this
// guard band rather than against the view volume's -w <= x, y <= w planes, and the viewport
// rectangle is applied to the covered pixels instead (rules::viewportPixels). Inside the
// viewport that covers the pixels that clipping at +-w would (up to the sub-pixel snapping of
// the vertices such clipping would create; here the triangle's own edges are sampled exactly),
// without new vertices for the common case of triangles crossing the viewport's edges. The
// viewport itself lies well inside the band (viewportBoundsRange). 2^20 pixels keeps snapped
// coordinates below 2^28 (1/256 units), so edge-function products stay below 2^58.
inline constexpr double kGuardBand = 1 << 20;

// Points closer to the eye than this are clipped away even with depth clipping off, so that
// 1/w stays finite in single precision (the view volume itself requires w >= |x|, |y| >= 0).
inline constexpr double kMinClipW = 1.0 / (1ull << 40);

// A vertex of the clipped polygon: its clip-space position and its barycentric coordinates
// relative to the original triangle's three vertices (so that P = sum_i bary_i * V_i).
struct ClipVertex {
  double position[4];
  double bary[3];
};

// 3 vertices, at most one more per clip plane (7 planes: w, near, far, 4 guard-band sides).
inline constexpr int kMaxClipVertices = 3 + 7;

struct ClipPolygon {
  ClipVertex vertex[kMaxClipVertices];
  int count = 0;
};

// Clips `tri` to {w >= kMinClipW} ∩ {0 <= z <= w unless depthClampEnable} ∩ the guard band of
// `state.viewport`. Returns false (and an empty polygon) when nothing remains. A triangle
// inside every plane comes back unchanged, with identity barycentrics.
bool clipTriangle(const ClipTriangle& tri, const RasterState& state, ClipPolygon& out);

}  // namespace tessera::raster
