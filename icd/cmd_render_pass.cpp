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
//
// Multisampled render to single-sampled (VK_EXT_multisampled_render_to_single_sampled, the
// Render Pass chapter's "multisampled-render-to-single-sampled"): in a subpass (or dynamic
// rendering) that enables VkMultisampledRenderToSingleSampledInfoEXT, every single-sampled
// colour, depth/stencil and input attachment is rendered through an implicit image of
// rasterizationSamples samples "implicitly allocated by the implementation for the duration of
// the subpass". Tessera allocates it when the begin is recorded, in a chunk of the command
// buffer's arena of its own (freed when the command buffer is reset or freed; a failure is
// returned by vkEndCommandBuffer), and points the render targets at it. The begin fills it:
// LOAD replicates each pixel's value to every sample, CLEAR clears it, DONT_CARE leaves it;
// the end resolves it into the attachment (colour: AVERAGE for float and normalized formats,
// SAMPLE_ZERO for integer ones; depth/stencil: the subpass's VkSubpassDescriptionDepthStencilResolve
// modes, or VkRenderingAttachmentInfo::resolveMode). The spec lets an implementation split a
// render pass at subpass boundaries, resolving and losing the samples, so a later subpass (and
// a resumed dynamic rendering instance) starts again from the resolved attachment, replicated.
#include <algorithm>
#include <bit>
#include <cstring>
#include <unistd.h>

#include "command_buffer.h"
#include "device.h"
#include "entrypoints.h"
#include "instance.h"
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

// ---- The implicit multisampled images -------------------------------------------------------

// At most half of physical memory for one implicit image: above it the allocation is refused
// (VK_ERROR_OUT_OF_HOST_MEMORY from vkEndCommandBuffer) rather than overcommitted into the
// kernel's OOM killer when the pages are first touched.
uint64_t implicitStorageLimit() {
  static const uint64_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) / 2 : uint64_t(4) << 30;
  }();
  return limit;
}

// An implicit image for `single` (one plane of a single-sampled attachment): its format and
// texel size with `samples` samples per pixel, covering the pixels from (0, 0) to the render
// area's far corner (draws, clears, loads and resolves stay inside the render area) and
// `layers` layers. No attachment (base null) after a failure, which cb remembers.
raster::AttachmentView implicitStorage(CommandBuffer* cb, const raster::AttachmentView& single, uint32_t samples,
                                       const raster::Rect& area, uint32_t layers) {
  if (!single.base || area.x1 <= 0 || area.y1 <= 0 || layers == 0 || samples == 0) return {};
  raster::AttachmentView ms = single;
  ms.samples = samples;
  ms.rowPitch = uint64_t(single.texelSize) * samples * uint64_t(area.x1);
  ms.layerPitch = ms.rowPitch * uint64_t(area.y1);
  ms.layerCount = layers;
  const uint64_t bytes = ms.layerPitch * layers;
  void* memory = bytes <= implicitStorageLimit() ? cb->arena.allocateSeparate(size_t(bytes)) : nullptr;
  if (!memory) {
    cb->fail(VK_ERROR_OUT_OF_HOST_MEMORY);
    if (cb->pool && cb->pool->device)
      reportError(cb->pool->device->instance, VK_OBJECT_TYPE_COMMAND_BUFFER, uint64_t(reinterpret_cast<uintptr_t>(cb)),
                  "multisampled render to single-sampled: no host memory for the %llu-byte implicit %u-sample image "
                  "of a %dx%d render area; vkEndCommandBuffer will return VK_ERROR_OUT_OF_HOST_MEMORY",
                  static_cast<unsigned long long>(bytes), samples, area.x1, area.y1);
    return {};
  }
  ms.base = static_cast<uint8_t*>(memory);
  return ms;
}

// The layers an implicit image needs: the views' layers with multiview, else the instance's.
uint32_t implicitLayers(uint32_t viewMask, uint32_t layers, const raster::AttachmentView& single) {
  const uint32_t wanted = viewMask ? uint32_t(std::bit_width(viewMask)) : layers;
  return std::min(wanted, single.layerCount);
}

