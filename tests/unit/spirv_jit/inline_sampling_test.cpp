// Inline sampling in fragment kernels (spirv_jit/inline_sample.h, shader_abi.h
// InlineSampleState): texture(sampler2D, vec2) run with the thread's entries against the same
// kernel without them (every batch through the runtime call, whose routines
// batch_sampler_test.cpp holds to the reference, "Texel Filtering" and "Level-of-Detail
// Operation"), bit for bit, on random textures, samplers, coordinates, derivatives and
// coverage at every SIMD width (sides that are powers of two, which the kernel samples, and
// others, which it leaves to the call); and the kernel's reads through its entry shown directly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "compute_harness.h"
#include "tessera/sampling.h"
#include "tessera/sampling_batch.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

using tessera::abi::kMaxInterfaceLocations;

std::shared_ptr<const tessera::jit::GraphicsProgram> compileTextureStage(uint32_t width, const char* shader = "stage_texture_frag",
                                                                         uint32_t textures = 1) {
  std::vector<uint32_t> words = loadShader(shader);
  tessera::jit::GraphicsCompileRequest req;
  req.stage = tessera::jit::GraphicsStage::Fragment;
  req.spirv = words;
  req.interface.simdWidth = width;
  const uint32_t kCombinedImageSampler = 1;
  req.interface.bindings = {{0, 0, kCombinedImageSampler, textures, 0, -1}};
  tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
  EXPECT_EQ(r.status, tessera::jit::CompileStatus::Success) << r.message;
  return r.program;
}

