// The vkGetPhysicalDevice* queries.
#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>

#include "core_properties.h"
#include "entrypoints.h"
#include "external_memory.h"
#include "instance.h"
#include "physical_device.h"
#include "resources.h"
#include "supplement.h"
#include "tessera/format.h"
#include "tessera/transform_feedback.h"
#include "version.h"

namespace tessera {

VkResult enumerateExtensionProperties(const FeatureSet* deviceFeatures, const char* layer, uint32_t* pCount,
                                      VkExtensionProperties* pProps);

namespace {

// MemAvailable from /proc/meminfo (what the kernel could give without swapping), in bytes;
// sysinfo's free RAM when that file cannot be read.
VkDeviceSize availableSystemMemory() {
  if (FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[128];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof(line), f)) found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return VkDeviceSize(kib) * 1024;
  }
  struct sysinfo info {};
  return sysinfo(&info) == 0 ? VkDeviceSize(info.freeram) * info.mem_unit : 0;
}

CoreProperties coreProperties(const PhysicalDevice& pd) {
  CoreProperties c;
  auto& v11 = c.v11;
  std::memcpy(v11.deviceUUID, pd.deviceUuid, VK_UUID_SIZE);
  std::memcpy(v11.driverUUID, pd.driverUuid, VK_UUID_SIZE);
  v11.deviceLUIDValid = VK_FALSE;
  v11.subgroupSize = pd.simdWidth;
  // The JIT's subgroup operations act on a kernel batch's lanes whatever the stage; a fragment
  // batch is whole 2x2 quads, so quad operations see pixel quads (lavapipe's two stages;
  // tests/api/subgroup_fragment_test.cpp, CTS run 2026-11-29-s21-subgroups-fragment).
  v11.subgroupSupportedStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  v11.subgroupSupportedOperations = VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT |
                                    VK_SUBGROUP_FEATURE_ARITHMETIC_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT |
                                    VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT |
                                    VK_SUBGROUP_FEATURE_CLUSTERED_BIT | VK_SUBGROUP_FEATURE_QUAD_BIT |
                                    VK_SUBGROUP_FEATURE_ROTATE_BIT_KHR | VK_SUBGROUP_FEATURE_ROTATE_CLUSTERED_BIT_KHR;
  v11.subgroupQuadOperationsInAllStages = VK_FALSE;
  v11.pointClippingBehavior = VK_POINT_CLIPPING_BEHAVIOR_ALL_CLIP_PLANES;
  // Multiview draws each view one after another with the draw's own instance indices
  // (icd/multiview.h), so instance indices are not limited by the view count: lavapipe's limit.
  v11.maxMultiviewViewCount = 6;
  v11.maxMultiviewInstanceIndex = (1u << 31) - 1;
  v11.protectedNoFault = VK_FALSE;
  v11.maxPerSetDescriptors = kMaxPerSetDescriptors;
  v11.maxMemoryAllocationSize = pd.memory.memoryHeaps[0].size;

  auto& v12 = c.v12;
  v12.driverID = VkDriverId(0x7E55);
  std::snprintf(v12.driverName, sizeof(v12.driverName), "Tessera");
  std::snprintf(v12.driverInfo, sizeof(v12.driverInfo), "Tessera %s (build %s, LLVM %s)",
                TESSERA_VERSION_STRING, TESSERA_BUILD_ID, TESSERA_LLVM_VERSION);
  v12.conformanceVersion = {0, 0, 0, 0};  // not (yet) a conformant implementation
  v12.denormBehaviorIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  v12.roundingModeIndependence = VK_SHADER_FLOAT_CONTROLS_INDEPENDENCE_ALL;
  // What the JIT does anyway: LLVM IR without fast-math assumptions (only contraction, which
  // NoContraction turns off) keeps signed zeros, infinities and NaNs; kernels run with the
  // default MXCSR (no FTZ/DAZ), so denormals are preserved; every operation rounds to nearest
  // even (half arithmetic is done in float and rounded once, exact for +, -, *, /). Flushing
  // denormals and round-toward-zero are not offered.
  v12.shaderSignedZeroInfNanPreserveFloat16 = VK_TRUE;
  v12.shaderSignedZeroInfNanPreserveFloat32 = VK_TRUE;
  v12.shaderSignedZeroInfNanPreserveFloat64 = VK_TRUE;
  v12.shaderDenormPreserveFloat16 = VK_TRUE;
  v12.shaderDenormPreserveFloat32 = VK_TRUE;
  v12.shaderDenormPreserveFloat64 = VK_TRUE;
  v12.shaderRoundingModeRTEFloat16 = VK_TRUE;
  v12.shaderRoundingModeRTEFloat32 = VK_TRUE;
  v12.shaderRoundingModeRTEFloat64 = VK_TRUE;
  // Descriptors are read from set memory when a command executes (icd/cmd_bind.cpp snapshots
  // point at it) and every buffer and texel-buffer access is checked against the descriptor it
  // reads then, so robustBufferAccess holds for descriptors updated after binding too:
  // tests/api/update_after_bind_robustness_test.cpp.
  v12.robustBufferAccessUpdateAfterBind = VK_TRUE;
  v12.maxUpdateAfterBindDescriptorsInAllPools = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindSamplers = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindUniformBuffers = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindStorageBuffers = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindSampledImages = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindStorageImages = 1u << 20;
  v12.maxPerStageDescriptorUpdateAfterBindInputAttachments = 1u << 20;
  v12.maxPerStageUpdateAfterBindResources = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindSamplers = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindUniformBuffers = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindUniformBuffersDynamic = kMaxDynamicUniformBuffers;
  v12.maxDescriptorSetUpdateAfterBindStorageBuffers = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindStorageBuffersDynamic = kMaxDynamicStorageBuffers;
  v12.maxDescriptorSetUpdateAfterBindSampledImages = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindStorageImages = 1u << 20;
  v12.maxDescriptorSetUpdateAfterBindInputAttachments = 1u << 20;
  // "Multisample resolve operations" for depth and stencil (raster/resolve_attachment.cpp):
  // sample 0, the average (depth), the minimum and the maximum, each aspect with its own mode
  // or none.
  v12.supportedDepthResolveModes =
      VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_AVERAGE_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  v12.supportedStencilResolveModes = VK_RESOLVE_MODE_SAMPLE_ZERO_BIT | VK_RESOLVE_MODE_MIN_BIT | VK_RESOLVE_MODE_MAX_BIT;
  v12.independentResolveNone = VK_TRUE;
  v12.independentResolve = VK_TRUE;
  v12.maxTimelineSemaphoreValueDifference = UINT64_MAX;
  v12.framebufferIntegerColorSampleCounts = kSupportedSampleCounts;
  // Min/max reduction (sampler/reference_sampler.cpp) works per component on any filterable
  // format, before the view's swizzle is applied like any other sample.
  v12.filterMinmaxSingleComponentFormats = VK_TRUE;
  v12.filterMinmaxImageComponentMapping = VK_TRUE;

  auto& v13 = c.v13;
  v13.minSubgroupSize = kMinSubgroupSize;
  v13.maxSubgroupSize = pd.simdWidth;
  v13.maxComputeWorkgroupSubgroups = 1024 / kMinSubgroupSize;
  v13.requiredSubgroupSizeStages = VK_SHADER_STAGE_COMPUTE_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  v13.maxInlineUniformBlockSize = kMaxInlineUniformBlockSize;
  v13.maxPerStageDescriptorInlineUniformBlocks = 8;
  v13.maxPerStageDescriptorUpdateAfterBindInlineUniformBlocks = 8;
  v13.maxDescriptorSetInlineUniformBlocks = kMaxInlineUniformBlocksPerSet;
  v13.maxDescriptorSetUpdateAfterBindInlineUniformBlocks = kMaxInlineUniformBlocksPerSet;
  v13.maxInlineUniformTotalSize = kMaxInlineUniformBlockSize * kMaxInlineUniformBlocksPerSet;
  // A texel buffer's texels are read and written one at a time by the JIT's runtime helpers
  // (spirv_jit/runtime_image.cpp) at view address + index * texel size, with single loads and
  // stores only for 4- and 8-byte texels, which single-texel offsets keep aligned; every other
  // size is copied bytewise. So any offset that is a multiple of the texel (or, for 3-component
  // formats, of the component) works: tests/api/texel_buffer_offset_test.cpp.
  v13.storageTexelBufferOffsetAlignmentBytes = 16;
  v13.storageTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  v13.uniformTexelBufferOffsetAlignmentBytes = 16;
  v13.uniformTexelBufferOffsetSingleTexelAlignment = VK_TRUE;
  v13.maxBufferSize = pd.memory.memoryHeaps[0].size;
  return c;
}

