// vkCmdBindPipeline and the compute dispatch commands. A dispatch record holds the pipeline
// and the bound resources' snapshot; vkCmdDispatchIndirect reads its counts when it executes.
#include <cstring>

#include "command_buffer.h"
#include "entrypoints.h"
#include "pipeline.h"
#include "resources.h"

namespace tessera {
namespace {

// "Compute shader invocations" of an active pipeline statistics query: every invocation of
// every workgroup dispatched.
void countInvocations(ExecContext& ctx, const jit::ComputeProgram& program, const uint32_t count[3]) {
  ctx.countStatistic(raster::kComputeShaderInvocations,
                     uint64_t(count[0]) * count[1] * count[2] * program.invocationsPerWorkgroup());
}

struct DispatchCmd {
  const Pipeline* pipeline;
  const abi::BoundResources* resources;
  uint32_t base[3];
  uint32_t count[3];
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering"
    if (!pipeline || !pipeline->compute || !resources) return;
    countInvocations(ctx, *pipeline->compute, count);
    jit::runCompute(*pipeline->compute, resources, base, count);
  }
};

struct DispatchIndirectCmd {
  const Pipeline* pipeline;
  const abi::BoundResources* resources;
  const Buffer* buffer;
  VkDeviceSize offset;
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering"
    if (!pipeline || !pipeline->compute || !resources || !buffer->data()) return;
    uint32_t count[3];
    std::memcpy(count, buffer->data() + offset, sizeof(count));
    const uint32_t base[3] = {0, 0, 0};
    countInvocations(ctx, *pipeline->compute, count);
    jit::runCompute(*pipeline->compute, resources, base, count);
  }
};

void recordDispatch(VkCommandBuffer commandBuffer, const uint32_t base[3], const uint32_t count[3]) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const abi::BoundResources* resources = cb->snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  if (auto* c = cb->record<DispatchCmd>()) {
    c->pipeline = cb->compute.pipeline;
    c->resources = resources;
    std::memcpy(c->base, base, sizeof(c->base));
    std::memcpy(c->count, count, sizeof(c->count));
  }
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindPipeline(VkCommandBuffer commandBuffer, VkPipelineBindPoint bindPoint,
                                                    VkPipeline pipeline) {
  BindPointState* state = fromHandle<CommandBuffer>(commandBuffer)->bindPoint(bindPoint);
  if (!state) return;
  const Pipeline* p = fromHandle<Pipeline>(pipeline);
  // A pipeline that numbers dynamic offsets differently needs a new snapshot (snapshotResources).
  if (!state->pipeline || !p || !(state->pipeline->dynamicOffsets == p->dynamicOffsets)) state->snapshot = nullptr;
  state->pipeline = p;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDispatch(VkCommandBuffer commandBuffer, uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t base[3] = {0, 0, 0}, count[3] = {x, y, z};
  recordDispatch(commandBuffer, base, count);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDispatchBase(VkCommandBuffer commandBuffer, uint32_t bx, uint32_t by, uint32_t bz,
                                                    uint32_t x, uint32_t y, uint32_t z) {
  const uint32_t base[3] = {bx, by, bz}, count[3] = {x, y, z};
  recordDispatch(commandBuffer, base, count);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDispatchIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const abi::BoundResources* resources = cb->snapshotResources(VK_PIPELINE_BIND_POINT_COMPUTE);
  if (auto* c = cb->record<DispatchIndirectCmd>()) *c = {cb->compute.pipeline, resources, fromHandle<Buffer>(buffer), offset};
}

}  // extern "C"
