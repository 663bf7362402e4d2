// Small-triangle throughput: 1M triangles of 2..16 pixels each, scattered over a 1920x1080
// RGBA8 target with a D32_SFLOAT depth buffer (test LESS, write on), in one draw from a vertex
// buffer; each triangle has its own flat colour and constant depth. Reported in Mtris/s; no
// roofline limit (set-up and coverage bound, not memory bound).
//
// tris_small_f2b: sorted front to back, so after the first layer most fragments fail the test.
// tris_small_b2f: the same triangles back to front: every fragment passes and is written.
// msaa4_tris:     tris_small_f2b at 4 samples per pixel (colour and depth), resolved.
// tris_occluded:  20k triangles of 256-8192 px front to back (about 20 layers deep): most of
//                 them lie wholly behind nearer ones, which a hierarchical Z test finds without
//                 rasterizing them.
//
// The triangles (graphics.cpp, smallTriangles) sit on the 1/16-pixel grid with no sample point
// on any edge and distinct exactly representable depths, so the image is the same on every
// correct driver: f2b and b2f give the same image, the CPU rasterizes it exactly, and drivers
// are compared bit for bit (4 samples: within 1 unit, the resolve's rounding of an average of 4
// is the driver's choice).
#include <cstring>
#include <optional>
#include <vector>

#include "graphics.h"
#include "shaders/flat_color_frag.h"
#include "shaders/flat_color_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kClearRgba = 0xFF000000u;
constexpr uint64_t kSeed = 12;

template <bool kFrontToBack, VkSampleCountFlagBits kSamples, TriangleSizes kSizes = TriangleSizes{}>
class TrisSmall : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    count_ = uint32_t(p.size);
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight, kSamples, true);
    program_.emplace(d, flat_color_vert_spv, sizeof flat_color_vert_spv, flat_color_frag_spv,
                     sizeof flat_color_frag_spv, 0);
    PipelineState state = colorVertexState();
    state.depth = true;
    state.samples = kSamples;
    VkPipeline pipeline = program_->pipeline(state);

    tris_ = smallTriangles(count_, kScreenWidth, kScreenHeight, kSamples, kSeed, kSizes);
    {
      std::vector<ColorVertex> v = smallTriangleVertices(tris_, kFrontToBack);
      vertices_ = d.createBuffer(v.size() * sizeof(ColorVertex), VK_BUFFER_USAGE_VERTEX_BUFFER_BIT);
      std::memcpy(vertices_.mapped, v.data(), v.size() * sizeof(ColorVertex));
    }
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);

    const VkClearColorValue clear = clearColorOf(kClearRgba);
    recordTimed(d, [&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
      VkDeviceSize offset = 0;
      d.vk.CmdBindVertexBuffers(cb, 0, 1, &vertices_.buffer, &offset);
      d.vk.CmdDraw(cb, count_ * 3, 1, 0, 0);
      endRendering(d, cb);
    });
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    const bool multi = kSamples != VK_SAMPLE_COUNT_1_BIT;
    Output o{readback_.mapped, readback_.size, multi ? "u8:1" : "exact"};
    const std::vector<uint16_t> sums = smallTriangleReference(tris_, kScreenWidth, kScreenHeight, kSamples, kClearRgba);
    const double samples = double(kSamples);
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) { return sums[(uint64_t(y) * kScreenWidth + x) * 4 + c] / samples; },
        multi ? 1.0 : 0.0);
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  uint32_t count_ = 0;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  std::vector<SmallTriangle> tris_;
  Buffer vertices_, readback_;
};

using TrisSmallF2B = TrisSmall<true, VK_SAMPLE_COUNT_1_BIT>;
using TrisSmallB2F = TrisSmall<false, VK_SAMPLE_COUNT_1_BIT>;
using Msaa4Tris = TrisSmall<true, VK_SAMPLE_COUNT_4_BIT>;
using TrisOccluded = TrisSmall<true, VK_SAMPLE_COUNT_1_BIT, TriangleSizes{.reach = 64, .minArea = 256, .maxArea = 8192}>;

WorkloadInfo trisInfo(const char* name, const char* description, uint64_t triangles = 1000000) {
  return {.name = name,
          .description = description,
          .metric = "Mtris/s",
          .scale = 1e-6,
          .group = "graphics",
          .defaultSize = triangles,
          .sizeUnit = "triangles",
          .scalingSizes = {triangles / 100, triangles / 10, triangles}};
}

}  // namespace

BENCH_REGISTER(TrisSmallF2B, trisInfo("tris_small_f2b", "1M triangles of 2-16 px, D32 depth LESS, front to back"));
BENCH_REGISTER(TrisSmallB2F, trisInfo("tris_small_b2f", "the same 1M triangles back to front (every fragment passes)"));
BENCH_REGISTER(Msaa4Tris, trisInfo("msaa4_tris", "tris_small_f2b at 4 samples per pixel, resolved to 1 sample"));
BENCH_REGISTER(TrisOccluded, trisInfo("tris_occluded", "20k triangles of 256-8192 px, D32 depth LESS, front to back (~20 layers)", 20000));

}  // namespace bench
