// Helpers for the image workloads: square RGBA8 images in optimal tiling, uploaded from and
// read back into tightly packed host buffers (neither is timed).
#pragma once

#include "device.h"

namespace bench {

constexpr VkFormat kImageFormat = VK_FORMAT_R8G8B8A8_UNORM;
constexpr uint32_t kTexelBytes = 4;

// A single-level 2D RGBA8 image, optimal tiling, usage TRANSFER_SRC|DST (and `extraUsage`), in
// layout UNDEFINED.
Image createColorImage(Device& d, uint32_t width, uint32_t height, VkImageUsageFlags extraUsage = 0);

// Copies `from` (tightly packed, width*height texels) into the image and leaves it in `layout`.
void uploadImage(Device& d, const Image& image, const Buffer& from, VkImageLayout layout);

// Copies the image (in layout `current`) into `to` (tightly packed) and returns it to `current`.
void readbackImage(Device& d, const Image& image, const Buffer& to, VkImageLayout current);

VkBufferImageCopy wholeImageRegion(const Image& image);

}  // namespace bench
