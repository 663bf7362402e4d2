// Image copies: vkCmdCopyImage, vkCmdCopyBufferToImage, vkCmdCopyImageToBuffer and their
// copy_commands2 forms (spec: "Copy Commands"). All of them move whole texel blocks row by row;
// a copy between size-compatible formats (including compressed <-> uncompressed) works in
// blocks of the source format.
#include <algorithm>

#include "command_buffer.h"
#include "entrypoints.h"
#include "parallel_copy.h"
#include "resources.h"

namespace tessera {
namespace {

uint32_t divUp(uint32_t v, uint32_t d) { return (v + d - 1) / d; }

// The aspect pairs a region copies, one at a time: each of a depth/stencil mask's aspects to
// itself, or (where either image is multi-planar, each mask naming one plane or COLOR) the
// source's one aspect to the destination's, a plane being an image of its plane format.
template <typename F>
void forEachAspectPair(const Image& src, VkImageAspectFlags srcMask, const Image& dst, VkImageAspectFlags dstMask,
                       F&& f) {
  if (src.format->planeCount > 1 || dst.format->planeCount > 1) {
    f(VkImageAspectFlagBits(srcMask), VkImageAspectFlagBits(dstMask));
    return;
  }
  for (VkImageAspectFlags bit : {VK_IMAGE_ASPECT_COLOR_BIT, VK_IMAGE_ASPECT_DEPTH_BIT, VK_IMAGE_ASPECT_STENCIL_BIT})
    if (srcMask & bit) f(VkImageAspectFlagBits(bit), VkImageAspectFlagBits(bit));
}

struct SliceAddress {
  uint32_t layer;
  uint32_t z;
};

// Slice s of a region: z slices of a 3D image, array layers otherwise (maintenance1 lets a 3D
// image's slices pair up with another image's layers).
SliceAddress sliceOf(const Image& img, uint32_t baseLayer, int32_t offsetZ, uint32_t s) {
  if (img.type == VK_IMAGE_TYPE_3D) return {0, uint32_t(offsetZ) + s};
  return {baseLayer + s, 0};
}

uint8_t* blockAddress(const SubresourceView& v, uint32_t texelSize, uint32_t z, uint32_t bx, uint32_t by) {
  return v.data + size_t(z) * v.slicePitch + size_t(by) * v.rowPitch + size_t(bx) * texelSize * v.samples;
}

struct CopyImageCmd {
  Image* src;
  Image* dst;
  const VkImageCopy* regions;
  uint32_t regionCount;

  void execute(ExecContext&) const {
    for (uint32_t i = 0; i < regionCount; ++i) copyRegion(regions[i]);
    for (uint32_t i = 0; i < regionCount; ++i) dst->written(regions[i].dstSubresource);
  }

  void copyRegion(const VkImageCopy& r) const {
    const bool any3D = src->type == VK_IMAGE_TYPE_3D || dst->type == VK_IMAGE_TYPE_3D;
    const uint32_t slices = any3D ? r.extent.depth : r.srcSubresource.layerCount;
    forEachAspectPair(*src, r.srcSubresource.aspectMask, *dst, r.dstSubresource.aspectMask,
                      [&](VkImageAspectFlagBits srcAspect, VkImageAspectFlagBits dstAspect) {
      const FormatInfo& sf = src->aspectFormat(srcAspect);
      const FormatInfo& df = dst->aspectFormat(dstAspect);
      const uint32_t blocksW = divUp(r.extent.width, sf.blockWidth);
      const uint32_t blocksH = divUp(r.extent.height, sf.blockHeight);
      const uint32_t texel = src->texelSize(srcAspect);
      const size_t rowBytes = size_t(blocksW) * texel * src->samples;
      forEachRow(size_t(slices) * blocksH, rowBytes, [&](size_t row) {
        const uint32_t s = uint32_t(row / blocksH), by = uint32_t(row % blocksH);
        SliceAddress sa = sliceOf(*src, r.srcSubresource.baseArrayLayer, r.srcOffset.z, s);
        SliceAddress da = sliceOf(*dst, r.dstSubresource.baseArrayLayer, r.dstOffset.z, s);
        SubresourceView sv = src->view(srcAspect, r.srcSubresource.mipLevel, sa.layer);
        SubresourceView dv = dst->view(dstAspect, r.dstSubresource.mipLevel, da.layer);
        std::memcpy(blockAddress(dv, texel, da.z, uint32_t(r.dstOffset.x) / df.blockWidth,
                                 uint32_t(r.dstOffset.y) / df.blockHeight + by),
                    blockAddress(sv, texel, sa.z, uint32_t(r.srcOffset.x) / sf.blockWidth,
                                 uint32_t(r.srcOffset.y) / sf.blockHeight + by),
                    rowBytes);
      });
    });
  }
};

// Buffer <-> image. Buffer addressing (spec: "Copying Data Between Buffers and Images"):
// texel (x, y, z, layer) of the region sits at bufferOffset +
// (((layer * depth + z) * imageHeight + y) * rowLength + x) * blockSize, in blocks.
struct BufferImageCopyCmd {
  Buffer* buffer;
  Image* image;
  const VkBufferImageCopy* regions;
  uint32_t regionCount;
  bool toImage;

  void execute(ExecContext&) const {
    for (uint32_t i = 0; i < regionCount; ++i) copyRegion(regions[i]);
    if (toImage)
      for (uint32_t i = 0; i < regionCount; ++i) image->written(regions[i].imageSubresource);
  }

