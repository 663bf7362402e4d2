// projectLanes (project_lanes.h): vertexTriviallyInside and projectVertex written as one
// branch-free lane loop, compiled for AVX2 and AVX-512 too (chosen at load time). Every operation is
// the scalar functions' own, in their order (raster/ is built with -ffp-contract=off), so the
// results are theirs; the conditions become comparisons combined with &, and the snap to the
// sub-pixel grid takes its exact fast path on every lane (a vertex inside the guard band is
// far below 2^52 / 256 pixels; the other lanes' values are not used).
#include "project_lanes.h"

#include <cmath>

#include "clip.h"
#include "rules.h"

namespace tessera::raster {

namespace {

// The loop, with its arrays as restrict parameters: GCC keeps their no-alias promise through
// inlining, while restrict locals are ignored (the loop was left scalar for want of alias checks).
__attribute__((always_inline)) inline void projectLanesLoop(const RasterState& state, size_t n, const float* __restrict xs,
                                                         const float* __restrict ys, const float* __restrict zs,
                                                         const float* __restrict ws, int64_t* __restrict sxOut,
                                                         int64_t* __restrict syOut, double* __restrict zOut,
                                                         float* __restrict invWOut, uint8_t* __restrict insideOut) {
  const Viewport& vp = state.viewport;
  // vertexTriviallyInside's constants.
  const double hx = double{vp.width} / 2, ox = double{vp.x} + hx;
  const double hy = double{vp.height} / 2, oy = double{vp.y} + hy;
  const bool depthClip = rules::clipsDepth(state);
  const double nearW = rules::nearPlaneWCoefficient(state);
  // viewportTransform's constants (rules.h), computed as it computes them.
  const double px = vp.width, py = vp.height;
  const double tx = double{vp.x} + px / 2, ty = double{vp.y} + py / 2;
  const double range = double{vp.maxDepth} - double{vp.minDepth};
  const double pz = state.negativeOneToOne ? range / 2 : range;
  const double oz = state.negativeOneToOne ? (double{vp.maxDepth} + double{vp.minDepth}) / 2 : double{vp.minDepth};
  const double one = static_cast<double>(rules::kSubPixelOne);
  for (size_t i = 0; i < n; ++i) {
    const double x = xs[i], y = ys[i], z = zs[i], w = ws[i];
    // vertexTriviallyInside (clip.cpp): finite, w >= kMinClipW, the depth planes, the guard band.
    bool inside = std::isfinite(x) & std::isfinite(y) & std::isfinite(z) & std::isfinite(w);
    inside &= !(w + -kMinClipW < 0);
    inside &= !(depthClip & ((z + nearW * w < 0) | (-z + w < 0)));
    inside &= !((hx * x + (ox + kGuardBand) * w < 0) | (-hx * x + (kGuardBand - ox) * w < 0));
    inside &= !((hy * y + (oy + kGuardBand) * w < 0) | (-hy * y + (kGuardBand - oy) * w < 0));
    insideOut[i] = inside;
    // projectVertex (setup.cpp): the perspective division, viewportTransform, the snap.
    const double fx = px / 2 * (x / w) + tx, fy = py / 2 * (y / w) + ty;
    zOut[i] = pz * (z / w) + oz;
    invWOut[i] = static_cast<float>(1.0 / w);
    // rules::snapToSubPixelGrid's path below 2^52 (every inside vertex); outside lanes may hold
    // anything, so their conversions are kept in range first.
    const double vx = inside ? fx * one : 0.0, vy = inside ? fy * one : 0.0;
    const int64_t ix = static_cast<int64_t>(vx), iy = static_cast<int64_t>(vy);
    const double fracX = vx - static_cast<double>(ix), fracY = vy - static_cast<double>(iy);
    sxOut[i] = ix + int64_t(fracX >= 0.5) - int64_t(fracX <= -0.5);
    syOut[i] = iy + int64_t(fracY >= 0.5) - int64_t(fracY <= -0.5);
  }
}

}  // namespace

__attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4"))) void projectLanes(const RasterState& state,
                                                                                             size_t n,
                                                                                             const ProjectLanes& lanes) {
  projectLanesLoop(state, n, lanes.x, lanes.y, lanes.z, lanes.w, lanes.sx, lanes.sy, lanes.windowZ, lanes.invW, lanes.inside);
}

}  // namespace tessera::raster
