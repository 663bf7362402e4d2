#include "tessera/format.h"

namespace tessera {

int planeOfAspect(VkImageAspectFlagBits aspect) {
  switch (aspect) {
    case VK_IMAGE_ASPECT_PLANE_0_BIT: return 0;
    case VK_IMAGE_ASPECT_PLANE_1_BIT: return 1;
    case VK_IMAGE_ASPECT_PLANE_2_BIT: return 2;
    default: return -1;
  }
}

const FormatInfo& aspectFormat(const FormatInfo& info, VkImageAspectFlagBits aspect) {
  const int plane = planeOfAspect(aspect);
  if (plane < 0 || plane >= info.planeCount) return info;
  const FormatInfo* planeFormat = formatInfo(info.planes[plane].compatible);
  return planeFormat ? *planeFormat : info;
}

uint32_t aspectTexelSize(const FormatInfo& info, VkImageAspectFlagBits aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return 1;
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
    const FormatComponent* d = info.component('D');
    return d && d->bits == 16 ? 2 : 4;
  }
  return aspectFormat(info, aspect).blockSize;
}

}  // namespace tessera
