// VK_EXT_conditional_rendering ("Conditional Rendering"): vkCmdBeginConditionalRenderingEXT
// reads the 32-bit predicate at buffer + offset when it executes (the spec lets an
// implementation latch it then) and, when it is zero (non-zero with
// VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT), sets ExecContext::conditionalDiscard until
// vkCmdEndConditionalRenderingEXT. The drawing commands, dispatching commands and
// vkCmdClearAttachments check it (icd/cmd_draw.cpp, cmd_dispatch.cpp, cmd_render_pass.cpp);
// copies, blits and other clears are not affected. Secondary command buffers execute with
// their primary's context, so their commands follow the primary's predicate
// (inheritedConditionalRendering).
#include <cstring>

#include "command_buffer.h"
#include "entrypoints.h"
#include "resources.h"

namespace tessera {
namespace {

struct BeginConditionalRenderingCmd {
  const Buffer* buffer;
  VkDeviceSize offset;
  bool inverted;
  void execute(ExecContext& ctx) const {
    // A predicate outside the buffer (invalid usage) reads as 0 rather than past the memory.
    uint32_t predicate = 0;
    const uint8_t* data = buffer ? buffer->data() : nullptr;
    if (data && offset <= buffer->size && buffer->size - offset >= sizeof(predicate))
      std::memcpy(&predicate, data + offset, sizeof(predicate));
    // "If the 32-bit value at offset in buffer memory is zero, then the rendering commands are
    // discarded, otherwise they are executed as normal"; INVERTED swaps the two.
    ctx.conditionalDiscard = inverted ? predicate != 0 : predicate == 0;
  }
};

struct EndConditionalRenderingCmd {
  void execute(ExecContext& ctx) const { ctx.conditionalDiscard = false; }
};

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginConditionalRenderingEXT(
    VkCommandBuffer commandBuffer, const VkConditionalRenderingBeginInfoEXT* pConditionalRenderingBegin) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  if (auto* c = cb->record<BeginConditionalRenderingCmd>()) {
    *c = {fromHandle<Buffer>(pConditionalRenderingBegin->buffer), pConditionalRenderingBegin->offset,
          (pConditionalRenderingBegin->flags & VK_CONDITIONAL_RENDERING_INVERTED_BIT_EXT) != 0};
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndConditionalRenderingEXT(VkCommandBuffer commandBuffer) {
  fromHandle<CommandBuffer>(commandBuffer)->record<EndConditionalRenderingCmd>();
}

}  // extern "C"
