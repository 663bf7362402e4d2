// The AVX-512 common case of the fixed-point RGBA8/BGRA8 routines
// (sampler/batch_sampler_unorm8_uniform.cpp) against the general routine it stands in for,
// bit for bit (that routine is itself held to the spec's formulas by batch_sampler_test.cpp).
// Batches are made as a fragment shader's would be: 4x4 pixel blocks of a textured triangle
// whose coordinates are an affine or projective function of the pixel, with the quad's coarse
// derivatives as the LOD operand (what the JIT passes for implicit LOD), over every address
// mode, filter, mipmap mode, view type and the LOD operands that can vary (bias, MinLod,
// offsets, array layers), partly covered blocks, coordinates far outside the image and NaN;
// and, to reach every refusal, batches whose quads do not share their operands or levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "batch_lanes.h"
#include "batch_sampler_unorm8_uniform.h"
#include "sampler_internal.h"
#include "sampling_test_view.h"
#include "tessera/sampling_batch.h"

namespace tessera {
namespace {

using sampler_detail::batch::hostRunsUniform16;
using sampler_detail::batch::sampleRgba8Uniform16;
using sampler_detail::batch::unorm8GeneralRoutine16;

constexpr uint32_t W = 16;

struct Lanes16 {
  alignas(64) float s[W], t[W], layer[W], lod[W], dx0[W], dx1[W], dy0[W], dy1[W], bias[W], minLod[W];
  alignas(64) int32_t off0[W], off1[W];
  SampleLanes lanes;
};

class BatchMaker {
 public:
  explicit BatchMaker(uint32_t seed) : rng_(seed) {}
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  uint32_t below(uint32_t n) { return rng_() % n; }
  std::mt19937& rng() { return rng_; }

  // A block of a textured triangle: s, t = (a + b x + c y) / (1 + p x + q y) at the pixel
  // centres of a 4x4 block (lane 4 quad + (x & 1) + 2 (y & 1)), derivatives per quad as the
  // JIT's coarse ones. `scale`: texels per pixel at level 0, as a power of two.
  void block(Lanes16& b, uint32_t imageSize, bool arrayed) {
    const float angle = uniform(0.0f, 6.2831853f), scale = std::ldexp(1.0f, int(below(12)) - 4) * uniform(0.7f, 1.4f);
    const float step = scale / float(imageSize);
    const bool perspective = below(2);
    const float p = perspective ? uniform(-0.02f, 0.02f) : 0.0f, q = perspective ? uniform(-0.02f, 0.02f) : 0.0f;
    const float originS = below(6) == 0 ? uniform(-3000.0f, 3000.0f) : uniform(-2.0f, 2.0f);
    const float originT = uniform(-2.0f, 2.0f);
    const float bx = float(below(64)), by = float(below(64));
    for (uint32_t k = 0; k < W; ++k) {
      const uint32_t quad = k / 4, x = (quad & 1) * 2 + (k & 1), y = (quad >> 1) * 2 + ((k >> 1) & 1);
      const float px = bx + float(x) + 0.5f, py = by + float(y) + 0.5f;
      const float w = 1.0f + p * px + q * py;
      b.s[k] = (originS + px * step * std::cos(angle) - py * step * std::sin(angle)) / w;
      b.t[k] = (originT + px * step * std::sin(angle) + py * step * std::cos(angle)) / w;
      b.layer[k] = uniform(-1.0f, 4.0f);
    }
    if (below(12) == 0) b.s[below(W)] = std::nanf("");
    if (below(12) == 0) b.t[below(W)] = 3e9f;
    for (uint32_t k = 0; k < W; ++k) {
      const uint32_t base = k & ~3u;
      b.dx0[k] = b.s[base | 1] - b.s[base], b.dx1[k] = b.t[base | 1] - b.t[base];
      b.dy0[k] = b.s[base | 2] - b.s[base], b.dy1[k] = b.t[base | 2] - b.t[base];
    }
    // Operands uniform over each quad, or (rarely) over the batch, or (to reach the refusal)
    // varying inside a quad.
    const uint32_t operandKind = below(8);
    for (uint32_t k = 0; k < W; ++k) {
      const uint32_t source = operandKind == 0 ? k : operandKind == 1 ? 0 : k & ~3u;
      b.bias[k] = b.lod[k] = b.minLod[k] = 0;
      b.off0[k] = b.off1[k] = 0;
      if (source == k) {
        b.bias[k] = uniform(-3.0f, 3.0f);
        b.lod[k] = uniform(-2.0f, 10.0f);
        b.minLod[k] = uniform(-1.0f, 4.0f);
      } else {
        b.bias[k] = b.bias[source], b.lod[k] = b.lod[source], b.minLod[k] = b.minLod[source];
      }
      if (operandKind == 0 && below(2)) b.dx0[k] *= 1.5f;  // a quad whose lanes differ
    }
    const int32_t o0 = int32_t(below(16)) - 8, o1 = int32_t(below(16)) - 8;
    for (uint32_t k = 0; k < W; ++k) b.off0[k] = o0, b.off1[k] = o1;
    b.lanes = SampleLanes{};
    b.lanes.width = W;
    const uint32_t coverage = below(4);
    b.lanes.active = coverage == 0 ? uint32_t(rng_()) & 0xFFFF : coverage == 1 ? 0xFF0Fu : 0xFFFFu;
    b.lanes.s = b.s, b.lanes.t = b.t;
    if (arrayed) b.lanes.layer = b.layer;
    if (below(8) == 0) {
      b.lanes.lod = b.lod;
    } else {
      b.lanes.dPdx[0] = b.dx0, b.lanes.dPdx[1] = b.dx1, b.lanes.dPdy[0] = b.dy0, b.lanes.dPdy[1] = b.dy1;
    }
    if (below(3) == 0) b.lanes.bias = b.bias;
    if (below(4) == 0) b.lanes.minLod = b.minLod;
    if (below(3) == 0) b.lanes.offset[0] = b.off0, b.lanes.offset[1] = b.off1;
  }

