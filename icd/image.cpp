#include <algorithm>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "resources.h"
#include "tessera/sampling_batch.h"

namespace tessera {

void writeDedicatedRequirements(void* pNext);
VkResult imageFormatProperties(const PhysicalDevice& pd, VkFormat format, VkImageType type, VkImageTiling tiling,
                               VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties* out);

namespace {

VkDeviceSize alignUp(VkDeviceSize v, VkDeviceSize a) { return (v + a - 1) / a * a; }
uint32_t divUp(uint32_t v, uint32_t d) { return (v + d - 1) / d; }

}  // namespace

int Image::planeIndex(VkImageAspectFlagBits aspect) const {
  return (planeCount > 1 && aspect == planeAspects[1]) ? 1 : 0;
}

void computeImageLayout(Image& image) {
  const FormatInfo& f = *image.format;
  image.planeCount = 0;
  if (f.isDepthStencil()) {
    if (f.hasDepth()) image.planeAspects[image.planeCount++] = VK_IMAGE_ASPECT_DEPTH_BIT;
    if (f.hasStencil()) image.planeAspects[image.planeCount++] = VK_IMAGE_ASPECT_STENCIL_BIT;
  } else {
    image.planeAspects[image.planeCount++] = VK_IMAGE_ASPECT_COLOR_BIT;
  }
  VkDeviceSize total = 0;
  for (uint32_t p = 0; p < image.planeCount; ++p) {
    image.planeOffsets[p] = total;
    const uint32_t texel = aspectTexelSize(f, image.planeAspects[p]) * image.samples;
    VkDeviceSize planeSize = 0;
    for (uint32_t mip = 0; mip < image.mipLevels; ++mip) {
      ImageLevelLayout& l = image.levels[p][mip];
      l.extent = {std::max(1u, image.extent.width >> mip), std::max(1u, image.extent.height >> mip),
                  std::max(1u, image.extent.depth >> mip)};
      l.offset = planeSize;
      l.rowPitch = VkDeviceSize(divUp(l.extent.width, f.blockWidth)) * texel;
      l.depthPitch = l.rowPitch * divUp(l.extent.height, f.blockHeight);
      l.layerPitch = alignUp(l.depthPitch * divUp(l.extent.depth, f.blockDepth), 16);
      planeSize = alignUp(planeSize + l.layerPitch * image.arrayLayers, 64);
    }
    total += planeSize;
  }
  image.size = std::max<VkDeviceSize>(total, 64);
}

SubresourceView Image::view(VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer) const {
  const int p = planeIndex(aspect);
  const ImageLevelLayout& l = levels[p][mip];
  SubresourceView v{};
  v.data = memory->data + memoryOffset + planeOffsets[p] + l.offset + l.layerPitch * layer;
  v.format = format;
  v.aspect = aspect;
  v.extent = l.extent;
  v.samples = samples;
  v.rowPitch = size_t(l.rowPitch);
  v.slicePitch = size_t(l.depthPitch);
  return v;
}

void computeImageViewState(ImageView& v) {
  const Image& img = *v.image;
  abi::ImageViewState& s = v.state;
  s = {};
  const FormatInfo* viewFormat = formatInfo(v.format) ? formatInfo(v.format) : img.format;
  // Descriptors name one aspect; a depth+stencil view (attachments only) reads depth.
  const VkImageAspectFlags mask = v.range.aspectMask;
  const VkImageAspectFlagBits aspect = (mask & VK_IMAGE_ASPECT_DEPTH_BIT)     ? VK_IMAGE_ASPECT_DEPTH_BIT
                                       : (mask & VK_IMAGE_ASPECT_STENCIL_BIT) ? VK_IMAGE_ASPECT_STENCIL_BIT
                                                                               : VK_IMAGE_ASPECT_COLOR_BIT;
  s.format = uint32_t(v.format);
  s.viewType = uint32_t(v.viewType);
  s.aspect = uint32_t(aspect);
  s.levelCount = std::min(v.range.levelCount, abi::kMaxImageLevels);
  s.layerCount = v.range.layerCount;
  s.samples = img.samples;
  s.texelSize = aspectTexelSize(*viewFormat, aspect);
  const VkComponentSwizzle given[4] = {v.components.r, v.components.g, v.components.b, v.components.a};
  const VkComponentSwizzle identity[4] = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B,
                                          VK_COMPONENT_SWIZZLE_A};
  for (int i = 0; i < 4; ++i) s.swizzle[i] = uint32_t(given[i] == VK_COMPONENT_SWIZZLE_IDENTITY ? identity[i] : given[i]);

