// The kernels' inline texel reads (translate_image.cpp, plainWordsOr and plainTexels): texelFetch
// at a uniform level and imageLoad of 2D views that are 8-bit RGBA/BGRA UNORM or sRGB, or R32,
// with the identity swizzle, read by gathers in the kernel instead of one helper call a lane. The
// per-lane helper tessera_rt_image_read is the oracle (runtime_image_plain_word_test.cpp holds it
// to the texel codec): for random texels, coordinates in and out of range ("Texel Replacement"),
// levels in and out of the view's range, partial lane masks and views the inline path leaves to
// the helper (swizzled, other formats, no view), the kernel's results equal the helper's bit for
// bit at every SIMD width.
#include <gtest/gtest.h>
#include <vulkan/vulkan_core.h>

#include <climits>
#include <limits>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "compute_harness.h"
#include "runtime_image.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"


namespace tessera_test {
namespace {

constexpr uint32_t kCombinedImageSampler = 1;
constexpr uint32_t kStorageImage = 3;
constexpr uint32_t kGroups = 4;
constexpr uint32_t kInvocations = 64 * kGroups;

// A 2D image of three levels (13x9, 6x4, 3x2) of random 4-byte texels, rows padded.
struct LeveledImage {
  std::vector<std::vector<uint8_t>> levels;
  tessera::abi::ImageViewState view{};