uint32_t asWord(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// A 2D RGBA8 or BGRA8 UNORM view over a full mip chain of random texels (rows padded by
// `padding` bytes), with its routine class computed as view creation computes it; or, with
// `cubeGap` set, a CUBE view of six square faces per level, `*cubeGap` bytes apart beyond their
// rows.
struct Texture {
  std::vector<std::vector<uint8_t>> levels;
  tessera::abi::ImageViewState view{};

  Texture(uint32_t width, uint32_t height, bool bgra, uint32_t padding, std::mt19937& rng,
          std::optional<uint32_t> cubeGap = std::nullopt) {
    const uint32_t layers = cubeGap ? 6 : 1;
    view.format = bgra ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_R8G8B8A8_UNORM;
    view.viewType = cubeGap ? VK_IMAGE_VIEW_TYPE_CUBE : VK_IMAGE_VIEW_TYPE_2D;
    view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    view.layerCount = layers;
    view.samples = 1;
    view.texelSize = 4;
    for (uint32_t c = 0; c < 4; ++c) view.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
    uint32_t w = width, h = height, count = 0;
    while (count < tessera::abi::kMaxImageLevels) {
      const uint64_t pitch = uint64_t(w) * 4 + padding, layerPitch = pitch * h + cubeGap.value_or(0);
      levels.emplace_back(layerPitch * layers);
      for (uint8_t& b : levels.back()) b = uint8_t(rng());
      view.levels[count] = {levels.back().data(), w, h, 1, 0, pitch, pitch * h, layerPitch};
      ++count;
      if (w == 1 && h == 1) break;
      w = std::max(w / 2, 1u), h = std::max(h / 2, 1u);
    }
    view.levelCount = count;
    view.fastSampling = tessera::classifyViewForRoutines(view);
  }
};

tessera::abi::SamplerState makeSampler(VkFilter filter, VkSamplerMipmapMode mipmap, VkSamplerAddressMode u,
                                       VkSamplerAddressMode v, float bias, float minLod, float maxLod,
                                       float maxAnisotropy = 0.0f) {
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.anisotropyEnable = maxAnisotropy > 0.0f ? VK_TRUE : VK_FALSE;
  sci.maxAnisotropy = maxAnisotropy;
  sci.magFilter = sci.minFilter = filter;
  sci.mipmapMode = mipmap;
  sci.addressModeU = u;
  sci.addressModeV = v;
  sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sci.mipLodBias = bias;
  sci.minLod = minLod;
  sci.maxLod = maxLod;
  return tessera::makeSamplerState(sci, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

// Runs the kernel on one batch: lane l of quad q at pixel (x, y) gets uv = base_q + x du_q + y dv_q
// (so the quad's derivatives are du_q, dv_q); returns the four output components per lane.
struct Batch {
  std::vector<uint32_t> inputs, outputs;
  uint32_t coverage = 0;
};

std::vector<uint32_t> run(const tessera::jit::GraphicsProgram& program, uint32_t W, const tessera::abi::BoundResources& resources,
                          Batch& b, tessera::abi::InlineSampleState* entries) {
  std::fill(b.outputs.begin(), b.outputs.end(), 0u);
  tessera::abi::FragmentBatch batch{};
  batch.resources = &resources;
  batch.coverage = b.coverage;
  batch.inputs = b.inputs.data();
  batch.outputs = b.outputs.data();
  batch.inlineSampling = entries;
  program.fragment(&batch);
  return std::vector<uint32_t>(b.outputs.begin(), b.outputs.begin() + 4 * W);
}

Batch randomBatch(uint32_t W, float texelsX, float texelsY, std::mt19937& rng) {
  Batch b;
  b.inputs.assign(kMaxInterfaceLocations * 4 * W, 0);
  b.outputs.assign(kMaxInterfaceLocations * 4 * W, 0);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), place(-3.0f, 3.0f);
  std::uniform_int_distribution<int> scale(-4, 7);
  // One scale for the batch most of the time (the common case), per quad otherwise (mixed levels).
  const bool perQuad = rng() % 4 == 0;
  float step = std::ldexp(1.0f, scale(rng));
  for (uint32_t q = 0; q < W / 4; ++q) {
    if (perQuad) step = std::ldexp(1.0f, scale(rng));
    const float baseS = place(rng), baseT = place(rng);
    const float duS = unit(rng) * step / texelsX, duT = unit(rng) * step / texelsY;
    const float dvS = unit(rng) * step / texelsX, dvT = unit(rng) * step / texelsY;
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t l = 4 * q + k;
      const float x = float(k & 1), y = float(k >> 1);
      b.inputs[0 * W + l] = asWord(baseS + x * duS + y * dvS);
      b.inputs[1 * W + l] = asWord(baseT + x * duT + y * dvT);
    }
  }
  const uint32_t all = W == 32 ? ~0u : (1u << W) - 1;
  b.coverage = rng() % 3 == 0 ? uint32_t(rng()) & all : all;
  if (b.coverage == 0) b.coverage = 1;
  return b;
}

// A batch whose quads' footprints are squares turned by a random angle, each quad's y
// derivative stretched by a factor within ±2^-7 of 1: about half of them lie within the
// anisotropic footprint's isotropy bound ((1 + 2^-8)², sampler_lod.cpp anisotropicFootprint),
// the others beyond it; `stretch` 0 keeps every quad within rounding of a square.
Batch squareFootprintBatch(uint32_t W, float texelsX, float texelsY, float stretch, std::mt19937& rng) {
  Batch b = randomBatch(W, texelsX, texelsY, rng);
  std::uniform_real_distribution<float> angle(0.0f, 6.2831853f), place(-3.0f, 3.0f), factor(-stretch, stretch);
  std::uniform_int_distribution<int> scale(-3, 6);
  const float step = std::ldexp(1.0f, scale(rng));
  for (uint32_t q = 0; q < W / 4; ++q) {
    const float a = angle(rng), grow = 1.0f + factor(rng);
    const float baseS = place(rng), baseT = place(rng);
    const float duS = std::cos(a) * step / texelsX, duT = std::sin(a) * step / texelsY;
    const float dvS = -std::sin(a) * step * grow / texelsX, dvT = std::cos(a) * step * grow / texelsY;
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t l = 4 * q + k;
      const float x = float(k & 1), y = float(k >> 1);
      b.inputs[0 * W + l] = asWord(baseS + x * duS + y * dvS);
      b.inputs[1 * W + l] = asWord(baseT + x * duT + y * dvT);
    }
  }
  return b;
}

