// vkCmdCopyBufferToImage and vkCmdCopyImageToBuffer of a 4096x4096 RGBA8 optimal-tiling image
// (limit: memcpy). Two workloads that share their set-up.
#include <cstring>

#include "images.h"
#include "workload.h"

namespace bench {
namespace {

template <bool kToImage>
class BufferImageCopy : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    edge_ = uint32_t(p.size);
    bytes_ = uint64_t(edge_) * edge_ * kTexelBytes;
    image_ = createColorImage(d, edge_, edge_);
    input_ = d.createBuffer(bytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    output_ = d.createBuffer(bytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    fillPattern(input_.mapped, bytes_, 3);
    std::memset(output_.mapped, 0, bytes_);
    if (kToImage) {
      uploadImage(d, image_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);  // zeroes, commits memory
      recordTimed(d, [&](VkCommandBuffer cb) {
        VkBufferImageCopy r = wholeImageRegion(image_);
        d.vk.CmdCopyBufferToImage(cb, input_.buffer, image_.image, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
      });
    } else {
      uploadImage(d, image_, input_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
      recordTimed(d, [&](VkCommandBuffer cb) {
        VkBufferImageCopy r = wholeImageRegion(image_);
        d.vk.CmdCopyImageToBuffer(cb, image_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, output_.buffer, 1, &r);
      });
    }
  }

  Output finish(Device& d) override {
    if (kToImage) readbackImage(d, image_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    Output o{output_.mapped, bytes_};
    if (std::memcmp(output_.mapped, input_.mapped, bytes_) != 0) o.cpuCheck = "round trip differs from source";
    return o;
  }

  Work work() const override { return {double(bytes_), double(bytes_), double(bytes_), 0}; }

 private:
  uint32_t edge_ = 0;
  uint64_t bytes_ = 0;
  Image image_;
  Buffer input_, output_;
};

using BufferToImage = BufferImageCopy<true>;
using ImageToBuffer = BufferImageCopy<false>;

}  // namespace

BENCH_REGISTER(BufferToImage, {.name = "buffer_to_image",
                               .description = "vkCmdCopyBufferToImage, 4096x4096 RGBA8 optimal tiling (limit: memcpy)",
                               .metric = "GB/s copied",
                               .scale = 1e-9,
                               .group = "transfer",
                               .defaultSize = 4096,
                               .sizeUnit = "edge (px, RGBA8)",
                               .scalingSizes = {512, 1024, 2048, 4096}});
BENCH_REGISTER(ImageToBuffer, {.name = "image_to_buffer",
                               .description = "vkCmdCopyImageToBuffer, 4096x4096 RGBA8 optimal tiling (limit: memcpy)",
                               .metric = "GB/s copied",
                               .scale = 1e-9,
                               .group = "transfer",
                               .defaultSize = 4096,
                               .sizeUnit = "edge (px, RGBA8)",
                               .scalingSizes = {512, 1024, 2048, 4096}});

}  // namespace bench
