#include "shader_stage.h"

#include "physical_device.h"
#include "pipeline_layout.h"
#include "shader_module.h"
#include "tessera/spirv_width_use.h"

namespace tessera {

StageSource stageSource(const VkPipelineShaderStageCreateInfo& stage) {
  StageSource s;
  if (stage.module) {
    s.code = fromHandle<ShaderModule>(stage.module)->code();
  } else if (auto* inline_ = findInChain<VkShaderModuleCreateInfo>(stage.pNext, VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO)) {
    s.code = {inline_->pCode, inline_->codeSize / 4};  // VK_KHR_maintenance5-style inline code
  }
  if (stage.pName) s.entryPoint = stage.pName;
  if (const VkSpecializationInfo* si = stage.pSpecializationInfo) {
    for (uint32_t i = 0; i < si->mapEntryCount; ++i)
      s.specialization.push_back({si->pMapEntries[i].constantID, si->pMapEntries[i].offset, si->pMapEntries[i].size});
    s.specializationData = si->pData;
    s.specializationDataSize = si->dataSize;
  }
  return s;
}

uint32_t stageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage) {
  if (auto* sz = findInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO)) {
    const uint32_t w = sz->requiredSubgroupSize;
    if (w >= kMinSubgroupSize && w <= pd.simdWidth && (w & (w - 1)) == 0) return w;
  }
  return pd.simdWidth;
}

namespace {

// The stage's required subgroup size where it names one; else `wide` where that is above the
// device's width and the module's width use allows it (`widens`); else the device's width.
template <class Widens>
uint32_t requiredOrWideSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage,
                                 std::span<const uint32_t> code, uint32_t wide, Widens widens) {
  if (findInChain<VkPipelineShaderStageRequiredSubgroupSizeCreateInfo>(
          stage.pNext, VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO))
    return stageSimdWidth(pd, stage);
  if (wide > pd.simdWidth) {
    const jit::WidthUse use = jit::readWidthUse(code);
    if (!use.reachesSubgroups && widens(use)) return wide;
  }
  return pd.simdWidth;
}

}  // namespace

uint32_t fragmentStageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage,
                                std::span<const uint32_t> code, uint32_t wide) {
  return requiredOrWideSimdWidth(pd, stage, code, wide, [](const jit::WidthUse& use) {
    return use.samplesImages || use.arithmetic >= kWideFragmentArithmetic;
  });
}

uint32_t computeStageSimdWidth(const PhysicalDevice& pd, const VkPipelineShaderStageCreateInfo& stage,
                               std::span<const uint32_t> code, uint32_t wide) {
  return requiredOrWideSimdWidth(pd, stage, code, wide, [wide](const jit::WidthUse& use) {
    return use.divisions == 0 && use.localInvocations && use.localInvocations % wide == 0;
  });
}

jit::ShaderInterface shaderInterface(const PhysicalDevice& pd, const PipelineLayout* layout) {
  jit::ShaderInterface iface;
  iface.simdWidth = pd.simdWidth;
  if (!layout) return iface;
  for (uint32_t s = 0; s < layout->setCount; ++s)
    for (const DescriptorLocation& d : layout->setBindings(s))
      iface.bindings.push_back({s, d.binding, d.type, d.arraySize, d.offset, d.dynamicIndex});
  return iface;
}

}  // namespace tessera