// A NEAREST sample of a level whose bytes are every byte of the original's inverted (255 - c),
// which only the kernel's entry names: each component is 1 - the original's.
void expectInverted(const std::vector<uint32_t>& original, const std::vector<uint32_t>& throughEntry, uint32_t W) {
  for (uint32_t k = 0; k < 4 * W; ++k) {
    float a, c;
    std::memcpy(&a, &original[k], 4);
    std::memcpy(&c, &throughEntry[k], 4);
    EXPECT_EQ(std::lround(c * 255.0f), 255 - std::lround(a * 255.0f)) << "W=" << W << " lane " << k % W;
  }
}

TEST(InlineSampling, MatchesTheRuntimeCallBitForBit) {
  std::mt19937 rng(20261130);
  const VkSamplerAddressMode modes[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT};
  const uint32_t sizes[][2] = {{16, 16}, {64, 8}, {8, 128}, {256, 256}, {1, 32}, {12, 20}, {1024, 4}, {30, 17}, {100, 3}, {48, 64}};
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W);
    ASSERT_TRUE(program && program->fragment);
    uint32_t usableCases = 0, cases = 0, usableTrilinear = 0;
    for (int c = 0; c < 300; ++c) {
      const auto& size = sizes[rng() % std::size(sizes)];
      Texture tex(size[0], size[1], rng() % 2, rng() % 3 == 0 ? 16 : 0, rng);
      if (rng() % 5 == 0) tex.view.levelCount = 1;
      const VkFilter filter = rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      const VkSamplerMipmapMode mip = rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
      const float bias = rng() % 3 == 0 ? float(int(rng() % 9) - 4) * 0.75f : 0.0f;
      const float minLod = rng() % 4 == 0 ? float(rng() % 3) : 0.0f;
      const float maxLod = rng() % 4 == 0 ? minLod + float(rng() % 3) + 0.5f : 1000.0f;
      tessera::abi::SamplerState sampler =
          makeSampler(filter, mip, modes[rng() % 3], modes[rng() % 3], bias, minLod, maxLod);
      tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
      tessera::abi::BoundResources resources{};
      resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
      tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
      for (int batch = 0; batch < 6; ++batch) {
        Batch b = randomBatch(W, float(size[0]), float(size[1]), rng);
        const std::vector<uint32_t> expected = run(*program, W, resources, b, nullptr);
        // Twice: the first run of a pair may refresh the entry (and take the call); the second
        // samples inline where the entry allows.
        for (int pass = 0; pass < 2; ++pass) {
          const std::vector<uint32_t> got = run(*program, W, resources, b, entries);
          for (uint32_t k = 0; k < 4 * W; ++k)
            ASSERT_EQ(got[k], expected[k]) << "W=" << W << " case " << c << " batch " << batch << " pass " << pass
                                           << " component " << k / W << " lane " << k % W << " size " << size[0] << "x"
                                           << size[1] << " filter " << filter << " mip " << mip << " address "
                                           << sampler.addressMode[0] << "/" << sampler.addressMode[1];
        }
      }
      ++cases;
      usableCases += entries[0].usable;
      usableTrilinear += entries[0].usable && (entries[0].flags & tessera::abi::kInlineMipLinear) != 0;
    }
    // About a quarter of the cases are of the kind the kernel samples itself (power-of-two
    // sizes, REPEAT or CLAMP_TO_EDGE on both axes): their entries end usable.
    EXPECT_GT(usableCases, cases / 6) << "W=" << W;
    EXPECT_GT(usableTrilinear, cases / 15) << "W=" << W;
  }
}

TEST(InlineSampling, TheKernelSamplesThroughItsEntry) {
  std::mt19937 rng(7);
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W);
    ASSERT_TRUE(program && program->fragment);
    Texture tex(32, 32, false, 0, rng);
    tex.view.levelCount = 1;
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 0);
    tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
    Batch b = randomBatch(W, 32.0f, 32.0f, rng);
    b.coverage = W == 32 ? ~0u : (1u << W) - 1;
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    const std::vector<uint32_t> original = run(*program, W, resources, b, entries);  // refreshes the entry
    ASSERT_EQ(entries[0].view, &tex.view);
    ASSERT_EQ(entries[0].usable, 1u);
    // The same level with every texel's bytes inverted, named only by the entry: the kernel's
    // next batch reads it, so its results are 1 - the original's.
    std::vector<uint8_t> inverted(tex.levels[0]);
    for (uint8_t& v : inverted) v = uint8_t(255 - v);
    entries[0].levels[0].base = inverted.data();
    expectInverted(original, run(*program, W, resources, b, entries), W);
    // A cleared key (a new draw) refreshes: the view's own texels again.
    entries[0].view = nullptr;
    EXPECT_EQ(run(*program, W, resources, b, entries), original) << "W=" << W;
    // Without entries every batch takes the call.
    EXPECT_EQ(run(*program, W, resources, b, nullptr), original) << "W=" << W;
  }
}

