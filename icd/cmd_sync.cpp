// Synchronization and query commands. Commands of one queue run one after another on its
// worker thread and each finishes before the next starts, so pipeline barriers have nothing
// left to order; events and queries do have observable state.
#include "command_buffer.h"
#include "device.h"
#include "entrypoints.h"
#include "multiview.h"
#include "query_pool.h"
#include "resources.h"
#include "sync.h"

namespace tessera {
namespace {

struct SetEventCmd {
  Event* event;
  bool state;
  void execute(ExecContext&) const { event->signal(state); }
};

// A pipeline barrier. Commands run in order on the queue's thread, so a barrier has nothing to
// wait for, except inside a render pass instance: the draws before it sit in the binned scene,
// not yet rasterized, and a draw after a self-dependency barrier may read what they write
// (input attachments, VK_EXT_attachment_feedback_loop_layout's sampled attachments). Like
// every record that is not a draw, it flushes the scene before it runs (command_buffer.cpp).
struct BarrierCmd {
  void execute(ExecContext&) const {}
};

struct WaitEventsCmd {
  Event* const* events;
  uint32_t count;
  void execute(ExecContext& ctx) const {
    for (uint32_t i = 0; i < count; ++i) events[i]->waitSet(ctx.device->lost);
  }
};

// Inside a multiview render pass instance a query uses one query per view, from `query` on
// ("Queries": how results are distributed is the implementation's choice, their sum must be
// the total). Tessera writes the whole result to the first and 0 to the others, and makes them
// all available.
void writeOtherViews(QueryPool* pool, uint32_t query, const ExecContext& ctx) {
  const uint32_t n = ctx.targets.active ? multiview::viewCount(ctx.targets.viewMask) : 0;
  for (uint32_t i = 1; i < n && query + i < pool->count; ++i) pool->write(query + i, 0);
}

// "Timestamp Queries" in a multiview render pass instance: the first query is the timestamp
// and the other views' queries are zero (the first of the behaviours the spec allows).
struct WriteTimestampCmd {
  QueryPool* pool;
  uint32_t query;
  void execute(ExecContext& ctx) const {
    writeOtherViews(pool, query, ctx);
    pool->write(query, timestampNow());
  }
};

struct ResetQueryPoolCmd {
  QueryPool* pool;
  uint32_t first, count;
  void execute(ExecContext&) const { pool->reset(first, count); }
};

// "Occlusion Queries": draws between begin and end add the samples that pass their tests to
// the execution context's counter; end writes it. "Transform Feedback Queries": the primitives
// of vertex stream `index` written and needed since the begin, counted by the draws' capture
// (raster/transform_feedback.cpp). "Primitives Generated Queries": the primitives the draws'
// last pre-rasterization stage emitted to stream `index` since the begin
// (raster::countGenerated), whether or not transform feedback is active. Both keep the running
// counts of their stream at the begin, so that queries of different streams may overlap.
// Other query types have nothing to count. `index` is vkCmdBeginQueryIndexedEXT's (0 for
// vkCmdBeginQuery); it must be below maxTransformFeedbackStreams, anything else counts nothing.
struct BeginQueryCmd {
  QueryPool* pool;
  uint32_t query;
  uint32_t index;
  void execute(ExecContext& ctx) const {
    uint64_t* base = pool->countBase ? &pool->countBase[size_t(query) * 2] : nullptr;
    const uint32_t stream = index < kMaxTransformFeedbackStreams ? index : 0;
    if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
      std::copy_n(ctx.statistics, raster::kPipelineStatistics, &pool->statisticsBase[size_t(query) * raster::kPipelineStatistics]);
      ++ctx.statisticsQueries;
    } else if (pool->type == VK_QUERY_TYPE_OCCLUSION) {
      ctx.occlusionActive = true;
      ctx.occlusionSamples = 0;
    } else if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
      ++ctx.primitivesGeneratedQueries;
      base[0] = ctx.primitivesGenerated[stream];
    } else if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      ++ctx.feedbackQueries;
      base[0] = ctx.feedback.primitivesWritten[stream];
      base[1] = ctx.feedback.primitivesNeeded[stream];
    }
  }
};

