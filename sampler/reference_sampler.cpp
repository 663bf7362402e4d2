// The scalar reference of texel sampling (sampling.h), step by step from the Vulkan 1.3
// specification's "Image Operations" chapter. This file holds the order of the steps,
// texel filtering and gathering; the single steps live in the files sampler_internal.h lists.
//
// Choices where the specification leaves room (each is also noted where it is made):
//  - ρ_x, ρ_y are the lengths of the scaled derivative vectors.
//  - Anisotropic filtering ("Texel Anisotropic Filtering" leaves the scheme to the
//    implementation) is the spec's own example, generalized: N = ceil(η) isotropic samples,
//    each filtered with the sampler's filters and mipmap mode at the footprint's
//    λ = log2(ρ_max / η), at the coordinates of the screen positions x - 1/2 + i/(N+1)
//    (i = 1..N) along the major axis (x when ρ_x > ρ_y, else y), and averaged (MIN/MAX
//    reductions: their minimum / maximum). filterAnisotropic says more. Explicit-LOD sampling,
//    gathers, unnormalized coordinates and integer views sampled NEAREST stay isotropic.
//  - nearest(d') and RNE use the "preferred" forms (ceil(d' + 0.5) - 1, roundTiesToEven).
//  - Cube corners are the average of the three adjacent texels; cube faces tie-break r_z over
//    r_y over r_x, as recommended.
//  - Coordinates, weights and filtering are computed in double, with no quantization to
//    subTexelPrecisionBits or mipmapPrecisionBits.
//  - Integer views with WEIGHTED_AVERAGE reduction (where LINEAR filtering is invalid usage)
//    are sampled as if both filters and the mipmap mode were NEAREST.
//  - A NaN result is the canonical quiet NaN (0x7FC00000): which of two NaN operands an
//    operation passes on is not fixed by IEEE 754 (x86 takes the first, and compilers order
//    commutative operands freely), so sign and payload would otherwise depend on code
//    generation, and the batched routines could not match this reference bit for bit.
//  - Undefined inputs get a deterministic answer: NaN λ -> lod_min, NaN coordinates -> 0,
//    lod_min > lod_max -> lod_max, a custom border colour without its
//    VkSamplerCustomBorderColorCreateInfoEXT -> zeros.
//  - Custom border colours are used exactly as given (the spec allows rounding to the format);
//    with VkSamplerCustomBorderColorCreateInfoEXT::format VK_FORMAT_UNDEFINED a stencil view
//    takes S = B_r, as "Border Replacement" recommends.
//  - VkSamplerBorderColorComponentMappingCreateInfoEXT is not read: the border colour replaces
//    the texel before "Component Swizzle", so the view's own swizzle applies to it (what
//    borderColorSwizzleFromImage promises), and a mapping that differs from the view's gives
//    undefined values by "Instruction/Format/Sampler/Image View Validation".
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sampler_internal.h"
#include "tessera/sampling_batch.h"

