#include "physical_device.h"

#include <sys/sysinfo.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "host_allocator.h"
#include "instance.h"
#include "tessera/cpu_info.h"
#include "tessera/log.h"
#include "tessera/raster.h"
#include "tessera/spirv_jit.h"
#include "version.h"

namespace tessera {
namespace {

// Not a Khronos-registered vendor or driver ID: Tessera has none yet, and borrowing another
// driver's would let tools (and our benchmark harness) mistake one driver for the other.
constexpr uint32_t kVendorId = 0x7E55;
constexpr uint32_t kDeviceId = 0x0001;
constexpr VkDriverId kDriverId = VkDriverId(0x7E55);

VkDeviceSize heapSize() {
  struct sysinfo info {};
  if (sysinfo(&info) != 0) return VkDeviceSize(1) << 30;
  // Leave a quarter of RAM to the application and the OS, as a discrete GPU's memory would.
  return VkDeviceSize(info.totalram) * info.mem_unit / 4 * 3;
}

void fillUuid(uint8_t* out, const char* tag) {
  // Stable per build and host CPU kind: pipeline caches are keyed by it.
  char text[VK_UUID_SIZE * 2 + 1] = {};
  std::snprintf(text, sizeof(text), "%s-%s-%u", tag, TESSERA_BUILD_ID, hostCpu().simdWidth);
  uint64_t h1 = 1469598103934665603ull, h2 = 0x9e3779b97f4a7c15ull;
  for (const char* p = text; *p; ++p) {
    h1 = (h1 ^ uint8_t(*p)) * 1099511628211ull;
    h2 = (h2 ^ uint8_t(*p)) * 0xff51afd7ed558ccdull;
  }
  std::memcpy(out, &h1, 8);
  std::memcpy(out + 8, &h2, 8);
}

VkPhysicalDeviceLimits makeLimits(VkDeviceSize maxAllocation) {
  VkPhysicalDeviceLimits l{};
  l.maxImageDimension1D = 16384;
  l.maxImageDimension2D = 16384;
  l.maxImageDimension3D = 2048;
  l.maxImageDimensionCube = 16384;
  l.maxImageArrayLayers = 2048;
  l.maxTexelBufferElements = 128 * 1024 * 1024;
  l.maxUniformBufferRange = 65536;
  l.maxStorageBufferRange = 1u << 30;  // kernels saturate i32 offsets at 2^30 (translate_memory.cpp)
  l.maxPushConstantsSize = abi::kMaxPushConstantBytes;
  l.maxMemoryAllocationCount = 1u << 20;
  l.maxSamplerAllocationCount = 64 * 1024;
  l.bufferImageGranularity = 1;
  l.sparseAddressSpaceSize = 0;
  l.maxBoundDescriptorSets = abi::kMaxBoundSets;
  l.maxPerStageDescriptorSamplers = 1u << 20;
  l.maxPerStageDescriptorUniformBuffers = 1u << 20;
  l.maxPerStageDescriptorStorageBuffers = 1u << 20;
  l.maxPerStageDescriptorSampledImages = 1u << 20;
  l.maxPerStageDescriptorStorageImages = 1u << 20;
  l.maxPerStageDescriptorInputAttachments = 1u << 20;
  l.maxPerStageResources = 1u << 20;
  l.maxDescriptorSetSamplers = 1u << 20;
  l.maxDescriptorSetUniformBuffers = 1u << 20;
  l.maxDescriptorSetUniformBuffersDynamic = kMaxDynamicUniformBuffers;
  l.maxDescriptorSetStorageBuffers = 1u << 20;
  l.maxDescriptorSetStorageBuffersDynamic = kMaxDynamicStorageBuffers;
  l.maxDescriptorSetSampledImages = 1u << 20;
  l.maxDescriptorSetStorageImages = 1u << 20;
  l.maxDescriptorSetInputAttachments = 1u << 20;
  l.maxVertexInputAttributes = 32;
  l.maxVertexInputBindings = 32;
  l.maxVertexInputAttributeOffset = 2047;
  l.maxVertexInputBindingStride = 2048;
  l.maxVertexOutputComponents = 128;
  // "Tessellation" (raster/tessellator.cpp, raster/draw_tessellation.cpp,
  // spirv_jit/translate_tessellation.cpp): lavapipe's values. A patch's values travel as
  // abi::TessPatch: 32 locations of 4 components per vertex and per patch, 32 control points.
  l.maxTessellationGenerationLevel = 64;  // raster::kMaxTessellationLevel (raster/tessellator.h)
  l.maxTessellationPatchSize = abi::kMaxPatchVertices;
  l.maxTessellationControlPerVertexInputComponents = 128;
  l.maxTessellationControlPerVertexOutputComponents = 128;
  l.maxTessellationControlPerPatchOutputComponents = 128;
  l.maxTessellationControlTotalOutputComponents = 4096;
  l.maxTessellationEvaluationInputComponents = 128;
  l.maxTessellationEvaluationOutputComponents = 128;
  // "Geometry Shading" (raster/draw_geometry.cpp, spirv_jit/translate_geometry.cpp): lavapipe's
  // values. Inputs and outputs are whole locations of 4 components, up to 32 (128 components);
  // records hold every output of every emitted vertex, so the total only bounds memory.
  l.maxGeometryShaderInvocations = jit::kMaxGeometryInvocations;
  l.maxGeometryInputComponents = 64;
  l.maxGeometryOutputComponents = 128;
  l.maxGeometryOutputVertices = jit::kMaxGeometryOutputVertices;
  l.maxGeometryTotalOutputComponents = 1024;
  l.maxFragmentInputComponents = 128;
  l.maxFragmentOutputAttachments = 8;
  l.maxFragmentDualSrcAttachments = 1;  // Location 0 Index 1 -> abi::kSecondColorLocation
  l.maxFragmentCombinedOutputResources = 8 + 2 * (1u << 20);
  l.maxComputeSharedMemorySize = 32768;  // jit::kMaxComputeSharedMemorySize (spirv_jit/memory_limits.h)
  l.maxComputeWorkGroupCount[0] = l.maxComputeWorkGroupCount[1] = l.maxComputeWorkGroupCount[2] = 65535;
  l.maxComputeWorkGroupInvocations = 1024;
  l.maxComputeWorkGroupSize[0] = 1024;
  l.maxComputeWorkGroupSize[1] = 1024;
  l.maxComputeWorkGroupSize[2] = 64;
  l.subPixelPrecisionBits = 8;
  l.subTexelPrecisionBits = 8;
  l.mipmapPrecisionBits = 8;
  l.maxDrawIndexedIndexValue = UINT32_MAX;
  l.maxDrawIndirectCount = UINT32_MAX;
  l.maxSamplerLodBias = kMaxSamplerLodBias;
  l.maxSamplerAnisotropy = kMaxSamplerAnisotropy;  // see samplerAnisotropy below
  l.maxViewports = 16;  // raster::kMaxViewports (multiViewport)
  l.maxViewportDimensions[0] = l.maxViewportDimensions[1] = 16384;
  l.viewportBoundsRange[0] = -32768.0f;
  l.viewportBoundsRange[1] = 32767.0f;
  l.viewportSubPixelBits = 8;
  l.minMemoryMapAlignment = 64;
  l.minTexelBufferOffsetAlignment = 16;
  l.minUniformBufferOffsetAlignment = 16;
  l.minStorageBufferOffsetAlignment = 16;
  l.minTexelOffset = -32;
  l.maxTexelOffset = 31;
  l.minTexelGatherOffset = -32;
  l.maxTexelGatherOffset = 31;
  l.minInterpolationOffset = -0.5f;
  l.maxInterpolationOffset = 0.4375f;
  l.subPixelInterpolationOffsetBits = 4;
  l.maxFramebufferWidth = 16384;
  l.maxFramebufferHeight = 16384;
  l.maxFramebufferLayers = 2048;
  l.framebufferColorSampleCounts = kSupportedSampleCounts;
  l.framebufferDepthSampleCounts = kSupportedSampleCounts;
  l.framebufferStencilSampleCounts = kSupportedSampleCounts;
  l.framebufferNoAttachmentsSampleCounts = kSupportedSampleCounts;
  l.maxColorAttachments = 8;
  l.sampledImageColorSampleCounts = kSupportedSampleCounts;
  l.sampledImageIntegerSampleCounts = kSupportedSampleCounts;
  l.sampledImageDepthSampleCounts = kSupportedSampleCounts;
  l.sampledImageStencilSampleCounts = kSupportedSampleCounts;
  l.storageImageSampleCounts = kSupportedSampleCounts;  // shaderStorageImageMultisample
  l.maxSampleMaskWords = 1;
  l.timestampComputeAndGraphics = VK_TRUE;
  l.timestampPeriod = 1.0f;  // timestamps are nanoseconds of CLOCK_MONOTONIC
  l.maxClipDistances = 8;
  l.maxCullDistances = 8;
  l.maxCombinedClipAndCullDistances = 8;
  l.discreteQueuePriorities = 2;
  // largePoints, wideLines: raster/points.cpp, raster/lines.cpp (include/tessera/raster.h).
  l.pointSizeRange[0] = raster::kPointSizeRange[0];
  l.pointSizeRange[1] = raster::kPointSizeRange[1];
  l.lineWidthRange[0] = raster::kLineWidthRange[0];
  l.lineWidthRange[1] = raster::kLineWidthRange[1];
  l.pointSizeGranularity = raster::kPointLineGranularity;
  l.lineWidthGranularity = raster::kPointLineGranularity;
  // Lines of the DEFAULT mode are drawn as RECTANGULAR ones (cmd_draw.cpp drawStateFor): the
  // strict rule.
  l.strictLines = VK_TRUE;
  l.standardSampleLocations = VK_TRUE;
  l.optimalBufferCopyOffsetAlignment = 64;
  l.optimalBufferCopyRowPitchAlignment = 64;
  l.nonCoherentAtomSize = 64;
  (void)maxAllocation;
  return l;
}

}  // namespace

FeatureSet supportedFeatures() {
  // Only what works end to end. Each line that turns a feature on names the code that
  // implements it; shader-facing features arrive with the SPIR-V JIT.
  FeatureSet f;
  f.timelineSemaphore = true;          // icd/semaphore.cpp
  f.hostQueryReset = true;             // icd/query_pool.cpp
  f.synchronization2 = true;           // icd/queue.cpp, icd/cmd_sync.cpp
  f.privateData = true;                // icd/private_data.cpp
  f.maintenance4 = true;               // icd/image.cpp, icd/buffer.cpp (requirements queries)
  // Every ETC2/EAC format is decoded by sampler/etc2_decode.cpp for sampling and blits
  // (icd/format_support.cpp; tests/unit/sampler/etc2_decode_test.cpp, tests/api/etc2_blit_test.cpp).
  f.textureCompressionETC2 = true;
  // Every BC format (BC1-BC5: sampler/bc_decode.cpp; BC6H, BC7: sampler/bptc_decode.cpp) for
  // sampling with linear filtering and blits (tests/unit/sampler/bc_decode_test.cpp,
  // tests/api/bc_texture_test.cpp).
  f.textureCompressionBC = true;
  // Compute shaders (spirv_jit/, tests/unit/spirv_jit, tests/api/compute_test.cpp):
  f.robustBufferAccess = true;         // every descriptor access is bounds-checked (translate_memory.cpp)
  f.pipelineCreationCacheControl = true;  // icd/compute_pipeline.cpp (FAIL_ON_COMPILE_REQUIRED, EARLY_RETURN)
  f.subgroupSizeControl = true;        // any power of two from 4 to W: the kernel is compiled for it
  f.computeFullSubgroups = true;       // batches of W invocations, full when the x size is a multiple of W
  f.subgroupBroadcastDynamicId = true; // translate_subgroup.cpp broadcasts from any uniform id
  f.vulkanMemoryModel = true;          // atomics with their orderings; x86 caches are coherent
  f.vulkanMemoryModelDeviceScope = true;
  f.vulkanMemoryModelAvailabilityVisibilityChains = true;
  f.scalarBlockLayout = true;          // explicit Offset/ArrayStride/MatrixStride are honoured as given
  f.uniformBufferStandardLayout = true;
  f.shaderStorageImageReadWithoutFormat = true;   // runtime_image.cpp decodes the view's format
  f.shaderStorageImageWriteWithoutFormat = true;
  f.shaderStorageImageExtendedFormats = true;     // every codec format supports storage
  // Storage images with 4 samples: a multisampled image keeps a texel's samples side by side
  // (icd/image.cpp), and the runtime helpers address sample s of texel x as x * samples + s
  // for loads, stores, atomics and OpImageQuerySamples alike (runtime_image.cpp), as they do
  // for multisampled input attachments; tests/api/storage_image_multisample_test.cpp.
  f.shaderStorageImageMultisample = true;
  f.shaderUniformBufferArrayDynamicIndexing = true;
  f.shaderStorageBufferArrayDynamicIndexing = true;
  f.shaderStorageImageArrayDynamicIndexing = true;
  f.bufferDeviceAddress = true;
  f.robustImageAccess = true;
  // VK_EXT_robustness2. Buffer accesses are checked per scalar against the descriptor's exact
  // range (translate_memory.cpp; alignments 1), out-of-range loads give zero and stores and
  // atomics are dropped; an out-of-range texel of an image or texel buffer reads zero with
  // alpha one where the format has no alpha (runtime_image.cpp, replaceInvalidTexel); vertex
  // attributes past their binding's range read zero with the missing components filled in
  // (raster/draw_vertices.cpp, translate_vertex_fetch.cpp). Null descriptors are empty ones:
  // zero range, no view (descriptor_update.cpp), reading all zeros. tests/api/robustness2_test.cpp.
  f.robustBufferAccess2 = true;
  f.robustImageAccess2 = true;
  f.pipelineRobustness = true;  // every access is robust2 already (supported_extensions.txt)
  f.nullDescriptor = true;
  f.shaderZeroInitializeWorkgroupMemory = true;  // compute_dispatch.cpp zeroes shared memory per workgroup
  // Types and storage widths the translator handles (translate_arith/memory.cpp), exercised by
  // tests/unit/spirv_jit and the CTS compute, spirv_assembly and ssbo groups.
  f.shaderInt64 = true;
  f.shaderInt16 = true;
  f.shaderFloat64 = true;
  f.shaderFloat16 = true;
  f.shaderInt8 = true;
  f.storageBuffer16BitAccess = true;
  f.uniformAndStorageBuffer16BitAccess = true;
  f.storagePushConstant16 = true;
  // 16-bit stage inputs and outputs travel as 32-bit words (leafToWords / wordsToLeaf extend
  // and truncate exactly) and take locations and components as 32-bit ones do; vertex
  // attributes fetched into 16-bit variables likewise. tests/api/io16_test.cpp.
  f.storageInputOutput16 = true;
  f.storageBuffer8BitAccess = true;
  f.uniformAndStorageBuffer8BitAccess = true;
  f.storagePushConstant8 = true;
  f.shaderSubgroupExtendedTypes = true;  // subgroup operations are width-generic
  // VK_KHR_shader_subgroup_rotate: OpGroupNonUniformRotateKHR, with a ClusterSize or without,
  // is a lane permutation of the batch (spirv_jit/translate_subgroup.cpp).
  f.shaderSubgroupRotate = true;
  f.shaderSubgroupRotateClustered = true;
  f.shaderExpectAssume = true;  // VK_KHR_shader_expect_assume: OpExpectKHR and OpAssumeTrueKHR
  // VK_EXT_depth_bias_control: every representation, r always exact (raster/depth_bias.cpp).
  f.depthBiasControl = true;
  f.leastRepresentableValueForceUnormRepresentation = true;
  f.floatRepresentation = true;
  f.depthBiasExact = true;
  f.dynamicRenderingUnusedAttachments = true;
  // VK_KHR_shader_subgroup_uniform_control_flow: a batch is the subgroup, and the merge of a
  // construct every lane entering leaves through runs with the lanes that entered it
  // (full_mask_blocks.cpp), so invocations back in uniform control flow are converged whatever
  // the mode says. tests/unit/spirv_jit/subgroup_test.cpp, the CTS reconvergence.*uniform* cases.
  f.shaderSubgroupUniformControlFlow = true;
  // VK_KHR_workgroup_memory_explicit_layout: Block-decorated Workgroup variables take their
  // Offset/ArrayStride layout (scalar too: the translator follows the decorations) and alias
  // one another at the start of workgroup memory; 8- and 16-bit accesses as in buffers.
  f.workgroupMemoryExplicitLayout = true;
  f.workgroupMemoryExplicitLayoutScalarBlockLayout = true;
  f.workgroupMemoryExplicitLayout8BitAccess = true;
  f.workgroupMemoryExplicitLayout16BitAccess = true;
  f.shaderBufferInt64Atomics = true;     // atomicrmw on i64, lane by lane
  f.shaderSharedInt64Atomics = true;
  // VK_EXT_shader_atomic_float: atomicrmw fadd/xchg and atomic loads/stores on floats, lane by
  // lane like every atomic (translate_atomic.cpp); images through the texel's address
  // (R32_SFLOAT has STORAGE_IMAGE_ATOMIC). tests/unit/spirv_jit/atomics_test.cpp,
  // tests/api/image_compute_test.cpp. Sparse images are not supported.
  f.shaderBufferFloat32Atomics = true;
  f.shaderBufferFloat32AtomicAdd = true;
  f.shaderBufferFloat64Atomics = true;
  f.shaderBufferFloat64AtomicAdd = true;
  f.shaderSharedFloat32Atomics = true;
  f.shaderSharedFloat32AtomicAdd = true;
  f.shaderSharedFloat64Atomics = true;
  f.shaderSharedFloat64AtomicAdd = true;
  f.shaderImageFloat32Atomics = true;
  f.shaderImageFloat32AtomicAdd = true;
  // VK_EXT_shader_atomic_float2's minimum and maximum (OpAtomicFMinEXT / OpAtomicFMaxEXT):
  // atomicrmw fmin / fmax the same way, on 32- and 64-bit floats (lavapipe offers 32-bit only);
  // no 16-bit float atomics. tests/unit/spirv_jit/atomics_test.cpp (FloatMinMax...),
  // tests/api/image_compute_test.cpp (FloatMinMaxOnR32Sfloat...).
  f.shaderBufferFloat32AtomicMinMax = true;
  f.shaderBufferFloat64AtomicMinMax = true;
  f.shaderSharedFloat32AtomicMinMax = true;
  f.shaderSharedFloat64AtomicMinMax = true;
  f.shaderImageFloat32AtomicMinMax = true;
  f.shaderIntegerDotProduct = true;      // translate_composite.cpp
  // VK_KHR_shader_clock: OpReadClockKHR reads CLOCK_MONOTONIC nanoseconds, the same on every
  // core, once per subgroup (spirv_jit/translate_clock.cpp, runtime_clock.cpp);
  // tests/api/shader_clock_test.cpp.
  f.shaderSubgroupClock = true;
  f.shaderDeviceClock = true;
  // Descriptors (translate_memory.cpp reads set memory when a kernel runs, so updates after
  // binding are seen; per-lane descriptor indices gather per lane): tests/api/descriptor_kinds_test.
  f.inlineUniformBlock = true;
  f.descriptorBindingInlineUniformBlockUpdateAfterBind = true;
  f.shaderUniformBufferArrayNonUniformIndexing = true;
  f.shaderStorageBufferArrayNonUniformIndexing = true;
  f.shaderStorageImageArrayNonUniformIndexing = true;
  f.shaderUniformTexelBufferArrayDynamicIndexing = true;
  f.shaderStorageTexelBufferArrayDynamicIndexing = true;
  f.shaderUniformTexelBufferArrayNonUniformIndexing = true;
  f.shaderStorageTexelBufferArrayNonUniformIndexing = true;
  f.descriptorBindingUniformBufferUpdateAfterBind = true;
  f.descriptorBindingStorageBufferUpdateAfterBind = true;
  f.descriptorBindingStorageImageUpdateAfterBind = true;
  f.descriptorBindingUniformTexelBufferUpdateAfterBind = true;
  f.descriptorBindingStorageTexelBufferUpdateAfterBind = true;
  f.descriptorBindingUpdateUnusedWhilePending = true;
  f.descriptorBindingPartiallyBound = true;
  f.descriptorBindingVariableDescriptorCount = true;
  f.runtimeDescriptorArray = true;          // runtime_image.cpp: out-of-range texels read 0, writes dropped
  // Sampled images in compute shaders (explicit LOD and gathers): translate_image.cpp calls the
  // sampler module's reference (sampler/reference_sampler.cpp) per lane; per-lane descriptor
  // indices work as for every other descriptor; tests/api/sampled_image_test.cpp.
  f.shaderSampledImageArrayDynamicIndexing = true;
  f.shaderSampledImageArrayNonUniformIndexing = true;
  f.descriptorBindingSampledImageUpdateAfterBind = true;
  // Multiview (render pass 1 and 2 view masks, dynamic rendering's viewMask): each draw runs
  // once per view into the view's layer with ViewIndex (icd/multiview.h,
  // ExecContext::draw); clears, resolves and queries per view (cmd_render_pass.cpp,
  // cmd_sync.cpp); tests/api/multiview_test.cpp.
  f.multiview = true;
  // Geometry shaders: the stage runs between vertex shading and set-up on both draw paths, one
  // kernel lane per invocation (raster/draw_geometry.cpp, spirv_jit/translate_geometry.cpp);
  // adjacency topologies feed it; Layer selects the attachment layer. ViewportIndex is not
  // honoured (one viewport). tests/api/geometry_shader_test.cpp, the CTS's geometry.*.
  f.geometryShader = true;
  // Multiview runs each draw once per view (ExecContext::draw), the geometry stage included,
  // which reads ViewIndex from the view's resources like the other stages.
  f.multiviewGeometryShader = true;
  // Tessellation: patch lists cut into patches, the control stage (one lane per output vertex,
  // fibers at barriers), the fixed-function tessellator and the evaluation stage, between vertex
  // shading and the geometry stage on both draw paths. tests/unit/raster/tessellator_test.cpp,
  // tests/api/tessellation_test.cpp, the CTS's tessellation.*.
  f.tessellationShader = true;
  // Multiview runs each draw once per view (ExecContext::draw), the tessellation stages
  // included, which read ViewIndex from the view's resources like the other stages.
  f.multiviewTessellationShader = true;
  // PointSize from the tessellation and geometry stages: TessPatch and the geometry stage's
  // vertex records carry it to the next stage (gl_in[].gl_PointSize), to set-up and to the
  // transform feedback capture like the vertex stage's (raster/draw_tessellation.cpp,
  // draw_geometry.cpp); tests/api/transform_feedback_test.cpp DoublesAndPointSizes..., the CTS.
  f.shaderTessellationAndGeometryPointSize = true;
  // Primitive restart in list topologies ("Primitive Restart"): both draw paths assemble each
  // run of indices between restarts on its own (assemblePrimitives, assembleGeometryInputs),
  // which drops an incomplete primitive before a restart as the spec says; patch lists too
  // (raster/draw_internal.h forEachPatch, for the tessellation stages and the statistics).
  // tests/api/draw_state_test.cpp ListTopologiesRestart..., tests/api/tessellation_test.cpp
  // PatchListRestartStartsNewPatches (against the spec and lavapipe).
  f.primitiveTopologyListRestart = true;
  f.primitiveTopologyPatchListRestart = true;
  f.shaderImageGatherExtended = true;       // Offset and ConstOffsets on gathers
  // Cube array views: the reference sampler selects cube 6 * RNE(a) and its face
  // (reference_sampler.cpp); tests/api/cube_array_test.cpp samples every face of two cubes.
  f.imageCubeArray = true;
  f.samplerMirrorClampToEdge = true;
  // VK_EXT_non_seamless_cube_map: the reference sampler samples the face as a 2D image with the
  // sampler's address modes (sampler/reference_sampler.cpp: nonSeamlessCubeTexel); cube views
  // never take the batched routines. tests/api/image_view_extensions_test.cpp.
  f.nonSeamlessCubeMap = true;
  // VK_EXT_image_2d_view_of_3d: a 2D view of a 3D image sees its base level's z slices as
  // layers (icd/image.cpp: slicesAsLayers), for sampling and storage alike.
  // tests/api/image_view_extensions_test.cpp.
  f.image2DViewOf3D = true;
  f.sampler2DViewOf3D = true;
  f.samplerFilterMinmax = true;
  // "Texel Anisotropic Filtering": the reference sampler takes N = ceil(η) samples along the
  // footprint's major axis at λ = log2(ρ_max / η) (sampler/sampler_lod.cpp: anisotropicFootprint;
  // sampler/reference_sampler.cpp: filterAnisotropic); anisotropic samplers never take the
  // batched routines. tests/unit/sampler/anisotropic_filtering_test.cpp (hand-computed values),
  // tests/api/anisotropic_filtering_test.cpp (a plane drawn on Tessera and lavapipe).
  // maxSamplerAnisotropy is kMaxSamplerAnisotropy (16).
  f.samplerAnisotropy = true;
  // VK_EXT_custom_border_color: the sampler keeps the colour's words and the reference reads
  // them as the view's kind when it makes a border texel (sampler/sampler_texel.cpp), so no
  // format is needed. VK_EXT_border_color_swizzle: the border replaces the texel before the
  // view's "Component Swizzle", so the view's swizzle applies to it with or without
  // VkSamplerBorderColorComponentMappingCreateInfoEXT. tests/unit/sampler/border_color_test.cpp,
  // tests/api/border_color_test.cpp (against lavapipe).
  f.customBorderColors = true;
  f.customBorderColorWithoutFormat = true;
  f.borderColorSwizzle = true;
  f.borderColorSwizzleFromImage = true;
  // Graphics (raster/, icd/graphics_pipeline.cpp, icd/cmd_draw.cpp, icd/cmd_render_pass.cpp;
  // tests/api/draw_test.cpp against lavapipe): points, lines, triangles; 1, 2, 4, 8 or 16 samples.
  f.dynamicRendering = true;           // cmd_render_pass.cpp: vkCmdBeginRendering
  f.imagelessFramebuffer = true;       // cmd_render_pass.cpp: VkRenderPassAttachmentBeginInfo
  f.separateDepthStencilLayouts = true;  // attachments are written in place: layouts change nothing
  f.independentBlend = true;           // blend state per attachment (draw_fragments.cpp)
  f.depthClamp = true;                 // raster/rules.cpp: no z clipping, clamp to the viewport range
  // VK_EXT_depth_clip_enable / VK_EXT_depth_clip_control (raster/rules.h: clipsDepth,
  // nearPlaneWCoefficient, viewportTransform; tests/api/depth_clip_test.cpp against lavapipe).
  f.depthClipEnable = true;
  f.depthClipControl = true;
  // VK_EXT_conditional_rendering (icd/cmd_conditional_rendering.cpp; tests/api/
  // conditional_rendering_test.cpp against lavapipe): secondaries run in their primary's context.
  f.conditionalRendering = true;
  f.inheritedConditionalRendering = true;
  f.depthBiasClamp = true;             // raster/depth_bias.cpp
  // Polygon modes LINE and POINT after clipping and culling, with the polygon's facing and depth
  // bias, on both draw paths (raster/polygon_mode.cpp; tests/unit/raster/polygon_mode_test.cpp,
  // tests/api/draw_test.cpp against lavapipe).
  f.fillModeNonSolid = true;
  // Client-defined clip half-spaces and cull distances from the last pre-rasterization stage
  // (vertex, tessellation evaluation or geometry), interpolated to the fragment stage, on both
  // draw paths (raster/clip.cpp clipTriangle/clipLine, culledByCullDistances,
  // pointInsideClipDistances; tests/unit/raster/clip_test.cpp, tests/api/clip_distance_test.cpp
  // against the spec and lavapipe through every stage).
  f.shaderClipDistance = true;
  // Several viewports and scissors, selected per primitive by the geometry stage's ViewportIndex
  // (the provoking vertex's) and read back by the fragment stage, on both draw paths
  // (raster::viewportRaster; tests/api/multi_viewport_test.cpp against the spec and lavapipe).
  f.multiViewport = true;
  // Layer and ViewportIndex written by the vertex or tessellation evaluation stage
  // (VK_EXT_shader_viewport_index_layer's capability, ShaderLayer and ShaderViewportIndex): when
  // that stage is the last before rasterization its primitives take the provoking vertex's values
  // through the geometry stage's plumbing (raster/vertex_layer_viewport.cpp, draw_tessellation.cpp;
  // tests/api/vertex_layer_viewport_test.cpp against the spec and lavapipe, both draw paths).
  f.shaderOutputViewportIndex = true;
  f.shaderOutputLayer = true;
  // Every statistic of VkQueryPipelineStatisticFlagBits, counted by the draw paths and the
  // dispatches while a query is active (raster::countStatistic, icd/cmd_sync.cpp;
  // tests/api/pipeline_statistics_test.cpp against the spec's counts and lavapipe).
  f.pipelineStatisticsQuery = true;
  // Every VkLogicOp on integer and normalized colour attachments, the others written unblended,
  // on both draw paths (raster/logic_op.cpp; tests/unit/raster/logic_op_test.cpp,
  // tests/api/logic_op_test.cpp against the spec's table and lavapipe).
  f.logicOp = true;
  f.shaderCullDistance = true;
  // Points of PointSize up to 255 (squares centred on the vertex, PointCoord across them) and
  // non-strict lines of any width up to 255, static or dynamic (raster/points.cpp,
  // raster/lines.cpp; tests/unit/raster/points_lines_test.cpp, tests/api/draw_test.cpp).
  f.largePoints = true;
  f.wideLines = true;
  // VK_EXT_line_rasterization: RECTANGULAR lines (the strict rectangle of "Basic Line Segment
  // Rasterization", rules::rectangleCovers), BRESENHAM lines (the diamond-exit rule with wide
  // runs, raster/bresenham_lines.cpp) and smooth lines, all with "Line Stipple", the counter
  // taken from each fragment's place on the line on both draw paths. tests/unit/raster/line_modes_test.cpp,
  // tests/api/line_rasterization_test.cpp (against the spec's rules and lavapipe).
  f.rectangularLines = true;
  f.bresenhamLines = true;
  f.stippledRectangularLines = true;
  f.stippledBresenhamLines = true;
  // RECTANGULAR_SMOOTH ("Smooth Lines"): the rectangle's area in each pixel square
  // (rules::rectanglePixelArea, stipple's kept unit rectangles only) multiplies colour location
  // 0's alpha after shading (raster/draw_fragments.cpp).
  f.smoothLines = true;
  f.stippledSmoothLines = true;
  f.depthBounds = true;                // draw_fragments.cpp: depth bounds test
  f.shaderDemoteToHelperInvocation = true;  // translate_graphics.cpp: demoted lanes stop writing
  f.shaderTerminateInvocation = true;  // translator.cpp: OpTerminateInvocation ends the lane like OpKill
  f.fragmentStoresAndAtomics = true;   // helper lanes' stores and atomics are masked off
  f.vertexPipelineStoresAndAtomics = true;
  f.alphaToOne = true;                 // draw_fragments.cpp: after alpha to coverage
  // Dual-source blending: the JIT puts the Location 0 Index 1 output in abi::kSecondColorLocation
  // (translate_graphics.cpp) and raster/'s blends read it (draw_fragments.cpp blendFactor, and
  // for 8-bit UNORM attachments tessera/blend_unorm8.h's rule and draw_blocks.cpp BlendLanes); the compiled blend of the fragment kernel has no form for the
  // SRC1 factors (abi::packBlend), so such draws are blended by the loop. tests/api/
  // dual_source_blend_test.cpp (against lavapipe, both draw paths), tests/unit/raster/binned_draw_test.cpp.
  f.dualSrcBlend = true;
  // Per-sample shading (draw_fragments.cpp runs the shader once per covered sample) with
  // SampleId, SamplePosition, Sample inputs and interpolateAt* (translate_graphics.cpp).
  f.sampleRateShading = true;
  f.occlusionQueryPrecise = true;      // draw_fragments.cpp counts exactly the samples that pass
  // A subpass without attachments draws at each pipeline's own rasterizationSamples: nothing
  // stored depends on the count (tests/api/sample_counts_test.cpp).
  f.variableMultisampleRate = true;
  // raster/draw_vertices.cpp reads indices as full 32-bit values (readIndex) and adds vertexOffset
  // exactly (64-bit sum), so every index up to maxDrawIndexedIndexValue = 2^32-1 is honoured
  // (tests/api/draw_state_test.cpp draws with indices above 2^24).
  f.fullDrawIndexUint32 = true;
  // Draw parameters (SPV_KHR_shader_draw_parameters): BaseVertex, BaseInstance and DrawIndex
  // come from abi::VertexBatch (translate_graphics.cpp), filled per draw by draw_vertices.cpp;
  // tests/api/draw_parameters_test.cpp checks them against the spec and lavapipe.
  f.shaderDrawParameters = true;
  // Sampler Y'CbCr conversion: multi-planar and packed 4:2:2 images (icd/image.cpp, copies in
  // icd/cmd_image_copy.cpp) sampled with implicit chroma reconstruction, range expansion and
  // model conversion (sampler/ycbcr_sampling.cpp); tests/api/ycbcr_test.cpp.
  f.samplerYcbcrConversion = true;
  // VK_EXT_ycbcr_image_arrays: arrays of them, a 2D-array view's layer selected as for any view.
  f.ycbcrImageArrays = true;
  // VK_EXT_ycbcr_2plane_444_formats: the 2-plane 4:4:4 formats (core 1.3, optional) are among
  // them (CTS ycbcr.*.g*_2plane_444_*: copies, conversions, formats, plane views all pass).
  f.ycbcr2plane444Formats = true;
  // Variable pointers (SPV_KHR_variable_pointers) into StorageBuffer and Workgroup memory: a
  // logical pointer that OpSelect, OpPhi, a function result or a Function / Private variable
  // carries is {address, floor, limit} per lane (spirv_jit/translator.h pointerValue), so lanes
  // may point into different buffers and every access stays bounds-checked against its own
  // descriptor's range. tests/unit/spirv_jit/variable_pointers_test.cpp (W = 4, 8, 16),
  // tests/api/variable_pointers_test.cpp against the spec and lavapipe.
  f.variablePointersStorageBuffer = true;
  f.variablePointers = true;
  // Indirect draws (cmd_draw.cpp: DrawIndirectCmd reads the commands, and the count of the
  // *IndirectCount forms, when it executes): drawCount > 1 at any stride, each command's
  // firstInstance; maxDrawIndirectCount is 2^32-1 (makeLimits). tests/api/draw_parameters_test.cpp.
  f.multiDrawIndirect = true;
  f.drawIndirectFirstInstance = true;
  f.drawIndirectCount = true;
  // VK_EXT_index_type_uint8: readIndex/restartValue (draw_vertices.cpp) read one-byte indices
  // and restart at 0xFF (tests/unit/raster/index_read_test.cpp, tests/api/draw_parameters_test.cpp).
  f.indexTypeUint8 = true;
  // VK_EXT_multi_draw: vkCmdDrawMulti(Indexed)EXT record one MultiDrawCmd (cmd_draw.cpp), at
  // most kMaxMultiDrawCount draws (physical_device_queries.cpp); tests/api/draw_parameters_test.cpp.
  f.multiDraw = true;
  // VK_EXT_attachment_feedback_loop_layout: image layouts are not acted on, and a barrier inside
  // a render pass instance rasterizes the draws before it (icd/cmd_sync.cpp BarrierCmd), so a
  // draw after a feedback-loop dependency samples what the earlier draws wrote.
  // tests/api/feedback_loop_test.cpp (against the spec's rule and lavapipe).
  f.attachmentFeedbackLoopLayout = true;
  // VK_EXT_multisampled_render_to_single_sampled: single-sampled attachments of a subpass or
  // dynamic rendering instance that enables it render through implicit multisampled images in
  // the command buffer's arena, loaded (replicated), cleared and resolved by the begin and end
  // records (icd/cmd_render_pass.cpp); its input attachments read them. tests/api/
  // multisampled_render_to_single_sampled_test.cpp (against the spec's rules and lavapipe).
  f.multisampledRenderToSingleSampled = true;
  // VK_EXT/ARM_rasterization_order_attachment_access: the binned path runs each tile's
  // primitives in API order, a primitive's fragments shaded, tested and written block by block
  // before the next, so a subpassLoad sees every earlier fragment of its pixel; the reference
  // path is primitive by primitive. Work under a later full-tile overwrite is kept when a
  // reader lies between (raster/draw_binned.cpp drawTile). For depth and stencil, a shader that
  // reads input attachments while the tests write runs before them (FragmentStage::retarget),
  // so it reads what earlier fragments left, not its own fragment's write.
  // tests/api/feedback_loop_test.cpp, tests/api/depth_stencil_input_test.cpp.
  f.rasterizationOrderColorAttachmentAccess = true;
  f.rasterizationOrderDepthAttachmentAccess = true;
  f.rasterizationOrderStencilAttachmentAccess = true;
  // VK_EXT_extended_dynamic_state3: sixteen states the draw paths read from DrawState per draw
  // (icd/cmd_dynamic_state3.cpp, cmd_draw.cpp drawStateFor). The colour blend states (blend
  // enable, equation, write mask, logic op enable), alpha to coverage and the rasterization
  // samples also decide whether the fragment kernel's compiled attachment writes may serve a
  // draw: only when the draw's state is the compiled one (raster/draw_fragments.cpp
  // FragmentStage::retarget), else the loop blends, masks and writes; a pipeline with the blend
  // enable or equation dynamic compiles its kernel without blending, one with the samples
  // dynamic for 1 sample (graphics_pipeline.cpp colorBlendPlan, buildState), and a dynamic
  // count decides sample shading per draw. Not offered: what Tessera lacks (streams,
  // conservative rasterization, sample locations, advanced blending, the NV states).
  // tests/api/extended_dynamic_state3_test.cpp and extended_dynamic_state3_draws_test.cpp
  // (against lavapipe, both draw paths).
  f.extendedDynamicState3DepthClampEnable = true;
  // VK_EXT_vertex_input_dynamic_state: a pipeline with the vertex input dynamic compiles a
  // vertex kernel that fetches no attribute itself, and each draw decodes the attributes
  // vkCmdSetVertexInputEXT recorded (raster/draw_vertices.cpp, the path for formats the kernel
  // cannot decode). tests/api/vertex_input_dynamic_state_test.cpp (against lavapipe).
  f.vertexInputDynamicState = true;
  f.extendedDynamicState3PolygonMode = true;
  f.extendedDynamicState3SampleMask = true;
  f.extendedDynamicState3AlphaToOneEnable = true;
  f.extendedDynamicState3DepthClipEnable = true;
  f.extendedDynamicState3ProvokingVertexMode = true;
  f.extendedDynamicState3LineRasterizationMode = true;
  f.extendedDynamicState3LineStippleEnable = true;
  f.extendedDynamicState3DepthClipNegativeOneToOne = true;
  f.extendedDynamicState3TessellationDomainOrigin = true;
  f.extendedDynamicState3ColorWriteMask = true;
  f.extendedDynamicState3ColorBlendEnable = true;
  f.extendedDynamicState3ColorBlendEquation = true;
  f.extendedDynamicState3LogicOpEnable = true;
  f.extendedDynamicState3AlphaToCoverageEnable = true;
  f.extendedDynamicState3RasterizationSamples = true;
  f.extendedDynamicState3SampleLocationsEnable = true;  // VK_EXT_sample_locations (icd/sample_locations.cpp)
  // VK_EXT_vertex_attribute_divisor: fetchAttribute (draw_vertices.cpp) applies each binding's
  // divisor, 0 included (tests/unit/raster/vertex_fetch_test.cpp, tests/api/draw_parameters_test.cpp).
  f.vertexAttributeInstanceRateDivisor = true;
  f.vertexAttributeInstanceRateZeroDivisor = true;
  // The A4R4G4B4 / A4B4G4R4 formats (core 1.3) go through the texel codec like every packed
  // format: sampled, filtered, blitted, attachments (tests/unit/sampler/texel_codec_test.cpp).
  f.formatA4R4G4B4 = true;
  f.formatA4B4G4R4 = true;
  // Texel buffer offsets need only one texel's alignment (of one component for 3-component
  // formats), at most the 16 bytes of minTexelBufferOffsetAlignment: the 1.3 properties
  // (physical_device_queries.cpp) say so; tests/api/texel_buffer_offset_test.cpp.
  f.texelBufferAlignment = true;
  // The 1.3 dynamic states of VK_EXT_extended_dynamic_state(2) (icd/cmd_draw.cpp applies them
  // at each draw; tests/api/draw_state_test.cpp), and VK_EXT_extended_dynamic_state2's logic op
  // and patch control points (read per draw by both paths: FragmentStage::writeLogicOp, the
  // tessellation stages; tests/api/extended_dynamic_state2_test.cpp against the spec and lavapipe).
  f.extendedDynamicState = true;
  f.extendedDynamicState2 = true;
  f.extendedDynamicState2LogicOp = true;
  f.extendedDynamicState2PatchControlPoints = true;
  // VK_EXT_color_write_enable: a disabled attachment gets a colorWriteMask of 0, statically in
  // the pipeline (graphics_pipeline.cpp) or per draw (cmd_draw.cpp), so the compiled writes
  // and the loop's both leave it alone; tests/api/color_write_enable_test.cpp (against lavapipe).
  f.colorWriteEnable = true;
  // VK_EXT_transform_feedback: the last pre-rasterization stage's Offset-decorated outputs are
  // captured per primitive in order, before rasterizer discard (raster/transform_feedback.cpp),
  // into the bound buffers with counter buffers and stream-0 queries (cmd_transform_feedback.cpp,
  // cmd_sync.cpp). tests/unit/raster/transform_feedback_test.cpp, tests/api/transform_feedback_test.cpp
  // (against lavapipe). Geometry vertex streams 0..3 (OpEmitStreamVertex): each stream's
  // primitives go to the buffers of its outputs' Stream and count in its indexed queries;
  // stream 0 alone is rasterized (spirv_jit/translate_geometry.cpp, raster/draw_geometry.cpp;
  // tests/api/geometry_streams_test.cpp against the spec and lavapipe).
  f.transformFeedback = true;
  f.geometryStreams = true;
  // VK_EXT_provoking_vertex: the last vertex as the provoking one, per pipeline
  // (DrawState::provokingVertexLast): assembly and the geometry stage's strips name it beside
  // the unchanged vertex order (raster/draw_internal.h assemblePrimitives,
  // GeometryPrimitive::provoking), flat inputs and the geometry stage's PrimitiveId, Layer and
  // ViewportIndex take it on both draw paths, clipping keeps the original vertices' values,
  // and transform feedback writes it last, triangle fans included
  // (raster/transform_feedback.cpp). tests/api/provoking_vertex_test.cpp (against the spec's
  // tables and lavapipe, both draw paths).
  f.provokingVertexLast = true;
  f.transformFeedbackPreservesProvokingVertex = true;
  // VK_EXT_graphics_pipeline_library: libraries copy their parts' state and linking compiles
  // the assembled create info (icd/graphics_pipeline_library.cpp); dynamic offsets follow the
  // layout a set is bound with (DynamicOffsetMap). tests/api/graphics_pipeline_library_test.cpp
  // and graphics_pipeline_library_sets_test.cpp (against monolithic pipelines and lavapipe).
  f.graphicsPipelineLibrary = true;
  // VK_EXT_primitives_generated_query: VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT counts what the
  // last pre-rasterization stage emits on both draw paths, with or without transform feedback
  // and with rasterizer discard too (raster::countGenerated, icd/cmd_sync.cpp).
  // tests/api/primitives_generated_query_test.cpp (against the spec's counts and lavapipe).
  // Vertex streams 1..3 count through vkCmdBeginQueryIndexedEXT's index (the geometry stage's
  // primitives of that stream, raster::countGeneratedStreams).
  f.primitivesGeneratedQuery = true;
  f.primitivesGeneratedQueryWithRasterizerDiscard = true;
  f.primitivesGeneratedQueryWithNonZeroStreams = true;

  // The umbrella flag of descriptor indexing (Vulkan12Features::descriptorIndexing, and the
  // feature VK_EXT_descriptor_indexing stands for): true exactly when the minimum set the
  // spec's "Feature Requirements" ask of it is supported, so the two cannot disagree.
  f.descriptorIndexing = f.shaderSampledImageArrayDynamicIndexing && f.shaderStorageBufferArrayDynamicIndexing &&
                         f.shaderUniformTexelBufferArrayDynamicIndexing && f.shaderStorageTexelBufferArrayDynamicIndexing &&
                         f.shaderSampledImageArrayNonUniformIndexing && f.shaderStorageBufferArrayNonUniformIndexing &&
                         f.shaderUniformTexelBufferArrayNonUniformIndexing &&
                         f.descriptorBindingSampledImageUpdateAfterBind && f.descriptorBindingStorageImageUpdateAfterBind &&
                         f.descriptorBindingStorageBufferUpdateAfterBind &&
                         f.descriptorBindingUniformTexelBufferUpdateAfterBind &&
                         f.descriptorBindingStorageTexelBufferUpdateAfterBind &&
                         f.descriptorBindingUpdateUnusedWhilePending && f.descriptorBindingPartiallyBound &&
                         f.runtimeDescriptorArray;

  return f;
}

VkResult createPhysicalDevice(Instance* instance, PhysicalDevice** out) {
  const CpuInfo& cpu = hostCpu();
  if (!cpu.sse41) {
    // The JIT and the copy routines assume SSE4.1; an older CPU gets no device, not a crash.
    TESSERA_LOG(Warn, "host CPU lacks SSE4.1; Tessera exposes no physical device");
    *out = nullptr;
    return VK_SUCCESS;
  }
  auto* pd = hostNew<PhysicalDevice>(instance->allocator(), VK_SYSTEM_ALLOCATION_SCOPE_INSTANCE);
  if (!pd) return VK_ERROR_OUT_OF_HOST_MEMORY;
  pd->instance = instance;
  pd->simdWidth = kernelSimdWidth();
  pd->features = supportedFeatures();

  VkPhysicalDeviceProperties& p = pd->properties;
  p.apiVersion = VK_HEADER_VERSION_COMPLETE;
  p.driverVersion = VK_MAKE_VERSION(TESSERA_VERSION_MAJOR, TESSERA_VERSION_MINOR, TESSERA_VERSION_PATCH);
  p.vendorID = kVendorId;
  p.deviceID = kDeviceId;
  p.deviceType = VK_PHYSICAL_DEVICE_TYPE_CPU;
  std::snprintf(p.deviceName, sizeof(p.deviceName), "Tessera (LLVM %s, %u bits)", TESSERA_LLVM_VERSION,
                pd->simdWidth * 32);
  fillUuid(pd->pipelineCacheUuid, "cache");
  fillUuid(pd->deviceUuid, "device");
  fillUuid(pd->driverUuid, "driver");
  std::memcpy(p.pipelineCacheUUID, pd->pipelineCacheUuid, VK_UUID_SIZE);

  VkDeviceSize heap = heapSize();
  p.limits = makeLimits(heap);
  p.sparseProperties = {};

  VkPhysicalDeviceMemoryProperties& m = pd->memory;
  m.memoryHeapCount = 1;
  m.memoryHeaps[0] = {heap, VK_MEMORY_HEAP_DEVICE_LOCAL_BIT};
  m.memoryTypeCount = 1;
  m.memoryTypes[0] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                          VK_MEMORY_PROPERTY_HOST_COHERENT_BIT | VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                      0};
  *out = pd;
  return VK_SUCCESS;
}

void destroyPhysicalDevice(Instance* instance, PhysicalDevice* pd) {
  hostDelete(instance->allocator(), pd);
}

}  // namespace tessera
