// vkCmdBlitImage with a linear filter, 4096x4096 -> 2048x2048 RGBA8 (a mip-level step; limit:
// memcpy of the bytes read and written). Filtering may round differently between drivers, so
// outputs are compared within one unit of the last place per byte.
#include <cstdlib>
#include <cstring>
#include <string>

#include "images.h"
#include "workload.h"

namespace bench {
namespace {

class ImageBlit : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    d.require({"vkCmdBlitImage"});
    d.requireFormatFeatures(kImageFormat, VK_FORMAT_FEATURE_BLIT_SRC_BIT | VK_FORMAT_FEATURE_BLIT_DST_BIT |
                                              VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
    edge_ = uint32_t(p.size);
    srcBytes_ = uint64_t(edge_) * edge_ * kTexelBytes;
    dstBytes_ = srcBytes_ / 4;
    src_ = createColorImage(d, edge_, edge_);
    dst_ = createColorImage(d, edge_ / 2, edge_ / 2);
    input_ = d.createBuffer(srcBytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    output_ = d.createBuffer(dstBytes_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    fillPattern(input_.mapped, srcBytes_, 4);
    std::memset(output_.mapped, 0, dstBytes_);
    uploadImage(d, src_, input_, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL);
    uploadImage(d, dst_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    recordTimed(d, [&](VkCommandBuffer cb) {
      VkImageBlit r{};
      r.srcSubresource = r.dstSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
      r.srcOffsets[1] = {int32_t(edge_), int32_t(edge_), 1};
      r.dstOffsets[1] = {int32_t(edge_ / 2), int32_t(edge_ / 2), 1};
      d.vk.CmdBlitImage(cb, src_.image, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, dst_.image,
                        VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL, 1, &r, VK_FILTER_LINEAR);
    });
  }

  Output finish(Device& d) override {
    readbackImage(d, dst_, output_, VK_IMAGE_LAYOUT_TRANSFER_DST_OPTIMAL);
    Output o{output_.mapped, dstBytes_, "u8:1"};
    // Each destination texel centre lies exactly between four source texels: their average.
    const auto* in = input_.as<const uint8_t>();
    const auto* out = output_.as<const uint8_t>();
    const uint32_t half = edge_ / 2;
    for (uint32_t y = 0; y < half && o.cpuCheck.empty(); ++y)
      for (uint32_t x = 0; x < half; ++x)
        for (uint32_t c = 0; c < 4; ++c) {
          auto at = [&](uint32_t sx, uint32_t sy) { return int(in[(uint64_t(sy) * edge_ + sx) * 4 + c]); };
          double avg = (at(2 * x, 2 * y) + at(2 * x + 1, 2 * y) + at(2 * x, 2 * y + 1) + at(2 * x + 1, 2 * y + 1)) / 4.0;
          int got = out[(uint64_t(y) * half + x) * 4 + c];
          if (std::abs(got - avg) > 1.0) {
            o.cpuCheck = "texel (" + std::to_string(x) + "," + std::to_string(y) + ") channel " + std::to_string(c) +
                         " is " + std::to_string(got) + ", expected " + std::to_string(avg);
            break;
          }
        }
    return o;
  }

  Work work() const override { return {double(srcBytes_), double(srcBytes_), double(dstBytes_), 0}; }

 private:
  uint32_t edge_ = 0;
  uint64_t srcBytes_ = 0, dstBytes_ = 0;
  Image src_, dst_;
  Buffer input_, output_;
};

}  // namespace

BENCH_REGISTER(ImageBlit, {.name = "image_blit",
                           .description = "vkCmdBlitImage, linear 2:1 downscale 4096^2 -> 2048^2 RGBA8 (limit: memcpy)",
                           .metric = "GB/s source",
                           .scale = 1e-9,
                           .group = "transfer",
                           .defaultSize = 4096,
                           .sizeUnit = "source edge (px, RGBA8)",
                           .scalingSizes = {512, 1024, 2048, 4096}});

}  // namespace bench
