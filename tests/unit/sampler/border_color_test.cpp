// Border colours of the reference sampler (sampling.h) against the Vulkan specification's
// "Image Operations" chapter: "Border Replacement" (table "Border Color B" with the custom
// colour U of VkSamplerCustomBorderColorCreateInfoEXT, and "Border Texel Components After
// Replacement"), "Conversion to RGBA" and "Component Swizzle", which VK_EXT_border_color_swizzle
// defines for border texels too: the border replaces the texel, then the view's swizzle applies
// (borderColorSwizzleFromImage). Every expected value is worked out here from those rules.
#include <gtest/gtest.h>

#include <cstring>

#include "sampling_test_view.h"
#include "tessera/sampling.h"

namespace tessera {
namespace {

using test::SamplingTestView;

// A NEAREST, CLAMP_TO_BORDER sampler with `border`; `custom`, when given, chained as
// VkSamplerCustomBorderColorCreateInfoEXT (with `format`).
abi::SamplerState borderSampler(VkBorderColor border, const VkClearColorValue* custom = nullptr,
                                VkFormat format = VK_FORMAT_UNDEFINED, VkFilter filter = VK_FILTER_NEAREST) {
  VkSamplerCustomBorderColorCreateInfoEXT cb{VK_STRUCTURE_TYPE_SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT};
  if (custom) cb.customBorderColor = *custom, cb.format = format;
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, custom ? &cb : nullptr};
  info.magFilter = info.minFilter = filter;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.borderColor = border;
  info.compareOp = VK_COMPARE_OP_LESS;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

VkClearColorValue floats(float r, float g, float b, float a) {
  VkClearColorValue v;
  v.float32[0] = r, v.float32[1] = g, v.float32[2] = b, v.float32[3] = a;
  return v;
}
VkClearColorValue ints(int32_t r, int32_t g, int32_t b, int32_t a) {
  VkClearColorValue v;
  v.int32[0] = r, v.int32[1] = g, v.int32[2] = b, v.int32[3] = a;
  return v;
}
VkClearColorValue uints(uint32_t r, uint32_t g, uint32_t b, uint32_t a) {
  VkClearColorValue v;
  v.uint32[0] = r, v.uint32[1] = g, v.uint32[2] = b, v.uint32[3] = a;
  return v;
}

// A sample left of the image (u < 0): i = -1 fails "Integer Texel Coordinate Validation".
SampleRequest outside() {
  SampleRequest r;
  r.s = -0.25f, r.t = 0.5f;
  return r;
}
SampleRequest inside() {
  SampleRequest r;
  r.s = 0.25f, r.t = 0.25f;
  return r;
}

void expectFloats(const TexelValue& v, float r, float g, float b, float a) {
  EXPECT_EQ(v.f[0], r);
  EXPECT_EQ(v.f[1], g);
  EXPECT_EQ(v.f[2], b);
  EXPECT_EQ(v.f[3], a);
}

TEST(MakeSamplerStateBorder, KeepsTheCustomColourWordsOnlyForCustomBorders) {
  const VkClearColorValue c = uints(0x11111111u, 0x22222222u, 0x33333333u, 0x44444444u);
  abi::SamplerState s = borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &c, VK_FORMAT_R32G32B32A32_UINT);
  EXPECT_EQ(s.borderColor, uint32_t(VK_BORDER_COLOR_INT_CUSTOM_EXT));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s.customBorderColor[i], c.uint32[i]);
  // A predefined colour ignores a chained custom colour (its words stay zero, so samplers that
  // differ only in an unused struct bake the same state).
  s = borderSampler(VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE, &c);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(s.customBorderColor[i], 0u);
}

// "Border Replacement": B = U for VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, a four-component float
// format takes all of B.
TEST(CustomBorderColor, FloatColourReplacesOutOfRangeTexels) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  view.set<float>(0, 0, 0, 0, 0, {9, 9, 9, 9});
  const VkClearColorValue c = floats(0.25f, -1.5f, 3.0e6f, 0.125f);
  const abi::SamplerState s = borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c, VK_FORMAT_R32G32B32A32_SFLOAT);
  expectFloats(sampleImage(view.state, s, outside()), 0.25f, -1.5f, 3.0e6f, 0.125f);
  // Inside the image the texel is read as usual.
  expectFloats(sampleImage(view.state, s, inside()), 9, 9, 9, 9);
}

// "Border Texel Components After Replacement" then "Conversion to RGBA": a two-component format
// keeps [B_r, B_g] and gets 0 and 1 for blue and alpha; an 8-bit UNORM one-component format
// keeps B_r (the custom colour is used as given, unrounded).
TEST(CustomBorderColor, FormatsTakeOnlyTheirComponents) {
  const VkClearColorValue c = floats(0.75f, 0.5f, 0.25f, 0.375f);
  SamplingTestView rg(VK_FORMAT_R32G32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  expectFloats(sampleImage(rg.state, borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c, VK_FORMAT_R32G32_SFLOAT),
                           outside()),
               0.75f, 0.5f, 0, 1);
  SamplingTestView r8(VK_FORMAT_R8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  expectFloats(sampleImage(r8.state, borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c), outside()), 0.75f, 0, 0, 1);
}