struct EndQueryCmd {
  QueryPool* pool;
  uint32_t query;
  uint32_t index;
  void execute(ExecContext& ctx) const {
    writeOtherViews(pool, query, ctx);
    const uint64_t* base = pool->countBase ? &pool->countBase[size_t(query) * 2] : nullptr;
    const bool counts = index < kMaxTransformFeedbackStreams;  // else nothing was counted
    const uint32_t stream = counts ? index : 0;
    if (pool->type == VK_QUERY_TYPE_PIPELINE_STATISTICS) {
      // "Pipeline Statistics Queries": each statistic the pool holds, in bit order, counted
      // since this query's begin.
      uint64_t values[raster::kPipelineStatistics] = {};
      const uint64_t* base = &pool->statisticsBase[size_t(query) * raster::kPipelineStatistics];
      uint32_t n = 0;
      for (uint32_t bit = 0; bit < raster::kPipelineStatistics; ++bit)
        if (pool->statisticsFlags >> bit & 1) values[n++] = ctx.statistics[bit] - base[bit];
      pool->writeAll(query, values);
      if (ctx.statisticsQueries) --ctx.statisticsQueries;
      return;
    }
    if (pool->type == VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT) {
      pool->write(query, counts ? ctx.feedback.primitivesWritten[stream] - base[0] : 0,
                  counts ? ctx.feedback.primitivesNeeded[stream] - base[1] : 0);
      if (ctx.feedbackQueries) --ctx.feedbackQueries;
      return;
    }
    if (pool->type == VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT) {
      pool->write(query, counts ? ctx.primitivesGenerated[stream] - base[0] : 0);
      if (ctx.primitivesGeneratedQueries) --ctx.primitivesGeneratedQueries;
      return;
    }
    pool->write(query, pool->type == VK_QUERY_TYPE_OCCLUSION ? ctx.occlusionSamples : 0);
    if (pool->type == VK_QUERY_TYPE_OCCLUSION) ctx.occlusionActive = false;
  }
};

struct CopyQueryResultsCmd {
  QueryPool* pool;
  uint32_t first, count;
  Buffer* dst;
  VkDeviceSize offset, stride;
  VkQueryResultFlags flags;
  void execute(ExecContext&) const { pool->copyResults(first, count, dst->data() + offset, stride, flags); }
};

struct ExecuteCommandsCmd {
  CommandBuffer* const* buffers;
  uint32_t count;
  void execute(ExecContext& ctx) const {
    for (uint32_t i = 0; i < count; ++i) buffers[i]->execute(ctx);
  }
};

