// "Built-In Variables", SampleMask (input): the fragment's covered samples. At one sample per
// pixel every shaded fragment has sample 0 covered, so SampleMaskIn[0] is 1. The target is
// RGBA8 and the shader has no side effects, so Tessera's binned path shades through the
// kernel-only blocks, which fill SampleMaskIn only for shaders that read it
// (FragmentInterface::readsSampleMaskIn): this checks that such a shader gets it. The triangle
// is a sliver that wholly covers no 4x4 block (whole blocks set SampleMaskIn their own way).
// Through the loader with validation, on lavapipe too.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <vector>

#include "dual_driver.h"
#include "simple_pipeline.h"

namespace tessera_test {

namespace {

constexpr uint32_t kSize = 40;

// The target's RGBA8 texels (kSize x kSize, cleared to 0) after the sliver.
std::vector<uint8_t> run(VkPhysicalDevice pd) {
  return drawCorpusTriangle(pd, "sliver_triangle_vert", "sample_mask_in_color_frag", VK_FORMAT_R8G8B8A8_UNORM, kSize, 4,
                            VkPhysicalDeviceVulkan13Features{});
}

// Every shaded pixel (green set) saw SampleMaskIn[0] = 1 (red 255); returns how many were shaded.
uint32_t expectSampleZeroCovered(const std::vector<uint8_t>& texels, const char* driver) {
  uint32_t shaded = 0;
  int failures = 0;
  for (uint32_t p = 0; p < kSize * kSize && failures < 5; ++p) {
    const uint8_t* t = &texels[4 * p];
    if (t[1] == 0) continue;
    ++shaded;
    if (t[0] != 255) {
      ADD_FAILURE() << driver << " pixel (" << p % kSize << ", " << p / kSize << "): SampleMaskIn[0] was not 1 (red "
                    << int(t[0]) << ")";
      ++failures;
    }
  }
  return shaded;
}

TEST(SampleMaskIn, OneSampleFragmentsSeeSampleZeroCovered) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "runs Tessera and lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const std::vector<uint8_t> ours = run(drivers.tessera);
  ASSERT_EQ(ours.size(), size_t(kSize) * kSize * 4);
  const uint32_t shaded = expectSampleZeroCovered(ours, "Tessera");
  // The sliver, thinning to nothing, covers a pixel centre in about half the columns.
  EXPECT_GE(shaded, kSize / 4);
  EXPECT_LT(shaded, 3 * kSize);
  if (!drivers.lavapipe) return;
  const std::vector<uint8_t> theirs = run(drivers.lavapipe);
  EXPECT_EQ(expectSampleZeroCovered(theirs, "lavapipe"), shaded);
}

}  // namespace

}  // namespace tessera_test
