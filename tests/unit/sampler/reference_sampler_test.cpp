// The reference sampler (sampling.h) against the Vulkan 1.3 specification's "Image Operations"
// chapter. Every expected value is worked out here, by hand, from the spec's formulas (each
// test names its section); none comes from the implementation's internals. Recurring ones:
//   (s,t,r,q,a) to (u,v,w,a): u = s × width_level + Δi (v, w likewise)
//   NEAREST: i = floor(u); LINEAR: i0 = floor(u - 0.5), i1 = i0 + 1, α = frac(u - 0.5),
//   τ_2D = (1-α)(1-β) τ_i0j0 + α(1-β) τ_i1j0 + (1-α)β τ_i0j1 + αβ τ_i1j1.
// Coordinates are chosen so that u, v, w are exact in binary floating point.
#include "tessera/sampling.h"

#include <gtest/gtest.h>

#include <cmath>
#include <tuple>
#include <utility>
#include <cstdint>
#include <functional>

#include "sampling_test_view.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

using test::SamplingTestView;

constexpr double kEps = 1e-5;

VkSamplerCreateInfo samplerInfo(VkFilter filter = VK_FILTER_NEAREST,
                                VkSamplerMipmapMode mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                VkSamplerAddressMode addressMode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE) {
  VkSamplerCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
  info.magFilter = info.minFilter = filter;
  info.mipmapMode = mipmapMode;
  info.addressModeU = info.addressModeV = info.addressModeW = addressMode;
  info.minLod = 0;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  info.compareOp = VK_COMPARE_OP_NEVER;
  return info;
}

abi::SamplerState bake(const VkSamplerCreateInfo& info,
                       VkSamplerReductionMode reduction = VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE) {
  return makeSamplerState(info, reduction, 16.0f, 16.0f);
}

SampleRequest at(float s, float t = 0, float r = 0) {
  SampleRequest req;
  req.s = s, req.t = t, req.r = r;
  return req;
}

SampleRequest withLod(SampleRequest req, float lod) {
  req.hasLod = true;
  req.lod = lod;
  return req;
}

// RGBA32F test pattern, deliberately non-linear so that interpolation mistakes show.
struct Vec4 {
  double v[4];
};
Vec4 pattern(uint32_t x, uint32_t y) { return {{x + 0.25 * y * y, 0.5 * y * y + x * x, 10.0 * x + y, 100.0 + x}}; }

void fillRGBA32F(SamplingTestView& view, uint32_t level, const std::function<Vec4(uint32_t, uint32_t, uint32_t, uint32_t)>& f) {
  view.forEachTexel(level, [&](uint8_t* p, uint32_t x, uint32_t y, uint32_t z, uint32_t layer) {
    const Vec4 c = f(x, y, z, layer);
    const float v[4] = {float(c.v[0]), float(c.v[1]), float(c.v[2]), float(c.v[3])};
    std::memcpy(p, v, 16);
  });
}

void fillR32F(SamplingTestView& view, uint32_t level, const std::function<float(uint32_t, uint32_t, uint32_t, uint32_t)>& f) {
  view.forEachTexel(level, [&](uint8_t* p, uint32_t x, uint32_t y, uint32_t z, uint32_t layer) {
    const float v = f(x, y, z, layer);
    std::memcpy(p, &v, 4);
  });
}

SamplingTestView patternView() {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 4, 4);
  fillRGBA32F(view, 0, [](uint32_t x, uint32_t y, uint32_t, uint32_t) { return pattern(x, y); });
  return view;
}

// τ_2D of "Texel Linear Filtering" for the pattern, with texels (i0..i0+1, j0..j0+1).
Vec4 bilinear(std::function<Vec4(int, int)> tau, int i0, int j0, double a, double b) {
  Vec4 out{};
  const Vec4 t00 = tau(i0, j0), t10 = tau(i0 + 1, j0), t01 = tau(i0, j0 + 1), t11 = tau(i0 + 1, j0 + 1);
  for (int c = 0; c < 4; ++c)
    out.v[c] = (1 - a) * (1 - b) * t00.v[c] + a * (1 - b) * t10.v[c] + (1 - a) * b * t01.v[c] + a * b * t11.v[c];
  return out;
}

void expectFloats(const TexelValue& got, const Vec4& want, double eps = kEps) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got.f[c], want.v[c], eps) << "component " << c;
}
void expectFloats(const TexelValue& got, double r, double g, double b, double a, double eps = kEps) {
  expectFloats(got, Vec4{{r, g, b, a}}, eps);
}

double srgbEotf(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// ---- makeSamplerState --------------------------------------------------------------------------

TEST(MakeSamplerState, CopiesCreateInfoAndClampsBiasToMaxSamplerLodBias) {
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  info.minFilter = VK_FILTER_NEAREST;
  info.addressModeU = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  info.addressModeV = VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.mipLodBias = 3.5f;
  info.compareEnable = VK_TRUE;
  info.compareOp = VK_COMPARE_OP_GREATER;
  info.minLod = 0.25f;
  info.maxLod = 7.5f;
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  info.unnormalizedCoordinates = VK_FALSE;
  abi::SamplerState s = makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_MAX, 16.0f, 16.0f);
  EXPECT_EQ(s.magFilter, uint32_t(VK_FILTER_LINEAR));
  EXPECT_EQ(s.minFilter, uint32_t(VK_FILTER_NEAREST));
  EXPECT_EQ(s.mipmapMode, uint32_t(VK_SAMPLER_MIPMAP_MODE_LINEAR));
  EXPECT_EQ(s.addressMode[0], uint32_t(VK_SAMPLER_ADDRESS_MODE_REPEAT));
  EXPECT_EQ(s.addressMode[1], uint32_t(VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT));
  EXPECT_EQ(s.addressMode[2], uint32_t(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER));
  EXPECT_EQ(s.mipLodBias, 3.5f);
  EXPECT_EQ(s.compareEnable, 1u);
  EXPECT_EQ(s.compareOp, uint32_t(VK_COMPARE_OP_GREATER));
  EXPECT_EQ(s.minLod, 0.25f);
  EXPECT_EQ(s.maxLod, 7.5f);
  EXPECT_EQ(s.borderColor, uint32_t(VK_BORDER_COLOR_INT_OPAQUE_WHITE));
  EXPECT_EQ(s.unnormalizedCoordinates, 0u);
  EXPECT_EQ(s.reductionMode, uint32_t(VK_SAMPLER_REDUCTION_MODE_MAX));
  // VkSamplerCreateInfo::mipLodBias is clamped to ±maxSamplerLodBias.
  info.mipLodBias = 20.0f;
  EXPECT_EQ(makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f).mipLodBias, 16.0f);
  info.mipLodBias = -30.0f;
  EXPECT_EQ(makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f).mipLodBias, -16.0f);
}

// ---- Texel Nearest / Linear Filtering on 2D images ------------------------------------------

TEST(TexelNearestFiltering, SelectsTheTexelTheCoordinatesLieIn) {
  SamplingTestView view = patternView();
  const abi::SamplerState s = bake(samplerInfo());
  // u = 2.25, v = 1.75 -> (i, j) = (2, 1)
  expectFloats(sampleImage(view.state, s, at(2.25f / 4, 1.75f / 4)), pattern(2, 1));
  // u = 2.0 exactly lies in texel 2; u = v = 4.0 is i = 4, CLAMP_TO_EDGE -> 3.
  expectFloats(sampleImage(view.state, s, at(0.5f, 0.0f)), pattern(2, 0));
  expectFloats(sampleImage(view.state, s, at(1.0f, 1.0f)), pattern(3, 3));
}

TEST(TexelLinearFiltering, BilinearWeightsFromFractionsOfUMinusHalf) {
  SamplingTestView view = patternView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR));
  // u = 1.75: i0 = floor(1.25) = 1, α = 0.25; v = 2.25: j0 = floor(1.75) = 1, β = 0.75.
  const Vec4 want = bilinear([](int i, int j) { return pattern(i, j); }, 1, 1, 0.25, 0.75);
  expectFloats(sampleImage(view.state, s, at(1.75f / 4, 2.25f / 4)), want);
  // At a texel centre (u = 2.5, v = 0.5) α = β = 0: exactly that texel.
  expectFloats(sampleImage(view.state, s, at(2.5f / 4, 0.5f / 4)), pattern(2, 0));
}

TEST(TexelLinearFiltering, Unorm8ConvertsBeforeFiltering) {
  // "Format Conversion" of R8G8B8A8_UNORM: c / 255, then filtered.
  SamplingTestView view(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 1);
  view.set<uint8_t>(0, 0, 0, 0, 0, {0, 64, 255, 128});
  view.set<uint8_t>(0, 1, 0, 0, 0, {255, 192, 0, 255});
  // NEAREST at u = 0.5: texel 0.
  expectFloats(sampleImage(view.state, bake(samplerInfo()), at(0.25f, 0.5f)), 0, 64 / 255.0, 1, 128 / 255.0);
  // LINEAR at u = 0.75: i0 = 0, α = 0.25 (v = 0.5: j0 = 0, β = 0).
  expectFloats(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(0.375f, 0.5f)), 0.25,
               (0.75 * 64 + 0.25 * 192) / 255, 0.75, (0.75 * 128 + 0.25 * 255) / 255);
}

