// Draw commands, vertex/index buffer binds and the dynamic-state setters. A draw record holds
// the draw loop's state (pipeline state with the command buffer's dynamic state applied, as
// recorded); the attachments come from the render pass instance when the draw executes.
#include <algorithm>
#include <cstring>

#include "command_buffer.h"
#include "depth_bias_control.h"
#include "entrypoints.h"
#include "pipeline.h"
#include "resources.h"

namespace tessera {
namespace {

raster::StencilFace withDynamic(raster::StencilFace f, const GraphicsPipelineState& g, const GraphicsRecordState& r, int face) {
  if (g.isDynamic(VK_DYNAMIC_STATE_STENCIL_COMPARE_MASK)) f.compareMask = r.stencilCompareMask[face];
  if (g.isDynamic(VK_DYNAMIC_STATE_STENCIL_WRITE_MASK)) f.writeMask = r.stencilWriteMask[face];
  if (g.isDynamic(VK_DYNAMIC_STATE_STENCIL_REFERENCE)) f.reference = r.stencilReference[face];
  if (g.isDynamic(VK_DYNAMIC_STATE_STENCIL_OP)) {
    f.failOp = r.stencilOps[face].failOp;
    f.passOp = r.stencilOps[face].passOp;
    f.depthFailOp = r.stencilOps[face].depthFailOp;
    f.compareOp = r.stencilOps[face].compareOp;
  }
  return f;
}

// The bound pipeline's state with the recorded dynamic state applied (an arena copy), or null.
const raster::DrawState* drawStateFor(CommandBuffer* cb) {
  const Pipeline* p = cb->graphics.pipeline;
  if (!p || !p->graphics) return nullptr;
  const GraphicsPipelineState& g = *p->graphics;
  const GraphicsRecordState& r = cb->graphicsState;
  raster::DrawState* s = cb->allocateArray<raster::DrawState>(1);
  if (!s) return nullptr;
  new (s) raster::DrawState(g.base);
  s->resources = cb->snapshotResources(VK_PIPELINE_BIND_POINT_GRAPHICS);
  // VK_EXT_vertex_input_dynamic_state ("Vertex Input Description"): the recorded bindings and
  // attributes replace the pipeline's (which has none); the kernel fetches no attribute
  // itself (graphics_pipeline.cpp), so the draw decodes them all.
  if (g.isDynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_EXT)) {
    for (uint32_t b = 0; b < raster::kMaxVertexBindings; ++b) {
      s->bindings[b].stride = r.vertexInputBindings[b].stride;
      s->bindings[b].inputRate = r.vertexInputBindings[b].inputRate;
      s->bindings[b].divisor = r.vertexInputBindings[b].divisor;
    }
    s->attributeCount = std::min(r.vertexInputAttributeCount, raster::kMaxVertexAttributes);
    std::copy(r.vertexInputAttributes, r.vertexInputAttributes + s->attributeCount, s->attributes);
    s->vertexFetchedLocations = 0;
  }
  for (uint32_t b = 0; b < raster::kMaxVertexBindings; ++b) {
    s->bindings[b].base = r.vertexBuffers[b].base;
    s->bindings[b].size = r.vertexBuffers[b].size;
    if (g.isDynamic(VK_DYNAMIC_STATE_VERTEX_INPUT_BINDING_STRIDE) && r.vertexBuffers[b].strideSet)
      s->bindings[b].stride = r.vertexBuffers[b].stride;
  }
  const bool dynViewport = g.isDynamic(VK_DYNAMIC_STATE_VIEWPORT) || g.isDynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT);
  const bool dynScissor = g.isDynamic(VK_DYNAMIC_STATE_SCISSOR) || g.isDynamic(VK_DYNAMIC_STATE_SCISSOR_WITH_COUNT);
  // "Controlling the Viewport": every viewport and scissor the draw may select (ViewportIndex);
  // with VIEWPORT_WITH_COUNT the count is the command buffer's too.
  const VkViewport* viewports = dynViewport ? r.viewports : g.viewports;
  const VkRect2D* scissors = dynScissor ? r.scissors : g.scissors;
  s->viewportCount = g.isDynamic(VK_DYNAMIC_STATE_VIEWPORT_WITH_COUNT) ? r.viewportCount : g.viewportCount;
  s->viewportCount = std::clamp(s->viewportCount, 1u, raster::kMaxViewports);
  for (uint32_t i = 0; i < s->viewportCount; ++i) {
    const VkViewport& vp = viewports[i];
    s->viewports[i] = {vp.x, vp.y, vp.width, vp.height, vp.minDepth, vp.maxDepth};
    const VkRect2D& sc = scissors[i];
    s->scissors[i] = {sc.offset.x, sc.offset.y, int32_t(std::min<int64_t>(int64_t(sc.offset.x) + sc.extent.width, INT32_MAX)),
                      int32_t(std::min<int64_t>(int64_t(sc.offset.y) + sc.extent.height, INT32_MAX))};
  }
  s->raster.viewport = s->viewports[0];
  s->raster.scissor = s->scissors[0];
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_BIAS)) {
    s->raster.depthBiasConstantFactor = r.depthBias[0];
    s->raster.depthBiasClamp = r.depthBias[1];
    s->raster.depthBiasSlopeFactor = r.depthBias[2];
    s->raster.depthBiasRepresentation = r.depthBiasRepresentation;
  }
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_BIAS_ENABLE)) s->raster.depthBiasEnable = r.depthBiasEnable;
  if (g.isDynamic(VK_DYNAMIC_STATE_LINE_WIDTH)) s->raster.lineWidth = r.lineWidth;
  if (g.isDynamic(VK_DYNAMIC_STATE_LINE_STIPPLE_EXT)) {  // "Line Stipple": factor and pattern only
    s->raster.lineStippleFactor = r.lineStippleFactor;
    s->raster.lineStipplePattern = r.lineStipplePattern;
  }
  if (g.isDynamic(VK_DYNAMIC_STATE_BLEND_CONSTANTS)) std::memcpy(s->blendConstants, r.blendConstants, 16);
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS)) s->minDepthBounds = r.depthBounds[0], s->maxDepthBounds = r.depthBounds[1];
  if (g.isDynamic(VK_DYNAMIC_STATE_CULL_MODE)) s->raster.cullMode = r.cullMode;
  if (g.isDynamic(VK_DYNAMIC_STATE_FRONT_FACE)) s->raster.frontFace = r.frontFace;
  if (g.isDynamic(VK_DYNAMIC_STATE_PRIMITIVE_TOPOLOGY)) s->topology = r.topology;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_TEST_ENABLE)) s->depthTest = r.depthTest;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_WRITE_ENABLE)) s->depthWrite = r.depthWrite;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_COMPARE_OP)) s->depthCompare = r.depthCompare;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_BOUNDS_TEST_ENABLE)) s->depthBoundsTest = r.depthBoundsTest;
  if (g.isDynamic(VK_DYNAMIC_STATE_STENCIL_TEST_ENABLE)) s->stencilTest = r.stencilTest;
  if (g.isDynamic(VK_DYNAMIC_STATE_RASTERIZER_DISCARD_ENABLE)) s->rasterizerDiscard = r.rasterizerDiscard;
  if (g.isDynamic(VK_DYNAMIC_STATE_PRIMITIVE_RESTART_ENABLE)) s->primitiveRestart = r.primitiveRestart;
  // VK_EXT_extended_dynamic_state2's logic op ("Logical Operations": read per fragment by both
  // draw paths, FragmentStage::writeLogicOp; no compiled code depends on which operation) and
  // patch control points ("Patch Lists": the tessellation stages read them per draw, and the
  // control kernel gets them as PatchVertices; a value outside 1..32 draws nothing).
  if (g.isDynamic(VK_DYNAMIC_STATE_LOGIC_OP_EXT)) s->logicOp = r.logicOp;
  if (g.isDynamic(VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT)) s->tessellation.patchControlPoints = r.patchControlPoints;
  // VK_EXT_extended_dynamic_state3: each value where the pipeline states it (graphics_pipeline.cpp
  // buildState), read by the draw paths per draw; none reaches compiled code (the colour blend
  // states below decide only whether the kernel's compiled writes may serve the draw).
  if (g.isDynamic(VK_DYNAMIC_STATE_TESSELLATION_DOMAIN_ORIGIN_EXT)) s->tessellation.lowerLeftOrigin = r.lowerLeftOrigin;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_CLAMP_ENABLE_EXT)) s->raster.depthClampEnable = r.depthClampEnable;
  if (g.isDynamic(VK_DYNAMIC_STATE_POLYGON_MODE_EXT)) s->polygonMode = r.polygonMode;
  if (g.isDynamic(VK_DYNAMIC_STATE_SAMPLE_MASK_EXT)) s->sampleMask = r.sampleMask;
  if (g.isDynamic(VK_DYNAMIC_STATE_ALPHA_TO_ONE_ENABLE_EXT)) s->alphaToOne = r.alphaToOne;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_CLIP_ENABLE_EXT))
    s->raster.depthClip = r.depthClipEnable ? raster::RasterState::DepthClip::Enabled : raster::RasterState::DepthClip::Disabled;
  if (g.isDynamic(VK_DYNAMIC_STATE_PROVOKING_VERTEX_MODE_EXT)) s->provokingVertexLast = r.provokingVertexLast;
  if (g.isDynamic(VK_DYNAMIC_STATE_LINE_RASTERIZATION_MODE_EXT)) s->raster.lineMode = r.lineMode;
  if (g.isDynamic(VK_DYNAMIC_STATE_LINE_STIPPLE_ENABLE_EXT)) s->raster.lineStippleEnable = r.lineStippleEnable;
  if (g.isDynamic(VK_DYNAMIC_STATE_DEPTH_CLIP_NEGATIVE_ONE_TO_ONE_EXT)) s->raster.negativeOneToOne = r.negativeOneToOne;
  // "Multisampling", "Sample Shading": the draw's samples per pixel, and so whether it shades
  // per sample. The fragment kernel's own writes address the count it was compiled for
  // (FragmentInterface::directSamples), which the walker compares with the draw's.
  // VK_EXT_sample_locations: the command buffer's locations and enable where dynamic.
  if (g.isDynamic(VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_EXT)) s->raster.customLocations = r.sampleLocations;
  if (g.isDynamic(VK_DYNAMIC_STATE_SAMPLE_LOCATIONS_ENABLE_EXT)) s->raster.customSampleLocations = r.sampleLocationsEnable;
  if (g.isDynamic(VK_DYNAMIC_STATE_RASTERIZATION_SAMPLES_EXT)) {
    s->raster.samples = r.rasterizationSamples;
    s->sampleShading = g.sampleShadingEnable && g.minSampleShading * float(s->raster.samples) > 1.0f;
    s->raster.sampleWeights = s->raster.samples > 1 && (s->sampleShading || s->fragment.perSampleShading);
  }
  // Its colour blend states ("Color Blending", "Logical Operations", "Multisample Coverage"):
  // the loop reads them per draw, and the fragment kernel's own writes serve the draw only
  // where they equal the state it was compiled with (raster/draw_fragments.cpp retarget).
  if (g.isDynamic(VK_DYNAMIC_STATE_LOGIC_OP_ENABLE_EXT)) s->logicOpEnable = r.logicOpEnable;
  if (g.isDynamic(VK_DYNAMIC_STATE_ALPHA_TO_COVERAGE_ENABLE_EXT)) s->alphaToCoverage = r.alphaToCoverage;
  const bool dynBlendEnable = g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_ENABLE_EXT);
  const bool dynEquation = g.isDynamic(VK_DYNAMIC_STATE_COLOR_BLEND_EQUATION_EXT);
  const bool dynWriteMask = g.isDynamic(VK_DYNAMIC_STATE_COLOR_WRITE_MASK_EXT);
  for (uint32_t i = 0; (dynBlendEnable || dynEquation || dynWriteMask) && i < abi::kMaxColorAttachments; ++i) {
    raster::BlendAttachment& b = s->blend[i];
    if (dynBlendEnable) b.enable = r.colorBlendEnables >> i & 1;
    if (dynEquation) {
      const VkColorBlendEquationEXT& e = r.blendEquations[i];
      b.srcColor = e.srcColorBlendFactor, b.dstColor = e.dstColorBlendFactor, b.colorOp = e.colorBlendOp;
      b.srcAlpha = e.srcAlphaBlendFactor, b.dstAlpha = e.dstAlphaBlendFactor, b.alphaOp = e.alphaBlendOp;
    }
    // A static colour write enable of VK_FALSE still holds under a dynamic write mask.
    if (dynWriteMask) b.writeMask = g.staticColorWriteEnables >> i & 1 ? r.colorWriteMasks[i] : 0;
  }
  // The fragment stage compiled for the draw's blend state, when the pipeline's kernel (compiled
  // without blending, the state being dynamic) would leave a blended draw to the loop
  // (fragment_variants.h). A logic op draw never uses the kernel's writes.
  if (g.fragmentVariants && !s->logicOpEnable) {
    FragmentVariants::Plan plan{};
    bool blends = false;
    for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i) {
      const raster::BlendAttachment& b = s->blend[i];
      if (!b.enable) continue;
      plan[i] = abi::packBlend(b.srcColor, b.dstColor, b.colorOp, b.srcAlpha, b.dstAlpha, b.alphaOp);
      blends = blends || plan[i] != 0;
    }
    if (blends)
      if (const auto variant = g.fragmentVariants->forPlan(plan)) {
        s->fragmentShader = variant->fragment;
        std::copy(variant->facts.directBlend, variant->facts.directBlend + abi::kMaxColorAttachments,
                  s->fragment.directBlend);
      }
  }
  // "Color Write Enable": disabled is a colorWriteMask of 0 (graphics_pipeline.cpp does the same
  // for the static state).
  if (g.isDynamic(VK_DYNAMIC_STATE_COLOR_WRITE_ENABLE_EXT))
    for (uint32_t i = 0; i < abi::kMaxColorAttachments; ++i)
      if (!(r.colorWriteEnables >> i & 1)) s->blend[i].writeMask = 0;
  s->stencilFront = withDynamic(s->stencilFront, g, r, 0);
  s->stencilBack = withDynamic(s->stencilBack, g, r, 1);
  // Tessera reports strictLines (physical_device.cpp): lines are rasterized by the strict rule,
  // "Basic Line Segment Rasterization"'s rectangle, which VK_EXT_line_rasterization names
  // RECTANGULAR; DEFAULT means exactly that when strictLines is VK_TRUE.
  if (s->raster.lineMode == VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT) s->raster.lineMode = VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT;
  return s;
}

