// Render pass instances: vkCmdBeginRenderPass(2) / NextSubpass(2) / EndRenderPass(2) and
// dynamic rendering (vkCmdBeginRendering / EndRendering), and vkCmdClearAttachments. A begin
// record carries the attachments' memory (views resolved when recording) and the load-op
// clears; executing it sets the queue's current RenderTargets, which draws then write.
//
// Rendering writes attachments in place (Tessera has no tile memory), so store operations and
// layouts need no work; multisample resolves run when a subpass (or dynamic rendering) ends.
// Draws render the base array layer of each attachment view, or with multiview the layer of
// each view of the subpass's view mask (icd/multiview.h); clears and resolves then apply to
// those layers.
#include <algorithm>
#include <cstring>

#include "command_buffer.h"
#include "entrypoints.h"
#include "multiview.h"
#include "parallel_copy.h"
#include "render_pass.h"
#include "resources.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera {

void fillAttachmentRect(const raster::AttachmentView& target, const uint8_t texel[16], const raster::Rect& rect, uint32_t layer) {
  const uint32_t size = target.texelSize;
  if (!target.base || rect.x1 <= rect.x0 || rect.y1 <= rect.y0 || size == 0 || size > 16) return;
  // Every sample of the pixel (samples are stored one after another): a row of the rectangle
  // is rowBytes of the repeated texel.
  uint8_t* first = target.base + layer * target.layerPitch + uint64_t(rect.y0) * target.rowPitch +
                   uint64_t(rect.x0) * target.samples * size;
  const size_t rowBytes = size_t(rect.x1 - rect.x0) * target.samples * size;
  const size_t rows = size_t(rect.y1 - rect.y0);
  if (size == 4) {
    uint32_t pattern;
    std::memcpy(&pattern, texel, 4);
    if (rowBytes == target.rowPitch) {  // whole rows: one contiguous range
      parallelFill32(first, rows * rowBytes, pattern);
      return;
    }
    forEachRow(rows, rowBytes, [&](size_t r) { fillChunk32(first + r * target.rowPitch, rowBytes, pattern, false); });
    return;
  }
  // Other sizes: a few KiB of the repeated texel, copied along each row.
  uint8_t pattern[4096];
  const size_t patternBytes = std::min(rowBytes, sizeof pattern / size * size);
  for (size_t i = 0; i < patternBytes; i += size) std::memcpy(pattern + i, texel, size);
  forEachRow(rows, rowBytes, [&](size_t r) {
    uint8_t* row = first + r * target.rowPitch;
    for (size_t at = 0; at < rowBytes; at += patternBytes) std::memcpy(row + at, pattern, std::min(patternBytes, rowBytes - at));
  });
}

