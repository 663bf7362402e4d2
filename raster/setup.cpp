// setupTriangle (raster.h): clipping, perspective division, viewport transform, sub-pixel
// snapping, facing and culling, depth bias and bounds, in the order of "Fixed-Function Vertex
// Post-Processing" followed by "Basic Polygon Rasterization".
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "clip.h"
#include "polygon.h"
#include "rules.h"

namespace tessera::raster {
namespace {

// Whether a set-up triangle's vertices are the original ones (SetupTriangle::identityWeights).
bool identityWeights(const SetupTriangle& t) {
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 3; ++j)
      if (t.clipBary[k][j] != (k == j ? 1.0f : 0.0f) || t.windowBary[k][j] != (k == j ? 1.0f : 0.0f)) return false;
  return true;
}

bool allFinite(const ClipTriangle& tri) {
  for (const auto& v : tri.position)
    for (float c : v)
      if (!std::isfinite(c)) return false;
  return true;
}

// The depth plane's gradient over the fan triangle (a, b, c), from the snapped positions the
// rasterizer interpolates over ("Depth Bias Computation": m is a property of the polygon).
double depthSlope(const WindowVertex& a, const WindowVertex& b, const WindowVertex& c) {
  const double s = 1.0 / rules::kSubPixelOne;
  const double x1 = (b.sx - a.sx) * s, y1 = (b.sy - a.sy) * s;
  const double x2 = (c.sx - a.sx) * s, y2 = (c.sy - a.sy) * s;
  const double z1 = b.z - a.z, z2 = c.z - a.z;
  const double det = x1 * y2 - x2 * y1;
  // A zero-area polygon (drawn only in polygon modes LINE and POINT) has no depth plane: its
  // bias is the constant part alone.
  if (det == 0) return 0;
  const double dzdx = (z1 * y2 - z2 * y1) / det;
  const double dzdy = (x1 * z2 - x2 * z1) / det;
  return rules::maximumDepthSlope(dzdx, dzdy);
}

double polygonDepthBias(const WindowVertex* v, int n, const RasterState& state) {
  if (!state.depthBiasEnable) return 0.0;
  // The slope of the plane is the same over the whole (planar) polygon; take it from the fan
  // triangle with the largest area, where it is best conditioned.
  int best = 1;
  int64_t bestArea = -1;
  double maxAbsZ = 0;
  for (int i = 0; i < n; ++i) maxAbsZ = std::max(maxAbsZ, std::fabs(v[i].z));
  for (int i = 1; i + 1 < n; ++i) {
    const int64_t xs[3] = {v[0].sx, v[i].sx, v[i + 1].sx}, ys[3] = {v[0].sy, v[i].sy, v[i + 1].sy};
    const int64_t area = std::llabs(rules::shoelaceSum(xs, ys, 3));
    if (area > bestArea) {
      bestArea = area;
      best = i;
    }
  }
  const double m = depthSlope(v[0], v[best], v[best + 1]);
  const double r = rules::minimumResolvableDifference(state.depthFormat, maxAbsZ, state.depthBiasRepresentation);
  return rules::depthBiasValue(m, r, state.depthBiasSlopeFactor, state.depthBiasConstantFactor,
                               state.depthBiasClamp);
}

// Pixels with a sample location that may lie inside the triangle: a sample within [min, max]
// of the snapped coordinates. With one sample that is the centre p + 0.5; with 4 samples a
// pixel whose centre lies outside the box can still have a sample (1/8 pixel from its edge)
// inside it, so the box grows by the sample offsets ("Multisampling").
// SetupTriangle::smallSpan of vertices (xs, ys).
bool smallSpan(const int64_t xs[3], const int64_t ys[3]) {
  const auto [x0, x1] = std::minmax({xs[0], xs[1], xs[2]});
  const auto [y0, y1] = std::minmax({ys[0], ys[1], ys[2]});
  return x1 - x0 <= kSmallTriangleSpan && y1 - y0 <= kSmallTriangleSpan;
}

Rect boundingPixels(const int64_t xs[3], const int64_t ys[3], uint32_t samples, bool custom) {
  const auto [x0, x1] = std::minmax({xs[0], xs[1], xs[2]});
  const auto [y0, y1] = std::minmax({ys[0], ys[1], ys[2]});
  const rules::PixelSpan sx = rules::pixelSamplesWithin(x0, x1, samples, custom);
  const rules::PixelSpan sy = rules::pixelSamplesWithin(y0, y1, samples, custom);
  return {sx.first, sy.first, sx.end, sy.end};
}

// Projection, facing, culling and depth bias of a clipped polygon ("Basic Polygon
// Rasterization", "Depth Bias"): what every polygon mode starts from. A zero-area polygon
// is back-facing ("Any triangle which is not front-facing is back-facing, including zero-area
// triangles"); FILL drops it (it covers no sample), LINE and POINT keep it (`keepZeroArea`)
// unless back faces are culled, as its edges and vertices still cover pixels.
bool projectPolygon(const ClipTriangle& tri, const ClipPolygon& poly, const RasterState& state, bool keepZeroArea,
                    WindowPolygon& out) {
  int64_t xs[kMaxClipVertices], ys[kMaxClipVertices];
  out.count = poly.count;
  // Clipping keeps the vertices within the guard band in exact arithmetic; near the float range
  // its rounding may not (lines.cpp's setupSegment says how). Edge functions over snapped
  // coordinates fit int64 only within the band: a polygon that left it is dropped.
  constexpr int64_t kBand = int64_t(kGuardBand + 1) * rules::kSubPixelOne;
  for (int i = 0; i < poly.count; ++i) {
    out.vertex[i] = toWindow(poly.vertex[i], tri, state.viewport, state.negativeOneToOne);
    xs[i] = out.vertex[i].sx;
    ys[i] = out.vertex[i].sy;
    if (!(xs[i] >= -kBand && xs[i] <= kBand && ys[i] >= -kBand && ys[i] <= kBand)) return false;
  }
  // "Basic Polygon Rasterization": facing from the sign of the (clipped) polygon's area in
  // framebuffer coordinates; zero area is back-facing and covers no sample, so it is dropped.
  out.shoelace = rules::shoelaceSum(xs, ys, poly.count);
  if (out.shoelace == 0 && !keepZeroArea) return false;
  out.frontFacing = rules::isFrontFacing(out.shoelace, state.frontFace);
  if (rules::isCulled(state.cullMode, out.frontFacing)) return false;
  out.depthBias = static_cast<float>(polygonDepthBias(out.vertex, poly.count, state));
  return true;
}

// The polygon left by clipping, set up as a fan of triangles (the general path).
uint32_t setupPolygon(const ClipTriangle& tri, const ClipPolygon& poly, const RasterState& state,
                      const TriangleSetupConstants& constants, std::vector<SetupTriangle>& out) {
  WindowPolygon wp;
  if (!projectPolygon(tri, poly, state, false, wp)) return 0;
  const WindowVertex* v = wp.vertex;
  const bool front = wp.frontFacing;
  const float bias = wp.depthBias;
  const int64_t shoelace = wp.shoelace;

  // The polygon as a fan around vertex 0 ("Basic Polygon Rasterization": triangulating without
  // adding vertices is one way to rasterize a clipped polygon). Every fan triangle shares the
  // polygon's orientation; one that snapping made degenerate or flipped is dropped, as its
  // neighbours already cover its (sub-pixel) area.
  uint32_t emitted = 0;
  for (int i = 1; i + 1 < poly.count; ++i) {
    const int idx[3] = {0, i, i + 1};
    SetupTriangle t;
    for (int k = 0; k < 3; ++k) {
      const WindowVertex& w = v[idx[k]];
      t.x[k] = w.sx;
      t.y[k] = w.sy;
      t.z[k] = static_cast<float>(w.z);
      t.invW[k] = static_cast<float>(w.invW);
      for (int j = 0; j < 3; ++j) {
        t.clipBary[k][j] = static_cast<float>(w.clipBary[j]);
        t.windowBary[k][j] = static_cast<float>(w.windowBary[j]);
      }
    }
    t.identityWeights = identityWeights(t);
    t.uniformW = t.invW[0] == t.invW[1] && t.invW[1] == t.invW[2];
    t.flatDepth = t.z[0] == t.z[1] && t.z[1] == t.z[2];
    const int64_t fanArea = rules::shoelaceSum(t.x, t.y, 3);
    if (fanArea == 0 || (fanArea > 0) != (shoelace > 0)) continue;
    t.depthBias = bias;
    t.depthMin = constants.depthMin;
    t.depthMax = constants.depthMax;
    t.frontFacing = front;
    t.samples = constants.samples;
    t.customLocations = constants.customLocations;
    t.sampleWeights = state.sampleWeights;
    t.bounds = rules::intersect(boundingPixels(t.x, t.y, t.samples, t.customLocations), constants.clipRect);
    if (rules::isEmpty(t.bounds)) continue;
    t.smallSpan = smallSpan(t.x, t.y);
    out.push_back(t);
    ++emitted;
  }
  return emitted;
}

}  // namespace

