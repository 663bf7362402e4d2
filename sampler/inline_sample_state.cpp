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

#include "batch_lanes.h"
#include "tessera/sampling_batch.h"
#include "tessera/shader_abi.h"

namespace tessera {
namespace {

using namespace sampler_detail::batch;

// The level batch_lanes.h's levelsFromLambdaBase gives one lane with this λ_base and no shader
// bias or MinLod (mipmapMode NEAREST: d = ceil(d' + 1/2) - 1).
uint32_t levelOf(const abi::SamplerState& sampler, uint32_t levelCount, double lambdaBase) {
  SampleLanes none;
  none.width = 1;
  none.active = 1;
  uint32_t hi = 0, lo = 0, linearLanes = 0;
  double delta = 0;
  levelsFromLambdaBase<1>(sampler, none, &lambdaBase, 1, levelCount, false, &hi, &lo, &delta, linearLanes);
  return hi;
}

bool powerOfTwo(uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

// Whether batch_lanes.h's levelsFromLambdaBase, mipmapMode LINEAR, gives one lane with this
// λ_base (no shader bias or MinLod) d_hi = 0 and δ snapped to 2^-8 (as the routines snap it) 0:
// a sample of level 0 alone.
bool levelZeroAlone(const abi::SamplerState& sampler, uint32_t levelCount, double lambdaBase) {
  SampleLanes none;
  none.width = 1;
  none.active = 1;
  uint32_t hi = 0, lo = 0, linearLanes = 0;
  double delta = 0;
  levelsFromLambdaBase<1>(sampler, none, &lambdaBase, 1, levelCount, true, &hi, &lo, &delta, linearLanes);
  return hi == 0 && int32_t(std::floor(delta * 256.0 + 0.5)) == 0;
}

// mipmapMode LINEAR: the ρ_max² in float (rounded down) below which every lane samples level 0
// alone (levelZeroAlone), found as nearestLevelRange finds its ranges (levelZeroAlone is true
// up to a λ_base and false above it: d' never decreases as λ_base grows), with the same margin
// and so the same argument for float ρ_max² and the routines' λ_base; 0 where no λ_base is
// such, infinity where every one is.
float levelZeroAloneBound(const abi::SamplerState& sampler, uint32_t levelCount) {
  constexpr double kBelow = -64.0, kAbove = 128.0, kMargin = 0x1p-20;
  auto alone = [&](double x) { return levelZeroAlone(sampler, levelCount, x); };
  if (!(sampler.minLod <= sampler.maxLod)) return 0.0f;
  if (!alone(-HUGE_VAL) || !alone(kBelow)) return 0.0f;
  if (alone(kAbove) && alone(HUGE_VAL)) return HUGE_VALF;
  if (alone(kAbove)) return 0.0f;  // not monotone as assumed: no shortcut
  double a = kBelow, b = kAbove;  // alone(a), !alone(b)
  for (int i = 0; i < 200; ++i) {
    const double mid = a + (b - a) * 0.5;
    if (mid <= a || mid >= b) break;
    (alone(mid) ? a : b) = mid;
  }
  const double bound = std::exp2(2.0 * (a - kMargin));
  float f = float(bound);
  if (double(f) > bound) f = std::nextafter(f, 0.0f);
  return f;
}

}  // namespace

namespace sampler_detail::batch {

// Level k's range of ρ_max² in float, rounded inward (lo >= hi when it has none): the λ_base
// where levelOf gives k, found by bisection (levelOf is monotone: every step is a clamp, a
// rounding addition or a rounding to an integer), shrunk by 2^-20 at each end and turned into
// ρ_max² = 2^(2 λ_base). A lane's ρ_max² computed in float lies within 2^-22.5 in λ of the
// exact one, and the routines' λ_base (vectorLog2, within 2^-40 of log2) too, so a lane inside
// the range has the routines' level k whatever its bits (the same argument as
// batch_sampler_unorm8_uniform.cpp's NearestLevelRanges, which keep theirs with this too).
void nearestLevelRange(const abi::SamplerState& sampler, uint32_t levelCount, uint32_t k, float& loOut, float& hiOut) {
  loOut = HUGE_VALF, hiOut = 0;
  // The clamps make levelOf constant below λ_base = -64 and above 128 (bias within ±16).
  constexpr double kBelow = -64.0, kAbove = 128.0, kMargin = 0x1p-20;
  auto level = [&](double x) { return levelOf(sampler, levelCount, x); };
  if (!(sampler.minLod <= sampler.maxLod)) return;
  if (level(kBelow) > k || level(kAbove) < k || level(-HUGE_VAL) != level(kBelow) || level(HUGE_VAL) != level(kAbove)) return;
  auto threshold = [&](bool lower) {
    double a = kBelow, b = kAbove;  // lower: level(a) < k <= level(b); upper: level(a) <= k < level(b)
    for (int i = 0; i < 200; ++i) {
      const double mid = a + (b - a) * 0.5;
      if (mid <= a || mid >= b) break;
      const bool high = lower ? level(mid) >= k : level(mid) > k;
      (high ? b : a) = mid;
    }
    return lower ? b : a;
  };
  const double from = level(kBelow) == k ? -HUGE_VAL : threshold(true);
  const double to = level(kAbove) == k ? HUGE_VAL : threshold(false);
  const double lo = std::isinf(from) ? 0.0 : std::exp2(2.0 * (from + kMargin));
  const double hi = std::isinf(to) ? HUGE_VAL : std::exp2(2.0 * (to - kMargin));
  float l = float(lo), h = float(hi);
  if (double(l) < lo) l = std::nextafter(l, HUGE_VALF);
  if (double(h) > hi) h = std::nextafter(h, 0.0f);
  loOut = l, hiOut = h;
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

// What the cube batches (cube_batch.cpp sampleCubeBatch) sample a seamless cube's faces as: a
// 2D view of one layer (its routine class computed as for a 2D view) and the sampler with
// CLAMP_TO_EDGE, which must have an isotropic routine class. False where they take the
// reference instead, or the face pair is not one the kernel samples.
bool inlineCubeFaces(const abi::ImageViewState& view, const abi::SamplerState& sampler, uint32_t simdWidth,
                     abi::ImageViewState& face, abi::SamplerState& faceSampler) {
  if (view.viewType != VK_IMAGE_VIEW_TYPE_CUBE || view.layerCount < 6 || view.levelCount == 0) return false;
  if (sampler.nonSeamlessCube) return false;
  face = view;
  face.viewType = VK_IMAGE_VIEW_TYPE_2D;
  face.layerCount = 1;
  face.fastSampling = classifyViewForRoutines(face);
  faceSampler = sampler;
  for (uint32_t c = 0; c < 3; ++c) faceSampler.addressMode[c] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  faceSampler.fastSampling = classifySamplerForRoutines(faceSampler);
  if (faceSampler.fastSampling == 0 || faceSampler.fastSampling > 8) return false;
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
  if (cube) {
    if (!inlineCubeFaces(cubeOrView, cubeOrSampler, simdWidth, faceView, faceSampler)) return false;
  } else if (!inlineSamplingPair(cubeOrView, cubeOrSampler, simdWidth)) {
    return false;
  }
  const abi::ImageViewState& view = cube ? faceView : cubeOrView;
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