namespace tessera {

abi::SamplerState makeSamplerState(const VkSamplerCreateInfo& info, VkSamplerReductionMode reductionMode,
                                   float maxSamplerLodBias, float maxSamplerAnisotropy) {
  abi::SamplerState s{};
  s.magFilter = info.magFilter;
  s.minFilter = info.minFilter;
  s.mipmapMode = info.mipmapMode;
  s.addressMode[0] = info.addressModeU;
  s.addressMode[1] = info.addressModeV;
  s.addressMode[2] = info.addressModeW;
  // VkSamplerCreateInfo: "mipLodBias ... If this value is greater than maxSamplerLodBias,
  // the bias is clamped" (the LOD Operation clamps again, after adding the shader's bias).
  s.mipLodBias = std::clamp(info.mipLodBias, -maxSamplerLodBias, maxSamplerLodBias);
  s.compareEnable = info.compareEnable;
  s.compareOp = info.compareOp;
  s.minLod = info.minLod;
  s.maxLod = info.maxLod;
  s.borderColor = info.borderColor;
  if (info.borderColor == VK_BORDER_COLOR_FLOAT_CUSTOM_EXT || info.borderColor == VK_BORDER_COLOR_INT_CUSTOM_EXT)
    for (auto* p = static_cast<const VkBaseInStructure*>(info.pNext); p; p = p->pNext)
      if (p->sType == VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT)
        std::memcpy(s.customBorderColor,
                    &reinterpret_cast<const VkSamplerCustomBorderColorCreateInfoEXT*>(p)->customBorderColor,
                    sizeof(s.customBorderColor));
  s.unnormalizedCoordinates = info.unnormalizedCoordinates;
  s.reductionMode = reductionMode;
  s.nonSeamlessCube = (info.flags & VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT) ? 1 : 0;
  // "Scale Factor Operation": max_Aniso = min(sampler.max_Aniso, limits.max_Aniso), where
  // sampler.max_Aniso is maxAnisotropy; anisotropyEnable VK_FALSE sets max_Aniso to 1
  // (maxAnisotropy "is ignored"). A value below 1 or NaN (invalid usage) is taken as 1.
  s.anisotropyEnable = info.anisotropyEnable ? 1 : 0;
  s.maxAnisotropy = 1.0f;
  if (info.anisotropyEnable && info.maxAnisotropy > 1.0f)
    s.maxAnisotropy = std::max(1.0f, std::min(info.maxAnisotropy, maxSamplerAnisotropy));
  s.fastSampling = classifySamplerForRoutines(s);
  return s;
}

namespace {

using namespace sampler_detail;

enum class Dim { D1, D2, D3, Cube };

Dim dimOf(uint32_t viewType) {
  switch (VkImageViewType(viewType)) {
    case VK_IMAGE_VIEW_TYPE_1D:
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY: return Dim::D1;
    case VK_IMAGE_VIEW_TYPE_3D: return Dim::D3;
    case VK_IMAGE_VIEW_TYPE_CUBE:
    case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: return Dim::Cube;
    default: return Dim::D2;
  }
}

// Everything about one sample that does not change between the levels it reads.
struct Sample {
  const abi::ImageViewState* view;
  const abi::SamplerState* sampler;
  TexelSource src;
  Dim dim;
  double s, t, r;      // normalized (s,t,r) or, for cubes, (s_face, t_face, 0); unnormalized (u,v,w)
  bool unnormalized;
  int32_t offset[3];   // Δi, Δj, Δk
  uint32_t layer;      // "Array Layer Selection" result; cubes: the first face of the cube
  uint32_t face;       // cubes: the selected face
};

// Integer texel coordinates (i, j, k), before or after the "Wrapping Operation".
struct Coord3 {
  int32_t i, j, k;
};

// floor(x) as an integer texel coordinate. Coordinates too large for int32 (and NaN, which
// gives 0) are outside what single-precision inputs can address texel-exactly anyway; they
// are clamped to ±2^30 so that adding offsets cannot overflow.
int32_t floorToInt(double x) {
  if (std::isnan(x)) return 0;
  return int32_t(std::clamp(std::floor(x), -1073741824.0, 1073741824.0));
}

// Sums weighted texels as "Texel Filtering" / "Texel Mipmap Filtering" describe for the
// sampler's reduction mode: WEIGHTED_AVERAGE is Σ w τ; MIN/MAX are "a component-wise minimum
// or maximum ... of the components of the set of texels with non-zero weights".
class Reduction {
 public:
  explicit Reduction(uint32_t mode) : mode_(mode) {}
  void add(double weight, const Texel& t) {
    if (mode_ != VK_SAMPLER_REDUCTION_MODE_MIN && mode_ != VK_SAMPLER_REDUCTION_MODE_MAX) {
      for (int c = 0; c < 4; ++c) acc_.c[c] += weight * t.c[c];
      return;
    }
    if (weight == 0) return;
    if (!any_) {
      acc_ = t, any_ = true;
      return;
    }
    for (int c = 0; c < 4; ++c)
      acc_.c[c] = mode_ == VK_SAMPLER_REDUCTION_MODE_MIN ? std::min(acc_.c[c], t.c[c]) : std::max(acc_.c[c], t.c[c]);
  }
  Texel result() const { return acc_; }

