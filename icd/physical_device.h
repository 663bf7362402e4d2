// The CPU as a Vulkan physical device: properties, limits, features, memory and queue
// families, format support. Everything reported here must be true of the driver.
#pragma once

#include <vulkan/vulkan_core.h>

#include "feature_set.h"
#include "handles.h"
#include "tessera/shader_abi.h"

namespace tessera {

struct Instance;

struct PhysicalDevice : DispatchableObject {
  Instance* instance = nullptr;
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  FeatureSet features;
  uint32_t simdWidth = 4;
  uint8_t pipelineCacheUuid[VK_UUID_SIZE]{};
  uint8_t deviceUuid[VK_UUID_SIZE]{};
  uint8_t driverUuid[VK_UUID_SIZE]{};
};

// Fails with VK_ERROR_INITIALIZATION_FAILED (and a log line) on a host the driver cannot run
// on, so enumeration yields zero devices instead of crashing the program.
VkResult createPhysicalDevice(Instance* instance, PhysicalDevice** out);
void destroyPhysicalDevice(Instance* instance, PhysicalDevice* pd);

// The features Tessera implements (one place; see feature_set.h for the generated plumbing).
FeatureSet supportedFeatures();

// Format support (format_support.cpp).
VkFormatFeatureFlags2 formatFeatures(VkFormat format, VkImageTiling tiling);
VkFormatFeatureFlags2 bufferFormatFeatures(VkFormat format);

// Descriptor limits: reported in the properties and enforced by the descriptor code
// (icd/descriptor_set_layout.cpp), so both read them from here.
constexpr uint32_t kMaxPerSetDescriptors = 1u << 20;
constexpr uint32_t kMaxDynamicUniformBuffers = 16;  // per pipeline layout
constexpr uint32_t kMaxDynamicStorageBuffers = 16;
constexpr uint32_t kMaxInlineUniformBlockSize = 4096;
constexpr uint32_t kMaxInlineUniformBlocksPerSet = 8;
// Descriptors in a push descriptor set layout (VkPhysicalDevicePushDescriptorPropertiesKHR). Pushes
// are copied into the command buffer's arena (icd/cmd_push_descriptor.cpp), so nothing fixes this
// number; 32 is the spec's minimum and lavapipe's value.
constexpr uint32_t kMaxPushDescriptors = 32;
// maxSamplerLodBias: samplers clamp their bias to it when they are created (icd/sampler.cpp).
constexpr float kMaxSamplerLodBias = 16.0f;
// maxSamplerAnisotropy: max_Aniso of the "Scale Factor Operation" is the sampler's
// maxAnisotropy clamped to it (icd/sampler.cpp). 16 is the spec's required minimum where
// samplerAnisotropy is supported, and what OpenGL's GL_ARB_texture_filter_anisotropic asks for.
constexpr float kMaxSamplerAnisotropy = 16.0f;
static_assert(kMaxDynamicUniformBuffers + kMaxDynamicStorageBuffers <= abi::kMaxDynamicBuffers);

// Kernels can be compiled for any power-of-two width from this up to the device's SIMD width
// (VK_EXT_subgroup_size_control's required subgroup sizes).
constexpr uint32_t kMinSubgroupSize = 4;

// Every sample count with standard sample locations ("Multisampling"): the rasterizer's
// (raster.h: kStandardSampleLocations), for colour, depth, stencil, integer, storage and
// attachment-less rendering alike.
constexpr VkSampleCountFlags kSupportedSampleCounts =
    VK_SAMPLE_COUNT_1_BIT | VK_SAMPLE_COUNT_2_BIT | VK_SAMPLE_COUNT_4_BIT | VK_SAMPLE_COUNT_8_BIT | VK_SAMPLE_COUNT_16_BIT;

// VK_EXT_sample_locations' sampleLocationSampleCounts: every multisampled count (one sample
// is always at the centre).
constexpr VkSampleCountFlags kCustomSampleLocationCounts = kSupportedSampleCounts & ~VkSampleCountFlags(VK_SAMPLE_COUNT_1_BIT);

constexpr uint32_t kMemoryTypeBits = 0x1;  // one memory type: device-local, host-visible, coherent, cached
constexpr VkDeviceSize kMinResourceAlignment = 64;

}  // namespace tessera
