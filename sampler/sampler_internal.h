// Internal pieces of the reference sampler (sampling.h), one job per file:
//   cube_map.cpp        "Cube Map Face Selection and Transformations", "Cube Map Edge Handling"
//   sampler_lod.cpp     "Scale Factor Operation, LOD Operation and Image Level(s) Selection"
//   sampler_wrap.cpp    "Wrapping Operation", array layer selection (RNE)
//   sampler_texel.cpp   one texel through "Texel Input Operations": read or border, depth
//                       compare, conversion to RGBA, component swizzle
//   reference_sampler.cpp  the order of the steps, filtering, gathering, sampleImage
//   batch_sampler*.cpp  the batched routines (sampling_batch.h), not part of the reference
// Section names are those of the Vulkan 1.3 specification's "Image Operations" chapter.
// Everything is computed in double: this is the oracle, so clarity beats speed.
#pragma once

#include <cmath>

#include <cstdint>
#include <cstring>

#include "decoded_block.h"
#include "tessera/sampling.h"

namespace tessera::sampler_detail {

// ---- cube_map.cpp --------------------------------------------------------------------------
// A cube direction reduced to one face: the face (layer number 0..5 of the
// "Cube Map Face and Coordinate Selection" table) and (s_face, t_face) in [0,1].
struct CubeFaceCoord {
  uint32_t face;
  double s, t;
  // Per-face derivatives ("Cube Map Derivative Transformation"), when asked for.
  double dsdx, dsdy, dtdx, dtdy;
};
// dPdx/dPdy may be null (no derivatives wanted; the d* fields are then 0).
CubeFaceCoord selectCubeFace(const float dir[3], const float* dPdx, const float* dPdy);

// selectCubeFace on each of `n` lanes at once, bit for bit (the same double operations in the
// same order, with selects for the face table's branches; GCC 12 still finds control flow in
// the loop and does not vectorize it, but the per-lane branches and zero-filled arrays of the
// loop it replaced are gone: tex_cube 120 -> 108 ms):
// face[k], s[k], t[k] and, when `dx` and `dy` are given (each three arrays: x, y, z), the face
// derivatives, all rounded to float as the batch routines take them (0 without derivatives).
// Lanes whose direction is not finite and non-zero get meaningless values.
struct CubeFaceLanes {
  uint32_t* face;
  float *s, *t, *dsdx, *dtdx, *dsdy, *dtdy;
};
__attribute__((always_inline)) inline void selectCubeFaceLanes(uint32_t n, const float* x, const float* y,
                                                               const float* z, const float* const* dx,
                                                               const float* const* dy, const CubeFaceLanes& out) {
  for (uint32_t k = 0; k < n; ++k) {
    const double r0 = x[k], r1 = y[k], r2 = z[k];
    // majorAxisFace: z wins ties, then y; the sign picks the positive face for r >= 0.
    const double ax = r0 < 0 ? -r0 : r0, ay = r1 < 0 ? -r1 : r1, az = r2 < 0 ? -r2 : r2;
    const bool zMajor = az >= ay && az >= ax, yMajor = !zMajor && ay >= ax;
    const uint32_t face = zMajor ? (r2 >= 0 ? 4u : 5u) : yMajor ? (r1 >= 0 ? 2u : 3u) : (r0 >= 0 ? 0u : 1u);
    // faceCoordinates' table: +X (-z, -y, x), -X (z, -y, x), +Y (x, z, y), -Y (x, -z, y),
    // +Z (x, -y, z), -Z (-x, -y, z).
    auto coordinates = [face](double a, double b, double c, double& sc, double& tc, double& rc) {
      sc = face == 0 ? -c : face == 1 ? c : face == 5 ? -a : a;
      tc = face == 2 ? c : face == 3 ? -c : -b;
      rc = face <= 1 ? a : face <= 3 ? b : c;
    };
    double sc, tc, rc;
    coordinates(r0, r1, r2, sc, tc, rc);
    const double absRc = std::fabs(rc);
    const double inverse = 1.0 / absRc;  // (selectCubeFace's reciprocal)
    out.face[k] = face;
    out.s[k] = float(0.5 * (sc * inverse) + 0.5);
    out.t[k] = float(0.5 * (tc * inverse) + 0.5);
    if (dx && dy) {
      double dscx, dtcx, drcx, dscy, dtcy, drcy;
      coordinates(double(dx[0][k]), double(dx[1][k]), double(dx[2][k]), dscx, dtcx, drcx);
      coordinates(double(dy[0][k]), double(dy[1][k]), double(dy[2][k]), dscy, dtcy, drcy);
      const double sign = (face & 1) ? -1.0 : 1.0;
      drcx *= sign, drcy *= sign;
      const double inverse2 = inverse * inverse;
      out.dsdx[k] = float(0.5 * (absRc * dscx - sc * drcx) * inverse2);
      out.dsdy[k] = float(0.5 * (absRc * dscy - sc * drcy) * inverse2);
      out.dtdx[k] = float(0.5 * (absRc * dtcx - tc * drcx) * inverse2);
      out.dtdy[k] = float(0.5 * (absRc * dtcy - tc * drcy) * inverse2);
    } else {
      out.dsdx[k] = out.dsdy[k] = out.dtdx[k] = out.dtdy[k] = 0.0f;
    }
  }
}

// A texel of a cube level: face and integer coordinates within it.
struct CubeTexel {
  uint32_t face;
  int32_t i, j;
};
// "Cube Map Edge Handling", edge texel: (i, j) lies beyond `face` in exactly one of i or j
// (by one texel, as linear filtering produces); returns the adjacent texel of the
// neighbouring face. `size` is the face's width (= height).
CubeTexel cubeAdjacentTexel(uint32_t face, int32_t i, int32_t j, int32_t size);

// ---- sampler_wrap.cpp ----------------------------------------------------------------------
// "Wrapping Operation": integer coordinate i of a level dimension of `size` texels.
int32_t wrapCoordinate(int32_t i, int32_t size, uint32_t addressMode);
// roundTiesToEven, the preferred RNE of "(u,v,w,a) to (i,j,k,l,n) Transformation and Array
// Layer Selection", independent of the FPU rounding mode.
double roundTiesToEven(double a);
// l = clamp(RNE(a), 0, count - 1): the array layer (or cube index of a cube array).
uint32_t selectLayer(float a, uint32_t count);

// ---- sampler_lod.cpp -----------------------------------------------------------------------
// What "LOD Operation" and "Image Level(s) Selection" decide for one sample.
struct LevelSelection {
  double lambda;         // λ after bias and clamps
  uint32_t filter;       // VkFilter within a level: magFilter when λ <= 0, else minFilter
  bool mipLinear;        // mipmapMode LINEAR: filter levels hi and lo and lerp by delta
  uint32_t d;            // NEAREST: the level (view-relative)
  uint32_t dHi, dLo;     // LINEAR: the two levels
  double delta;          // LINEAR: weight of dLo
};
// "Scale Factor Operation": ρ_x and ρ_y from derivatives already in the image's (s,t,r) space
// (cube: per-face derivatives) and the sizes of the view's base level.
struct ScaleFactors {
  double rhoX, rhoY;
  // ρ_x² and ρ_y² as summed before the square roots (m_ux² + m_vx² + m_wx², in that order): the
  // batched routines compute these very sums, so a rule on them is decided alike everywhere.
  double rhoX2, rhoY2;
};
ScaleFactors scaleFactors(const double dsdx[3], const double dsdy[3], const uint32_t baseSize[3]);
// λ_base = log2(ρ_max) of an isotropic sample (η = 1).
double lambdaFromGradients(const double dsdx[3], const double dsdy[3], const uint32_t baseSize[3]);

// What the "Scale Factor Operation" and the "LOD Operation" decide for a sampler whose
// max_Aniso (SamplerState::maxAnisotropy) may exceed 1, and how "Texel Anisotropic Filtering"
// spreads its samples (reference_sampler.cpp takes them).
// A footprint whose ρ_max² is at most kIsotropicSquaredRatio ρ_min² (ρ_max within 1 + 2^-8
// of ρ_min) is sampled isotropically: η = 1 (anisotropicFootprint; the kernel's inline sampling
// makes the same test, shader_abi.h).
using abi::kIsotropicSquaredRatio;
struct AnisotropicFootprint {
  double eta;          // η, the ratio of anisotropy, in [1, max_Aniso]; 1 is isotropic
  uint32_t samples;    // N = ceil(η)
  bool alongX;         // ρ_x > ρ_y: the samples lie along ∂/∂x, else along ∂/∂y
  double lambdaBase;   // λ_base = log2(ρ_max / η)
};
AnisotropicFootprint anisotropicFootprint(const ScaleFactors& rho, double maxAniso);
LevelSelection selectLevels(const abi::SamplerState& sampler, const SampleRequest& request, double lambdaBase,
                            uint32_t levelCount);
// "LOD Operation": λ' = λ_base + the sampler's and the shader's bias, clamped to
// ±maxSamplerLodBias (before minLod and maxLod clamp it to λ).
double lambdaPrime(const abi::SamplerState& sampler, const SampleRequest& request, double lambdaBase);

// A float result's bits: float(x), or the canonical quiet NaN 0x7FC00000 when x is NaN
// (reference_sampler.cpp says why).
inline uint32_t canonicalFloatBits(double x) {
  const float f = float(x);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return x != x ? 0x7FC00000u : bits;
}

// ---- sampler_texel.cpp ---------------------------------------------------------------------
// One texel as filtering sees it: RGBA after depth compare, conversion to RGBA and swizzle;
// integers are held exactly (every int32/uint32 is a double).
struct Texel {
  double c[4];
};

// The per-sample constants of "Texel Input Operations" for one view and sampler.
struct TexelSource {
  const abi::ImageViewState* view;
  const FormatInfo* format;
  TexelKind kind;          // Float, or SInt/UInt for integer views and stencil
  bool depth, stencil;     // the view's aspect
  bool compare;            // OpImage*Dref*: "Depth Compare Operation" per texel
  uint32_t compareOp;      // VkCompareOp
  double dref;             // already clamped to [0,1] for UNORM depth formats
  uint32_t borderColor;    // VkBorderColor
  uint32_t customBorderColor[4];  // SamplerState::customBorderColor (custom colours only)
  // 4-byte formats of 8-bit UNORM or sRGB components (RGBA or BGRA order): "Format Conversion"
  // by tables the texel codec filled (unorm8Table / srgb8Table), not by decodeTexel's
  // per-component dispatch. Null for every other format.
  const float* byteTable = nullptr;   // R, G, B; alpha always uses the UNORM table
  bool bgra = false;                  // bytes in B, G, R, A order
  // Block-compressed views: the block last decoded (readConverted fills it; one sample's texels
  // mostly share a block).
  mutable DecodedBlock block;
};
TexelSource makeTexelSource(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                            const SampleRequest& request);

// The format-converted value of texel (i,j,k) of layer `layer` of view level `level`, or the
// border colour when (i,j,k) fails "Integer Texel Coordinate Validation" ("Texel
// Replacement"). Depth/stencil: D or S in c[0]. Colour: already RGBA (decodeTexel fills the
// missing components as "Conversion to RGBA" says). No compare, no swizzle yet.
Texel readConverted(const TexelSource& src, uint32_t level, int32_t i, int32_t j, int32_t k, uint32_t layer);
// The rest of the per-texel steps, in the specification's order: "Depth Compare Operation",
// "Conversion to RGBA" for depth/stencil, "Component Swizzle".
Texel finishTexel(const TexelSource& src, Texel converted);
// (The 256-entry tables byteTable points at are the codec's unorm8Table and srgb8Table,
// include/tessera/texel_codec.h; the batched routines read texels through them too.)

// ---- ycbcr_sampling.cpp --------------------------------------------------------------------
// A sample of a view with a sampler Y'CbCr conversion at normalized (s, t) plus the Offset
// operand in view layer `layer`, its luma filtered with `filter` (the sampler's magFilter or
// minFilter, as λ chose), its chroma as the conversion says: RGBA after reconstruction,
// swizzle, range expansion and model conversion.
Texel sampleYcbcr(const abi::YcbcrSamplingState& ycbcr, double s, double t, const int32_t offset[2], uint32_t layer,
                  uint32_t filter);

}  // namespace tessera::sampler_detail