  LeveledImage(VkFormat format, uint32_t levelCount, std::mt19937& rng) {
    view.format = format;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    view.layerCount = view.samples = 1;
    view.texelSize = 4;
    view.levelCount = levelCount;
    for (uint32_t c = 0; c < 4; ++c) view.swizzle[c] = VK_COMPONENT_SWIZZLE_R + c;
    const uint32_t sizes[3][2] = {{13, 9}, {6, 4}, {3, 2}};
    for (uint32_t l = 0; l < 3; ++l) {
      const uint32_t w = sizes[l][0], h = sizes[l][1], pitch = w * 4 + 12;
      levels.emplace_back(size_t(pitch) * h);
      for (uint8_t& b : levels.back()) b = uint8_t(rng());
      view.levels[l] = {levels.back().data(), w, h, 1, 0, pitch, uint64_t(pitch) * h, uint64_t(pitch) * h};
    }
  }
};

// Per-lane operands: x, y in a margin of 3 around the largest level (and a few extremes), a
// level (used by the per-lane-level shader), and whether the lane reads.
std::vector<int32_t> randomOperands(std::mt19937& rng) {
  std::vector<int32_t> q(4 * kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) {
    q[4 * i] = int32_t(rng() % 19) - 3;
    q[4 * i + 1] = int32_t(rng() % 15) - 3;
    if (rng() % 16 == 0) q[4 * i + (rng() & 1)] = rng() & 1 ? INT32_MIN : INT32_MAX;
    q[4 * i + 2] = int32_t(rng() % 5) - 1;
    q[4 * i + 3] = rng() % 4 != 0;
  }
  return q;
}

// Runs `shader` with the image descriptor at binding 0 (of `descriptorType`), the operands at 1,
// the results at 2 (or, given `binding2`, those words); returns the words at 2.
std::vector<uint32_t> run(const char* shader, uint32_t simdWidth, uint32_t descriptorType,
                          const tessera::abi::ImageDescriptor& image, const std::vector<int32_t>& operands, int32_t lod,
                          const std::vector<uint32_t>* binding2 = nullptr, uint32_t groupsX = kGroups,
                          uint32_t groupsY = 1) {
  // One compile per shader, width and descriptor type: the kernel does not depend on the view.
  static std::map<std::tuple<std::string, uint32_t, uint32_t>, tessera::jit::CompileResult> compiledShaders;
  auto [at, fresh] = compiledShaders.try_emplace({shader, simdWidth, descriptorType});
  if (fresh) {
    std::vector<uint8_t> unused;
    ComputeRun r;
    r.shader = shader;
    r.simdWidth = simdWidth;
    r.buffers = {&unused, &unused, &unused};
    r.descriptorTypes = {descriptorType, kStorageBuffer, kStorageBuffer};
    at->second = compileShader(r);
  }
  const tessera::jit::CompileResult& compiled = at->second;
  EXPECT_EQ(compiled.status, tessera::jit::CompileStatus::Success) << compiled.message;
  if (compiled.status != tessera::jit::CompileStatus::Success) return {};
  std::vector<int32_t> in = operands;
  std::vector<uint32_t> out = binding2 ? *binding2 : std::vector<uint32_t>(4 * kInvocations, 0xDEADBEEFu);
  uint8_t set[3 * tessera::abi::kDescriptorSize] = {};
  std::memcpy(set, &image, sizeof(image));
  const tessera::abi::BufferDescriptor buffers[2] = {
      {reinterpret_cast<uint8_t*>(in.data()), in.size() * 4, {}},
      {reinterpret_cast<uint8_t*>(out.data()), out.size() * 4, {}}};
  std::memcpy(set + tessera::abi::kDescriptorSize, buffers, sizeof(buffers));
  tessera::abi::BoundResources resources{};
  resources.sets[0] = set;
  std::memcpy(resources.pushConstants, &lod, 4);
  const uint32_t base[3] = {0, 0, 0}, groups[3] = {groupsX, groupsY, 1};
  tessera::jit::runCompute(*compiled.program, &resources, base, groups);
  return out;
}

// What each lane gets from the helper: its texel, or -1.0 where it does not read.
std::vector<uint32_t> expected(const tessera::abi::ImageDescriptor& image, const std::vector<int32_t>& q, int32_t lod,
                               bool perLaneLevel, bool everyLane) {
  std::vector<uint32_t> out(4 * kInvocations, 0xBF800000u);
  for (uint32_t i = 0; i < kInvocations; ++i)
    if (everyLane || q[4 * i + 3])
      tessera_rt_image_read(&image, q[4 * i], q[4 * i + 1], 0, 0, perLaneLevel ? q[4 * i + 2] : lod, &out[4 * i]);
  return out;
}

void expectLanes(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want, const std::vector<int32_t>& q) {
  ASSERT_EQ(got.size(), want.size());
  for (uint32_t i = 0; i < kInvocations; ++i)
    for (uint32_t c = 0; c < 4; ++c)
      ASSERT_EQ(got[4 * i + c], want[4 * i + c]) << "invocation " << i << " at (" << q[4 * i] << ", " << q[4 * i + 1]
                                                 << ") component " << c;
}

const VkFormat kInlineFormats[] = {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB, VK_FORMAT_B8G8R8A8_UNORM,
                                   VK_FORMAT_B8G8R8A8_SRGB, VK_FORMAT_R32_SFLOAT};
// Views the inline path leaves to the helper: other 4-byte formats.
const VkFormat kHelperFormats[] = {VK_FORMAT_A8B8G8R8_UNORM_PACK32, VK_FORMAT_R16G16_SFLOAT, VK_FORMAT_R8G8B8A8_SNORM,
                                   VK_FORMAT_A2B10G10R10_UNORM_PACK32};

TEST(InlineTexelRead, TexelFetchAtAUniformLevelReadsWhatTheHelperReads) {
  std::mt19937 rng(20261130);
  std::vector<VkFormat> formats(std::begin(kInlineFormats), std::end(kInlineFormats));
  formats.insert(formats.end(), std::begin(kHelperFormats), std::end(kHelperFormats));
  for (const VkFormat format : formats)
    for (const uint32_t levelCount : {3u, 2u}) {
      LeveledImage image(format, levelCount, rng);
      const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}};
      const std::vector<int32_t> q = randomOperands(rng);
      for (const int32_t lod : {0, 1, 2, 3, -1})
        for (const uint32_t w : kSimdWidths) {
          SCOPED_TRACE(::testing::Message() << "format " << format << ", " << levelCount << " levels, lod " << lod << ", W=" << w);
          expectLanes(run("texel_fetch_lanes", w, kCombinedImageSampler, desc, q, lod), expected(desc, q, lod, false, false), q);
        }
    }
}