// Border texels are replaced before filtering ("Border Replacement" comes before "Texel
// Filtering"): LINEAR at u = 0 on a 2-wide image weighs texel -1 (border) and texel 0 by 1/2.
TEST(CustomBorderColor, ReplacesBeforeFiltering) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  view.forEachTexel(0, [](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
    const float v[4] = {1, 1, 1, 1};
    std::memcpy(p, v, 16);
  });
  const VkClearColorValue c = floats(0.5f, 0, -1, 3);
  SampleRequest r;
  r.s = 0.0f, r.t = 0.5f;  // u = 0: i0 = -1, i1 = 0, α = 0.5; v = 1: j0 = 0, β = 0.5
  const TexelValue v = sampleImage(view.state, borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c, VK_FORMAT_UNDEFINED,
                                                             VK_FILTER_LINEAR), r);
  expectFloats(v, 0.75f, 0.5f, 0, 2);
}

// VK_BORDER_COLOR_INT_CUSTOM_EXT on integer views: U's int32 words for SINT, uint32 words for
// UINT, exactly (values no float could hold included).
TEST(CustomBorderColor, IntegerColoursAreExactIntegers) {
  SamplingTestView sint(VK_FORMAT_R32G32B32A32_SINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  const VkClearColorValue si = ints(-7, 2147483647, -2147483647 - 1, 123456789);
  TexelValue v = sampleImage(sint.state, borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &si, VK_FORMAT_R32G32B32A32_SINT),
                             outside());
  EXPECT_EQ(v.i[0], -7);
  EXPECT_EQ(v.i[1], 2147483647);
  EXPECT_EQ(v.i[2], -2147483647 - 1);
  EXPECT_EQ(v.i[3], 123456789);
  SamplingTestView uint(VK_FORMAT_R32G32B32A32_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  const VkClearColorValue ui = uints(0xFFFFFFFFu, 16777217u, 0, 42);
  v = sampleImage(uint.state, borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &ui), outside());
  EXPECT_EQ(v.u[0], 0xFFFFFFFFu);
  EXPECT_EQ(v.u[1], 16777217u);
  EXPECT_EQ(v.u[2], 0u);
  EXPECT_EQ(v.u[3], 42u);
  // A one-component UINT format: [B_r, 0, 0, 1] ("one" is the integer 1).
  SamplingTestView r8ui(VK_FORMAT_R8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  const VkClearColorValue small = uints(200, 7, 7, 7);
  v = sampleImage(r8ui.state, borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &small, VK_FORMAT_R8_UINT), outside());
  EXPECT_EQ(v.u[0], 200u);
  EXPECT_EQ(v.u[1], 0u);
  EXPECT_EQ(v.u[2], 0u);
  EXPECT_EQ(v.u[3], 1u);
}

// Depth and stencil aspects: D = B_r (float custom colour), S = B_r (integer custom colour;
// the spec's recommended choice when the struct's format is VK_FORMAT_UNDEFINED), then
// "Conversion to RGBA" [D, 0, 0, 1] / [S, 0, 0, 1]; a Dref compare uses the border depth.
TEST(CustomBorderColor, DepthAndStencilTakeTheRedComponent) {
  SamplingTestView depth(VK_FORMAT_D32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  const VkClearColorValue d = floats(0.625f, 0.9f, 0.9f, 0.9f);
  const abi::SamplerState ds = borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &d, VK_FORMAT_D32_SFLOAT);
  expectFloats(sampleImage(depth.state, ds, outside()), 0.625f, 0, 0, 1);
  SampleRequest cmp = outside();
  cmp.compare = true;
  cmp.dref = 0.5f;  // LESS: 0.5 < 0.625 passes
  EXPECT_EQ(sampleImage(depth.state, ds, cmp).f[0], 1.0f);
  cmp.dref = 0.75f;
  EXPECT_EQ(sampleImage(depth.state, ds, cmp).f[0], 0.0f);

  SamplingTestView stencil(VK_FORMAT_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  const VkClearColorValue s = uints(77, 99, 99, 99);
  const TexelValue v = sampleImage(stencil.state, borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &s), outside());
  EXPECT_EQ(v.u[0], 77u);
  EXPECT_EQ(v.u[1], 0u);
  EXPECT_EQ(v.u[2], 0u);
  EXPECT_EQ(v.u[3], 1u);
}

