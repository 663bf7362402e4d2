// vkCmdBlitImage(2), vkCmdResolveImage(2), vkCmdClearColorImage, vkCmdClearDepthStencilImage.
// The texel arithmetic lives in the sampler module (tessera/blit.h, tessera/texel_codec.h);
// this file walks regions, layers and mip levels.
#include <algorithm>

#include "command_buffer.h"
#include "entrypoints.h"
#include "parallel_copy.h"

#include <cstdlib>
#include "resources.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

template <typename F>
void forEachAspect(VkImageAspectFlags mask, F&& f) {
  for (VkImageAspectFlags bit : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
    if (mask & bit) f(VkImageAspectFlagBits(bit));
}

struct BlitCmd {
  Image* src;
  Image* dst;
  const VkImageBlit* regions;
  uint32_t regionCount;
  VkFilter filter;
  void execute(ExecContext&) const {
    for (uint32_t i = 0; i < regionCount; ++i) {
      const VkImageBlit& r = regions[i];
      forEachAspect(r.srcSubresource.aspectMask, [&](VkImageAspectFlagBits aspect) {
        // Layers times bands of destination rows, so one big 2D blit uses every core.
        const uint32_t layers = r.srcSubresource.layerCount;
        const int32_t rows = std::max(1, std::abs(r.dstOffsets[1].y - r.dstOffsets[0].y));
        const int32_t rowStart = std::min(r.dstOffsets[0].y, r.dstOffsets[1].y);
        constexpr int32_t kBandRows = 16;
        const int32_t bands = (rows + kBandRows - 1) / kBandRows;
        ThreadPool::shared().parallelFor(size_t(layers) * size_t(bands), [&](size_t item) {
          const uint32_t l = uint32_t(item / size_t(bands));
          const int32_t band = int32_t(item % size_t(bands));
          blitRegion(src->view(aspect, r.srcSubresource.mipLevel, r.srcSubresource.baseArrayLayer + l),
                     dst->view(aspect, r.dstSubresource.mipLevel, r.dstSubresource.baseArrayLayer + l),
                     r.srcOffsets, r.dstOffsets, filter, rowStart + band * kBandRows,
                     rowStart + std::min(rows, (band + 1) * kBandRows));
        });
      });
      dst->written(r.dstSubresource);
    }
  }
};

struct ResolveCmd {
  Image* src;
  Image* dst;
  const VkImageResolve* regions;
  uint32_t regionCount;
  void execute(ExecContext&) const {
    for (uint32_t i = 0; i < regionCount; ++i) {
      const VkImageResolve& r = regions[i];
      for (uint32_t l = 0; l < r.srcSubresource.layerCount; ++l)
        resolveRegion(src->view(VK_IMAGE_ASPECT_COLOR_BIT, r.srcSubresource.mipLevel, r.srcSubresource.baseArrayLayer + l),
                      dst->view(VK_IMAGE_ASPECT_COLOR_BIT, r.dstSubresource.mipLevel, r.dstSubresource.baseArrayLayer + l),
                      r.srcOffset, r.dstOffset, r.extent);
      dst->written(r.dstSubresource);
    }
  }
};

// Fills every texel (every sample) of the subresource ranges with one encoded texel.
void fillRanges(Image* image, VkImageAspectFlagBits aspect, const uint8_t* texel, uint32_t texelSize,
                const VkImageSubresourceRange* ranges, uint32_t rangeCount) {
  for (uint32_t i = 0; i < rangeCount; ++i) {
    const VkImageSubresourceRange& r = ranges[i];
    if (!(r.aspectMask & aspect)) continue;
    const uint32_t levels = r.levelCount == VK_REMAINING_MIP_LEVELS ? image->mipLevels - r.baseMipLevel : r.levelCount;
    const uint32_t layers = r.layerCount == VK_REMAINING_ARRAY_LAYERS ? image->arrayLayers - r.baseArrayLayer : r.layerCount;
    for (uint32_t m = 0; m < levels; ++m) {
      const SubresourceView first = image->view(aspect, r.baseMipLevel + m, r.baseArrayLayer);
      const size_t rowTexels = size_t(first.extent.width) * image->samples;
      const size_t rowsPerLayer = size_t(first.extent.height) * first.extent.depth;
      forEachRow(layers * rowsPerLayer, rowTexels * texelSize, [&](size_t row) {
        const SubresourceView v = image->view(aspect, r.baseMipLevel + m, r.baseArrayLayer + uint32_t(row / rowsPerLayer));
        const size_t inLayer = row % rowsPerLayer;
        uint8_t* p = v.data + (inLayer / v.extent.height) * v.slicePitch + (inLayer % v.extent.height) * v.rowPitch;
        for (size_t x = 0; x < rowTexels; ++x, p += texelSize) std::memcpy(p, texel, texelSize);
      });
    }
  }
}

struct ClearColorCmd {
  Image* image;
  VkClearColorValue color;
  const VkImageSubresourceRange* ranges;
  uint32_t rangeCount;
  void execute(ExecContext&) const {
    uint8_t texel[32];  // the largest block a clear can fill: R64G64B64A64
    const uint32_t size = encodeClearColor(*image->format, color, texel);
    fillRanges(image, VK_IMAGE_ASPECT_COLOR_BIT, texel, size, ranges, rangeCount);
    for (uint32_t i = 0; i < rangeCount; ++i) image->written(ranges[i]);
  }
};

struct ClearDepthStencilCmd {
  Image* image;
  VkClearDepthStencilValue value;
  const VkImageSubresourceRange* ranges;
  uint32_t rangeCount;
  void execute(ExecContext&) const {
    if (image->format->hasDepth()) {
      uint8_t texel[4];
      encodeDepth(*image->format, value.depth, texel);
      fillRanges(image, VK_IMAGE_ASPECT_DEPTH_BIT, texel, image->texelSize(VK_IMAGE_ASPECT_DEPTH_BIT), ranges, rangeCount);
    }
    if (image->format->hasStencil()) {
      const uint8_t s = uint8_t(value.stencil & 0xFF);
      fillRanges(image, VK_IMAGE_ASPECT_STENCIL_BIT, &s, 1, ranges, rangeCount);
    }
  }
};

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBlitImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                 VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                                 const VkImageBlit* pRegions, VkFilter filter) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->copyArray(pRegions, regionCount);
  if (auto* c = cb->record<BlitCmd>(); c && regions)
    *c = {fromHandle<Image>(srcImage), fromHandle<Image>(dstImage), regions, regionCount, filter};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdBlitImage2(VkCommandBuffer commandBuffer, const VkBlitImageInfo2* pInfo) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->allocateArray<VkImageBlit>(pInfo->regionCount);
  if (!regions) return;
  for (uint32_t i = 0; i < pInfo->regionCount; ++i) {
    const VkImageBlit2& r = pInfo->pRegions[i];
    regions[i].srcSubresource = r.srcSubresource;
    regions[i].dstSubresource = r.dstSubresource;
    std::copy_n(r.srcOffsets, 2, regions[i].srcOffsets);
    std::copy_n(r.dstOffsets, 2, regions[i].dstOffsets);
  }
  if (auto* c = cb->record<BlitCmd>())
    *c = {fromHandle<Image>(pInfo->srcImage), fromHandle<Image>(pInfo->dstImage), regions, pInfo->regionCount, pInfo->filter};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdResolveImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                    VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                                    const VkImageResolve* pRegions) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->copyArray(pRegions, regionCount);
  if (auto* c = cb->record<ResolveCmd>(); c && regions)
    *c = {fromHandle<Image>(srcImage), fromHandle<Image>(dstImage), regions, regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdResolveImage2(VkCommandBuffer commandBuffer, const VkResolveImageInfo2* pInfo) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->allocateArray<VkImageResolve>(pInfo->regionCount);
  if (!regions) return;
  for (uint32_t i = 0; i < pInfo->regionCount; ++i) {
    const VkImageResolve2& r = pInfo->pRegions[i];
    regions[i] = {r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset, r.extent};
  }
  if (auto* c = cb->record<ResolveCmd>())
    *c = {fromHandle<Image>(pInfo->srcImage), fromHandle<Image>(pInfo->dstImage), regions, pInfo->regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdClearColorImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                                       const VkClearColorValue* pColor, uint32_t rangeCount,
                                                       const VkImageSubresourceRange* pRanges) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* ranges = cb->copyArray(pRanges, rangeCount);
  if (auto* c = cb->record<ClearColorCmd>(); c && ranges) *c = {fromHandle<Image>(image), *pColor, ranges, rangeCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdClearDepthStencilImage(VkCommandBuffer commandBuffer, VkImage image, VkImageLayout,
                                                              const VkClearDepthStencilValue* pValue, uint32_t rangeCount,
                                                              const VkImageSubresourceRange* pRanges) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* ranges = cb->copyArray(pRanges, rangeCount);
  if (auto* c = cb->record<ClearDepthStencilCmd>(); c && ranges) *c = {fromHandle<Image>(image), *pValue, ranges, rangeCount};
}

}  // extern "C"
