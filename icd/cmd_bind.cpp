// vkCmdBindDescriptorSets and vkCmdPushConstants: record-time state of the compute and graphics
// bind points (CommandBuffer::compute / graphics). Nothing is recorded into the command stream;
// the commands that run shaders take CommandBuffer::snapshotResources().
#include <algorithm>
#include <cstring>

#include "command_buffer.h"
#include "descriptors.h"
#include "entrypoints.h"
#include "pipeline_layout.h"

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindDescriptorSets(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                          VkPipelineLayout layout, uint32_t firstSet,
                                                          uint32_t descriptorSetCount, const VkDescriptorSet* pDescriptorSets,
                                                          uint32_t dynamicOffsetCount, const uint32_t* pDynamicOffsets) {
  BindPointState* state = fromHandle<CommandBuffer>(commandBuffer)->bindPoint(pipelineBindPoint);
  if (!state) return;
  const PipelineLayout& pl = *fromHandle<PipelineLayout>(layout);
  abi::BoundResources& r = state->resources;
  uint32_t nextOffset = 0;  // pDynamicOffsets: set by set, each set's in binding order
  for (uint32_t i = 0; i < descriptorSetCount && firstSet + i < pl.setCount; ++i) {
    const uint32_t s = firstSet + i;
    const DescriptorSet* set = fromHandle<DescriptorSet>(pDescriptorSets[i]);  // NULL: unbound
    r.sets[s] = set ? set->memory : nullptr;
    state->setLayouts[s] = set ? set->layout : nullptr;
    state->setBytes[s] = set ? set->size : 0;
    // The pipeline layout's set layout and the set's are compatible (same dynamic count).
    // Kept per set: CommandBuffer::snapshotResources numbers them as the bound pipeline does.
    for (uint32_t d = 0; d < pl.sets[s].dynamicCount && nextOffset < dynamicOffsetCount; ++d, ++nextOffset)
      if (d < abi::kMaxDynamicBuffers) state->setDynamicOffsets[s][d] = pDynamicOffsets[nextOffset];
  }
  state->snapshot = nullptr;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdPushConstants(VkCommandBuffer commandBuffer, VkPipelineLayout, VkShaderStageFlags stageFlags,
                                                     uint32_t offset, uint32_t size, const void* pValues) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  if (offset >= abi::kMaxPushConstantBytes) return;
  size = std::min(size, abi::kMaxPushConstantBytes - offset);
  // The compute stage reads the compute bind point's constants, every other stage the graphics one's.
  for (BindPointState* state : {(stageFlags & VK_SHADER_STAGE_COMPUTE_BIT) ? &cb->compute : nullptr,
                                (stageFlags & ~VkShaderStageFlags(VK_SHADER_STAGE_COMPUTE_BIT)) ? &cb->graphics : nullptr}) {
    if (!state) continue;
    std::memcpy(state->resources.pushConstants + offset, pValues, size);
    state->snapshot = nullptr;
  }
}

}  // extern "C"
