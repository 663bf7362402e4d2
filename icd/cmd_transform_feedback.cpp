// VK_EXT_transform_feedback's binding and activation commands ("Transform Feedback"). The
// execution context (ExecContext::feedback) holds the bound buffers and the bytes written to
// each; draws capture into them while capture is active (raster/transform_feedback.cpp), and
// the counter buffers carry the byte counts from an End to a later Begin or
// vkCmdDrawIndirectByteCountEXT (cmd_draw.cpp).
#include <algorithm>
#include <cstring>

#include "command_buffer.h"
#include "entrypoints.h"
#include "resources.h"

namespace tessera {
namespace {

struct BindFeedbackBuffersCmd {
  uint32_t first, count;
  uint8_t* base[kMaxTransformFeedbackBuffers];
  uint64_t size[kMaxTransformFeedbackBuffers];
  void execute(ExecContext& ctx) const {
    for (uint32_t i = 0; i < count; ++i) {
      FeedbackTargets::Buffer& b = ctx.feedback.buffers[first + i];
      b.base = base[i];
      b.size = size[i];
    }
  }
};

// Begin: every buffer starts at its binding's offset, or at the byte count in its counter
// buffer when one is given (resuming an earlier capture). End: the byte counts are written back.
struct FeedbackCountersCmd {
  bool begin;
  uint32_t first, count;
  uint8_t* counter[kMaxTransformFeedbackBuffers];  // null: no counter buffer for that binding
  void execute(ExecContext& ctx) const {
    if (begin)
      for (FeedbackTargets::Buffer& b : ctx.feedback.buffers) b.written = 0;
    for (uint32_t i = 0; i < count; ++i) {
      FeedbackTargets::Buffer& b = ctx.feedback.buffers[first + i];
      if (!counter[i]) continue;
      if (begin) {
        uint32_t bytes;
        std::memcpy(&bytes, counter[i], 4);
        b.written = bytes;
      } else {
        const uint32_t bytes = uint32_t(std::min<uint64_t>(b.written, UINT32_MAX));
        std::memcpy(counter[i], &bytes, 4);
      }
    }
    ctx.feedback.capturing = begin;
  }
};

void recordCounters(VkCommandBuffer commandBuffer, bool begin, uint32_t first, uint32_t count, const VkBuffer* buffers,
                    const VkDeviceSize* offsets) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* c = cb->record<FeedbackCountersCmd>();
  if (!c) return;
  c->begin = begin;
  c->first = std::min(first, kMaxTransformFeedbackBuffers);
  c->count = std::min(count, kMaxTransformFeedbackBuffers - c->first);
  for (uint32_t i = 0; i < c->count; ++i) {
    const Buffer* b = buffers && buffers[i] ? fromHandle<Buffer>(buffers[i]) : nullptr;
    const VkDeviceSize offset = offsets ? offsets[i] : 0;
    c->counter[i] = b && b->data() && offset + 4 <= b->size ? b->data() + offset : nullptr;
  }
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindTransformFeedbackBuffersEXT(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                                       uint32_t bindingCount, const VkBuffer* pBuffers,
                                                                       const VkDeviceSize* pOffsets,
                                                                       const VkDeviceSize* pSizes) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* c = cb->record<BindFeedbackBuffersCmd>();
  if (!c) return;
  c->first = std::min(firstBinding, kMaxTransformFeedbackBuffers);
  c->count = std::min(bindingCount, kMaxTransformFeedbackBuffers - c->first);
  for (uint32_t i = 0; i < c->count; ++i) {
    const Buffer* b = pBuffers[i] ? fromHandle<Buffer>(pBuffers[i]) : nullptr;
    const VkDeviceSize offset = pOffsets[i];
    const VkDeviceSize available = b && b->size > offset ? b->size - offset : 0;
    c->base[i] = b && b->data() && available ? b->data() + offset : nullptr;
    c->size[i] = pSizes && pSizes[i] != VK_WHOLE_SIZE ? std::min(pSizes[i], available) : available;
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                                 uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                                 const VkDeviceSize* pCounterBufferOffsets) {
  recordCounters(commandBuffer, true, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndTransformFeedbackEXT(VkCommandBuffer commandBuffer, uint32_t firstCounterBuffer,
                                                               uint32_t counterBufferCount, const VkBuffer* pCounterBuffers,
                                                               const VkDeviceSize* pCounterBufferOffsets) {
  recordCounters(commandBuffer, false, firstCounterBuffer, counterBufferCount, pCounterBuffers, pCounterBufferOffsets);
}

}  // extern "C"
