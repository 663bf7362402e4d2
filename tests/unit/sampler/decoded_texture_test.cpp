// Decoded copies of compressed images (decoded_texture.h): every texel of a BC1 copy against the
// "Block decoding for BC1" palette (Khronos Data Format Specification, S3TC) rounded to the
// nearest byte, computed here in integers, and of a BC7, BC6H or ETC2 copy against the
// reference's decode of the block; sampling a BC1 copy (viewToSample) against sampling the blocks
// through the fixed-point routine it replaces, bit for bit, on random batches at every W and
// sampler class; sampling the other copies against the reference on the blocks (bit for bit
// where the copy takes an exact routine; within the fixed-point routine's snapping where it takes
// that); what written() makes current() decode again; the budget.
#include "tessera/decoded_texture.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "sampling_test_view.h"
#include "tessera/compressed.h"
#include "tessera/texel_codec.h"
#include "tessera/format.h"
#include "tessera/sampling.h"
#include "tessera/sampling_batch.h"
#include "tessera/sampling_cube.h"

namespace tessera {
namespace {

using test::SamplingTestView;

// A BC1 view of random blocks (both palette modes: colour_0 > colour_1 or not).
struct Bc1Image {
  SamplingTestView view;
  Bc1Image(VkFormat format, VkImageViewType type, uint32_t width, uint32_t height, uint32_t layers, uint32_t levels,
           std::mt19937& rng)
      : view(format, type, width, height, 1, layers, levels) {
    for (uint32_t l = 0; l < levels; ++l) randomize(l, rng);
    view.state.fastSampling = classifyViewForRoutines(view.state);
  }
  uint8_t* block(uint32_t level, uint32_t layer, uint32_t bx, uint32_t by) {
    const abi::ImageLevel& lv = view.state.levels[level];
    return lv.base + lv.layerPitch * layer + lv.rowPitch * by + 8 * bx;
  }
  void randomize(uint32_t level, std::mt19937& rng, uint32_t onlyLayer = ~0u) {
    const abi::ImageLevel& lv = view.state.levels[level];
    for (uint32_t layer = 0; layer < view.state.layerCount; ++layer) {
      if (onlyLayer != ~0u && layer != onlyLayer) continue;
      for (uint32_t by = 0; by * 4 < lv.height; ++by)
        for (uint32_t bx = 0; bx * 4 < lv.width; ++bx)
          for (int i = 0; i < 8; ++i) block(level, layer, bx, by)[i] = uint8_t(rng());
    }
  }
  // The texel (x, y) as the data format specification decodes it, each component's exact value
  // n / D (D = den (2^b - 1)) rounded to the nearest byte, halves up: floor((510 n + D) / 2D).
  uint32_t expected(uint32_t level, uint32_t layer, uint32_t x, uint32_t y) {
    const uint8_t* b = block(level, layer, x / 4, y / 4);
    const uint32_t c0 = uint32_t(b[0]) | uint32_t(b[1]) << 8, c1 = uint32_t(b[2]) | uint32_t(b[3]) << 8;
    const uint32_t bits = uint32_t(b[4]) | uint32_t(b[5]) << 8 | uint32_t(b[6]) << 16 | uint32_t(b[7]) << 24;
    const uint32_t code = bits >> (2 * (4 * (y % 4) + x % 4)) & 3;
    uint32_t w0, w1, den;
    if (c0 > c1) {
      const uint32_t weights[4][3] = {{1, 0, 1}, {0, 1, 1}, {2, 1, 3}, {1, 2, 3}};
      w0 = weights[code][0], w1 = weights[code][1], den = weights[code][2];
    } else {
      const uint32_t weights[4][3] = {{1, 0, 1}, {0, 1, 1}, {1, 1, 2}, {0, 0, 1}};
      w0 = weights[code][0], w1 = weights[code][1], den = weights[code][2];
    }
    auto byte = [&](uint32_t shift, uint32_t width) {
      const uint32_t mask = (1u << width) - 1;
      const uint64_t n = w0 * (c0 >> shift & mask) + w1 * (c1 >> shift & mask);
      const uint64_t d = uint64_t(den) * mask;
      return uint32_t((510 * n + d) / (2 * d));
    };
    const bool transparent = view.state.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK && c0 <= c1 && code == 3;
    return byte(11, 5) | byte(5, 6) << 8 | byte(0, 5) << 16 | (transparent ? 0u : 255u) << 24;
  }
};

uint32_t copyTexel(const DecodedTexture& texture, uint32_t level, uint32_t layer, uint32_t x, uint32_t y) {
  const abi::ImageLevel l = texture.level(level, layer);
  uint32_t v;
  std::memcpy(&v, l.base + l.rowPitch * y + 4 * x, 4);
  return v;
}

void expectCopyMatches(Bc1Image& image, const DecodedTexture& texture, const std::string& what) {
  const abi::ImageViewState& s = image.view.state;
  for (uint32_t level = 0; level < s.levelCount; ++level)
    for (uint32_t layer = 0; layer < s.layerCount; ++layer)
      for (uint32_t y = 0; y < s.levels[level].height; ++y)
        for (uint32_t x = 0; x < s.levels[level].width; ++x)
          ASSERT_EQ(copyTexel(texture, level, layer, x, y), image.expected(level, layer, x, y))
              << what << " level " << level << " layer " << layer << " texel " << x << "," << y;
}

// "Block decoding for BC1": every texel of levels whose sides are not multiples of 4 (the last
// blocks' texels past the edge are not stored), in both formats.
TEST(DecodedTexture, EveryTexelIsTheNearestByteOfTheBc1Palette) {
  std::mt19937 rng(20261201);
  for (VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK}) {
    Bc1Image image(format, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 37, 22, 3, 4, rng);
    DecodedTextureBudget budget(uint64_t(1) << 30);
    DecodedTexture texture(image.view.state, budget);
    ASSERT_TRUE(texture.current());
    expectCopyMatches(image, texture, "format " + std::to_string(format));
  }
}

// A view of a compressed image kept decoded: the image's own state without its copy (`blocks`)
// and with it (`kept`), the copy within a budget it fits.
struct CopiedView {
  explicit CopiedView(const abi::ImageViewState& state)
      : texture(state, budget), decodedView(texture, 0, 0), blocks(state), kept(state) {
    blocks.decoded = nullptr;
    kept.decoded = &decodedView;
  }
  DecodedTextureBudget budget{uint64_t(1) << 30};
  DecodedTexture texture;
  DecodedView decodedView;
  abi::ImageViewState blocks, kept;
};

abi::SamplerState sampler(VkFilter filter, VkFilter minFilter, VkSamplerMipmapMode mip, VkSamplerAddressMode mode,
                          float maxAnisotropy) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = filter;
  info.minFilter = minFilter;
  info.mipmapMode = mip;
  info.addressModeU = info.addressModeV = mode;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.anisotropyEnable = maxAnisotropy > 1;
  info.maxAnisotropy = maxAnisotropy;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

// The copy is what the batches sample wherever the fixed-point routine would read the blocks,
// and gives its bits: random batches (coordinates within a few repeats, gradients from
// magnification to several levels down, anisotropic footprints, Lod operands, offsets, array
// layers, random active lanes) through the routine of the blocks and through viewToSample's
// copy, at W = 4, 8, 16, for every filter pair, mipmap mode and address mode and anisotropy.
TEST(DecodedTexture, SamplingTheCopyGivesTheBlockRoutinesBits) {
  std::mt19937 rng(20261202);
  auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  uint32_t batches = 0;
  for (VkFormat format : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK})
    for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY}) {
      const uint32_t layers = type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? 3 : 1;
      Bc1Image image(format, type, 64 + rng() % 40, 32 + rng() % 40, layers, 1 + rng() % 6, rng);
      CopiedView copied(image.view.state);
      const abi::ImageViewState& blocks = copied.blocks;
      const abi::ImageViewState& kept = copied.kept;
      for (VkFilter mag : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
        for (VkFilter min : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
          for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
            for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                              VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE})
              for (float aniso : {1.0f, 4.0f, 16.0f}) {
                const abi::SamplerState s = sampler(mag, min, mip, mode, aniso);
                for (uint32_t width : {4u, 8u, 16u}) {
                  SampleShape shape;
                  shape.width = width;
                  const SampleRoutine blockRoutine = findSampleRoutine(blocks, s, shape);
                  const abi::ImageViewState& chosen = viewToSample(kept, s, shape);
                  // BC1's every routine is a fixed-point one (anisotropic samplers with two
                  // different filters have none): where there is none, the view stays.
                  const bool fixedPoint = blockRoutine != nullptr;
                  ASSERT_EQ(&chosen != &kept, fixedPoint)
                      << "format " << format << " mag " << mag << " min " << min << " aniso " << aniso;
                  if (!fixedPoint) continue;
                  ASSERT_EQ(chosen.format, uint32_t(VK_FORMAT_R8G8B8A8_UNORM));
                  const SampleRoutine copyRoutine = findSampleRoutine(chosen, s, shape);
                  ASSERT_NE(copyRoutine, nullptr);
                  for (int n = 0; n < 16; ++n) {
                    std::vector<float> sc(width), tc(width), layer(width), lod(width), g[4];
                    std::vector<int32_t> off[2];
                    for (auto& v : g) v.resize(width);
                    for (auto& v : off) v.resize(width);
                    const int kind = int(rng() % 3);  // gradients, Lod, gradients with offsets
                    for (uint32_t l = 0; l < width; ++l) {
                      sc[l] = uniform(-2.0f, 3.0f), tc[l] = uniform(-2.0f, 3.0f);
                      layer[l] = uniform(-0.5f, float(layers) + 0.5f);
                      lod[l] = uniform(-1.0f, 7.0f);
                      const float scale = std::ldexp(1.0f, int(rng() % 12) - 10);
                      for (auto& v : g) v[l] = uniform(-1.0f, 1.0f) * scale;
                      off[0][l] = int32_t(rng() % 16) - 8, off[1][l] = int32_t(rng() % 16) - 8;
                    }
                    SampleLanes lanes;
                    lanes.width = width;
                    lanes.active = rng() % 4 ? (1u << width) - 1 : (uint32_t(rng()) & ((1u << width) - 1)) | 1u;
                    lanes.s = sc.data(), lanes.t = tc.data();
                    if (type == VK_IMAGE_VIEW_TYPE_2D_ARRAY) lanes.layer = layer.data();
                    if (kind == 1) {
                      lanes.lod = lod.data();
                    } else {
                      lanes.dPdx[0] = g[0].data(), lanes.dPdx[1] = g[1].data(), lanes.dPdy[0] = g[2].data(),
                      lanes.dPdy[1] = g[3].data();
                    }
                    if (kind == 2) lanes.offset[0] = off[0].data(), lanes.offset[1] = off[1].data();
                    std::vector<uint32_t> fromBlocks(4 * width), fromCopy(4 * width);
                    blockRoutine(blocks, s, lanes, fromBlocks.data());
                    copyRoutine(chosen, s, lanes, fromCopy.data());
                    ASSERT_EQ(fromCopy, fromBlocks) << "format " << format << " type " << type << " mag " << mag << " min "
                                                    << min << " mip " << mip << " mode " << mode << " aniso " << aniso
                                                    << " W=" << width << " operands " << kind;
                    ++batches;
                  }
                }
              }
    }
  EXPECT_EQ(batches, 9216u);  // 576 samplers and widths with a routine, 16 batches each
}

