// Anisotropic filtering in the reference sampler against the Vulkan specification: the
// "Scale Factor Operation" (ρ_x, ρ_y, ρ_max, ρ_min, η = min(ρ_max / ρ_min, max_Aniso),
// N = ceil(η)), the "LOD Operation" (λ_base = log2(ρ_max / η)) and "Texel Anisotropic
// Filtering", whose sample placement Tessera takes from the spec's own example:
//   τ_aniso = (1/N) Σ_{i=1..N} τ(u(x - 1/2 + i/(N+1), y), v(x - 1/2 + i/(N+1), y))  (ρ_x > ρ_y)
// and the same along y when ρ_y >= ρ_x, where u(x + δ, y) = u + δ ∂u/∂x. Every expected value
// is worked out here by hand from those formulas (reference_sampler_test.cpp lists the
// filtering ones: u = s × width, LINEAR: i0 = floor(u - 1/2), α = frac(u - 1/2)).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

#include "sampler_internal.h"
#include "sampling_test_view.h"
#include "tessera/sampling.h"
#include "tessera/sampling_batch.h"

namespace tessera {
namespace {

using sampler_detail::AnisotropicFootprint;
using sampler_detail::anisotropicFootprint;
using sampler_detail::lambdaFromGradients;
using sampler_detail::ScaleFactors;
using sampler_detail::scaleFactors;
using test::SamplingTestView;

constexpr double kEps = 1e-5;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

VkSamplerCreateInfo samplerInfo(VkFilter filter, VkSamplerMipmapMode mipmapMode, bool anisotropy, float maxAnisotropy) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter;
  info.mipmapMode = mipmapMode;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  info.anisotropyEnable = anisotropy ? VK_TRUE : VK_FALSE;
  info.maxAnisotropy = maxAnisotropy;
  return info;
}

// A sampler as vkCreateSampler bakes it on a device with maxSamplerAnisotropy 16.
abi::SamplerState anisotropic(float maxAnisotropy, VkFilter filter = VK_FILTER_LINEAR,
                              VkSamplerMipmapMode mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                              VkSamplerReductionMode reduction = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
  return makeSamplerState(samplerInfo(filter, mipmapMode, true, maxAnisotropy), reduction, 16.0f, 16.0f);
}
abi::SamplerState isotropic(VkFilter filter = VK_FILTER_LINEAR,
                            VkSamplerMipmapMode mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST) {
  return makeSamplerState(samplerInfo(filter, mipmapMode, false, 16.0f), VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE,
                          16.0f, 16.0f);
}

// A 2D request at (s, t) with the derivatives ∂(s,t)/∂x = dx, ∂(s,t)/∂y = dy (the Grad operand,
// or what a fragment quad gives implicit-LOD sampling).
SampleRequest at(float s, float t, float dsdx, float dtdx, float dsdy, float dtdy) {
  SampleRequest req;
  req.s = s, req.t = t;
  req.hasGrad = true;
  req.dPdx[0] = dsdx, req.dPdx[1] = dtdx;
  req.dPdy[0] = dsdy, req.dPdy[1] = dtdy;
  return req;
}

AnisotropicFootprint footprint(double dsdx, double dtdx, double dsdy, double dtdy, double maxAniso,
                               uint32_t size = 8) {
  const double dx[3] = {dsdx, dtdx, 0}, dy[3] = {dsdy, dtdy, 0};
  const uint32_t base[3] = {size, size, 1};
  return anisotropicFootprint(scaleFactors(dx, dy, base), maxAniso);
}

void expectRGBA(const TexelValue& got, double r, double g, double b, double a, const char* what) {
  EXPECT_NEAR(got.f[0], r, kEps) << what << ", R";
  EXPECT_NEAR(got.f[1], g, kEps) << what << ", G";
  EXPECT_NEAR(got.f[2], b, kEps) << what << ", B";
  EXPECT_NEAR(got.f[3], a, kEps) << what << ", A";
}

// ---- Scale Factor Operation and LOD Operation: η, N, λ_base --------------------------------

TEST(AnisotropicScaleFactors, IsotropicDerivativesGiveEtaOneAndTheUnchangedLambda) {
  // ρ_x = |(0.25, 0)| × 8 = 2 = ρ_y: η = min(2 / 2, 16) = 1, N = 1, λ_base = log2(2 / 1) = 1.
  AnisotropicFootprint f = footprint(0.25, 0, 0, 0.25, 16);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  EXPECT_EQ(f.lambdaBase, 1.0);
  EXPECT_FALSE(f.alongX);  // "when ρ_y >= ρ_x" the samples lie along y
  // A footprint turned by 45°: ρ_x = ρ_y = |(2, 2)| = √8, η = 1, λ = log2(√8) = 1.5, the very
  // λ an isotropic sampler computes.
  f = footprint(0.25, 0.25, -0.25, 0.25, 16);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  EXPECT_NEAR(f.lambdaBase, 1.5, 1e-12);
  const double dx[3] = {0.25, 0.25, 0}, dy[3] = {-0.25, 0.25, 0};
  const uint32_t base[3] = {8, 8, 1};
  EXPECT_EQ(f.lambdaBase, lambdaFromGradients(dx, dy, base));
}

TEST(AnisotropicScaleFactors, FourToOneFootprintGivesEtaFourAndLambdaLog2RhoMaxOverFour) {
  // ρ_x = 0.5 × 8 = 4, ρ_y = 0.125 × 8 = 1: η = min(4 / 1, 16) = 4, N = ceil(4) = 4,
  // λ_base = log2(4 / 4) = 0 (isotropic: log2(4) = 2), samples along x (ρ_x > ρ_y).
  AnisotropicFootprint f = footprint(0.5, 0, 0, 0.125, 16);
  EXPECT_EQ(f.eta, 4.0);
  EXPECT_EQ(f.samples, 4u);
  EXPECT_EQ(f.lambdaBase, 0.0);
  EXPECT_TRUE(f.alongX);
  // The same footprint turned by 90°: along y.
  f = footprint(0.125, 0, 0, 0.5, 16);
  EXPECT_EQ(f.eta, 4.0);
  EXPECT_EQ(f.lambdaBase, 0.0);
  EXPECT_FALSE(f.alongX);
}

TEST(AnisotropicScaleFactors, MaxAnisotropyClampsEta) {
  // max_Aniso = 2: η = min(4, 2) = 2, N = 2, λ_base = log2(4 / 2) = 1.
  AnisotropicFootprint f = footprint(0.5, 0, 0, 0.125, 2);
  EXPECT_EQ(f.eta, 2.0);
  EXPECT_EQ(f.samples, 2u);
  EXPECT_EQ(f.lambdaBase, 1.0);
  // max_Aniso = 2.5: η = 2.5, N = ceil(2.5) = 3, λ_base = log2(4 / 2.5) (η itself, not N).
  f = footprint(0.5, 0, 0, 0.125, 2.5);
  EXPECT_EQ(f.eta, 2.5);
  EXPECT_EQ(f.samples, 3u);
  EXPECT_NEAR(f.lambdaBase, std::log2(1.6), 1e-12);
  // A ratio that is not an integer: ρ_x = 0.625 × 8 = 5, ρ_y = 0.25 × 8 = 2: η = 2.5, N = 3,
  // λ_base = log2(5 / 2.5) = 1.
  f = footprint(0.625, 0, 0, 0.25, 16);
  EXPECT_EQ(f.eta, 2.5);
  EXPECT_EQ(f.samples, 3u);
  EXPECT_EQ(f.lambdaBase, 1.0);
  // max_Aniso = 1 (anisotropyEnable VK_FALSE): isotropic, λ_base = log2(ρ_max) = log2(5).
  f = footprint(0.625, 0, 0, 0.25, 1);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  EXPECT_EQ(f.lambdaBase, std::log2(5.0));
}

TEST(AnisotropicScaleFactors, LineFootprintTakesMaxAnisoAndPointFootprintIsIsotropic) {
  // "If ρ_max ≠ 0 and ρ_min = 0 ... a line segment, and η should be treated as max_Aniso":
  // ρ_x = 4, ρ_y = 0: η = 16, N = 16, λ_base = log2(4 / 16) = -2; with max_Aniso 8: η = 8,
  // λ_base = log2(4 / 8) = -1.
  AnisotropicFootprint f = footprint(0.5, 0, 0, 0, 16);
  EXPECT_EQ(f.eta, 16.0);
  EXPECT_EQ(f.samples, 16u);
  EXPECT_EQ(f.lambdaBase, -2.0);
  EXPECT_TRUE(f.alongX);
  f = footprint(0.5, 0, 0, 0, 8);
  EXPECT_EQ(f.eta, 8.0);
  EXPECT_EQ(f.lambdaBase, -1.0);
  // "If ρ_max = ρ_min = 0 ... a point, and η should be treated as 1": λ_base = log2(0) = -inf
  // (the LOD clamps make it lod_min), no division by zero.
  f = footprint(0, 0, 0, 0, 16);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  EXPECT_EQ(f.lambdaBase, -kInf);
  // A subnormal ρ_min: ρ_max / ρ_min overflows to +inf, η = max_Aniso.
  f = anisotropicFootprint(ScaleFactors{4.0, 1e-310, 16.0, 1e-310 * 1e-310}, 16);
  EXPECT_EQ(f.eta, 16.0);
  EXPECT_EQ(f.samples, 16u);
}

TEST(AnisotropicScaleFactors, FootprintsWithinOneIn256OfASquareAreIsotropic) {
  // "The particular scheme for anisotropic texture filtering is implementation dependent"
  // ("Texel Anisotropic Filtering"). Tessera's keeps the spec's example but takes a footprint
  // whose ρ_max is within 1 + 2^-8 of ρ_min (ρ_max² <= (1 + 2^-8)² ρ_min²) as isotropic: η = 1,
  // one sample, λ_base = log2(ρ_max), as a sampler without anisotropy has it.
  // ρ_x = 2, ρ_y = 2 (1 + 2^-9):
  AnisotropicFootprint f = footprint(0.25, 0, 0, 0.25 * (1 + 0x1p-9), 16);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  EXPECT_EQ(f.lambdaBase, std::log2(2.0 * (1 + 0x1p-9)));
  // ρ_y = 2 (1 + 2^-8), the bound itself: isotropic.
  f = footprint(0.25, 0, 0, 0.25 * (1 + 0x1p-8), 16);
  EXPECT_EQ(f.eta, 1.0);
  EXPECT_EQ(f.samples, 1u);
  // ρ_y = 2 (1 + 2^-8 + 2^-20), just beyond: η = ρ_y / ρ_x = 1 + 2^-8 + 2^-20, N = 2,
  // λ_base = log2(ρ_max / η) = log2(2) = 1, along y.
  f = footprint(0.25, 0, 0, 0.25 * (1 + 0x1p-8 + 0x1p-20), 16);
  EXPECT_EQ(f.eta, 1 + 0x1p-8 + 0x1p-20);
  EXPECT_EQ(f.samples, 2u);
  EXPECT_EQ(f.lambdaBase, 1.0);
  EXPECT_FALSE(f.alongX);
  // The same along x, turned by 30° (the lengths, not the directions, decide).
  const double c = std::cos(std::numbers::pi / 6), s = std::sin(std::numbers::pi / 6);
  f = footprint(0.25 * c * (1 + 0x1p-10), 0.25 * s * (1 + 0x1p-10), -0.25 * s, 0.25 * c, 16);
  EXPECT_EQ(f.eta, 1.0);
  f = footprint(0.25 * c * (1 + 0x1p-6), 0.25 * s * (1 + 0x1p-6), -0.25 * s, 0.25 * c, 16);
  EXPECT_NEAR(f.eta, 1 + 0x1p-6, 1e-12);
  EXPECT_EQ(f.samples, 2u);
  EXPECT_TRUE(f.alongX);
}

TEST(AnisotropicScaleFactors, NanAndInfiniteDerivativesAreSampledIsotropically) {
  // No footprint to spread samples over: η = 1, and λ_base is the isotropic one.
  for (const ScaleFactors rho : {ScaleFactors{kNaN, 1}, ScaleFactors{1, kNaN}, ScaleFactors{kInf, 1},
                                 ScaleFactors{kInf, 0}, ScaleFactors{kInf, kInf}, ScaleFactors{kNaN, kNaN}}) {
    const AnisotropicFootprint f = anisotropicFootprint(rho, 16);
    EXPECT_EQ(f.eta, 1.0) << rho.rhoX << " " << rho.rhoY;
    EXPECT_EQ(f.samples, 1u) << rho.rhoX << " " << rho.rhoY;
  }
  EXPECT_EQ(anisotropicFootprint(ScaleFactors{kInf, 1}, 16).lambdaBase, kInf);
  // NaN max_Aniso (makeSamplerState never bakes one): isotropic.
  EXPECT_EQ(anisotropicFootprint(ScaleFactors{4, 1}, kNaN).eta, 1.0);
}

// ---- makeSamplerState: max_Aniso --------------------------------------------------------------

TEST(AnisotropicSamplerState, MaxAnisotropyIsClampedToTheLimitAndOneWhenDisabled) {
  // max_Aniso = min(sampler.max_Aniso, limits.max_Aniso); 1 when anisotropyEnable is VK_FALSE.
  EXPECT_EQ(anisotropic(8).maxAnisotropy, 8.0f);
  EXPECT_EQ(anisotropic(8).anisotropyEnable, 1u);
  EXPECT_EQ(anisotropic(64).maxAnisotropy, 16.0f);
  EXPECT_EQ(isotropic().maxAnisotropy, 1.0f);  // maxAnisotropy 16 given, but "ignored"
  EXPECT_EQ(isotropic().anisotropyEnable, 0u);
  EXPECT_EQ(anisotropic(0.5f).maxAnisotropy, 1.0f);  // invalid: below 1
  EXPECT_EQ(anisotropic(std::numeric_limits<float>::quiet_NaN()).maxAnisotropy, 1.0f);
  // A device whose samplerAnisotropy feature is off passes limit 1 (icd/sampler.cpp).
  EXPECT_EQ(makeSamplerState(samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, true, 16),
                             VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 1.0f)
                .maxAnisotropy,
            1.0f);
}

