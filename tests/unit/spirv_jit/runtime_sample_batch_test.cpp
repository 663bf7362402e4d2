// The batch entry of sampling (runtime_sample.cpp: tessera_rt_image_sample_batch, W lanes'
// operand words laid out word by word) against the per-lane entry (tessera_rt_image_sample,
// the reference through one lane's words) on the same words: bit-identical results for every
// active lane, zeros elsewhere. Covers the word layout and the flags (projective division, the
// array layer, Lod / Grad / MinLod, offsets) on a state that has a batched routine, and the
// lane-by-lane fallback inside the same entry on states that have none (a border address
// mode, a gather, Dref, an anisotropic sampler).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "../sampler/sampling_test_view.h"
#include "sample_words.h"
#include "tessera/sampling_batch.h"
#include "tessera/shader_abi.h"

extern "C" void tessera_rt_image_sample(const tessera::abi::ImageDescriptor*, const tessera::abi::ImageDescriptor*,
                                        uint32_t, const uint32_t*, uint32_t*);
extern "C" void tessera_rt_image_sample_batch(const tessera::abi::ImageDescriptor*,
                                              const tessera::abi::ImageDescriptor*, uint32_t, uint32_t, uint32_t,
                                              const uint32_t*, uint32_t*);

namespace tessera {
namespace {

using namespace jit::sample_word;
using namespace jit::sample_flag;

abi::SamplerState sampler(VkSamplerAddressMode mode, float maxAnisotropy = 0) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.anisotropyEnable = maxAnisotropy > 0 ? VK_TRUE : VK_FALSE;
  info.maxAnisotropy = maxAnisotropy;
  info.magFilter = info.minFilter = VK_FILTER_LINEAR;
  info.mipmapMode = VK_SAMPLER_MIPMAP_MODE_LINEAR;
  info.addressModeU = info.addressModeV = info.addressModeW = mode;
  info.maxLod = VK_LOD_CLAMP_NONE;
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  info.compareOp = VK_COMPARE_OP_LESS;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

uint32_t bitsOf(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// Random words for every lane (floats where the word is a float, small integers for offsets and
// the gather component), word-major as the JIT lays them out.
std::vector<uint32_t> randomWords(std::mt19937& rng, uint32_t width) {
  std::uniform_real_distribution<float> coord(-1.5f, 2.5f), lod(-2.0f, 6.0f), grad(-0.2f, 0.2f), q(0.5f, 2.0f);
  std::vector<uint32_t> words(size_t(kSampleWordCount) * width, 0);
  auto at = [&](uint32_t w, uint32_t l) -> uint32_t& { return words[size_t(w) * width + l]; };
  for (uint32_t l = 0; l < width; ++l) {
    at(kCoord, l) = bitsOf(coord(rng));
    at(kCoord + 1, l) = bitsOf(coord(rng));
    at(kCoord + 2, l) = bitsOf(q(rng));      // q of a projective 2D form, or the layer
    at(kCoord + 3, l) = bitsOf(coord(rng));
    at(kDref, l) = bitsOf(coord(rng));
    at(kLod, l) = bitsOf(lod(rng));
    at(kBias, l) = bitsOf(lod(rng) * 0.5f);
    at(kMinLod, l) = bitsOf(lod(rng) * 0.5f);
    for (uint32_t c = 0; c < 3; ++c) at(kGradX + c, l) = bitsOf(grad(rng)), at(kGradY + c, l) = bitsOf(grad(rng));
    for (uint32_t c = 0; c < 3; ++c) at(kOffset + c, l) = uint32_t(int32_t(rng() % 16) - 8);
    at(kGatherComponent, l) = rng() % 4;
    for (uint32_t c = 0; c < 8; ++c) at(kGatherOffsets + c, l) = uint32_t(int32_t(rng() % 16) - 8);
  }
  return words;
}

void expectBatchEqualsLanes(const abi::ImageDescriptor& image, const abi::ImageDescriptor& samp, uint32_t flags,
                            std::mt19937& rng) {
  for (uint32_t width : {4u, 8u, 16u})
    for (int n = 0; n < 50; ++n) {
      const uint32_t active = n == 0 ? (1u << width) - 1 : rng() & ((1u << width) - 1);
      const std::vector<uint32_t> words = randomWords(rng, width);
      // The generated code writes only the words the instruction has (batchWordPresent): the
      // others hold what the stack held, here a NaN pattern, which the batch must not read.
      std::vector<uint32_t> batchWords = words;
      for (uint32_t w = 0; w < kSampleWordCount; ++w)
        if (!jit::batchWordPresent(flags, w))
          for (uint32_t l = 0; l < width; ++l) batchWords[size_t(w) * width + l] = 0x7FC0DEADu;
      std::vector<uint32_t> out(4 * width, 0xDEADBEEFu);
      tessera_rt_image_sample_batch(&image, &samp, flags, width, active, batchWords.data(), out.data());
      for (uint32_t l = 0; l < width; ++l) {
        uint32_t want[4] = {0, 0, 0, 0};
        if (active >> l & 1) {
          uint32_t laneWords[kSampleWordCount];
          for (uint32_t w = 0; w < kSampleWordCount; ++w) laneWords[w] = words[size_t(w) * width + l];
          tessera_rt_image_sample(&image, &samp, flags, laneWords, want);
        }
        for (uint32_t c = 0; c < 4; ++c)
          ASSERT_EQ(out[c * width + l], want[c]) << "flags " << std::hex << flags << std::dec << " W=" << width
                                                 << " lane " << l << " component " << c;
      }
    }
}

constexpr uint32_t k2D = 2u << kCoordCountShift;

TEST(RuntimeSampleBatch, RoutineLanesEqualPerLaneCalls) {
  std::mt19937 rng(17);
  test::SamplingTestView view(VK_FORMAT_B8G8R8A8_SRGB, VK_IMAGE_VIEW_TYPE_2D_ARRAY, 23, 14, 1, 3, 5);
  for (uint32_t l = 0; l < 5; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (int c = 0; c < 4; ++c) p[c] = uint8_t(rng());
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  const abi::SamplerState s = sampler(VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  const abi::ImageDescriptor image{&view.state, nullptr, {}}, samp{nullptr, &s, {}};
  SampleShape shape;
  shape.width = 8;
  ASSERT_NE(findSampleRoutine(view.state, s, shape), nullptr);  // the batch takes the routine
  for (uint32_t flags : {k2D | kFlagGrad, k2D | kFlagLod, k2D | kFlagGrad | kFlagProjective,
                         k2D | kFlagLod | kFlagArrayed, k2D | kFlagGrad | kFlagArrayed | kFlagMinLod, k2D,
                         k2D | kFlagGrad | kFlagBias, k2D | kFlagLod | kFlagOffset,
                         k2D | kFlagGrad | kFlagBias | kFlagOffset | kFlagArrayed})
    expectBatchEqualsLanes(image, samp, flags, rng);
}

TEST(RuntimeSampleBatch, StatesWithoutRoutineRunTheReferencePerLane) {
  std::mt19937 rng(18);
  test::SamplingTestView view(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 9, 6, 1, 1, 3);
  for (uint32_t l = 0; l < 3; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (int c = 0; c < 4; ++c) p[c] = uint8_t(rng());
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  const abi::SamplerState border = sampler(VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER);
  const abi::SamplerState repeat = sampler(VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const abi::ImageDescriptor image{&view.state, nullptr, {}}, withBorder{nullptr, &border, {}},
      withRepeat{nullptr, &repeat, {}};
  expectBatchEqualsLanes(image, withBorder, k2D | kFlagGrad, rng);
  expectBatchEqualsLanes(image, withRepeat, k2D | kFlagGather, rng);
  expectBatchEqualsLanes(image, withRepeat, k2D | kFlagGather | kFlagGatherOffsets, rng);
  expectBatchEqualsLanes(image, withRepeat, k2D | kFlagGather | kFlagOffset, rng);
  expectBatchEqualsLanes(image, withBorder, k2D | kFlagGrad | kFlagBias | kFlagOffset, rng);
  expectBatchEqualsLanes(image, withRepeat, k2D | kFlagLod | kFlagCompare, rng);
}

// "Texel Anisotropic Filtering" with the random gradients' footprints (up to 16:1 and beyond):
// on a float view the batch takes the exact routines' anisotropic instances, which must give
// each lane the reference's own result. (RGBA8 and BC1 views take fixed-point anisotropic
// routines instead, held to the reference within their precision by batch_sampler_test.cpp.)
TEST(RuntimeSampleBatch, AnisotropicLanesEqualPerLaneCalls) {
  std::mt19937 rng(19);
  test::SamplingTestView view(VK_FORMAT_R16G16B16A16_SFLOAT, VK_IMAGE_VIEW_TYPE_2D, 9, 6, 1, 1, 3);
  for (uint32_t l = 0; l < 3; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (int c = 0; c < 8; c += 2) p[c] = uint8_t(rng()), p[c + 1] = uint8_t(rng() % 0x7C);  // finite halves
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  const abi::SamplerState aniso = sampler(VK_SAMPLER_ADDRESS_MODE_REPEAT, 16.0f);
  const abi::ImageDescriptor image{&view.state, nullptr, {}}, withAniso{nullptr, &aniso, {}};
  SampleShape shape;
  shape.width = 8;
  ASSERT_NE(findSampleRoutine(view.state, aniso, shape), nullptr);  // the batch takes a routine
  expectBatchEqualsLanes(image, withAniso, k2D | kFlagGrad, rng);
  expectBatchEqualsLanes(image, withAniso, k2D | kFlagGrad | kFlagProjective | kFlagMinLod, rng);
}

TEST(RuntimeSampleBatch, NullDescriptorsReadZero) {
  const abi::SamplerState s = sampler(VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const abi::ImageDescriptor nullImage{nullptr, nullptr, {}}, samp{nullptr, &s, {}};
  std::vector<uint32_t> words(size_t(kSampleWordCount) * 8, 0), out(4 * 8, 0xDEADBEEFu);
  tessera_rt_image_sample_batch(&nullImage, &samp, k2D | kFlagLod, 8, 0xFF, words.data(), out.data());
  for (uint32_t w : out) EXPECT_EQ(w, 0u);
  tessera_rt_image_sample_batch(nullptr, nullptr, k2D | kFlagLod, 8, 0xFF, words.data(), out.data());
  for (uint32_t w : out) EXPECT_EQ(w, 0u);
}

}  // namespace
}  // namespace tessera