// LOAD into an implicit image: every sample of each pixel of the render area takes the
// single-sampled attachment's value ("samples of the implicit image are initialized by
// replicating the value from the corresponding pixel in the attachment").
struct ImplicitLoad {
  raster::AttachmentView single, ms;
  uint32_t viewMask = 0;  // multiview: the views' layers; 0: the instance's `layers` layers
};

void replicate(const ImplicitLoad& l, const raster::Rect& area, uint32_t layer) {
  if (!l.single.base || !l.ms.base || layer >= l.single.layerCount || layer >= l.ms.layerCount) return;
  const int32_t x0 = std::max(area.x0, 0), y0 = std::max(area.y0, 0);
  if (area.x1 <= x0 || area.y1 <= y0) return;
  const uint32_t size = l.ms.texelSize, n = l.ms.samples;
  const size_t width = size_t(area.x1 - x0);
  forEachRow(size_t(area.y1 - y0), width * n * size, [&](size_t r) {
    const uint8_t* src = l.single.base + layer * l.single.layerPitch + uint64_t(y0 + int32_t(r)) * l.single.rowPitch +
                         uint64_t(x0) * l.single.samples * size;
    uint8_t* dst = l.ms.base + layer * l.ms.layerPitch + uint64_t(y0 + int32_t(r)) * l.ms.rowPitch + uint64_t(x0) * n * size;
    for (size_t x = 0; x < width; ++x, src += size_t(l.single.samples) * size)
      for (uint32_t k = 0; k < n; ++k, dst += size) std::memcpy(dst, src, size);
  });
}