// Anisotropic samplers ("Texel Anisotropic Filtering"): the kernel samples the batches whose
// every footprint is isotropic (η = 1) as the isotropic routine does, and the call takes the
// others (the anisotropic routine's N samples); both bit for bit the kernel without entries.
TEST(InlineSampling, AnisotropicSamplersMatchTheRuntimeCallBitForBit) {
  std::mt19937 rng(20261201);
  const VkSamplerAddressMode modes[2] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};
  const uint32_t sizes[][2] = {{16, 16}, {64, 8}, {256, 256}, {32, 128}, {30, 17}};
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W);
    ASSERT_TRUE(program && program->fragment);
    uint32_t usableCases = 0;
    for (int c = 0; c < 120; ++c) {
      const auto& size = sizes[rng() % std::size(sizes)];
      Texture tex(size[0], size[1], rng() % 2, 0, rng);
      const VkFilter filter = rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      const VkSamplerMipmapMode mip = rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
      const float maxAniso = float(2 + rng() % 15);
      tessera::abi::SamplerState sampler =
          makeSampler(filter, mip, modes[rng() % 2], modes[rng() % 2], 0.0f, 0.0f, 1000.0f, maxAniso);
      ASSERT_GT(sampler.fastSampling, 8u);
      tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
      tessera::abi::BoundResources resources{};
      resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
      tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
      for (int batch = 0; batch < 6; ++batch) {
        const float stretch = batch % 3 == 0 ? 0.0f : 0x1p-7f;
        Batch b = batch % 3 == 2 ? randomBatch(W, float(size[0]), float(size[1]), rng)
                                 : squareFootprintBatch(W, float(size[0]), float(size[1]), stretch, rng);
        const std::vector<uint32_t> expected = run(*program, W, resources, b, nullptr);
        for (int pass = 0; pass < 2; ++pass) {
          const std::vector<uint32_t> got = run(*program, W, resources, b, entries);
          for (uint32_t k = 0; k < 4 * W; ++k)
            ASSERT_EQ(got[k], expected[k]) << "W=" << W << " case " << c << " batch " << batch << " pass " << pass
                                           << " component " << k / W << " lane " << k % W << " filter " << filter
                                           << " mip " << mip << " max_Aniso " << maxAniso;
        }
      }
      usableCases += entries[0].usable && (entries[0].flags & tessera::abi::kInlineIsotropicOnly) != 0;
    }
    EXPECT_GT(usableCases, 20u) << "W=" << W;
  }
}

// Which batches of an anisotropic sampler the kernel samples itself, shown by a level only its
// entry names (every byte inverted): a square footprint's (η = 1) and not a 4:1 one's (N = 4),
// which the call samples from the view.
TEST(InlineSampling, AnisotropicSamplersSampleOnlyIsotropicBatchesInline) {
  std::mt19937 rng(11);
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W);
    ASSERT_TRUE(program && program->fragment);
    Texture tex(32, 32, false, 0, rng);
    tex.view.levelCount = 1;
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 0, 16.0f);
    tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
    auto batchWith = [&](float duS, float dvT) {
      Batch b = randomBatch(W, 32.0f, 32.0f, rng);
      for (uint32_t l = 0; l < W; ++l) {
        const float x = float(l & 1), y = float((l >> 1) & 1), base = 0.1f + 0.13f * float(l / 4);
        b.inputs[0 * W + l] = asWord(base + x * duS);
        b.inputs[1 * W + l] = asWord(base + y * dvT);
      }
      b.coverage = W == 32 ? ~0u : (1u << W) - 1;
      return b;
    };
    Batch square = batchWith(1.0f / 32.0f, 1.0f / 32.0f);        // ρ_x = ρ_y = 1
    Batch stretched = batchWith(4.0f / 32.0f, 1.0f / 32.0f);     // ρ_x = 4 ρ_y: η = 4
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    const std::vector<uint32_t> squareOriginal = run(*program, W, resources, square, entries);  // refreshes
    ASSERT_EQ(entries[0].usable, 1u);
    ASSERT_NE(entries[0].flags & tessera::abi::kInlineIsotropicOnly, 0u);
    const std::vector<uint32_t> stretchedOriginal = run(*program, W, resources, stretched, entries);
    std::vector<uint8_t> inverted(tex.levels[0]);
    for (uint8_t& v : inverted) v = uint8_t(255 - v);
    entries[0].levels[0].base = inverted.data();
    expectInverted(squareOriginal, run(*program, W, resources, square, entries), W);
    EXPECT_EQ(run(*program, W, resources, stretched, entries), stretchedOriginal) << "W=" << W;
    EXPECT_EQ(entries[0].levels[0].base, inverted.data()) << "W=" << W << ": the anisotropic batch refreshed the entry";
  }
}