TEST(TexelNearestFiltering, EightBitRgbaAndBgraFormatsReadExactlyWhatTheCodecDecodes) {
  // "Format Conversion" of 4-byte UNORM and sRGB formats (read through per-byte tables that the
  // codec filled): NEAREST at every texel centre gives decodeTexel's value bit for bit, with the
  // components in R, G, B, A order whatever the memory order.
  uint32_t state = 99;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                          VK_FORMAT_B8G8R8A8_SRGB}) {
    SamplingTestView view(format, VK_IMAGE_VIEW_TYPE_2D, 8, 8);
    view.forEachTexel(0, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (int b = 0; b < 4; ++b) p[b] = uint8_t((state = state * 1664525u + 1013904223u) >> 24);
    });
    const abi::SamplerState s = bake(samplerInfo());
    for (uint32_t y = 0; y < 8; ++y)
      for (uint32_t x = 0; x < 8; ++x) {
        TexelValue want{};
        decodeTexel(*formatInfo(format), view.at(0, x, y), want);
        const TexelValue got = sampleImage(view.state, s, at((x + 0.5f) / 8, (y + 0.5f) / 8));
        for (int c = 0; c < 4; ++c) EXPECT_EQ(got.f[c], want.f[c]) << "format " << format << " texel " << x << "," << y << " c " << c;
      }
  }
}

TEST(TexelLinearFiltering, SrgbIsDecodedToLinearBeforeFiltering) {
  // "Format Conversion": sRGB R, G, B go through the sRGB EOTF, A stays linear; filtering then
  // averages linear values (0 and 255 average to 0.5, not to EOTF(127.5/255) ≈ 0.212).
  SamplingTestView view(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_VIEW_TYPE_2D, 2, 1);
  view.set<uint8_t>(0, 0, 0, 0, 0, {0, 128, 255, 128});
  view.set<uint8_t>(0, 1, 0, 0, 0, {255, 128, 0, 0});
  expectFloats(sampleImage(view.state, bake(samplerInfo()), at(0.25f, 0.5f)), 0, srgbEotf(128 / 255.0), 1,
               128 / 255.0);
  // LINEAR at u = 1.0: α = 0.5.
  expectFloats(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(0.5f, 0.5f)), 0.5,
               srgbEotf(128 / 255.0), 0.5, 64 / 255.0);
}

TEST(TexelLinearFiltering, OneDimensionalViewsUseTwoTexels) {
  // τ_1D = (1-α) τ_i0 + α τ_i1; t is not a coordinate of 1D images and is ignored.
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_1D, 4, 1);
  fillR32F(view, 0, [](uint32_t x, uint32_t, uint32_t, uint32_t) { return 10.0f + x * x; });
  // u = 2.0: i0 = 1, α = 0.5 -> (11 + 14) / 2.
  expectFloats(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(0.5f, 123.0f)), 12.5, 0, 0, 1);
  // NEAREST at u = 3.5 -> texel 3.
  expectFloats(sampleImage(view.state, bake(samplerInfo()), at(0.875f, -7.0f)), 19, 0, 0, 1);
}

// ---- Wrapping Operation, Texel Replacement (border) -------------------------------------------

TEST(WrappingOperation, EveryAddressModeOnIntegerCoordinates) {
  // 1D R32F, texel i holds 10 + i. Sampling NEAREST at u = n + 0.5 gives i = n before wrapping.
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_1D, 4, 1);
  fillR32F(view, 0, [](uint32_t x, uint32_t, uint32_t, uint32_t) { return 10.0f + x; });
  struct Case {
    VkSamplerAddressMode mode;
    int n;
    int want;  // wrapped i, or -1 for a border texel
  };
  const Case cases[] = {
      // repeat: i mod size
      {VK_SAMPLER_ADDRESS_MODE_REPEAT, 5, 1}, {VK_SAMPLER_ADDRESS_MODE_REPEAT, -1, 3},
      {VK_SAMPLER_ADDRESS_MODE_REPEAT, -6, 2},
      // mirrored repeat: (size-1) - mirror((i mod 2size) - size), mirror(n) = n >= 0 ? n : -(1+n)
      // i = 5: 3 - mirror(5 - 4) = 2; i = -1: 3 - mirror(7 - 4) = 0; i = -5: 3 - mirror(3 - 4) = 3;
      // i = 2: 3 - mirror(2 - 4) = 3 - 1 = 2.
      {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 5, 2}, {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, -1, 0},
      {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, -5, 3}, {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 2, 2},
      {VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT, 7, 0},
      // clamp to edge: clamp(i, 0, size-1)
      {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 5, 3}, {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, -1, 0},
      // clamp to border: clamp(i, -1, size); -1 and size fail validation -> border
      {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, -1, -1}, {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 4, -1},
      {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 9, -1}, {VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, 3, 3},
      // mirror clamp to edge: clamp(mirror(i), 0, size-1)
      {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, -1, 0}, {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, -3, 2},
      {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, -6, 3}, {VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE, 5, 3},
  };
  for (const Case& c : cases) {
    VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, c.mode);
    info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
    const TexelValue v = sampleImage(view.state, bake(info), at((c.n + 0.5f) / 4));
    // A border texel of a one-component format: Color_r = B_r = 1, then RGBA (1, 0, 0, 1).
    const double want = c.want < 0 ? 1.0 : 10.0 + c.want;
    EXPECT_NEAR(v.f[0], want, kEps) << "mode " << c.mode << " i " << c.n;
  }
}

TEST(TexelReplacement, FloatBorderColorsReplaceOutOfRangeTexels) {
  SamplingTestView view = patternView();
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  // u = -0.4: i = -1 -> border; a four-component format takes B as is.
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  expectFloats(sampleImage(view.state, bake(info), at(-0.1f, 0.5f)), 0, 0, 0, 0);
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  expectFloats(sampleImage(view.state, bake(info), at(0.5f, 1.2f)), 0, 0, 0, 1);
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  expectFloats(sampleImage(view.state, bake(info), at(1.01f, 0.5f)), 1, 1, 1, 1);
  // Border texels are replaced before filtering: u = 0.25 -> i0 = -1 (border), i1 = 0,
  // α = frac(-0.25) = 0.75; v = 1.5 -> j0 = 1, β = 0.
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  const Vec4 t01 = pattern(0, 1);
  Vec4 want;
  for (int c = 0; c < 4; ++c) want.v[c] = 0.25 * 1.0 + 0.75 * t01.v[c];
  expectFloats(sampleImage(view.state, bake(info), at(0.0625f, 0.375f)), want);
}

TEST(TexelReplacement, BorderReplacesOnlyTheFormatsComponents) {
  // "Border Texel Components After Replacement": a two-component format takes [B_r, B_g];
  // "Conversion to RGBA" then supplies B = 0 and A = one.
  SamplingTestView rg(VK_FORMAT_R32G32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  expectFloats(sampleImage(rg.state, bake(info), at(-0.5f, 0.5f)), 1, 1, 0, 1);
  info.borderColor = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK;
  expectFloats(sampleImage(rg.state, bake(info), at(-0.5f, 0.5f)), 0, 0, 0, 1);
  // Integer border colours give integers: four components (1,1,1,1); one component (1,0,0,1).
  SamplingTestView rgba8ui(VK_FORMAT_R8G8B8A8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  SamplingTestView r8ui(VK_FORMAT_R8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  TexelValue v = sampleImage(rgba8ui.state, bake(info), at(1.5f, 0.5f));
  EXPECT_EQ(v.u[0], 1u); EXPECT_EQ(v.u[1], 1u); EXPECT_EQ(v.u[2], 1u); EXPECT_EQ(v.u[3], 1u);
  v = sampleImage(r8ui.state, bake(info), at(1.5f, 0.5f));
  EXPECT_EQ(v.u[0], 1u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 1u);
  info.borderColor = VK_BORDER_COLOR_INT_TRANSPARENT_BLACK;
  v = sampleImage(rgba8ui.state, bake(info), at(0.5f, -0.5f));
  EXPECT_EQ(v.u[0], 0u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 0u);
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_BLACK;
  v = sampleImage(rgba8ui.state, bake(info), at(0.5f, -0.5f));
  EXPECT_EQ(v.u[0], 0u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 1u);
}

// ---- Offsets: (s,t,r,q,a) to (u,v,w,a) Transformation ---------------------------------------

TEST(NormalizedToUnnormalizedTransformation, OffsetsShiftTheTexelCoordinates) {
  SamplingTestView view = patternView();
  // NEAREST at u = v = 1.5 with (Δi, Δj) = (1, -1): (2, 0).
  SampleRequest req = at(1.5f / 4, 1.5f / 4);
  req.offset[0] = 1, req.offset[1] = -1;
  expectFloats(sampleImage(view.state, bake(samplerInfo()), req), pattern(2, 0));
  // The offset is applied before wrapping: REPEAT, u = 1.5 + 3 -> i = 4 -> 0.
  req.offset[0] = 3, req.offset[1] = 0;
  expectFloats(sampleImage(view.state,
                           bake(samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                            VK_SAMPLER_ADDRESS_MODE_REPEAT)),
                           req),
               pattern(0, 1));
  // LINEAR at u = 1.75 - 1 = 0.75 (i0 = 0, α = 0.25), v = 0.75 + 2 = 2.75 (j0 = 2, β = 0.25).
  req = at(1.75f / 4, 0.75f / 4);
  req.offset[0] = -1, req.offset[1] = 2;
  expectFloats(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), req),
               bilinear([](int i, int j) { return pattern(i, j); }, 0, 2, 0.25, 0.25));
}

