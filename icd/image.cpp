#include <algorithm>

#include "device.h"
#include "entrypoints.h"
#include "host_allocator.h"
#include "instance.h"
#include "physical_device.h"
#include "resources.h"
#include "sampler.h"
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
  for (uint32_t p = 1; p < planeCount; ++p)
    if (planeAspects[p] == aspect) return int(p);
  return 0;
}

uint8_t* Image::planeData(int p) const {
  if (disjoint) return planeMemory[p] ? planeMemory[p]->data + planeMemoryOffset[p] : nullptr;
  return memory ? memory->data + memoryOffset + planeOffsets[p] : nullptr;
}

bool Image::bound() const {
  for (uint32_t p = 0; p < planeCount; ++p)
    if (!planeData(int(p))) return false;
  return true;
}

void computeImageLayout(Image& image) {
  const FormatInfo& f = *image.format;
  image.planeCount = 0;
  VkExtent3D planeDivisor[Image::kMaxPlanes] = {{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  if (f.isDepthStencil()) {
    if (f.hasDepth()) image.planeAspects[image.planeCount++] = VK_IMAGE_ASPECT_DEPTH_BIT;
    if (f.hasStencil()) image.planeAspects[image.planeCount++] = VK_IMAGE_ASPECT_STENCIL_BIT;
    for (uint32_t p = 0; p < image.planeCount; ++p) image.planeFormats[p] = &f;
  } else if (f.planeCount > 1) {
    // "Multi-planar Format Image Aspect": plane n has the format and the size the registry's
    // plane description gives it (a width or height divisor of 2 for subsampled chroma).
    constexpr VkImageAspectFlagBits kPlanes[] = {VK_IMAGE_ASPECT_PLANE_0_BIT, VK_IMAGE_ASPECT_PLANE_1_BIT,
                                                 VK_IMAGE_ASPECT_PLANE_2_BIT};
    for (uint32_t p = 0; p < f.planeCount; ++p) {
      image.planeAspects[p] = kPlanes[p];
      image.planeFormats[p] = formatInfo(f.planes[p].compatible);
      planeDivisor[p] = {f.planes[p].widthDivisor, f.planes[p].heightDivisor, 1};
    }
    image.planeCount = f.planeCount;
  } else {
    image.planeAspects[0] = VK_IMAGE_ASPECT_COLOR_BIT;
    image.planeFormats[0] = &f;
    image.planeCount = 1;
  }
  image.disjoint = (image.flags & VK_IMAGE_CREATE_DISJOINT_BIT) && f.planeCount > 1;
  VkDeviceSize total = 0;
  for (uint32_t p = 0; p < image.planeCount; ++p) {
    image.planeOffsets[p] = total;
    const FormatInfo& pf = *image.planeFormats[p];
    const uint32_t texel = aspectTexelSize(f, image.planeAspects[p]) * image.samples;
    VkDeviceSize planeSize = 0;
    for (uint32_t mip = 0; mip < image.mipLevels; ++mip) {
      ImageLevelLayout& l = image.levels[p][mip];
      l.extent = {std::max(1u, divUp(image.extent.width, planeDivisor[p].width) >> mip),
                  std::max(1u, divUp(image.extent.height, planeDivisor[p].height) >> mip),
                  std::max(1u, image.extent.depth >> mip)};
      l.offset = planeSize;
      l.rowPitch = VkDeviceSize(divUp(l.extent.width, pf.blockWidth)) * texel;
      l.depthPitch = l.rowPitch * divUp(l.extent.height, pf.blockHeight);
      l.layerPitch = alignUp(l.depthPitch * divUp(l.extent.depth, pf.blockDepth), 16);
      planeSize = alignUp(planeSize + l.layerPitch * image.arrayLayers, 64);
    }
    image.planeSizes[p] = std::max<VkDeviceSize>(planeSize, 64);
    total += planeSize;
  }
  image.size = std::max<VkDeviceSize>(total, 64);
}

SubresourceView Image::view(VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer) const {
  const int p = planeIndex(aspect);
  const ImageLevelLayout& l = levels[p][mip];
  SubresourceView v{};
  v.data = planeData(p) + l.offset + l.layerPitch * layer;
  // A plane of a multi-planar image is an image of its plane format to copies and blits.
  v.format = planeFormats[p];
  v.aspect = planeOfAspect(aspect) >= 0 ? VK_IMAGE_ASPECT_COLOR_BIT : aspect;
  v.extent = l.extent;
  v.samples = samples;
  v.rowPitch = size_t(l.rowPitch);
  v.slicePitch = size_t(l.depthPitch);
  return v;
}

namespace {

VkComponentSwizzle resolvedSwizzle(VkComponentSwizzle given, VkComponentSwizzle identity) {
  return given == VK_COMPONENT_SWIZZLE_IDENTITY ? identity : given;
}

// What sampling through a view with a Y'CbCr conversion reads: the conversion's parameters and
// each plane's texels (a single-plane image is its own plane 0).
void fillYcbcrState(ImageView& v) {
  const Image& img = *v.image;
  const VkSamplerYcbcrConversionCreateInfo& c = v.conversion;
  abi::YcbcrSamplingState& y = v.ycbcr;
  y = {};
  y.format = uint32_t(img.vkFormat);
  y.model = uint32_t(c.ycbcrModel);
  y.range = uint32_t(c.ycbcrRange);
  y.swizzle[0] = resolvedSwizzle(c.components.r, VK_COMPONENT_SWIZZLE_R);
  y.swizzle[1] = resolvedSwizzle(c.components.g, VK_COMPONENT_SWIZZLE_G);
  y.swizzle[2] = resolvedSwizzle(c.components.b, VK_COMPONENT_SWIZZLE_B);
  y.swizzle[3] = resolvedSwizzle(c.components.a, VK_COMPONENT_SWIZZLE_A);
  y.xChromaOffset = uint32_t(c.xChromaOffset);
  y.yChromaOffset = uint32_t(c.yChromaOffset);
  y.chromaFilter = uint32_t(c.chromaFilter);
  y.forceExplicitReconstruction = c.forceExplicitReconstruction;
  y.chromaDivisorX = img.format->chromaDivisorX;
  y.chromaDivisorY = img.format->chromaDivisorY;
  y.planeCount = img.planeCount;
  for (uint32_t p = 0; p < img.planeCount; ++p) {
    const ImageLevelLayout& l = img.levels[p][v.range.baseMipLevel];
    uint8_t* data = img.planeData(int(p));
    y.planes[p].base = data ? data + l.offset + l.layerPitch * v.range.baseArrayLayer : nullptr;
    y.planes[p].rowPitch = l.rowPitch;
    y.planes[p].layerPitch = l.layerPitch;
    y.planes[p].width = l.extent.width;
    y.planes[p].height = l.extent.height;
    y.planes[p].format = uint32_t(img.planeFormats[p]->format);
  }
  prepareYcbcrSources(y);
}

}  // namespace

void computeImageViewState(ImageView& v) {
  const Image& img = *v.image;
  abi::ImageViewState& s = v.state;
  s = {};
  const FormatInfo* viewFormat = formatInfo(v.format) ? formatInfo(v.format) : img.format;
  // Descriptors name one aspect; a depth+stencil view (attachments only) reads depth.
  const VkImageAspectFlags mask = v.range.aspectMask;
  // A view of one plane of a multi-planar image (aspect PLANE_n) is a colour view of that plane.
  const VkImageAspectFlagBits planeAspect = (mask & VK_IMAGE_ASPECT_PLANE_0_BIT)   ? VK_IMAGE_ASPECT_PLANE_0_BIT
                                            : (mask & VK_IMAGE_ASPECT_PLANE_1_BIT) ? VK_IMAGE_ASPECT_PLANE_1_BIT
                                            : (mask & VK_IMAGE_ASPECT_PLANE_2_BIT) ? VK_IMAGE_ASPECT_PLANE_2_BIT
                                                                                   : VK_IMAGE_ASPECT_COLOR_BIT;
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
  const int plane = img.planeIndex(aspect == VK_IMAGE_ASPECT_COLOR_BIT ? planeAspect : aspect);
  uint8_t* planeBase = img.planeData(plane);
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
  s.ycbcr = nullptr;
  if (v.hasConversion) {
    fillYcbcrState(v);
    s.ycbcr = &v.ycbcr;
    s.fastSampling = 0;  // the batched routines know nothing of the conversion
  }
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

// A DISJOINT image's planes each take their own binding (VkImagePlaneMemoryRequirementsInfo
// names the plane); any other image is one binding.
VkMemoryRequirements imageRequirements(const Image& image, const void* infoNext) {
  for (auto* s = static_cast<const VkBaseInStructure*>(infoNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO && image.disjoint) {
      const auto* plane = reinterpret_cast<const VkImagePlaneMemoryRequirementsInfo*>(s);
      return {alignUp(image.planeSizes[image.planeIndex(plane->planeAspect)], 64), kMinResourceAlignment,
              kMemoryTypeBits};
    }
  return imageRequirements(image);
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
  pReq->memoryRequirements = imageRequirements(*fromHandle<Image>(pInfo->image), pInfo->pNext);
  writeDedicatedRequirements(pReq->pNext);
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetDeviceImageMemoryRequirements(VkDevice, const VkDeviceImageMemoryRequirements* pInfo,
                                                                     VkMemoryRequirements2* pReq) {
  Image tmp;
  initImage(tmp, pInfo->pCreateInfo);
  pReq->memoryRequirements = imageRequirements(tmp);
  if (tmp.disjoint) {  // VkDeviceImageMemoryRequirements::planeAspect names the plane
    VkImagePlaneMemoryRequirementsInfo plane{VK_STRUCTURE_TYPE_IMAGE_PLANE_MEMORY_REQUIREMENTS_INFO, nullptr,
                                             pInfo->planeAspect};
    pReq->memoryRequirements = imageRequirements(tmp, &plane);
  }
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
  for (uint32_t i = 0; i < count; ++i) {
    const VkBindImagePlaneMemoryInfo* plane = nullptr;
    for (auto* s = static_cast<const VkBaseInStructure*>(pInfos[i].pNext); s; s = s->pNext)
      if (s->sType == VK_STRUCTURE_TYPE_BIND_IMAGE_PLANE_MEMORY_INFO)
        plane = reinterpret_cast<const VkBindImagePlaneMemoryInfo*>(s);
    Image* img = fromHandle<Image>(pInfos[i].image);
    if (plane && img->disjoint) {
      const int p = img->planeIndex(plane->planeAspect);
      img->planeMemory[p] = fromHandle<DeviceMemory>(pInfos[i].memory);
      img->planeMemoryOffset[p] = pInfos[i].memoryOffset;
      // `memory` answers "is it bound" for code that does not look at planes.
      if (img->bound()) img->memory = img->planeMemory[0];
      continue;
    }
    tessera_vkBindImageMemory(device, pInfos[i].image, pInfos[i].memory, pInfos[i].memoryOffset);
  }
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkGetImageSubresourceLayout(VkDevice, VkImage image, const VkImageSubresource* pSub,
                                                              VkSubresourceLayout* pLayout) {
  const Image& img = *fromHandle<Image>(image);
  auto aspect = VkImageAspectFlagBits(pSub->aspectMask);
  const int p = img.planeIndex(aspect);
  const ImageLevelLayout& l = img.levels[p][pSub->mipLevel];
  // A disjoint image's plane offsets count from the start of the plane's own binding.
  pLayout->offset = (img.disjoint ? 0 : img.planeOffsets[p]) + l.offset + l.layerPitch * pSub->arrayLayer;
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
  if (const SamplerYcbcrConversion* conversion = chainedYcbcrConversion(pInfo->pNext)) {
    v->hasConversion = true;
    v->conversion = conversion->info;
  }
  computeImageViewState(*v);
  *pView = toHandle<VkImageView>(v);
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL tessera_vkDestroyImageView(VkDevice device, VkImageView view, const VkAllocationCallbacks* pAllocator) {
  hostDelete(pickAllocator(pAllocator, fromHandle<Device>(device)->allocator()), fromHandle<ImageView>(view));
}

}  // extern "C"