  // 2D and 2D-array views of a 3D image (2D_ARRAY_COMPATIBLE) see its z slices as layers.
  const bool slicesAsLayers = img.type == VK_IMAGE_TYPE_3D &&
                              (v.viewType == VK_IMAGE_VIEW_TYPE_2D || v.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY);
  // An uncompressed view of a compressed image (BLOCK_TEXEL_VIEW_COMPATIBLE) sees one texel per block.
  const bool blocksAsTexels = img.format->isCompressed() && !viewFormat->isCompressed();
  const uint32_t bw = blocksAsTexels ? img.format->blockWidth : 1, bh = blocksAsTexels ? img.format->blockHeight : 1;
  const int plane = img.planeIndex(aspect);
  uint8_t* planeBase = img.memory ? img.memory->data + img.memoryOffset + img.planeOffsets[plane] : nullptr;
  for (uint32_t i = 0; i < s.levelCount; ++i) {
    const ImageLevelLayout& l = img.levels[plane][v.range.baseMipLevel + i];
    abi::ImageLevel& out = s.levels[i];
    out.width = divUp(l.extent.width, bw);
    out.height = divUp(l.extent.height, bh);
    out.depth = slicesAsLayers ? 1 : l.extent.depth;
    out.rowPitch = l.rowPitch;
    out.slicePitch = l.depthPitch;
    out.layerPitch = slicesAsLayers ? l.depthPitch : l.layerPitch;
    out.base = planeBase ? planeBase + l.offset + out.layerPitch * v.range.baseArrayLayer : nullptr;
  }
  s.fastSampling = classifyViewForRoutines(s);
  // A view of the image's own format samples its decoded copy where the routines allow
  // (sampling_batch.h viewToSample); a view of another format (MUTABLE_FORMAT) its blocks.
  v.decoded.reset();
  s.decoded = nullptr;
  if (img.decoded && v.format == img.vkFormat) {
    v.decoded = std::make_unique<DecodedView>(*img.decoded, v.range.baseMipLevel, v.range.baseArrayLayer);
    s.decoded = v.decoded.get();
  }
}

void attachDecodedTexture(Image& img, DecodedTextureBudget& budget) {
  // decoded_texture.h: only images whose texels nothing but a transfer naming them can change.
  // Usage: sampling and transfers only (a storage or attachment view of another format could
  // write the blocks). Flags: no aliases, no sparse residency. Memory: not shared with another
  // process or the application (external or imported host memory).
  constexpr VkImageUsageFlags kReadAndTransfer =
      VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT;
  constexpr VkImageCreateFlags kShared = VK_IMAGE_CREATE_ALIAS_BIT | VK_IMAGE_CREATE_SPARSE_BINDING_BIT |
                                         VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT | VK_IMAGE_CREATE_SPARSE_ALIASED_BIT;
  img.decoded.reset();
  if (!budget.limit || !DecodedTexture::decodable(img.vkFormat) || img.type != VK_IMAGE_TYPE_2D ||
      img.tiling != VK_IMAGE_TILING_OPTIMAL || img.samples != 1 || (img.usage & ~kReadAndTransfer) ||
      (img.flags & kShared) || !img.memory || img.memory->fd >= 0 || img.memory->hostImport)
    return;
  ImageView whole{};
  whole.image = &img;
  whole.viewType = VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  whole.format = img.vkFormat;
  whole.components = {VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY, VK_COMPONENT_SWIZZLE_IDENTITY,
                      VK_COMPONENT_SWIZZLE_IDENTITY};
  whole.range = {VK_IMAGE_ASPECT_COLOR_BIT, 0, img.mipLevels, 0, img.arrayLayers};
  computeImageViewState(whole);
  img.decoded = std::make_unique<DecodedTexture>(whole.state, budget);
}

}  // namespace tessera

