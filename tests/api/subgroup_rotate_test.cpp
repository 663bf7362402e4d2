// VK_KHR_shader_subgroup_rotate through the loader with validation: the feature structure
// (sType 1000416000, which Debian 12's headers predate: build/icd/generated/supplement.h), the
// subgroup operation bits, and OpGroupNonUniformRotateKHR with and without a cluster size in a
// compute dispatch, each invocation's results against SPV_KHR_subgroup_rotate's definition
// (lane l reads lane (l - l % C) + (l % C + delta) % C). Tessera only: lavapipe 22.3.6 lacks the
// extension.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "dual_driver.h"
#include "one_set_compute.h"
#include "test_device.h"

namespace tessera_test {
namespace {

// VkPhysicalDeviceShaderSubgroupRotateFeaturesKHR and the two operation bits, as the later
// headers define them.
struct RotateFeatures {
  VkStructureType sType = VkStructureType(1000416000);
  void* pNext = nullptr;
  VkBool32 shaderSubgroupRotate = VK_FALSE;
  VkBool32 shaderSubgroupRotateClustered = VK_FALSE;
};
constexpr VkSubgroupFeatureFlags kRotateBit = 0x200, kRotateClusteredBit = 0x400;

TEST(SubgroupRotate, RotatesAndClusteredRotatesMatchTheExtensionsDefinition) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "Tessera's extension";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  // The installed validation layers (1.3.239) predate the extension: they take its feature
  // structure in VkDeviceCreateInfo's chain for an unknown one, and the shader's
  // GroupNonUniformRotateKHR capability and SPV_KHR_subgroup_rotate extension for ones Vulkan
  // does not support.
  drivers.tolerate("VUID-VkDeviceCreateInfo-pNext-pNext");
  drivers.tolerate("VUID-VkShaderModuleCreateInfo-pCode-01090");
  drivers.tolerate("VUID-VkShaderModuleCreateInfo-pCode-04146");
  RotateFeatures supported;
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
  vkGetPhysicalDeviceFeatures2(drivers.tessera, &f2);
  EXPECT_TRUE(supported.shaderSubgroupRotate);
  EXPECT_TRUE(supported.shaderSubgroupRotateClustered);
  VkPhysicalDeviceSubgroupProperties subgroup{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &subgroup};
  vkGetPhysicalDeviceProperties2(drivers.tessera, &p2);
  EXPECT_EQ(subgroup.supportedOperations & (kRotateBit | kRotateClusteredBit), kRotateBit | kRotateClusteredBit);

  RotateFeatures enable;
  enable.shaderSubgroupRotate = enable.shaderSubgroupRotateClustered = VK_TRUE;
  TestDevice device(drivers.tessera, nullptr, &enable, {"VK_KHR_shader_subgroup_rotate"});
  ASSERT_NE(device.dev, VK_NULL_HANDLE);
  constexpr uint32_t kInvocations = 256;
  void* inMap;
  void* outMap;
  VkBuffer in = device.createMappedBuffer(kInvocations * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &inMap);
  VkBuffer out = device.createMappedBuffer(kInvocations * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  std::vector<uint32_t> values(kInvocations);
  for (uint32_t i = 0; i < kInvocations; ++i) values[i] = (i * 2246822519u) % 100000 + 3;
  std::memcpy(inMap, values.data(), kInvocations * 4);
  std::memset(outMap, 0, kInvocations * 16);
  {
    OneSetCompute compute(device, {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER}, "subgroup_rotate");
    ASSERT_TRUE(compute.ok());
    compute.writeBuffer(0, in);
    compute.writeBuffer(1, out);
    compute.submit(compute.record(kInvocations / 64));
  }
  std::vector<uint32_t> got(kInvocations * 4);
  std::memcpy(got.data(), outMap, kInvocations * 16);
  const uint32_t d = values[0] % 7;
  for (uint32_t i = 0; i < kInvocations; ++i) {
    const uint32_t size = got[4 * i + 3];
    ASSERT_TRUE(size >= 4 && (size & (size - 1)) == 0 && 64 % size == 0) << "invocation " << i << ": SubgroupSize " << size;
    // Invocations of a subgroup are consecutive in x here (a workgroup of 64 in one dimension).
    const uint32_t lane = i % size, first = i - lane;
    auto rotated = [&](uint32_t delta, uint32_t cluster) {
      return values[first + (lane - lane % cluster) + (lane % cluster + delta) % cluster];
    };
    EXPECT_EQ(got[4 * i], rotated(3, size)) << "invocation " << i;
    EXPECT_EQ(got[4 * i + 1], rotated(5, 4)) << "invocation " << i;
    EXPECT_EQ(got[4 * i + 2], rotated(d, size)) << "invocation " << i;
    if (::testing::Test::HasFailure()) break;
  }
  vkDestroyBuffer(device.dev, in, nullptr);
  vkDestroyBuffer(device.dev, out, nullptr);
}

}  // namespace
}  // namespace tessera_test
