// Buffer transfer commands: vkCmdCopyBuffer(2), vkCmdFillBuffer, vkCmdUpdateBuffer.
#include "command_buffer.h"
#include "entrypoints.h"
#include "parallel_copy.h"
#include "resources.h"

namespace tessera {
namespace {

struct CopyBufferCmd {
  Buffer* src;
  Buffer* dst;
  const VkBufferCopy* regions;
  uint32_t regionCount;
  void execute(ExecContext&) const {
    for (uint32_t i = 0; i < regionCount; ++i) {
      const VkBufferCopy& r = regions[i];
      // memmove: overlapping regions are invalid usage, but must not corrupt beyond them.
      parallelMemcpy(dst->data() + r.dstOffset, src->data() + r.srcOffset, size_t(r.size));
    }
  }
};

struct FillBufferCmd {
  Buffer* dst;
  VkDeviceSize offset;
  VkDeviceSize size;
  uint32_t data;
  void execute(ExecContext&) const { parallelFill32(dst->data() + offset, size_t(size), data); }
};

struct UpdateBufferCmd {
  Buffer* dst;
  VkDeviceSize offset;
  VkDeviceSize size;
  const uint8_t* data;  // copied into the command buffer at record time
  void execute(ExecContext&) const { std::memcpy(dst->data() + offset, data, size_t(size)); }
};

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyBuffer(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkBuffer dstBuffer,
                                                  uint32_t regionCount, const VkBufferCopy* pRegions) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->copyArray(pRegions, regionCount);
  if (auto* c = cb->record<CopyBufferCmd>(); c && regions)
    *c = {fromHandle<Buffer>(srcBuffer), fromHandle<Buffer>(dstBuffer), regions, regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyBuffer2(VkCommandBuffer commandBuffer, const VkCopyBufferInfo2* pInfo) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->allocateArray<VkBufferCopy>(pInfo->regionCount);
  if (!regions) return;
  for (uint32_t i = 0; i < pInfo->regionCount; ++i)
    regions[i] = {pInfo->pRegions[i].srcOffset, pInfo->pRegions[i].dstOffset, pInfo->pRegions[i].size};
  if (auto* c = cb->record<CopyBufferCmd>())
    *c = {fromHandle<Buffer>(pInfo->srcBuffer), fromHandle<Buffer>(pInfo->dstBuffer), regions, pInfo->regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdFillBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                                  VkDeviceSize size, uint32_t data) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  Buffer* dst = fromHandle<Buffer>(dstBuffer);
  // VK_WHOLE_SIZE fills to the end, rounded down to a multiple of 4 (spec: vkCmdFillBuffer).
  if (size == VK_WHOLE_SIZE) size = (dst->size - dstOffset) & ~VkDeviceSize(3);
  if (auto* c = cb->record<FillBufferCmd>()) *c = {dst, dstOffset, size & ~VkDeviceSize(3), data};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdUpdateBuffer(VkCommandBuffer commandBuffer, VkBuffer dstBuffer, VkDeviceSize dstOffset,
                                                    VkDeviceSize dataSize, const void* pData) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* data = cb->copyArray(static_cast<const uint8_t*>(pData), size_t(dataSize));
  if (auto* c = cb->record<UpdateBufferCmd>(); c && data) *c = {fromHandle<Buffer>(dstBuffer), dstOffset, dataSize, data};
}

}  // extern "C"