// Gathers, depth compares and views of other shapes read the blocks: only a sample that the
// fixed-point routine would take is redirected.
TEST(DecodedTexture, OtherInstructionsReadTheBlocks) {
  std::mt19937 rng(7);
  Bc1Image image(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 16, 16, 1, 1, rng);
  DecodedTextureBudget budget(uint64_t(1) << 20);
  DecodedTexture texture(image.view.state, budget);
  DecodedView decodedView(texture, 0, 0);
  image.view.state.decoded = &decodedView;
  const abi::SamplerState s = sampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                      VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.0f);
  EXPECT_NE(&viewToSample(image.view.state, s, SampleShape{true, false, 2, 8}), &image.view.state);
  EXPECT_EQ(&viewToSample(image.view.state, s, SampleShape{false, false, 2, 8}), &image.view.state);  // gather
  EXPECT_EQ(&viewToSample(image.view.state, s, SampleShape{true, true, 2, 8}), &image.view.state);   // Dref
  EXPECT_EQ(&viewToSample(image.view.state, s, SampleShape{true, false, 2, 5}), &image.view.state);  // no routine width
}

// written() marks what a transfer wrote; current() decodes those subresources again and keeps
// the others (a write the image's owner did not report is not seen: decoded_texture.h's
// contract, which icd/ keeps by reporting every transfer into such an image).
TEST(DecodedTexture, WrittenSubresourcesAreDecodedAgain) {
  std::mt19937 rng(11);
  Bc1Image image(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 24, 20, 2, 3, rng);
  DecodedTextureBudget budget(uint64_t(1) << 20);
  DecodedTexture texture(image.view.state, budget);
  ASSERT_TRUE(texture.current());
  expectCopyMatches(image, texture, "first decode");
  const uint32_t unreported = copyTexel(texture, 0, 1, 5, 5);
  image.randomize(1, rng, 0);
  image.randomize(0, rng, 1);
  texture.written(1, 0, 1);
  ASSERT_TRUE(texture.current());
  EXPECT_EQ(copyTexel(texture, 1, 0, 3, 2), image.expected(1, 0, 3, 2));
  EXPECT_EQ(copyTexel(texture, 0, 1, 5, 5), unreported);
  texture.written(0, 0, 2);
  // Several threads asking at once: one decodes, all see the result.
  std::vector<std::thread> threads;
  std::vector<char> ok(4, 0);
  for (int i = 0; i < 4; ++i) threads.emplace_back([&, i] { ok[i] = texture.current(); });
  for (auto& t : threads) t.join();
  EXPECT_EQ(ok, std::vector<char>(4, 1));
  expectCopyMatches(image, texture, "after the writes");
}

