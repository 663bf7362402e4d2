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

// 3 vertices, at most one more per clip plane (7 planes: w, near, far, 4 guard-band sides;
// then up to kMaxUserClipPlanes client-defined ones).
inline constexpr int kMaxClipVertices = 3 + 7 + int(kMaxUserClipPlanes);

struct ClipPolygon {
  ClipVertex vertex[kMaxClipVertices];
  int count = 0;
};

// Clips `tri` to {w >= kMinClipW} ∩ {z_m <= z <= w when rules::clipsDepth} ∩ the guard band of
// `state.viewport` ∩ its client-defined half-spaces (tri.clipDistances). Returns false (and an empty polygon) when nothing remains. A triangle
// inside every plane comes back unchanged, with identity barycentrics.
bool clipTriangle(const ClipTriangle& tri, const RasterState& state, ClipPolygon& out);
// Whether `tri` lies inside every half-space clipTriangle clips against (all coordinates finite):
// then clipTriangle returns it unchanged. Decided exactly as the plane-by-plane loop decides it.
bool triviallyInside(const ClipTriangle& tri, const RasterState& state);
// triviallyInside's test of one vertex without user clip distances (finite, and inside every
// other half-space): a triangle is trivially inside when its three vertices are.
bool vertexTriviallyInside(const float position[4], const RasterState& state);
// The same, plane by plane for every triangle: clipTriangle's result, without its quick
// acceptance of triangles inside every plane (the tests compare the two).
bool clipTriangleByPlanes(const ClipTriangle& tri, const RasterState& state, ClipPolygon& out);
// clipTriangleByPlanes with a guard band of `band` pixels (polygon modes LINE and POINT clip to
// kLineGuardBand, below, as their edges and vertices become lines and points).
bool clipTriangleToBand(const ClipTriangle& tri, const RasterState& state, double band, ClipPolygon& out);

// ---- Lines and points ("Primitive Clipping": "If the primitive under consideration is a point or
// line segment, then clipping passes it unchanged if its vertices lie entirely within the clip
// volume").

// Lines use a smaller guard band: SetupLine keeps its snapped endpoints as floats (raster.h),
// and a multiple of 1/256 is exact in single precision only below 2^16 pixels. 2^15 still
// leaves 16384 pixels between the band and the largest framebuffer (maxFramebufferWidth), so
// the covered pixels are those clipping at +-w would give, as for triangles.
inline constexpr double kLineGuardBand = 1 << 15;

// A clipped line segment: its endpoints in clip space and, for each, the weights of the
// original two endpoints (P = bary_0 V_0 + bary_1 V_1: "a clipped line segment endpoint lies on
// both the original line segment and the boundary of the clip volume", with its t).
struct ClipSegment {
  double position[2][4];
  double bary[2][2];
};

// Clips `line` to the same half-spaces as clipTriangle (w, near/far when rules::clipsDepth,
// its clip distances) with the line guard band. False when nothing, or a single point, remains.
bool clipLine(const ClipLine& line, const RasterState& state, ClipSegment& out);

// VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES (what Tessera reports): "the primitive is discarded
// if the vertex lies outside any clip plane, including the planes bounding the view volume":
// -w <= x <= w, -w <= y <= w, and z_m <= z <= w when depth clipping is on (rules::clipsDepth;
// z_m = -w with negativeOneToOne, else 0).
// w < kMinClipW is outside as well (the volume needs w >= 0; 1/w must stay finite).
bool pointInsideClipVolume(const float position[4], const RasterState& state);

}  // namespace tessera::raster
