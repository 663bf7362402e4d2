// Sampling through a sampler Y'CbCr conversion (sampler/ycbcr_sampling.cpp) against the Vulkan
// specification's rules, each expected value worked out here by hand from them:
//  - "Sampler Y'CbCr Range Expansion": ITU full (C - 2^(n-1) / (2^n - 1)) and ITU narrow
//    (Y' = (Y (2^n - 1) - 16 * 2^(n-8)) / (219 * 2^(n-8)), C = (C (2^n - 1) - 128 * 2^(n-8)) / (224 * 2^(n-8)))
//    for n = 8 and n = 10;
//  - "Sampler Y'CbCr Model Conversion": the BT.601, BT.709 and BT.2020 matrices and the identities;
//  - "Chroma Reconstruction" (implicit): chroma sampled at u_chroma = (u + 0.5) / 2 (co-sited
//    even) or u / 2 (midpoint) with the chroma filter, the luma with the sampler's filter;
//  - the conversion's component swizzle, applied before range expansion;
//  - where the components are: multi-planar formats (the registry's plane order), the packed 4:2:2
//    formats (two luma samples and one chroma pair per 2x1 block), single-plane RGB formats.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "tessera/sampling.h"

namespace tessera {
namespace {

// An image held in host vectors, one per plane, and the states sampling reads.
struct YcbcrImage {
  std::vector<std::vector<uint8_t>> planes;
  abi::YcbcrSamplingState state{};
  abi::ImageViewState view{};

  YcbcrImage(VkFormat format, uint32_t width, uint32_t height, uint32_t layers = 1) {
    const FormatInfo& f = *formatInfo(format);
    state.format = uint32_t(format);
    state.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY;
    state.range = VK_SAMPLER_YCBCR_RANGE_ITU_FULL;
    for (uint32_t c = 0; c < 4; ++c) state.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
    state.xChromaOffset = state.yChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
    state.chromaFilter = VK_FILTER_NEAREST;
    state.chromaDivisorX = f.chromaDivisorX;
    state.chromaDivisorY = f.chromaDivisorY;
    state.planeCount = f.planeCount;
    planes.resize(f.planeCount);
    for (uint32_t p = 0; p < f.planeCount; ++p) {
      const FormatInfo& pf = f.planeCount > 1 ? *formatInfo(f.planes[p].compatible) : f;
      const uint32_t w = f.planeCount > 1 ? width / f.planes[p].widthDivisor : width;
      const uint32_t h = f.planeCount > 1 ? height / f.planes[p].heightDivisor : height;
      abi::YcbcrPlaneState& s = state.planes[p];
      s.width = w, s.height = h;
      s.format = uint32_t(pf.format);
      s.rowPitch = uint64_t((w + pf.blockWidth - 1) / pf.blockWidth) * pf.blockSize;
      s.layerPitch = s.rowPitch * h;
      planes[p].assign(s.layerPitch * layers, 0);
      s.base = planes[p].data();
    }
    prepareYcbcrSources(state);
    view.format = uint32_t(format);
    view.viewType = layers > 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    view.levelCount = 1;
    view.layerCount = layers;
    view.samples = 1;
    view.levels[0].width = width;
    view.levels[0].height = height;
    view.levels[0].depth = 1;
    view.ycbcr = &state;
  }
  uint8_t* texel(uint32_t plane, uint32_t x, uint32_t y, uint32_t bytes, uint32_t layer = 0) {
    return planes[plane].data() + layer * state.planes[plane].layerPitch + y * state.planes[plane].rowPitch + x * bytes;
  }
  void set8(uint32_t plane, uint32_t x, uint32_t y, std::initializer_list<uint8_t> bytes, uint32_t layer = 0) {
    std::memcpy(texel(plane, x, y, uint32_t(bytes.size()), layer), bytes.begin(), bytes.size());
  }
  // A 10-bit value in the top bits of a 16-bit word (the X6 formats).
  void set10(uint32_t plane, uint32_t x, uint32_t y, uint16_t value) {
    const uint16_t word = uint16_t(value << 6);
    std::memcpy(texel(plane, x, y, 2), &word, 2);
  }
};

abi::SamplerState sampler(VkFilter filter) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = info.minFilter = filter;
  info.addressModeU = info.addressModeV = info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 1.0f);
}

