// Device memory, buffers, images and their views.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vulkan/vulkan_core.h>

#include "tessera/blit.h"
#include "tessera/decoded_texture.h"
#include "tessera/format.h"
#include "tessera/sampling.h"
#include "tessera/shader_abi.h"

namespace tessera {

struct DeviceMemory {
  VkDeviceSize size = 0;
  uint8_t* data = nullptr;
  bool mmapped = false;  // large allocations come straight from mmap
  // External memory (icd/external_memory.cpp): an exportable or imported opaque-fd payload is a
  // shared mapping of this memfd, which the memory owns; imported host memory is the
  // application's, mapped as given and never freed here.
  int fd = -1;
  bool hostImport = false;
};

// Bytes of VkDeviceMemory allocated in this process (VK_EXT_memory_budget's heapUsage).
VkDeviceSize deviceMemoryInUse();

struct Buffer {
  VkDeviceSize size = 0;
  VkBufferUsageFlags usage = 0;
  VkBufferCreateFlags flags = 0;
  DeviceMemory* memory = nullptr;
  VkDeviceSize memoryOffset = 0;

  uint8_t* data() const { return memory ? memory->data + memoryOffset : nullptr; }
};

// Images are stored linearly: plane (aspect) -> mip level -> array layer -> z -> y -> x,
// each texel block `samples` times in a row. Depth/stencil formats keep depth and stencil in
// separate planes (see aspectTexelSize). Linear-tiling images use the same layout, reported
// by vkGetImageSubresourceLayout.
struct ImageLevelLayout {
  VkDeviceSize offset;      // from the start of the plane
  VkDeviceSize rowPitch;    // bytes per row of texel blocks
  VkDeviceSize depthPitch;  // bytes per z slice
  VkDeviceSize layerPitch;  // bytes per array layer
  VkExtent3D extent;        // in texels
};

struct Image {
  static constexpr uint32_t kMaxLevels = 16;
  VkImageType type = VK_IMAGE_TYPE_2D;
  const FormatInfo* format = nullptr;
  VkFormat vkFormat = VK_FORMAT_UNDEFINED;
  VkExtent3D extent{};
  uint32_t mipLevels = 1;
  uint32_t arrayLayers = 1;
  uint32_t samples = 1;
  VkImageTiling tiling = VK_IMAGE_TILING_OPTIMAL;
  VkImageUsageFlags usage = 0;
  VkImageCreateFlags flags = 0;
  DeviceMemory* memory = nullptr;
  VkDeviceSize memoryOffset = 0;

  // Planes: depth and stencil of a depth/stencil format, the 2 or 3 planes of a multi-planar
  // Y'CbCr format (aspects PLANE_n), or the one colour plane. Each plane is laid out as an image
  // of its own format (planeFormats) and extent. A DISJOINT image binds memory per plane
  // (VkBindImagePlaneMemoryInfo): its planes then start at offset 0 of their own binding.
  static constexpr uint32_t kMaxPlanes = 3;
  uint32_t planeCount = 1;
  VkImageAspectFlagBits planeAspects[kMaxPlanes]{};
  const FormatInfo* planeFormats[kMaxPlanes]{};
  VkDeviceSize planeOffsets[kMaxPlanes]{};
  VkDeviceSize planeSizes[kMaxPlanes]{};
  ImageLevelLayout levels[kMaxPlanes][kMaxLevels]{};
  VkDeviceSize size = 0;
  bool disjoint = false;
  DeviceMemory* planeMemory[kMaxPlanes]{};  // disjoint images only
  VkDeviceSize planeMemoryOffset[kMaxPlanes]{};

  int planeIndex(VkImageAspectFlagBits aspect) const;
  const ImageLevelLayout& level(VkImageAspectFlagBits aspect, uint32_t mip) const {
    return levels[planeIndex(aspect)][mip];
  }
  // The format of the texels of one aspect (a plane's compatible format for PLANE_n).
  const FormatInfo& aspectFormat(VkImageAspectFlagBits aspect) const { return *planeFormats[planeIndex(aspect)]; }
  uint32_t texelSize(VkImageAspectFlagBits aspect) const { return aspectTexelSize(*format, aspect); }
  // Where plane p's texels start in host memory; null while its memory is not bound.
  uint8_t* planeData(int p) const;
  // Whether every plane has memory.
  bool bound() const;
  // One mip level of one array layer (all z slices of a 3D image).
  SubresourceView view(VkImageAspectFlagBits aspect, uint32_t mip, uint32_t layer) const;

  // The decoded copy the sampler keeps of a BC1 image that only transfers can write
  // (decoded_texture.h; made when memory is bound); null for every other image.
  std::unique_ptr<DecodedTexture> decoded;
  // Every command that writes the image's texels calls this once its writes are done, so that
  // the copy is decoded again before the next sample.
  void written(const VkImageSubresourceLayers& s) const {
    if (decoded) decoded->written(s.mipLevel, s.baseArrayLayer, s.layerCount);
  }
  void written(const VkImageSubresourceRange& r) const {
    if (!decoded) return;
    const uint32_t levels = r.levelCount == VK_REMAINING_MIP_LEVELS ? mipLevels - r.baseMipLevel : r.levelCount;
    const uint32_t layers = r.layerCount == VK_REMAINING_ARRAY_LAYERS ? arrayLayers - r.baseArrayLayer : r.layerCount;
    for (uint32_t l = 0; l < levels; ++l) decoded->written(r.baseMipLevel + l, r.baseArrayLayer, layers);
  }
};

// Gives a bound image its decoded copy where decoded_texture.h allows one (a BC1 image that only
// transfers can write, not in external memory) and the device's budget is not zero.
void attachDecodedTexture(Image& image, DecodedTextureBudget& budget);

// Computes the layout (levels, planes, size) of an image from its create parameters.
void computeImageLayout(Image& image);

struct BufferView {
  Buffer* buffer;
  VkFormat format;
  VkDeviceSize offset;
  VkDeviceSize range;  // VK_WHOLE_SIZE resolved
  // What a texel buffer descriptor of this view holds (the buffer is bound before its views
  // are created, so the address is known here).
  abi::TexelBufferDescriptor descriptor;
};

struct ImageView {
  Image* image;
  VkImageViewType viewType;
  VkFormat format;
  VkComponentMapping components;
  VkImageSubresourceRange range;  // VK_REMAINING_* resolved
  // What image instructions read through descriptors of this view (the image's memory is
  // bound before its views are created).
  abi::ImageViewState state;
  // The view of the image's decoded copy (state.decoded), for a view of the image's own format.
  std::unique_ptr<DecodedView> decoded;
  // A view created with a sampler Y'CbCr conversion: the conversion's create info and what
  // sampling reads of it and of the planes (state.ycbcr points here).
  bool hasConversion = false;
  VkSamplerYcbcrConversionCreateInfo conversion{};
  abi::YcbcrSamplingState ycbcr{};
};

// Fills view.state from the other members and the image's layout and memory.
void computeImageViewState(ImageView& view);

}  // namespace tessera