ProjectedVertex projectVertex(const float position[4], const RasterState& state) {
  ProjectedVertex p;
  const double w = position[3];
  const rules::FramebufferPoint f =
      rules::viewportTransform(state.viewport, state.negativeOneToOne, position[0] / w, position[1] / w, position[2] / w);
  p.z = f.z;
  p.sx = rules::snapToSubPixelGrid(f.x);
  p.sy = rules::snapToSubPixelGrid(f.y);
  p.invW = static_cast<float>(1.0 / w);
  p.inside = false;
  return p;
}

// A triangle inside every clip half-space (triviallyInside): the polygon is the triangle, its
// vertices' barycentrics the identity, the fan one triangle. setupPolygon's arithmetic for that
// polygon without building it: toWindow's weights w_i / w_i = 1 and 0 * w_j / w_i = +0 (every
// w > 0) are the identity exactly, and the fan triangle's area is the polygon's. The tests
// compare the two paths (tests/unit/raster/clip_test.cpp).
uint32_t setupProjected(const ProjectedVertex& a, const ProjectedVertex& b, const ProjectedVertex& c,
                        const RasterState& state, const TriangleSetupConstants& constants, std::vector<SetupTriangle>& out) {
  const ProjectedVertex* p[3] = {&a, &b, &c};
  // Area, facing, culling and bounds first: most triangles of a dense mesh are dropped there
  // (no sample inside), before the rest of the record is written.
  const int64_t xs[3] = {a.sx, b.sx, c.sx}, ys[3] = {a.sy, b.sy, c.sy};
  const int64_t shoelace = rules::shoelaceSum(xs, ys, 3);
  if (shoelace == 0) return 0;
  const bool front = rules::isFrontFacing(shoelace, state.frontFace);
  if (rules::isCulled(state.cullMode, front)) return 0;
  const Rect bounds = rules::intersect(boundingPixels(xs, ys, constants.samples, constants.customLocations), constants.clipRect);
  if (rules::isEmpty(bounds)) return 0;
  SetupTriangle& t = out.emplace_back();
  WindowVertex v[3];
  for (int i = 0; i < 3; ++i) {
    v[i].z = p[i]->z;
    v[i].sx = t.x[i] = p[i]->sx;
    v[i].sy = t.y[i] = p[i]->sy;
    t.z[i] = static_cast<float>(p[i]->z);
    t.invW[i] = p[i]->invW;
  }
  // The barycentric maps are the identity and left unwritten (SetupTriangle::identityWeights):
  // the record's third cache line is never touched.
  t.identityWeights = true;
  t.uniformW = t.invW[0] == t.invW[1] && t.invW[1] == t.invW[2];
  t.flatDepth = t.z[0] == t.z[1] && t.z[1] == t.z[2];
  t.depthBias = state.depthBiasEnable ? static_cast<float>(polygonDepthBias(v, 3, state)) : 0.0f;
  t.depthMin = constants.depthMin;
  t.depthMax = constants.depthMax;
  t.frontFacing = front;
  t.samples = constants.samples;
  t.customLocations = constants.customLocations;
  t.sampleWeights = state.sampleWeights;
  t.bounds = bounds;
  t.smallSpan = smallSpan(xs, ys);
  return 1;
}