// The sample at luma texel (x, y)'s centre plus (dx, dy) texels, LOD 0.
TexelValue sampleAt(const YcbcrImage& image, VkFilter filter, double x, double y, float layer = 0) {
  SampleRequest r;
  r.s = float((x + 0.5) / image.view.levels[0].width);
  r.t = float((y + 0.5) / image.view.levels[0].height);
  r.layer = layer;
  r.hasLod = true;
  return sampleImage(image.view, sampler(filter), r);
}

constexpr double kTolerance = 1e-5;

TEST(YcbcrSampling, EveryFormatsComponentsReadAsTheTexelCodecDecodesThem) {
  // prepareYcbcrSources' component reads (a load, a shift and a mask) against the slow way: the
  // texel codec decoding the plane's whole texel ("Conversion From Normalized Fixed-Point to
  // Floating-Point"), or for the packed 4:2:2 formats the block's bits at the format table's
  // offsets. Every Y'CbCr format and every single-plane UNORM format a conversion may read,
  // random texels, NEAREST sampling with the identity model, full range and no swizzle, so the
  // result is the raw (R, G, B, A); chroma read at the MIDPOINT location (texel i / 2).
  std::mt19937 rng(17);
  int formats = 0;
  for (const FormatInfo& f : allFormats()) {
    const bool planar = f.planeCount > 1, packed422 = f.planeCount == 1 && f.blockWidth == 2 && f.needsYcbcrConversion;
    const bool singleUnorm = f.planeCount == 1 && !f.needsYcbcrConversion && hasColorCodec(f) && f.blockSize <= 8 &&
                             f.componentCount > 0 && f.components[0].numeric == NumericFormat::UNorm;
    if (!planar && !packed422 && !singleUnorm) continue;
    if (!f.needsYcbcrConversion && !singleUnorm) continue;
    SCOPED_TRACE(testing::Message() << "format " << f.format);
    ++formats;
    constexpr uint32_t kW = 8, kH = 4;
    YcbcrImage image(f.format, kW, kH);
    for (auto& plane : image.planes)
      for (uint8_t& b : plane) b = uint8_t(rng());
    for (uint32_t y = 0; y < kH; ++y)
      for (uint32_t x = 0; x < kW; ++x) {
        const TexelValue got = sampleAt(image, VK_FILTER_NEAREST, x, y);
        double expected[4] = {0, 0, 0, 1};
        uint32_t perPlane[3] = {}, greens = 0;
        for (uint32_t c = 0; c < f.componentCount; ++c) {
          const FormatComponent& comp = f.components[c];
          const uint32_t slot = comp.name == 'R' ? 0 : comp.name == 'G' ? 1 : comp.name == 'B' ? 2 : 3;
          const bool chroma = slot == 0 || slot == 2;
          const uint32_t px = chroma ? x / f.chromaDivisorX : x, py = chroma ? y / f.chromaDivisorY : y;
          if (packed422) {
            const uint32_t which = comp.name == 'G' ? greens++ : 0;
            if (comp.name == 'G' && which != x % 2) continue;  // the other G of the block
            const uint8_t* block = image.planes[0].data() + py * image.state.planes[0].rowPitch + (x / 2) * f.blockSize;
            uint64_t word = 0;
            std::memcpy(&word, block, f.blockSize);
            expected[slot] = double((word >> comp.bitOffset) & ((uint64_t(1) << comp.bits) - 1)) / double((uint64_t(1) << comp.bits) - 1);
            continue;
          }
          const uint32_t plane = planar ? comp.plane : 0;
          const FormatInfo& pf = *formatInfo(VkFormat(image.state.planes[plane].format));
          TexelValue decoded;
          decodeTexel(pf, image.planes[plane].data() + py * image.state.planes[plane].rowPitch + px * pf.blockSize, decoded);
          expected[slot] = decoded.f[planar ? perPlane[plane]++ : slot];
        }
        for (int c = 0; c < 4; ++c) ASSERT_EQ(got.f[c], float(expected[c])) << "texel " << x << "," << y << " component " << c;
      }
  }
  EXPECT_GE(formats, 40);  // the Y'CbCr formats alone are 33
}

