// Vertex throughput: a 1024x1024-vertex grid (1M vertices, 2M triangles, one indexed draw,
// 32-bit indices) transformed by a 4x4 matrix in the vertex shader (bench/shaders/mesh.vert),
// small on screen: vertices 1/4 pixel apart, so the mesh covers 256x256 pixels of the
// 1920x1080 RGBA8 target and most triangles cover no sample. Reported in Mverts/s (unique
// vertices); no roofline limit.
//
// The matrix moves grid points to the 1/8-pixel grid with exact arithmetic and the mesh's
// border lies between pixel centres, so coverage is the same on every driver; the colour is a
// linear function of position (interpolated), so whichever triangle a driver picks for a sample
// on a shared edge gives the same colour. Drivers agree within 1 unit per byte (interpolation
// rounding), and so does the CPU's evaluation of that linear function.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/mesh_vert.h"
#include "shaders/smooth_color_frag.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kClearRgba = 0xFF000000u;
constexpr float kSpacing = 0.25f;  // pixels between grid points

struct Push {
  float transform[16];  // column-major
  float colorScale[2];
};

class VertexHeavy : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    n_ = std::max<uint32_t>(2, uint32_t(std::lround(std::sqrt(double(p.size)))));
    const float extent = kSpacing * float(n_ - 1);
    if (extent + 2 > kScreenHeight) throw Failure("grid too large for the screen");
    // Origin on an odd multiple of 1/8 pixel: no vertex and no border edge on a pixel centre.
    originX_ = std::floor((kScreenWidth - extent) / 2) + 0.125f;
    originY_ = std::floor((kScreenHeight - extent) / 2) + 0.125f;

    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    program_.emplace(d, mesh_vert_spv, sizeof mesh_vert_spv, smooth_color_frag_spv, sizeof smooth_color_frag_spv,
                     sizeof(Push));
    PipelineState state;
    state.vertexStride = 8;
    state.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}};
    VkPipeline pipeline = program_->pipeline(state);

    vertices_ = d.createBuffer(uint64_t(n_) * n_ * 8, VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    float* v = vertices_.as<float>();
    for (uint32_t y = 0; y < n_; ++y)
      for (uint32_t x = 0; x < n_; ++x) {
        v[(uint64_t(y) * n_ + x) * 2] = float(x);
        v[(uint64_t(y) * n_ + x) * 2 + 1] = float(y);
      }
    indexCount_ = (n_ - 1) * (n_ - 1) * 6;
    indices_ = d.createBuffer(uint64_t(indexCount_) * 4, VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    uint32_t* idx = indices_.as<uint32_t>();
    for (uint32_t y = 0; y + 1 < n_; ++y)
      for (uint32_t x = 0; x + 1 < n_; ++x) {
        const uint32_t i = y * n_ + x;
        for (uint32_t k : {i, i + 1, i + n_, i + 1, i + n_ + 1, i + n_}) *idx++ = k;
      }
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    // NDC x = gx * spacing / 1024 + (originX / 1024 - 1): powers of two and dyadic offsets,
    // exact in float; z is a small exact slope in [0.25, 0.26], w = 1.
    Push push{};
    push.transform[0] = kSpacing / 1024.0f;
    push.transform[2] = 1.0f / (1 << 20);
    push.transform[5] = kSpacing / 1024.0f;
    push.transform[6] = 1.0f / (1 << 21);
    push.transform[12] = ndc(originX_);
    push.transform[13] = ndc(originY_);
    push.transform[14] = 0.25f;
    push.transform[15] = 1.0f;
    push.colorScale[0] = push.colorScale[1] = 1.0f / float(n_ - 1);
    const VkClearColorValue clear = clearColorOf(kClearRgba);
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      program_->push(cb, &push);
      VkDeviceSize offset = 0;
      d.vk.CmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
      d.vk.CmdBindIndexBuffer(cb, indices_.buffer, 0, VK_INDEX_TYPE_UINT32);
      d.vk.CmdDrawIndexed(cb, indexCount_, 1, 0, 0, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size, "u8:1"};
    const double extent = kSpacing * double(n_ - 1);
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) {
          const double gx = (x + 0.5 - originX_) / kSpacing, gy = (y + 0.5 - originY_) / kSpacing;
          const bool inside = gx > 0 && gy > 0 && gx * kSpacing < extent && gy * kSpacing < extent;
          if (!inside) return double((kClearRgba >> (8 * c)) & 0xFF);
          const double rgba[4] = {gx / (n_ - 1), gy / (n_ - 1), 0.75, 1.0};
          return 255.0 * rgba[c];
        },
        1.0);
    return o;
  }

  Work work() const override { return {double(n_) * n_, 0, 0, 0}; }

 private:
  uint32_t n_ = 0, indexCount_ = 0;
  float originX_ = 0, originY_ = 0;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  Buffer vertices_, indices_, readback_;
};

}  // namespace

BENCH_REGISTER(VertexHeavy, {.name = "vertex_heavy",
                             .description = "1024x1024-vertex indexed grid (2M triangles), mat4 transform, "
                                            "256x256 px on screen",
                             .metric = "Mverts/s",
                             .scale = 1e-6,
                             .group = "graphics",
                             .defaultSize = 1024 * 1024,
                             .sizeUnit = "vertices (square grid)",
                             .scalingSizes = {64 * 64, 256 * 256, 1024 * 1024, 2048 * 2048}});

}  // namespace bench
