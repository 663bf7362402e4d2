// What every batched sampling routine does first, shared by batch_sampler_exact.h (the exact
// routines) and batch_sampler_unorm8.cpp (the fixed-point UNORM8 ones): the lanes' operands as
// the reference holds them, the array layer, and the LOD and level selection, bit for bit the
// reference's (sampler_lod.cpp). Included only by files compiled with the routines'
// options (sampler/CMakeLists.txt) (-ffp-contract=off: no fused multiply-add may change a level or a mip weight).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "sampler_internal.h"
#include "tessera/sampling_batch.h"

namespace tessera::sampler_detail::batch {

// TESSERA_SAMPLING_ROUTINES, read once for every caller (findSampleRoutine, the inline
// sampling state): "0" gives no routine (every lane on the reference: to compare the two, or
// to rule the routines out when hunting a wrong pixel); "exact" keeps RGBA8 / BGRA8 / R8 / RG8
// UNORM and BC1 UNORM views on the routines that are bit-identical to the reference, where they
// otherwise take the fixed-point ones (batch_sampler_unorm8.cpp), whose weights snap to
// subTexelPrecisionBits (and whose BC1 texels are rounded to bytes).
enum class SamplingRoutines { All, None, Exact };
SamplingRoutines samplingRoutines();

// ImageViewState::fastSampling codes (classifyViewForRoutines, routine_choice.cpp): 8-bit
// UNORM/sRGB RGBA and BGRA, R8/R8G8 UNORM, and 16- and 32-bit float RGBA, RG and R and 16-bit
// RGB. Depth: the depth aspect of D16 / X8_D24 / D24S8 / D32 / D32S8 views (their depth plane:
// 2, 4 and 4 bytes a texel). BC1: UNORM BC1 without and with alpha. 0: no routine.
enum ViewCode : uint32_t {
  kRgba8Unorm = 1, kBgra8Unorm, kRgba8Srgb, kBgra8Srgb, kR8Unorm, kRg8Unorm, kRgba16Sfloat, kRgba32Sfloat, kR32Sfloat,
  kR16Sfloat, kRg16Sfloat, kRgb16Sfloat, kRg32Sfloat, kDepth16Unorm, kDepth24Unorm, kDepth32Sfloat, kBc1RgbUnorm,
  kBc1RgbaUnorm
};

// The exact routines (batch_sampler_exact.h), bit for bit the reference: `widthRow` 0, 1, 2 for
// W = 4, 8, 16; `samplerClass` SamplerState::fastSampling, 1-8 (exactRoutine) or 9-16
// (anisotropicRoutine: null where the sampler's two filters differ). exactTexelSize: the bytes
// a texel (BC1: a block) of a view code takes, which the routines read the view with.
SampleRoutine exactRoutine(uint32_t widthRow, uint32_t samplerClass);
SampleRoutine anisotropicRoutine(uint32_t widthRow, uint32_t samplerClass);
uint32_t exactTexelSize(uint32_t viewCode);

// Whether the view's components come out in their own places (shader_abi.h resolves IDENTITY to
// R, G, B, A when the view state is made; IDENTITY is taken too). Only the fixed-point routines
// take other swizzles (they apply them to their result); the exact ones need this.
inline bool identitySwizzle(const abi::ImageViewState& v) {
  for (uint32_t c = 0; c < 4; ++c)
    if (v.swizzle[c] != VK_COMPONENT_SWIZZLE_IDENTITY && v.swizzle[c] != VK_COMPONENT_SWIZZLE_R + c) return false;
  return true;
}

// The fixed-point routine (batch_sampler_unorm8.cpp) for a view of code kRgba8Unorm,
// kBgra8Unorm, kR8Unorm, kRg8Unorm, kBc1RgbUnorm or kBc1RgbaUnorm (null for the others);
// `widthRow` 0, 1, 2 for W = 4, 8, 16; `samplerClass` SamplerState::fastSampling: 1-8, or 9-16
// for anisotropic samplers (RGBA/BGRA and BC1 views, equal filters; null for the others).
SampleRoutine unorm8Routine(uint32_t viewCode, uint32_t widthRow, uint32_t samplerClass);
// The 16-lane RGBA8/BGRA8 routine of `samplerClass` without its AVX-512 common case
// (batch_sampler_unorm8_uniform.cpp), for the tests that compare the two.
SampleRoutine unorm8GeneralRoutine16(uint32_t samplerClass);

// Each active lane's "Texel Anisotropic Filtering" footprint from its derivatives (zero without
// them), by the reference's own scaleFactors and anisotropicFootprint: λ_base = log2(ρ_max / η),
// N = ceil(η) and the major axis's ∂(s, t); inactive lanes get λ_base 0 and N = 1. `most` is
// the largest N.
template <uint32_t N>
struct LaneFootprints {
  alignas(64) double lambdaBase[N], axisS[N], axisT[N];
  uint32_t samples[N];
  uint32_t most = 1;
};
template <uint32_t N>
inline void laneFootprints(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                           uint32_t active, LaneFootprints<N>& f) {
  const uint32_t baseSize[3] = {view.levels[0].width, view.levels[0].height, 1};
  f.most = 1;
  for (uint32_t k = 0; k < N; ++k) {
    f.lambdaBase[k] = 0, f.axisS[k] = f.axisT[k] = 0, f.samples[k] = 1;
    if (!(active >> k & 1)) continue;
    double dsdx[3] = {}, dsdy[3] = {};
    if (lanes.dPdx[0])
      dsdx[0] = lanes.dPdx[0][k], dsdx[1] = lanes.dPdx[1][k], dsdy[0] = lanes.dPdy[0][k], dsdy[1] = lanes.dPdy[1][k];
    const AnisotropicFootprint footprint = anisotropicFootprint(scaleFactors(dsdx, dsdy, baseSize), sampler.maxAnisotropy);
    f.lambdaBase[k] = footprint.lambdaBase;
    f.samples[k] = footprint.samples;
    const double* axis = footprint.alongX ? dsdx : dsdy;
    f.axisS[k] = axis[0], f.axisT[k] = axis[1];
    f.most = f.most < f.samples[k] ? f.samples[k] : f.most;
  }
}

// Per-lane operands after the scalar steps.
template <uint32_t N>
struct Lanes {
  alignas(64) double s[N], t[N];        // double(float) as the reference holds them
  alignas(64) double offI[N], offJ[N];  // the offsets, added as doubles
  uint32_t layer[N];
};

// Each active lane's coordinates, offsets and layer (the reference's selectLayer); inactive
// lanes hold zeros (and layer 0), so everything computed from them stays in range.
template <uint32_t N>
__attribute__((always_inline)) inline void prepareLanes(const abi::ImageViewState& view, const SampleLanes& lanes,
                                                        uint32_t active, Lanes<N>& in) {
  // Every operand array holds N readable values (inactive lanes' are garbage), so the loads
  // need no branch; inactive lanes are cleared by a mask of all ones or zeros (+0.0), which
  // GCC vectorizes where a per-lane bit test would not.
  alignas(64) uint64_t keep[N];
  for (uint32_t k = 0; k < N; ++k) keep[k] = uint64_t(0) - uint64_t(active >> k & 1);
  auto masked = [&](double v, uint32_t k) { return std::bit_cast<double>(std::bit_cast<uint64_t>(v) & keep[k]); };
  // Absent offsets read zeros from an array rather than taking `: 0.0` in the loop, which GCC
  // turned into `rep stos` clears of both arrays (slow to start on Zen 3: a twelfth of the BC1
  // routine's own time).
  static constexpr int32_t kNoOffsets[N] = {};
  const int32_t* offI = lanes.offset[0] ? lanes.offset[0] : kNoOffsets;
  const int32_t* offJ = lanes.offset[1] ? lanes.offset[1] : kNoOffsets;
  for (uint32_t k = 0; k < N; ++k) {
    in.s[k] = masked(lanes.s[k], k);
    in.t[k] = masked(lanes.t[k], k);
    in.offI[k] = masked(offI[k], k);
    in.offJ[k] = masked(offJ[k], k);
    in.layer[k] = 0;
  }
  if (view.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY)
    for (uint32_t k = 0; k < N; ++k)
      if (active >> k & 1) in.layer[k] = selectLayer(lanes.layer ? lanes.layer[k] : 0.0f, view.layerCount);
}

// log2(x) for x = 0, +Inf, NaN or a positive normal double (ρ_max is one: a float derivative
// times a level size, squared, summed and rooted in double, cannot be subnormal), in
// operations GCC vectorizes: x = 2^e m with m in [√2/2, √2), log2 m = (2 / ln 2) atanh(z),
// z = (m - 1) / (m + 1), |z| < 0.172, by its odd series to z^15 (the first term left out is
// below 2^-40). λ is not specified to any precision (ρ itself "may be approximated"); the
// routines that use this are tested against the reference's λ within 2^-24.
inline double vectorLog2(double x) {
  const uint64_t bits = std::bit_cast<uint64_t>(x);
  // The biased exponent as a double without an int64 conversion (AVX2 has none): the bits of
  // 2^52 + biased exponent, minus 2^52.
  const double biased = std::bit_cast<double>((bits >> 52) | 0x4330000000000000ull) - 0x1p52;
  double m = std::bit_cast<double>((bits & 0x000FFFFFFFFFFFFFull) | 0x3FF0000000000000ull);
  const bool high = m > 1.4142135623730951;
  m = high ? m * 0.5 : m;
  const double e = (biased - 1023.0) + (high ? 1.0 : 0.0);
  const double z = (m - 1.0) / (m + 1.0), z2 = z * z;
  constexpr double kTwoOverLn2 = 2.8853900817779268;  // 2 / ln 2
  // Σ z^2k / (2k + 1), k = 0..7, by Estrin's scheme: pairs, then pairs of pairs, so the chain
  // of dependent operations is four deep rather than Horner's eight (the LOD waits for it).
  const double z4 = z2 * z2, z8 = z4 * z4;
  const double p01 = 1.0 + (1.0 / 3) * z2, p23 = 1.0 / 5 + (1.0 / 7) * z2;
  const double p45 = 1.0 / 9 + (1.0 / 11) * z2, p67 = 1.0 / 13 + (1.0 / 15) * z2;
  const double p = (p01 + p23 * z4) + (p45 + p67 * z4) * z8;
  const double log = e + kTwoOverLn2 * (z * p);
  // 0 -> -Inf, +Inf -> +Inf, NaN -> NaN, as log2 gives them.
  return x == 0.0 ? -HUGE_VAL : (x != x || x > 1.7976931348623157e308) ? x : log;
}

// "Scale Factor Operation", "LOD Operation" and "Image Level(s) Selection" for every lane: the
// arithmetic of sampler_lod.cpp's lambdaFromGradients and selectLevels, operation for operation
// (std::max and std::clamp written out as the library defines them), on arrays of lanes. Only
// log2 runs per lane, glibc's, as in the reference; the lanes of a quad often have the same
// ρ_max, and a lane whose ρ_max has the bits of the previous lane's takes its log2.
// batch_sampler_test.cpp holds the two to the same bits; a change to either must keep them so.
// kVectorLog2 (the fixed-point routines): λ_base is vectorLog2(ρ_max^2) / 2 instead, within
// 2^-40 of glibc's log2(ρ_max).
// Level k's range of ρ_max² for mipmapMode NEAREST under this sampler's bias and clamps and
// `levelCount` levels, in float, rounded inward (lo >= hi when it has none): a lane whose
// ρ_max², computed in float, lies in [lo, hi) has level k whatever its bits
// (inline_sample_state.cpp says why). The fixed-point routines' NearestLevelRanges and the
// inline sampling entries both keep these.
void nearestLevelRange(const abi::SamplerState& sampler, uint32_t levelCount, uint32_t k, float& lo, float& hi);

// For mipmapMode NEAREST batches whose only LOD operands are the derivatives (implicit LOD, the
// common case), the level is a monotone step function of ρ_max² alone once the sampler's bias
// and clamps and the level count are fixed: each level owns a range of ρ_max². Per thread, the
// ranges of the levels met so far under one such context, so that a batch whose quads all lie
// inside the range of the level it guessed needs only ρ_max² (two products and a sum), not the
// logarithm chain the levels otherwise wait for. The AVX-512 common case
// (batch_sampler_unorm8_uniform.cpp) and the general fixed-point routine
// (batch_sampler_unorm8.cpp predictedNearestLevels) keep one each per thread.
//
// Exactness: a range is the set of λ_base where levelsFromBase (the real operations) gives the
// level, found by bisection on that function (monotone: every step is a clamp, a rounding
// addition or a rounding to an integer; a sampler whose minLod exceeds its maxLod is left out),
// shrunk by 2^-20 at each end and turned into ρ_max² bounds with exp2, rounded inward to
// float. The batch's ρ_max² is computed in float (|d| size, squared, summed, the larger sum:
// within 4 float roundings, so within 2^-22.5 in λ of the exact value), vectorLog2 is within 2^-40 of log2 and exp2 within an ulp, so a ρ_max² inside
// the bounds has the exact path's λ_base inside the range, whatever the bits: the level is the
// one the full computation gives.
struct NearestLevelRanges {
  struct Context {
    uint32_t levelCount = 0, bias = 0, minLod = 0, maxLod = 0;  // the float fields' bits
    bool operator==(const Context&) const = default;
  };
  Context context;
  bool haveContext = false;
  uint32_t known = 0;  // bit k: level k's range is computed
  float lo[abi::kMaxImageLevels], hi[abi::kMaxImageLevels];  // lo <= ρ_max² < hi (in float, rounded inward)
};

inline NearestLevelRanges::Context rangeContext(const abi::SamplerState& sampler, uint32_t levelCount) {
  return {levelCount, std::bit_cast<uint32_t>(sampler.mipLodBias), std::bit_cast<uint32_t>(sampler.minLod),
          std::bit_cast<uint32_t>(sampler.maxLod)};
}

// "LOD Operation"'s bias term, clamp(bias_sampler + bias_shader, ±maxSamplerLodBias (16)), and
// lod_min = max(minLod, MinLod), as levelsFromLambdaBase computes them (std::clamp and std::max
// written out as the library defines them); the inline sampling entries keep them too.
inline double clampedLodBias(double samplerBias, float shaderBias) {
  const double sum = samplerBias + double(shaderBias);
  return sum < -16.0 ? -16.0 : (16.0 < sum ? 16.0 : sum);
}
inline double lodMinimum(double samplerMin, double shaderMin) { return samplerMin < shaderMin ? shaderMin : samplerMin; }

template <uint32_t N>
inline void levelsFromLambdaBase(const abi::SamplerState& sampler, const SampleLanes& lanes, const double* lambdaBase,
                                 uint32_t active, uint32_t levelCount, bool mipLinear, uint32_t* levelHi,
                                 uint32_t* levelLo, double* delta, uint32_t& linearLanes);

// ρ_x² and ρ_y² of a 2D lane as the reference's scaleFactors sums them (m_ux² + m_vx² + m_wx²,
// m_wx = |0| x 1): the isotropic routines' λ and the anisotropic footprint's isotropy test
// (sampler_internal.h kIsotropicSquaredRatio) both start from these bits.
struct SquaredRho {
  double x, y;
};
inline SquaredRho squaredRho(double w, double h, double dx0, double dx1, double dy0, double dy1) {
  const double mz = std::fabs(0.0) * 1.0;
  const double mx0 = std::fabs(dx0) * w, mx1 = std::fabs(dx1) * h;
  const double my0 = std::fabs(dy0) * w, my1 = std::fabs(dy1) * h;
  return {mx0 * mx0 + mx1 * mx1 + mz * mz, my0 * my0 + my1 * my1 + mz * mz};
}
// The fixed-point routines' λ_base = log2(ρ_max) of an isotropic footprint from ρ_max².
inline double isotropicLambdaBase(double rhoMax2) { return 0.5 * vectorLog2(rhoMax2); }

// The lanes of `f` that laneFootprints found isotropic (N = 1: η = 1, λ_base = log2(ρ_max)) take
// the isotropic fixed-point routines' λ_base instead (isotropicLambdaBase, within 2^-40), which
// those routines and the kernel's inline sampling give an all-isotropic batch.
template <uint32_t N>
inline void isotropicLanesLambdaBase(const abi::ImageViewState& view, const SampleLanes& lanes, uint32_t active,
                                     LaneFootprints<N>& f) {
  const double w = view.levels[0].width, h = view.levels[0].height;
  for (uint32_t k = 0; k < N; ++k) {
    if (!(active >> k & 1) || f.samples[k] != 1) continue;
    const SquaredRho sums = lanes.dPdx[0] ? squaredRho(w, h, lanes.dPdx[0][k], lanes.dPdx[1][k], lanes.dPdy[0][k],
                                                       lanes.dPdy[1][k])
                                          : squaredRho(w, h, 0, 0, 0, 0);
    f.lambdaBase[k] = isotropicLambdaBase(sums.x < sums.y ? sums.y : sums.x);
  }
}

template <uint32_t N, bool kVectorLog2 = false>
__attribute__((always_inline)) inline void selectLaneLevels(const abi::ImageViewState& view,
                                                            const abi::SamplerState& sampler,
                                                            const SampleLanes& lanes, uint32_t active,
                                                            uint32_t levelCount, bool mipLinear, uint32_t* levelHi,
                                                            uint32_t* levelLo, double* delta, uint32_t& linearLanes) {
  alignas(64) double lambdaBase[N];
  if (lanes.lod) {
    for (uint32_t k = 0; k < N; ++k) lambdaBase[k] = lanes.lod[k];
  } else {
    // m_ux = |∂s/∂x| w_base, m_vx = |∂t/∂x| h_base, m_wx = |0| x 1; ρ = sqrt of the sum of
    // squares; ρ_max = max(ρ_x, ρ_y); λ_base = log2(ρ_max).
    const double w = view.levels[0].width, h = view.levels[0].height;
    // (The derivatives are read in the loop, not copied into zero-initialized arrays first:
    // GCC cleared those with four `rep stos`, which cost a BC1 routine at W = 16 a third of its
    // own time on Zen 3.)
    alignas(64) double rho[N], rho2[N];
    const float* const dx[2] = {lanes.dPdx[0], lanes.dPdx[1]};
    const float* const dy[2] = {lanes.dPdy[0], lanes.dPdy[1]};
    const bool grads = dx[0] != nullptr;
    for (uint32_t k = 0; k < N; ++k) {
      const SquaredRho sums = grads ? squaredRho(w, h, dx[0][k], dx[1][k], dy[0][k], dy[1][k]) : squaredRho(w, h, 0, 0, 0, 0);
      rho2[k] = sums.x < sums.y ? sums.y : sums.x;
      const double rhoX = std::sqrt(sums.x), rhoY = std::sqrt(sums.y);
      rho[k] = rhoX < rhoY ? rhoY : rhoX;
    }
    if constexpr (kVectorLog2) {
      // log2 ρ_max = log2(ρ_max^2) / 2: the same maximum of the squared sums, without the
      // square root in the chain the levels wait for (a change within vectorLog2's bound).
      for (uint32_t k = 0; k < N; ++k) lambdaBase[k] = isotropicLambdaBase(rho2[k]);
    } else {
    uint64_t lastBits = 0;
    double lastLog = 0;
    bool have = false;
    for (uint32_t k = 0; k < N; ++k) {
      lambdaBase[k] = 0;
      if (!(active >> k & 1)) continue;
      uint64_t bits;
      std::memcpy(&bits, &rho[k], 8);
      if (!have || bits != lastBits) lastLog = std::log2(rho[k]), lastBits = bits, have = true;
      lambdaBase[k] = lastLog;
    }
    }
  }
  levelsFromLambdaBase<N>(sampler, lanes, lambdaBase, active, levelCount, mipLinear, levelHi, levelLo, delta, linearLanes);
}

// The rest of selectLaneLevels from each lane's λ_base (its one implementation: the inline
// sampling state's level ranges, inline_sample_state.cpp, bisect on it too).
template <uint32_t N>
__attribute__((always_inline)) inline void levelsFromLambdaBase(const abi::SamplerState& sampler, const SampleLanes& lanes,
                                                                const double* lambdaBase, uint32_t active,
                                                                uint32_t levelCount, bool mipLinear, uint32_t* levelHi,
                                                                uint32_t* levelLo, double* delta, uint32_t& linearLanes) {
  // λ' = λ_base + clamp(bias_sampler + bias_shader, ±maxSamplerLodBias); λ = λ' clamped to
  // [max(minLod, MinLod), maxLod] (NaN: lod_min); filter by λ <= 0; d' = clamp(λ, 0, q).
  const double samplerBias = sampler.mipLodBias, samplerMin = sampler.minLod, lodMax = sampler.maxLod;
  const double q = double(levelCount - 1);
  const uint32_t qLevel = levelCount - 1;
  alignas(64) double dPrime[N];
  uint32_t filterLinear[N];
  // Absent operands read zeros from an array, and the clamp's branches are selects of the same
  // values, so that the loop has no control flow and vectorizes (GCC 12 left the branches as
  // a scalar loop, a quarter of the BC1 routine's own time).
  static constexpr float kNoOperand[N] = {};
  const float* bias = lanes.bias ? lanes.bias : kNoOperand;
  const float* minLod = lanes.minLod ? lanes.minLod : kNoOperand;
  const bool linearMag = sampler.magFilter == VK_FILTER_LINEAR, linearMin = sampler.minFilter == VK_FILTER_LINEAR;
  for (uint32_t k = 0; k < N; ++k) {
    const double lambdaPrime = lambdaBase[k] + clampedLodBias(samplerBias, bias[k]);
    // (MinLod absent is 0.0, which max(minLod, 0.0) takes as a MinLod of +0.0 does.)
    const double lodMin = lodMinimum(samplerMin, double(minLod[k]));
    // if (λ' > max) max; else if (λ' < min) min; else if (λ' is NaN) min; else λ'
    const double lambda = lambdaPrime > lodMax ? lodMax : lambdaPrime < lodMin ? lodMin : lambdaPrime != lambdaPrime ? lodMin : lambdaPrime;
    filterLinear[k] = lambda <= 0 ? linearMag : linearMin;
    dPrime[k] = lambda < 0.0 ? 0.0 : (q < lambda ? q : lambda);
  }
  for (uint32_t k = 0; k < N; ++k) {
    if (mipLinear) {
      // d_hi = floor(d'), d_lo = min(d_hi + 1, q), δ = d' - d_hi
      levelHi[k] = uint32_t(int32_t(std::floor(dPrime[k])));
      levelLo[k] = std::min(levelHi[k] + 1, qLevel);
      delta[k] = dPrime[k] - double(levelHi[k]);
    } else {
      // d = ceil(d' + 0.5) - 1
      levelHi[k] = uint32_t(int32_t(std::ceil(dPrime[k] + 0.5) - 1.0));
      levelLo[k] = levelHi[k];
      delta[k] = 0;
    }
  }
  linearLanes = 0;
  for (uint32_t k = 0; k < N; ++k) linearLanes |= filterLinear[k] << k;
  linearLanes &= active;
}

}  // namespace tessera::sampler_detail::batch
