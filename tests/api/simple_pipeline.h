// The graphics pipeline most scene tests draw with, written once: a vertex and a fragment
// stage without vertex input, one viewport over the whole target, a dynamic scissor, no
// culling, one colour attachment written in full, dynamic rendering. Tests that need other
// state build their own create info.
#pragma once

#include <vulkan/vulkan.h>

#include <cstdint>
#include <vector>

namespace tessera_test {

struct SimplePipeline {
  VkShaderModule vertex = VK_NULL_HANDLE, fragment = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  uint32_t width = 0, height = 0;  // the viewport
  VkFormat colorFormat = VK_FORMAT_R8G8B8A8_UNORM;
  VkPrimitiveTopology topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  const void* fragmentStageNext = nullptr;  // the fragment stage create info's pNext chain
};

// VK_NULL_HANDLE (and a failed expectation) when creation fails.
VkPipeline createSimplePipeline(VkDevice device, const SimplePipeline& desc);

// One draw of 3 vertices without vertex input (corpus shaders `vertex` and `fragment`) through
// a SimplePipeline into a size x size colour target of `format` cleared to zeros, on a device
// made with `v13` (dynamic rendering on); returns the target's bytes (texelBytes a texel),
// empty when the device could not be made. `fragmentStageNext` as in SimplePipeline;
// `moreFeatures`: feature structs chained after v13 at device creation; `extensions`: the
// device extensions enabled; `pipelineFormat`: the pipeline's colour attachment format where
// it is not the target's (VK_FORMAT_MAX_ENUM: the target's).
std::vector<uint8_t> drawCorpusTriangle(VkPhysicalDevice pd, const char* vertex, const char* fragment, VkFormat format,
                                        uint32_t size, uint32_t texelBytes, VkPhysicalDeviceVulkan13Features v13,
                                        const void* fragmentStageNext = nullptr, void* moreFeatures = nullptr,
                                        const std::vector<const char*>& extensions = {},
                                        VkFormat pipelineFormat = VK_FORMAT_MAX_ENUM);

}  // namespace tessera_test
