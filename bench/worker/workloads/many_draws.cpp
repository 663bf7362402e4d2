// Draw-call overhead: 10,000 small draws (a 16x16-pixel rectangle each, 6 vertices, no vertex
// buffer) in one rendering instance on a 1920x1080 RGBA8 target, with state changes on every
// draw: the pipeline alternates between two (different fragment shaders) and each draw pushes its
// own rectangle and colour. Reported in us/draw; no roofline limit. Rectangles are
// pixel-aligned and overlap their neighbours, so the image (checked on the CPU, compared
// exactly) also proves the draws ran in order.
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/rect_color_bgra_frag.h"
#include "shaders/rect_color_frag.h"
#include "shaders/rect_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kClearRgba = 0xFF000000u;
constexpr int32_t kEdge = 16, kStep = 12;
constexpr int32_t kColumns = (kScreenWidth - kEdge) / kStep + 1, kRows = (kScreenHeight - kEdge) / kStep + 1;

struct Push {
  RectPush rect;
  float color[4];
};

RectPush rectOf(uint32_t i) {
  const int32_t x = int32_t(i % kColumns) * kStep, y = int32_t((i / kColumns) % kRows) * kStep;
  return {x, y, x + kEdge, y + kEdge};
}

// Pipeline B writes the pushed colour with red and blue swapped.
uint32_t writtenColor(uint32_t i) {
  const uint32_t c = colorOf(i);
  if (!(i & 1)) return c;
  return (c & 0xFF00FF00u) | ((c >> 16) & 0xFFu) | ((c & 0xFFu) << 16);
}

class ManyDraws : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    count_ = uint32_t(p.size);
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    a_.emplace(d, rect_vert_spv, sizeof rect_vert_spv, rect_color_frag_spv, sizeof rect_color_frag_spv, sizeof(Push));
    b_.emplace(d, rect_vert_spv, sizeof rect_vert_spv, rect_color_bgra_frag_spv, sizeof rect_color_bgra_frag_spv,
               sizeof(Push));
    const VkPipeline pipelines[2] = {a_->pipeline({}), b_->pipeline({})};
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    std::vector<Push> pushes(count_);
    for (uint32_t i = 0; i < count_; ++i) {
      pushes[i].rect = rectOf(i);
      const VkClearColorValue c = clearColorOf(colorOf(i));
      for (int k = 0; k < 4; ++k) pushes[i].color[k] = c.float32[k];
    }
    const VkClearColorValue clear = clearColorOf(kClearRgba);
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      for (uint32_t i = 0; i < count_; ++i) {
        const GraphicsProgram& program = (i & 1) ? *b_ : *a_;
        d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipelines[i & 1]);
        program.push(cb, &pushes[i]);
        d.vk.CmdDraw(cb, 6, 1, 0, 0);
      }
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size};
    std::vector<uint32_t> want(uint64_t(kScreenWidth) * kScreenHeight, kClearRgba);
    for (uint32_t i = 0; i < count_; ++i) {
      const RectPush r = rectOf(i);
      for (int32_t y = r.y0; y < r.y1; ++y)
        for (int32_t x = r.x0; x < r.x1; ++x) want[uint64_t(y) * kScreenWidth + x] = writtenColor(i);
    }
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) { return double((want[uint64_t(y) * kScreenWidth + x] >> (8 * c)) & 0xFF); },
        0.0);
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  uint32_t count_ = 0;
  RenderTarget target_;
  std::optional<GraphicsProgram> a_, b_;
  Buffer readback_;
};

}  // namespace

BENCH_REGISTER(ManyDraws, {.name = "many_draws",
                           .description = "10,000 16x16-px draws, alternating 2 pipelines, push constants per draw",
                           .metric = "us/draw",
                           .scale = 1e6,
                           .rate = false,
                           .group = "graphics",
                           .defaultSize = 10000,
                           .sizeUnit = "draws",
                           .scalingSizes = {1000, 10000, 100000}});

}  // namespace bench