// The recorded state completed with the render pass instance's attachments.
bool completeForTargets(const raster::DrawState& recorded, const RenderTargets& t, raster::DrawState& s) {
  if (!t.active) return false;  // a draw outside a render pass instance is invalid usage
  s = recorded;
  s.colorCount = t.colorCount;
  for (uint32_t i = 0; i < t.colorCount; ++i) s.color[i] = t.color[i];
  s.depth = t.depth;
  s.stencil = t.stencil;
  s.renderArea = t.renderArea;
  // An empty scissor rejects every fragment, but the vertex processing stages still run and
  // their stores and atomics happen ("Scissor Test" is per fragment): a viewport whose scissor
  // is empty gets an empty rectangle (its primitives' bounds are empty), and when every one is,
  // rasterization only is discarded.
  bool anyScissor = false;
  for (uint32_t i = 0; i < s.viewportCount; ++i) {
    raster::Rect& sc = s.scissors[i];
    sc = {std::max(sc.x0, t.renderArea.x0), std::max(sc.y0, t.renderArea.y0), std::min(sc.x1, t.renderArea.x1),
          std::min(sc.y1, t.renderArea.y1)};
    if (sc.x0 >= sc.x1 || sc.y0 >= sc.y1) sc = {t.renderArea.x0, t.renderArea.y0, t.renderArea.x0, t.renderArea.y0};
    else anyScissor = true;
  }
  s.raster.scissor = s.scissors[0];
  if (!anyScissor) s.rasterizerDiscard = true;
  s.raster.depthFormat = t.depth.base ? t.depth.format : VK_FORMAT_UNDEFINED;
  return true;
}

