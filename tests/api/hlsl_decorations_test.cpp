// VK_GOOGLE_decorate_string and VK_GOOGLE_hlsl_functionality1 through the loader with
// validation, on Tessera and on lavapipe in the same test. The extensions let a module carry
// SPV_GOOGLE_decorate_string's OpDecorateStringGOOGLE / OpMemberDecorateStringGOOGLE and
// SPV_GOOGLE_hlsl_functionality1's HlslSemanticGOOGLE and HlslCounterBufferGOOGLE (through
// OpDecorateId): reflection data that does not change what the shader computes (SPIR-V spec,
// "Decoration": UserSemantic and CounterBuffer "have no semantic impact"). The module
// (tests/shaders/hlsl_decorations.spvasm) is an HLSL-style AppendStructuredBuffer: even inputs
// are appended as 3 v + 1 in whatever order the invocations reach the counter, so the appended
// values are compared as sets, with the spec's expectation and with lavapipe's.
#include <gtest/gtest.h>
#include <vulkan/vulkan.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "compute_fixture.h"
#include "dual_driver.h"
#include "test_device.h"

namespace tessera_test {
namespace {

constexpr uint32_t kN = 256;

uint32_t input(uint32_t i) { return i * 7 + 3; }

// The appended values (sorted) and the counter.
std::vector<uint32_t> run(VkPhysicalDevice pd) {
  VkPhysicalDeviceVulkan13Features v13{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES};
  TestDevice device(pd, nullptr, &v13,
                    {VK_GOOGLE_DECORATE_STRING_EXTENSION_NAME, VK_GOOGLE_HLSL_FUNCTIONALITY_1_EXTENSION_NAME});
  const VkDevice dev = device.dev;
  EXPECT_NE(dev, VK_NULL_HANDLE);
  if (!dev) return {};
  VkDescriptorSetLayoutBinding bindings[3];
  for (uint32_t b = 0; b < 3; ++b)
    bindings[b] = {b, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr};
  VkDescriptorSetLayoutCreateInfo dslci{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 3, bindings};
  VkDescriptorSetLayout setLayout;
  vkCreateDescriptorSetLayout(dev, &dslci, nullptr, &setLayout);
  VkPipelineLayoutCreateInfo plci{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &setLayout};
  VkPipelineLayout layout;
  vkCreatePipelineLayout(dev, &plci, nullptr, &layout);
  const VkShaderModule module = device.createShaderModule(loadCorpusShader("hlsl_decorations"));
  VkComputePipelineCreateInfo cpci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
  cpci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main", nullptr};
  cpci.layout = layout;
  VkPipeline pipeline = VK_NULL_HANDLE;
  EXPECT_EQ(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpci, nullptr, &pipeline), VK_SUCCESS);
  if (!pipeline) return {};

  void* maps[3];
  VkBuffer buffers[3];
  const VkDeviceSize sizes[3] = {kN * 4, kN * 4, 4};
  for (uint32_t b = 0; b < 3; ++b) {
    buffers[b] = device.createMappedBuffer(sizes[b], VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, &maps[b]);
    std::memset(maps[b], 0xFF, sizes[b]);
  }
  for (uint32_t i = 0; i < kN; ++i) static_cast<uint32_t*>(maps[0])[i] = input(i);
  *static_cast<uint32_t*>(maps[2]) = 0;
  VkDescriptorPoolSize poolSize{VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3};
  VkDescriptorPoolCreateInfo dpci{VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, nullptr, 0, 1, 1, &poolSize};
  VkDescriptorPool descriptorPool;
  vkCreateDescriptorPool(dev, &dpci, nullptr, &descriptorPool);
  VkDescriptorSetAllocateInfo dsai{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, nullptr, descriptorPool, 1, &setLayout};
  VkDescriptorSet set;
  vkAllocateDescriptorSets(dev, &dsai, &set);
  VkDescriptorBufferInfo infos[3];
  for (uint32_t b = 0; b < 3; ++b) infos[b] = {buffers[b], 0, VK_WHOLE_SIZE};
  VkWriteDescriptorSet write{VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, nullptr, set, 0, 0, 3, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                             nullptr, infos};
  vkUpdateDescriptorSets(dev, 1, &write, 0, nullptr);

  VkCommandPoolCreateInfo cpoolci{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
  VkCommandPool pool;
  vkCreateCommandPool(dev, &cpoolci, nullptr, &pool);
  VkCommandBufferAllocateInfo cbai{VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, nullptr, pool, VK_COMMAND_BUFFER_LEVEL_PRIMARY, 1};
  VkCommandBuffer cmd;
  vkAllocateCommandBuffers(dev, &cbai, &cmd);
  VkCommandBufferBeginInfo bi{VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
  vkBeginCommandBuffer(cmd, &bi);
  vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, nullptr);
  vkCmdDispatch(cmd, kN / 64, 1, 1);
  VkMemoryBarrier host{VK_STRUCTURE_TYPE_MEMORY_BARRIER, nullptr, VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_HOST_READ_BIT};
  vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &host, 0, nullptr, 0, nullptr);
  vkEndCommandBuffer(cmd);
  device.submitAndWait(cmd);
  const uint32_t count = *static_cast<uint32_t*>(maps[2]);
  std::vector<uint32_t> out;
  if (count <= kN) out.assign(static_cast<uint32_t*>(maps[1]), static_cast<uint32_t*>(maps[1]) + count);
  std::sort(out.begin(), out.end());
  out.push_back(count);

  vkDestroyCommandPool(dev, pool, nullptr);
  vkDestroyDescriptorPool(dev, descriptorPool, nullptr);
  vkDestroyPipeline(dev, pipeline, nullptr);
  vkDestroyPipelineLayout(dev, layout, nullptr);
  vkDestroyDescriptorSetLayout(dev, setLayout, nullptr);
  vkDestroyShaderModule(dev, module, nullptr);
  for (VkBuffer b : buffers) vkDestroyBuffer(dev, b, nullptr);
  return out;
}

TEST(HlslDecorations, StringAndCounterBufferDecorationsAreAcceptedAndChangeNothing) {
  if (std::getenv("TESSERA_TEST_OTHER_DRIVER")) GTEST_SKIP() << "compares Tessera with lavapipe itself";
  DualDriverInstance drivers;
  ASSERT_NE(drivers.tessera, VK_NULL_HANDLE);
  std::vector<uint32_t> want;
  for (uint32_t i = 0; i < kN; ++i)
    if (input(i) % 2 == 0) want.push_back(3 * input(i) + 1);
  std::sort(want.begin(), want.end());
  want.push_back(uint32_t(want.size()));
  EXPECT_EQ(run(drivers.tessera), want) << "Tessera vs the spec";
  if (drivers.lavapipe) {
    EXPECT_EQ(run(drivers.lavapipe), want) << "lavapipe vs the spec";
  }
}

}  // namespace
}  // namespace tessera_test