// ---- LOD Operation, Image Level(s) Selection, Texel Mipmap Filtering --------------------------

// 8x8 RGBA32F with 4 levels (8, 4, 2, 1); level L holds (10 (L + 1), x, y, 1).
SamplingTestView mipView() {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 4);
  for (uint32_t l = 0; l < 4; ++l)
    fillRGBA32F(view, l, [l](uint32_t x, uint32_t y, uint32_t, uint32_t) { return Vec4{{10.0 * (l + 1), double(x), double(y), 1}}; });
  return view;
}

TEST(ImageLevelSelection, NearestMipmapRoundsDPrimeAsCeilPlusHalfMinusOne) {
  SamplingTestView view = mipView();
  const abi::SamplerState s = bake(samplerInfo());
  // d' = clamp(λ, 0, q = 3), d = ceil(d' + 0.5) - 1 (a tie rounds down).
  const struct {
    float lod;
    int level;
  } cases[] = {{-1, 0}, {0.4f, 0}, {0.5f, 0}, {0.6f, 1}, {1.5f, 1}, {1.51f, 2}, {7, 3}};
  for (auto c : cases) {
    // s = t = 0.3: u = 0.3 × width_level, so x = floor(2.4) = 2, floor(1.2) = 1, 0, 0.
    const TexelValue v = sampleImage(view.state, s, withLod(at(0.3f, 0.3f), c.lod));
    const uint32_t width = 8u >> c.level;
    EXPECT_NEAR(v.f[0], 10.0 * (c.level + 1), kEps) << "lod " << c.lod;
    EXPECT_NEAR(v.f[1], std::floor(0.3 * width), kEps) << "lod " << c.lod;
  }
}

TEST(ImageLevelSelection, LinearMipmapBlendsDHiAndDLoByDelta) {
  SamplingTestView view = mipView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR));
  // λ = 1.25: d_hi = 1, d_lo = 2, δ = 0.25: τ = 0.75 τ[1] + 0.25 τ[2]. At s = 0.3 the x of
  // level 1 is floor(1.2) = 1, of level 2 floor(0.6) = 0: each level has its own (u, v).
  expectFloats(sampleImage(view.state, s, withLod(at(0.3f, 0.3f), 1.25f)), 22.5, 0.75, 0.75, 1);
  // λ beyond q = 3: d' = 3, d_hi = 3, d_lo = min(4, 3) = 3, δ = 0.
  expectFloats(sampleImage(view.state, s, withLod(at(0.3f, 0.3f), 3.7f)), 40, 0, 0, 1);
  // λ < 0: d' = 0, δ = 0.
  expectFloats(sampleImage(view.state, s, withLod(at(0.3f, 0.3f), -2.0f)), 10, 2, 2, 1);
}

TEST(LodOperation, MinLodMaxLodAndMinLodOperandClampLambda) {
  SamplingTestView view = mipView();
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  // lod_min = sampler.minLod = 1: λ = clamp(0) = 1 -> level 1 only.
  info.minLod = 1.0f;
  EXPECT_NEAR(sampleImage(view.state, bake(info), withLod(at(0.3f, 0.3f), 0.0f)).f[0], 20, kEps);
  // lod_max = 1.5: λ = 1.5 -> 0.5 τ[1] + 0.5 τ[2].
  info.minLod = 0.0f, info.maxLod = 1.5f;
  EXPECT_NEAR(sampleImage(view.state, bake(info), withLod(at(0.3f, 0.3f), 3.0f)).f[0], 25, kEps);
  // lod_min = max(sampler.minLod, MinLod operand).
  info.minLod = 0.5f, info.maxLod = VK_LOD_CLAMP_NONE;
  SampleRequest req = withLod(at(0.3f, 0.3f), 0.0f);
  req.hasMinLod = true, req.minLod = 1.25f;  // max(0.5, 1.25) = 1.25
  EXPECT_NEAR(sampleImage(view.state, bake(info), req).f[0], 22.5, kEps);
  info.minLod = 1.0f, req.minLod = 0.25f;  // max(1, 0.25) = 1
  EXPECT_NEAR(sampleImage(view.state, bake(info), req).f[0], 20, kEps);
}

TEST(LodOperation, SamplerAndShaderBiasAddAndTheSumIsClamped) {
  SamplingTestView view = mipView();
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  // λ' = λ_base + clamp(sampler.bias + shaderOp.bias, -16, 16) = 0.5 + 0.5 + 0.25 = 1.25.
  info.mipLodBias = 0.5f;
  SampleRequest req = withLod(at(0.3f, 0.3f), 0.5f);
  req.bias = 0.25f;
  EXPECT_NEAR(sampleImage(view.state, bake(info), req).f[0], 22.5, kEps);
  // 10 + 10 = 20 is clamped to 16: λ' = -14.5 + 16 = 1.5 (unclamped it would be 5.5 -> level 3).
  info.mipLodBias = 10.0f;
  req = withLod(at(0.3f, 0.3f), -14.5f);
  req.bias = 10.0f;
  EXPECT_NEAR(sampleImage(view.state, bake(info), req).f[0], 25, kEps);
}

TEST(TexelFiltering, LambdaAtMostZeroMagnifiesAboveZeroMinifies) {
  // One level, so only the filter changes: magFilter NEAREST, minFilter LINEAR and back.
  SamplingTestView view = patternView();
  VkSamplerCreateInfo info = samplerInfo();
  info.magFilter = VK_FILTER_NEAREST, info.minFilter = VK_FILTER_LINEAR;
  const SampleRequest req = at(1.75f / 4, 2.25f / 4);  // NEAREST -> (1, 2); LINEAR as above
  const Vec4 linear = bilinear([](int i, int j) { return pattern(i, j); }, 1, 1, 0.25, 0.75);
  expectFloats(sampleImage(view.state, bake(info), withLod(req, 0.0f)), pattern(1, 2));
  expectFloats(sampleImage(view.state, bake(info), withLod(req, -0.5f)), pattern(1, 2));
  expectFloats(sampleImage(view.state, bake(info), withLod(req, 0.01f)), linear);
  info.magFilter = VK_FILTER_LINEAR, info.minFilter = VK_FILTER_NEAREST;
  expectFloats(sampleImage(view.state, bake(info), withLod(req, 0.0f)), linear);
  expectFloats(sampleImage(view.state, bake(info), withLod(req, 2.0f)), pattern(1, 2));
}

// ---- Scale Factor Operation: LOD from gradients ------------------------------------------------

SampleRequest withGrad(SampleRequest req, std::initializer_list<float> dx, std::initializer_list<float> dy) {
  req.hasGrad = true;
  int c = 0;
  for (float v : dx) req.dPdx[c++] = v;
  c = 0;
  for (float v : dy) req.dPdy[c++] = v;
  return req;
}

TEST(ScaleFactorOperation, GradientsGiveLambdaLog2RhoMax) {
  SamplingTestView view = mipView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST));
  const SampleRequest base = at(0.3f, 0.3f);
  // m_ux = |∂s/∂x| × w_base = 0.25 × 8 = 2: ρ_max = 2, λ = 1.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(base, {0.25f, 0}, {0, 0})).f[0], 20, kEps);
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(base, {-0.25f, 0}, {0, 0})).f[0], 20, kEps);  // |∂s/∂x|
  // ρ_x = 1, ρ_y = |∂t/∂y| × h_base = 0.5 × 8 = 4: ρ_max = 4, λ = 2.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(base, {0.125f, 0}, {0, 0.5f})).f[0], 30, kEps);
  // ρ_max = 0.5: λ = -1, magnified, level 0.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(base, {0.0625f, 0}, {0, 0.0625f})).f[0], 10, kEps);
  // No derivatives at all: ρ_max = 0, λ = -inf, clamped to lod_min = 0.
  EXPECT_NEAR(sampleImage(view.state, s, base).f[0], 10, kEps);
  // ρ_x from (m_ux, m_vx) = (1.5, 2): Tessera's f_x is the vector length, 2.5 (within the
  // spec's bounds max = 2 <= f_x <= √2 × 3.5). λ = log2(2.5); LINEAR mipmap:
  // d_hi = 1, δ = log2(2.5) - 1.
  const abi::SamplerState lin = bake(samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR));
  const double delta = std::log2(2.5) - 1;
  EXPECT_NEAR(sampleImage(view.state, lin, withGrad(base, {0.1875f, 0.25f}, {0, 0})).f[0],
              (1 - delta) * 20 + delta * 30, kEps);
}