struct DrawCmd {
  static constexpr bool kJoinsScene = true;
  const raster::DrawState* state;
  raster::DrawCall call;
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering"
    raster::DrawState s;
    if (!state || !completeForTargets(*state, ctx.targets, s)) return;
    if (ctx.occlusionActive) s.occlusionSamples = &ctx.occlusionSamples;
    if (ctx.statisticsQueries) s.statistics = ctx.statistics;
    if (ctx.primitivesGeneratedQueries) s.primitivesGenerated = ctx.primitivesGenerated;
    ctx.draw(s, call);
  }
};

// vkCmdDraw(Indexed)Indirect(Count): the parameters are read when the command executes.
struct DrawIndirectCmd {
  static constexpr bool kJoinsScene = true;
  const raster::DrawState* state;
  raster::DrawCall base;  // index buffer binding for indexed draws
  const uint8_t* commands;
  uint64_t commandBytes;
  uint32_t drawCount, stride;
  const uint8_t* countAddress;  // vkCmdDraw*IndirectCount: the draw count, else null
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering"
    raster::DrawState s;
    if (!state || !commands || !completeForTargets(*state, ctx.targets, s)) return;
    if (ctx.occlusionActive) s.occlusionSamples = &ctx.occlusionSamples;
    if (ctx.statisticsQueries) s.statistics = ctx.statistics;
    if (ctx.primitivesGeneratedQueries) s.primitivesGenerated = ctx.primitivesGenerated;
    uint32_t n = drawCount;
    if (countAddress) {
      uint32_t count;
      std::memcpy(&count, countAddress, 4);
      n = std::min(n, count);
    }
    for (uint32_t i = 0; i < n; ++i) {
      raster::DrawCall call = base;
      call.drawIndex = i;
      const uint64_t at = uint64_t(i) * stride;
      if (base.indexed) {
        VkDrawIndexedIndirectCommand c;
        if (at + sizeof(c) > commandBytes) break;
        std::memcpy(&c, commands + at, sizeof(c));
        call.vertexCount = c.indexCount;
        call.instanceCount = c.instanceCount;
        call.firstIndex = c.firstIndex;
        call.vertexOffset = c.vertexOffset;
        call.firstInstance = c.firstInstance;
      } else {
        VkDrawIndirectCommand c;
        if (at + sizeof(c) > commandBytes) break;
        std::memcpy(&c, commands + at, sizeof(c));
        call.vertexCount = c.vertexCount;
        call.instanceCount = c.instanceCount;
        call.firstVertex = c.firstVertex;
        call.firstInstance = c.firstInstance;
      }
      ctx.draw(s, call);
    }
  }
};

