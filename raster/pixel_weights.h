// The per-location arithmetic of triangle rasterization, shared by the reference quad walker
// (coverage.cpp) and the block walker of the binned path (draw_blocks.cpp) so that both compute
// bit-identical depth and weights: one implementation of each formula. Always inlined, so the
// block walker's loops over a block's pixels vectorize. raster/ is compiled with
// -ffp-contract=off: no fused multiply-add may change a rounding in one caller and not the other.
#pragma once

#include <cstdint>

#include "rules.h"

namespace tessera::raster::pixel {

#define TESSERA_PIXEL_INLINE inline __attribute__((always_inline))

// The set-up triangle's three edge functions ("Basic Polygon Rasterization": edge k opposite
// vertex k, from vertex k+1 to vertex k+2, oriented so the interior is positive, with the
// tie-break) and 1 / |shoelace sum|, which turns an edge value into a barycentric weight. False
// for a zero-area triangle, which covers no sample. Every walker and test of a triangle's
// coverage builds its edges here.
TESSERA_PIXEL_INLINE bool triangleEdges(const SetupTriangle& t, rules::EdgeFunction edge[3], double* invArea2) {
  const int64_t s = rules::shoelaceSum(t.x, t.y, 3);
  if (s == 0) return false;
  for (int k = 0; k < 3; ++k) {
    const int a = (k + 1) % 3, b = (k + 2) % 3;
    edge[k] = rules::makeEdge(t.x[a], t.y[a], t.x[b], t.y[b], s > 0 ? 1 : -1);
  }
  *invArea2 = 1.0 / static_cast<double>(s > 0 ? s : -s);
  return true;
}

// static_cast<double>(v), bit for bit, from operations that have vector forms with AVX2 (the
// int64 -> double conversion has none before AVX-512, which keeps a loop containing it
// scalar): the high 32 bits (signed) and the low 32 bits become exact doubles through the
// exponent bias trick, hi * 2^32 - 2^52 and 2^52 + lo, and their sum is the exact value rounded
// once, as the conversion rounds it (tests/unit/raster/interpolation_test.cpp compares them).
TESSERA_PIXEL_INLINE double exactDouble(int64_t v) {
  const uint64_t u = static_cast<uint64_t>(v);
  const uint64_t hiBits = (u >> 32) ^ 0x4530000080000000ull;            // 2^84 + 2^63 + hi * 2^32
  const uint64_t loBits = (u & 0xFFFFFFFFull) | 0x4330000000000000ull;  // 2^52 + lo
  const uint64_t biasBits = 0x4530000080100000ull;                      // 2^84 + 2^63 + 2^52
  double hi, lo, bias;
  __builtin_memcpy(&hi, &hiBits, 8);
  __builtin_memcpy(&lo, &loBits, 8);
  __builtin_memcpy(&bias, &biasBits, 8);
  return (hi - bias) + lo;
}

// Barycentric coordinates of a location in the (snapped) set-up triangle from its three exact
// edge values: a_k = A(p, v_(k+1), v_(k+2)) / A(v_0, v_1, v_2).
TESSERA_PIXEL_INLINE void windowBarycentrics(const int64_t edge[3], double invArea2, double lin[3]) {
  for (int k = 0; k < 3; ++k) lin[k] = static_cast<double>(edge[k]) * invArea2;
}

// "Depth values for triangles must be determined using linear interpolation", then the
// polygon's bias is added and the result clamped. With every vertex at one depth
// (SetupTriangle::flatDepth) the interpolation is that depth exactly (the weights sum to 1).
TESSERA_PIXEL_INLINE float flatDepthOf(const SetupTriangle& t) {
  return rules::clampFragmentDepth(double(t.z[0]) + t.depthBias, {t.depthMin, t.depthMax});
}
// depthAt of a triangle whose vertices' depths differ (not t.flatDepth): the plane through
// them. Without depthAt's test of flatDepth, so that a loop over lanes calling it vectorizes
// (GCC does not take a loop-invariant test out of the loop for it); callers decide flatDepth
// once, outside their loops.
TESSERA_PIXEL_INLINE float interpolatedDepth(const SetupTriangle& t, const double lin[3]) {
  double z = 0;
  for (int k = 0; k < 3; ++k) z += lin[k] * t.z[k];
  return rules::clampFragmentDepth(z + t.depthBias, {t.depthMin, t.depthMax});
}
TESSERA_PIXEL_INLINE float depthAt(const SetupTriangle& t, const double lin[3]) {
  return t.flatDepth ? flatDepthOf(t) : interpolatedDepth(t, lin);
}

TESSERA_PIXEL_INLINE double invWAt(const SetupTriangle& t, const double lin[3]) {
  double invW = 0;
  for (int k = 0; k < 3; ++k) invW += lin[k] * t.invW[k];
  return invW;
}

// Perspective interpolation's weights of the set-up triangle's vertices, a_k / w_k over
// sum_k a_k / w_k, with one division for the three (the quotient's reciprocal: within an ulp
// of a double, far below the float the weights become). invW can only reach 0 far outside the
// triangle (helper pixels beyond the horizon); the linear weights stand in there rather than
// a division by zero. With every w equal (SetupTriangle::uniformW) the quotient is a_k itself.
// The *Of forms take t.uniformW as a template argument: a lane loop calling them has no test
// inside and vectorizes (the block walker decides the flags once per block).
template <bool UniformW>
TESSERA_PIXEL_INLINE void perspectiveWeightsOf(const SetupTriangle& t, const double lin[3], double invW, double p[3]) {
  if (UniformW) {
    for (int k = 0; k < 3; ++k) p[k] = lin[k];
    return;
  }
  const double r = invW != 0 ? 1.0 / invW : 0.0;
  for (int k = 0; k < 3; ++k) p[k] = invW != 0 ? lin[k] * t.invW[k] * r : lin[k];
}
TESSERA_PIXEL_INLINE void perspectiveWeights(const SetupTriangle& t, const double lin[3], double invW, double p[3]) {
  if (t.uniformW) perspectiveWeightsOf<true>(t, lin, invW, p);
  else perspectiveWeightsOf<false>(t, lin, invW, p);
}

// originalWeights for a triangle with identityWeights, without the mapping.
TESSERA_PIXEL_INLINE void identityWeights(const SetupTriangle& t, const double lin[3], double invW, float persp[3],
                                          float linear[3]) {
  double p[3];
  perspectiveWeights(t, lin, invW, p);
  for (int i = 0; i < 3; ++i) persp[i] = static_cast<float>(p[i]), linear[i] = static_cast<float>(lin[i]);
}

// The original triangle's perspective-correct and window-space weights at a location with
// set-up barycentrics `lin` and interpolated 1/w `invW`.
// originalWeights for a triangle without identityWeights (clipped), uniformW given.
template <bool UniformW>
TESSERA_PIXEL_INLINE void mappedWeightsOf(const SetupTriangle& t, const double lin[3], double invW, float persp[3],
                                          float linear[3]) {
  // Perspective interpolation: f = sum_k (a_k f_k / w_k) / sum_k (a_k / w_k).
  double p[3];
  perspectiveWeightsOf<UniformW>(t, lin, invW, p);

  // Outputs at the (clipped) vertices are combinations of the original vertices' outputs:
  // clip-space weights for perspective-correct data, framebuffer-space weights for
  // NoPerspective data ("Clipping Shader Outputs").
  for (int i = 0; i < 3; ++i) {
    double wp = 0, wl = 0;
    for (int k = 0; k < 3; ++k) {
      wp += p[k] * t.clipBary[k][i];
      wl += lin[k] * t.windowBary[k][i];
    }
    persp[i] = static_cast<float>(wp);
    linear[i] = static_cast<float>(wl);
  }
}

TESSERA_PIXEL_INLINE void originalWeights(const SetupTriangle& t, const double lin[3], double invW, float persp[3],
                                          float linear[3]) {
  if (t.identityWeights) identityWeights(t, lin, invW, persp, linear);
  else if (t.uniformW) mappedWeightsOf<true>(t, lin, invW, persp, linear);
  else mappedWeightsOf<false>(t, lin, invW, persp, linear);
}

// "Interpolation": an input from its three vertices' values with weights b, as
// v0 + b1 (v1 - v0) + b2 (v2 - v0): equal to sum(b_i v_i) as the weights sum to 1, but exact
// when the vertices agree, so a constant output stays that constant (an integer conversion of
// 0.99999994 would otherwise give 0).
TESSERA_PIXEL_INLINE float interpolate(float v0, float v1, float v2, float b1, float b2) {
  return v0 + b1 * (v1 - v0) + b2 * (v2 - v0);
}
// The same with the differences v1 - v0 and v2 - v0 computed once per primitive.
TESSERA_PIXEL_INLINE float interpolateDifferences(float v0, float d1, float d2, float b1, float b2) {
  return v0 + b1 * d1 + b2 * d2;
}

#undef TESSERA_PIXEL_INLINE

}  // namespace tessera::raster::pixel
