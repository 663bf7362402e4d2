// fragmentStageSimdWidth and computeStageSimdWidth (icd/shader_stage.cpp): the width a fragment
// or compute stage is compiled for.
// "Subgroups": a module sees its subgroup (SubgroupSize, SubgroupLocalInvocationId, group
// operations) only through capabilities it declares, so a module that declares none and samples
// images may run in batches wider than the device's subgroupSize; a required subgroup size
// (VK_EXT_subgroup_size_control) is always honoured; everything else runs at the device's width.
#include <gtest/gtest.h>

#include <initializer_list>
#include <vector>

#include <spirv/unified1/spirv.hpp11>

#include "physical_device.h"
#include "shader_stage.h"

namespace tessera {
namespace {

std::vector<uint32_t> module(std::initializer_list<spv::Capability> caps, bool fetches, uint32_t multiplies = 0) {
  std::vector<uint32_t> w = {spv::MagicNumber, 0x00010300, 0, 100, 0};
  for (spv::Capability c : caps) w.push_back(2u << 16 | uint32_t(spv::Op::OpCapability)), w.push_back(uint32_t(c));
  if (fetches) w.insert(w.end(), {5u << 16 | uint32_t(spv::Op::OpImageFetch), 1, 2, 3, 4});
  for (uint32_t i = 0; i < multiplies; ++i) w.insert(w.end(), {5u << 16 | uint32_t(spv::Op::OpFMul), 1, 10 + i, 2, 3});
  return w;
}

// A device of 8 lanes (an AVX2 host) and a stage of `kind`, as the width tests start.
PhysicalDevice eightLaneDevice() {
  PhysicalDevice pd;
  pd.simdWidth = 8;
  return pd;
}
VkPipelineShaderStageCreateInfo stageOf(VkShaderStageFlagBits kind) {
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.stage = kind;
  return stage;
}

TEST(FragmentStageSimdWidth, TexturingAndArithmeticHeavyStagesThatCannotSeeTheirSubgroupTakeTheWideWidth) {
  PhysicalDevice pd = eightLaneDevice();
  const VkPipelineShaderStageCreateInfo stage = stageOf(VK_SHADER_STAGE_FRAGMENT_BIT);
  const std::vector<uint32_t> texturing = module({spv::Capability::Shader}, true);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 16u);
  // No wider width on offer (AVX-512 hosts, a forced TESSERA_SIMD_WIDTH): the device's.
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 0), 8u);
  pd.simdWidth = 16;
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 16u);
  pd.simdWidth = 8;
  // Not sampling: the device's width (opaque fills measured slower at 16 lanes).
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, module({spv::Capability::Shader}, false), 16), 8u);
  // Arithmetic-heavy stages widen too; light ones (the benchmarks' fills hold 1 to 8) do not.
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, module({spv::Capability::Shader}, false, kWideFragmentArithmetic), 16), 16u);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, module({spv::Capability::Shader}, false, kWideFragmentArithmetic - 1), 16),
            8u);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage,
                                   module({spv::Capability::Shader, spv::Capability::GroupNonUniform}, false,
                                          kWideFragmentArithmetic),
                                   16),
            8u);
  // Able to see the subgroup: subgroupSize must be what the device reports.
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, module({spv::Capability::Shader, spv::Capability::GroupNonUniform}, true), 16),
            8u);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, module({spv::Capability::Shader, spv::Capability::SubgroupBallotKHR}, true), 16),
            8u);
}

TEST(FragmentStageSimdWidth, ARequiredSubgroupSizeIsHonoured) {
  PhysicalDevice pd = eightLaneDevice();
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = 4;
  VkPipelineShaderStageCreateInfo stage = stageOf(VK_SHADER_STAGE_FRAGMENT_BIT);
  stage.pNext = &required;
  const std::vector<uint32_t> texturing = module({spv::Capability::Shader}, true);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 4u);
  required.requiredSubgroupSize = 8;
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 8u);
}

// computeStageSimdWidth: a compute stage that cannot see its subgroup, holds no division or
// square root and has a literal workgroup size that is a multiple of the wide width runs wide.
std::vector<uint32_t> computeModule(std::initializer_list<spv::Capability> caps, uint32_t localX, bool divides) {
  std::vector<uint32_t> w = module(caps, false);
  w.insert(w.end(), {6u << 16 | uint32_t(spv::Op::OpExecutionMode), 1, uint32_t(spv::ExecutionMode::LocalSize), localX, 1, 1});
  if (divides) w.insert(w.end(), {5u << 16 | uint32_t(spv::Op::OpFDiv), 1, 20, 2, 3});
  return w;
}

TEST(ComputeStageSimdWidth, StagesThatCannotSeeTheirSubgroupAndDoNotDivideTakeTheWideWidth) {
  PhysicalDevice pd = eightLaneDevice();
  VkPipelineShaderStageCreateInfo stage = stageOf(VK_SHADER_STAGE_COMPUTE_BIT);
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 256, false), 16), 16u);
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 256, false), 0), 8u);
  // Divider-bound loops (n-body's inversesqrt) measured slower at 16 lanes.
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 256, true), 16), 8u);
  // A workgroup that 16 lanes would leave partly idle, or whose size is not literal.
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 8, false), 16), 8u);
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 24, false), 16), 8u);
  EXPECT_EQ(computeStageSimdWidth(pd, stage, module({spv::Capability::Shader}, false), 16), 8u);
  // Able to see the subgroup (SubgroupSize, group operations): the device's width.
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader, spv::Capability::GroupNonUniform}, 256, false), 16),
            8u);
  // A required subgroup size wins.
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = 4;
  stage.pNext = &required;
  EXPECT_EQ(computeStageSimdWidth(pd, stage, computeModule({spv::Capability::Shader}, 256, false), 16), 4u);
}

}  // namespace
}  // namespace tessera