TEST(YcbcrSampling, ThreePlane444ExpandsNarrowTenBitRangeAsTheSpecWrites) {
  // "Sampler Y'CbCr Range Expansion", n = 10: Y' = (Y - 64) / 876, Cb = (Cb - 512) / 896;
  // YCBCR_IDENTITY keeps them as (R, G, B) = (Cr, Y', Cb).
  YcbcrImage image(VK_FORMAT_G10X6_B10X6_R10X6_3PLANE_444_UNORM_3PACK16, 2, 2);
  image.state.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY;
  image.state.range = VK_SAMPLER_YCBCR_RANGE_ITU_NARROW;
  image.set10(0, 1, 0, 940);  // Y: top of the narrow range
  image.set10(1, 1, 0, 64);   // Cb (plane 1)
  image.set10(2, 1, 0, 960);  // Cr (plane 2)
  const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 1, 0);
  EXPECT_NEAR(v.f[0], (960.0 - 512.0) / 896.0, kTolerance);
  EXPECT_NEAR(v.f[1], (940.0 - 64.0) / 876.0, kTolerance);
  EXPECT_NEAR(v.f[2], (64.0 - 512.0) / 896.0, kTolerance);
  EXPECT_NEAR(v.f[3], 1.0, kTolerance);  // no alpha in the format
}

TEST(YcbcrSampling, ModelConversionsUseTheBt601Bt709AndBt2020Matrices) {
  // Full range, 8 bits: Y' = 150/255, Cb = 90/255 - 128/255, Cr = 170/255 - 128/255.
  const double y = 150.0 / 255, cb = (90.0 - 128.0) / 255, cr = (170.0 - 128.0) / 255;
  struct Model {
    VkSamplerYcbcrModelConversion model;
    double r, g, b;
  };
  const Model models[] = {
      {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601, y + 1.402 * cr, y - 0.202008 / 0.587 * cb - 0.419198 / 0.587 * cr,
       y + 1.772 * cb},
      {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709, y + 1.5748 * cr,
       y - 0.13397432 / 0.7152 * cb - 0.33480248 / 0.7152 * cr, y + 1.8556 * cb},
      {VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020, y + 1.4746 * cr,
       y - 0.11156702 / 0.6780 * cb - 0.38737742 / 0.6780 * cr, y + 1.8814 * cb},
  };
  for (const Model& m : models) {
    YcbcrImage image(VK_FORMAT_G8_B8R8_2PLANE_444_UNORM, 2, 2);
    image.state.model = m.model;
    image.set8(0, 0, 1, {150});
    image.set8(1, 0, 1, {90, 170});  // plane 1: Cb in R, Cr in G
    const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 0, 1);
    EXPECT_NEAR(v.f[0], m.r, kTolerance) << m.model;
    EXPECT_NEAR(v.f[1], m.g, kTolerance) << m.model;
    EXPECT_NEAR(v.f[2], m.b, kTolerance) << m.model;
  }
}

