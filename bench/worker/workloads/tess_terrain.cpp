// Tessellation throughput (issue 18): a terrain of 62 x 36 square patches of 32 px (4 control
// points each, from gl_VertexIndex), every edge and the interior tessellated at level 16 (512
// triangles of 2 px^2 a patch, 1.14M triangles a frame), heights from a sum of waves in the
// evaluation shader lifting each vertex on screen (a 2.5D view from above) and colouring it,
// D32 depth LESS, one draw per row of patches. Reported in Mtri/s (tessellated triangles); no
// roofline limit. (One draw of all 8,928 control points takes lavapipe 22.3 about 15 s and it
// leaves most patches out; a row a draw it renders them all, as a terrain renderer would draw
// its tiles.)
//
// The patches reach one patch past every side of the 1920x1080 target, so the terrain's
// displaced border never shows and every pixel is covered whatever a driver's rounding. Rows
// stay in order on screen (relief x |dh/dy| < 1), so no triangle hides another, and the colour
// is a smooth function of the ground position: drivers agree within 2 units per byte (the
// shaders' sin, interpolation over 2 px triangles), and so does the CPU's evaluation of that
// function at each pixel's ground position (found by fixed-point iteration).
#include <cmath>
#include <optional>

#include "graphics.h"
#include "shaders/smooth_color_frag.h"
#include "shaders/terrain_tesc.h"
#include "shaders/terrain_tese.h"
#include "shaders/terrain_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr float kPatchSize = 32, kLevel = 16, kRelief = 16;
constexpr uint32_t kPatchesX = 62, kPatchesY = 36;

struct Push {
  float origin[2];
  float patchSize;
  uint32_t patchesX;
  float level;
  float relief;
};

// terrain.tese's height at a ground position, in double.
double wave(double t) {
  const double s = 2 * (t - std::floor(t)) - 1;
  return 4 * s * (1 - std::fabs(s));
}
double height(double x, double y) {
  return 0.5 + 0.25 * wave(x / 512.0) * wave(y / 384.0 + 0.25) + 0.125 * wave((x + y) / 640.0);
}

class TessTerrain : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    level_ = p.size ? float(p.size) : kLevel;
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight, VK_SAMPLE_COUNT_1_BIT, true);
    program_.emplace(d, terrain_vert_spv, sizeof terrain_vert_spv,
                     std::initializer_list<GraphicsProgram::Stage>{
                         {VK_SHADER_STAGE_TESSELLATION_CONTROL_BIT, terrain_tesc_spv, sizeof terrain_tesc_spv},
                         {VK_SHADER_STAGE_TESSELLATION_EVALUATION_BIT, terrain_tese_spv, sizeof terrain_tese_spv}},
                     smooth_color_frag_spv, sizeof smooth_color_frag_spv, uint32_t(sizeof(Push)));
    PipelineState state;
    state.topology = VK_PRIMITIVE_TOPOLOGY_PATCH_LIST;
    state.patchControlPoints = 4;
    state.depth = true;
    VkPipeline pipeline = program_->pipeline(state);
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    const Push push{{-kPatchSize, -kPatchSize}, kPatchSize, kPatchesX, level_, kRelief};
    const VkClearColorValue clear = clearColorOf(0xFF000000u);
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      program_->push(cb, &push);
      for (uint32_t row = 0; row < kPatchesY; ++row) d.vk.CmdDraw(cb, kPatchesX * 4, 1, row * kPatchesX * 4, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size, "u8:2"};
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) {
          // The ground position shown at the pixel centre: screen y = ground y - relief (h - 1/2),
          // a contraction in ground y (relief |dh/dy| < 0.1).
          const double sx = x + 0.5, sy = y + 0.5;
          double gy = sy;
          for (int k = 0; k < 12; ++k) gy = sy + kRelief * (height(sx, gy) - 0.5);
          const double h = height(sx, gy);
          const double rgba[4] = {h, 1 - h, 0.25 + 0.5 * h * h, 1.0};
          return 255.0 * rgba[c];
        },
        2.0, 7);
    return o;
  }

  Work work() const override { return {double(kPatchesX) * kPatchesY * 2 * level_ * level_, 0, 0, 0}; }

 private:
  float level_ = kLevel;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  Buffer readback_;
};

}  // namespace

BENCH_REGISTER(TessTerrain, {.name = "tess_terrain",
                             .description = "62x36 quad patches tessellated at level 16 (1.14M triangles), "
                                            "heights and colours in the evaluation shader, D32 depth",
                             .metric = "Mtri/s",
                             .scale = 1e-6,
                             .group = "graphics",
                             .defaultSize = 16,
                             .sizeUnit = "tessellation level",
                             .scalingSizes = {4, 8, 16, 32}});

}  // namespace bench