// A kernel with more sampling instructions than entries: the first kInlineSampleSlots take one
// each and keep it (no two instructions refresh one entry in turn); the rest call the runtime;
// the sum of the nine textures is the call's bit for bit.
TEST(InlineSampling, InstructionsPastTheEntriesCallTheRuntime) {
  std::mt19937 rng(99);
  constexpr uint32_t kTextures = 9;
  static_assert(kTextures > tessera::abi::kInlineSampleSlots);
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W, "stage_texture_many_frag", kTextures);
    ASSERT_TRUE(program && program->fragment);
    std::vector<std::unique_ptr<Texture>> textures;
    std::vector<tessera::abi::ImageDescriptor> descriptors;
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 1000);
    for (uint32_t k = 0; k < kTextures; ++k) {
      textures.push_back(std::make_unique<Texture>(32u << (k % 3), 32u, k % 2 == 1, 0, rng));
      descriptors.push_back({&textures.back()->view, &sampler, {}});
    }
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(descriptors.data());
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    for (int batch = 0; batch < 8; ++batch) {
      Batch b = randomBatch(W, 32.0f, 32.0f, rng);
      const std::vector<uint32_t> expected = run(*program, W, resources, b, nullptr);
      for (int pass = 0; pass < 2; ++pass)
        ASSERT_EQ(run(*program, W, resources, b, entries), expected) << "W=" << W << " batch " << batch << " pass " << pass;
    }
    for (uint32_t k = 0; k < tessera::abi::kInlineSampleSlots; ++k)
      EXPECT_EQ(entries[k].view, &textures[k]->view) << "W=" << W << " entry " << k;
  }
}

// A batch of cube directions, quad q's lanes at base_q + x dx_q + y dy_q: most quads well inside
// a face, a third at a face edge or corner (where LINEAR footprints take the neighbours'
// texels), some lanes (rarely) the zero or a non-finite direction; a footprint of about 2^scale
// texels of a `size` face.
Batch cubeBatch(uint32_t W, uint32_t size, std::mt19937& rng) {
  Batch b;
  b.inputs.assign(kMaxInterfaceLocations * 4 * W, 0);
  b.outputs.assign(kMaxInterfaceLocations * 4 * W, 0);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f), inner(-0.8f, 0.8f);
  std::uniform_int_distribution<int> scale(-3, 6);
  const bool perQuad = rng() % 4 == 0;
  float step = std::ldexp(2.0f / float(size), scale(rng));
  for (uint32_t q = 0; q < W / 4; ++q) {
    if (perQuad) step = std::ldexp(2.0f / float(size), scale(rng));
    float base[3];
    const uint32_t axis = rng() % 3;
    base[axis] = rng() % 2 ? 1.0f : -1.0f;
    for (uint32_t c = 1; c < 3; ++c) {
      const uint32_t other = (axis + c) % 3;
      const uint32_t kind = rng() % 6;
      // 0, 1: at an edge (a corner when both are), else inside.
      base[other] = kind == 0 ? 1.0f : kind == 1 ? -1.0f : inner(rng);
    }
    const float grow = std::ldexp(1.0f, int(rng() % 3));  // |major| 1, 2 or 4: the same face point
    float dx[3], dy[3];
    for (uint32_t c = 0; c < 3; ++c) base[c] *= grow, dx[c] = unit(rng) * step * grow, dy[c] = unit(rng) * step * grow;
    for (uint32_t k = 0; k < 4; ++k) {
      const uint32_t l = 4 * q + k;
      const float x = float(k & 1), y = float(k >> 1);
      for (uint32_t c = 0; c < 3; ++c) b.inputs[c * W + l] = asWord(base[c] + x * dx[c] + y * dy[c]);
      if (rng() % 97 == 0)
        for (uint32_t c = 0; c < 3; ++c) b.inputs[c * W + l] = asWord(rng() % 2 ? 0.0f : std::nanf(""));
    }
  }
  const uint32_t all = W == 32 ? ~0u : (1u << W) - 1;
  b.coverage = rng() % 3 == 0 ? uint32_t(rng()) & all : all;
  if (b.coverage == 0) b.coverage = 1;
  return b;
}