void recordWaitEvents(CommandBuffer* cb, uint32_t count, const VkEvent* pEvents) {
  auto* events = cb->allocateArray<Event*>(count);
  if (!events) return;
  for (uint32_t i = 0; i < count; ++i) events[i] = fromHandle<Event>(pEvents[i]);
  if (auto* c = cb->record<WaitEventsCmd>()) *c = {events, count};
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdPipelineBarrier(VkCommandBuffer commandBuffer, VkPipelineStageFlags,
                                                       VkPipelineStageFlags, VkDependencyFlags, uint32_t,
                                                       const VkMemoryBarrier*, uint32_t, const VkBufferMemoryBarrier*,
                                                       uint32_t, const VkImageMemoryBarrier*) {
  fromHandle<CommandBuffer>(commandBuffer)->record<BarrierCmd>();
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdPipelineBarrier2(VkCommandBuffer commandBuffer, const VkDependencyInfo*) {
  fromHandle<CommandBuffer>(commandBuffer)->record<BarrierCmd>();
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<SetEventCmd>()) *c = {fromHandle<Event>(event), true};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetEvent2(VkCommandBuffer commandBuffer, VkEvent event, const VkDependencyInfo*) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<SetEventCmd>()) *c = {fromHandle<Event>(event), true};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdResetEvent(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<SetEventCmd>()) *c = {fromHandle<Event>(event), false};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdResetEvent2(VkCommandBuffer commandBuffer, VkEvent event, VkPipelineStageFlags2) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<SetEventCmd>()) *c = {fromHandle<Event>(event), false};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdWaitEvents(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                                  VkPipelineStageFlags, VkPipelineStageFlags, uint32_t, const VkMemoryBarrier*,
                                                  uint32_t, const VkBufferMemoryBarrier*, uint32_t, const VkImageMemoryBarrier*) {
  recordWaitEvents(fromHandle<CommandBuffer>(commandBuffer), eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdWaitEvents2(VkCommandBuffer commandBuffer, uint32_t eventCount, const VkEvent* pEvents,
                                                   const VkDependencyInfo*) {
  recordWaitEvents(fromHandle<CommandBuffer>(commandBuffer), eventCount, pEvents);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdWriteTimestamp(VkCommandBuffer commandBuffer, VkPipelineStageFlagBits,
                                                      VkQueryPool queryPool, uint32_t query) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<WriteTimestampCmd>())
    *c = {fromHandle<QueryPool>(queryPool), query};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdWriteTimestamp2(VkCommandBuffer commandBuffer, VkPipelineStageFlags2,
                                                       VkQueryPool queryPool, uint32_t query) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<WriteTimestampCmd>())
    *c = {fromHandle<QueryPool>(queryPool), query};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdResetQueryPool(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t first,
                                                      uint32_t count) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<ResetQueryPoolCmd>())
    *c = {fromHandle<QueryPool>(queryPool), first, count};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query,
                                                  VkQueryControlFlags) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<BeginQueryCmd>())
    *c = {fromHandle<QueryPool>(queryPool), query, 0};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndQuery(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t query) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<EndQueryCmd>()) *c = {fromHandle<QueryPool>(queryPool), query, 0};
}

// VK_EXT_transform_feedback's indexed forms: `index` is the vertex stream (0..3,
// maxTransformFeedbackStreams) of a transform feedback or primitives generated query
// (primitivesGeneratedQueryWithNonZeroStreams) and 0 for the others.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                            uint32_t query, VkQueryControlFlags, uint32_t index) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<BeginQueryCmd>())
    *c = {fromHandle<QueryPool>(queryPool), query, index};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndQueryIndexedEXT(VkCommandBuffer commandBuffer, VkQueryPool queryPool,
                                                          uint32_t query, uint32_t index) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<EndQueryCmd>())
    *c = {fromHandle<QueryPool>(queryPool), query, index};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyQueryPoolResults(VkCommandBuffer commandBuffer, VkQueryPool queryPool, uint32_t first,
                                                            uint32_t count, VkBuffer dstBuffer, VkDeviceSize offset,
                                                            VkDeviceSize stride, VkQueryResultFlags flags) {
  if (auto* c = fromHandle<CommandBuffer>(commandBuffer)->record<CopyQueryResultsCmd>())
    *c = {fromHandle<QueryPool>(queryPool), first, count, fromHandle<Buffer>(dstBuffer), offset, stride, flags};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdExecuteCommands(VkCommandBuffer commandBuffer, uint32_t count,
                                                       const VkCommandBuffer* pCommandBuffers) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* buffers = cb->allocateArray<CommandBuffer*>(count);
  if (!buffers) return;
  for (uint32_t i = 0; i < count; ++i) buffers[i] = fromHandle<CommandBuffer>(pCommandBuffers[i]);
  if (auto* c = cb->record<ExecuteCommandsCmd>()) *c = {buffers, count};
}

}  // extern "C"