// "Component Swizzle" on border texels (VK_EXT_border_color_swizzle,
// borderColorSwizzleFromImage): every VkComponentSwizzle value in every position, on a custom
// colour whose components are all different.
TEST(BorderColorSwizzle, TheViewsSwizzleAppliesToCustomColours) {
  const float b[4] = {0.25f, 0.5f, 0.75f, 0.125f};
  const VkClearColorValue c = floats(b[0], b[1], b[2], b[3]);
  const abi::SamplerState s = borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c, VK_FORMAT_R32G32B32A32_SFLOAT);
  const VkComponentSwizzle all[7] = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_ZERO, VK_COMPONENT_SWIZZLE_ONE,
                                     VK_COMPONENT_SWIZZLE_R,        VK_COMPONENT_SWIZZLE_G,    VK_COMPONENT_SWIZZLE_B,
                                     VK_COMPONENT_SWIZZLE_A};
  for (int position = 0; position < 4; ++position) {
    for (VkComponentSwizzle sw : all) {
      SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
      // Image views resolve IDENTITY to the component's own name (icd/image.cpp); the reference
      // is given what a view holds.
      VkComponentSwizzle mapping[4] = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B,
                                       VK_COMPONENT_SWIZZLE_A};
      mapping[position] = sw == VK_COMPONENT_SWIZZLE_IDENTITY ? VkComponentSwizzle(VK_COMPONENT_SWIZZLE_R + position) : sw;
      view.setSwizzle(mapping[0], mapping[1], mapping[2], mapping[3]);
      float want[4] = {b[0], b[1], b[2], b[3]};
      switch (sw) {
        case VK_COMPONENT_SWIZZLE_ZERO: want[position] = 0; break;
        case VK_COMPONENT_SWIZZLE_ONE: want[position] = 1; break;
        case VK_COMPONENT_SWIZZLE_IDENTITY: break;
        default: want[position] = b[sw - VK_COMPONENT_SWIZZLE_R]; break;
      }
      const TexelValue v = sampleImage(view.state, s, outside());
      for (int k = 0; k < 4; ++k) EXPECT_EQ(v.f[k], want[k]) << "position " << position << " swizzle " << sw;
    }
  }
}

// The opaque black colours, which VK_EXT_border_color_swizzle also defines with a non-identity
// swizzle: B = (0, 0, 0, 1) swizzled, e.g. (A, B, G, R) gives (1, 0, 0, 0). On a one-component
// format the replaced texel is [B_r] and "Conversion to RGBA" gives (0, 0, 0, 1) first, so
// (A, R, ONE, ZERO) gives (1, 0, 1, 0). Integer forms give the integers.
TEST(BorderColorSwizzle, OpaqueBlackIsSwizzledAfterConversionToRgba) {
  SamplingTestView rgba(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  rgba.setSwizzle(VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R);
  expectFloats(sampleImage(rgba.state, borderSampler(VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK), outside()), 1, 0, 0, 0);
  SamplingTestView r8(VK_FORMAT_R8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  r8.setSwizzle(VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_ONE, VK_COMPONENT_SWIZZLE_ZERO);
  expectFloats(sampleImage(r8.state, borderSampler(VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK), outside()), 1, 0, 1, 0);
  SamplingTestView ui(VK_FORMAT_R16G16B16A16_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  ui.setSwizzle(VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_R);
  const TexelValue v = sampleImage(ui.state, borderSampler(VK_BORDER_COLOR_INT_OPAQUE_BLACK), outside());
  EXPECT_EQ(v.u[0], 0u);
  EXPECT_EQ(v.u[1], 1u);
  EXPECT_EQ(v.u[2], 1u);
  EXPECT_EQ(v.u[3], 0u);
}

// A custom integer colour on a two-component UINT format through a swizzle that reads the
// components the format lacks: [B_r, B_g] -> RGBA (B_r, B_g, 0, 1) -> (B, A, G, R) swizzle.
TEST(BorderColorSwizzle, MissingComponentsAreFilledBeforeTheSwizzle) {
  SamplingTestView rg(VK_FORMAT_R32G32_UINT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  rg.setSwizzle(VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_R);
  const VkClearColorValue c = uints(5, 6, 7, 8);
  const TexelValue v = sampleImage(rg.state, borderSampler(VK_BORDER_COLOR_INT_CUSTOM_EXT, &c, VK_FORMAT_R32G32_UINT),
                                   outside());
  EXPECT_EQ(v.u[0], 0u);
  EXPECT_EQ(v.u[1], 1u);
  EXPECT_EQ(v.u[2], 6u);
  EXPECT_EQ(v.u[3], 5u);
}

// Gathers read one component of four border texels after the swizzle ("Texel Gathering").
TEST(BorderColorSwizzle, GatherReturnsTheSwizzledComponent) {
  SamplingTestView view(VK_FORMAT_R32G32B32A32_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 2, 2);
  view.setSwizzle(VK_COMPONENT_SWIZZLE_A, VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B);
  const VkClearColorValue c = floats(0.25f, 0.5f, 0.75f, 0.125f);
  SampleRequest r;
  r.kind = SampleKind::Gather;
  r.s = -2.0f, r.t = -2.0f;  // every texel of the footprint is a border texel
  r.gatherComponent = 0;     // the view's R = the border's A
  const TexelValue v = sampleImage(view.state, borderSampler(VK_BORDER_COLOR_FLOAT_CUSTOM_EXT, &c), r);
  expectFloats(v, 0.125f, 0.125f, 0.125f, 0.125f);
}

}  // namespace
}  // namespace tessera