// texture(samplerCube, vec3) ("Cube Map Face Selection and Transformations", "Cube Map Edge
// Handling", "Level-of-Detail Operation"): the kernel's cube entries against the same kernel
// without entries (the call's cube batches, which cube_batch_test.cpp holds to the reference),
// bit for bit, on random cubes (power-of-two faces, which the kernel samples, and others),
// samplers, directions (a third at face edges and corners) and coverage at every SIMD width.
TEST(InlineSampling, CubeMapsMatchTheRuntimeCallBitForBit) {
  std::mt19937 rng(20261201);
  const VkSamplerAddressMode modes[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT};
  const uint32_t sizes[] = {16, 64, 128, 256, 1, 2, 12, 30};
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W, "stage_texture_cube_frag");
    ASSERT_TRUE(program && program->fragment);
    uint32_t usableCases = 0, usableTrilinear = 0, cases = 0;
    for (int c = 0; c < 160; ++c) {
      const uint32_t size = sizes[rng() % std::size(sizes)];
      const uint32_t padding = rng() % 3 == 0 ? 16 : 0, gap = rng() % 3 == 0 ? 64 : 0;
      Texture tex(size, size, rng() % 2, padding, rng, gap);
      if (rng() % 5 == 0) tex.view.levelCount = 1;
      const VkFilter filter = rng() % 2 ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
      const VkSamplerMipmapMode mip = rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST;
      const float bias = rng() % 3 == 0 ? float(int(rng() % 9) - 4) * 0.75f : 0.0f;
      const float minLod = rng() % 4 == 0 ? float(rng() % 3) : 0.0f;
      const float maxLod = rng() % 4 == 0 ? minLod + float(rng() % 3) + 0.5f : 1000.0f;
      const float maxAniso = rng() % 8 == 0 ? 4.0f : 0.0f;  // cube batches leave anisotropy to the reference
      tessera::abi::SamplerState sampler =
          makeSampler(filter, mip, modes[rng() % 3], modes[rng() % 3], bias, minLod, maxLod, maxAniso);
      tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
      tessera::abi::BoundResources resources{};
      resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
      tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
      for (int batch = 0; batch < 6; ++batch) {
        Batch b = cubeBatch(W, size, rng);
        const std::vector<uint32_t> expected = run(*program, W, resources, b, nullptr);
        for (int pass = 0; pass < 2; ++pass) {
          const std::vector<uint32_t> got = run(*program, W, resources, b, entries);
          for (uint32_t k = 0; k < 4 * W; ++k)
            ASSERT_EQ(got[k], expected[k]) << "W=" << W << " case " << c << " batch " << batch << " pass " << pass
                                           << " component " << k / W << " lane " << k % W << " size " << size
                                           << " filter " << filter << " mip " << mip << " bias " << bias;
        }
      }
      ++cases;
      usableCases += entries[0].usable == tessera::abi::kInlineUsableCube;
      usableTrilinear += entries[0].usable == tessera::abi::kInlineUsableCube && (entries[0].flags & tessera::abi::kInlineMipLinear) != 0;
    }
    // Half the sizes are powers of two (one of eight samplers anisotropic): their entries end
    // usable.
    EXPECT_GT(usableCases, cases / 4) << "W=" << W;
    EXPECT_GT(usableTrilinear, cases / 12) << "W=" << W;
  }
}

