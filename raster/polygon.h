// The clipped polygon of one triangle in framebuffer coordinates, with its facing and depth
// bias: internal to raster/. setup.cpp fills triangles from it ("Basic Polygon Rasterization");
// polygon_mode.cpp turns its edges into lines and its vertices into points ("Polygon Mode").
#pragma once

#include <cstdint>
#include <vector>

#include "clip.h"

namespace tessera::raster {

// A vertex of the clipped polygon after perspective division and the viewport transform.
struct WindowVertex {
  double x, y, z;        // framebuffer coordinates before snapping
  int64_t sx, sy;        // snapped (1/256 pixel)
  double invW;           // 1 / w_c
  double clipBary[3];    // weights of the original vertices, clip space
  double windowBary[3];  // weights of the original vertices, framebuffer space
};

// Projects a clipped vertex (setup.cpp; the weights' derivation is there).
WindowVertex toWindow(const ClipVertex& cv, const ClipTriangle& original, const Viewport& vp, bool negativeOneToOne);

// A vertex as setupTriangle projects it when its triangle is inside every clip half-space
// (projectVertex, setupProjected): the same operations on the same values, so that a draw whose triangles
// share vertices can project each vertex once (draw_binned.cpp) and set its triangles up from
// those (setupProjected) with the results setupTriangle gives.
struct ProjectedVertex {
  int64_t sx, sy;  // snapped window position (1/256 pixel)
  double z;        // window depth
  float invW;      // 1 / w_c
  bool inside;     // vertexTriviallyInside (set by the caller that needs it)
};
ProjectedVertex projectVertex(const float position[4], const RasterState& state);
// setupTriangle for a triangle without user clip distances whose three vertices are inside
// (ProjectedVertex::inside): 0 or 1 triangles appended.
uint32_t setupProjected(const ProjectedVertex& a, const ProjectedVertex& b, const ProjectedVertex& c,
                        const RasterState& state, const TriangleSetupConstants& constants, std::vector<SetupTriangle>& out);

// "Polygon Mode": "a polygon's vertices are shaded and the polygon is clipped and possibly
// culled before these modes are applied". What is left for the mode to draw.
struct WindowPolygon {
  WindowVertex vertex[kMaxClipVertices];
  int count = 0;
  int64_t shoelace = 0;  // twice the signed area of the snapped polygon (rules::shoelaceSum)
  bool frontFacing = true;
  float depthBias = 0;  // the polygon's bias ("Depth Bias"), the same for every mode
};
// Clips `tri` (guard band `band` pixels), projects it, decides its facing and culls it, and
// computes its depth bias as FILL does. False when nothing remains or it is culled; a
// zero-area polygon is kept (back-facing, as the spec says), its edges and vertices still
// drawable.
bool windowPolygon(const ClipTriangle& tri, const RasterState& state, double band, WindowPolygon& out);

// Where a segment's "Line Stipple" counter starts (setupSegment): s at its first vertex and,
// when clipping moved that vertex, the unclipped vertex's framebuffer position (pixels, not
// snapped; only when it could be projected), from which the counter is carried to the
// visible start.
struct LineStippleStart {
  double counter = 0;
  bool clippedStart = false;
  double fromX = 0, fromY = 0;
};
// One segment between two projected vertices, set up as setupLine sets up a clipped line
// (lines.cpp): the endpoints' weights refer to the original triangle's vertices ([2] is 0 for
// a line primitive), `depthBias` is added to every fragment's depth before the clamp, and the
// fragments have the given facing. False when it covers no pixel.
bool setupSegment(const WindowVertex& a, const WindowVertex& b, const RasterState& state, float depthBias,
                  bool frontFacing, const LineStippleStart& stipple, SetupLine& out);
// "Line Stipple": the counter's advance over the segment between two snapped framebuffer
// positions (lineStippleAdvance's, for positions already projected).
double segmentStippleAdvance(int64_t ax, int64_t ay, int64_t bx, int64_t by, const RasterState& state);
// One point at a projected vertex (points.cpp), its fragments with the vertex's weights, depth
// bias added before the clamp. False when it covers no pixel.
bool setupPointAt(const WindowVertex& v, float pointSize, const RasterState& state, float depthBias, bool frontFacing,
                  SetupPoint* out);

}  // namespace tessera::raster
