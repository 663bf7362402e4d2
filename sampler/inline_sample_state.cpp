// What a fragment kernel's inline sampling needs of a view and a sampler (shader_abi.h
// InlineSampleState; the kernel side is spirv_jit/inline_sample.cpp): whether the pair is the
// common case the kernel samples itself, the level of the batch that asked, and that level's
// range of ρ_max². Compiled with the batch routines' options (-ffp-contract=off): the level
// comes from batch_lanes.h's arithmetic, the same as the fixed-point routines'.
//
// Why the kernel's results are the routines' bit for bit: it samples only where the call would
// take the fixed-point RGBA8/BGRA8 routine (batch_sampler_unorm8.cpp; its AVX-512 common case
// gives the same bits; an anisotropic sampler's batch only where every footprint is isotropic,
// which the anisotropic routine hands to the isotropic one), and only batches whose every
// active lane lies in the level's range, so every lane's level is the routine's; NEAREST texels and LINEAR's snapped weights and sums are
// the routine's integer arithmetic, and the quotient is its correctly rounded division.
#include <algorithm>
#include <bit>
#include <cmath>
#include <utility>

#include "batch_lanes.h"
#include "tessera/sampling_batch.h"
#include "tessera/sampling_cube.h"
#include "tessera/shader_abi.h"

