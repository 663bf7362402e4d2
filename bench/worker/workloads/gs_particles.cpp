// Geometry-shader throughput (issue 18): 262,144 particles, each a point (centre and RGBA8
// colour in a vertex buffer) that the geometry shader expands into a 4x4 px square (a
// four-vertex triangle strip), blended additively (ONE, ONE) into the 1920x1080 target:
// 4.2M fragments, about twice the screen. Reported in Mparticles/s; no roofline limit.
//
// Centres lie on odd multiples of 1/8 pixel, so no square's side passes through a pixel
// centre and every square covers exactly 16 pixels on every driver; the colour bytes are
// small integers and additive UNORM8 blending of them is exact (saturating at 255), so the
// image is the same on every driver, bit for bit, whatever order the blending runs in, and
// equals the CPU's sums.
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/flat_color_frag.h"
#include "shaders/particles_geom.h"
#include "shaders/particles_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr float kHalfSize = 2;  // pixels
constexpr uint32_t kClearRgba = 0xFF000000u;

struct Particle {
  float x, y;     // centre, pixels
  uint32_t rgba;  // R in the low byte
};

class GsParticles : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    count_ = p.size ? uint32_t(p.size) : 262144;
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    program_.emplace(d, particles_vert_spv, sizeof particles_vert_spv,
                     std::initializer_list<GraphicsProgram::Stage>{
                         {VK_SHADER_STAGE_GEOMETRY_BIT, particles_geom_spv, sizeof particles_geom_spv}},
                     flat_color_frag_spv, sizeof flat_color_frag_spv, uint32_t(sizeof(float)));
    PipelineState state;
    state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
    state.vertexStride = sizeof(Particle);
    state.attributes = {{0, 0, VK_FORMAT_R32G32_SFLOAT, 0}, {1, 0, VK_FORMAT_R8G8B8A8_UNORM, 8}};
    state.additive = true;
    VkPipeline pipeline = program_->pipeline(state);

    particles_.resize(count_);
    Rng rng(18);
    for (Particle& q : particles_) {
      // Whole squares on screen: centres in [4, width - 4) x [4, height - 4), at k + 1/8 + j/4
      // (an odd multiple of 1/8).
      q.x = 4.0f + float(rng.range(0, (kScreenWidth - 8) * 4 - 1)) * 0.25f + 0.125f;
      q.y = 4.0f + float(rng.range(0, (kScreenHeight - 8) * 4 - 1)) * 0.25f + 0.125f;
      q.rgba = uint32_t(rng.range(0, 0x0F)) | uint32_t(rng.range(0, 0x1F)) << 8 | uint32_t(rng.range(0, 0x3F)) << 16 | 0x10u << 24;
    }
    vertices_ = d.createBuffer(uint64_t(count_) * sizeof(Particle), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
    std::copy(particles_.begin(), particles_.end(), vertices_.as<Particle>());
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    const float halfSize = kHalfSize;
    const VkClearColorValue clear = clearColorOf(kClearRgba);
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      program_->push(cb, &halfSize);
      VkDeviceSize offset = 0;
      d.vk.CmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
      d.vk.CmdDraw(cb, count_, 1, 0, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size, "exact"};
    // Each square covers the 4x4 pixels whose centres lie inside it; bytes add, saturating.
    std::vector<uint8_t> expected(size_t(kScreenWidth) * kScreenHeight * 4);
    for (size_t i = 0; i < expected.size(); ++i) expected[i] = uint8_t(kClearRgba >> (8 * (i % 4)));
    for (const Particle& q : particles_) {
      const int x0 = int(std::ceil(q.x - kHalfSize - 0.5f)), y0 = int(std::ceil(q.y - kHalfSize - 0.5f));
      for (int y = y0; y < y0 + 4; ++y)
        for (int x = x0; x < x0 + 4; ++x)
          for (int c = 0; c < 4; ++c) {
            uint8_t& v = expected[(size_t(y) * kScreenWidth + x) * 4 + c];
            v = uint8_t(std::min(255u, v + ((q.rgba >> (8 * c)) & 0xFF)));
          }
    }
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) { return double(expected[(size_t(y) * kScreenWidth + x) * 4 + c]); }, 0.0);
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  uint32_t count_ = 0;
  std::vector<Particle> particles_;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  Buffer vertices_, readback_;
};

}  // namespace

BENCH_REGISTER(GsParticles, {.name = "gs_particles",
                             .description = "262,144 points expanded to 4x4 px squares by a geometry shader, "
                                            "additive blending (4.2M fragments)",
                             .metric = "Mparticles/s",
                             .scale = 1e-6,
                             .group = "graphics",
                             .defaultSize = 262144,
                             .sizeUnit = "particles",
                             .scalingSizes = {16384, 65536, 262144, 1048576}});

}  // namespace bench