WindowVertex toWindow(const ClipVertex& cv, const ClipTriangle& original, const Viewport& vp, bool negativeOneToOne) {
  WindowVertex v;
  const double w = cv.position[3];  // > 0: clipping removed everything with w < kMinClipW
  // "Coordinate Transformations": normalized device coordinates are (x_c, y_c, z_c) / w_c.
  const rules::FramebufferPoint f =
      rules::viewportTransform(vp, negativeOneToOne, cv.position[0] / w, cv.position[1] / w, cv.position[2] / w);
  v.x = f.x;
  v.y = f.y;
  v.z = f.z;
  v.sx = rules::snapToSubPixelGrid(f.x);
  v.sy = rules::snapToSubPixelGrid(f.y);
  v.invW = 1.0 / w;
  // Clip-space weights: the clipped vertex is sum_i bary_i V_i, so outputs interpolated with
  // them are "perspective-correct" ("Clipping Shader Outputs").
  // Framebuffer-space weights: "For vertex output attributes whose matching fragment input
  // attributes are decorated with NoPerspective, the value of t ... will be adjusted to produce
  // results that vary linearly in framebuffer space." The point's framebuffer position is
  // sum_i bary_i w_i (x_i/w_i) / sum_j bary_j w_j, so the framebuffer-linear weights are
  // bary_i w_i / w. With all w_i > 0 these are exactly the screen-space barycentrics of the
  // point in the projected original triangle (so guard-band clipping changes nothing); with
  // some w_i <= 0 that triangle has no finite projection and this is its projective extension.
  for (int i = 0; i < 3; ++i) {
    v.clipBary[i] = cv.bary[i];
    v.windowBary[i] = cv.bary[i] * original.position[i][3] / w;
  }
  return v;
}