// The 8-bit views' UNORM components are computed (c / 255 as a fused multiply-add), not looked
// up, so every byte value of every component is read here, at every width, and must equal the
// helper's (the codec's table, "Conversion from Normalized Fixed-Point to Floating-Point").
TEST(InlineTexelRead, EveryByteValueOfEveryComponentReadsAsTheHelperDoes) {
  std::mt19937 rng(20261201);
  for (const VkFormat format : kInlineFormats) {
    if (format == VK_FORMAT_R32_SFLOAT) continue;
    for (uint32_t pass = 0; pass < 3; ++pass) {
      LeveledImage image(format, 1, rng);
      const tessera::abi::ImageLevel& level0 = image.view.levels[0];
      const uint32_t texels = level0.width * level0.height;
      for (uint32_t i = 0; i < texels; ++i)
        for (uint32_t c = 0; c < 4; ++c)
          image.levels[0][(i / level0.width) * level0.rowPitch + (i % level0.width) * 4 + c] =
              uint8_t(i + pass * texels + c * 61);
      const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}};
      std::vector<int32_t> q(4 * kInvocations);
      for (uint32_t i = 0; i < kInvocations; ++i)
        q[4 * i] = int32_t((i % texels) % level0.width), q[4 * i + 1] = int32_t((i % texels) / level0.width), q[4 * i + 3] = 1;
      for (const uint32_t w : kSimdWidths) {
        SCOPED_TRACE(::testing::Message() << "format " << format << ", pass " << pass << ", W=" << w);
        expectLanes(run("texel_fetch_lanes", w, kCombinedImageSampler, desc, q, 0), expected(desc, q, 0, false, false), q);
      }
    }
  }
}

TEST(InlineTexelRead, SwizzledViewsAndNullDescriptorsTakeTheHelper) {
  std::mt19937 rng(7);
  LeveledImage image(VK_FORMAT_R8G8B8A8_UNORM, 3, rng);
  image.view.swizzle[0] = VK_COMPONENT_SWIZZLE_B;
  image.view.swizzle[2] = VK_COMPONENT_SWIZZLE_ONE;
  const tessera::abi::ImageDescriptor swizzled{&image.view, nullptr, {}};
  const tessera::abi::ImageDescriptor null{nullptr, nullptr, {}};
  const std::vector<int32_t> q = randomOperands(rng);
  for (const tessera::abi::ImageDescriptor* desc : {&swizzled, &null})
    for (const uint32_t w : kSimdWidths) {
      SCOPED_TRACE(::testing::Message() << (desc == &null ? "null descriptor" : "swizzled view") << ", W=" << w);
      const std::vector<uint32_t> want = expected(*desc, q, 1, false, false);
      expectLanes(run("texel_fetch_lanes", w, kCombinedImageSampler, *desc, q, 1), want, q);
    }
  // The swizzle is not lost: B lands in R, ONE in B.
  uint32_t texel[4];
  tessera_rt_image_read(&swizzled, 1, 1, 0, 0, 0, texel);
  float r, b;
  std::memcpy(&r, &texel[0], 4);
  std::memcpy(&b, &texel[2], 4);
  const uint8_t* at = image.levels[0].data() + image.view.levels[0].rowPitch + 4;
  EXPECT_EQ(r, float(at[2]) / 255.0f);
  EXPECT_EQ(b, 1.0f);
}

TEST(InlineTexelRead, PerLaneLevelsReadWhatTheHelperReads) {
  std::mt19937 rng(11);
  for (const VkFormat format : kInlineFormats) {
    LeveledImage image(format, 3, rng);
    const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}};
    const std::vector<int32_t> q = randomOperands(rng);
    for (const uint32_t w : kSimdWidths) {
      SCOPED_TRACE(::testing::Message() << "format " << format << ", W=" << w);
      expectLanes(run("texel_fetch_lane_levels", w, kCombinedImageSampler, desc, q, 0), expected(desc, q, 0, true, true), q);
    }
  }
}

TEST(InlineTexelRead, StorageImageLoadsReadWhatTheHelperReads) {
  std::mt19937 rng(13);
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R32_SFLOAT,
                                VK_FORMAT_R16G16_SFLOAT}) {
    LeveledImage image(format, 1, rng);
    const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}};
    const std::vector<int32_t> q = randomOperands(rng);
    for (const uint32_t w : kSimdWidths) {
      SCOPED_TRACE(::testing::Message() << "format " << format << ", W=" << w);
      expectLanes(run("image_rgba8_lane_reads", w, kStorageImage, desc, q, 0), expected(desc, q, 0, false, false), q);
    }
  }
}