// vkCmdDrawMultiEXT / vkCmdDrawMultiIndexedEXT (VK_EXT_multi_draw): the draws' parameters are
// copied at record time, each with DrawIndex = its index in the array ("Drawing Commands").
struct MultiDrawCmd {
  static constexpr bool kJoinsScene = true;
  const raster::DrawState* state;
  const raster::DrawCall* calls;
  uint32_t count;
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering"
    raster::DrawState s;
    if (!state || !calls || !completeForTargets(*state, ctx.targets, s)) return;
    if (ctx.occlusionActive) s.occlusionSamples = &ctx.occlusionSamples;
    if (ctx.statisticsQueries) s.statistics = ctx.statistics;
    if (ctx.primitivesGeneratedQueries) s.primitivesGenerated = ctx.primitivesGenerated;
    for (uint32_t i = 0; i < count; ++i) ctx.draw(s, calls[i]);
  }
};

// vkCmdDrawIndirectByteCountEXT ("Transform Feedback"): vertexCount is the byte count a
// transform feedback End stored in the counter buffer, less counterOffset, over vertexStride,
// read when the command executes.
struct DrawByteCountCmd {
  static constexpr bool kJoinsScene = true;
  const raster::DrawState* state;
  raster::DrawCall call;  // instanceCount, firstInstance
  const uint8_t* counter;
  uint32_t counterOffset, vertexStride;
  void execute(ExecContext& ctx) const {
    if (ctx.conditionalDiscard) return;  // "Conditional Rendering" (it names this command too)
    raster::DrawState s;
    if (!state || !counter || vertexStride == 0 || !completeForTargets(*state, ctx.targets, s)) return;
    if (ctx.occlusionActive) s.occlusionSamples = &ctx.occlusionSamples;
    if (ctx.statisticsQueries) s.statistics = ctx.statistics;
    if (ctx.primitivesGeneratedQueries) s.primitivesGenerated = ctx.primitivesGenerated;
    uint32_t bytes;
    std::memcpy(&bytes, counter, 4);
    raster::DrawCall c = call;
    c.vertexCount = bytes > counterOffset ? (bytes - counterOffset) / vertexStride : 0;
    ctx.draw(s, c);
  }
};