// A view of random blocks of a block-compressed format (every BC7 and BC6H mode, the reserved
// ones too, and every ETC2 mode, by the random mode bits).
struct RandomBlocks {
  SamplingTestView view;
  uint32_t blockBytes;
  RandomBlocks(VkFormat format, VkImageViewType type, uint32_t width, uint32_t height, uint32_t layers, uint32_t levels,
               std::mt19937& rng)
      : view(format, type, width, height, 1, layers, levels), blockBytes(formatInfo(format)->blockSize) {
    for (uint32_t l = 0; l < levels; ++l) {
      const abi::ImageLevel& lv = view.state.levels[l];
      for (uint32_t layer = 0; layer < layers; ++layer)
        for (uint32_t by = 0; by * 4 < lv.height; ++by)
          for (uint32_t bx = 0; bx * 4 < lv.width; ++bx)
            for (uint32_t i = 0; i < blockBytes; ++i) block(l, layer, bx, by)[i] = uint8_t(rng());
    }
    view.state.fastSampling = classifyViewForRoutines(view.state);
  }
  uint8_t* block(uint32_t level, uint32_t layer, uint32_t bx, uint32_t by) {
    const abi::ImageLevel& lv = view.state.levels[level];
    return lv.base + lv.layerPitch * layer + lv.rowPitch * by + blockBytes * bx;
  }
};

