// image_load_store: a compute shader that reads every texel of a 2048x2048 RGBA8 storage image
// (imageLoad) and writes its complement to another (imageStore), the pattern of image filters
// run in compute (issue 17's "compute shader doing image load/store"). Limit: memory bandwidth
// for one read and one write of each texel. The CPU checks every byte: 255 - the source's.
#include <optional>
#include <string>

#include "compute.h"
#include "images.h"
#include "shaders/image_load_store.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kGroupSide = 16;  // the shader's local size in x and y

// The source's bytes: a hash of (x, y, component), every value 0-255 about equally often.
uint8_t sourceByte(uint32_t x, uint32_t y, uint32_t c) {
  uint32_t h = x * 0x9E3779B1u ^ y * 0x85EBCA77u ^ c * 0xC2B2AE3Du;
  h ^= h >> 15;
  h *= 0x2C1B3C6Du;
  return uint8_t(h >> 24);
}

class ImageLoadStore : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    side_ = uint32_t(p.size) / kGroupSide * kGroupSide;
    if (side_ == 0) throw Unsupported("the image side must be at least 16");
    d.require(kComputeCommands);
    d.require({"vkCreateImageView"});
    d.requireFormatFeatures(kImageFormat, VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_TRANSFER_SRC_BIT |
                                              VK_FORMAT_FEATURE_TRANSFER_DST_BIT);
    source_ = createColorImage(d, side_, side_, VK_IMAGE_USAGE_STORAGE_BIT);
    destination_ = createColorImage(d, side_, side_, VK_IMAGE_USAGE_STORAGE_BIT);

    const uint64_t bytes = uint64_t(side_) * side_ * kTexelBytes;
    Buffer staging = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    uint8_t* texels = staging.as<uint8_t>();
    for (uint32_t y = 0; y < side_; ++y)
      for (uint32_t x = 0; x < side_; ++x)
        for (uint32_t c = 0; c < 4; ++c) texels[(uint64_t(y) * side_ + x) * 4 + c] = sourceByte(x, y, c);
    uploadImage(d, source_, staging, VK_IMAGE_LAYOUT_GENERAL);
    d.oneShot([&](VkCommandBuffer cb) {
      d.imageLayout(cb, destination_.image, VK_IMAGE_LAYOUT_UNDEFINED, VK_IMAGE_LAYOUT_GENERAL);
    });

    kernel_.emplace(d, image_load_store_spv, sizeof image_load_store_spv,
                    std::vector<VkDescriptorType>{VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE}, 0);
    const VkPipeline pipeline = kernel_->pipeline();
    const VkDescriptorSet set = kernel_->imageSet({createView(d, source_), createView(d, destination_)});
    readback_ = d.createBuffer(bytes, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    recordTimed(d, [&](VkCommandBuffer cb) {
      kernel_->dispatch(cb, pipeline, set, nullptr, side_ / kGroupSide, side_ / kGroupSide);
    });
  }

  Output finish(Device& d) override {
    readbackImage(d, destination_, readback_, VK_IMAGE_LAYOUT_GENERAL);
    Output o{readback_.mapped, readback_.size};
    const uint8_t* out = readback_.as<const uint8_t>();
    for (uint32_t y = 0; y < side_ && o.cpuCheck.empty(); ++y)
      for (uint32_t x = 0; x < side_ && o.cpuCheck.empty(); ++x)
        for (uint32_t c = 0; c < 4; ++c) {
          const uint32_t got = out[(uint64_t(y) * side_ + x) * 4 + c], want = 255u - sourceByte(x, y, c);
          if (got != want) {
            o.cpuCheck = "texel (" + std::to_string(x) + ", " + std::to_string(y) + ") component " + std::to_string(c) +
                         ": " + std::to_string(got) + ", expected " + std::to_string(want);
            break;
          }
        }
    return o;
  }

  Work work() const override {
    const double texels = double(side_) * side_;
    return {texels, texels * 4, texels * 4, texels * 4};
  }

 private:
  // The image's view for the storage-image descriptor, destroyed with the device.
  static VkImageView createView(Device& d, const Image& image) {
    VkImageViewCreateInfo vci{VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO};
    vci.image = image.image;
    vci.viewType = VK_IMAGE_VIEW_TYPE_2D;
    vci.format = kImageFormat;
    vci.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView view = VK_NULL_HANDLE;
    auto& vk = d.vk;
    VkDevice dev = d.device;
    BENCH_VK(vk.CreateImageView(dev, &vci, nullptr, &view));
    d.onDestroy([&vk, dev, view] { vk.DestroyImageView(dev, view, nullptr); });
    return view;
  }

  uint32_t side_ = 0;
  Image source_, destination_;
  std::optional<ComputeKernel> kernel_;
  Buffer readback_;
};

}  // namespace

BENCH_REGISTER(ImageLoadStore,
               {.name = "image_load_store",
                .description = "compute imageLoad + imageStore of every texel, 2048x2048 RGBA8 (limit: memory bandwidth)",
                .metric = "Mtexels/s",
                .scale = 1e-6,
                .group = "compute",
                .defaultSize = 2048,
                .sizeUnit = "image side in texels",
                .scalingSizes = {512, 1024, 2048, 4096}});

}  // namespace bench