template <typename T>
VkResult fillArray(uint32_t* pCount, T* pOut, std::initializer_list<T> items) {
  if (!pOut) {
    *pCount = uint32_t(items.size());
    return VK_SUCCESS;
  }
  uint32_t n = std::min<uint32_t>(*pCount, uint32_t(items.size()));
  std::copy_n(items.begin(), n, pOut);
  *pCount = n;
  return n < items.size() ? VK_INCOMPLETE : VK_SUCCESS;
}

VkQueueFamilyProperties queueFamily() {
  return {VK_QUEUE_GRAPHICS_BIT | VK_QUEUE_COMPUTE_BIT | VK_QUEUE_TRANSFER_BIT, 1, 64, {1, 1, 1}};
}

VkFormatFeatureFlags legacyFlags(VkFormatFeatureFlags2 flags) {
  return VkFormatFeatureFlags(flags & 0x7FFFFFFFull);
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceProperties(VkPhysicalDevice physicalDevice,
                                                                VkPhysicalDeviceProperties* pProperties) {
  *pProperties = fromHandle<PhysicalDevice>(physicalDevice)->properties;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceProperties2(VkPhysicalDevice physicalDevice,
                                                                 VkPhysicalDeviceProperties2* pProperties) {
  const PhysicalDevice& pd = *fromHandle<PhysicalDevice>(physicalDevice);
  pProperties->properties = pd.properties;
  const CoreProperties core = coreProperties(pd);
  for (auto* s = static_cast<VkBaseOutStructure*>(pProperties->pNext); s; s = s->pNext) {
    if (writeCoreProperties(core, s)) continue;
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_EXT) {
      // Any 32-bit divisor divides the instance number (lavapipe's value).
      reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesEXT*>(s)->maxVertexAttribDivisor = ~0u;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VERTEX_ATTRIBUTE_DIVISOR_PROPERTIES_KHR) {
      // The same, and a non-zero firstInstance with any divisor: "Vertex Input Address
      // Calculation"'s firstInstance + (InstanceIndex - firstInstance) / divisor
      // (raster/draw_vertices.cpp, spirv_jit/translate_vertex_fetch.cpp).
      auto* p = reinterpret_cast<VkPhysicalDeviceVertexAttributeDivisorPropertiesKHR*>(s);
      p->maxVertexAttribDivisor = ~0u;
      p->supportsNonZeroFirstInstance = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MULTI_DRAW_PROPERTIES_EXT) {
      // Draws of one vkCmdDrawMulti*EXT: copied into the command buffer's arena, no fixed
      // table, so any count fits; lavapipe's value.
      reinterpret_cast<VkPhysicalDeviceMultiDrawPropertiesEXT*>(s)->maxMultiDrawCount = 2048;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR) {
      reinterpret_cast<VkPhysicalDevicePushDescriptorPropertiesKHR*>(s)->maxPushDescriptors = kMaxPushDescriptors;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT) {
      reinterpret_cast<VkPhysicalDeviceExternalMemoryHostPropertiesEXT*>(s)->minImportedHostPointerAlignment =
          minImportedHostPointerAlignment();
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_CUSTOM_BORDER_COLOR_PROPERTIES_EXT) {
      // A custom colour is four words in the sampler's own state (sampling.h), no device
      // table, so nothing limits the count; lavapipe's value.
      reinterpret_cast<VkPhysicalDeviceCustomBorderColorPropertiesEXT*>(s)->maxCustomBorderColorSamplers = 32768;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SAMPLE_LOCATIONS_PROPERTIES_EXT) {
      // VK_EXT_sample_locations (raster.h: SampleLocations): every count above 1, one location
      // set for every pixel (a 1x1 grid), in sixteenths of a pixel like the standard table,
      // anywhere a standard location may be; each draw takes its own pipeline's or dynamic
      // state's locations, so they may vary within a subpass.
      auto* p = reinterpret_cast<VkPhysicalDeviceSampleLocationsPropertiesEXT*>(s);
      p->sampleLocationSampleCounts = kCustomSampleLocationCounts;
      p->maxSampleLocationGridSize = {1, 1};
      p->sampleLocationCoordinateRange[0] = 0.0f;
      p->sampleLocationCoordinateRange[1] = 0.9375f;
      p->sampleLocationSubPixelBits = 4;
      p->variableSampleLocations = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_TRANSFORM_FEEDBACK_PROPERTIES_EXT) {
      // "Transform Feedback" limits: four vertex streams (geometryStreams), four buffers, byte
      // counts held in the counter buffers' 32-bit words; data sizes and stride at the spec's
      // minimums. Queries and vkCmdDrawIndirectByteCountEXT work (tests/api/transform_feedback_test.cpp,
      // geometry_streams_test.cpp). A geometry stage emitting to several streams must output
      // points (transformFeedbackStreamsLinesTriangles false, as lavapipe), and only stream 0
      // is rasterized (no rasterization stream select).
      auto* p = reinterpret_cast<VkPhysicalDeviceTransformFeedbackPropertiesEXT*>(s);
      p->maxTransformFeedbackStreams = kMaxTransformFeedbackStreams;
      p->maxTransformFeedbackBuffers = kMaxTransformFeedbackBuffers;
      p->maxTransformFeedbackBufferSize = UINT32_MAX;
      p->maxTransformFeedbackStreamDataSize = 512;
      p->maxTransformFeedbackBufferDataSize = 512;
      p->maxTransformFeedbackBufferDataStride = 2048;
      p->transformFeedbackQueries = VK_TRUE;
      p->transformFeedbackStreamsLinesTriangles = VK_FALSE;
      p->transformFeedbackRasterizationStreamSelect = VK_FALSE;
      p->transformFeedbackDraw = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ROBUSTNESS_2_PROPERTIES_EXT) {
      // Ranges are checked to the byte (each scalar access on its own): no rounding up.
      auto* p = reinterpret_cast<VkPhysicalDeviceRobustness2PropertiesEXT*>(s);
      p->robustStorageBufferAccessSizeAlignment = 1;
      p->robustUniformBufferAccessSizeAlignment = 1;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_ROBUSTNESS_PROPERTIES_EXT) {
      // What an access out of range does when no robustness feature is enabled and the pipeline
      // asks for nothing: the same as with everything enabled, since the JIT bounds-checks every
      // descriptor access to the byte (loads read zero, stores are dropped), the vertex fetch
      // reads zero with the format's missing components, and texel reads replace an invalid
      // texel as robustImageAccess2 says (runtime_image.cpp), whatever the features.
      auto* p = reinterpret_cast<VkPhysicalDevicePipelineRobustnessPropertiesEXT*>(s);
      p->defaultRobustnessStorageBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
      p->defaultRobustnessUniformBuffers = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
      p->defaultRobustnessVertexInputs = VK_PIPELINE_ROBUSTNESS_BUFFER_BEHAVIOR_ROBUST_BUFFER_ACCESS_2_EXT;
      p->defaultRobustnessImages = VK_PIPELINE_ROBUSTNESS_IMAGE_BEHAVIOR_ROBUST_IMAGE_ACCESS_2_EXT;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_GRAPHICS_PIPELINE_LIBRARY_PROPERTIES_EXT) {
      // Fast linking: libraries compile their stages when created and a link without
      // link-time optimization finds them (graphics_pipeline_library.h). The interpolation of
      // a fragment input comes from the fragment shader's decorations alone (the JIT's
      // GraphicsFacts::inputInterpolation), whatever the last pre-rasterization stage says.
      auto* p = reinterpret_cast<VkPhysicalDeviceGraphicsPipelineLibraryPropertiesEXT*>(s);
      p->graphicsPipelineLibraryFastLinking = VK_TRUE;
      p->graphicsPipelineLibraryIndependentInterpolationDecoration = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROVOKING_VERTEX_PROPERTIES_EXT) {
      // Each draw carries its pipeline's mode (DrawState::provokingVertexLast), so pipelines of
      // both modes may share a render pass instance; a fan's triangles are captured with the
      // provoking vertex first or last like every other primitive (raster/transform_feedback.cpp).
      auto* p = reinterpret_cast<VkPhysicalDeviceProvokingVertexPropertiesEXT*>(s);
      p->provokingVertexModePerPipeline = VK_TRUE;
      p->transformFeedbackPreservesTriangleFanProvokingVertex = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTENDED_DYNAMIC_STATE_3_PROPERTIES_EXT) {
      // A draw's topology is read per draw by both paths (assembly, set-up, the stages), and
      // pipeline creation checks the patch list against the tessellation stages only when the
      // topology is static (graphics_pipeline.cpp), so a dynamic topology may change class.
      // tests/api/extended_dynamic_state3_draws_test.cpp (PrimitiveTopologyUnrestricted).
      reinterpret_cast<VkPhysicalDeviceExtendedDynamicState3PropertiesEXT*>(s)->dynamicPrimitiveTopologyUnrestricted = VK_TRUE;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_LINE_RASTERIZATION_PROPERTIES_EXT) {
      // Line endpoints are snapped to the grid of every vertex (raster/rules.h: kSubPixelBits).
      reinterpret_cast<VkPhysicalDeviceLineRasterizationPropertiesEXT*>(s)->lineSubPixelPrecisionBits =
          pd.properties.limits.subPixelPrecisionBits;
      continue;
    }
    if (s->sType == VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES) {
      auto* p = reinterpret_cast<VkPhysicalDeviceSubgroupProperties*>(s);
      p->subgroupSize = core.v11.subgroupSize;
      p->supportedStages = core.v11.subgroupSupportedStages;
      p->supportedOperations = core.v11.subgroupSupportedOperations;
      p->quadOperationsInAllStages = core.v11.subgroupQuadOperationsInAllStages;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceFeatures(VkPhysicalDevice physicalDevice,
                                                              VkPhysicalDeviceFeatures* pFeatures) {
  writeFeatures(fromHandle<PhysicalDevice>(physicalDevice)->features, pFeatures);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceFeatures2(VkPhysicalDevice physicalDevice,
                                                               VkPhysicalDeviceFeatures2* pFeatures) {
  writeFeatures(fromHandle<PhysicalDevice>(physicalDevice)->features, pFeatures);
}

// VK_EXT_sample_locations: a 1x1 grid for every count with custom locations, none for the others.
VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceMultisamplePropertiesEXT(VkPhysicalDevice, VkSampleCountFlagBits samples,
                                                                             VkMultisamplePropertiesEXT* pMultisampleProperties) {
  const bool custom = (kCustomSampleLocationCounts & samples) && !(samples & (samples - 1));
  pMultisampleProperties->maxSampleLocationGridSize = custom ? VkExtent2D{1, 1} : VkExtent2D{0, 0};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceMemoryProperties(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties* pProperties) {
  *pProperties = fromHandle<PhysicalDevice>(physicalDevice)->memory;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceMemoryProperties2(
    VkPhysicalDevice physicalDevice, VkPhysicalDeviceMemoryProperties2* pProperties) {
  const VkPhysicalDeviceMemoryProperties& memory = fromHandle<PhysicalDevice>(physicalDevice)->memory;
  pProperties->memoryProperties = memory;
  for (auto* p = static_cast<VkBaseOutStructure*>(pProperties->pNext); p; p = p->pNext) {
    if (p->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT) continue;
    auto* budget = reinterpret_cast<VkPhysicalDeviceMemoryBudgetPropertiesEXT*>(p);
    std::fill(std::begin(budget->heapBudget), std::end(budget->heapBudget), 0);  // spec: 0 past memoryHeapCount
    std::fill(std::begin(budget->heapUsage), std::end(budget->heapUsage), 0);
    // The heap is host RAM: this process may still get what it holds plus what the system has
    // available, never more than the heap it was promised.
    const VkDeviceSize used = deviceMemoryInUse();
    budget->heapUsage[0] = used;
    budget->heapBudget[0] = std::clamp<VkDeviceSize>(used + availableSystemMemory(), 1, memory.memoryHeaps[0].size);
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceQueueFamilyProperties(
    VkPhysicalDevice, uint32_t* pCount, VkQueueFamilyProperties* pProperties) {
  fillArray(pCount, pProperties, {queueFamily()});
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceQueueFamilyProperties2(
    VkPhysicalDevice, uint32_t* pCount, VkQueueFamilyProperties2* pProperties) {
  if (!pProperties) {
    *pCount = 1;
    return;
  }
  if (*pCount >= 1) pProperties[0].queueFamilyProperties = queueFamily();
  *pCount = std::min(*pCount, 1u);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceFormatProperties(VkPhysicalDevice, VkFormat format,
                                                                      VkFormatProperties* pProps) {
  pProps->linearTilingFeatures = legacyFlags(formatFeatures(format, VK_IMAGE_TILING_LINEAR));
  pProps->optimalTilingFeatures = legacyFlags(formatFeatures(format, VK_IMAGE_TILING_OPTIMAL));
  pProps->bufferFeatures = legacyFlags(bufferFormatFeatures(format));
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceFormatProperties2(VkPhysicalDevice pd, VkFormat format,
                                                                       VkFormatProperties2* pProps) {
  tessera_vkGetPhysicalDeviceFormatProperties(pd, format, &pProps->formatProperties);
  for (auto* s = static_cast<VkBaseOutStructure*>(pProps->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_FORMAT_PROPERTIES_3) {
      auto* p = reinterpret_cast<VkFormatProperties3*>(s);
      p->linearTilingFeatures = formatFeatures(format, VK_IMAGE_TILING_LINEAR);
      p->optimalTilingFeatures = formatFeatures(format, VK_IMAGE_TILING_OPTIMAL);
      p->bufferFeatures = bufferFormatFeatures(format);
    }
    // VK_EXT_multisampled_render_to_single_sampled: whether a subpass resolve of the format is
    // "optimally performed". Never on Tessera: a multisampled attachment, implicit ones
    // included (icd/cmd_render_pass.cpp), is ordinary memory as large as an explicit image, and
    // its resolve is a pass over all of it, so the extension saves no memory or bandwidth.
    if (s->sType == VK_STRUCTURE_TYPE_SUBPASS_RESOLVE_PERFORMANCE_QUERY_EXT)
      reinterpret_cast<VkSubpassResolvePerformanceQueryEXT*>(s)->optimal = VK_FALSE;
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceSparseImageFormatProperties(
    VkPhysicalDevice, VkFormat, VkImageType, VkSampleCountFlagBits, VkImageUsageFlags, VkImageTiling,
    uint32_t* pCount, VkSparseImageFormatProperties*) {
  *pCount = 0;  // no sparse residency
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceSparseImageFormatProperties2(
    VkPhysicalDevice, const VkPhysicalDeviceSparseImageFormatInfo2*, uint32_t* pCount,
    VkSparseImageFormatProperties2*) {
  *pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetPhysicalDeviceExternalBufferProperties(
    VkPhysicalDevice, const VkPhysicalDeviceExternalBufferInfo* pInfo, VkExternalBufferProperties* pProps) {
  // Opaque fds and host allocations, for any buffer (icd/external_memory.cpp).
  pProps->externalMemoryProperties = externalMemoryProperties(pInfo->handleType);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceToolProperties(
    VkPhysicalDevice, uint32_t* pCount, VkPhysicalDeviceToolProperties*) {
  *pCount = 0;
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumerateDeviceExtensionProperties(
    VkPhysicalDevice physicalDevice, const char* pLayerName, uint32_t* pCount, VkExtensionProperties* pProps) {
  return enumerateExtensionProperties(&fromHandle<PhysicalDevice>(physicalDevice)->features, pLayerName, pCount, pProps);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkEnumerateDeviceLayerProperties(VkPhysicalDevice, uint32_t* pCount,
                                                                       VkLayerProperties*) {
  *pCount = 0;
  return VK_SUCCESS;
}

}  // extern "C"
