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

#include "compute_fixture.h"
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
  Outcome result;
  const VkDevice dev = d.dev;
  const VkDescriptorType types[3] = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                                     VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER};
  VkDescriptorSetLayoutBinding bindings[3];
  for (uint32_t b = 0; b < 3; ++b) bindings[b] = {b, types[b], 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 3, bindings};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule module = d.createShaderModule(loadCorpusShader("pipeline_robustness"));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, pipelineNext};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);

  void *outMap, *ssboMap, *uboMap;
  std::vector<uint32_t> ssboWords(16), uboWords(16);
  for (uint32_t i = 0; i < 16; ++i) ssboWords[i] = 100 + i, uboWords[i] = 200 + i;
  VkBuffer out = d.createMappedBuffer(4 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &outMap);
  VkBuffer ssbo = d.createMappedBuffer(4 * 16, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &ssboMap);
  VkBuffer ubo = d.createMappedBuffer(4 * 16, VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT, &uboMap);
  std::memset(outMap, 0xEE, 4 * 16);
  std::memcpy(ssboMap, ssboWords.data(), 4 * 16);
  std::memcpy(uboMap, uboWords.data(), 4 * 16);
  const VkDescriptorBufferInfo infos[3] = {{out, 0, VK_WHOLE_SIZE}, {ssbo, 0, 16}, {ubo, 0, 16}};

  VkDescriptorPoolSize sizes[2] = {{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 2}, {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 1}};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 2, sizes};
  VkDescriptorPool pool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &pool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, pool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  VkWriteDescriptorSet writes[3];
  for (uint32_t b = 0; b < 3; ++b)
    writes[b] = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, b, 0, 1, types[b], nullptr, &infos[b], nullptr};
  vkUpdateDescriptorSets(dev, 3, writes, 0, nullptr);

  VkCommandBuffer cmd = d.beginCommands();
  if (pipeline) {
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
    vkCmdDispatch(cmd, 1, 1, 1);
  }
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  d.submitAndWait(cmd);
  result.o.resize(4);
  std::memcpy(result.o.data(), outMap, 4 * 16);
  result.ssbo.resize(16);
  std::memcpy(result.ssbo.data(), ssboMap, 4 * 16);

  vkDestroyDescriptorPool(dev, pool, nullptr);
  for (VkBuffer b : {out, ssbo, ubo}) vkDestroyBuffer(dev, b, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
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
