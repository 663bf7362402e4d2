// vkCmdCopyImage between two 4096x4096 RGBA8 optimal-tiling images (limit: memcpy).
#include <cstring>

#include "images.h"
#include "workload.h"

namespace bench {
namespace {

class ImageCopy : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    d.require({"vkCmdCopyImage"});
    edge_ = uint32_t(p.size);
    bytes_ = uint64_t(edge_) * edge_ * kTexelBytes;
    src_ = createColorImage(d, edge_, edge_);
    dst_ = createColorImage(d, edge_, edge_);
    input_ = d.createBuffer(bytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    output_ = d.createBuffer(bytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    fillPattern(input_.mapped, bytes_, 2);
    std::memset(output_.mapped, 0, bytes_);
    uploadImage(d, src_, input_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    uploadImage(d, dst_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);  // zeroes, commits memory
    recordTimed(d, [&](VkCommandBuffer cb) {
      VkImageCopy r{};
      r.srcSubresource = r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      r.extent = {edge_, edge_, 1};
      d.vk.CmdCopyImage(cb, src_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst_.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r);
    });
  }

  Output finish(Device& d) override {
    readbackImage(d, dst_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    Output o{output_.mapped, bytes_};
    if (std::memcmp(output_.mapped, input_.mapped, bytes_) != 0) o.cpuCheck = "copied image differs from source";
    return o;
  }

  Work work() const override { return {double(bytes_), double(bytes_), double(bytes_), 0}; }

 private:
  uint32_t edge_ = 0;
  uint64_t bytes_ = 0;
  Image src_, dst_;
  Buffer input_, output_;
};

}  // namespace

BENCH_REGISTER(ImageCopy, {.name = "image_copy",
                           .description = "vkCmdCopyImage, 4096x4096 RGBA8 optimal tiling (limit: memcpy)",
                           .metric = "GB/s copied",
                           .scale = 1e-9,
                           .group = "transfer",
                           .defaultSize = 4096,
                           .sizeUnit = "edge (px, RGBA8)",
                           .scalingSizes = {512, 1024, 2048, 4096}});

}  // namespace bench