TEST(ScaleFactorOperation, OneDimensionalImagesIgnoreTAndThreeDimensionalUseDepth) {
  SamplingTestView line(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_1D, 8, 1, 1, 1, 4);
  for (uint32_t l = 0; l < 4; ++l) fillR32F(line, l, [l](uint32_t, uint32_t, uint32_t, uint32_t) { return 10.0f * (l + 1); });
  const abi::SamplerState s = bake(samplerInfo());
  // ∂t/∂x = 0 for 1D images, whatever the request holds: ρ = 0.25 × 8 = 2, λ = 1.
  EXPECT_NEAR(sampleImage(line.state, s, withGrad(at(0.3f), {0.25f, 100}, {0, 100})).f[0], 20, kEps);

  SamplingTestView vol(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_3D, 4, 4, 8, 1, 2);
  for (uint32_t l = 0; l < 2; ++l) fillR32F(vol, l, [l](uint32_t, uint32_t, uint32_t, uint32_t) { return 10.0f * (l + 1); });
  // m_wx = |∂r/∂x| × d_base = 0.25 × 8 = 2: λ = 1.
  EXPECT_NEAR(sampleImage(vol.state, s, withGrad(at(0.3f, 0.3f, 0.3f), {0, 0, 0.25f}, {0, 0, 0})).f[0], 20, kEps);
}

// ---- Array layers ---------------------------------------------------------------------------

TEST(ArrayLayerSelection, LayerIsRoundedTiesToEvenAndClamped) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 2, 2, 1, 4);
  fillR32F(view, 0, [](uint32_t, uint32_t, uint32_t, uint32_t layer) { return 10.0f * layer + 5; });
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR));
  // l = clamp(RNE(a), 0, layerCount - 1)
  const struct {
    float a;
    int layer;
  } cases[] = {{1.4f, 1}, {1.5f, 2}, {2.5f, 2}, {0.5f, 0}, {-3, 0}, {7, 3}, {3.49f, 3}, {-0.5f, 0}};
  for (auto c : cases) {
    SampleRequest req = at(0.5f, 0.5f);
    req.layer = c.a;
    EXPECT_NEAR(sampleImage(view.state, s, req).f[0], 10.0 * c.layer + 5, kEps) << "a = " << c.a;
  }
  // 1D arrays take the layer the same way.
  SamplingTestView lines(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_1D_ARRAY, 4, 1, 1, 3);
  fillR32F(lines, 0, [](uint32_t x, uint32_t, uint32_t, uint32_t layer) { return 10.0f * layer + x; });
  SampleRequest req = at(0.625f);  // u = 2.5 -> i = 2
  req.layer = 1.6f;               // -> 2
  EXPECT_NEAR(sampleImage(lines.state, bake(samplerInfo()), req).f[0], 22, kEps);
}

// ---- 3D images ------------------------------------------------------------------------------

TEST(TexelLinearFiltering, ThreeDimensionalImagesUseEightTexels) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_3D, 4, 4, 4);
  auto f = [](int x, int y, int z) { return double(x * y + z * z + 3 * x); };
  fillR32F(view, 0, [&](uint32_t x, uint32_t y, uint32_t z, uint32_t) { return float(f(x, y, z)); });
  // NEAREST at (u, v, w) = (2.25, 0.75, 3.5): (2, 0, 3).
  EXPECT_NEAR(sampleImage(view.state, bake(samplerInfo()), at(2.25f / 4, 0.75f / 4, 3.5f / 4)).f[0], f(2, 0, 3), kEps);
  // LINEAR at u = 1.75 (i0 = 1, α = 0.25), v = 2.25 (j0 = 1, β = 0.75),
  // w = 2.625 (k0 = 2, γ = 0.125): τ_3D = Σ w_i w_j w_k τ_ijk.
  const double a = 0.25, b = 0.75, g = 0.125;
  double want = 0;
  for (int dk = 0; dk < 2; ++dk)
    for (int dj = 0; dj < 2; ++dj)
      for (int di = 0; di < 2; ++di)
        want += (di ? a : 1 - a) * (dj ? b : 1 - b) * (dk ? g : 1 - g) * f(1 + di, 1 + dj, 2 + dk);
  EXPECT_NEAR(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(1.75f / 4, 2.25f / 4, 2.625f / 4)).f[0],
              want, kEps);
}

TEST(WrappingOperation, ThreeDimensionalImagesWrapKWithAddressModeW) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_3D, 4, 4, 4);
  fillR32F(view, 0, [](uint32_t x, uint32_t y, uint32_t z, uint32_t) { return float(100 * z + 10 * y + x); });
  VkSamplerCreateInfo info = samplerInfo();
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  // w = 4.5 -> k = 4 -> 4 mod 4 = 0; u, v clamp to edge: u = 4.5 -> 3.
  EXPECT_NEAR(sampleImage(view.state, bake(info), at(1.125f, 0.375f, 1.125f)).f[0], 0 + 10 + 3, kEps);
  // Δk = -1 at w = 3.5: k = 2.
  SampleRequest req = at(0.125f, 0.125f, 0.875f);
  req.offset[2] = -1;
  EXPECT_NEAR(sampleImage(view.state, bake(info), req).f[0], 200, kEps);
}

// ---- Cube maps --------------------------------------------------------------------------------

// 4x4 faces, R32F: texel (i, j) of layer L holds 100 L + 10 j + i.
SamplingTestView cubeView(VkImageViewType type = VK_IMAGE_VIEW_TYPE_CUBE, uint32_t layers = 6) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, type, 4, 4, 1, layers);
  fillR32F(view, 0, [](uint32_t x, uint32_t y, uint32_t, uint32_t layer) { return float(100 * layer + 10 * y + x); });
  return view;
}

TEST(CubeMapFaceSelection, EachMajorAxisSelectsItsFaceAndCoordinates) {
  SamplingTestView view = cubeView();
  const abi::SamplerState s = bake(samplerInfo());
  // "Cube Map Face and Coordinate Selection", s_face = s_c / (2 |r_c|) + 1/2 (t likewise);
  // |r_c| = 1 here, so ±0.6 gives 0.2 or 0.8, i.e. u = 0.8 -> 0 or u = 3.2 -> 3.
  const struct {
    float dir[3];
    double want;
  } cases[] = {
      {{1, -0.6f, 0.6f}, 0 + 30 + 0},    // +X: s_c = -r_z = -0.6, t_c = -r_y = 0.6 -> (0, 3)
      {{-1, -0.6f, 0.6f}, 100 + 30 + 3},  // -X: s_c = +r_z = 0.6, t_c = -r_y = 0.6 -> (3, 3)
      {{0.6f, 1, -0.6f}, 200 + 0 + 3},    // +Y: s_c = +r_x = 0.6, t_c = +r_z = -0.6 -> (3, 0)
      {{0.6f, -1, -0.6f}, 300 + 30 + 3},  // -Y: s_c = +r_x = 0.6, t_c = -r_z = 0.6 -> (3, 3)
      {{-0.6f, 0.6f, 1}, 400 + 0 + 0},    // +Z: s_c = +r_x = -0.6, t_c = -r_y = -0.6 -> (0, 0)
      {{-0.6f, 0.6f, -1}, 500 + 0 + 3},   // -Z: s_c = -r_x = 0.6, t_c = -r_y = -0.6 -> (3, 0)
  };
  for (auto c : cases) {
    EXPECT_NEAR(sampleImage(view.state, s, at(c.dir[0], c.dir[1], c.dir[2])).f[0], c.want, kEps);
    // Only the direction matters: a longer vector selects the same texel.
    EXPECT_NEAR(sampleImage(view.state, s, at(3 * c.dir[0], 3 * c.dir[1], 3 * c.dir[2])).f[0], c.want, kEps);
  }
}