namespace tessera {
namespace {

using namespace sampler_detail::batch;

// d_hi and δ as batch_lanes.h's levelsFromLambdaBase gives them for one lane with this λ_base
// and no shader bias or MinLod (mipmapMode NEAREST: d = ceil(d' + 1/2) - 1, δ = 0).
uint32_t levelOf(const abi::SamplerState& sampler, uint32_t levelCount, double lambdaBase, bool mipLinear = false,
                 double* deltaOut = nullptr) {
  SampleLanes none;
  none.width = 1;
  none.active = 1;
  uint32_t hi = 0, lo = 0, linearLanes = 0;
  double delta = 0;
  levelsFromLambdaBase<1>(sampler, none, &lambdaBase, 1, levelCount, mipLinear, &hi, &lo, &delta, linearLanes);
  if (deltaOut) *deltaOut = delta;
  return hi;
}

// The λ_base range the level decisions below are bisected in: the clamps make them constant
// below -64 and above 128 (bias within ±16).
constexpr double kBelow = -64.0, kAbove = 128.0;
// A predicate of λ_base that is false at kBelow and true at kAbove, and changes once between:
// the last λ_base found false and the first found true, adjacent doubles.
template <typename Predicate>
std::pair<double, double> bisect(Predicate high) {
  double a = kBelow, b = kAbove;
  for (int i = 0; i < 200; ++i) {
    const double mid = a + (b - a) * 0.5;
    if (mid <= a || mid >= b) break;
    (high(mid) ? b : a) = mid;
  }
  return {a, b};
}
// ρ_max² = 2^(2 λ) of a range's ends, moved 2^-20 in λ into the range and rounded to float
// inward (the margin the float ρ_max² and the routines' λ_base need: nearestLevelRange).
constexpr double kMargin = 0x1p-20;
float squaredRhoFrom(double lambda) {
  const double bound = std::exp2(2.0 * (lambda + kMargin));
  float f = float(bound);
  if (double(f) < bound) f = std::nextafter(f, HUGE_VALF);
  return f;
}
float squaredRhoUpTo(double lambda) {
  const double bound = std::exp2(2.0 * (lambda - kMargin));
  float f = float(bound);
  if (double(f) > bound) f = std::nextafter(f, 0.0f);
  return f;
}

// Whether a lane with this λ_base samples level 0 alone under mipmapMode LINEAR: d_hi = 0 and
// δ snapped to 2^-8 (as the routines snap it) 0.
bool levelZeroAlone(const abi::SamplerState& sampler, uint32_t levelCount, double lambdaBase) {
  double delta = 0;
  return levelOf(sampler, levelCount, lambdaBase, true, &delta) == 0 && int32_t(std::floor(delta * 256.0 + 0.5)) == 0;
}

// mipmapMode LINEAR: the ρ_max² in float below which every lane samples level 0 alone
// (levelZeroAlone is true up to a λ_base and false above it: d' never decreases as λ_base
// grows), found as nearestLevelRange finds its ranges, with the same margin and so the same
// argument for float ρ_max² and the routines' λ_base; 0 where no λ_base is such, infinity where
// every one is.
float levelZeroAloneBound(const abi::SamplerState& sampler, uint32_t levelCount) {
  auto alone = [&](double x) { return levelZeroAlone(sampler, levelCount, x); };
  if (!(sampler.minLod <= sampler.maxLod)) return 0.0f;
  if (!alone(-HUGE_VAL) || !alone(kBelow)) return 0.0f;
  if (alone(kAbove)) return alone(HUGE_VAL) ? HUGE_VALF : 0.0f;  // (not monotone as assumed: no shortcut)
  return squaredRhoUpTo(bisect([&](double x) { return !alone(x); }).first);
}

bool powerOfTwo(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

}  // namespace

namespace sampler_detail::batch {

// Level k's range of ρ_max² in float, rounded inward (lo >= hi when it has none): the λ_base
// where levelOf gives k, found by bisection (levelOf is monotone: every step is a clamp, a
// rounding addition or a rounding to an integer), shrunk by 2^-20 at each end and turned into
// ρ_max² = 2^(2 λ_base). A lane's ρ_max² computed in float lies within 2^-22.5 in λ of the
// exact one, and the routines' λ_base (vectorLog2, within 2^-40 of log2) too, so a lane inside
// the range has the routines' level k whatever its bits (the same argument as
// batch_lanes.h's NearestLevelRanges, which the routines keep with this too).
void nearestLevelRange(const abi::SamplerState& sampler, uint32_t levelCount, uint32_t k, float& loOut, float& hiOut) {
  loOut = HUGE_VALF, hiOut = 0;
  auto level = [&](double x) { return levelOf(sampler, levelCount, x); };
  if (!(sampler.minLod <= sampler.maxLod)) return;
  if (level(kBelow) > k || level(kAbove) < k || level(-HUGE_VAL) != level(kBelow) || level(HUGE_VAL) != level(kAbove)) return;
  // From the first λ_base with level >= k to the last with level <= k.
  const bool fromBelow = level(kBelow) == k, toAbove = level(kAbove) == k;
  loOut = fromBelow ? 0.0f : squaredRhoFrom(bisect([&](double x) { return level(x) >= k; }).second);
  hiOut = toAbove ? HUGE_VALF : squaredRhoUpTo(bisect([&](double x) { return level(x) > k; }).first);
}

}  // namespace sampler_detail::batch

bool inlineSamplingPair(const abi::ImageViewState& view, const abi::SamplerState& sampler, uint32_t simdWidth) {
  // Where the call takes the fixed-point RGBA8/BGRA8 routine (findSampleRoutine): those widths,
  // the routines not turned off or to the exact ones.
  if (simdWidth != 4 && simdWidth != 8 && simdWidth != 16) return false;
  if (samplingRoutines() != SamplingRoutines::All) return false;
  if (view.fastSampling != kRgba8Unorm && view.fastSampling != kBgra8Unorm) return false;
  if (view.viewType != VK_IMAGE_VIEW_TYPE_2D || !identitySwizzle(view)) return false;
  // Classes 9-16 are anisotropic: the call gives their isotropic batches the isotropic routine's
  // bits (batch_sampler_unorm8.cpp sampleUnorm8Anisotropic), and the kernel samples only those
  // (kInlineIsotropicOnly).
  if (sampler.fastSampling == 0 || sampler.fastSampling > 16) return false;
  // One filter for magnification and minification (no λ <= 0 test per lane; the anisotropic
  // fixed-point routines exist only for such samplers).
  if (sampler.magFilter != sampler.minFilter) return false;
  for (uint32_t c = 0; c < 2; ++c)
    if (sampler.addressMode[c] != VK_SAMPLER_ADDRESS_MODE_REPEAT && sampler.addressMode[c] != VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE)
      return false;
  return true;
}

namespace {

// Level k as the kernel reads it; false where a side is not a power of two (the kernel's
// coordinates are exact in float only for those; others would need double arithmetic and the
// routine's modulo, which measured 250 ms of compile time per sampling instruction) or a byte
// offset could pass 2^31 (the routines' uniformLevel limit).
// A cube entry's levels also hold the distance between faces (layers), whose offsets the
// kernel adds in int32: face 5's last texel must stay below 2^31.
bool inlineLevel(const abi::ImageLevel& level, bool cube, abi::InlineSampleLevel& out) {
  if (!level.base || !powerOfTwo(level.width) || !powerOfTwo(level.height)) return false;
  if (level.rowPitch >= (uint64_t(1) << 31) || uint64_t(level.rowPitch) * level.height >= (uint64_t(1) << 31)) return false;
  // (A cube's faces also stay at most 2^16 wide, for the kernel's edge test in float.)
  if (cube && (level.width > 65536 || level.layerPitch >= (uint64_t(1) << 31) ||
               5 * uint64_t(level.layerPitch) + uint64_t(level.rowPitch) * level.height >= (uint64_t(1) << 31)))
    return false;
  out.base = level.base;
  out.rowPitch = int32_t(level.rowPitch);
  out.widthMask = int32_t(level.width - 1), out.heightMask = int32_t(level.height - 1);
  out.width = float(level.width), out.height = float(level.height);
  out.layerPitch = cube ? int32_t(level.layerPitch) : 0;
  return true;
}

// What the cube batches sample a seamless cube's faces as (sampling_cube.h cubeFaceView,
// cubeFaceSampler); false where they take the reference instead, or the face pair is not one
// the kernel samples.
bool inlineCubeFaces(const abi::ImageViewState& view, const abi::SamplerState& sampler, uint32_t simdWidth,
                     abi::ImageViewState& face, abi::SamplerState& faceSampler) {
  if (view.viewType != VK_IMAGE_VIEW_TYPE_CUBE || view.layerCount < 6 || view.levelCount == 0) return false;
  if (!cubeFaceSampler(sampler, faceSampler)) return false;
  cubeFaceView(view, std::min(view.levelCount, abi::kMaxImageLevels), face);
  return inlineSamplingPair(face, faceSampler, simdWidth);
}

}  // namespace

bool refreshInlineSampleState(const abi::ImageViewState& cubeOrView, const abi::SamplerState& cubeOrSampler,
                              uint32_t simdWidth, const float gradients[4], abi::InlineSampleState& e) {
  e.view = &cubeOrView;
  e.sampler = &cubeOrSampler;
  e.usable = 0;
  // A cube view: everything below on its faces, with the face sampler (the gradients are the
  // lane's face derivatives, which the kernel computed).
  const bool cube = cubeOrView.viewType == VK_IMAGE_VIEW_TYPE_CUBE;
  abi::ImageViewState faceView;
  abi::SamplerState faceSampler;
  // A 2D view kept decoded samples its copy (viewToSample, as the call does); the entry stays
  // keyed by the view.
  SampleShape shape;
  shape.width = simdWidth;
  const abi::ImageViewState& plain = cube ? cubeOrView : viewToSample(cubeOrView, cubeOrSampler, shape);
  if (cube) {
    if (!inlineCubeFaces(cubeViewToSample(cubeOrView), cubeOrSampler, simdWidth, faceView, faceSampler)) return false;
  } else if (!inlineSamplingPair(plain, cubeOrSampler, simdWidth)) {
    return false;
  }
  const abi::ImageViewState& view = cube ? faceView : plain;
  const abi::SamplerState& sampler = cube ? faceSampler : cubeOrSampler;
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  // One level: mipmapMode LINEAR between it and itself is that level (δ = 0), as NEAREST.
  const bool mipLinear = sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR && levelCount > 1;
  const uint32_t context[4] = {levelCount, std::bit_cast<uint32_t>(sampler.mipLodBias), std::bit_cast<uint32_t>(sampler.minLod),
                               std::bit_cast<uint32_t>(sampler.maxLod)};
  if (!std::equal(context, context + 4, e.rangeContext)) {
    std::copy(context, context + 4, e.rangeContext);
    e.knownRanges = 0;
  }
  // The level(s) of the lane that asked, as the fixed-point routines compute them
  // (selectLaneLevels with vectorLog2, on that one lane).
  const float dsdx = gradients[0], dtdx = gradients[1], dsdy = gradients[2], dtdy = gradients[3];
  SampleLanes lane;
  lane.width = 1;
  lane.active = 1;
  lane.dPdx[0] = &dsdx, lane.dPdx[1] = &dtdx, lane.dPdy[0] = &dsdy, lane.dPdy[1] = &dtdy;
  uint32_t hi = 0, lo = 0, linearLanes = 0;
  double delta = 0;
  selectLaneLevels<1, true>(view, sampler, lane, 1, levelCount, mipLinear, &hi, &lo, &delta, linearLanes);
  if (hi >= levelCount || lo >= levelCount) return false;
  if (!inlineLevel(view.levels[hi], cube, e.levels[0]) || !inlineLevel(view.levels[lo], cube, e.levels[1])) return false;
  if (mipLinear) {
    // selectLaneLevels' terms without shader bias or MinLod: the clamped bias, lod_min,
    // lod_max, q.
    e.lodBias = clampedLodBias(sampler.mipLodBias, 0.0f);
    e.lodMin = lodMinimum(sampler.minLod, 0.0);
    e.lodMax = sampler.maxLod;
    e.lodQ = double(levelCount - 1);
    // A batch whose every lane's ρ_max² lies below rho2Hi samples level 0 alone (the kernel's
    // magnified shortcut): only an entry of level 0 has the bound.
    e.rho2Lo = 0;
    constexpr uint32_t kLevelZeroAloneKnown = 1u << 31;
    static_assert(abi::kMaxImageLevels < 31);
    if (hi == 0 && !(e.knownRanges & kLevelZeroAloneKnown)) {
      e.levelZeroAlone = levelZeroAloneBound(sampler, levelCount);
      e.knownRanges |= kLevelZeroAloneKnown;
    }
    e.rho2Hi = hi == 0 ? e.levelZeroAlone : 0.0f;
  } else {
    if (!(e.knownRanges >> hi & 1)) {
      nearestLevelRange(sampler, levelCount, hi, e.rangeLo[hi], e.rangeHi[hi]);
      e.knownRanges |= 1u << hi;
    }
    if (!(e.rangeLo[hi] < e.rangeHi[hi])) return false;
    e.rho2Lo = e.rangeLo[hi], e.rho2Hi = e.rangeHi[hi];
  }
  e.level = hi;
  e.baseWidth = float(view.levels[0].width), e.baseHeight = float(view.levels[0].height);
  e.flags = (sampler.magFilter == VK_FILTER_LINEAR ? abi::kInlineLinear : 0) |
            (sampler.addressMode[0] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE ? abi::kInlineClampU : 0) |
            (sampler.addressMode[1] == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE ? abi::kInlineClampV : 0) |
            (view.fastSampling == kBgra8Unorm ? abi::kInlineBgra : 0) | (mipLinear ? abi::kInlineMipLinear : 0) |
            (sampler.fastSampling > 8 ? abi::kInlineIsotropicOnly : 0);
  e.usable = cube ? abi::kInlineUsableCube : abi::kInlineUsable2D;
  return true;
}

}  // namespace tessera
