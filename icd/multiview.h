// Multiview ("Multiview" in the Render Pass chapter; VkRenderPassMultiviewCreateInfo,
// VkSubpassDescription2::viewMask, VkRenderingInfo::viewMask): a subpass with a non-zero view
// mask broadcasts its rendering to the views named by the mask's bits, and view v renders into
// layer v of every attachment. Tessera draws the views one after another: these helpers name
// the views and a view's layer of an attachment.
#pragma once

#include <bit>
#include <cstdint>

#include "tessera/draw.h"

namespace tessera::multiview {

// Calls fn(view) for each view of `mask`, lowest first.
template <typename F>
void forEachView(uint32_t mask, F&& fn) {
  for (; mask; mask &= mask - 1) fn(uint32_t(std::countr_zero(mask)));
}

// The number of views: also the number of consecutive queries a query or timestamp uses
// inside a multiview render pass instance ("Queries", "Timestamp Queries").
inline uint32_t viewCount(uint32_t mask) { return uint32_t(std::popcount(mask)); }

// Layer `layer` of an attachment as an attachment of its own (no attachment when the view has
// no such layer, which valid usage rules out: each view's layer must exist).
inline raster::AttachmentView layerOf(const raster::AttachmentView& a, uint32_t layer) {
  if (!a.base || layer >= a.layerCount) return {};
  raster::AttachmentView l = a;
  l.base = a.base + layer * a.layerPitch;
  l.layerCount = a.layerCount - layer;
  return l;
}

}  // namespace tessera::multiview