// The formats whose texels are integers the copy holds exactly: BC7 (8-bit RGBA), BC6H (halves),
// ETC2's colour formats (8-bit RGBA).
const VkFormat kExactFormats[] = {VK_FORMAT_BC7_UNORM_BLOCK,          VK_FORMAT_BC7_SRGB_BLOCK,
                                  VK_FORMAT_BC6H_UFLOAT_BLOCK,        VK_FORMAT_BC6H_SFLOAT_BLOCK,
                                  VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK,  VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK,
                                  VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK,
                                  VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK};

// Every texel of the copy, read as a texel of the copy's format (the texel codec), is bit for bit
// the reference's decode of the block (decodeCompressedBlock).
TEST(DecodedTexture, ExactCopiesAreTheReferencesTexels) {
  std::mt19937 rng(77);
  for (VkFormat format : kExactFormats) {
    RandomBlocks image(format, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 29, 18, 2, 3, rng);
    DecodedTextureBudget budget(uint64_t(1) << 20);
    DecodedTexture texture(image.view.state, budget);
    ASSERT_TRUE(DecodedTexture::decodable(format)) << format;
    ASSERT_TRUE(texture.current());
    const FormatInfo& copy = *formatInfo(VkFormat(texture.copyFormat()));
    const abi::ImageViewState& s = image.view.state;
    for (uint32_t level = 0; level < s.levelCount; ++level)
      for (uint32_t layer = 0; layer < s.layerCount; ++layer)
        for (uint32_t y = 0; y < s.levels[level].height; ++y)
          for (uint32_t x = 0; x < s.levels[level].width; ++x) {
            TexelValue reference[16];
            ASSERT_TRUE(decodeCompressedBlock(*formatInfo(format), image.block(level, layer, x / 4, y / 4), reference));
            const abi::ImageLevel l = texture.level(level, layer);
            TexelValue got;
            decodeTexel(copy, l.base + l.rowPitch * y + copy.blockSize * x, got);
            for (uint32_t c = 0; c < 4; ++c)
              ASSERT_EQ(got.u[c], reference[4 * (y % 4) + x % 4].u[c])
                  << "format " << format << " level " << level << " layer " << layer << " texel " << x << "," << y
                  << " component " << c;
          }
  }
}