 private:
  std::mt19937 rng_;
};

abi::SamplerState makeSampler(VkFilter filter, VkSamplerMipmapMode mip, VkSamplerAddressMode u, VkSamplerAddressMode v,
                              float bias, float minLod, float maxLod) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter;
  info.mipmapMode = mip;
  info.addressModeU = u;
  info.addressModeV = v;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.mipLodBias = bias;
  info.minLod = minLod;
  info.maxLod = maxLod;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

template <bool kLinear, bool kMipLinear>
bool runUniform(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes, uint32_t* out,
                uint32_t* fallback) {
  return sampleRgba8Uniform16<kLinear, kMipLinear>(view, sampler, lanes, out, fallback);
}

class BatchSamplerUniform16Loads : public testing::TestWithParam<sampler_detail::batch::TexelLoads> {
 protected:
  void SetUp() override {
    before_ = sampler_detail::batch::texelLoads();
    sampler_detail::batch::setTexelLoads(GetParam());
  }
  void TearDown() override { sampler_detail::batch::setTexelLoads(before_); }
  sampler_detail::batch::TexelLoads before_{};
};

// Both ways of loading texels (scalar loads, gathers: the host's measured choice is one of them).
TEST_P(BatchSamplerUniform16Loads, MatchesTheGeneralRoutineBitForBit) {
  if (!hostRunsUniform16()) GTEST_SKIP() << "this host has no AVX-512 (F, DQ, BW, VL): the routine never runs here";
  ASSERT_EQ(sampler_detail::batch::texelLoads(), GetParam());
  BatchMaker gen(20261128);
  const VkSamplerAddressMode modes[] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                        VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
  uint32_t batches = 0, taken = 0, fallbacks = 0;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM})
    for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY})
      for (uint32_t sizeKind = 0; sizeKind < 2; ++sizeKind) {
        // Powers of two (the wraps' mask) and not (their division).
        const uint32_t width = sizeKind ? 64 : 37 + gen.below(60), height = sizeKind ? 128 : 23 + gen.below(60);
        const uint32_t layers = type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? 3 : 1, levels = 1 + gen.below(7);
        test::SamplingTestView view(format, type, width, height, 1, layers, levels);
        for (uint32_t l = 0; l < levels; ++l)
          view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
            for (uint32_t c = 0; c < 4; ++c) p[c] = uint8_t(gen.rng()());
          });
        view.state.fastSampling = classifyViewForRoutines(view.state);
        ASSERT_NE(view.state.fastSampling, 0u);
        for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
          for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
            for (VkSamplerAddressMode u : modes)
              for (VkSamplerAddressMode v : modes) {
                const float bias = gen.below(3) == 0 ? gen.uniform(-2.0f, 2.0f) : 0.0f;
                const float minLod = gen.below(3) == 0 ? gen.uniform(0.0f, 2.0f) : 0.0f;
                const float maxLod = gen.below(3) == 0 ? gen.uniform(2.0f, 5.0f) : VK_LOD_CLAMP_NONE;
                const abi::SamplerState sampler = makeSampler(filter, mip, u, v, bias, minLod, maxLod);
                SampleShape shape;
                shape.width = W;
                const SampleRoutine routine = findSampleRoutine(view.state, sampler, shape);
                const SampleRoutine general = unorm8GeneralRoutine16(sampler.fastSampling);
                ASSERT_NE(routine, nullptr);
                const bool linear = filter == VK_FILTER_LINEAR, mipLinear = mip == VK_SAMPLER_MIPMAP_MODE_LINEAR;
                auto uniform = linear ? (mipLinear ? &runUniform<true, true> : &runUniform<true, false>)
                                      : (mipLinear ? &runUniform<false, true> : &runUniform<false, false>);
                for (int n = 0; n < 60; ++n) {
                  Lanes16 b;
                  gen.block(b, std::max(width, height), type == VK_IMAGE_VIEW_TYPE_2D_ARRAY);
                  alignas(64) uint32_t got[4 * W], want[4 * W], direct[4 * W];
                  std::fill(std::begin(got), std::end(got), 0xDEADBEEFu);
                  std::fill(std::begin(want), std::end(want), 0xFEEDFACEu);
                  routine(view.state, sampler, b.lanes, got);
                  general(view.state, sampler, b.lanes, want);
                  uint32_t fallback = 0;
                  const bool took = uniform(view.state, sampler, b.lanes, direct, &fallback);
                  ++batches;
                  taken += took;
                  fallbacks += took && fallback != 0;
                  for (uint32_t i = 0; i < 4 * W; ++i)
                    ASSERT_EQ(got[i], want[i]) << "format " << format << " type " << type << " " << width << "x" << height
                                               << " levels " << levels << " filter " << filter << " mip " << mip
                                               << " address " << u << "/" << v << " batch " << n << " component "
                                               << i / W << " lane " << i % W << " (common case taken: " << took
                                               << "): " << std::bit_cast<float>(got[i]) << " vs "
                                               << std::bit_cast<float>(want[i]);
                  // Where it ran, the common case alone gives the general routine's values on
                  // every lane it does not leave to the reference.
                  if (took)
                    for (uint32_t i = 0; i < 4 * W; ++i)
                      if (!(fallback >> (i % W) & 1)) { ASSERT_EQ(direct[i], want[i]) << "lane " << i % W; }
                }
              }
      }
  // The test means something only if the common case ran often, and its refusals happened too.
  EXPECT_GT(taken, batches / 2) << taken << " of " << batches;
  EXPECT_LT(taken, batches);
  EXPECT_GT(fallbacks, 0u);
}