TEST(CubeMapFaceSelection, TiesPreferZThenYAndAddressModesAreIgnored) {
  SamplingTestView view = cubeView();
  // REPEAT would wrap u = 4 to 0; cube maps use CLAMP_TO_EDGE with NEAREST instead.
  const abi::SamplerState s =
      bake(samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT));
  // (1, 1, 1): r_z wins -> +Z, s_c = 1 (u = 4 -> 3), t_c = -1 (v = 0 -> 0).
  EXPECT_NEAR(sampleImage(view.state, s, at(1, 1, 1)).f[0], 403, kEps);
  // (1, 1, 0.5): r_y wins over r_x -> +Y, s_c = r_x = 1 (i = 3), t_c = r_z = 0.5 (v = 3).
  EXPECT_NEAR(sampleImage(view.state, s, at(1, 1, 0.5f)).f[0], 233, kEps);
  // (-1, 0.5, -1): r_z wins -> -Z, s_c = -r_x = 1 (i = 3), t_c = -r_y = -0.5 (v = 1).
  EXPECT_NEAR(sampleImage(view.state, s, at(-1, 0.5f, -1)).f[0], 513, kEps);
}

TEST(CubeMapFaceSelection, CubeArraysSelectSixLayersPerCube) {
  SamplingTestView view = cubeView(VK_IMAGE_VIEW_TYPE_CUBE_ARRAY, 12);
  const abi::SamplerState s = bake(samplerInfo());
  SampleRequest req = at(-1, -0.6f, 0.6f);  // -X face, texel (3, 3)
  req.layer = 1.0f;                          // cube 1: layer 6 + 1 = 7
  EXPECT_NEAR(sampleImage(view.state, s, req).f[0], 733, kEps);
  req.layer = 5.0f;  // clamped to the last cube, 1
  EXPECT_NEAR(sampleImage(view.state, s, req).f[0], 733, kEps);
  req.layer = 0.4f;  // RNE -> cube 0
  EXPECT_NEAR(sampleImage(view.state, s, req).f[0], 133, kEps);
}

TEST(CubeMapEdgeHandling, LinearFilterReadsTheAdjacentFace) {
  SamplingTestView view = cubeView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR));
  // +X with direction (1, 0, -0.95): s_c = -r_z = 0.95 -> s_face = 0.975, u = 3.9: i0 = 3,
  // α = 0.4, i1 = 4 is beyond the face; t_c = 0 -> v = 2: j0 = 1, β = 0.5.
  // The s = 1 edge of +X (s_c = +1 means r_z = -1) is shared with -Z, where s_c = -r_x = -1,
  // i.e. -Z's s = 0 column: texel i = 0. Both faces have t_c = -r_y / |r_c|: the same row.
  // So τ_i1j0 = -Z (0, 1) = 510 and τ_i1j1 = -Z (0, 2) = 520.
  const double a = 0.4, b = 0.5;
  const double want = (1 - a) * (1 - b) * 13 + a * (1 - b) * 510 + (1 - a) * b * 23 + a * b * 520;
  EXPECT_NEAR(sampleImage(view.state, s, at(1, 0, -0.95f)).f[0], want, 1e-4);
}

TEST(CubeMapEdgeHandling, CornerTexelIsTheAverageOfTheThreeAdjacentTexels) {
  SamplingTestView view = cubeView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR));
  // +X with direction (1, -0.95, -0.95): u = v = 3.9, i0 = j0 = 3, α = β = 0.4.
  //  τ_i0j0 = +X (3, 3) = 33.
  //  τ_i1j0: beyond s = 1 -> -Z column 0, row 3: 530.
  //  τ_i0j1: beyond t = 1 (t_c = -r_y = 1: r_y = -1) -> -Y. On -Y s_c = r_x = +1 -> column 3;
  //          t_c = -r_z, and +X column 3 is at r_z = -0.75 -> t_c = 0.75 -> row 3: 333.
  //  τ_i1j1: the corner (1, -1, -1) shared by +X, -Y and -Z: (33 + 530 + 333) / 3.
  const double a = 0.4, b = 0.4, corner = (33.0 + 530 + 333) / 3;
  const double want = (1 - a) * (1 - b) * 33 + a * (1 - b) * 530 + (1 - a) * b * 333 + a * b * corner;
  EXPECT_NEAR(sampleImage(view.state, s, at(1, -0.95f, -0.95f)).f[0], want, 1e-4);
  // If the three texels are equal, so is the filtered value.
  SamplingTestView flat(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_CUBE, 4, 4, 1, 6);
  fillR32F(flat, 0, [](uint32_t, uint32_t, uint32_t, uint32_t) { return 7.0f; });
  EXPECT_NEAR(sampleImage(flat.state, s, at(1, -0.95f, -0.95f)).f[0], 7, kEps);
}

TEST(CubeMapEdgeHandling, LinearFilteringIsContinuousAcrossEveryEdgeAndCorner) {
  // With edge handling a cube map has no seams: just either side of an edge (or corner), both
  // faces filter the same texels with nearly the same weights. A wrong neighbouring face or
  // texel would differ by tens or hundreds in this pattern (100 face + 10 j + i).
  SamplingTestView view = cubeView();
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR));
  const float e = 1e-5f;
  auto sample = [&](const float d[3]) { return double(sampleImage(view.state, s, at(d[0], d[1], d[2])).f[0]); };
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 3; ++b) {
      if (a == b) continue;
      const int c = 3 - a - b;
      for (float sa : {-1.0f, 1.0f})
        for (float sb : {-1.0f, 1.0f})
          for (float along : {-0.6f, -0.1f, 0.3f, 0.7f}) {
            float d1[3], d2[3];
            d1[a] = sa, d1[b] = sb * (1 - e), d1[c] = along;  // major axis a
            d2[a] = sa * (1 - e), d2[b] = sb, d2[c] = along;  // major axis b
            EXPECT_NEAR(sample(d1), sample(d2), 0.1) << "edge " << a << b << " signs " << sa << sb << " at " << along;
          }
    }
  for (float sx : {-1.0f, 1.0f})
    for (float sy : {-1.0f, 1.0f})
      for (float sz : {-1.0f, 1.0f}) {
        const float dx[3] = {sx, sy * (1 - e), sz * (1 - e)}, dy[3] = {sx * (1 - e), sy, sz * (1 - e)},
                    dz[3] = {sx * (1 - e), sy * (1 - e), sz};
        EXPECT_NEAR(sample(dx), sample(dy), 0.1) << "corner " << sx << sy << sz;
        EXPECT_NEAR(sample(dx), sample(dz), 0.1) << "corner " << sx << sy << sz;
      }
}

TEST(CubeMapDerivativeTransformation, PerFaceDerivativesGiveTheLod) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_CUBE, 8, 8, 1, 6, 3);
  for (uint32_t l = 0; l < 3; ++l) fillR32F(view, l, [l](uint32_t, uint32_t, uint32_t, uint32_t) { return 10.0f * (l + 1); });
  const abi::SamplerState s = bake(samplerInfo());
  // +Z at (0, 0, 1): s_c = r_x = 0, r_c = 1. ∂s_face/∂x = 1/2 (|r_c| ∂s_c/∂x - s_c ∂r_c/∂x) / r_c²
  // = 1/2 × 0.5 = 0.25 for ∂r_x/∂x = 0.5; m_ux = 0.25 × 8 = 2: λ = 1.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(at(0, 0, 1), {0.5f, 0, 0}, {0, 0, 0})).f[0], 20, kEps);
  // +Z at (0.5, 0, 1): s_c = 0.5; with ∂r_z/∂x = 1 only: ∂s_face/∂x = 1/2 (0 - 0.5 × 1) / 1
  // = -0.25, m_ux = 2 again: λ = 1. With ∂r_z/∂x = 2: m_ux = 4, λ = 2.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(at(0.5f, 0, 1), {0, 0, 1}, {0, 0, 0})).f[0], 20, kEps);
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(at(0.5f, 0, 1), {0, 0, 2}, {0, 0, 0})).f[0], 30, kEps);
  // -X at (-1, 0, 0): ∂t_c/∂y = -∂r_y/∂y; ∂r_y/∂y = 1 -> |∂t_face/∂y| = 0.5, m_vy = 4: λ = 2.
  EXPECT_NEAR(sampleImage(view.state, s, withGrad(at(-1, 0, 0), {0, 0, 0}, {0, 1, 0})).f[0], 30, kEps);
}

// ---- Texel Gathering --------------------------------------------------------------------------

SampleRequest gatherAt(float s, float t, uint32_t component) {
  SampleRequest req = at(s, t);
  req.kind = SampleKind::Gather;
  req.gatherComponent = component;
  return req;
}

TEST(TexelGathering, ReturnsOneComponentOfTheLinearFootprint) {
  SamplingTestView view = patternView();
  const abi::SamplerState s = bake(samplerInfo());  // gathers use the LINEAR rules regardless
  // u = 1.75, v = 2.25: i0 = 1, j0 = 1. τ[R] = τ_i0j1, τ[G] = τ_i1j1, τ[B] = τ_i1j0,
  // τ[A] = τ_i0j0; component 2 of the pattern is 10x + y.
  expectFloats(sampleImage(view.state, s, gatherAt(1.75f / 4, 2.25f / 4, 2)), 12, 22, 21, 11);
  expectFloats(sampleImage(view.state, s, gatherAt(1.75f / 4, 2.25f / 4, 3)), 101, 102, 102, 101);
  // Offset (1, 1): i0 = 2, j0 = 2.
  SampleRequest req = gatherAt(1.75f / 4, 2.25f / 4, 2);
  req.offset[0] = 1, req.offset[1] = 1;
  expectFloats(sampleImage(view.state, s, req), 23, 33, 32, 22);
}

