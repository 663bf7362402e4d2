// "Scale Factor Operation, LOD Operation and Image Level(s) Selection". The batched routines
// (batch_lanes.h) repeat the isotropic arithmetic (lambdaFromGradients, selectLevels) on arrays of lanes
// (selectLaneLevels); batch_sampler_test.cpp requires the same bits from both, so a change
// here is a change there. The batched routines of anisotropic samplers call
// anisotropicFootprint itself.
#include <algorithm>
#include <cmath>

#include "sampler_internal.h"

namespace tessera::sampler_detail {
namespace {

// VkPhysicalDeviceLimits::maxSamplerLodBias as Tessera reports it. makeSamplerState has
// already clamped the sampler's own bias; the LOD Operation clamps the sum with the shader's.
constexpr double kMaxSamplerLodBias = 16.0;

}  // namespace

ScaleFactors scaleFactors(const double dsdx[3], const double dsdy[3], const uint32_t baseSize[3]) {
  // "Scale Factor Operation": m_ux = |∂s/∂x| × w_base, m_vx = |∂t/∂x| × h_base,
  // m_wx = |∂r/∂x| × d_base (and the same in y), with the base sizes of the view's first
  // level. Derivatives the dimensionality lacks are 0 (the caller passes zeros).
  double mx[3], my[3];
  for (int c = 0; c < 3; ++c) {
    mx[c] = std::fabs(dsdx[c]) * baseSize[c];
    my[c] = std::fabs(dsdy[c]) * baseSize[c];
  }
  // ρ_x and ρ_y "may be approximated with functions f_x and f_y" that are continuous,
  // monotonic and between max(|m_ux|, |m_vx|, |m_wx|) and √2 (|m_ux| + |m_vx| + |m_wx|).
  // The reference uses the length of the derivative vector, which satisfies both bounds and
  // is what a GPU's "exact" LOD computes.
  const double sumX = mx[0] * mx[0] + mx[1] * mx[1] + mx[2] * mx[2];
  const double sumY = my[0] * my[0] + my[1] * my[1] + my[2] * my[2];
  return {std::sqrt(sumX), std::sqrt(sumY), sumX, sumY};
}

double lambdaFromGradients(const double dsdx[3], const double dsdy[3], const uint32_t baseSize[3]) {
  const ScaleFactors rho = scaleFactors(dsdx, dsdy, baseSize);
  // ρ_max = max(ρ_x, ρ_y). Isotropic sampling has η = 1, so λ_base = log2(ρ_max / η) =
  // log2(ρ_max). ρ_max = 0 (a point footprint) gives -inf, which the LOD clamps below turn
  // into lod_min.
  return std::log2(std::max(rho.rhoX, rho.rhoY));
}

namespace {

// "Scale Factor Operation": η = min(ρ_max / ρ_min, max_Aniso), where
//  - "If ρ_max = ρ_min = 0 ... the fragment's footprint in texel space is a point, and η should
//    be treated as 1";
//  - "If ρ_max ≠ 0 and ρ_min = 0 ... the footprint in texel space is a line segment, and η
//    should be treated as max_Aniso".
// A NaN or infinite scale factor (NaN or infinite derivatives: no footprint to speak of) is
// sampled isotropically, as a sampler without anisotropy samples it, so that no sample is
// placed at a NaN or infinite offset.
//  - a footprint whose axes differ by at most 1/256 (ρ_max² <= (1 + 2^-8)² ρ_min², on the sums
//    before their square roots) is taken as the point-like case's isotropic one. "The
//    particular scheme for anisotropic texture filtering is implementation dependent" ("Texel
//    Anisotropic Filtering"); this one keeps the spec's example scheme and leaves out what
//    rounding alone makes of a square footprint: a rotated, uniformly scaled texture's
//    derivatives, differences of interpolated coordinates, come out with lengths a few 2^-13
//    apart, and N = ceil(η) would then double the samples of an isotropic footprint for a λ
//    smaller by log2(η) < 2^-7.
double anisotropyRatio(double rhoMax, double rhoMin, double rhoMax2, double rhoMin2, double maxAniso) {
  if (!(maxAniso > 1)) return 1;
  if (!std::isfinite(rhoMax) || !std::isfinite(rhoMin) || !(rhoMax > 0)) return 1;
  if (rhoMax2 <= kIsotropicSquaredRatio * rhoMin2) return 1;
  if (rhoMin == 0) return maxAniso;
  // ρ_max / ρ_min >= 1; it overflows to +inf only for a subnormal ρ_min, and min() then gives
  // max_Aniso, the line segment's answer.
  return std::min(rhoMax / rhoMin, maxAniso);
}

}  // namespace

AnisotropicFootprint anisotropicFootprint(const ScaleFactors& rho, double maxAniso) {
  AnisotropicFootprint f{};
  // ρ_max = max(ρ_x, ρ_y), ρ_min = min(ρ_x, ρ_y), as the "Scale Factor Operation" determines
  // them. (The spec adds that they "should be the minor and major axes" of the footprint's
  // ellipse; from ρ_x and ρ_y, a footprint stretched along a screen diagonal, whose x and y
  // derivatives are about as long, is taken as nearly isotropic.)
  const double rhoMax = std::max(rho.rhoX, rho.rhoY), rhoMin = std::min(rho.rhoX, rho.rhoY);
  f.eta = anisotropyRatio(rhoMax, rhoMin, std::max(rho.rhoX2, rho.rhoY2), std::min(rho.rhoX2, rho.rhoY2), maxAniso);
  // "The sampling rate (N) is derived as: N = ceil(η)". Tessera takes exactly N samples and
  // keeps η itself, not N, in λ (the spec allows either).
  f.samples = uint32_t(std::ceil(f.eta));
  // "Texel Anisotropic Filtering", the spec's approach: the samples lie along x "when ρ_x >
  // ρ_y", along y "when ρ_y >= ρ_x".
  f.alongX = rho.rhoX > rho.rhoY;
  // "LOD Operation": λ_base = log2(ρ_max / η). η = 1 leaves log2(ρ_max) bit for bit (a division
  // by 1 is exact), so an isotropic footprint gets lambdaFromGradients' λ.
  f.lambdaBase = std::log2(rhoMax / f.eta);
  return f;
}

double lambdaPrime(const abi::SamplerState& sampler, const SampleRequest& request, double lambdaBase) {
  // "LOD Operation":
  //   λ' = λ_base + clamp(sampler.bias + shaderOp.bias, -maxSamplerLodBias, maxSamplerLodBias)
  const double bias = std::clamp(double(sampler.mipLodBias) + double(request.bias), -kMaxSamplerLodBias,
                                 kMaxSamplerLodBias);
  return lambdaBase + bias;
}

LevelSelection selectLevels(const abi::SamplerState& sampler, const SampleRequest& request, double lambdaBase,
                            uint32_t levelCount) {
  LevelSelection out{};
  const double lambdaPrime = tessera::sampler_detail::lambdaPrime(sampler, request, lambdaBase);
  //   lod_min = max(sampler.lod_min, shaderOp.lod_min), shaderOp.lod_min = MinLod or 0;
  //   lod_max = sampler.maxLod; λ = clamp of λ' to [lod_min, lod_max]. lod_min > lod_max is
  //   undefined; then λ = lod_max (the first case of the spec's formula that applies).
  const double lodMin = std::max(double(sampler.minLod), request.hasMinLod ? double(request.minLod) : 0.0);
  const double lodMax = sampler.maxLod;
  double lambda = lambdaPrime;
  if (lambdaPrime > lodMax) lambda = lodMax;
  else if (lambdaPrime < lodMin) lambda = lodMin;
  else if (std::isnan(lambdaPrime)) lambda = lodMin;  // undefined; pick the finest allowed LOD
  out.lambda = lambda;

  // "Texel Filtering": λ <= 0 is magnification (magFilter), λ > 0 minification (minFilter).
  out.filter = lambda <= 0 ? sampler.magFilter : sampler.minFilter;

  // "Image Level(s) Selection": d' = level_base + clamp(λ, 0, q), q = levelCount - 1.
  // level_base is 0 because ImageViewState::levels[] starts at the view's baseMipLevel.
  const double q = double(levelCount > 0 ? levelCount - 1 : 0);
  const double dPrime = std::clamp(lambda, 0.0, q);
  if (sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR) {
    // d_hi = floor(d_l), d_lo = min(d_hi + 1, level_base + q), δ = d_l - d_hi (d_l = d').
    out.mipLinear = true;
    out.dHi = uint32_t(std::floor(dPrime));
    out.dLo = std::min(out.dHi + 1, uint32_t(q));
    out.delta = dPrime - double(out.dHi);
    out.d = out.dHi;
  } else {
    // NEAREST: d = nearest(d') with the preferred rounding ceil(d' + 0.5) - 1, which rounds
    // a tie (d' = n + 0.5) down to n.
    out.d = uint32_t(std::ceil(dPrime + 0.5) - 1.0);
    out.dHi = out.dLo = out.d;
    out.delta = 0;
  }
  return out;
}

}  // namespace tessera::sampler_detail