TEST(YcbcrSampling, ImplicitChromaReconstructionFollowsTheChromaLocation) {
  // 4:2:0, 3 planes, 4x2 luma, 2x1 chroma. Cb samples 40 and 200, Cr 10 and 250.
  YcbcrImage image(VK_FORMAT_G8_B8_R8_3PLANE_420_UNORM, 4, 2);
  for (uint32_t x = 0; x < 4; ++x) image.set8(0, x, 0, {uint8_t(100 + x)}), image.set8(0, x, 1, {uint8_t(100 + x)});
  image.set8(1, 0, 0, {40}), image.set8(1, 1, 0, {200});
  image.set8(2, 0, 0, {10}), image.set8(2, 1, 0, {250});
  image.state.chromaFilter = VK_FILTER_LINEAR;
  struct Case {
    VkChromaLocation location;
    uint32_t x;
    double cbWeight1;  // weight of chroma sample 1 (the rest on sample 0)
  };
  // Midpoint: u_chroma = u / 2 = (x + 0.5) / 2, linear weight of sample 1 = frac(u_chroma - 0.5)
  // once inside the plane: x = 1 -> 0.75 -> 0.25; x = 2 -> 1.25 -> 0.75; x = 0 -> 0.25 -> clamped 0.
  // Co-sited even: u_chroma = (u + 0.5) / 2 = (x + 1) / 2: x = 1 -> 1.0 -> 0.5; x = 2 -> 1.5 -> 1.
  const Case cases[] = {{VK_CHROMA_LOCATION_MIDPOINT, 0, 0.0},      {VK_CHROMA_LOCATION_MIDPOINT, 1, 0.25},
                        {VK_CHROMA_LOCATION_MIDPOINT, 2, 0.75},     {VK_CHROMA_LOCATION_MIDPOINT, 3, 1.0},
                        {VK_CHROMA_LOCATION_COSITED_EVEN, 0, 0.0}, {VK_CHROMA_LOCATION_COSITED_EVEN, 1, 0.5},
                        {VK_CHROMA_LOCATION_COSITED_EVEN, 2, 1.0}, {VK_CHROMA_LOCATION_COSITED_EVEN, 3, 1.0}};
  for (const Case& c : cases) {
    image.state.xChromaOffset = image.state.yChromaOffset = c.location;
    const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, c.x, 1);
    const double w = c.cbWeight1;
    EXPECT_NEAR(v.f[2], ((1 - w) * 40 + w * 200) / 255.0, kTolerance) << "Cb, location " << c.location << " x " << c.x;
    EXPECT_NEAR(v.f[0], ((1 - w) * 10 + w * 250) / 255.0, kTolerance) << "Cr, location " << c.location << " x " << c.x;
    // The luma keeps the sampler's NEAREST filter whatever the chroma filter.
    EXPECT_NEAR(v.f[1], (100.0 + c.x) / 255.0, kTolerance);
  }
  // NEAREST chroma at midpoint: luma texels 0-1 take sample 0, 2-3 sample 1.
  image.state.chromaFilter = VK_FILTER_NEAREST;
  image.state.xChromaOffset = VK_CHROMA_LOCATION_MIDPOINT;
  for (uint32_t x = 0; x < 4; ++x)
    EXPECT_NEAR(sampleAt(image, VK_FILTER_NEAREST, x, 0).f[2], (x < 2 ? 40 : 200) / 255.0, kTolerance) << x;
}

TEST(YcbcrSampling, LumaIsFilteredWithTheSamplersFilter) {
  // LINEAR luma halfway between texels 0 and 1 of a 2-plane 4:2:2 image.
  YcbcrImage image(VK_FORMAT_G8_B8R8_2PLANE_422_UNORM, 4, 1);
  image.set8(0, 0, 0, {20}), image.set8(0, 1, 0, {220});
  const TexelValue v = sampleAt(image, VK_FILTER_LINEAR, 0.5, 0);
  EXPECT_NEAR(v.f[1], 120.0 / 255.0, kTolerance);
}

TEST(YcbcrSampling, PackedFormatsHoldTwoLumaSamplesAndOneChromaPairPerBlock) {
  // G8B8G8R8_422: bytes G0 B G1 R; B8G8R8G8_422: B G0 R G1. Two blocks, 4x1 luma.
  struct Case {
    VkFormat format;
    uint8_t block0[4], block1[4];
  };
  const Case cases[] = {{VK_FORMAT_G8B8G8R8_422_UNORM, {11, 50, 22, 150}, {33, 60, 44, 160}},
                        {VK_FORMAT_B8G8R8G8_422_UNORM, {50, 11, 150, 22}, {60, 33, 160, 44}}};
  for (const Case& c : cases) {
    YcbcrImage image(c.format, 4, 1);
    std::memcpy(image.texel(0, 0, 0, 4), c.block0, 4);
    std::memcpy(image.texel(0, 1, 0, 4), c.block1, 4);
    const uint8_t luma[4] = {11, 22, 33, 44};
    for (uint32_t x = 0; x < 4; ++x) {
      const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, x, 0);
      EXPECT_NEAR(v.f[1], luma[x] / 255.0, kTolerance) << c.format << " x " << x;
      EXPECT_NEAR(v.f[2], (x < 2 ? 50 : 60) / 255.0, kTolerance) << c.format << " x " << x;   // Cb
      EXPECT_NEAR(v.f[0], (x < 2 ? 150 : 160) / 255.0, kTolerance) << c.format << " x " << x;  // Cr
    }
  }
}