// The kernel samples a cube's faces through its entry: with the entry's level 0 replaced by the
// same six faces with every byte inverted, NEAREST samples inside the faces come out as 1 - the
// original's, on whichever face each lane's direction selects; an entry of a 2D view is not a
// cube instruction's (it calls, with the view's own texels).
TEST(InlineSampling, CubeMapsSampleEachLanesFaceThroughTheEntry) {
  std::mt19937 rng(5);
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W, "stage_texture_cube_frag");
    ASSERT_TRUE(program && program->fragment);
    Texture tex(32, 32, false, 0, rng, 64u);
    tex.view.levelCount = 1;
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 0);
    tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
    // Each quad on face q % 6, away from its edges.
    Batch b = cubeBatch(W, 32, rng);
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t face = (l / 4) % 6;
      float d[3] = {0.1f + 0.05f * float(l & 1), -0.2f + 0.05f * float(l >> 1 & 1), 0.3f};
      d[face / 2] = face % 2 ? -1.0f : 1.0f;
      for (uint32_t c = 0; c < 3; ++c) b.inputs[c * W + l] = asWord(d[c]);
    }
    b.coverage = W == 32 ? ~0u : (1u << W) - 1;
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    const std::vector<uint32_t> original = run(*program, W, resources, b, entries);  // refreshes the entry
    ASSERT_EQ(entries[0].view, &tex.view);
    ASSERT_EQ(entries[0].usable, tessera::abi::kInlineUsableCube);
    std::vector<uint8_t> inverted(tex.levels[0]);
    for (uint8_t& v : inverted) v = uint8_t(255 - v);
    entries[0].levels[0].base = inverted.data();
    expectInverted(original, run(*program, W, resources, b, entries), W);
    // The same entry marked as a 2D view's: the cube instruction takes the call.
    entries[0].usable = tessera::abi::kInlineUsable2D;
    EXPECT_EQ(run(*program, W, resources, b, entries), original) << "W=" << W;
  }
}

// "Cube Map Edge Handling" in the kernel: LINEAR footprints that cross one face edge (every
// lane within a third of a texel of an edge between two faces) are sampled through the entry,
// texels of both faces included (the entry's level 0 replaced by the same cube with every byte
// inverted gives 1 - the original, within the filter's rounding); a footprint over a cube
// corner (the average of three texels) is the call's, which reads the view's own texels.
TEST(InlineSampling, CubeFootprintsAcrossFaceEdgesAreTheKernelsAndCornersTheCalls) {
  std::mt19937 rng(11);
  constexpr uint32_t kSize = 32;
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W, "stage_texture_cube_frag");
    ASSERT_TRUE(program && program->fragment);
    Texture tex(kSize, kSize, false, 0, rng, 64u);
    tex.view.levelCount = 1;
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 0);
    tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
    std::uniform_real_distribution<float> inner(-0.6f, 0.6f);
    // Quad q: major axis q % 3, the next axis 1 - 0.3 / size from its edge (u within 0.15
    // texel of the face's side), the third inside, its lanes 0.01 apart along it.
    auto edges = [&]() {
      Batch b = cubeBatch(W, kSize, rng);
      for (uint32_t q = 0; q < W / 4; ++q) {
        const uint32_t major = q % 3, next = (major + 1 + (q / 3) % 2) % 3;
        const float majorValue = rng() % 2 ? -1.0f : 1.0f, nextValue = (rng() % 2 ? -1.0f : 1.0f) * (1.0f - 0.3f / float(kSize));
        const float third = inner(rng);
        for (uint32_t l = 4 * q; l < 4 * q + 4; ++l) {
          float d[3];
          d[major] = majorValue, d[next] = nextValue;
          d[3 - major - next] = third + 0.01f * float(l & 1) + 0.01f * float(l >> 1 & 1);
          for (uint32_t c = 0; c < 3; ++c) b.inputs[c * W + l] = asWord(d[c]);
        }
      }
      b.coverage = W == 32 ? ~0u : (1u << W) - 1;
      return b;
    };
    Batch across = edges();
    Batch corner = edges();
    for (uint32_t c = 0; c < 3; ++c) corner.inputs[c * W + W - 1] = asWord(c == 1 ? -0.999f : 0.998f);
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    const std::vector<uint32_t> original = run(*program, W, resources, across, entries);  // refreshes the entry
    ASSERT_EQ(entries[0].usable, tessera::abi::kInlineUsableCube);
    EXPECT_EQ(original, run(*program, W, resources, across, nullptr)) << "W=" << W << ": the call's bits";
    const std::vector<uint32_t> cornerOriginal = run(*program, W, resources, corner, entries);
    std::vector<uint8_t> inverted(tex.levels[0]);
    for (uint8_t& v : inverted) v = uint8_t(255 - v);
    entries[0].levels[0].base = inverted.data();
    const std::vector<uint32_t> throughEntry = run(*program, W, resources, across, entries);
    for (uint32_t k = 0; k < 4 * W; ++k) {
      float a, c;
      std::memcpy(&a, &original[k], 4);
      std::memcpy(&c, &throughEntry[k], 4);
      EXPECT_NEAR(c, 1.0f - a, 0x1p-12) << "W=" << W << " component " << k / W << " lane " << k % W;
    }
    EXPECT_EQ(run(*program, W, resources, corner, entries), cornerOriginal) << "W=" << W;
  }
}

