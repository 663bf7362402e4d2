// Clear rate: 32 rendering instances (vkCmdBeginRendering with LOAD_OP_CLEAR, nothing drawn,
// STORE) on a 1920x1080 RGBA8 target, each with another colour and a barrier between them (they
// write the same image). Reported in Gpixels/s; limit: memset bandwidth at 4 bytes per pixel.
// The image ends with the last clear colour (exact on every driver).
#include <optional>
#include <vector>

#include "graphics.h"
#include "workload.h"

namespace bench {
namespace {

class ClearOnly : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    clears_ = uint32_t(p.size);
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::vector<VkClearColorValue> colors;
    for (uint32_t i = 0; i < clears_; ++i) colors.push_back(clearColorOf(colorOf(i)));
    recordTimed(d, [&](VkCommandBuffer cb) {
      for (uint32_t i = 0; i < clears_; ++i) {
        if (i) attachmentBarrier(d, cb);
        beginRendering(d, cb, target_, &colors[i]);
        endRendering(d, cb);
      }
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size};
    o.cpuCheck = checkUniform(readback_, kScreenWidth, kScreenHeight, colorOf(clears_ - 1), 0);
    return o;
  }

  Work work() const override {
    const double pixels = double(clears_) * kScreenWidth * kScreenHeight;
    return {pixels, 0, pixels * 4, 0};
  }

 private:
  uint32_t clears_ = 0;
  RenderTarget target_;
  Buffer readback_;
};

}  // namespace

BENCH_REGISTER(ClearOnly, {.name = "clear_only",
                           .description = "32 render-pass clears (LOAD_OP_CLEAR, no draws), 1920x1080 RGBA8 "
                                          "(limit: memset)",
                           .metric = "Gpixels/s",
                           .scale = 1e-9,
                           .group = "graphics",
                           .defaultSize = 32,
                           .sizeUnit = "clears (1920x1080)",
                           .scalingSizes = {1, 8, 32, 128}});

}  // namespace bench