INSTANTIATE_TEST_SUITE_P(TexelLoads, BatchSamplerUniform16Loads,
                         testing::Values(sampler_detail::batch::TexelLoads::Scalar, sampler_detail::batch::TexelLoads::Gather));

}  // namespace
// The routine keeps, per thread, the level(s) its last batch used and fetches texels there
// before the batch's LOD confirms them (batch_sampler_unorm8_uniform.cpp, uniform16). The same
// batches sampled again, through samplers and views whose LOD bias, clamps, sizes and level
// counts differ, must still give the general routine's values: a level kept from another
// sampler or view would show as a wrong texel.
// "Level-of-Detail Operation", "Image Level(s) Selection".
TEST(BatchSamplerUniform16, LevelsKeptFromEarlierBatchesNeverLeakIntoAnotherSamplerOrView) {
  if (!hostRunsUniform16()) GTEST_SKIP() << "this host has no AVX-512 (F, DQ, BW, VL): the routine never runs here";
  BatchMaker gen(20261129);
  // Distinct texel values per level, so a wrong level changes the result. Each view differs
  // from the one before in one thing: level 0's size, then the level count.
  std::vector<test::SamplingTestView> views;
  views.emplace_back(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 4);
  views.emplace_back(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 128, 128, 1, 1, 4);
  views.emplace_back(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 128, 128, 1, 1, 8);
  for (test::SamplingTestView& view : views) {
    for (uint32_t l = 0; l < view.state.levelCount; ++l)
      view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
        for (uint32_t c = 0; c < 4; ++c) p[c] = uint8_t(30 + 25 * l + c);
      });
    view.state.fastSampling = classifyViewForRoutines(view.state);
    ASSERT_NE(view.state.fastSampling, 0u);
  }
  // Batches whose quads share their operands (implicit LOD, as the JIT passes it).
  std::vector<Lanes16> pool(24);
  for (Lanes16& b : pool) {
    do gen.block(b, 64, false);
    while (b.lanes.lod || b.lanes.bias || b.lanes.minLod || b.lanes.offset[0]);
    b.lanes.active = 0xFFFF;
    // Every quad with the first one's derivatives (a stale level would then be every quad's,
    // not a disagreement between quads that the routine refuses).
    for (uint32_t k = 0; k < W; ++k) {
      b.s[k] = std::isnan(b.s[k]) ? 0.25f : b.s[k], b.t[k] = b.t[k] > 1e6f ? 0.5f : b.t[k];
      b.dx0[k] = b.dx0[0], b.dx1[k] = b.dx1[0], b.dy0[k] = b.dy0[0], b.dy1[k] = b.dy1[0];
    }
  }
  for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR}) {
    // Each differs from the one before in one thing: the bias, then MaxLod, then MinLod.
    const abi::SamplerState samplers[] = {
        makeSampler(VK_FILTER_NEAREST, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0.0f, 0.0f, VK_LOD_CLAMP_NONE),
        makeSampler(VK_FILTER_NEAREST, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.75f, 0.0f, VK_LOD_CLAMP_NONE),
        makeSampler(VK_FILTER_NEAREST, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.75f, 0.0f, 1.25f),
        makeSampler(VK_FILTER_NEAREST, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.75f, 1.0f, 1.25f)};
    const bool mipLinear = mip == VK_SAMPLER_MIPMAP_MODE_LINEAR;
    uint32_t differing = 0;  // batches whose result differs between two contexts: the test can tell
    uint32_t taken = 0, batches = 0;
    // Contexts in both nestings, so that consecutive ones differ in one thing only: the
    // sampler's bias or a clamp, or the view's size or level count.
    for (int pass = 0; pass < 4; ++pass)
      for (size_t outer = 0; outer < 4; ++outer)
        for (size_t inner = 0; inner < 4; ++inner) {
          const bool samplerOuter = pass % 2 == 0;
          const size_t samplerIndex = samplerOuter ? outer : inner, viewIndex = samplerOuter ? inner : outer;
          if (viewIndex >= views.size()) continue;
          const abi::SamplerState& sampler = samplers[samplerIndex];
          const test::SamplingTestView& view = views[viewIndex];
          for (size_t n = 0; n < pool.size(); ++n) {
            const Lanes16& b = pool[n];
            ++batches;
            alignas(64) uint32_t got[4 * W], want[4 * W], first[4 * W];
            uint32_t fallback = 0;
            const bool took = mipLinear ? runUniform<false, true>(view.state, sampler, b.lanes, got, &fallback)
                                        : runUniform<false, false>(view.state, sampler, b.lanes, got, &fallback);
            unorm8GeneralRoutine16(sampler.fastSampling)(view.state, sampler, b.lanes, want);
            taken += took;
            if (!took) continue;
            for (uint32_t i = 0; i < 4 * W; ++i)
              if (!(fallback >> (i % W) & 1)) {
                ASSERT_EQ(got[i], want[i]) << "pass " << pass << " batch " << n << " lane " << i % W;
              }
            unorm8GeneralRoutine16(samplers[0].fastSampling)(views[0].state, samplers[0], b.lanes, first);
            differing += std::memcmp(first, want, sizeof want) != 0;
          }
        }
    EXPECT_GT(differing, pool.size()) << "the contexts should select different levels for many batches";
    EXPECT_GT(taken, batches * 3 / 4) << "the common case should run for nearly every batch";
  }
}