TEST(TexelGathering, ConstOffsetsPlaceEachTexelFromI0J0) {
  SamplingTestView view = patternView();
  const abi::SamplerState s = bake(samplerInfo());
  // τ[R] = τ_{i0j0 + Δ0}, ... with i0j0 = (1, 1).
  SampleRequest req = gatherAt(1.75f / 4, 2.25f / 4, 2);
  req.hasGatherOffsets = true;
  const int32_t offsets[4][2] = {{0, 0}, {1, 0}, {-1, -1}, {2, 1}};
  std::memcpy(req.gatherOffsets, offsets, sizeof offsets);
  expectFloats(sampleImage(view.state, s, req), 11, 21, 0, 32);
  // Wrapping applies to the offset texels: CLAMP_TO_EDGE (5, 0) -> (6, 1) -> (3, 1).
  req.gatherOffsets[0][0] = 5, req.gatherOffsets[0][1] = 0;
  EXPECT_NEAR(sampleImage(view.state, s, req).f[0], 31, kEps);
}

TEST(TexelGathering, UsesTheBaseLevelAndTheSwizzledComponent) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 4, 4, 1, 1, 2);
  fillRGBA32F(view, 0, [](uint32_t x, uint32_t y, uint32_t, uint32_t) { return pattern(x, y); });
  fillRGBA32F(view, 1, [](uint32_t, uint32_t, uint32_t, uint32_t) { return Vec4{{-1, -1, -1, -1}}; });
  const abi::SamplerState s = bake(samplerInfo());
  SampleRequest req = gatherAt(1.75f / 4, 2.25f / 4, 0);
  req.hasLod = true, req.lod = 1;  // ignored: gathers read level_base
  // Swizzle (A, B, G, R): component 0 gathers A = 100 + x, component 1 gathers B = 10x + y.
  view.setSwizzle(VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R);
  expectFloats(sampleImage(view.state, s, req), 101, 102, 102, 101);
  req.gatherComponent = 1;
  expectFloats(sampleImage(view.state, s, req), 12, 22, 21, 11);
  // A ONE swizzle gathers four ones.
  view.setSwizzle(VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A);
  req.gatherComponent = 0;
  expectFloats(sampleImage(view.state, s, req), 1, 1, 1, 1);
}

TEST(TexelGathering, IntegerViewsGatherIntegers) {
  SamplingTestView view(VK_FORMAT_R32_UINT, VK_IMAGE_VIEW_TYPE_2D, 4, 4);
  view.forEachTexel(0, [](uint8_t* p, uint32_t x, uint32_t y, uint32_t, uint32_t) {
    const uint32_t v = x + 4 * y;
    std::memcpy(p, &v, 4);
  });
  const TexelValue v = sampleImage(view.state, bake(samplerInfo()), gatherAt(1.75f / 4, 2.25f / 4, 0));
  // (i0, j1) = (1, 2) -> 9, (2, 2) -> 10, (2, 1) -> 6, (1, 1) -> 5.
  EXPECT_EQ(v.u[0], 9u); EXPECT_EQ(v.u[1], 10u); EXPECT_EQ(v.u[2], 6u); EXPECT_EQ(v.u[3], 5u);
}

// ---- Depth Compare Operation ------------------------------------------------------------------

// 2x2 D32_SFLOAT: (0,0) = 0.2, (1,0) = 0.4, (0,1) = 0.6, (1,1) = 0.8.
SamplingTestView depthView() {
  SamplingTestView view(VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  view.set<float>(0, 0, 0, 0, 0, {0.2f});
  view.set<float>(0, 1, 0, 0, 0, {0.4f});
  view.set<float>(0, 0, 1, 0, 0, {0.6f});
  view.set<float>(0, 1, 1, 0, 0, {0.8f});
  return view;
}

SampleRequest dref(SampleRequest req, float ref) {
  req.compare = true;
  req.dref = ref;
  return req;
}

abi::SamplerState compareSampler(VkCompareOp op, VkFilter filter = VK_FILTER_NEAREST,
                                 VkSamplerAddressMode mode = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                 VkBorderColor border = VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK) {
  VkSamplerCreateInfo info = samplerInfo(filter, VK_SAMPLER_MIPMAP_MODE_NEAREST, mode);
  info.compareEnable = VK_TRUE;
  info.compareOp = op;
  info.borderColor = border;
  return bake(info);
}

TEST(DepthCompareOperation, EveryCompareOpWithDrefAsReference) {
  SamplingTestView view = depthView();
  // "reference OP test" with reference = D_ref and test = D_tex = 0.4 (texel (1, 0)).
  const struct {
    VkCompareOp op;
    double below, equal, above;  // results for D_ref = 0.3, 0.4, 0.5
  } cases[] = {
      {VK_COMPARE_OP_NEVER, 0, 0, 0},         {VK_COMPARE_OP_LESS, 1, 0, 0},
      {VK_COMPARE_OP_EQUAL, 0, 1, 0},         {VK_COMPARE_OP_LESS_OR_EQUAL, 1, 1, 0},
      {VK_COMPARE_OP_GREATER, 0, 0, 1},       {VK_COMPARE_OP_NOT_EQUAL, 1, 0, 1},
      {VK_COMPARE_OP_GREATER_OR_EQUAL, 0, 1, 1}, {VK_COMPARE_OP_ALWAYS, 1, 1, 1},
  };
  const SampleRequest texel10 = at(0.75f, 0.25f);
  for (auto c : cases) {
    const abi::SamplerState s = compareSampler(c.op);
    // The result replaces D; "Conversion to RGBA" of a depth aspect: [D, 0, 0, 1].
    expectFloats(sampleImage(view.state, s, dref(texel10, 0.3f)), c.below, 0, 0, 1);
    expectFloats(sampleImage(view.state, s, dref(texel10, 0.4f)), c.equal, 0, 0, 1);
    expectFloats(sampleImage(view.state, s, dref(texel10, 0.5f)), c.above, 0, 0, 1);
  }
}

TEST(DepthCompareOperation, LinearFilteringFiltersTheComparisonResults) {
  SamplingTestView view = depthView();
  // u = v = 0.75: i0 = j0 = 0, α = β = 0.25; weights (0,0) 0.5625, (1,0) 0.1875,
  // (0,1) 0.1875, (1,1) 0.0625. GREATER with D_ref = 0.5 passes for 0.2 and 0.4: 0.75.
  // (Filtering depth first would give D = 0.35 and a result of 1.)
  EXPECT_NEAR(sampleImage(view.state, compareSampler(VK_COMPARE_OP_GREATER, VK_FILTER_LINEAR),
                          dref(at(0.375f, 0.375f), 0.5f)).f[0],
              0.75, kEps);
  EXPECT_NEAR(sampleImage(view.state, compareSampler(VK_COMPARE_OP_LESS, VK_FILTER_LINEAR),
                          dref(at(0.375f, 0.375f), 0.5f)).f[0],
              0.25, kEps);
  // At the centre all weights are 0.25: LESS with D_ref = 0.3 passes for 0.4, 0.6, 0.8.
  EXPECT_NEAR(sampleImage(view.state, compareSampler(VK_COMPARE_OP_LESS, VK_FILTER_LINEAR),
                          dref(at(0.5f, 0.5f), 0.3f)).f[0],
              0.75, kEps);
}

TEST(DepthCompareOperation, DrefIsClampedForUnormDepthOnly) {
  SamplingTestView d16(VK_FORMAT_D16_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d16.set<uint16_t>(0, 0, 0, 0, 0, {0});
  d16.set<uint16_t>(0, 1, 0, 0, 0, {0xFFFF});
  SamplingTestView d32(VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d32.set<float>(0, 0, 0, 0, 0, {0.0f});
  d32.set<float>(0, 1, 0, 0, 0, {1.0f});
  const abi::SamplerState le = compareSampler(VK_COMPARE_OP_LESS_OR_EQUAL);
  const abi::SamplerState ge = compareSampler(VK_COMPARE_OP_GREATER_OR_EQUAL);
  // D16 (UNORM): D_ref 1.5 -> 1, 1 <= 1.0 passes; -0.5 -> 0, 0 >= 0 passes.
  EXPECT_NEAR(sampleImage(d16.state, le, dref(at(0.75f, 0.5f), 1.5f)).f[0], 1, kEps);
  EXPECT_NEAR(sampleImage(d16.state, ge, dref(at(0.25f, 0.5f), -0.5f)).f[0], 1, kEps);
  // D32_SFLOAT: no clamp: 1.5 <= 1.0 fails, -0.5 >= 0 fails.
  EXPECT_NEAR(sampleImage(d32.state, le, dref(at(0.75f, 0.5f), 1.5f)).f[0], 0, kEps);
  EXPECT_NEAR(sampleImage(d32.state, ge, dref(at(0.25f, 0.5f), -0.5f)).f[0], 0, kEps);
}

TEST(DepthCompareOperation, BorderDepthIsComparedToo) {
  SamplingTestView view = depthView();
  // A border texel of a depth aspect has D = B_r, which is then compared.
  const SampleRequest outside = dref(at(-0.5f, 0.5f), 0.5f);
  EXPECT_NEAR(sampleImage(view.state,
                          compareSampler(VK_COMPARE_OP_LESS, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                         VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE),
                          outside).f[0],
              1, kEps);  // 0.5 < 1
  EXPECT_NEAR(sampleImage(view.state,
                          compareSampler(VK_COMPARE_OP_LESS, VK_FILTER_NEAREST, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER,
                                         VK_BORDER_COLOR_FLOAT_TRANSPARENT_BLACK),
                          outside).f[0],
              0, kEps);  // 0.5 < 0 fails
}

TEST(DepthCompareOperation, DrefGatherReturnsFourComparisonResults) {
  SamplingTestView view = depthView();
  SampleRequest req = dref(gatherAt(0.5f, 0.5f, 0), 0.5f);
  // i0 = j0 = 0: τ_i0j1 = 0.6, τ_i1j1 = 0.8, τ_i1j0 = 0.4, τ_i0j0 = 0.2; LESS 0.5 < D.
  expectFloats(sampleImage(view.state, compareSampler(VK_COMPARE_OP_LESS), req), 1, 1, 0, 0);
}

// ---- Reduction modes ---------------------------------------------------------------------------

TEST(TexelLinearFiltering, MinMaxReductionUsesTexelsWithNonZeroWeight) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 4, 4);
  fillR32F(view, 0, [](uint32_t x, uint32_t y, uint32_t, uint32_t) { return (x + y) % 2 ? 100.0f : -100.0f; });
  view.set<float>(0, 1, 1, 0, 0, {5});
  view.set<float>(0, 2, 1, 0, 0, {-3});
  view.set<float>(0, 1, 2, 0, 0, {7});
  view.set<float>(0, 2, 2, 0, 0, {9});
  const abi::SamplerState mn = bake(samplerInfo(VK_FILTER_LINEAR), VK_SAMPLER_REDUCTION_MODE_MIN);
  const abi::SamplerState mx = bake(samplerInfo(VK_FILTER_LINEAR), VK_SAMPLER_REDUCTION_MODE_MAX);
  // u = 1.75, v = 2.25: texels (1..2, 1..2), all weights non-zero.
  EXPECT_NEAR(sampleImage(view.state, mn, at(1.75f / 4, 2.25f / 4)).f[0], -3, kEps);
  EXPECT_NEAR(sampleImage(view.state, mx, at(1.75f / 4, 2.25f / 4)).f[0], 9, kEps);
  // u = 1.5: α = 0, so (2, 1) and (2, 2) have weight 0 and do not take part.
  EXPECT_NEAR(sampleImage(view.state, mn, at(1.5f / 4, 2.25f / 4)).f[0], 5, kEps);
  EXPECT_NEAR(sampleImage(view.state, mx, at(1.5f / 4, 2.25f / 4)).f[0], 7, kEps);
}

TEST(TexelMipmapFiltering, MinMaxReductionAcrossLevels) {
  SamplingTestView view(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 4, 4, 1, 1, 2);
  fillR32F(view, 0, [](uint32_t, uint32_t, uint32_t, uint32_t) { return 4.0f; });
  fillR32F(view, 1, [](uint32_t, uint32_t, uint32_t, uint32_t) { return 1.0f; });
  const VkSamplerCreateInfo info = samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR);
  const abi::SamplerState mn = bake(info, VK_SAMPLER_REDUCTION_MODE_MIN);
  const abi::SamplerState mx = bake(info, VK_SAMPLER_REDUCTION_MODE_MAX);
  // λ = 0.5: both levels weigh 0.5.
  EXPECT_NEAR(sampleImage(view.state, mn, withLod(at(0.5f, 0.5f), 0.5f)).f[0], 1, kEps);
  EXPECT_NEAR(sampleImage(view.state, mx, withLod(at(0.5f, 0.5f), 0.5f)).f[0], 4, kEps);
  // λ = 0: δ = 0, level d_lo has weight 0 and does not take part.
  EXPECT_NEAR(sampleImage(view.state, mn, withLod(at(0.5f, 0.5f), 0.0f)).f[0], 4, kEps);
  // Weighted average for comparison: 0.5 × 4 + 0.5 × 1.
  EXPECT_NEAR(sampleImage(view.state, bake(info), withLod(at(0.5f, 0.5f), 0.5f)).f[0], 2.5, kEps);
}