TEST(AnisotropicSamplerState, AnisotropicSamplersTakeRoutinesOfTheirOwn) {
  // The isotropic routines sample isotropically: an anisotropic sampler gets classes of its own
  // (8 above the isotropic ones), which only the routines' anisotropic instances take (they
  // hand a batch of isotropic footprints to the isotropic routine, and the kernels' inline
  // sampling samples only such batches: InlineSampling.AnisotropicSamplers*) (batch_sampler_exact.h anisotropicAndStore, and for
  // RGBA/BGRA UNORM and BC1 batch_sampler_unorm8.cpp sampleUnorm8Anisotropic, both held to the
  // reference by BatchSampler.AnisotropicSamplersMatchReference), and only with equal filters.
  // max_Aniso = 1 is isotropic and keeps its class and routine.
  SamplingTestView view(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8);
  view.state.fastSampling = classifyViewForRoutines(view.state);
  SampleShape shape;
  shape.width = 8;
  const SampleRoutine isotropicRoutine = findSampleRoutine(view.state, isotropic(), shape);
  ASSERT_NE(isotropicRoutine, nullptr);
  EXPECT_EQ(classifySamplerForRoutines(anisotropic(16)), classifySamplerForRoutines(isotropic()) + 8);
  const SampleRoutine anisotropicRoutine = findSampleRoutine(view.state, anisotropic(2), shape);
  EXPECT_NE(anisotropicRoutine, nullptr);
  EXPECT_NE(anisotropicRoutine, isotropicRoutine);  // not RGBA8's isotropic routine
  EXPECT_EQ(findSampleRoutine(view.state, anisotropic(1), shape), isotropicRoutine);
}