// One batch of `width` active lanes at random coordinates within a few repeats, with random
// gradients from magnification to several levels down: `out`, the routine's results on `sampled`
// (component c of lane l at c x width + l); `reference`, sampleImage's on `blocks` per lane.
void routineAndReference(SampleRoutine routine, const abi::ImageViewState& sampled, const abi::ImageViewState& blocks,
                         const abi::SamplerState& s, uint32_t width, std::mt19937& rng, std::vector<uint32_t>& out,
                         std::vector<TexelValue>& reference) {
  auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  std::vector<float> sc(width), tc(width), g[4];
  for (auto& v : g) v.resize(width);
  for (uint32_t l = 0; l < width; ++l) {
    sc[l] = uniform(-1.5f, 2.5f), tc[l] = uniform(-1.5f, 2.5f);
    const float scale = std::ldexp(1.0f, int(rng() % 10) - 8);
    for (auto& v : g) v[l] = uniform(-1.0f, 1.0f) * scale;
  }
  SampleLanes lanes;
  lanes.width = width;
  lanes.active = (1u << width) - 1;
  lanes.s = sc.data(), lanes.t = tc.data();
  lanes.dPdx[0] = g[0].data(), lanes.dPdx[1] = g[1].data(), lanes.dPdy[0] = g[2].data(), lanes.dPdy[1] = g[3].data();
  out.assign(4 * width, 0);
  routine(sampled, s, lanes, out.data());
  reference.resize(width);
  for (uint32_t l = 0; l < width; ++l) {
    SampleRequest r;
    r.s = sc[l], r.t = tc[l];
    r.hasGrad = true;
    r.dPdx[0] = g[0][l], r.dPdx[1] = g[1][l], r.dPdy[0] = g[2][l], r.dPdy[1] = g[3][l];
    reference[l] = sampleImage(blocks, s, r);
  }
}

// Every format's random view sampled through viewToSample's copy (which must be chosen, and have
// a routine) and by the reference on its blocks, lane by lane, at W = 4, 8, 16 with each filter,
// mipmap mode and two address modes; check(format, copy format, got bits, reference texel,
// component) asserts. Returns the lanes compared.
template <typename Check>
uint32_t compareCopiesWithReference(const VkFormat* formats, size_t count, uint32_t seed, Check check) {
  std::mt19937 rng(seed);
  uint32_t lanesChecked = 0;
  for (size_t f = 0; f < count; ++f) {
    const VkFormat format = formats[f];
    RandomBlocks image(format, VK_IMAGE_VIEW_TYPE_2D, 44 + 4 * uint32_t(f % 2), 36 + 4 * uint32_t(f % 3), 1, 4, rng);
    CopiedView copied(image.view.state);
    const abi::ImageViewState& blocks = copied.blocks;
    const abi::ImageViewState& kept = copied.kept;
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
      for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
        for (VkSamplerAddressMode mode : {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE}) {
          const abi::SamplerState s = sampler(filter, filter, mip, mode, 1.0f);
          for (uint32_t width : {4u, 8u, 16u}) {
            SampleShape shape;
            shape.width = width;
            EXPECT_EQ(findSampleRoutine(blocks, s, shape), nullptr) << format;
            const abi::ImageViewState& chosen = viewToSample(kept, s, shape);
            EXPECT_NE(&chosen, &kept) << format;
            const SampleRoutine routine = findSampleRoutine(chosen, s, shape);
            if (&chosen == &kept || !routine) {
              ADD_FAILURE() << "format " << format << ": no routine for the copy";
              return lanesChecked;
            }
            std::vector<uint32_t> out;
            std::vector<TexelValue> reference;
            routineAndReference(routine, chosen, blocks, s, width, rng, out, reference);
            for (uint32_t l = 0; l < width; ++l) {
              for (uint32_t c = 0; c < 4; ++c)
                if (!check(format, copied.texture.copyFormat(), out[c * width + l], reference[l], c)) return lanesChecked;
              ++lanesChecked;
            }
          }
        }
  }
  return lanesChecked;
}