using namespace tessera;

namespace {

VkMemoryRequirements imageRequirements(const Image& image) {
  return {alignUp(image.size, 64), kMinResourceAlignment, kMemoryTypeBits};
}

VkResult validateImage(Device* dev, const VkImageCreateInfo* ci) {
  VkImageFormatProperties limits;
  VkResult r = imageFormatProperties(*dev->physical, ci->format, ci->imageType, ci->tiling, ci->usage, ci->flags, &limits);
  const char* problem = nullptr;
  if (r != VK_SUCCESS) problem = "format, type, tiling, usage and flags are not a supported combination";
  else if (ci->extent.width > limits.maxExtent.width || ci->extent.height > limits.maxExtent.height ||
           ci->extent.depth > limits.maxExtent.depth)
    problem = "extent exceeds the format's maximum";
  else if (ci->mipLevels > limits.maxMipLevels || ci->mipLevels > Image::kMaxLevels) problem = "too many mip levels";
  else if (ci->arrayLayers > limits.maxArrayLayers) problem = "too many array layers";
  else if (!(limits.sampleCounts & ci->samples)) problem = "sample count not supported";
  else if ((ci->flags & VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT) && ci->samples != VK_SAMPLE_COUNT_1_BIT)
    problem = "VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT needs samples VK_SAMPLE_COUNT_1_BIT "
              "(VUID-VkImageCreateInfo-flags-06883)";
  if (!problem) return VK_SUCCESS;
  reportError(dev->instance, VK_OBJECT_TYPE_DEVICE, uint64_t(toHandle<VkDevice>(dev)), "vkCreateImage(%s): %s",
              formatInfo(ci->format) ? formatInfo(ci->format)->name : "unknown format", problem);
  return VK_ERROR_FORMAT_NOT_SUPPORTED;
}

void initImage(Image& img, const VkImageCreateInfo* ci) {
  img.type = ci->imageType;
  img.format = formatInfo(ci->format);
  img.vkFormat = ci->format;
  img.extent = ci->extent;
  img.mipLevels = ci->mipLevels;
  img.arrayLayers = ci->arrayLayers;
  img.samples = uint32_t(ci->samples);
  img.tiling = ci->tiling;
  img.usage = ci->usage;
  img.flags = ci->flags;
  computeImageLayout(img);
}

}  // namespace

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateImage(VkDevice device, const VkImageCreateInfo* pCreateInfo,
                                                    const VkAllocationCallbacks* pAllocator, VkImage* pImage) {
  Device* dev = fromHandle<Device>(device);
  if (VkResult r = validateImage(dev, pCreateInfo); r != VK_SUCCESS) return r;
  Image* img = hostNew<Image>(pickAllocator(pAllocator, dev->allocator()), VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!img) return VK_ERROR_OUT_OF_HOST_MEMORY;
  initImage(*img, pCreateInfo);
  *pImage = toHandle<VkImage>(img);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyImage(VkDevice device, VkImage image, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<Image>(image));
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageMemoryRequirements(VkDevice, VkImage image, VkMemoryRequirements* pReq) {
  *pReq = imageRequirements(*fromHandle<Image>(image));
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageMemoryRequirements2(VkDevice, const VkImageMemoryRequirementsInfo2* pInfo,
                                                                VkMemoryRequirements2* pReq) {
  pReq->memoryRequirements = imageRequirements(*fromHandle<Image>(pInfo->image));
  writeDedicatedRequirements(pReq->pNext);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements* pInfo,
                                                                     VkMemoryRequirements2* pReq) {
  Image tmp;
  initImage(tmp, pInfo->pCreateInfo);
  pReq->memoryRequirements = imageRequirements(tmp);
  writeDedicatedRequirements(pReq->pNext);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageSparseMemoryRequirements(VkDevice, VkImage, uint32_t* pCount,
                                                                     VkSparseImageMemoryRequirements*) {
  *pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageSparseMemoryRequirements2(VkDevice, const VkImageSparseMemoryRequirementsInfo2*,
                                                                      uint32_t* pCount, VkSparseImageMemoryRequirements2*) {
  *pCount = 0;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceImageSparseMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements*,
                                                                           uint32_t* pCount, VkSparseImageMemoryRequirements2*) {
  *pCount = 0;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkBindImageMemory(VkDevice device, VkImage image, VkDeviceMemory memory,
                                                        VkDeviceSize offset) {
  Image* img = fromHandle<Image>(image);
  img->memory = fromHandle<DeviceMemory>(memory);
  img->memoryOffset = offset;
  attachDecodedTexture(*img, fromHandle<Device>(device)->decodedTextures);
  return VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkBindImageMemory2(VkDevice device, uint32_t count, const VkBindImageMemoryInfo* pInfos) {
  for (uint32_t i = 0; i < count; ++i)
    tessera_vkBindImageMemory(device, pInfos[i].image, pInfos[i].memory, pInfos[i].memoryOffset);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageSubresourceLayout(VkDevice, VkImage image, const VkImageSubresource* pSub,
                                                              VkSubresourceLayout* pLayout) {
  const Image& img = *fromHandle<Image>(image);
  auto aspect = VkImageAspectFlagBits(pSub->aspectMask);
  const int p = img.planeIndex(aspect);
  const ImageLevelLayout& l = img.levels[p][pSub->mipLevel];
  pLayout->offset = img.planeOffsets[p] + l.offset + l.layerPitch * pSub->arrayLayer;
  pLayout->size = l.layerPitch;
  pLayout->rowPitch = l.rowPitch;
  pLayout->depthPitch = l.depthPitch;
  pLayout->arrayPitch = l.layerPitch;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkCreateImageView(VkDevice device, const VkImageViewCreateInfo* pInfo,
                                                        const VkAllocationCallbacks* pAllocator, VkImageView* pView) {
  ImageView* v = hostNew<ImageView>(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()),
                                    VK_SYSTEM_ALLOCATION_SCOPE_OBJECT);
  if (!v) return VK_ERROR_OUT_OF_HOST_MEMORY;
  Image* img = fromHandle<Image>(pInfo->image);
  VkImageSubresourceRange range = pInfo->subresourceRange;
  if (range.levelCount == VK_REMAINING_MIP_LEVELS) range.levelCount = img->mipLevels - range.baseMipLevel;
  if (range.layerCount == VK_REMAINING_ARRAY_LAYERS) {
    // A 2D or 2D-array view of a 3D image counts the z slices of its base level as layers
    // (VkImageViewCreateInfo, VUID-VkImageViewCreateInfo-subresourceRange-02725).
    const bool slicesAsLayers = img->type == VK_IMAGE_TYPE_3D && (pInfo->viewType == VK_IMAGE_VIEW_TYPE_2D ||
                                                                  pInfo->viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY);
    const uint32_t layers = slicesAsLayers ? std::max(img->extent.depth >> range.baseMipLevel, 1u) : img->arrayLayers;
    range.layerCount = layers - range.baseArrayLayer;
  }
  v->image = img;
  v->viewType = pInfo->viewType;
  v->format = pInfo->format;
  v->components = pInfo->components;
  v->range = range;
  computeImageViewState(*v);
  *pView = toHandle<VkImageView>(v);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyImageView(VkDevice device, VkImageView view, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<ImageView>(view));
}

}  // extern "C"