 private:
  uint32_t mode_;
  bool any_ = false;
  Texel acc_{};
};

// A cube texel, possibly one beyond the face (linear filtering and gathers), after "Cube Map
// Edge Handling"; cube maps ignore the sampler's address modes ("Wrapping Operation").
Texel cubeTexel(const Sample& smp, uint32_t level, int32_t i, int32_t j) {
  const int32_t size = int32_t(smp.view->levels[level].width);
  auto read = [&](uint32_t face, int32_t x, int32_t y) {
    return readConverted(smp.src, level, x, y, 0, smp.layer + face);
  };
  const bool outI = i < 0 || i >= size, outJ = j < 0 || j >= size;
  Texel t;
  if (!outI && !outJ) {
    t = read(smp.face, i, j);
  } else if (outI != outJ) {
    // Cube Map Edge Texel: the adjacent texel of the neighbouring face.
    CubeTexel n = cubeAdjacentTexel(smp.face, i, j, size);
    t = read(n.face, n.i, n.j);
  } else {
    // Cube Map Corner Texel: "replaced by the average of the three values of the adjacent
    // texels in each incident face": this face's corner texel and the texels across each of
    // the two edges that meet there. Averaged after format conversion, before the depth
    // compare, as the steps are ordered. Integer views round the average to nearest.
    const int32_t ci = std::clamp(i, 0, size - 1), cj = std::clamp(j, 0, size - 1);
    const CubeTexel acrossI = cubeAdjacentTexel(smp.face, i, cj, size);
    const CubeTexel acrossJ = cubeAdjacentTexel(smp.face, ci, j, size);
    const Texel a = read(smp.face, ci, cj), b = read(acrossI.face, acrossI.i, acrossI.j),
                c = read(acrossJ.face, acrossJ.i, acrossJ.j);
    for (int k = 0; k < 4; ++k) {
      t.c[k] = (a.c[k] + b.c[k] + c.c[k]) / 3.0;
      if (smp.src.kind != TexelKind::Float && !smp.src.compare) t.c[k] = std::round(t.c[k]);
    }
  }
  return finishTexel(smp.src, t);
}

// A texel of a non-cube view: "Wrapping Operation" on each coordinate the view type has, then
// the per-texel input operations (a wrapped coordinate of -1 or size is a border texel).
Texel wrappedTexel(const Sample& smp, uint32_t level, Coord3 c) {
  const abi::ImageLevel& l = smp.view->levels[level];
  const uint32_t* mode = smp.sampler->addressMode;
  c.i = wrapCoordinate(c.i, int32_t(l.width), mode[0]);
  c.j = smp.dim == Dim::D1 ? 0 : wrapCoordinate(c.j, int32_t(l.height), mode[1]);
  c.k = smp.dim == Dim::D3 ? wrapCoordinate(c.k, int32_t(l.depth), mode[2]) : 0;
  return finishTexel(smp.src, readConverted(smp.src, level, c.i, c.j, c.k, smp.layer));
}

// A texel of a cube face sampled without seamless filtering (VK_EXT_non_seamless_cube_map): the
// selected face is a 2D image with the sampler's "Wrapping Operation"; a coordinate beyond it
// after wrapping is a border texel ("Texel Replacement": not a cube image edge when the sampler
// is non-seamless).
Texel nonSeamlessCubeTexel(const Sample& smp, uint32_t level, Coord3 c) {
  const int32_t size = int32_t(smp.view->levels[level].width);
  const uint32_t* mode = smp.sampler->addressMode;
  c.i = wrapCoordinate(c.i, size, mode[0]);
  c.j = wrapCoordinate(c.j, size, mode[1]);
  return finishTexel(smp.src, readConverted(smp.src, level, c.i, c.j, 0, smp.layer + smp.face));
}

Texel texelAt(const Sample& smp, uint32_t level, uint32_t filter, Coord3 c) {
  if (smp.dim != Dim::Cube) return wrappedTexel(smp, level, c);
  if (smp.sampler->nonSeamlessCube) return nonSeamlessCubeTexel(smp, level, c);
  // "Wrapping Operation": with NEAREST, cube maps use CLAMP_TO_EDGE; with LINEAR, "Cube Map
  // Edge Handling".
  if (filter == VK_FILTER_NEAREST) {
    const int32_t size = int32_t(smp.view->levels[level].width);
    c.i = std::clamp(c.i, 0, size - 1), c.j = std::clamp(c.j, 0, size - 1);
  }
  return cubeTexel(smp, level, c.i, c.j);
}

// "(s,t,r,q,a) to (u,v,w,a) Transformation" for one level: u = s × width_level + Δi,
// v = t × height_level + Δj (0 for 1D), w = r × depth_level + Δk (0 for 2D and cube).
// Unnormalized coordinates are already (u, v) and skip the scaling.
void unnormalize(const Sample& smp, uint32_t level, double uvw[3]) {
  const abi::ImageLevel& l = smp.view->levels[level];
  const double scale[3] = {smp.unnormalized ? 1.0 : double(l.width), smp.unnormalized ? 1.0 : double(l.height),
                           smp.unnormalized ? 1.0 : double(l.depth)};
  uvw[0] = smp.s * scale[0] + smp.offset[0];
  uvw[1] = smp.dim == Dim::D1 ? 0.0 : smp.t * scale[1] + smp.offset[1];
  uvw[2] = smp.dim == Dim::D3 ? smp.r * scale[2] + smp.offset[2] : 0.0;
}

// "Texel Filtering" within one level: NEAREST picks the texel the coordinates lie in, LINEAR
// combines the 2, 4 or 8 texels around them ("(u,v,w,a) to (i,j,k,l,n) Transformation").
Texel filterLevel(const Sample& smp, uint32_t level, uint32_t filter) {
  double uvw[3];
  unnormalize(smp, level, uvw);
  if (filter == VK_FILTER_NEAREST) {
    // i = floor(u), j = floor(v), k = floor(w)  (shift = 0 for conventional images)
    const Coord3 c{floorToInt(uvw[0]), floorToInt(uvw[1]), floorToInt(uvw[2])};
    return texelAt(smp, level, filter, c);
  }
  // i0 = floor(u - 0.5), i1 = i0 + 1, α = frac(u - 0.5), likewise j/β and k/γ; the weights
  // are w_i0 = 1 - α, w_i1 = α, and so on. Dimensions the view lacks take one texel, weight 1.
  int32_t base[3];
  double frac[3];
  for (int a = 0; a < 3; ++a) {
    const double x = uvw[a] - 0.5;
    base[a] = floorToInt(x);
    frac[a] = x - std::floor(x);
  }
  const int ni = 2, nj = smp.dim == Dim::D1 ? 1 : 2, nk = smp.dim == Dim::D3 ? 2 : 1;
  if (nj == 1) base[1] = 0, frac[1] = 0;
  if (nk == 1) base[2] = 0, frac[2] = 0;
  Reduction sum(smp.sampler->reductionMode);
  for (int dk = 0; dk < nk; ++dk)
    for (int dj = 0; dj < nj; ++dj)
      for (int di = 0; di < ni; ++di) {
        const double w = (di ? frac[0] : 1 - frac[0]) * (dj ? frac[1] : 1 - frac[1]) * (dk ? frac[2] : 1 - frac[2]);
        sum.add(w, texelAt(smp, level, filter, Coord3{base[0] + di, base[1] + dj, base[2] + dk}));
      }
  return sum.result();
}

// "Texel Gathering": the four texels the LINEAR rules select in the base level of the view
// (or, with ConstOffsets, texel i0j0 of each offset footprint); component `comp` of each,
// after conversion to RGBA and swizzle, in the order i0j1, i1j1, i1j0, i0j0.
Texel gather(const Sample& smp, const SampleRequest& request) {
  double uvw[3];
  unnormalize(smp, 0, uvw);
  const int32_t i0 = floorToInt(uvw[0] - 0.5), j0 = floorToInt(uvw[1] - 0.5);
  const int32_t k0 = smp.dim == Dim::D3 ? floorToInt(uvw[2] - 0.5) : 0;  // SPIR-V gathers are 2D/cube only
  Coord3 texels[4] = {{i0, j0 + 1, k0}, {i0 + 1, j0 + 1, k0}, {i0 + 1, j0, k0}, {i0, j0, k0}};
  if (request.hasGatherOffsets) {
    // τ[R] = τ_{i0j0 + Δ0}, τ[G] = τ_{i0j0 + Δ1}, τ[B] = τ_{i0j0 + Δ2}, τ[A] = τ_{i0j0 + Δ3}
    for (int n = 0; n < 4; ++n)
      texels[n] = Coord3{i0 + request.gatherOffsets[n][0], j0 + request.gatherOffsets[n][1], k0};
  }
  const uint32_t comp = request.gatherComponent & 3;
  Texel out;
  for (int n = 0; n < 4; ++n) out.c[n] = texelAt(smp, 0, VK_FILTER_LINEAR, texels[n]).c[comp];
  return out;
}

// "Texel Mipmap Filtering": NEAREST τ = τ[d]; LINEAR τ = (1 - δ) τ[d_hi] + δ τ[d_lo]
// (MIN/MAX: over the levels with non-zero weight).
Texel filterMipmapped(const Sample& smp, const LevelSelection& sel) {
  if (!sel.mipLinear) return filterLevel(smp, sel.d, sel.filter);
  Reduction mip(smp.sampler->reductionMode);
  mip.add(1.0 - sel.delta, filterLevel(smp, sel.dHi, sel.filter));
  mip.add(sel.delta, filterLevel(smp, sel.dLo, sel.filter));
  return mip.result();
}

// The line an anisotropic footprint's samples lie on: the coordinates of the sample (for cube
// maps the direction (s,t,r), before face selection; otherwise (s,t,r) as the view's
// dimensionality has them) and their derivative along the footprint's major axis, ∂/∂x when
// ρ_x > ρ_y, else ∂/∂y, in the same space.
struct AnisotropicAxis {
  double origin[3];
  double derivative[3];
};

// The axis of `smp`'s footprint. `dsdx` / `dsdy` are ∂(s,t,r)/∂x and ∂/∂y as sampleImage has
// them for the view's dimensionality (zeros where it has fewer coordinates); cube maps take
// the direction's own derivatives from the request instead, as their samples move the
// direction.
AnisotropicAxis majorAxis(const Sample& smp, const SampleRequest& request, const double dsdx[3], const double dsdy[3],
                          bool alongX) {
  AnisotropicAxis axis{};
  if (smp.dim == Dim::Cube) {
    const float direction[3] = {request.s, request.t, request.r};
    const float* derivative = alongX ? request.dPdx : request.dPdy;
    for (int c = 0; c < 3; ++c) axis.origin[c] = direction[c], axis.derivative[c] = derivative[c];
  } else {
    const double coords[3] = {smp.s, smp.t, smp.r};
    const double* derivative = alongX ? dsdx : dsdy;
    for (int c = 0; c < 3; ++c) axis.origin[c] = coords[c], axis.derivative[c] = derivative[c];
  }
  return axis;
}

// Sample i (1..N) of "Texel Anisotropic Filtering": the spec's example takes τ_2D at
// (u(x - 1/2 + i/(N+1), y), v(x - 1/2 + i/(N+1), y)) when the samples lie along x (y likewise).
// The derivatives are all that is known of u and v away from (x, y), so the coordinates there
// are their first-order expansion: P + (i/(N+1) - 1/2) × ∂P/∂x. The N positions are evenly
// spaced across the pixel's footprint, symmetric about its centre, none on its edges. A cube
// map's moved direction selects its own face, so a footprint may cross a cube edge.
Sample anisotropicSample(const Sample& centre, const AnisotropicAxis& axis, uint32_t i, uint32_t n) {
  const double offset = double(i) / double(n + 1) - 0.5;
  double p[3];
  for (int c = 0; c < 3; ++c) p[c] = axis.origin[c] + offset * axis.derivative[c];
  Sample smp = centre;
  if (smp.dim == Dim::Cube) {
    const float dir[3] = {float(p[0]), float(p[1]), float(p[2])};
    const CubeFaceCoord fc = selectCubeFace(dir, nullptr, nullptr);
    smp.face = fc.face;
    smp.s = fc.s, smp.t = fc.t;
  } else {
    smp.s = p[0], smp.t = p[1], smp.r = p[2];
  }
  return smp;
}

// "Texel Anisotropic Filtering": "Instead of a single isotropic sample, N isotropic samples are
// sampled within the image footprint", τ_aniso = (1/N) Σ τ(sample i). Each sample is filtered
// as an isotropic one is (the sampler's magFilter/minFilter by λ, its mipmap mode: "implementations
// should consider the magFilter, minFilter and mipmapMode"), at the level(s) `sel` chose from
// the footprint's λ = log2(ρ_max / η), so minLod and maxLod bound it as they bound any λ. With a
// MIN or MAX reduction "the process operates on the above values, together with their weights,
// computing a component-wise minimum or maximum".
Texel filterAnisotropic(const Sample& centre, const LevelSelection& sel, const AnisotropicAxis& axis, uint32_t n) {
  Reduction sum(centre.sampler->reductionMode);
  const double weight = 1.0 / double(n);
  for (uint32_t i = 1; i <= n; ++i) sum.add(weight, filterMipmapped(anisotropicSample(centre, axis, i, n), sel));
  return sum.result();
}

// "Image Level of Detail Query" (OpImageQueryLod): the level of detail the sample would use,
// from the same derivatives and sampler (its own filters: no integer-format substitution).
// f[1] is λ' ("LOD Operation": λ_base plus the biases, before minLod and maxLod clamp it;
// -inf for a zero footprint); f[0] the level "Image Level(s) Selection" picks from λ: d for
// mipmapMode NEAREST, d' = clamp(λ, 0, q) for LINEAR. Unnormalized coordinates have no LOD.
TexelValue queryLod(const Sample& smp, const abi::SamplerState& sampler, const SampleRequest& request,
                    const double dsdx[3], const double dsdy[3], uint32_t levelCount) {
  TexelValue v{};
  if (smp.unnormalized) return v;
  const abi::ImageLevel& l0 = smp.view->levels[0];
  const uint32_t baseSize[3] = {l0.width, smp.dim == Dim::D1 ? 1u : l0.height, smp.dim == Dim::D3 ? l0.depth : 1u};
  const bool anisotropic = sampler.anisotropyEnable && sampler.maxAnisotropy > 1.0f;
  const double lambdaBase = anisotropic
                                ? anisotropicFootprint(scaleFactors(dsdx, dsdy, baseSize), sampler.maxAnisotropy).lambdaBase
                                : lambdaFromGradients(dsdx, dsdy, baseSize);
  const LevelSelection sel = selectLevels(sampler, request, lambdaBase, levelCount);
  const double level = sel.mipLinear ? double(sel.dHi) + sel.delta : double(sel.d);
  v.u[0] = canonicalFloatBits(level);
  v.u[1] = canonicalFloatBits(lambdaPrime(sampler, request, lambdaBase));
  return v;
}

TexelValue toTexelValue(const Texel& t, TexelKind kind) {
  TexelValue v;
  for (int c = 0; c < 4; ++c) {
    if (kind == TexelKind::SInt) v.i[c] = int32_t(t.c[c]);
    else if (kind == TexelKind::UInt) v.u[c] = uint32_t(t.c[c]);
    else v.u[c] = canonicalFloatBits(t.c[c]);
  }
  return v;
}

}  // namespace

TexelValue sampleImage(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleRequest& request) {
  TexelValue zero{};
  if (view.levelCount == 0 || !formatInfo(VkFormat(view.format))) return zero;
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);

