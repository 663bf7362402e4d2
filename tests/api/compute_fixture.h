// Compute pipelines from the test corpus (tests/shaders), through the loader with validation.
#pragma once

#include <string>
#include <vector>

#include "vulkan_fixture.h"

namespace tessera_test {

std::vector<uint32_t> loadCorpusShader(const std::string& name);

class ComputeTest : public VulkanTest {
 protected:
  struct Program {
    VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
    VkPipelineLayout layout = VK_NULL_HANDLE;
    VkShaderModule module = VK_NULL_HANDLE;
    VkPipeline pipeline = VK_NULL_HANDLE;
    VkResult result = VK_SUCCESS;
  };
  // Storage buffers at set 0, bindings 0..bufferCount-1; push constants of pushBytes.
  Program createProgram(const std::vector<uint32_t>& spirv, uint32_t bufferCount, uint32_t pushBytes,
                        VkPipelineCache cache = VK_NULL_HANDLE, const void* pipelineNext = nullptr,
                        const VkSpecializationInfo* spec = nullptr);
  using VulkanTest::destroy;
  void destroy(Program& p);
  // Copies `data` into fresh storage buffers, dispatches, copies the results back into `data`.
  void run(const Program& p, std::vector<std::vector<uint8_t>*> data, const std::vector<uint8_t>& push,
           uint32_t groupsX, uint32_t groupsY = 1, uint32_t groupsZ = 1);
};

}  // namespace tessera_test