// ---- Integer formats ---------------------------------------------------------------------------

TEST(FormatConversion, IntegerViewsReturnIntegers) {
  SamplingTestView sint(VK_FORMAT_R32G32B32A32_SINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  sint.set<int32_t>(0, 1, 0, 0, 0, {-5, 7, INT32_MIN, INT32_MAX});
  TexelValue v = sampleImage(sint.state, bake(samplerInfo()), at(0.75f, 0.25f));
  EXPECT_EQ(v.i[0], -5); EXPECT_EQ(v.i[1], 7); EXPECT_EQ(v.i[2], INT32_MIN); EXPECT_EQ(v.i[3], INT32_MAX);
  // "Conversion to RGBA" of one- and two-component integer formats: one = integer 1.
  SamplingTestView r8(VK_FORMAT_R8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  r8.set<uint8_t>(0, 0, 1, 0, 0, {200});
  v = sampleImage(r8.state, bake(samplerInfo()), at(0.25f, 0.75f));
  EXPECT_EQ(v.u[0], 200u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 1u);
  SamplingTestView rg16(VK_FORMAT_R16G16_SINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  rg16.set<int16_t>(0, 1, 1, 0, 0, {-300, 12});
  v = sampleImage(rg16.state, bake(samplerInfo()), at(0.75f, 0.75f));
  EXPECT_EQ(v.i[0], -300); EXPECT_EQ(v.i[1], 12); EXPECT_EQ(v.i[2], 0); EXPECT_EQ(v.i[3], 1);
}

TEST(FormatConversion, IntegerViewsWithMinReductionFilterToATexelValue) {
  // MIN over the LINEAR footprint of integers is an integer: min of the four texels.
  SamplingTestView view(VK_FORMAT_R32_SINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  view.set<int32_t>(0, 0, 0, 0, 0, {40});
  view.set<int32_t>(0, 1, 0, 0, 0, {-7});
  view.set<int32_t>(0, 0, 1, 0, 0, {13});
  view.set<int32_t>(0, 1, 1, 0, 0, {99});
  const TexelValue v =
      sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR), VK_SAMPLER_REDUCTION_MODE_MIN), at(0.5f, 0.5f));
  EXPECT_EQ(v.i[0], -7);
}

TEST(FormatConversion, IntegerViewsWithLinearWeightedAverageSampleNearest) {
  // LINEAR filtering of integer formats is not allowed (no SAMPLED_IMAGE_FILTER_LINEAR);
  // Tessera's choice for that undefined case is NEAREST filter and mipmap mode.
  SamplingTestView view(VK_FORMAT_R32_UINT, VK_IMAGE_VIEW_TYPE_2D, 4, 4, 1, 1, 2);
  view.forEachTexel(0, [](uint8_t* p, uint32_t x, uint32_t y, uint32_t, uint32_t) {
    const uint32_t v = x + 4 * y;
    std::memcpy(p, &v, 4);
  });
  view.forEachTexel(1, [](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
    const uint32_t v = 1000;
    std::memcpy(p, &v, 4);
  });
  const abi::SamplerState s = bake(samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR));
  // u = 1.75, v = 2.25 -> NEAREST (1, 2) = 9 at λ = 0.25 (d = ceil(0.75) - 1 = 0) ...
  EXPECT_EQ(sampleImage(view.state, s, withLod(at(1.75f / 4, 2.25f / 4), 0.25f)).u[0], 9u);
  // ... and level 1 at λ = 0.75 (d = ceil(1.25) - 1 = 1).
  EXPECT_EQ(sampleImage(view.state, s, withLod(at(1.75f / 4, 2.25f / 4), 0.75f)).u[0], 1000u);
}

// ---- Unnormalized coordinates ------------------------------------------------------------------

