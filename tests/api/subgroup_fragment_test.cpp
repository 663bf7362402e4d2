// Subgroup operations in fragment shaders (VkPhysicalDeviceSubgroupProperties::supportedStages
// includes FRAGMENT, as on lavapipe), through the loader with validation. A triangle whose
// slanted edge cuts 2x2 quads runs subgroup_fragment.frag (its header lists what each output
// holds); every covered pixel must show the spec's invariants ("Subgroup Operations"): the
// active count from subgroupAdd equals the ballot's bit count and lies in [1, SubgroupSize],
// SubgroupSize is the reported subgroupSize, the first active invocation is the ballot's
// lowest bit, the invocation's own bit is set in SubgroupEqMask, and the quad operations see
// the 2x2 pixel quad ("Quad Group Operations"). Run on lavapipe too where it offers the same
// operations in fragment shaders.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "simple_pipeline.h"

namespace tessera_test {

namespace {

constexpr uint32_t kSize = 24;
constexpr VkSubgroupFeatureFlags kOperations =
    VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT;

VkPhysicalDeviceSubgroupProperties subgroupProperties(VkPhysicalDevice pd) {
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(pd, &props);
  return subgroup;
}

// The target's texels (kSize x kSize, 4 words each; 0 where nothing was drawn).
// requiredSubgroupSize: 0, or the fragment stage's required subgroup size
// (VK_EXT_subgroup_size_control, core in 1.3).
std::vector<uint32_t> run(VkPhysicalDevice pd, uint32_t requiredSubgroupSize = 0) {
  VkPhysicalDeviceVulkan13Features v13{};
  v13.subgroupSizeControl = requiredSubgroupSize != 0;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, nullptr, requiredSubgroupSize};
  const std::vector<uint8_t> bytes = drawCorpusTriangle(pd, "diagonal_triangle_vert", "subgroup_fragment_frag",
                                                        VK_FORMAT_R32G32B32A32_UINT, kSize, 16, v13,
                                                        requiredSubgroupSize ? &required : nullptr);
  std::vector<uint32_t> texels(bytes.size() / 4);
  std::memcpy(texels.data(), bytes.data(), bytes.size());
  return texels;
}

// The invariants above on every covered pixel (count > 0); returns how many pixels were
// covered and the largest active count seen.
void expectInvariants(const std::vector<uint32_t>& texels, uint32_t subgroupSize, const char* driver, uint32_t* covered,
                      uint32_t* largest) {
  *covered = *largest = 0;
  int failures = 0;
  for (uint32_t p = 0; p < kSize * kSize && failures < 5; ++p) {
    const uint32_t* t = &texels[4 * p];
    if (t[0] == 0) continue;
    ++*covered;
    *largest = std::max(*largest, t[0]);
    const bool ok = t[0] == t[1] && t[0] <= subgroupSize && t[2] == subgroupSize && t[3] == 31u;
    if (!ok) {
      ADD_FAILURE() << driver << " pixel (" << p % kSize << ", " << p / kSize << "): count " << t[0] << ", ballot count "
                    << t[1] << ", SubgroupSize " << t[2] << " (reported " << subgroupSize << "), checks 0x" << std::hex
                    << t[3] << " (want 0x1f)";
      ++failures;
    }
  }
}

TEST(SubgroupFragment, FragmentShadersSeeSubgroupsAndQuadsAsTheSpecDefines) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "runs Tessera and lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const VkPhysicalDeviceSubgroupProperties ours = subgroupProperties(drivers.tessera);
  ASSERT_TRUE(ours.supportedStages & VK_SHADER_STAGE_FRAGMENT_BIT);
  ASSERT_EQ(ours.supportedOperations & kOperations, kOperations);
  uint32_t covered = 0, largest = 0;
  expectInvariants(run(drivers.tessera), ours.subgroupSize, "Tessera", &covered, &largest);
  // A real partial cover, with subgroups of more than one invocation.
  EXPECT_GT(covered, kSize * kSize / 4);
  EXPECT_LT(covered, kSize * kSize * 3 / 4);
  EXPECT_GT(largest, 4u);
  if (!drivers.lavapipe) return;
  const VkPhysicalDeviceSubgroupProperties theirs = subgroupProperties(drivers.lavapipe);
  if (!(theirs.supportedStages & VK_SHADER_STAGE_FRAGMENT_BIT) || (theirs.supportedOperations & kOperations) != kOperations)
    return;
  uint32_t lavapipeCovered = 0;
  expectInvariants(run(drivers.lavapipe), theirs.subgroupSize, "lavapipe", &lavapipeCovered, &largest);
  EXPECT_EQ(lavapipeCovered, covered);
}

// "Subgroup Size Control": a fragment stage created with a required subgroup size (Tessera
// lists FRAGMENT in requiredSubgroupSizeStages) runs with exactly that SubgroupSize, for every
// power of two from minSubgroupSize to maxSubgroupSize, and the invariants above hold at each;
// the largest active count shows the subgroups really hold that many invocations.
TEST(SubgroupFragment, ARequiredSubgroupSizeIsTheFragmentStagesSubgroupSize) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "runs Tessera and lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.instance, VK_NULL_HANDLE);
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  VkPhysicalDeviceVulkan13Properties v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
  VkPhysicalDeviceProperties2 props{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &v13};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &props);
  ASSERT_TRUE(v13.requiredSubgroupSizeStages & VK_SHADER_STAGE_FRAGMENT_BIT);
  int sizes = 0;
  for (uint32_t size = v13.minSubgroupSize; size <= v13.maxSubgroupSize; size *= 2, ++sizes) {
    SCOPED_TRACE(testing::Message() << "required subgroup size " << size);
    uint32_t covered = 0, largest = 0;
    expectInvariants(run(drivers.tessera, size), size, "Tessera", &covered, &largest);
    EXPECT_GT(covered, kSize * kSize / 4);
    EXPECT_EQ(largest, size) << "no subgroup was full";
  }
  EXPECT_GE(sizes, 2);
}

}  // namespace
}  // namespace tessera_test
