// VK_KHR_push_descriptor: vkCmdPushDescriptorSetKHR and vkCmdPushDescriptorSetWithTemplateKHR
// ("Push Descriptor Updates"). A push is done at record time: the set's memory is a fresh copy
// in the command buffer's arena, laid out by the pipeline layout's push set layout, written
// with the same code as vkUpdateDescriptorSets, and bound like any set
// (abi::BoundResources::sets). Commands recorded earlier keep pointing at the earlier copy,
// so each draw or dispatch sees the descriptors pushed before it, as the spec requires; the
// copy starts from the previous push to the same set, because push descriptors "can be updated
// incrementally" (descriptors not written keep their values).
#include <cstring>

#include "command_buffer.h"
#include "descriptors.h"
#include "entrypoints.h"
#include "pipeline_layout.h"

namespace tessera {
namespace {

// The set memory that the push to `set` of `bindPoint` writes, already holding the previous
// push's descriptors, or nullptr (bad input or out of host memory).
DescriptorSet beginPush(CommandBuffer& cb, VkPipelineBindPoint bindPoint, const PipelineLayout& layout, uint32_t set) {
  DescriptorSet pushed{};
  BindPointState* state = cb.bindPoint(bindPoint);
  // A layout without a push set (or another set number) is invalid usage: nothing is pushed.
  if (!state || !layout.pushSetLayout || layout.pushSet != set) return pushed;
  DescriptorSetLayout& setLayout = *layout.pushSetLayout;
  auto* memory = static_cast<uint8_t*>(cb.arena.allocate(setLayout.size ? setLayout.size : 1, 64));
  if (!memory) {
    cb.fail(VK_ERROR_OUT_OF_HOST_MEMORY);
    return pushed;
  }
  pushed.layout = &setLayout;
  pushed.size = setLayout.size;
  pushed.memory = memory;
  const abi::BoundResources& r = state->resources;
  if (state->pushedMemory && r.sets[set] == state->pushedMemory && state->pushedLayout == &setLayout) {
    std::memcpy(memory, state->pushedMemory, setLayout.size);
  } else {
    std::memset(memory, 0, setLayout.size);  // the null descriptor until written
    writeImmutableSamplers(pushed);
  }
  return pushed;
}

void bindPushed(CommandBuffer& cb, VkPipelineBindPoint bindPoint, uint32_t set, const DescriptorSet& pushed) {
  BindPointState& state = *cb.bindPoint(bindPoint);
  state.resources.sets[set] = pushed.memory;
  state.setLayouts[set] = pushed.layout;
  state.setBytes[set] = pushed.size;
  state.pushedMemory = pushed.memory;
  state.pushedLayout = pushed.layout;
  state.snapshot = nullptr;
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdPushDescriptorSetKHR(VkCommandBuffer commandBuffer, VkPipelineBindPoint pipelineBindPoint,
                                                            VkPipelineLayout layout, uint32_t set, uint32_t descriptorWriteCount,
                                                            const VkWriteDescriptorSet* pDescriptorWrites) {
  CommandBuffer& cb = *fromHandle<CommandBuffer>(commandBuffer);
  DescriptorSet pushed = beginPush(cb, pipelineBindPoint, *fromHandle<PipelineLayout>(layout), set);
  if (!pushed.memory) return;
  // dstSet is ignored (spec: VkWriteDescriptorSet, "ignored" for push descriptors).
  for (uint32_t i = 0; i < descriptorWriteCount; ++i) applyDescriptorWrite(pushed, pDescriptorWrites[i]);
  bindPushed(cb, pipelineBindPoint, set, pushed);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdPushDescriptorSetWithTemplateKHR(VkCommandBuffer commandBuffer,
                                                                        VkDescriptorUpdateTemplate descriptorUpdateTemplate,
                                                                        VkPipelineLayout layout, uint32_t set, const void* pData) {
  CommandBuffer& cb = *fromHandle<CommandBuffer>(commandBuffer);
  const DescriptorUpdateTemplate& t = *fromHandle<DescriptorUpdateTemplate>(descriptorUpdateTemplate);
  DescriptorSet pushed = beginPush(cb, t.bindPoint, *fromHandle<PipelineLayout>(layout), set);
  if (!pushed.memory) return;
  applyUpdateTemplate(pushed, t, pData);
  bindPushed(cb, t.bindPoint, set, pushed);
}

}  // extern "C"