// The load operations that leave an implicit image's contents as the attachment's: LOAD, and
// NONE (the attachment's contents are preserved, so the resolve at the end must find them).
bool loadsContents(VkAttachmentLoadOp op) { return op == VK_ATTACHMENT_LOAD_OP_LOAD || op == VK_ATTACHMENT_LOAD_OP_NONE_EXT; }

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
  ImplicitLoad* loads;  // multisampled render to single-sampled: implicit images loaded first
  uint32_t loadCount;
  void execute(ExecContext& ctx) const {
    ctx.targets = targets;
    for (uint32_t i = 0; i < loadCount; ++i) {
      if (loads[i].viewMask) {
        multiview::forEachView(loads[i].viewMask, [&](uint32_t view) { replicate(loads[i], targets.renderArea, view); });
        continue;
      }
      for (uint32_t layer = 0; layer < targets.layers; ++layer) replicate(loads[i], targets.renderArea, layer);
    }
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
      if (targets.layers == 1 && ctx.regionsJoinScene() && encodeClear(clears[i], region.texel)) {
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
// Single-layer resolves join the scene of the render pass's draws (the record joins it): each
// tile resolves its part after drawing, while its samples are in cache (Scene::addResolve); the
// next record that is not a draw flushes the scene, as before any command that could read the
// resolved image. The others (layered, multiview, the reference path) flush and run here.
struct EndTargetsCmd {
  static constexpr bool kJoinsScene = true;
  void execute(ExecContext& ctx) const {
    const RenderTargets& t = ctx.targets;
    if (ctx.regionsJoinScene() && !t.viewMask && t.layers == 1) {
      for (uint32_t i = 0; i < t.resolveCount; ++i) {
        const auto& r = t.resolves[i];
        ctx.resolve({r.src, r.dst, r.aspect, r.mode, t.renderArea});
      }
      ctx.targets = {};
      return;
    }
    ctx.flushDraws();
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

void recordSubpassTargets(CommandBuffer* cb, CommandBuffer::PassRecording& rec) {
  const RenderPass& rp = *rec.pass;
  const ImageView* const* views = rec.views;
  const uint32_t subpass = rec.subpass;
  const raster::Rect& area = rec.area;
  const uint32_t layers = rec.layers;
  const uint32_t attachmentCount = uint32_t(rp.attachments.size());
  auto* c = cb->record<BeginTargetsCmd>();
  if (!c) return;
  c->clearCount = 0;
  c->loadCount = 0;
  c->clears = cb->allocateArray<Clear>(2 * attachmentCount);
  if (!c->clears) return;
  c->targets.active = true;
  c->targets.renderArea = area;
  c->targets.layers = layers;
  const RenderPass::Subpass& sp = rp.subpasses[subpass];
  c->targets.viewMask = sp.viewMask;

  // Multisampled render to single-sampled: the planes of this subpass's single-sampled
  // attachments that it renders through implicit images (implicitHere[2a + plane]), their
  // loads, and the input attachment descriptors that read them.
  const uint32_t samples = sp.implicitSamples;
  uint8_t* implicitHere = nullptr;
  InputRedirect* redirects = nullptr;
  uint32_t redirectCount = 0;
  if (samples && rec.implicit) {
    implicitHere = cb->allocateArray<uint8_t>(2 * attachmentCount);
    c->loads = cb->allocateArray<ImplicitLoad>(2 * attachmentCount);
    redirects = cb->allocateArray<InputRedirect>(2 * sp.inputs.size());
    if (!implicitHere || !c->loads || !redirects) return;
    std::memset(implicitHere, 0, 2 * attachmentCount);
  }
  // Plane `aspect` of attachment a as this subpass renders it: the attachment itself, or its
  // implicit image, set up (allocated once per render pass instance, loaded once per subpass)
  // on first use here.
  auto target = [&](uint32_t a, VkImageAspectFlagBits aspect, bool input) -> raster::AttachmentView {
    const raster::AttachmentView real = attachmentView(views[a], aspect);
    if (!implicitHere || !real.base || real.samples != 1) return real;
    const uint32_t plane = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 0;
    raster::AttachmentView& ms = rec.implicit[2 * a + plane];
    const uint32_t needLayers = implicitLayers(sp.viewMask, layers, real);
    if (!implicitHere[2 * a + plane]) {
      if (!ms.base || ms.samples != samples || ms.layerCount < needLayers)
        ms = implicitStorage(cb, real, samples, area, needLayers);
      if (!ms.base) return ms;
      implicitHere[2 * a + plane] = 1;
      // Its load: the attachment's load operation where this subpass is the first use (per
      // view with multiview), else the attachment's contents so far (a split at the subpass
      // boundary). A load-op clear is among the clears below.
      const VkAttachmentDescription2& d = rp.attachments[a];
      const bool keeps = loadsContents(aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? d.stencilLoadOp : d.loadOp);
      uint32_t replicateViews = 0;
      bool replicateAll = false;
      if (!rp.loadViews.empty()) {
        const uint32_t firstViews = rp.loadViews[subpass][a];
        replicateViews = (sp.viewMask & ~firstViews) | (keeps ? firstViews : 0);
      } else {
        replicateAll = rp.firstUse[a] != subpass || keeps;
      }
      if (replicateAll || replicateViews) c->loads[c->loadCount++] = {real, ms, replicateViews};
    }
    if (input) redirects[redirectCount++] = {real.base, uint32_t(aspect), ms};
    return ms;
  };

  c->targets.colorCount = uint32_t(std::min<size_t>(sp.colors.size(), abi::kMaxColorAttachments));
  for (uint32_t i = 0; i < c->targets.colorCount; ++i) {
    const uint32_t a = sp.colors[i].attachment;
    if (a == VK_ATTACHMENT_UNUSED) continue;
    c->targets.color[i] = target(a, VK_IMAGE_ASPECT_COLOR_BIT, false);
    // The implicit image's resolve into the attachment at the end of the subpass.
    if (implicitHere && implicitHere[2 * a])
      addResolve(c->targets, c->targets.color[i], attachmentView(views[a], VK_IMAGE_ASPECT_COLOR_BIT),
                 VK_IMAGE_ASPECT_COLOR_BIT, colorResolveMode(c->targets.color[i].format));
  }
  if (sp.depthStencil && sp.depthStencil->attachment != VK_ATTACHMENT_UNUSED) {
    const uint32_t a = sp.depthStencil->attachment;
    const ImageView* v = views[a];
    const FormatInfo* f = formatInfo(rp.attachments[a].format);
    if (f && f->hasDepth()) c->targets.depth = target(a, VK_IMAGE_ASPECT_DEPTH_BIT, false);
    if (f && f->hasStencil()) c->targets.stencil = target(a, VK_IMAGE_ASPECT_STENCIL_BIT, false);
    // Implicit depth/stencil images resolve by the subpass's VkSubpassDescriptionDepthStencilResolve
    // modes (VUID-VkSubpassDescription2-pNext-06871: it must be there, without an attachment).
    if (implicitHere && implicitHere[2 * a])
      addResolve(c->targets, c->targets.depth, attachmentView(v, VK_IMAGE_ASPECT_DEPTH_BIT), VK_IMAGE_ASPECT_DEPTH_BIT,
                 sp.depthResolveMode);
    if (implicitHere && implicitHere[2 * a + 1])
      addResolve(c->targets, c->targets.stencil, attachmentView(v, VK_IMAGE_ASPECT_STENCIL_BIT), VK_IMAGE_ASPECT_STENCIL_BIT,
                 sp.stencilResolveMode);
  }
  // Input attachments of a multisampled-render-to-single-sampled subpass are multisampled
  // ("Fragment Input Attachment Interface": the MS operand is 1 when it is enabled): they read
  // the implicit images, the subpass's own colour or depth/stencil ones where they are the same.
  if (implicitHere) {
    for (const VkAttachmentReference2& r : sp.inputs) {
      if (r.attachment == VK_ATTACHMENT_UNUSED || r.attachment >= attachmentCount) continue;
      const FormatInfo* f = formatInfo(rp.attachments[r.attachment].format);
      if (!f) continue;
      if (!f->isDepthStencil()) target(r.attachment, VK_IMAGE_ASPECT_COLOR_BIT, true);
      if (f->hasDepth()) target(r.attachment, VK_IMAGE_ASPECT_DEPTH_BIT, true);
      if (f->hasStencil()) target(r.attachment, VK_IMAGE_ASPECT_STENCIL_BIT, true);
    }
  }
  c->targets.inputRedirects = redirects;
  c->targets.inputRedirectCount = redirectCount;

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
  // attachment, on the view's layer (RenderPass::loadViews). A plane rendered through an
  // implicit image clears that image.
  auto clearTarget = [&](uint32_t a, VkImageAspectFlagBits aspect) {
    const uint32_t plane = aspect == VK_IMAGE_ASPECT_STENCIL_BIT ? 1 : 0;
    return implicitHere && implicitHere[2 * a + plane] ? rec.implicit[2 * a + plane] : attachmentView(views[a], aspect);
  };
  const VkClearValue* clearValues = rec.clearValues;
  for (uint32_t a = 0; a < attachmentCount; ++a) {
    const VkAttachmentDescription2& d = rp.attachments[a];
    const FormatInfo* f = formatInfo(d.format);
    if (!f || a >= rec.clearValueCount || !clearValues) continue;
    const uint32_t viewMask = rp.loadViews.empty() ? 0 : rp.loadViews[subpass][a];
    if (rp.loadViews.empty() ? rp.firstUse[a] != subpass : viewMask == 0) continue;
    if (f->isDepthStencil()) {
      if (f->hasDepth() && d.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        c->clears[c->clearCount++] = {Clear::Depth, clearTarget(a, VK_IMAGE_ASPECT_DEPTH_BIT), clearValues[a], viewMask};
      if (f->hasStencil() && d.stencilLoadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        c->clears[c->clearCount++] = {Clear::Stencil, clearTarget(a, VK_IMAGE_ASPECT_STENCIL_BIT), clearValues[a], viewMask};
    } else if (d.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) {
      c->clears[c->clearCount++] = {Clear::Color, clearTarget(a, VK_IMAGE_ASPECT_COLOR_BIT), clearValues[a], viewMask};
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
  // Multisampled render to single-sampled: room for the attachments' implicit images.
  if (std::any_of(rp->subpasses.begin(), rp->subpasses.end(), [](const RenderPass::Subpass& sp) { return sp.implicitSamples; })) {
    cb->passRecording.implicit = cb->allocateArray<raster::AttachmentView>(2 * size_t(n));
    if (!cb->passRecording.implicit) return;
    std::fill_n(cb->passRecording.implicit, 2 * size_t(n), raster::AttachmentView{});
  }
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
  c->loadCount = 0;
  c->clears = cb->allocateArray<Clear>(kMaxRenderingClears);
  c->loads = cb->allocateArray<ImplicitLoad>(kMaxRenderingClears);
  if (!c->clears || !c->loads) return;
  // A render pass instance that resumes a suspended one does not load again; one that suspends
  // resolves only when the instance that resumes it ends.
  const bool resuming = (info->flags & VK_RENDERING_RESUMING_BIT) != 0;
  const bool suspending = (info->flags & VK_RENDERING_SUSPENDING_BIT) != 0;
  // Multisampled render to single-sampled: single-sampled attachments render through implicit
  // images of `samples` samples. An instance that suspends resolves them and the one that
  // resumes loads them again (an implicit split, which the extension allows).
  uint32_t samples = 0;
  for (auto* e = static_cast<const VkBaseInStructure*>(info->pNext); e; e = e->pNext)
    if (e->sType == VK_STRUCTURE_TYPE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_INFO_EXT) {
      const auto* m = reinterpret_cast<const VkMultisampledRenderToSingleSampledInfoEXT*>(e);
      if (m->multisampledRenderToSingleSampledEnable && m->rasterizationSamples > VK_SAMPLE_COUNT_1_BIT)
        samples = uint32_t(m->rasterizationSamples);
    }
  // The attachment (plane `aspect` of its view) as the instance renders it; `loadOp` is the
  // attachment's, `clearKind` what its load-op clear is.
  auto setUp = [&](const VkRenderingAttachmentInfo& a, VkImageAspectFlagBits aspect, Clear::Kind clearKind) {
    const raster::AttachmentView real = attachmentView(fromHandle<ImageView>(a.imageView), aspect);
    if (!samples || !real.base || real.samples != 1) {
      if (!resuming && a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR)
        c->clears[c->clearCount++] = {clearKind, real, a.clearValue, info->viewMask};
      if (!suspending && a.resolveImageView)
        addResolve(c->targets, real, attachmentView(fromHandle<ImageView>(a.resolveImageView), aspect), aspect, a.resolveMode);
      return real;
    }
    const raster::AttachmentView ms = implicitStorage(cb, real, samples, c->targets.renderArea,
                                                      implicitLayers(info->viewMask, c->targets.layers, real));
    if (!ms.base) return ms;
    if (resuming || loadsContents(a.loadOp)) c->loads[c->loadCount++] = {real, ms, info->viewMask};
    else if (a.loadOp == VK_ATTACHMENT_LOAD_OP_CLEAR) c->clears[c->clearCount++] = {clearKind, ms, a.clearValue, info->viewMask};
    // The implicit image is resolved into imageView by resolveMode (resolveImageView is null:
    // VUID-VkRenderingAttachmentInfo-imageView-06863). Without a mode it is still resolved
    // when the attachment is stored ("If storeOp ... is VK_ATTACHMENT_STORE_OP_STORE, the
    // implicit image is implicitly resolved prior to storage") or the instance suspends, by
    // the mode the spec uses when none is given: AVERAGE where the format allows it
    // (VkResolveModeFlagBits), SAMPLE_ZERO for integer colour, depth and stencil.
    VkResolveModeFlagBits mode = a.resolveMode;
    if (mode == VK_RESOLVE_MODE_NONE && (suspending || a.storeOp == VK_ATTACHMENT_STORE_OP_STORE))
      mode = aspect == VK_IMAGE_ASPECT_COLOR_BIT ? colorResolveMode(real.format) : VK_RESOLVE_MODE_SAMPLE_ZERO_BIT;
    addResolve(c->targets, ms, real, aspect, mode);
    return ms;
  };
  for (uint32_t i = 0; i < c->targets.colorCount; ++i) {
    const VkRenderingAttachmentInfo& a = info->pColorAttachments[i];
    if (a.imageView) c->targets.color[i] = setUp(a, VK_IMAGE_ASPECT_COLOR_BIT, Clear::Color);
  }
  if (const VkRenderingAttachmentInfo* d = info->pDepthAttachment; d && d->imageView)
    c->targets.depth = setUp(*d, VK_IMAGE_ASPECT_DEPTH_BIT, Clear::Depth);
  if (const VkRenderingAttachmentInfo* s = info->pStencilAttachment; s && s->imageView)
    c->targets.stencil = setUp(*s, VK_IMAGE_ASPECT_STENCIL_BIT, Clear::Stencil);
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
