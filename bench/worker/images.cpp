#include "images.h"

namespace bench {

Image createColorImage(Device& d, uint32_t width, uint32_t height, VkImageUsageFlags extraUsage) {
  d.require({"vkCmdCopyBufferToImage", "vkCmdCopyImageToBuffer"});
  VkImageCreateInfo ici{VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO};
  ici.imageType = VK_IMAGE_TYPE_2D;
  ici.format = kImageFormat;
  ici.extent = {width, height, 1};
  ici.mipLevels = 1;
  ici.arrayLayers = 1;
  ici.samples = VK_SAMPLE_COUNT_1_BIT;
  ici.tiling = VK_IMAGE_TILING_OPTIMAL;
  ici.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT | extraUsage;
  ici.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  return d.createImage(ici);
}

VkBufferImageCopy wholeImageRegion(const Image& image) {
  VkBufferImageCopy r{};
  r.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  r.imageExtent = image.extent;
  return r;
}

void uploadImage(Device& d, const Image& image, const Buffer& from, VkImageLayout layout) {
  d.oneShot([&](VkCommandBuffer cb) {
    d.imageLayout(cb, image.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    VkBufferImageCopy r = wholeImageRegion(image);
    d.vk.CmdCopyBufferToImage(cb, from.buffer, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    if (layout != VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL)
      d.imageLayout(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, layout);
  });
}

void readbackImage(Device& d, const Image& image, const Buffer& to, VkImageLayout current) {
  d.oneShot([&](VkCommandBuffer cb) {
    if (current != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
      d.imageLayout(cb, image.image, current, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    VkBufferImageCopy r = wholeImageRegion(image);
    d.vk.CmdCopyImageToBuffer(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, to.buffer, 1, &r);
    if (current != VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL)
      d.imageLayout(cb, image.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, current);
  });
}

}  // namespace bench