TEST(YcbcrSampling, ComponentSwizzleComesBeforeRangeExpansion) {
  // Swapped chroma (r = B, b = R), YCBCR_IDENTITY, full range: R out = Cb - 128/255.
  YcbcrImage image(VK_FORMAT_G8_B8R8_2PLANE_444_UNORM, 1, 1);
  image.set8(0, 0, 0, {128});
  image.set8(1, 0, 0, {30, 230});
  image.state.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY;
  image.state.swizzle[0] = VK_COMPONENT_SWIZZLE_B;
  image.state.swizzle[2] = VK_COMPONENT_SWIZZLE_R;
  image.state.swizzle[3] = VK_COMPONENT_SWIZZLE_ZERO;
  const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 0, 0);
  EXPECT_NEAR(v.f[0], (30.0 - 128.0) / 255.0, kTolerance);
  EXPECT_NEAR(v.f[2], (230.0 - 128.0) / 255.0, kTolerance);
  EXPECT_NEAR(v.f[3], 0.0, kTolerance);
}

TEST(YcbcrSampling, SinglePlaneRgbFormatsAreConvertedToo) {
  // R8G8B8A8_UNORM read as (Cr, Y', Cb, A), BT.601 narrow range.
  YcbcrImage image(VK_FORMAT_R8G8B8A8_UNORM, 1, 1);
  image.set8(0, 0, 0, {240, 235, 16, 77});
  image.state.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601;
  image.state.range = VK_SAMPLER_YCBCR_RANGE_ITU_NARROW;
  const double y = (235.0 - 16.0) / 219.0, cb = (16.0 - 128.0) / 224.0, cr = (240.0 - 128.0) / 224.0;
  const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 0, 0);
  EXPECT_NEAR(v.f[0], y + 1.402 * cr, kTolerance);
  EXPECT_NEAR(v.f[1], y - 0.202008 / 0.587 * cb - 0.419198 / 0.587 * cr, kTolerance);
  EXPECT_NEAR(v.f[2], y + 1.772 * cb, kTolerance);
  EXPECT_NEAR(v.f[3], 77.0 / 255.0, kTolerance);
}

TEST(YcbcrSampling, FewerThanEightBitsExpandWithTheirOwnBitCount) {
  // R5G6B5: n = 5 for Cr and Cb, 6 for Y'; narrow range scales by 2^(n-8), a fraction here:
  // Cr = (R * 31 - 128 / 8) / (224 / 8), Y' = (G * 63 - 16 / 4) / (219 / 4).
  YcbcrImage image(VK_FORMAT_R5G6B5_UNORM_PACK16, 1, 1);
  const uint16_t texel = uint16_t(20u << 11 | 40u << 5 | 3u);  // R = 20, G = 40, B = 3
  std::memcpy(image.texel(0, 0, 0, 2), &texel, 2);
  image.state.model = VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY;
  image.state.range = VK_SAMPLER_YCBCR_RANGE_ITU_NARROW;
  const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 0, 0);
  EXPECT_NEAR(v.f[0], (20.0 - 16.0) / 28.0, kTolerance);
  EXPECT_NEAR(v.f[1], (40.0 - 4.0) / 54.75, kTolerance);
  EXPECT_NEAR(v.f[2], (3.0 - 16.0) / 28.0, kTolerance);
}

TEST(YcbcrSampling, ArrayViewsReadTheSelectedLayer) {
  // VK_EXT_ycbcr_image_arrays: layer 1 of a 2-layer NV12 image.
  YcbcrImage image(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM, 2, 2, 2);
  image.set8(0, 0, 0, {10}, 0), image.set8(1, 0, 0, {20, 30}, 0);
  image.set8(0, 0, 0, {110}, 1), image.set8(1, 0, 0, {120, 130}, 1);
  const TexelValue v = sampleAt(image, VK_FILTER_NEAREST, 0, 0, 1.0f);
  EXPECT_NEAR(v.f[1], 110.0 / 255.0, kTolerance);
  EXPECT_NEAR(v.f[2], 120.0 / 255.0, kTolerance);
  EXPECT_NEAR(v.f[0], 130.0 / 255.0, kTolerance);
}

}  // namespace
}  // namespace tessera