// These formats have no routine of their own: the reference decodes a block per lane. The
// copy's routines against that reference, lane by lane: where the copy takes an exact routine
// (sRGB, half floats) bit for bit; where it takes the fixed-point one (UNORM bytes: LINEAR weights
// and δ snapped to 8 bits) within 2^-8 + 2^-9, as batch_sampler_test holds any RGBA8 view to.
TEST(DecodedTexture, ExactCopiesSampleAsTheReferenceOnTheBlocks) {
  const uint32_t lanes = compareCopiesWithReference(
      kExactFormats, std::size(kExactFormats), 78,
      [](VkFormat format, uint32_t copyFormat, uint32_t bits, const TexelValue& want, uint32_t c) {
        const float got = std::bit_cast<float>(bits);
        if (copyFormat == VK_FORMAT_R8G8B8A8_UNORM) {
          EXPECT_NEAR(got, want.f[c], 0x1p-8 + 0x1p-9) << "format " << format << " component " << c;
          return std::fabs(got - want.f[c]) <= 0x1p-8 + 0x1p-9;
        }
        if (std::isnan(got) && std::isnan(want.f[c])) return true;
        EXPECT_EQ(bits, want.u[c]) << "format " << format << " component " << c;
        return bits == want.u[c];
      });
  EXPECT_EQ(lanes, uint32_t(std::size(kExactFormats)) * 8 * (4 + 8 + 16));
}

// The formats whose copies round their texels to bytes (S3TC and RGTC palettes).
const VkFormat kRoundedFormats[] = {VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK, VK_FORMAT_BC2_UNORM_BLOCK,
                                    VK_FORMAT_BC2_SRGB_BLOCK,     VK_FORMAT_BC3_UNORM_BLOCK,      VK_FORMAT_BC3_SRGB_BLOCK,
                                    VK_FORMAT_BC4_UNORM_BLOCK,    VK_FORMAT_BC5_UNORM_BLOCK};

// The texel the reference decodes from the copy's bytes' format: sRGB colour to linear by the
// EOTF (texel codec), the rest as UNORM bytes.
bool srgbCopy(VkFormat format) {
  return format == VK_FORMAT_BC1_RGB_SRGB_BLOCK || format == VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
         format == VK_FORMAT_BC2_SRGB_BLOCK || format == VK_FORMAT_BC3_SRGB_BLOCK;
}
// The UNORM twin of an sRGB format: its texels are the sRGB-encoded values.
VkFormat encodedTwin(VkFormat format) {
  switch (format) {
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK: return VK_FORMAT_BC1_RGB_UNORM_BLOCK;
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK: return VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
    case VK_FORMAT_BC2_SRGB_BLOCK: return VK_FORMAT_BC2_UNORM_BLOCK;
    case VK_FORMAT_BC3_SRGB_BLOCK: return VK_FORMAT_BC3_UNORM_BLOCK;
    default: return format;
  }
}