  Sample smp{};
  smp.view = &view;
  smp.sampler = &sampler;
  smp.src = makeTexelSource(view, sampler, request);
  smp.dim = dimOf(view.viewType);
  smp.unnormalized = sampler.unnormalizedCoordinates && smp.dim != Dim::Cube;
  const TexelKind resultKind = request.compare ? TexelKind::Float : smp.src.kind;

  // "Texel Coordinate Systems": the coordinates the dimensionality has; unused ones are 0.
  smp.s = request.s;
  smp.t = smp.dim == Dim::D1 ? 0.0 : request.t;
  smp.r = smp.dim == Dim::D3 ? request.r : 0.0;
  // Derivatives the dimensionality lacks are zero ("Derivative Image Operations").
  double dsdx[3] = {}, dsdy[3] = {};
  const int dims = smp.dim == Dim::D1 ? 1 : smp.dim == Dim::D3 ? 3 : 2;
  if (smp.dim != Dim::Cube && request.hasGrad)
    for (int c = 0; c < dims; ++c) dsdx[c] = request.dPdx[c], dsdy[c] = request.dPdy[c];
  // (s,t,r,q,a) to (u,v,w,a): Δi, Δj, Δk from Offset/ConstOffset. SPIR-V allows no offsets
  // with cube images, so none are applied there.
  if (smp.dim != Dim::Cube)
    for (int c = 0; c < dims; ++c) smp.offset[c] = request.offset[c];