bool windowPolygon(const ClipTriangle& tri, const RasterState& state, double band, WindowPolygon& out) {
  if (!allFinite(tri)) return false;
  ClipPolygon poly;
  if (!clipTriangleToBand(tri, state, band, poly)) return false;
  return projectPolygon(tri, poly, state, true, out);
}

TriangleSetupConstants triangleSetupConstants(const RasterState& state) {
  const rules::DepthRange depthRange = rules::fragmentDepthRange(state);
  return {rules::intersect(state.scissor, rules::viewportPixels(state.viewport)), depthRange.min, depthRange.max,
          rules::rasterSampleCount(state.samples), state.customSampleLocations && rules::rasterSampleCount(state.samples) > 1};
}

uint32_t setupTriangle(const ClipTriangle& tri, const RasterState& state, const TriangleSetupConstants& constants,
                       std::vector<SetupTriangle>& out) {
  // Non-finite positions give no defined primitive; drop it rather than feed NaN to the
  // fixed-point conversion.
  if (!allFinite(tri)) return 0;
  if (triviallyInside(tri, state))
    return setupProjected(projectVertex(tri.position[0], state), projectVertex(tri.position[1], state),
                          projectVertex(tri.position[2], state), state, constants, out);
  ClipPolygon poly;
  if (!clipTriangleByPlanes(tri, state, poly)) return 0;
  return setupPolygon(tri, poly, state, constants, out);
}

uint32_t setupTriangle(const ClipTriangle& tri, const RasterState& state, std::vector<SetupTriangle>& out) {
  return setupTriangle(tri, state, triangleSetupConstants(state), out);
}

uint32_t setupTriangleAsPolygon(const ClipTriangle& tri, const RasterState& state, std::vector<SetupTriangle>& out) {
  if (!allFinite(tri)) return 0;
  ClipPolygon poly;
  if (!clipTriangleByPlanes(tri, state, poly)) return 0;
  return setupPolygon(tri, poly, state, triangleSetupConstants(state), out);
}

}  // namespace tessera::raster
