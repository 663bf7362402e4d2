// Fragment-shader ALU throughput: one full-screen quad (1920x1080 RGBA8) whose fragment shader
// (bench/shaders/alu.frag) runs 256 FMAs per pixel (16 iterations of four vec4 FMAs) plus one
// sin and one exp per iteration. Reported in GFLOP/s counting 2 per FMA (the transcendentals
// are not counted); limit: the FMA peak.
//
// alu_fs_uniform:   the iteration count comes from a push constant (the same for every pixel).
// alu_fs_divergent: each pixel runs a pseudo-random count in [0, 2 x 16] (neighbours differ,
//                   so SIMD lanes diverge); the same work on average, counted exactly.
//
// The result depends on float rounding and on the drivers' sin/exp, but the iteration contracts
// (|m| < 1), so drivers agree within 1 unit per byte ("u8:1"); the CPU recomputes every 97th
// pixel with the same tolerance.
#include <algorithm>
#include <cmath>
#include <optional>

#include "graphics.h"
#include "shaders/alu_frag.h"
#include "shaders/rect_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kFmasPerIteration = 16;

struct Push {
  RectPush rect;
  uint32_t iterations;
  uint32_t divergent;
};

uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

template <bool kDivergent>
class AluFs : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    iterations_ = uint32_t(std::max<uint64_t>(1, p.size / kFmasPerIteration));
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    program_.emplace(d, rect_vert_spv, sizeof rect_vert_spv, alu_frag_spv, sizeof alu_frag_spv, sizeof(Push));
    VkPipeline pipeline = program_->pipeline({});
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    for (uint32_t y = 0; y < kScreenHeight; ++y)
      for (uint32_t x = 0; x < kScreenWidth; ++x) totalIterations_ += iterationsAt(x, y);

    const Push push{{0, 0, int32_t(kScreenWidth), int32_t(kScreenHeight)}, iterations_, kDivergent ? 1u : 0u};
    const VkClearColorValue clear{};
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      program_->push(cb, &push);
      d.vk.CmdDraw(cb, 6, 1, 0, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size, "u8:1"};
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) { return 255.0 * shade(x, y, c); }, 1.0, 97);
    return o;
  }

  Work work() const override {
    const double flops = 2.0 * kFmasPerIteration * double(totalIterations_);
    return {flops, 0, 0, flops};
  }

 private:
  uint32_t iterationsAt(uint32_t x, uint32_t y) const {
    return kDivergent ? mix32(x | (y << 16)) % (2 * iterations_ + 1) : iterations_;
  }

  // alu.frag for pixel (x, y), channel c, in float as the shader computes it.
  float shade(uint32_t x, uint32_t y, uint32_t c) const {
    const float u = float(x) / 2048.0f, v = float(y) / 1024.0f;
    const float uv[4] = {u, v, v, u};
    const float weights[4] = {0.75f, 0.5f, 0.25f, 0.625f};
    float m[4], k[4], a[4], b[4], cc[4], dd[4];
    const float a0[4] = {u, v, 1.0f - u, 1.0f - v};
    for (int i = 0; i < 4; ++i) {
      m[i] = 0.875f - 0.125f * uv[i];
      k[i] = (1.0f - m[i]) * weights[i];
      a[i] = a0[i];
      b[i] = a0[(i + 1) % 4];
      cc[i] = a0[(i + 2) % 4];
      dd[i] = a0[(i + 3) % 4];
    }
    for (uint32_t n = iterationsAt(x, y), it = 0; it < n; ++it) {
      for (int i = 0; i < 4; ++i) {
        a[i] = std::fma(a[i], m[i], k[i]);
        b[i] = std::fma(b[i], m[i], k[(i + 1) % 4]);
        cc[i] = std::fma(cc[i], m[i], k[(i + 2) % 4]);
        dd[i] = std::fma(dd[i], m[i], k[(i + 3) % 4]);
      }
      a[0] += 0.0625f * std::sin(3.0f * dd[1]);
      cc[2] += 0.0625f * std::exp(-b[3]);
    }
    return std::clamp(0.25f * (a[c] + b[c] + cc[c] + dd[c]), 0.0f, 1.0f);
  }

  uint32_t iterations_ = 0;
  uint64_t totalIterations_ = 0;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  Buffer readback_;
};

WorkloadInfo aluInfo(const char* name, const char* description) {
  return {.name = name,
          .description = description,
          .metric = "GFLOP/s",
          .scale = 1e-9,
          .group = "graphics",
          .defaultSize = 256,
          .sizeUnit = "FMAs per pixel (multiple of 16)",
          .scalingSizes = {64, 256, 1024}};
}

using AluFsUniform = AluFs<false>;
using AluFsDivergent = AluFs<true>;

}  // namespace

BENCH_REGISTER(AluFsUniform, aluInfo("alu_fs_uniform", "full-screen fragment shader, 256 FMAs + sin/exp per pixel "
                                                       "(limit: FMA peak)"));
BENCH_REGISTER(AluFsDivergent, aluInfo("alu_fs_divergent", "the same with a per-pixel loop count (0-512 FMAs, "
                                                           "divergent; limit: FMA peak)"));

}  // namespace bench