TEST(UnnormalizedTexelCoordinateOperations, CoordinatesAreTexelUnitsOfTheBaseLevel) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 4, 4);
  fillRGBA32F(view, 0, [](uint32_t x, uint32_t y, uint32_t, uint32_t) { return pattern(x, y); });
  VkSamplerCreateInfo info = samplerInfo();
  info.unnormalizedCoordinates = VK_TRUE;
  info.maxLod = 0;
  // (u, v) = (2.5, 1.25): (2, 1). No LOD is computed: a Lod operand changes nothing.
  expectFloats(sampleImage(view.state, bake(info), at(2.5f, 1.25f)), pattern(2, 1));
  expectFloats(sampleImage(view.state, bake(info), withLod(at(2.5f, 1.25f), 3.0f)), pattern(2, 1));
  // LINEAR at (1, 1): i0 = j0 = 0, α = β = 0.5.
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  expectFloats(sampleImage(view.state, bake(info), at(1.0f, 1.0f)),
               bilinear([](int i, int j) { return pattern(i, j); }, 0, 0, 0.5, 0.5));
  // CLAMP_TO_BORDER: u = -0.5 -> i = -1 -> border (NEAREST).
  info.magFilter = info.minFilter = VK_FILTER_NEAREST;
  info.addressModeU = info.addressModeV = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK;
  expectFloats(sampleImage(view.state, bake(info), at(-0.5f, 1.0f)), 0, 0, 0, 1);
  // 1D: u only.
  SamplingTestView line(VK_FORMAT_R32_SFLOAT, VK_IMAGE_VIEW_TYPE_1D, 4, 1);
  fillR32F(line, 0, [](uint32_t x, uint32_t, uint32_t, uint32_t) { return 10.0f + x; });
  EXPECT_NEAR(sampleImage(line.state, bake(info), at(2.5f)).f[0], 12, kEps);
}

// ---- Depth and stencil aspects ------------------------------------------------------------------

TEST(ConversionToRgba, DepthAspectsReadAsD001) {
  SamplingTestView d16(VK_FORMAT_D16_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d16.set<uint16_t>(0, 0, 0, 0, 0, {0x8000});
  d16.set<uint16_t>(0, 1, 0, 0, 0, {0xFFFF});
  expectFloats(sampleImage(d16.state, bake(samplerInfo()), at(0.25f, 0.5f)), 32768 / 65535.0, 0, 0, 1);
  // LINEAR depth filtering (no compare): α = 0.5 at u = 1.
  expectFloats(sampleImage(d16.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(0.5f, 0.5f)),
               (32768 / 65535.0 + 1) / 2, 0, 0, 1);
  SamplingTestView d32(VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 1, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d32.set<float>(0, 0, 0, 0, 0, {0.25f});
  expectFloats(sampleImage(d32.state, bake(samplerInfo()), at(0.5f, 0.5f)), 0.25, 0, 0, 1);
  // D24: depth in the low 24 bits of a 4-byte texel.
  SamplingTestView d24(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 1, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d24.set<uint32_t>(0, 0, 0, 0, 0, {0x00800000});
  expectFloats(sampleImage(d24.state, bake(samplerInfo()), at(0.5f, 0.5f)), 8388608 / 16777215.0, 0, 0, 1);
}

TEST(ConversionToRgba, StencilAspectsReadAsUnsignedS001) {
  SamplingTestView s8(VK_FORMAT_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 1, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  s8.set<uint8_t>(0, 1, 0, 0, 0, {200});
  TexelValue v = sampleImage(s8.state, bake(samplerInfo()), at(0.75f, 0.5f));
  EXPECT_EQ(v.u[0], 200u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 1u);
  // The stencil plane of a combined format is also one byte per texel.
  SamplingTestView ds(VK_FORMAT_D32_SFLOAT_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 1, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  ds.set<uint8_t>(0, 0, 0, 0, 0, {17});
  ds.set<uint8_t>(0, 1, 0, 0, 0, {33});
  EXPECT_EQ(sampleImage(ds.state, bake(samplerInfo()), at(0.75f, 0.5f)).u[0], 33u);
  // Border: S = B_r of an integer border colour.
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  info.borderColor = VK_BORDER_COLOR_INT_OPAQUE_WHITE;
  v = sampleImage(s8.state, bake(info), at(1.5f, 0.5f));
  EXPECT_EQ(v.u[0], 1u); EXPECT_EQ(v.u[1], 0u); EXPECT_EQ(v.u[2], 0u); EXPECT_EQ(v.u[3], 1u);
}

// ---- Component Swizzle ---------------------------------------------------------------------------

TEST(ComponentSwizzle, RearrangesAndSubstitutesZeroAndOne) {
  SamplingTestView view = patternView();
  view.setSwizzle(VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_R);
  const Vec4 p = pattern(2, 1);
  expectFloats(sampleImage(view.state, bake(samplerInfo()), at(2.25f / 4, 1.75f / 4)), p.v[2], 1, 0, p.v[0]);
  // With LINEAR filtering: the swizzled components of the filtered value.
  const Vec4 f = bilinear([](int i, int j) { return pattern(i, j); }, 1, 1, 0.25, 0.75);
  expectFloats(sampleImage(view.state, bake(samplerInfo(VK_FILTER_LINEAR)), at(1.75f / 4, 2.25f / 4)), f.v[2], 1, 0,
               f.v[0]);
  // Integer views: ONE is integer 1.
  SamplingTestView rg(VK_FORMAT_R8G8_UINT, VK_IMAGE_VIEW_TYPE_2D, 1, 1);
  rg.set<uint8_t>(0, 0, 0, 0, 0, {3, 4});
  rg.setSwizzle(VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO);
  const TexelValue v = sampleImage(rg.state, bake(samplerInfo()), at(0.5f, 0.5f));
  EXPECT_EQ(v.u[0], 4u); EXPECT_EQ(v.u[1], 3u); EXPECT_EQ(v.u[2], 1u); EXPECT_EQ(v.u[3], 0u);
  // Depth: [D, 0, 0, 1] swizzled by (R, R, R, A).
  SamplingTestView d32(VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 1, 1, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  d32.set<float>(0, 0, 0, 0, 0, {0.75f});
  d32.setSwizzle(VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_A);
  expectFloats(sampleImage(d32.state, bake(samplerInfo()), at(0.5f, 0.5f)), 0.75, 0.75, 0.75, 1);
}

}  // namespace
}  // namespace tessera

namespace tessera {
namespace {

// "Image Level of Detail Query" (OpImageQueryLod): f[1] = λ' (λ_base from the derivatives plus
// the biases, before minLod/maxLod), f[0] = the level "Image Level(s) Selection" picks from λ:
// d for mipmapMode NEAREST, d' for LINEAR.
TEST(ImageLevelOfDetailQuery, LevelAndLambdaPrimeFromTheDerivatives) {
  test::SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, 7);
  auto query = [&](const abi::SamplerState& s, float dsdx, float bias = 0) {
    SampleRequest req = at(0.5f, 0.5f);
    req.kind = SampleKind::QueryLod;
    req.hasGrad = true;
    req.dPdx[0] = dsdx;  // ρ = 64 × dsdx
    req.dPdy[1] = dsdx / 2;
    req.bias = bias;
    const TexelValue v = sampleImage(view.state, s, req);
    return std::pair{v.f[0], v.f[1]};
  };
  VkSamplerCreateInfo info = samplerInfo(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST);
  info.mipLodBias = 0.5f;
  auto [level, lambda] = query(bake(info), 4.0f / 64);  // λ_base = 2, λ' = 2.5
  EXPECT_NEAR(lambda, 2.5, kEps);
  EXPECT_EQ(level, 2.0f) << "NEAREST: ceil(2.5 + 0.5) - 1 rounds the tie down";
  std::tie(level, lambda) = query(bake(info), 4.0f / 64, 0.75f);  // the shader's bias adds
  EXPECT_NEAR(lambda, 3.25, kEps);
  EXPECT_EQ(level, 3.0f);
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  std::tie(level, lambda) = query(bake(info), 4.0f / 64);
  EXPECT_NEAR(level, 2.5, kEps) << "LINEAR: d' itself";
  info.maxLod = 1.25f;  // λ is clamped, λ' is not
  std::tie(level, lambda) = query(bake(info), 4.0f / 64);
  EXPECT_NEAR(level, 1.25, kEps);
  EXPECT_NEAR(lambda, 2.5, kEps);
  info.maxLod = VK_LOD_CLAMP_NONE;
  std::tie(level, lambda) = query(bake(info), 1024.0f / 64);  // λ = 10 beyond the last level (6)
  EXPECT_NEAR(level, 6.0, kEps);
  // A zero footprint: λ_base = -inf; the level is the finest one.
  std::tie(level, lambda) = query(bake(info), 0.0f);
  EXPECT_TRUE(std::isinf(lambda) && lambda < 0);
  EXPECT_EQ(level, 0.0f);
}

}  // namespace
}  // namespace tessera