// ---- Texel Anisotropic Filtering ------------------------------------------------------------

// 8x8, 4 levels; every texel of level l is (10 (l + 1), 0, 0, 1): the level read shows in R.
SamplingTestView levelMarkedView() {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 4);
  for (uint32_t l = 0; l < 4; ++l)
    view.forEachTexel(l, [l](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      const float v[4] = {10.0f * float(l + 1), 0, 0, 1};
      std::memcpy(p, v, 16);
    });
  return view;
}

TEST(TexelAnisotropicFiltering, TheFootprintsLambdaSelectsTheLevel) {
  SamplingTestView view = levelMarkedView();
  // ρ_x = 4, ρ_y = 1 (as above), mipmap NEAREST.
  const SampleRequest req = at(0.3f, 0.3f, 0.5f, 0, 0, 0.125f);
  // Isotropic: λ = log2(4) = 2 -> level 2.
  EXPECT_NEAR(sampleImage(view.state, isotropic(), req).f[0], 30, kEps);
  // max_Aniso 16: η = 4, λ = log2(4 / 4) = 0 -> level 0.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(16), req).f[0], 10, kEps);
  // max_Aniso 2: η = 2, λ = log2(4 / 2) = 1 -> level 1.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(2), req).f[0], 20, kEps);
  // anisotropyEnable with maxAnisotropy 1: isotropic.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(1), req).f[0], 30, kEps);
  // The sampler's minLod still bounds λ: minLod 1 -> level 1.
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST, true, 16);
  info.minLod = 1.0f;
  EXPECT_NEAR(sampleImage(view.state, makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f),
                          req)
                  .f[0],
              20, kEps);
}