// imageStore of float texels: the kernel encodes 8-bit RGBA/BGRA UNORM views itself
// ("Conversion From Floating-Point to Normalized Fixed-Point") and stores R32 words as they are;
// the image afterwards must hold exactly what the helper leaves when it writes the same lanes in
// order (every invocation writes its own texel, some outside the image, which nothing may
// change). Values: NaN, ±0, negative, above 1, exact halves of a step (0.5 x 255 = 127.5) and
// random ones.
TEST(InlineTexelRead, StorageImageStoresWriteWhatTheHelperWrites) {
  std::mt19937 rng(29);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), 0.0f, -0.0f, -0.25f, 1.0f, 1.5f, 0.5f,
                            1.0f / 255.0f, 254.5f / 255.0f, std::numeric_limits<float>::infinity()};
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R32_SFLOAT,
                                VK_FORMAT_R16G16_SFLOAT})
    for (const uint32_t w : kSimdWidths) {
      SCOPED_TRACE(::testing::Message() << "format " << format << ", W=" << w);
      std::mt19937 imageRng(format);
      LeveledImage image(format, 1, imageRng), expectedImage(format, 1, imageRng);
      expectedImage.levels = image.levels;
      expectedImage.view.levels[0].base = expectedImage.levels[0].data();
      const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}}, expectedDesc{&expectedImage.view, nullptr, {}};
      const std::vector<int32_t> q = randomOperands(rng);
      std::vector<uint32_t> values(4 * kInvocations);
      std::uniform_real_distribution<float> value(-0.2f, 1.2f);
      for (uint32_t k = 0; k < values.size(); ++k) {
        const float f = rng() % 4 == 0 ? specials[rng() % std::size(specials)] : value(rng);
        std::memcpy(&values[k], &f, 4);
      }
      run("image_rgba8_lane_writes", w, kStorageImage, desc, q, 0, &values);
      for (uint32_t i = 0; i < kInvocations; ++i)
        if (q[4 * i + 3]) tessera_rt_image_write(&expectedDesc, int32_t(i % 19) - 3, int32_t(i / 19) - 3, 0, 0, 0, &values[4 * i]);
      ASSERT_EQ(image.levels[0], expectedImage.levels[0]);
    }
}

// Lanes in a row (consecutive x, one y) take one masked vector load or store instead of a gather
// or scatter; reads and writes must still be the helper's, with rows that start left of the
// image, end right of it, lie above or below it, and lanes that do not run.
TEST(InlineTexelRead, RowsOfLanesReadAndWriteWhatTheHelperDoes) {
  constexpr uint32_t kColumns = 32, kRows = 12, kCount = kColumns * kRows;
  std::mt19937 rng(31);
  auto runs = [](uint32_t x, uint32_t y) { return (x * 7 + y) % 5 != 0; };
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R32_SFLOAT})
    for (const uint32_t w : kSimdWidths) {
      SCOPED_TRACE(::testing::Message() << "format " << format << ", W=" << w);
      LeveledImage image(format, 1, rng);
      const tessera::abi::ImageDescriptor desc{&image.view, nullptr, {}};
      std::vector<int32_t> values(4 * kCount);
      std::uniform_real_distribution<float> value(-0.2f, 1.2f);
      for (int32_t& v : values) {
        const float f = value(rng);
        std::memcpy(&v, &f, 4);
      }
      // Reads.
      std::vector<uint32_t> want(4 * kCount, 0xDEADBEEFu);
      for (uint32_t y = 0; y < kRows; ++y)
        for (uint32_t x = 0; x < kColumns; ++x)
          if (runs(x, y)) tessera_rt_image_read(&desc, int32_t(x) - 3, int32_t(y) - 1, 0, 0, 0, &want[4 * (y * kColumns + x)]);
      const std::vector<uint32_t> untouched(4 * kCount, 0xDEADBEEFu);
      const std::vector<uint32_t> got = run("image_rows", w, kStorageImage, desc, values, 0, &untouched, 2, kRows);
      ASSERT_EQ(got, want);
      // Writes, onto a copy for the helper.
      LeveledImage expected = image;
      expected.view.levels[0].base = expected.levels[0].data();
      const tessera::abi::ImageDescriptor expectedDesc{&expected.view, nullptr, {}};
      for (uint32_t y = 0; y < kRows; ++y)
        for (uint32_t x = 0; x < kColumns; ++x)
          if (runs(x, y))
            tessera_rt_image_write(&expectedDesc, int32_t(x) - 3, int32_t(y) - 1, 0, 0, 0,
                                   reinterpret_cast<const uint32_t*>(&values[4 * (y * kColumns + x)]));
      run("image_rows", w, kStorageImage, desc, values, 1, &untouched, 2, kRows);
      ASSERT_EQ(image.levels[0], expected.levels[0]);
    }
}

}  // namespace
}  // namespace tessera_test
