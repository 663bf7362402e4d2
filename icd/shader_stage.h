// What a pipeline's shader stage hands the JIT, shared by compute and graphics pipelines: the
// stage's SPIR-V (a module or an inline VkShaderModuleCreateInfo), entry point and
// specialization, and the descriptor layout as the JIT sees it.
#pragma once

#include <span>
#include <string_view>
#include <vector>
#include <vulkan/vulkan_core.h>

#include "tessera/spirv_jit.h"

namespace tessera {

struct PhysicalDevice;
struct PipelineLayout;

template <typename T>
const T* findInChain(const void* pNext, VkStructureType type) {
  for (auto* s = static_cast<const VkBaseInStructure*>(pNext); s; s = s->pNext)
    if (s->sType == type) return reinterpret_cast<const T*>(s);
  return nullptr;
}

struct StageSource {
  std::span<const uint32_t> code;
  std::string_view entryPoint = "main";
  std::vector<jit::SpecializationEntry> specialization;
  const void* specializationData = nullptr;
  size_t specializationDataSize = 0;
};
StageSource stageSource(const VkPipelineShaderStageCreateInfo& stage);

// The pipeline layout's bindings (and the device's SIMD width) for the JIT.
jit::ShaderInterface shaderInterface(const PhysicalDevice& pd, const PipelineLayout* layout);

// VK_EXT_subgroup_size_control (core 1.3): the SIMD width a stage is compiled for. A required
// subgroup size (VkPipelineShaderStageRequiredSubgroupSizeCreateInfo, in the stages
// requiredSubgroupSizeStages lists) is simply that width: any power of two from
// kMinSubgroupSize to the device's width. Otherwise the device's width.
uint32_t stageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage);

// The width a fragment stage's kernel is compiled for: the stage's required subgroup size where
// it names one; else `wide` (tessera/cpu_info.h wideFragmentSimdWidth) where that is above the
// device's width and the module samples images or holds at least kWideFragmentArithmetic
// arithmetic instructions, and declares no capability through which it could see its subgroup
// (jit::readWidthUse), so that the wider batches are invisible to it ("Subgroups":
// subgroupSize is what such a module cannot ask); else the device's width. Measured on an AVX2
// host (session 32, alternated A/B processes): 16 lanes make texturing 12-26% and the ALU-heavy
// alu_fs shaders (30 arithmetic instructions in a loop) 12-18% faster, two independent 8-lane
// chains hiding the FMA latency, but a flat-colour fill 30% slower and compiles 34% longer
// (session 31, 16 lanes everywhere); the benchmarks' light shaders hold 1 to 8.
constexpr uint32_t kWideFragmentArithmetic = 24;
uint32_t fragmentStageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage,
                                std::span<const uint32_t> code, uint32_t wide);

// The width a compute stage's kernel is compiled for: the stage's required subgroup size where
// it names one; else `wide` (tessera/cpu_info.h wideComputeSimdWidth) where that is above the
// device's width, the module cannot see its subgroup (as above), holds no division or square
// root and has a literal workgroup size that is a multiple of `wide`; else the device's width.
// Measured on an AVX2 host (session 38, alternated A/B processes, 16 against 8 lanes): SGEMM
// 1.6x (two independent FMA chains per lane pair instead of one latency-bound chain), SAXPY
// 1.37x, the shared-memory reduction 1.35x, image load/store 1.3x (half the batches, each
// batch's overhead once per 16 invocations), but n-body, whose loop waits on the divider
// (inversesqrt per pair), 10-20% slower (twice the live registers for no more divider
// throughput); a workgroup smaller than 16 would leave lanes idle.
uint32_t computeStageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage,
                               std::span<const uint32_t> code, uint32_t wide);

}  // namespace tessera