raster::DrawCall indexedBase(const CommandBuffer* cb) {
  raster::DrawCall c;
  c.indexed = true;
  c.indices = cb->graphicsState.indexBase;
  c.indexBytes = cb->graphicsState.indexSize;
  c.indexType = cb->graphicsState.indexType;
  return c;
}

void recordIndirect(VkCommandBuffer commandBuffer, bool indexed, VkBuffer buffer, VkDeviceSize offset, uint32_t drawCount,
                    uint32_t stride, VkBuffer countBuffer, VkDeviceSize countOffset) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  const Buffer* b = fromHandle<Buffer>(buffer);
  if (auto* c = cb->record<DrawIndirectCmd>()) {
    c->state = state;
    c->base = indexed ? indexedBase(cb) : raster::DrawCall{};
    c->commands = b->data() ? b->data() + offset : nullptr;
    c->commandBytes = b->size > offset ? b->size - offset : 0;
    c->drawCount = drawCount;
    c->stride = stride;
    const Buffer* cbuf = countBuffer ? fromHandle<Buffer>(countBuffer) : nullptr;
    c->countAddress = cbuf && cbuf->data() ? cbuf->data() + countOffset : nullptr;
  }
}

GraphicsRecordState& stateOf(VkCommandBuffer commandBuffer) { return fromHandle<CommandBuffer>(commandBuffer)->graphicsState; }

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindVertexBuffers2(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                          uint32_t bindingCount, const VkBuffer* pBuffers,
                                                          const VkDeviceSize* pOffsets, const VkDeviceSize* pSizes,
                                                          const VkDeviceSize* pStrides) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < bindingCount && firstBinding + i < raster::kMaxVertexBindings; ++i) {
    auto& vb = r.vertexBuffers[firstBinding + i];
    const Buffer* b = pBuffers[i] ? fromHandle<Buffer>(pBuffers[i]) : nullptr;  // null: nullDescriptor
    const VkDeviceSize offset = pOffsets[i];
    vb.base = b && b->data() ? b->data() + offset : nullptr;
    const VkDeviceSize available = b && b->size > offset ? b->size - offset : 0;
    vb.size = pSizes && pSizes[i] != VK_WHOLE_SIZE ? std::min(pSizes[i], available) : available;
    if (pStrides) {
      vb.stride = uint32_t(pStrides[i]);
      vb.strideSet = true;
    }
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindVertexBuffers(VkCommandBuffer commandBuffer, uint32_t firstBinding,
                                                         uint32_t bindingCount, const VkBuffer* pBuffers,
                                                         const VkDeviceSize* pOffsets) {
  tessera_vkCmdBindVertexBuffers2(commandBuffer, firstBinding, bindingCount, pBuffers, pOffsets, nullptr, nullptr);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBindIndexBuffer(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                       VkIndexType indexType) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  const Buffer* b = fromHandle<Buffer>(buffer);
  r.indexBase = b->data() ? b->data() + offset : nullptr;
  r.indexSize = b->size > offset ? b->size - offset : 0;
  r.indexType = indexType;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDraw(VkCommandBuffer commandBuffer, uint32_t vertexCount, uint32_t instanceCount,
                                            uint32_t firstVertex, uint32_t firstInstance) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  if (auto* c = cb->record<DrawCmd>()) {
    c->state = state;
    c->call.vertexCount = vertexCount;
    c->call.instanceCount = instanceCount;
    c->call.firstVertex = firstVertex;
    c->call.firstInstance = firstInstance;
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndexed(VkCommandBuffer commandBuffer, uint32_t indexCount, uint32_t instanceCount,
                                                   uint32_t firstIndex, int32_t vertexOffset, uint32_t firstInstance) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  if (auto* c = cb->record<DrawCmd>()) {
    c->state = state;
    c->call = indexedBase(cb);
    c->call.vertexCount = indexCount;
    c->call.instanceCount = instanceCount;
    c->call.firstIndex = firstIndex;
    c->call.vertexOffset = vertexOffset;
    c->call.firstInstance = firstInstance;
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                    uint32_t drawCount, uint32_t stride) {
  recordIndirect(commandBuffer, false, buffer, offset, drawCount, stride, VK_NULL_HANDLE, 0);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndexedIndirect(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                           uint32_t drawCount, uint32_t stride) {
  recordIndirect(commandBuffer, true, buffer, offset, drawCount, stride, VK_NULL_HANDLE, 0);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer, VkDeviceSize offset,
                                                         VkBuffer countBuffer, VkDeviceSize countOffset,
                                                         uint32_t maxDrawCount, uint32_t stride) {
  recordIndirect(commandBuffer, false, buffer, offset, maxDrawCount, stride, countBuffer, countOffset);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndexedIndirectCount(VkCommandBuffer commandBuffer, VkBuffer buffer,
                                                                VkDeviceSize offset, VkBuffer countBuffer,
                                                                VkDeviceSize countOffset, uint32_t maxDrawCount,
                                                                uint32_t stride) {
  recordIndirect(commandBuffer, true, buffer, offset, maxDrawCount, stride, countBuffer, countOffset);
}

// VK_EXT_multi_draw: drawCount draws sharing instanceCount and firstInstance; the i-th
// VkMultiDraw(Indexed)InfoEXT is `stride` bytes after the previous one; pVertexOffset, when
// given, replaces every draw's vertexOffset.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawMultiEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                                    const VkMultiDrawInfoEXT* pVertexInfo, uint32_t instanceCount,
                                                    uint32_t firstInstance, uint32_t stride) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  raster::DrawCall* calls = drawCount ? cb->allocateArray<raster::DrawCall>(drawCount) : nullptr;
  for (uint32_t i = 0; calls && i < drawCount; ++i) {
    VkMultiDrawInfoEXT info;
    std::memcpy(&info, reinterpret_cast<const uint8_t*>(pVertexInfo) + size_t(i) * stride, sizeof(info));
    raster::DrawCall& c = *new (&calls[i]) raster::DrawCall{};
    c.vertexCount = info.vertexCount;
    c.firstVertex = info.firstVertex;
    c.instanceCount = instanceCount;
    c.firstInstance = firstInstance;
    c.drawIndex = i;
  }
  if (auto* r = cb->record<MultiDrawCmd>()) *r = {state, calls, calls ? drawCount : 0};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawMultiIndexedEXT(VkCommandBuffer commandBuffer, uint32_t drawCount,
                                                           const VkMultiDrawIndexedInfoEXT* pIndexInfo,
                                                           uint32_t instanceCount, uint32_t firstInstance, uint32_t stride,
                                                           const int32_t* pVertexOffset) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  raster::DrawCall* calls = drawCount ? cb->allocateArray<raster::DrawCall>(drawCount) : nullptr;
  for (uint32_t i = 0; calls && i < drawCount; ++i) {
    VkMultiDrawIndexedInfoEXT info;
    std::memcpy(&info, reinterpret_cast<const uint8_t*>(pIndexInfo) + size_t(i) * stride, sizeof(info));
    raster::DrawCall& c = *new (&calls[i]) raster::DrawCall(indexedBase(cb));
    c.vertexCount = info.indexCount;
    c.firstIndex = info.firstIndex;
    c.vertexOffset = pVertexOffset ? *pVertexOffset : info.vertexOffset;
    c.instanceCount = instanceCount;
    c.firstInstance = firstInstance;
    c.drawIndex = i;
  }
  if (auto* r = cb->record<MultiDrawCmd>()) *r = {state, calls, calls ? drawCount : 0};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdDrawIndirectByteCountEXT(VkCommandBuffer commandBuffer, uint32_t instanceCount,
                                                                 uint32_t firstInstance, VkBuffer counterBuffer,
                                                                 VkDeviceSize counterBufferOffset, uint32_t counterOffset,
                                                                 uint32_t vertexStride) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const raster::DrawState* state = drawStateFor(cb);
  const Buffer* b = fromHandle<Buffer>(counterBuffer);
  if (auto* c = cb->record<DrawByteCountCmd>()) {
    c->state = state;
    c->call.instanceCount = instanceCount;
    c->call.firstInstance = firstInstance;
    c->counter = b->data() && counterBufferOffset + 4 <= b->size ? b->data() + counterBufferOffset : nullptr;
    c->counterOffset = counterOffset;
    c->vertexStride = vertexStride;
  }
}

// ---- Dynamic state (values kept for later draws; used where the pipeline declares them) ----

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetViewport(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count,
                                                   const VkViewport* pViewports) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < count && first + i < raster::kMaxViewports; ++i) r.viewports[first + i] = pViewports[i];
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetViewportWithCount(VkCommandBuffer commandBuffer, uint32_t count,
                                                            const VkViewport* pViewports) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.viewportCount = std::min(count, raster::kMaxViewports);
  std::copy_n(pViewports, r.viewportCount, r.viewports);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetScissor(VkCommandBuffer commandBuffer, uint32_t first, uint32_t count,
                                                  const VkRect2D* pScissors) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (uint32_t i = 0; i < count && first + i < raster::kMaxViewports; ++i) r.scissors[first + i] = pScissors[i];
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetScissorWithCount(VkCommandBuffer commandBuffer, uint32_t count,
                                                           const VkRect2D* pScissors) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.scissorCount = std::min(count, raster::kMaxViewports);
  std::copy_n(pScissors, r.scissorCount, r.scissors);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLineWidth(VkCommandBuffer commandBuffer, float width) {
  stateOf(commandBuffer).lineWidth = width;
}
// VK_EXT_line_rasterization, "Line Stipple". A factor outside [1, 256] is invalid usage; the
// rasterizer clamps it (raster/rules.h: clampStippleFactor).
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLineStippleEXT(VkCommandBuffer commandBuffer, uint32_t lineStippleFactor,
                                                         uint16_t lineStipplePattern) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.lineStippleFactor = lineStippleFactor;
  r.lineStipplePattern = lineStipplePattern;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthBias(VkCommandBuffer commandBuffer, float constant, float clamp, float slope) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.depthBias[0] = constant, r.depthBias[1] = clamp, r.depthBias[2] = slope;
  r.depthBiasRepresentation = raster::RasterState::DepthBiasRepresentation::Format;
}
// VK_EXT_depth_bias_control: vkCmdSetDepthBias with the representation of the structure's
// VkDepthBiasRepresentationInfoEXT (without one, the format's r: "equivalent to" the
// structure with LEAST_REPRESENTABLE_VALUE_FORMAT and depthBiasExact false).
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthBias2EXT(VkCommandBuffer commandBuffer, const VkDepthBiasInfoEXT* pDepthBiasInfo) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.depthBias[0] = pDepthBiasInfo->depthBiasConstantFactor;
  r.depthBias[1] = pDepthBiasInfo->depthBiasClamp;
  r.depthBias[2] = pDepthBiasInfo->depthBiasSlopeFactor;
  r.depthBiasRepresentation = depthBiasRepresentationOf(pDepthBiasInfo->pNext);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetBlendConstants(VkCommandBuffer commandBuffer, const float constants[4]) {
  std::memcpy(stateOf(commandBuffer).blendConstants, constants, 16);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthBounds(VkCommandBuffer commandBuffer, float minBounds, float maxBounds) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  r.depthBounds[0] = minBounds, r.depthBounds[1] = maxBounds;
}
static void setPerFace(uint32_t* values, VkStencilFaceFlags faces, uint32_t v) {
  if (faces & VK_STENCIL_FACE_FRONT_BIT) values[0] = v;
  if (faces & VK_STENCIL_FACE_BACK_BIT) values[1] = v;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetStencilCompareMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faces, uint32_t mask) {
  setPerFace(stateOf(commandBuffer).stencilCompareMask, faces, mask);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetStencilWriteMask(VkCommandBuffer commandBuffer, VkStencilFaceFlags faces, uint32_t mask) {
  setPerFace(stateOf(commandBuffer).stencilWriteMask, faces, mask);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetStencilReference(VkCommandBuffer commandBuffer, VkStencilFaceFlags faces, uint32_t reference) {
  setPerFace(stateOf(commandBuffer).stencilReference, faces, reference);
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetCullMode(VkCommandBuffer commandBuffer, VkCullModeFlags mode) {
  stateOf(commandBuffer).cullMode = mode;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetFrontFace(VkCommandBuffer commandBuffer, VkFrontFace face) {
  stateOf(commandBuffer).frontFace = face;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetPrimitiveTopology(VkCommandBuffer commandBuffer, VkPrimitiveTopology topology) {
  stateOf(commandBuffer).topology = topology;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthTestEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).depthTest = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthWriteEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).depthWrite = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthCompareOp(VkCommandBuffer commandBuffer, VkCompareOp op) {
  stateOf(commandBuffer).depthCompare = op;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthBoundsTestEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).depthBoundsTest = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetStencilTestEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).stencilTest = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetStencilOp(VkCommandBuffer commandBuffer, VkStencilFaceFlags faces, VkStencilOp failOp,
                                                    VkStencilOp passOp, VkStencilOp depthFailOp, VkCompareOp compareOp) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (int f = 0; f < 2; ++f) {
    if (!(faces & (f == 0 ? VK_STENCIL_FACE_FRONT_BIT : VK_STENCIL_FACE_BACK_BIT))) continue;
    r.stencilOps[f].failOp = failOp;
    r.stencilOps[f].passOp = passOp;
    r.stencilOps[f].depthFailOp = depthFailOp;
    r.stencilOps[f].compareOp = compareOp;
  }
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetRasterizerDiscardEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).rasterizerDiscard = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetDepthBiasEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).depthBiasEnable = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetPrimitiveRestartEnable(VkCommandBuffer commandBuffer, VkBool32 enable) {
  stateOf(commandBuffer).primitiveRestart = enable;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetColorWriteEnableEXT(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                                               const VkBool32* pColorWriteEnables) {
  uint32_t& bits = stateOf(commandBuffer).colorWriteEnables;
  for (uint32_t i = 0; i < attachmentCount && i < 32; ++i)
    bits = pColorWriteEnables[i] ? bits | 1u << i : bits & ~(1u << i);
}

// VK_EXT_extended_dynamic_state2's two commands that did not become core
// (extendedDynamicState2LogicOp, extendedDynamicState2PatchControlPoints); drawStateFor applies
// them to draws whose pipeline has VK_DYNAMIC_STATE_LOGIC_OP_EXT /
// VK_DYNAMIC_STATE_PATCH_CONTROL_POINTS_EXT.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetLogicOpEXT(VkCommandBuffer commandBuffer, VkLogicOp logicOp) {
  stateOf(commandBuffer).logicOp = logicOp;
}
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetPatchControlPointsEXT(VkCommandBuffer commandBuffer, uint32_t patchControlPoints) {
  stateOf(commandBuffer).patchControlPoints = patchControlPoints;
}

// VK_EXT_vertex_input_dynamic_state: the whole vertex input state, replacing what an earlier
// call set; drawStateFor applies it to draws of pipelines with VK_DYNAMIC_STATE_VERTEX_INPUT_EXT.
VKAPI_ATTR void VKAPI_CALL tessera_vkCmdSetVertexInputEXT(VkCommandBuffer commandBuffer, uint32_t vertexBindingDescriptionCount,
                                                         const VkVertexInputBindingDescription2EXT* pVertexBindingDescriptions,
                                                         uint32_t vertexAttributeDescriptionCount,
                                                         const VkVertexInputAttributeDescription2EXT* pVertexAttributeDescriptions) {
  GraphicsRecordState& r = stateOf(commandBuffer);
  for (auto& b : r.vertexInputBindings) b = {};
  for (uint32_t i = 0; i < vertexBindingDescriptionCount; ++i) {
    const VkVertexInputBindingDescription2EXT& d = pVertexBindingDescriptions[i];
    if (d.binding < raster::kMaxVertexBindings) r.vertexInputBindings[d.binding] = {d.stride, d.divisor, d.inputRate};
  }
  r.vertexInputAttributeCount = 0;
  for (uint32_t i = 0; i < vertexAttributeDescriptionCount && i < raster::kMaxVertexAttributes; ++i) {
    const VkVertexInputAttributeDescription2EXT& a = pVertexAttributeDescriptions[i];
    r.vertexInputAttributes[r.vertexInputAttributeCount++] = {a.location, a.binding, a.offset, a.format};
  }
}

}  // extern "C"