// "Level-of-Detail Operation" on a cube, mipmapMode LINEAR: the kernel's shortcut to level 0
// alone (a batch whose every lane's ρ_max² lies below the entry's bound) is taken on a bound
// of the face derivatives' float estimates; a batch whose exact ρ_max² lies just above the
// bound (δ8 = 1: 1/256 of level 1) must not take it. Lanes on +Z at (x, y, 1) with quad steps
// h: ∂s/∂x = -∂t/∂y = h / 2 exactly, ρ_max² = (h/2 size)², set within 2^-12 above the bound.
TEST(InlineSampling, CubeBatchesJustAboveTheLevelZeroBoundReadBothLevels) {
  std::mt19937 rng(12);
  constexpr uint32_t kSize = 64;
  for (uint32_t W : kSimdWidths) {
    auto program = compileTextureStage(W, "stage_texture_cube_frag");
    ASSERT_TRUE(program && program->fragment);
    Texture tex(kSize, kSize, false, 0, rng, 0u);
    tessera::abi::SamplerState sampler = makeSampler(VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                                     VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, 1000);
    tessera::abi::ImageDescriptor desc{&tex.view, &sampler, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
    auto centred = [&](float h) {
      Batch b = cubeBatch(W, kSize, rng);
      for (uint32_t l = 0; l < W; ++l) {
        const float d[3] = {float(l & 1) * h, float(l >> 1 & 1) * h, 1.0f};
        for (uint32_t c = 0; c < 3; ++c) b.inputs[c * W + l] = asWord(d[c]);
      }
      b.coverage = W == 32 ? ~0u : (1u << W) - 1;
      return b;
    };
    tessera::abi::InlineSampleState entries[tessera::abi::kInlineSampleSlots] = {};
    Batch first = centred(1.0f / float(kSize));  // λ = -1: level 0, whose entry has the bound
    run(*program, W, resources, first, entries);
    ASSERT_EQ(entries[0].usable, tessera::abi::kInlineUsableCube);
    ASSERT_EQ(entries[0].level, 0u);
    const float bound = entries[0].rho2Hi;
    ASSERT_GT(bound, 0.0f);
    float h = float(2.0 * std::sqrt(double(bound) * (1.0 + 0x1p-13)) / kSize);
    const float m = (0.5f * h) * float(kSize), rho2 = m * m;  // the kernel's float ρ_max²
    ASSERT_GE(rho2, bound) << "W=" << W;
    ASSERT_LE(rho2, bound * (1.0f + 0x1p-12f)) << "W=" << W;
    Batch above = centred(h);
    const std::vector<uint32_t> expected = run(*program, W, resources, above, nullptr);
    EXPECT_EQ(run(*program, W, resources, above, entries), expected) << "W=" << W;
    EXPECT_EQ(entries[0].level, 0u);
  }
}

}  // namespace
}  // namespace tessera_test