  // "(u,v,w,a) to (i,j,k,l,n) Transformation and Array Layer Selection":
  // l = clamp(RNE(a), 0, layerCount - 1). A cube array's a selects a cube, whose six faces
  // are consecutive layers (layer = 6 × cube + face).
  switch (VkImageViewType(view.viewType)) {
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
    case VK_IMAGE_VIEW_TYPE_2D_ARRAY: smp.layer = selectLayer(request.layer, view.layerCount); break;
    case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: smp.layer = 6 * selectLayer(request.layer, view.layerCount / 6); break;
    default: smp.layer = 0; break;
  }

  if (smp.dim == Dim::Cube) {
    // "Cube Map Face Selection and Transformations": (s,t,r) is a direction; it picks the
    // face and becomes (s_face, t_face) and per-face derivatives, then the cube is sampled
    // as a 2D image of that face.
    const float dir[3] = {request.s, request.t, request.r};
    const bool grads = request.hasGrad && !request.hasLod;
    const CubeFaceCoord fc = selectCubeFace(dir, grads ? request.dPdx : nullptr, grads ? request.dPdy : nullptr);
    smp.face = fc.face;
    smp.s = fc.s, smp.t = fc.t;
    dsdx[0] = fc.dsdx, dsdx[1] = fc.dtdx, dsdy[0] = fc.dsdy, dsdy[1] = fc.dtdy;
  }