namespace {

raster::AttachmentView attachmentView(const ImageView* v, VkImageAspectFlagBits aspect) {
  raster::AttachmentView a;
  if (!v || !v->image || !v->image->memory) return a;
  const Image& img = *v->image;
  if (aspect != VK_IMAGE_ASPECT_COLOR_BIT && !(img.format->aspects & aspect)) return a;
  // Layers of a 2D view of a 3D image (2D_ARRAY_COMPATIBLE) are its z slices ("Image Views":
  // baseArrayLayer and layerCount then select slices of the view's mip level). A 3D image has
  // one array layer, so its view's first "layer" is slice baseArrayLayer of layer 0, never
  // array layer baseArrayLayer (which would lie past the end of the image).
  const bool slicesAsLayers = img.type == VK_IMAGE_TYPE_3D;
  const ImageLevelLayout& level = img.level(aspect, v->range.baseMipLevel);
  a.layerPitch = slicesAsLayers ? level.depthPitch : level.layerPitch;
  SubresourceView sv = img.view(aspect, v->range.baseMipLevel, slicesAsLayers ? 0 : v->range.baseArrayLayer);
  a.base = sv.data + (slicesAsLayers ? size_t(v->range.baseArrayLayer) * level.depthPitch : 0);
  a.format = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? v->format : img.vkFormat;
  a.rowPitch = sv.rowPitch;
  a.texelSize = img.texelSize(aspect);
  a.samples = img.samples;
  a.layerCount = v->range.layerCount;
  return a;
}

struct Clear {
  enum Kind : uint8_t { None, Color, Depth, Stencil } kind = None;
  raster::AttachmentView target;
  VkClearValue value{};
  // Load-op clears of a multiview render pass instance: the layers (views) to clear; 0 clears
  // the instance's `layers` layers.
  uint32_t viewMask = 0;
};

// The texel a clear writes ("Clear Values" conversions); false when there is nothing to write.
bool encodeClear(const Clear& c, uint8_t texel[16]) {
  if (!c.target.base || c.kind == Clear::None) return false;
  const FormatInfo* f = formatInfo(c.target.format);
  if (!f) return false;
  std::memset(texel, 0, 16);
  switch (c.kind) {
    case Clear::Color: return encodeClearColor(*f, c.value.color, texel);
    case Clear::Depth: encodeDepth(*f, c.value.depthStencil.depth, texel); return true;
    default: texel[0] = uint8_t(c.value.depthStencil.stencil); return true;
  }
}

// Fills `rect` of layer `layer` of an attachment with a clear value. Layers beyond the view
// are ignored.
void clearRect(const Clear& c, const raster::Rect& rect, uint32_t layer) {
  if (layer >= c.target.layerCount) return;
  uint8_t texel[16];
  if (!encodeClear(c, texel)) return;
  fillAttachmentRect(c.target, texel, rect, layer);
}

// Dynamic rendering clears at most every colour attachment, depth and stencil.
constexpr uint32_t kMaxRenderingClears = abi::kMaxColorAttachments + 2;

struct BeginTargetsCmd {
  RenderTargets targets;
  Clear* clears;  // in the command buffer's arena
  uint32_t clearCount;
  void execute(ExecContext& ctx) const {
    ctx.targets = targets;
    for (uint32_t i = 0; i < clearCount; ++i) {
      // Multiview load clears apply to the views' layers and run at once.
      if (clears[i].viewMask) {
        multiview::forEachView(clears[i].viewMask, [&](uint32_t view) { clearRect(clears[i], targets.renderArea, view); });
        continue;
      }
      // "Load Operations" on one layer join the render pass's first scene: each tile clears
      // its part right before drawing (in cache), a colour clear under an opaque primitive
      // covering the tile not at all. Layered clears run at once.
      raster::ClearRegion region;
      if (targets.layers == 1 && ctx.clearsJoinScene() && encodeClear(clears[i], region.texel)) {
        region.target = clears[i].target;
        region.rect = targets.renderArea;
        // Droppable under a covering primitive only as one of the draws' colour attachments
        // (an attachment cleared at its first use as an input attachment is not overwritten).
        region.colour = false;
        for (uint32_t k = 0; clears[i].kind == Clear::Color && k < targets.colorCount; ++k)
          region.colour = region.colour || targets.color[k].base == clears[i].target.base;
        ctx.clear(region);
        continue;
      }
      for (uint32_t layer = 0; layer < targets.layers; ++layer) clearRect(clears[i], targets.renderArea, layer);
    }
  }
};

// The end of a subpass or of a render pass instance: its multisample resolves, in order.
struct EndTargetsCmd {
  void execute(ExecContext& ctx) const {
    const RenderTargets& t = ctx.targets;
    // Rows of the render area resolve independently: a large resolve is split over the pool.
    const raster::Rect& area = t.renderArea;
    const size_t rows = size_t(std::max(area.y1 - area.y0, 0));
    for (uint32_t i = 0; i < t.resolveCount; ++i) {
      const auto& r = t.resolves[i];
      // Multiview resolves each view's layer ("Multisample resolve operations" apply to the
      // layers the subpass renders); otherwise `layers` layers from the base.
      auto resolveLayers = [&](const raster::AttachmentView& src, const raster::AttachmentView& dst, uint32_t layers) {
        const size_t rowBytes = size_t(std::max(area.x1 - area.x0, 0)) * std::max(src.samples, 1u) * src.texelSize * layers;
        forEachRow(rows, rowBytes, [&](size_t row) {
          const raster::Rect band{area.x0, area.y0 + int32_t(row), area.x1, area.y0 + int32_t(row) + 1};
          raster::resolveAttachment(src, dst, r.aspect, r.mode, band, layers);
        });
      };
      if (!t.viewMask) {
        resolveLayers(r.src, r.dst, t.layers);
        continue;
      }
      multiview::forEachView(t.viewMask, [&](uint32_t view) {
        const raster::AttachmentView src = multiview::layerOf(r.src, view), dst = multiview::layerOf(r.dst, view);
        if (src.base && dst.base) resolveLayers(src, dst, 1);
      });
    }
    ctx.targets = {};
  }
};

void addResolve(RenderTargets& t, const raster::AttachmentView& src, const raster::AttachmentView& dst, VkImageAspectFlags aspect,
                VkResolveModeFlagBits mode) {
  if (!src.base || !dst.base || mode == VK_RESOLVE_MODE_NONE || t.resolveCount >= std::size(t.resolves)) return;
  t.resolves[t.resolveCount++] = {src, dst, aspect, mode};
}

// The colour resolve mode of a format: AVERAGE for float and normalized formats, SAMPLE_ZERO for
// integer ones (the only modes render pass resolves of colour attachments use).
VkResolveModeFlagBits colorResolveMode(VkFormat format) {
  const FormatInfo* f = formatInfo(format);
  return f && texelKind(*f) == TexelKind::Float ? VK_RESOLVE_MODE_AVERAGE_BIT : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
}

struct ClearAttachmentsCmd {
  Clear* clears;  // targets resolved at execution; `target` unused here
  uint32_t clearCount;
  uint32_t* colorIndex;  // per clear: colour attachment index (colour clears)
  VkClearRect* rects;
  uint32_t rectCount;
  void execute(ExecContext& ctx) const {
    if (!ctx.targets.active || ctx.conditionalDiscard) return;  // "Conditional Rendering" discards it too
    for (uint32_t i = 0; i < clearCount; ++i) {
      Clear c = clears[i];
      if (c.kind == Clear::Color) c.target = colorIndex[i] < ctx.targets.colorCount ? ctx.targets.color[colorIndex[i]] : raster::AttachmentView{};
      else if (c.kind == Clear::Depth) c.target = ctx.targets.depth;
      else c.target = ctx.targets.stencil;
      for (uint32_t r = 0; r < rectCount; ++r) {
        const VkRect2D& rc = rects[r].rect;
        raster::Rect area{std::max(rc.offset.x, ctx.targets.renderArea.x0), std::max(rc.offset.y, ctx.targets.renderArea.y0),
                          std::min(int32_t(rc.offset.x + int32_t(rc.extent.width)), ctx.targets.renderArea.x1),
                          std::min(int32_t(rc.offset.y + int32_t(rc.extent.height)), ctx.targets.renderArea.y1)};
        if (area.x0 >= area.x1 || area.y0 >= area.y1) continue;
        // In a multiview subpass the rectangle (baseArrayLayer 0, layerCount 1) is cleared in
        // each view's layer ("Clearing Images Inside a Render Pass Instance").
        if (ctx.targets.viewMask) {
          multiview::forEachView(ctx.targets.viewMask, [&](uint32_t view) { clearRect(c, area, view); });
          continue;
        }
        for (uint32_t l = 0; l < rects[r].layerCount; ++l) clearRect(c, area, rects[r].baseArrayLayer + l);
      }
    }
  }
};

raster::Rect rectOf(const VkRect2D& r) {
  return {r.offset.x, r.offset.y, r.offset.x + int32_t(r.extent.width), r.offset.y + int32_t(r.extent.height)};
}

void recordSubpassTargets(CommandBuffer* cb, const CommandBuffer::PassRecording& rec) {
  const RenderPass& rp = *rec.pass;
  const ImageView* const* views = rec.views;
  const uint32_t subpass = rec.subpass;
  const raster::Rect& area = rec.area;
  const uint32_t layers = rec.layers;
  auto* c = cb->record<BeginTargetsCmd>();
  if (!c) return;
  c->clearCount = 0;
  c->clears = cb->allocateArray<Clear>(2 * rp.attachments.size());
  if (!c->clears) return;
  c->targets.active = true;
  c->targets.renderArea = area;
  c->targets.layers = layers;
  const RenderPass::Subpass& sp = rp.subpasses[subpass];
  c->targets.viewMask = sp.viewMask;
  c->targets.colorCount = uint32_t(std::min<size_t>(sp.colors.size(), abi::kMaxColorAttachments));
  for (uint32_t i = 0; i < c->targets.colorCount; ++i) {
    const uint32_t a = sp.colors[i].attachment;
    if (a != VK_ATTACHMENT_UNUSED) c->targets.color[i] = attachmentView(views[a], VK_IMAGE_ASPECT_COLOR_BIT);
  }
  if (sp.depthStencil && sp.depthStencil->attachment != VK_ATTACHMENT_UNUSED) {
    const ImageView* v = views[sp.depthStencil->attachment];
    c->targets.depth = attachmentView(v, VK_IMAGE_ASPECT_DEPTH_BIT);
    c->targets.stencil = attachmentView(v, VK_IMAGE_ASPECT_STENCIL_BIT);
  }
  // "Multisample resolve operations" at the end of the subpass.
  for (uint32_t i = 0; i < c->targets.colorCount && i < sp.resolves.size(); ++i) {
    const uint32_t a = sp.resolves[i].attachment;
    if (a == VK_ATTACHMENT_UNUSED) continue;
    addResolve(c->targets, c->targets.color[i], attachmentView(views[a], VK_IMAGE_ASPECT_COLOR_BIT), VK_IMAGE_ASPECT_COLOR_BIT,
               colorResolveMode(c->targets.color[i].format));
  }
  if (sp.depthStencilResolve && sp.depthStencilResolve->attachment != VK_ATTACHMENT_UNUSED) {
    const ImageView* v = views[sp.depthStencilResolve->attachment];
    addResolve(c->targets, c->targets.depth, attachmentView(v, VK_IMAGE_ASPECT_DEPTH_BIT), VK_IMAGE_ASPECT_DEPTH_BIT,
               sp.depthResolveMode);
    addResolve(c->targets, c->targets.stencil, attachmentView(v, VK_IMAGE_ASPECT_STENCIL_BIT), VK_IMAGE_ASPECT_STENCIL_BIT,
               sp.stencilResolveMode);
  }
  // LOAD_OP_CLEAR ("Render Pass Load Operations"): an attachment is cleared when the first
  // subpass that uses it begins; an attachment no subpass uses has its load and store
  // operations ignored (VkAttachmentDescription), so it is never cleared. With multiview the
  // load operation happens for each view at the first subpass of that view that uses the
  // attachment, on the view's layer (RenderPass::loadViews).
  const VkClearValue* clearValues = rec.clearValues;
  for (uint32_t a = 0; a < rp.attachments.size(); ++a) {
    const VkAttachmentDescription2& d = rp.attachments[a];
    const FormatInfo* f = formatInfo(d.format);
    if (!f || a >= rec.clearValueCount || !clearValues) continue;
    const uint32_t viewMask = rp.loadViews.empty() ? 0 : rp.loadViews[subpass][a];
    if (rp.loadViews.empty() ? rp.firstUse[a] != subpass : viewMask == 0) continue;
    if (f->isDepthStencil()) {
      if (f->hasDepth() && d.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        c->clears[c->clearCount++] = {Clear::Depth, attachmentView(views[a], VK_IMAGE_ASPECT_DEPTH_BIT), clearValues[a],
                                      viewMask};
      if (f->hasStencil() && d.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        c->clears[c->clearCount++] = {Clear::Stencil, attachmentView(views[a], VK_IMAGE_ASPECT_STENCIL_BIT), clearValues[a],
                                      viewMask};
    } else if (d.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) {
      c->clears[c->clearCount++] = {Clear::Color, attachmentView(views[a], VK_IMAGE_ASPECT_COLOR_BIT), clearValues[a], viewMask};
    }
  }
}

}  // namespace

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginRenderPass2(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* info,
                                                        const VkSubpassBeginInfo*) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  const RenderPass* rp = fromHandle<RenderPass>(info->renderPass);
  const Framebuffer* fb = fromHandle<Framebuffer>(info->framebuffer);
  const uint32_t n = uint32_t(rp->attachments.size());
  const ImageView** views = cb->allocateArray<const ImageView*>(n);
  if (!views) return;
  const VkRenderPassAttachmentBeginInfo* imageless = nullptr;
  for (auto* s = static_cast<const VkBaseInStructure*>(info->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_RENDER_PASS_ATTACHMENT_BEGIN_INFO)
      imageless = reinterpret_cast<const VkRenderPassAttachmentBeginInfo*>(s);
  for (uint32_t a = 0; a < n; ++a) {
    views[a] = nullptr;
    if (fb->imageless && imageless && a < imageless->attachmentCount) views[a] = fromHandle<ImageView>(imageless->pAttachments[a]);
    else if (!fb->imageless && a < fb->attachments.size()) views[a] = fb->attachments[a];
  }
  const uint32_t clearValueCount = info->pClearValues ? info->clearValueCount : 0;
  const VkClearValue* clearValues = cb->copyArray(info->pClearValues, clearValueCount);
  cb->passRecording = {rp, views, 0, rectOf(info->renderArea), std::max(fb->layers, 1u), clearValues,
                       clearValues ? clearValueCount : 0};
  recordSubpassTargets(cb, cb->passRecording);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginRenderPass(VkCommandBuffer commandBuffer, const VkRenderPassBeginInfo* info,
                                                       VkSubpassContents) {
  tessera_vkCmdBeginRenderPass2(commandBuffer, info, nullptr);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdNextSubpass2(VkCommandBuffer commandBuffer, const VkSubpassBeginInfo*,
                                                    const VkSubpassEndInfo*) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  CommandBuffer::PassRecording& rec = cb->passRecording;
  if (!rec.pass) return;
  ++rec.subpass;
  cb->record<EndTargetsCmd>();  // the finished subpass's resolves
  if (rec.subpass < rec.pass->subpasses.size())
    recordSubpassTargets(cb, rec);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdNextSubpass(VkCommandBuffer commandBuffer, VkSubpassContents) {
  tessera_vkCmdNextSubpass2(commandBuffer, nullptr, nullptr);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndRenderPass2(VkCommandBuffer commandBuffer, const VkSubpassEndInfo*) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  cb->passRecording = {};
  cb->record<EndTargetsCmd>();
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndRenderPass(VkCommandBuffer commandBuffer) {
  tessera_vkCmdEndRenderPass2(commandBuffer, nullptr);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBeginRendering(VkCommandBuffer commandBuffer, const VkRenderingInfo* info) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* c = cb->record<BeginTargetsCmd>();
  if (!c) return;
  c->targets.active = true;
  c->targets.renderArea = rectOf(info->renderArea);
  // With a view mask the views are the layers named by its bits and layerCount is ignored;
  // load-op clears then clear the views' layers.
  c->targets.viewMask = info->viewMask;
  c->targets.layers = info->viewMask ? 1 : std::max(info->layerCount, 1u);
  c->targets.colorCount = std::min(info->colorAttachmentCount, abi::kMaxColorAttachments);
  c->clearCount = 0;
  c->clears = cb->allocateArray<Clear>(kMaxRenderingClears);
  if (!c->clears) return;
  // A render pass instance that resumes a suspended one does not load again; one that suspends
  // resolves only when the instance that resumes it ends.
  const bool resuming = (info->flags & VK_RENDERING_RESUMING_BIT) != 0;
  const bool suspending = (info->flags & VK_RENDERING_SUSPENDING_BIT) != 0;
  auto resolveTarget = [&](const VkRenderingAttachmentInfo& a, const raster::AttachmentView& src, VkImageAspectFlagBits aspect) {
    if (suspending || !a.resolveImageView) return;
    addResolve(c->targets, src, attachmentView(fromHandle<ImageView>(a.resolveImageView), aspect), aspect, a.resolveMode);
  };
  for (uint32_t i = 0; i < c->targets.colorCount; ++i) {
    const VkRenderingAttachmentInfo& a = info->pColorAttachments[i];
    const ImageView* v = a.imageView ? fromHandle<ImageView>(a.imageView) : nullptr;
    c->targets.color[i] = attachmentView(v, VK_IMAGE_ASPECT_COLOR_BIT);
    if (v && !resuming && a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      c->clears[c->clearCount++] = {Clear::Color, c->targets.color[i], a.clearValue, info->viewMask};
    if (v) resolveTarget(a, c->targets.color[i], VK_IMAGE_ASPECT_COLOR_BIT);
  }
  if (const VkRenderingAttachmentInfo* d = info->pDepthAttachment; d && d->imageView) {
    c->targets.depth = attachmentView(fromHandle<ImageView>(d->imageView), VK_IMAGE_ASPECT_DEPTH_BIT);
    if (!resuming && d->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      c->clears[c->clearCount++] = {Clear::Depth, c->targets.depth, d->clearValue, info->viewMask};
    resolveTarget(*d, c->targets.depth, VK_IMAGE_ASPECT_DEPTH_BIT);
  }
  if (const VkRenderingAttachmentInfo* s = info->pStencilAttachment; s && s->imageView) {
    c->targets.stencil = attachmentView(fromHandle<ImageView>(s->imageView), VK_IMAGE_ASPECT_STENCIL_BIT);
    if (!resuming && s->loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
      c->clears[c->clearCount++] = {Clear::Stencil, c->targets.stencil, s->clearValue, info->viewMask};
    resolveTarget(*s, c->targets.stencil, VK_IMAGE_ASPECT_STENCIL_BIT);
  }
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdEndRendering(VkCommandBuffer commandBuffer) {
  fromHandle<CommandBuffer>(commandBuffer)->record<EndTargetsCmd>();
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdClearAttachments(VkCommandBuffer commandBuffer, uint32_t attachmentCount,
                                                        const VkClearAttachment* pAttachments, uint32_t rectCount,
                                                        const VkClearRect* pRects) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  Clear* clears = cb->allocateArray<Clear>(2 * attachmentCount);
  uint32_t* colorIndex = cb->allocateArray<uint32_t>(2 * attachmentCount);
  VkClearRect* rects = cb->copyArray(pRects, rectCount);
  if (!clears || !colorIndex || (rectCount && !rects)) return;
  uint32_t n = 0;
  for (uint32_t i = 0; i < attachmentCount; ++i) {
    const VkClearAttachment& a = pAttachments[i];
    if (a.aspectMask & VK_IMAGE_ASPECT_COLOR_BIT) clears[n] = {Clear::Color, {}, a.clearValue}, colorIndex[n++] = a.colorAttachment;
    if (a.aspectMask & VK_IMAGE_ASPECT_DEPTH_BIT) clears[n] = {Clear::Depth, {}, a.clearValue}, colorIndex[n++] = 0;
    if (a.aspectMask & VK_IMAGE_ASPECT_STENCIL_BIT) clears[n] = {Clear::Stencil, {}, a.clearValue}, colorIndex[n++] = 0;
  }
  if (auto* c = cb->record<ClearAttachmentsCmd>()) *c = {clears, n, colorIndex, rects, rectCount};
}

}  // extern "C"
