#include "tessera/format.h"

namespace tessera {

uint32_t aspectTexelSize(const FormatInfo& info, VkImageAspectFlagBits aspect) {
  if (aspect == VK_IMAGE_ASPECT_STENCIL_BIT) return 1;
  if (aspect == VK_IMAGE_ASPECT_DEPTH_BIT) {
    const FormatComponent* d = info.component('D');
    return d && d->bits == 16 ? 2 : 4;
  }
  return info.blockSize;
}

}  // namespace tessera