  if (request.kind == SampleKind::Gather) return toTexelValue(gather(smp, request), resultKind);
  if (request.kind == SampleKind::QueryLod) return queryLod(smp, sampler, request, dsdx, dsdy, levelCount);

  // Integer formats cannot be filtered LINEAR (a weighted average of integers is not a
  // texel value; the format features forbid it): they are sampled as if the filters and the
  // mipmap mode were NEAREST. MIN/MAX reductions return texel values and keep the sampler's.
  abi::SamplerState effective = sampler;
  const bool averaging = sampler.reductionMode != VK_SAMPLER_REDUCTION_MODE_MIN &&
                         sampler.reductionMode != VK_SAMPLER_REDUCTION_MODE_MAX;
  // The same views stay isotropic: an average of N integer texels is not a texel value either.
  if (smp.src.kind != TexelKind::Float && !request.compare && averaging) {
    effective.magFilter = effective.minFilter = VK_FILTER_NEAREST;
    effective.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    effective.maxAnisotropy = 1.0f;
  }
  const bool anisotropic = effective.anisotropyEnable && effective.maxAnisotropy > 1.0f;

  // Level and filter. Unnormalized coordinates skip the normalized-coordinate operations
  // (no LOD: the view's only level is read; minFilter must equal magFilter; anisotropyEnable
  // must be VK_FALSE).
  LevelSelection sel{};
  AnisotropicFootprint footprint{};
  footprint.samples = 1;
  if (smp.unnormalized) {
    sel.filter = effective.magFilter;
    sel.d = sel.dHi = sel.dLo = 0;
  } else {
    // "LOD Operation": λ_base is the Lod operand, else log2(ρ_max / η) from the derivatives
    // ("Scale Factor Operation", with the sizes of the view's base level). An explicit LOD
    // comes with no footprint, so it is sampled isotropically.
    double lambdaBase;
    const abi::ImageLevel& l0 = view.levels[0];
    const uint32_t baseSize[3] = {l0.width, smp.dim == Dim::D1 ? 1u : l0.height, smp.dim == Dim::D3 ? l0.depth : 1u};
    if (request.hasLod) {
      lambdaBase = request.lod;
    } else if (anisotropic) {
      footprint = anisotropicFootprint(scaleFactors(dsdx, dsdy, baseSize), effective.maxAnisotropy);
      lambdaBase = footprint.lambdaBase;
    } else {
      lambdaBase = lambdaFromGradients(dsdx, dsdy, baseSize);
    }
    sel = selectLevels(effective, request, lambdaBase, levelCount);
  }

  // A view with a Y'CbCr conversion has one level and is sampled as ycbcr_sampling.cpp says,
  // its luma with the filter λ chose (the conversion forbids anisotropy).
  if (view.ycbcr) return toTexelValue(sampleYcbcr(*view.ycbcr, smp.s, smp.t, smp.offset, smp.layer, sel.filter), TexelKind::Float);
  if (footprint.samples <= 1) return toTexelValue(filterMipmapped(smp, sel), resultKind);
  const AnisotropicAxis axis = majorAxis(smp, request, dsdx, dsdy, footprint.alongX);
  return toTexelValue(filterAnisotropic(smp, sel, axis, footprint.samples), resultKind);
}

}  // namespace tessera