// 16x16, 5 levels. Level 0: R = x mod 2 (vertical stripes one texel wide), G = y (the row),
// B = 0; levels l >= 1: R = 1/2 (the stripes' average), G = y, B = 10 l. A = 1.
SamplingTestView stripeView(bool vertical) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, 5);
  for (uint32_t l = 0; l < 5; ++l)
    view.forEachTexel(l, [l, vertical](uint8_t* p, uint32_t x, uint32_t y, uint32_t, uint32_t) {
      const uint32_t across = vertical ? x : y, along = vertical ? y : x;
      const float v[4] = {l == 0 ? float(across % 2) : 0.5f, float(along), 10.0f * float(l), 1};
      std::memcpy(p, v, 16);
    });
  return view;
}

TEST(TexelAnisotropicFiltering, FootprintsWithinRoundingOfASquareAreSampledAsIsotropic) {
  SamplingTestView view = stripeView(true);
  const abi::SamplerState aniso = anisotropic(16, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  const abi::SamplerState iso = isotropic(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  // 16x16: ρ_x = 1, ρ_y = 1 + 2^-9, within 1 + 2^-8: η = 1, so both samplers take one sample at
  // λ = log2(1 + 2^-9), which blends that much of level 1 (B = 10) into level 0 (B = 0).
  SampleRequest req = at(0.4f, 0.6f, 1.0f / 16, 0, 0, (1.0f + 0x1p-9f) / 16);
  TexelValue a = sampleImage(view.state, aniso, req), i = sampleImage(view.state, iso, req);
  for (int c = 0; c < 4; ++c) EXPECT_EQ(a.f[c], i.f[c]) << "component " << c;
  EXPECT_NEAR(a.f[2], 10 * std::log2(1 + 0x1p-9), 1e-4);
  // ρ_y = 1 + 2^-6: η = 1 + 2^-6, N = 2, λ = log2(ρ_max / η) = 0: level 0 alone (B = 0), where
  // the isotropic sampler blends log2(1 + 2^-6) of level 1.
  req = at(0.4f, 0.6f, 1.0f / 16, 0, 0, (1.0f + 0x1p-6f) / 16);
  EXPECT_NEAR(sampleImage(view.state, aniso, req).f[2], 0.0, kEps);
  EXPECT_NEAR(sampleImage(view.state, iso, req).f[2], 10 * std::log2(1 + 0x1p-6), 1e-4);
}

TEST(TexelAnisotropicFiltering, SamplesAlongTheMajorAxisAverageTheStripesItCrosses) {
  SamplingTestView view = stripeView(true);
  // u = 8.5, v = 4.5 (s = 8.5/16, t = 4.5/16); ∂s/∂x = 1/4 (4 texels a pixel), ∂t/∂y = 1/16:
  // ρ_x = 4, ρ_y = 1, η = 4, N = 4, λ = 0 (level 0, magFilter LINEAR since λ <= 0).
  // Sample i at u = 8.5 + (i/5 - 1/2) × 4 = 7.3, 8.1, 8.9, 9.7 (v = 4.5, so β = 0):
  //   u - 1/2 = 6.8: texels 6 (R 0) and 7 (R 1), α = 0.8 -> 0.8
  //             7.6: texels 7 (1) and 8 (0), α = 0.6 -> 0.4
  //             8.4: texels 8 (0) and 9 (1), α = 0.4 -> 0.4
  //             9.2: texels 9 (1) and 10 (0), α = 0.2 -> 0.8
  // τ_aniso: R = (0.8 + 0.4 + 0.4 + 0.8) / 4 = 0.6, G = 4 (row 4, sharp), B = 0 (level 0).
  const SampleRequest req = at(8.5f / 16, 4.5f / 16, 0.25f, 0, 0, 1.0f / 16);
  expectRGBA(sampleImage(view.state, anisotropic(16), req), 0.6, 4, 0, 1, "anisotropic");
  // Isotropic: λ = log2(4) = 2, level 2 (4x4): R = 1/2; v = 4.5/16 × 4 = 1.125, v - 1/2 = 0.625,
  // rows 0 and 1, β = 0.625: G = 0.625 (the rows blurred together); B = 20.
  expectRGBA(sampleImage(view.state, isotropic(), req), 0.5, 0.625, 20, 1, "isotropic");
  // One isotropic sample at the anisotropic λ = 0 is not it either: texel 8's R = 0 at u = 8.5.
  SampleRequest lod0 = req;
  lod0.hasGrad = false, lod0.hasLod = true, lod0.lod = 0;
  expectRGBA(sampleImage(view.state, isotropic(), lod0), 0, 4, 0, 1, "isotropic at λ = 0");
}

TEST(TexelAnisotropicFiltering, SamplesLieAlongYWhenRhoYIsTheLarger) {
  // The same scene turned by 90°: horizontal stripes (R = y mod 2, G = x), ∂t/∂y = 1/4,
  // ∂s/∂x = 1/16, (u, v) = (4.5, 8.5): ρ_y = 4 > ρ_x = 1, samples at v = 7.3, 8.1, 8.9, 9.7.
  SamplingTestView view = stripeView(false);
  const SampleRequest req = at(4.5f / 16, 8.5f / 16, 1.0f / 16, 0, 0, 0.25f);
  expectRGBA(sampleImage(view.state, anisotropic(16), req), 0.6, 4, 0, 1, "anisotropic along y");
  // A footprint as long in x as in y is isotropic: ρ_x = ρ_y = 4, λ = 2, level 2.
  const SampleRequest square = at(4.5f / 16, 8.5f / 16, 0.25f, 0, 0, 0.25f);
  EXPECT_NEAR(sampleImage(view.state, anisotropic(16), square).f[2], 20, kEps);
}

// 16x16, one level: R = 1 in column 8 only.
SamplingTestView columnView() {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 16, 16);
  view.forEachTexel(0, [](uint8_t* p, uint32_t x, uint32_t, uint32_t, uint32_t) {
    const float v[4] = {x == 8 ? 1.0f : 0.0f, 0, 0, 1};
    std::memcpy(p, v, 16);
  });
  return view;
}

TEST(TexelAnisotropicFiltering, LineFootprintTakesMaxAnisotropySamples) {
  SamplingTestView view = columnView();
  // ∂s/∂x = 1/4, ∂(s,t)/∂y = 0: ρ_x = 4, ρ_min = 0, a line segment: η = max_Aniso.
  // NEAREST (λ <= 0 in both cases below: magFilter), u = 8.5.
  const SampleRequest req = at(8.5f / 16, 0.5f, 0.25f, 0, 0, 0);
  // max_Aniso 16: N = 16 samples at u = 8.5 + (i/17 - 1/2) × 4 = 6.5 + 4i/17; column 8 holds
  // those with 8 <= 6.5 + 4i/17 < 9, i.e. 6.375 <= i < 10.625: i = 7..10, 4 of 16 -> 0.25.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(16, VK_FILTER_NEAREST), req).f[0], 0.25, kEps);
  // max_Aniso 4: N = 4 samples at u = 6.5 + 4i/5 = 7.3, 8.1, 8.9, 9.7: two in column 8 -> 0.5.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(4, VK_FILTER_NEAREST), req).f[0], 0.5, kEps);
  // max_Aniso 2.5: η = 2.5 and N = ceil(2.5) = 3 samples at u = 6.5 + 4i/4 = 7.5, 8.5, 9.5:
  // one in column 8 -> 1/3.
  EXPECT_NEAR(sampleImage(view.state, anisotropic(2.5f, VK_FILTER_NEAREST), req).f[0], 1.0 / 3, kEps);
  // Isotropic NEAREST: the texel at u = 8.5, column 8 -> 1.
  EXPECT_NEAR(sampleImage(view.state, isotropic(VK_FILTER_NEAREST), req).f[0], 1, kEps);
}

TEST(TexelAnisotropicFiltering, MinMaxReductionsReduceOverTheSamples) {
  // "If the reduction mode is MIN or MAX, the process operates on the above values, together
  // with their weights, computing a component-wise minimum or maximum". The four samples of
  // the max_Aniso 4 case above read columns 7, 8, 8, 9: MAX = 1, MIN = 0.
  SamplingTestView view = columnView();
  const SampleRequest req = at(8.5f / 16, 0.5f, 0.25f, 0, 0, 0);
  const auto reduced = [](VkSamplerReductionMode mode) {
    return anisotropic(4, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, mode);
  };
  EXPECT_NEAR(sampleImage(view.state, reduced(VK_SAMPLER_REDUCTION_MODE_MAX), req).f[0], 1, kEps);
  EXPECT_NEAR(sampleImage(view.state, reduced(VK_SAMPLER_REDUCTION_MODE_MIN), req).f[0], 0, kEps);
  // Moved by three texels (u = 11.5: samples in columns 10, 11, 11, 12): no sample reads
  // column 8, MAX = 0.
  SampleRequest away = req;
  away.s = 11.5f / 16;
  EXPECT_NEAR(sampleImage(view.state, reduced(VK_SAMPLER_REDUCTION_MODE_MAX), away).f[0], 0, kEps);
}

TEST(TexelAnisotropicFiltering, TrilinearSamplesBlendTheFootprintsLevels) {
  // mipmapMode LINEAR: each sample is filtered in levels d_hi and d_lo of the footprint's λ.
  // Level-marked image, ρ_x = 6 (∂s/∂x = 0.75), ρ_y = 1, max_Aniso 4: η = 4,
  // λ = log2(6 / 4) = log2(1.5): δ = log2(1.5), R = (1 - δ) 10 + δ 20 for every sample.
  SamplingTestView view = levelMarkedView();
  const SampleRequest req = at(0.3f, 0.3f, 0.75f, 0, 0, 0.125f);
  const double delta = std::log2(1.5);
  EXPECT_NEAR(sampleImage(view.state, anisotropic(4, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR), req).f[0],
              (1 - delta) * 10 + delta * 20, kEps);
}

TEST(TexelAnisotropicFiltering, ExplicitLodGathersAndIntegerViewsStayIsotropic) {
  SamplingTestView view = stripeView(true);
  // The Lod operand gives no footprint: λ_base = Lod, one sample, whatever the sampler's
  // max_Aniso (and whatever derivatives the request carries besides). Lod 0 at u = 8.5:
  // texel 8, R = 0 (four samples across the 4:1 footprint would give 0.6, as above).
  SampleRequest lod = at(8.5f / 16, 4.5f / 16, 0.25f, 0, 0, 1.0f / 16);
  lod.hasLod = true, lod.lod = 0;
  expectRGBA(sampleImage(view.state, anisotropic(16), lod), 0, 4, 0, 1, "explicit LOD 0");
  // Lod 2: level 2, as the isotropic sample above.
  lod.lod = 2;
  expectRGBA(sampleImage(view.state, anisotropic(16), lod), 0.5, 0.625, 20, 1, "explicit LOD 2");
  // A gather reads the 2x2 footprint of level 0 ("Texel Gathering"): R of texels (8,4), (9,4),
  // (9,3), (8,3) at u = 9, v = 4 (i0 = 8, j0 = 3).
  SampleRequest gather = at(9.0f / 16, 4.0f / 16, 0.25f, 0, 0, 1.0f / 16);
  gather.kind = SampleKind::Gather;
  expectRGBA(sampleImage(view.state, anisotropic(16), gather), 0, 1, 1, 0, "gather of R");
  // Integer views are sampled NEAREST (an average of integers is no texel value), one sample:
  // R32_UINT with column 8 set, u = 8.5 -> 1 (anisotropic samples would have read 7 and 9 too).
  SamplingTestView uints(VK_FORMAT_R32_UINT, VK_IMAGE_VIEW_TYPE_2D, 16, 16);
  uints.forEachTexel(0, [](uint8_t* p, uint32_t x, uint32_t, uint32_t, uint32_t) {
    const uint32_t v = x == 8 ? 1000 : 7;
    std::memcpy(p, &v, 4);
  });
  const SampleRequest req = at(8.5f / 16, 0.5f, 0.25f, 0, 0, 0);
  EXPECT_EQ(sampleImage(uints.state, anisotropic(16, VK_FILTER_NEAREST), req).u[0], 1000u);
}

TEST(TexelAnisotropicFiltering, CubeMapSamplesMoveTheDirection) {
  // Face +X of a 16x16 cube holds the vertical stripes of stripeView (R = x mod 2, G = y);
  // the other faces are 0. "Cube Map Face Selection": on +X, s_c = -r_z, t_c = -r_y, r_c = r_x,
  // s_face = s_c / (2 |r_c|) + 1/2. Direction (1, 0.4375, -0.0625): s_face = 8.5/16,
  // t_face = 4.5/16. ∂r/∂x = (0, 0, -0.5): ∂s_face/∂x = 0.25 ("Cube Map Derivative
  // Transformation", ∂r_c = 0); ∂r/∂y = (0, -0.125, 0): ∂t_face/∂y = 1/16. The 2D case above on
  // the face: ρ_x = 4, ρ_y = 1, samples at u = 7.3, 8.1, 8.9, 9.7 of face +X: R = 0.6, G = 4.
  SamplingTestView cube(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_CUBE, 16, 16, 1, 6);
  cube.forEachTexel(0, [](uint8_t* p, uint32_t x, uint32_t y, uint32_t, uint32_t face) {
    const float v[4] = {face == 0 ? float(x % 2) : 0.0f, face == 0 ? float(y) : 0.0f, 0, 1};
    std::memcpy(p, v, 16);
  });
  SampleRequest req;
  req.s = 1, req.t = 0.4375f, req.r = -0.0625f;
  req.hasGrad = true;
  req.dPdx[2] = -0.5f;
  req.dPdy[1] = -0.125f;
  expectRGBA(sampleImage(cube.state, anisotropic(16), req), 0.6, 4, 0, 1, "cube face +X");
}

TEST(TexelAnisotropicFiltering, BadDerivativesDoNotCrash) {
  // NaN and infinite derivatives are sampled isotropically (see the footprint test above);
  // huge finite ones spread the samples far outside the image, where the address mode applies.
  SamplingTestView view = stripeView(true);
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const float cases[][4] = {{nan, 0, 0, 0.1f}, {inf, 0, 0, 0.1f}, {1e30f, 0, 0, 1e-30f}, {3e38f, -3e38f, 0, 0},
                            {0, 0, 0, 0}};
  for (const auto& d : cases) {
    const TexelValue v = sampleImage(view.state, anisotropic(16), at(0.5f, 0.5f, d[0], d[1], d[2], d[3]));
    // Every level's G is a row index < 16, R in [0, 1]: the result is a filtered texel value.
    EXPECT_GE(v.f[0], 0.0f);
    EXPECT_LE(v.f[0], 1.0f);
    EXPECT_GE(v.f[1], 0.0f);
    EXPECT_LE(v.f[1], 15.0f);
  }
}

}  // namespace
}  // namespace tessera
