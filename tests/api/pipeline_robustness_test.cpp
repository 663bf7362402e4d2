// VK_EXT_pipeline_robustness through the loader with validation: a device that enables
// pipelineRobustness and no robustness feature (not even robustBufferAccess) runs
// tests/shaders/pipeline_robustness.comp, whose loads and stores go past their descriptors'
// ranges, once with the pipeline asking for VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT
// on storage and uniform buffers (VkPipelineRobustnessCreateInfoEXT) and once asking nothing.
// Expected values from the spec's robustBufferAccess2 ("Robust Buffer Access"): a load past the
// range reads zero, a store there is discarded, OpArrayLength counts only the range. The
// second pipeline must behave the same because Tessera reports robust2 behaviour as its default
// (VkPhysicalDevicePipelineRobustnessPropertiesEXT), which the test checks too. lavapipe 22.3
// does not offer the extension.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <array>
#include <cstring>
#include <vector>

#include "device_compute.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

using U4 = std::array<uint32_t, 4>;

struct Outcome {
  std::vector<U4> o;
  std::vector<uint32_t> ssbo;  // the whole 16-word buffer behind the 4-word range
};

Outcome run(TestDevice& d, const void* pipelineNext) {
  std::vector<uint32_t> ssboWords(16), uboWords(16);
  for (uint32_t i = 0; i < 16; ++i) ssboWords[i] = 100 + i, uboWords[i] = 200 + i;
  const auto after = dispatchOnDevice(d, "pipeline_robustness",
                                      {{std::vector<uint32_t>(16, 0xEEEEEEEEu)},
                                       {ssboWords, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 16},
                                       {uboWords, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 16}},
                                      1, pipelineNext);
  Outcome result;
  if (after.size() != 3) return result;
  result.o.resize(4);
  std::memcpy(result.o.data(), after[0].data(), 4 * 16);
  result.ssbo = after[1];
  return result;
}

void expectRobust2(const Outcome& r, const char* what) {
  ASSERT_EQ(r.o.size(), 4u) << what;
  EXPECT_EQ(r.o[0], (U4{103, 0, 0, 4})) << what << ": s[3], s[4], s[1000] past the range read 0; length counts the range";
  EXPECT_EQ(r.o[1], (U4{200, 201, 202, 203})) << what << ": u[0] in range";
  EXPECT_EQ(r.o[2], (U4{0, 0, 0, 0})) << what << ": u[1] past the range reads 0";
  EXPECT_EQ(r.o[3], (U4{0, 0, 0, 0})) << what << ": u[3] past the range reads 0";
  for (uint32_t i = 0; i < 16; ++i) EXPECT_EQ(r.ssbo[i], 100 + i) << what << ": the store past the range is dropped, word " << i;
}

TEST(PipelineRobustness, RequestedAndDefaultBehaviourIsRobustBufferAccess2WithNoFeatureEnabled) {
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  const VkPhysicalDevice pd = drivers.tessera;
  VkPhysicalDevicePipelineRobustnessFeaturesEXT supported{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
  VkPhysicalDeviceFeatures2 f2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, &supported};
  vkGetPhysicalDeviceFeatures2(pd, &f2);
  ASSERT_TRUE(supported.pipelineRobustness);
  VkPhysicalDevicePipelineRobustnessPropertiesEXT defaults{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT};
  VkPhysicalDeviceProperties2 p2{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &defaults};
  vkGetPhysicalDeviceProperties2(pd, &p2);
  EXPECT_EQ(defaults.defaultRobustnessStorageBuffers, VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessUniformBuffers, VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessVertexInputs, VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT);
  EXPECT_EQ(defaults.defaultRobustnessImages, VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT);

  VkPhysicalDevicePipelineRobustnessFeaturesEXT enable{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_FEATURES_EXT};
  enable.pipelineRobustness = VK_TRUE;
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  v13.maintenance4 = VK_TRUE;  // glslang declares the workgroup size with LocalSizeId
  enable.pNext = &v13;
  VkPhysicalDeviceFeatures none{};  // robustBufferAccess off
  TestDevice d(pd, &none, &enable, {VK_EXT_PIPELINE_ROBUSTNESS_EXTENSION_NAME});
  ASSERT_NE(d.dev, VK_NULL_HANDLE);
  VkPipelineRobustnessCreateInfoEXT request{VK_STRUCTURE_TYPE_PIPELINE_ROBUSTNESS_CREATE_INFO_EXT};
  request.storageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
  request.uniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
  request.vertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_DEVICE_DEFAULT_EXT;
  request.images = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_DEVICE_DEFAULT_EXT;
  expectRobust2(run(d, &request), "requested");
  expectRobust2(run(d, nullptr), "device default");
}

}  // namespace
}  // namespace tessera_test