// Every byte of the copy is the nearest byte to the reference's texel (each component of BC1-BC3's
// RGBA, BC4's R, BC5's RG; for sRGB formats, the encoded value: the reference's texel of the
// same block read as the UNORM format), as the routine rounds BC1's.
TEST(DecodedTexture, RoundedCopiesAreTheNearestBytesOfTheReferencesTexels) {
  std::mt19937 rng(79);
  for (VkFormat format : kRoundedFormats) {
    RandomBlocks image(format, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 21, 26, 2, 3, rng);
    DecodedTextureBudget budget(uint64_t(1) << 20);
    DecodedTexture texture(image.view.state, budget);
    ASSERT_TRUE(texture.current());
    EXPECT_FALSE(texture.exact());
    const uint32_t components = formatInfo(VkFormat(texture.copyFormat()))->blockSize;
    const abi::ImageViewState& s = image.view.state;
    for (uint32_t level = 0; level < s.levelCount; ++level)
      for (uint32_t layer = 0; layer < s.layerCount; ++layer)
        for (uint32_t y = 0; y < s.levels[level].height; ++y)
          for (uint32_t x = 0; x < s.levels[level].width; ++x) {
            TexelValue reference[16];
            ASSERT_TRUE(decodeCompressedBlock(*formatInfo(encodedTwin(format)), image.block(level, layer, x / 4, y / 4), reference));
            const abi::ImageLevel l = texture.level(level, layer);
            for (uint32_t c = 0; c < components; ++c) {
              const double want = double(reference[4 * (y % 4) + x % 4].f[c]) * 255.0;
              const int got = l.base[l.rowPitch * y + components * x + c];
              ASSERT_LE(std::fabs(got - want), 0.5 + 0x1p-10)
                  << "format " << format << " level " << level << " texel " << x << "," << y << " component " << c;
            }
          }
  }
}

// The copies' routines against the reference on the blocks, lane by lane: UNORM copies (the
// fixed-point routine) within its snapping (2^-8 + 2^-9, as batch_sampler_test holds RGBA8, R8
// and R8G8 views to) plus the bytes' rounding (1/510); sRGB copies (the exact routine) within the
// rounding carried through the EOTF (slope at most 2.3: 0.0045).
TEST(DecodedTexture, RoundedCopiesSampleWithinTheirRoundingOfTheReference) {
  const uint32_t lanes = compareCopiesWithReference(
      kRoundedFormats, std::size(kRoundedFormats), 80,
      [](VkFormat format, uint32_t, uint32_t bits, const TexelValue& want, uint32_t c) {
        const double tolerance = srgbCopy(format) ? 0.0045 : 0x1p-8 + 0x1p-9 + 1.0 / 510.0;
        const float got = std::bit_cast<float>(bits);
        EXPECT_NEAR(got, want.f[c], tolerance) << "format " << format << " component " << c;
        return std::fabs(got - want.f[c]) <= tolerance;
      });
  EXPECT_EQ(lanes, uint32_t(std::size(kRoundedFormats)) * 8 * (4 + 8 + 16));
}