  void copyRegion(const VkBufferImageCopy& r) const {
    const auto aspect = VkImageAspectFlagBits(r.imageSubresource.aspectMask);
    const FormatInfo& f = image->aspectFormat(aspect);
    const uint32_t rowLength = r.bufferRowLength ? r.bufferRowLength : r.imageExtent.width;
    const uint32_t imageHeight = r.bufferImageHeight ? r.bufferImageHeight : r.imageExtent.height;
    const uint32_t rowBlocks = divUp(rowLength, f.blockWidth);
    const uint32_t heightBlocks = divUp(imageHeight, f.blockHeight);
    const uint32_t blocksW = divUp(r.imageExtent.width, f.blockWidth);
    const uint32_t blocksH = divUp(r.imageExtent.height, f.blockHeight);
    const uint32_t slices = image->type == VK_IMAGE_TYPE_3D ? r.imageExtent.depth : r.imageSubresource.layerCount;
    const uint32_t texel = image->texelSize(aspect);
    const size_t rowBytes = size_t(blocksW) * texel;
    uint8_t* bufferBase = buffer->data() + r.bufferOffset;
    forEachRow(size_t(slices) * blocksH, rowBytes, [&](size_t row) {
      const uint32_t s = uint32_t(row / blocksH), by = uint32_t(row % blocksH);
      SliceAddress a = sliceOf(*image, r.imageSubresource.baseArrayLayer, r.imageOffset.z, s);
      SubresourceView v = image->view(aspect, r.imageSubresource.mipLevel, a.layer);
      uint8_t* img = blockAddress(v, texel, a.z, uint32_t(r.imageOffset.x) / f.blockWidth,
                                  uint32_t(r.imageOffset.y) / f.blockHeight + by);
      uint8_t* buf = bufferBase + ((size_t(s) * heightBlocks + by) * rowBlocks) * texel;
      if (toImage) std::memcpy(img, buf, rowBytes);
      else std::memcpy(buf, img, rowBytes);
    });
  }
};

VkBufferImageCopy toV1(const VkBufferImageCopy2& r) {
  return {r.bufferOffset, r.bufferRowLength, r.bufferImageHeight, r.imageSubresource, r.imageOffset, r.imageExtent};
}

void recordBufferImage(CommandBuffer* cb, VkBuffer buffer, VkImage image, const VkBufferImageCopy* regions,
                       uint32_t count, bool toImage) {
  auto* copy = cb->copyArray(regions, count);
  if (auto* c = cb->record<BufferImageCopyCmd>(); c && copy)
    *c = {fromHandle<Buffer>(buffer), fromHandle<Image>(image), copy, count, toImage};
}

void recordBufferImage2(CommandBuffer* cb, VkBuffer buffer, VkImage image, const VkBufferImageCopy2* regions,
                        uint32_t count, bool toImage) {
  auto* copy = cb->allocateArray<VkBufferImageCopy>(count);
  if (!copy) return;
  for (uint32_t i = 0; i < count; ++i) copy[i] = toV1(regions[i]);
  if (auto* c = cb->record<BufferImageCopyCmd>())
    *c = {fromHandle<Buffer>(buffer), fromHandle<Image>(image), copy, count, toImage};
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyImage(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                 VkImage dstImage, VkImageLayout, uint32_t regionCount,
                                                 const VkImageCopy* pRegions) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->copyArray(pRegions, regionCount);
  if (auto* c = cb->record<CopyImageCmd>(); c && regions)
    *c = {fromHandle<Image>(srcImage), fromHandle<Image>(dstImage), regions, regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyImage2(VkCommandBuffer commandBuffer, const VkCopyImageInfo2* pInfo) {
  CommandBuffer* cb = fromHandle<CommandBuffer>(commandBuffer);
  auto* regions = cb->allocateArray<VkImageCopy>(pInfo->regionCount);
  if (!regions) return;
  for (uint32_t i = 0; i < pInfo->regionCount; ++i) {
    const VkImageCopy2& r = pInfo->pRegions[i];
    regions[i] = {r.srcSubresource, r.srcOffset, r.dstSubresource, r.dstOffset, r.extent};
  }
  if (auto* c = cb->record<CopyImageCmd>())
    *c = {fromHandle<Image>(pInfo->srcImage), fromHandle<Image>(pInfo->dstImage), regions, pInfo->regionCount};
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyBufferToImage(VkCommandBuffer commandBuffer, VkBuffer srcBuffer, VkImage dstImage,
                                                         VkImageLayout, uint32_t regionCount, const VkBufferImageCopy* pRegions) {
  recordBufferImage(fromHandle<CommandBuffer>(commandBuffer), srcBuffer, dstImage, pRegions, regionCount, true);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyImageToBuffer(VkCommandBuffer commandBuffer, VkImage srcImage, VkImageLayout,
                                                         VkBuffer dstBuffer, uint32_t regionCount, const VkBufferImageCopy* pRegions) {
  recordBufferImage(fromHandle<CommandBuffer>(commandBuffer), dstBuffer, srcImage, pRegions, regionCount, false);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyBufferToImage2(VkCommandBuffer commandBuffer, const VkCopyBufferToImageInfo2* pInfo) {
  recordBufferImage2(fromHandle<CommandBuffer>(commandBuffer), pInfo->srcBuffer, pInfo->dstImage, pInfo->pRegions,
                     pInfo->regionCount, true);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkCmdCopyImageToBuffer2(VkCommandBuffer commandBuffer, const VkCopyImageToBufferInfo2* pInfo) {
  recordBufferImage2(fromHandle<CommandBuffer>(commandBuffer), pInfo->dstBuffer, pInfo->srcImage, pInfo->pRegions,
                     pInfo->regionCount, false);
}

}  // extern "C"
