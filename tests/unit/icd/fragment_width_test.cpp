// fragmentStageSimdWidth (icd/shader_stage.cpp): the width a fragment stage is compiled for.
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

TEST(FragmentStageSimdWidth, TexturingAndArithmeticHeavyStagesThatCannotSeeTheirSubgroupTakeTheWideWidth) {
  PhysicalDevice pd;
  pd.simdWidth = 8;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
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
  PhysicalDevice pd;
  pd.simdWidth = 8;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo required{
      VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO};
  required.requiredSubgroupSize = 4;
  VkPipelineShaderStageCreateInfo stage{VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO};
  stage.pNext = &required;
  stage.stage = VK_SHADER_STAGE_FRAGMENT_BIT;
  const std::vector<uint32_t> texturing = module({spv::Capability::Shader}, true);
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 4u);
  required.requiredSubgroupSize = 8;
  EXPECT_EQ(fragmentStageSimdWidth(pd, stage, texturing, 16), 8u);
}

}  // namespace
}  // namespace tessera