// Where λ lands exactly on a decision of "Image Level(s) Selection" (d' on a half integer for
// mipmapMode NEAREST, on an integer or a δ of k/256 + 1/512 for LINEAR, λ = 0 between
// magnification and minification, the clamps to minLod and maxLod), a last-bit difference in the
// LOD arithmetic would pick another level or δ: batches whose ρ is an exact power of two
// (axis-aligned derivatives), with sampler biases, MinLod and clamps on those decisions, give the
// general routine's values.
TEST(BatchSamplerUniform16, LevelDecisionsOnExactBoundariesMatchTheGeneralRoutine) {
  if (!hostRunsUniform16()) GTEST_SKIP() << "this host has no AVX-512 (F, DQ, BW, VL): the routine never runs here";
  BatchMaker gen(20261130);
  test::SamplingTestView view(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 7);
  for (uint32_t l = 0; l < 7; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (uint32_t c = 0; c < 4; ++c) p[c] = uint8_t(20 + 33 * l + c);
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  const float biases[] = {0.0f, 0.5f, -0.5f, 1.5f, 0.25f, 1.0f / 512, 3.0f / 512, -1.0f, 2.0f - 1.0f / 512};
  const float clamps[][2] = {{0.0f, VK_LOD_CLAMP_NONE}, {1.0f, 2.5f}, {0.5f, 0.5f}, {2.0f, 2.0f}};
  uint32_t compared = 0;
  for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
    for (float bias : biases)
      for (const auto& clamp : clamps) {
        const abi::SamplerState sampler = makeSampler(VK_FILTER_NEAREST, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                      VK_SAMPLER_ADDRESS_MODE_REPEAT, bias, clamp[0], clamp[1]);
        for (int k = -3; k <= 7; ++k) {
          Lanes16 b{};
          for (uint32_t i = 0; i < W; ++i) {
            b.s[i] = gen.uniform(0.0f, 1.0f), b.t[i] = gen.uniform(0.0f, 1.0f);
            // ρ = 2^k exactly: one texel-space axis per screen axis, the other 0.
            const float d = std::ldexp(1.0f, k) / 64.0f;
            b.dx0[i] = d, b.dx1[i] = 0.0f, b.dy0[i] = 0.0f, b.dy1[i] = (i & 4) ? -d : d * 0.5f;
            b.minLod[i] = float(i % 3) * 0.5f;
          }
          b.lanes.width = W;
          b.lanes.active = 0xFFFF;
          b.lanes.s = b.s, b.lanes.t = b.t;
          b.lanes.dPdx[0] = b.dx0, b.lanes.dPdx[1] = b.dx1, b.lanes.dPdy[0] = b.dy0, b.lanes.dPdy[1] = b.dy1;
          // Every quad's own operands: MinLod per quad on 0, 0.5 or 1.
          for (uint32_t i = 0; i < W; ++i) b.minLod[i] = float((i / 4) % 3) * 0.5f;
          if (k % 2 == 0) b.lanes.minLod = b.minLod;
          alignas(64) uint32_t got[4 * W], want[4 * W];
          uint32_t fallback = 0;
          const bool took = mip == VK_SAMPLER_MIPMAP_MODE_LINEAR ? runUniform<false, true>(view.state, sampler, b.lanes, got, &fallback)
                                                                 : runUniform<false, false>(view.state, sampler, b.lanes, got, &fallback);
          unorm8GeneralRoutine16(sampler.fastSampling)(view.state, sampler, b.lanes, want);
          if (!took) continue;
          ++compared;
          for (uint32_t i = 0; i < 4 * W; ++i)
            if (!(fallback >> (i % W) & 1)) {
              ASSERT_EQ(got[i], want[i]) << "mip " << mip << " bias " << bias << " clamp " << clamp[0] << ".." << clamp[1]
                                         << " rho 2^" << k << " lane " << i % W;
            }
        }
      }
  EXPECT_GT(compared, 200u) << "the common case should take most of these batches";
}


// mipmapMode NEAREST batches with implicit LOD take their level from the range of ρ_max² that
// the routine computed for it (NearestLevelRanges); a range one part in 2^30 too wide would
// give quads just past a threshold the previous level. Quads whose ρ_max² lies within a few
// parts in 2^24 of each threshold between two levels (the level boundaries d' = k + 1/2 under
// several sampler biases and clamps), each level's batches in a row so that the range is used,
// give the general routine's values. "Image Level(s) Selection".
TEST(BatchSamplerUniform16, LevelRangesAgreeWithTheFullLodNextToEveryThreshold) {
  if (!hostRunsUniform16()) GTEST_SKIP() << "this host has no AVX-512 (F, DQ, BW, VL): the routine never runs here";
  std::mt19937 rng(20261131);
  auto uniform = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  constexpr uint32_t kSize = 64, kLevels = 7;
  test::SamplingTestView view(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, kSize, kSize, 1, 1, kLevels);
  for (uint32_t l = 0; l < kLevels; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (uint32_t c = 0; c < 4; ++c) p[c] = uint8_t(20 + 33 * l + c);
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  const float biases[][3] = {{0.0f, 0.0f, VK_LOD_CLAMP_NONE}, {0.3f, 0.0f, VK_LOD_CLAMP_NONE}, {-0.7f, 1.0f, 4.5f},
                             {0.5f, 0.0f, 3.0f}, {1.0f / 3, 0.25f, 5.25f}};
  uint32_t compared = 0, nearThreshold = 0;
  for (const auto& b : biases) {
    const abi::SamplerState sampler = makeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                  VK_SAMPLER_ADDRESS_MODE_REPEAT, b[0], b[1], b[2]);
    for (uint32_t k = 0; k + 1 < kLevels; ++k) {
      // d' = k + 1/2 between levels k and k + 1: λ_base = k + 1/2 - bias, ρ_max² = 2^(2 λ_base).
      const double threshold = std::exp2(2.0 * (k + 0.5 - double(b[0])));
      for (int n = 0; n < 400; ++n) {
        Lanes16 batch{};
        for (uint32_t quad = 0; quad < 4; ++quad) {
          // ρ_max² = A² + B²: A a float within a few parts in 2^24 of the threshold's root, B
          // adds up to 2^-22 A² in fine steps, so the sums fall densely on both sides.
          const float a = float(std::sqrt(threshold * (1.0 + uniform(-6e-8, 3e-8))) / kSize);
          const float small = float(a * std::sqrt(uniform(0.0, 0x1p-22)));
          const double rho2 = double(a) * kSize * double(a) * kSize + double(small) * kSize * double(small) * kSize;
          nearThreshold += std::fabs(rho2 / threshold - 1.0) < 0x1p-28;
          for (uint32_t l = 4 * quad; l < 4 * quad + 4; ++l) {
            batch.s[l] = float(uniform(0.0, 1.0)), batch.t[l] = float(uniform(0.0, 1.0));
            batch.dx0[l] = a, batch.dx1[l] = small, batch.dy0[l] = 0.0f, batch.dy1[l] = a * 0.5f;
          }
        }
        batch.lanes.width = W;
        batch.lanes.active = 0xFFFF;
        batch.lanes.s = batch.s, batch.lanes.t = batch.t;
        batch.lanes.dPdx[0] = batch.dx0, batch.lanes.dPdx[1] = batch.dx1, batch.lanes.dPdy[0] = batch.dy0,
        batch.lanes.dPdy[1] = batch.dy1;
        alignas(64) uint32_t got[4 * W], want[4 * W];
        uint32_t fallback = 0;
        const bool took = runUniform<false, false>(view.state, sampler, batch.lanes, got, &fallback);
        unorm8GeneralRoutine16(sampler.fastSampling)(view.state, sampler, batch.lanes, want);
        if (!took) continue;
        ++compared;
        for (uint32_t i = 0; i < 4 * W; ++i)
          if (!(fallback >> (i % W) & 1)) {
            ASSERT_EQ(got[i], want[i]) << "bias " << b[0] << " clamps " << b[1] << ".." << b[2] << " threshold " << k
                                       << " batch " << n << " lane " << i % W;
          }
      }
    }
  }
  EXPECT_GT(nearThreshold, 100u) << "quads within 2^-28 of a threshold, where a range too wide would show";
  EXPECT_GT(compared, 2000u);
}

}  // namespace tessera
