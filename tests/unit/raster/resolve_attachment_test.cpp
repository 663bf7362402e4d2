// resolveAttachment (draw.h): the multisample resolve operations of a render pass instance
// ("Render Pass" > "Multisample resolve operations", VkResolveModeFlagBits). Expected values are
// computed here from the mode's definition: AVERAGE of the samples' values, SAMPLE_ZERO copies
// sample 0, MIN/MAX the extreme sample.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "tessera/draw.h"

namespace tessera::raster {
namespace {

// A width x height attachment with `samples` samples of `texelSize` bytes per pixel.
struct Attachment {
  std::vector<uint8_t> memory;
  AttachmentView view;
  Attachment(VkFormat format, uint32_t texelSize, uint32_t samples, int32_t width, int32_t height) {
    memory.assign(size_t(width) * height * samples * texelSize, 0);
    view.base = memory.data();
    view.format = format;
    view.texelSize = texelSize;
    view.samples = samples;
    view.rowPitch = uint64_t(width) * samples * texelSize;
    view.layerPitch = view.rowPitch * height;
  }
  uint8_t* at(int32_t x, int32_t y, uint32_t sample) {
    return view.base + y * view.rowPitch + (uint64_t(x) * view.samples + sample) * view.texelSize;
  }
};

TEST(ResolveAttachment, AverageOfUnormSamplesRoundsToNearest) {
  Attachment ms(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 2, 1), single(VK_FORMAT_R8G8B8A8_UNORM, 4, 1, 2, 1);
  // Pixel 0: red in 3 of 4 samples -> 255 * 3/4 = 191.25 -> 191; pixel 1: all samples 10, 20,
  // 30, 41 in green -> 25.25 -> 25.
  const uint8_t red[4] = {255, 0, 0, 255}, black[4] = {0, 0, 0, 255};
  std::memcpy(ms.at(0, 0, 0), black, 4);
  for (uint32_t s = 1; s < 4; ++s) std::memcpy(ms.at(0, 0, s), red, 4);
  const uint8_t greens[4] = {10, 20, 30, 41};
  for (uint32_t s = 0; s < 4; ++s) ms.at(1, 0, s)[1] = greens[s];
  resolveAttachment(ms.view, single.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, {0, 0, 2, 1}, 1);
  EXPECT_EQ(single.at(0, 0, 0)[0], 191);
  EXPECT_EQ(single.at(0, 0, 0)[3], 255);
  EXPECT_EQ(single.at(1, 0, 0)[1], 25);
}

TEST(ResolveAttachment, SrgbAveragesLinearValues) {
  // Two samples sRGB 255 (linear 1.0) and two sRGB 0 (linear 0): the linear mean 0.5 encodes
  // as sRGB 188 (1.055 * 0.5^(1/2.4) - 0.055 = 0.7354 -> 187.5 -> 188).
  Attachment ms(VK_FORMAT_R8G8B8A8_SRGB, 4, 4, 1, 1), single(VK_FORMAT_R8G8B8A8_SRGB, 4, 1, 1, 1);
  ms.at(0, 0, 0)[0] = ms.at(0, 0, 1)[0] = 255;
  resolveAttachment(ms.view, single.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, {0, 0, 1, 1}, 1);
  const double expected = (1.055 * std::pow(0.5, 1 / 2.4) - 0.055) * 255;
  EXPECT_NEAR(single.at(0, 0, 0)[0], expected, 0.51);
}

TEST(ResolveAttachment, IntegerSampleZeroTakesTheFirstSample) {
  Attachment ms(VK_FORMAT_R32_SINT, 4, 4, 1, 1), single(VK_FORMAT_R32_SINT, 4, 1, 1, 1);
  const int32_t values[4] = {-7, 100, 200, 300};
  for (uint32_t s = 0; s < 4; ++s) std::memcpy(ms.at(0, 0, s), &values[s], 4);
  resolveAttachment(ms.view, single.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, {0, 0, 1, 1}, 1);
  int32_t got;
  std::memcpy(&got, single.at(0, 0, 0), 4);
  EXPECT_EQ(got, -7);
}

TEST(ResolveAttachment, DepthAndStencilModes) {
  Attachment ms(VK_FORMAT_D32_SFLOAT, 4, 4, 1, 1), single(VK_FORMAT_D32_SFLOAT, 4, 1, 1, 1);
  const float depths[4] = {0.5f, 0.25f, 0.75f, 0.125f};
  for (uint32_t s = 0; s < 4; ++s) std::memcpy(ms.at(0, 0, s), &depths[s], 4);
  auto resolved = [&](VkResolveModeFlagBits mode) {
    resolveAttachment(ms.view, single.view, VK_IMAGE_ASPECT_DEPTH_BIT, mode, {0, 0, 1, 1}, 1);
    float d;
    std::memcpy(&d, single.at(0, 0, 0), 4);
    return d;
  };
  EXPECT_EQ(resolved(VK_RESOLVE_MODE_SAMPLE_ZERO_BIT), 0.5f);
  EXPECT_EQ(resolved(VK_RESOLVE_MODE_MIN_BIT), 0.125f);
  EXPECT_EQ(resolved(VK_RESOLVE_MODE_MAX_BIT), 0.75f);
  EXPECT_EQ(resolved(VK_RESOLVE_MODE_AVERAGE_BIT), 0.40625f);

  Attachment sms(VK_FORMAT_S8_UINT, 1, 4, 1, 1), ss(VK_FORMAT_S8_UINT, 1, 1, 1, 1);
  const uint8_t stencils[4] = {9, 3, 200, 17};
  for (uint32_t s = 0; s < 4; ++s) *sms.at(0, 0, s) = stencils[s];
  resolveAttachment(sms.view, ss.view, VK_IMAGE_ASPECT_STENCIL_BIT, VK_RESOLVE_MODE_MAX_BIT, {0, 0, 1, 1}, 1);
  EXPECT_EQ(*ss.at(0, 0, 0), 200);
  resolveAttachment(sms.view, ss.view, VK_IMAGE_ASPECT_STENCIL_BIT, VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, {0, 0, 1, 1}, 1);
  EXPECT_EQ(*ss.at(0, 0, 0), 9);
}

TEST(ResolveAttachment, OnlyTheAreaIsWritten) {
  Attachment ms(VK_FORMAT_R8G8B8A8_UNORM, 4, 4, 3, 1), single(VK_FORMAT_R8G8B8A8_UNORM, 4, 1, 3, 1);
  std::memset(ms.memory.data(), 200, ms.memory.size());
  std::memset(single.memory.data(), 7, single.memory.size());
  resolveAttachment(ms.view, single.view, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, {1, 0, 2, 1}, 1);
  EXPECT_EQ(single.at(0, 0, 0)[0], 7);
  EXPECT_EQ(single.at(1, 0, 0)[0], 200);
  EXPECT_EQ(single.at(2, 0, 0)[0], 7);
}

}  // namespace
}  // namespace tessera::raster