// Cube views: the cube batches sample the copy's faces (cubeViewToSample) where the blocks had
// the reference alone: BC7 UNORM within the fixed-point snapping of it, BC3 UNORM within that
// and its bytes' rounding. BC1, whose faces have the fixed-point routine, keeps its blocks.
// Random directions, a third of them on the planes where two components are equal (face edges),
// with gradients, at every W.
TEST(DecodedTexture, CubeViewsSampleTheirCopiesFaces) {
  std::mt19937 rng(81);
  auto uniform = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  uint32_t lanesChecked = 0;
  {
    RandomBlocks bc1(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_CUBE, 16, 16, 6, 2, rng);
    DecodedTextureBudget budget(uint64_t(1) << 30);
    DecodedTexture texture(bc1.view.state, budget);
    DecodedView decodedView(texture, 0, 0);
    bc1.view.state.decoded = &decodedView;
    EXPECT_EQ(&cubeViewToSample(bc1.view.state), &bc1.view.state);
  }
  for (VkFormat format : {VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC3_UNORM_BLOCK}) {
    RandomBlocks image(format, VK_IMAGE_VIEW_TYPE_CUBE, 32, 32, 6, 4, rng);
    CopiedView copied(image.view.state);
    const abi::ImageViewState& blocks = copied.blocks;
    const abi::ImageViewState& kept = copied.kept;
    const abi::ImageViewState& chosen = cubeViewToSample(kept);
    ASSERT_NE(&chosen, &kept);
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
      for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR}) {
        const abi::SamplerState s = sampler(filter, filter, mip, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, 1.0f);
        for (uint32_t width : {4u, 8u, 16u})
          for (int n = 0; n < 8; ++n) {
            std::vector<float> d[3], gx[3], gy[3];
            for (int c = 0; c < 3; ++c) d[c].resize(width), gx[c].resize(width), gy[c].resize(width);
            for (uint32_t l = 0; l < width; ++l) {
              for (int c = 0; c < 3; ++c) {
                d[c][l] = uniform(-1.0f, 1.0f);
                const float scale = std::ldexp(1.0f, -int(rng() % 8) - 3);
                gx[c][l] = uniform(-1.0f, 1.0f) * scale, gy[c][l] = uniform(-1.0f, 1.0f) * scale;
              }
              if (rng() % 3 == 0) d[rng() % 3][l] = d[(l + 1) % 3][l];  // two equal components
            }
            CubeSampleLanes lanes;
            lanes.lanes.width = width;
            lanes.lanes.active = (1u << width) - 1;
            lanes.lanes.s = d[0].data(), lanes.lanes.t = d[1].data(), lanes.r = d[2].data();
            lanes.lanes.dPdx[0] = gx[0].data(), lanes.lanes.dPdx[1] = gx[1].data(), lanes.dPdxR = gx[2].data();
            lanes.lanes.dPdy[0] = gy[0].data(), lanes.lanes.dPdy[1] = gy[1].data(), lanes.dPdyR = gy[2].data();
            std::vector<uint32_t> fromCopy(4 * width);
            ASSERT_TRUE(sampleCubeBatch(chosen, s, lanes, fromCopy.data())) << format;
            const double tolerance = 0x1p-8 + 0x1p-9 + (format == VK_FORMAT_BC3_UNORM_BLOCK ? 1.0 / 510.0 : 0.0);
            {
              for (uint32_t l = 0; l < width; ++l) {
                SampleRequest r;
                r.s = d[0][l], r.t = d[1][l], r.r = d[2][l];
                r.hasGrad = true;
                for (int c = 0; c < 3; ++c) r.dPdx[c] = gx[c][l], r.dPdy[c] = gy[c][l];
                const TexelValue want = sampleImage(blocks, s, r);
                for (uint32_t c = 0; c < 4; ++c)
                  ASSERT_NEAR(std::bit_cast<float>(fromCopy[c * width + l]), want.f[c], tolerance)
                      << "filter " << filter << " mip " << mip << " W=" << width << " lane " << l << " component " << c;
              }
            }
            lanesChecked += width;
          }
      }
  }
  EXPECT_EQ(lanesChecked, 2u * 4 * 8 * (4 + 8 + 16));
}

// A copy that would pass the device's budget is not made: the view samples its blocks.
TEST(DecodedTexture, OverTheBudgetTheBlocksAreSampled) {
  std::mt19937 rng(3);
  Bc1Image image(VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_IMAGE_VIEW_TYPE_2D, 64, 64, 1, 1, rng);
  DecodedTextureBudget small(64 * 64 * 4 - 1), enough(64 * 64 * 4);
  const abi::SamplerState s = sampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                      VK_SAMPLER_ADDRESS_MODE_REPEAT, 1.0f);
  {
    DecodedTexture texture(image.view.state, small);
    DecodedView decodedView(texture, 0, 0);
    image.view.state.decoded = &decodedView;
    EXPECT_EQ(&viewToSample(image.view.state, s, SampleShape{true, false, 2, 8}), &image.view.state);
    EXPECT_EQ(small.used.load(), 0u);
  }
  {
    DecodedTexture texture(image.view.state, enough);
    DecodedView decodedView(texture, 0, 0);
    image.view.state.decoded = &decodedView;
    EXPECT_NE(&viewToSample(image.view.state, s, SampleShape{true, false, 2, 8}), &image.view.state);
    EXPECT_EQ(enough.used.load(), 64u * 64 * 4);
  }
  EXPECT_EQ(enough.used.load(), 0u);  // returned when the texture goes
}

}  // namespace
}  // namespace tessera
