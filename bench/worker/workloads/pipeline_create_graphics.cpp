// Graphics pipeline-creation latency: 200 distinct graphics pipelines (rect.vert with
// bench/shaders/pipeline_variant.frag, both stages specialized with a value per pipeline), each
// measured as vkCreateGraphicsPipelines + recording, submitting and waiting for its first draw
// (a 16x16-pixel rectangle of its own in a 1920x1080 RGBA8 target, rendered with LOAD_OP_LOAD
// over just that rectangle). Reported per pipeline; no roofline limit. Mirrors the compute
// pipeline_create_* workloads (pipeline_create.cpp):
//
// pipeline_create_graphics_cold: no VkPipelineCache, and every repetition uses variants never
//   compiled before in the process; bench/run also turns drivers' disk caches off and gives each
//   process an empty HOME and XDG_CACHE_HOME.
// pipeline_create_graphics_warm: set-up compiles the variants once (or loads the data a previous
//   process saved under --cache-dir) and keeps vkGetPipelineCacheData; every repetition creates
//   a new VkPipelineCache from that data, as an application's next start would, with the
//   drivers' disk caches on.
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "graphics.h"
#include "shaders/pipeline_variant_frag.h"
#include "shaders/rect_vert.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kFirstVariant = 1000;
constexpr int32_t kSlot = 16;
constexpr uint32_t kColumns = kScreenWidth / kSlot, kRows = kScreenHeight / kSlot;
constexpr uint32_t kClearRgba = 0xFF000000u;

uint32_t mix32(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352du;
  x ^= x >> 15;
  x *= 0x846ca68bu;
  x ^= x >> 16;
  return x;
}

// pipeline_variant.frag for a pixel at (lx, ly) within its slot.
uint32_t referenceVariant(uint32_t variant, uint32_t lx, uint32_t ly) {
  uint32_t v = mix32((lx | (ly << 4)) ^ (variant * 0x9e3779b9u));
  for (uint32_t i = 0; i < 4u + variant % 5u; ++i) {
    v = mix32(v + i * 0x632be5abu);
    if ((v & 3u) == (variant & 3u))
      v ^= v << 7;
    else
      v += variant;
  }
  return v | 0xFF000000u;
}

RectPush slotRect(uint32_t slot) {
  const int32_t x = int32_t(slot % kColumns) * kSlot, y = int32_t(slot / kColumns) * kSlot;
  return {x, y, x + kSlot, y + kSlot};
}

template <bool kWarm>
class PipelineCreateGraphics : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    count_ = uint32_t(p.size);
    if (count_ > kColumns * kRows) throw Failure("more pipelines than 16x16 slots on the screen");
    if (kWarm) d.require({"vkCreatePipelineCache", "vkDestroyPipelineCache", "vkGetPipelineCacheData"});
    d.require({"vkResetCommandBuffer"});
    target_ = createRenderTarget(d, kScreenWidth, kScreenHeight);
    program_.emplace(d, rect_vert_spv, sizeof rect_vert_spv, pipeline_variant_frag_spv,
                     sizeof pipeline_variant_frag_spv, sizeof(RectPush));
    readback_ = d.createBuffer(uint64_t(kScreenWidth) * kScreenHeight * 4, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    const VkClearColorValue clear = clearColorOf(kClearRgba);
    d.oneShot([&](VkCommandBuffer cb) {
      beginRendering(d, cb, target_, &clear);
      endRendering(d, cb);
    });
    cb_ = d.allocateCommandBuffer();
    lastVariant_.assign(count_, 0);
    if (kWarm) prime(d, p.cacheDir);
  }

  Sample run(Device& d, int index) override {
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (kWarm) cache = newCache(d);
    std::vector<VkPipeline> pipelines;
    Sample s;
    auto t0 = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < count_; ++i) pipelines.push_back(createAndDraw(d, i, variant(index, i), cache));
    s.wallSeconds = secondsSince(t0);
    for (VkPipeline pl : pipelines) d.vk.DestroyPipeline(d.device, pl, nullptr);
    if (cache) d.vk.DestroyPipelineCache(d.device, cache, nullptr);
    return s;
  }

  Output finish(Device& d) override {
    readbackColor(d, target_, readback_);
    Output o{readback_.mapped, readback_.size};
    o.cpuCheck = checkImage(
        readback_, kScreenWidth, kScreenHeight,
        [&](uint32_t x, uint32_t y, uint32_t c) {
          const uint32_t slot = (y / kSlot) * kColumns + x / kSlot;
          const uint32_t rgba = slot < count_ ? referenceVariant(lastVariant_[slot], x % kSlot, y % kSlot) : kClearRgba;
          return double((rgba >> (8 * c)) & 0xFF);
        },
        0.0);
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  uint32_t variant(int index, uint32_t i) const {
    return kWarm ? kFirstVariant + i : kFirstVariant + uint32_t(index) * count_ + i;
  }

  VkPipeline createAndDraw(Device& d, uint32_t slot, uint32_t variant, VkPipelineCache cache) {
    VkSpecializationMapEntry entry{0, 0, 4};
    VkSpecializationInfo spec{1, &entry, 4, &variant};
    VkPipeline pipeline = program_->createUntracked({}, &spec, cache);
    const RectPush rect = slotRect(slot);
    const VkRect2D area{{rect.x0, rect.y0}, {uint32_t(kSlot), uint32_t(kSlot)}};
    BENCH_VK(d.vk.ResetCommandBuffer(cb_, 0));
    d.begin(cb_, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    beginRendering(d, cb_, target_, nullptr, area);
    d.vk.CmdBindPipeline(cb_, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    program_->push(cb_, &rect);
    d.vk.CmdDraw(cb_, 6, 1, 0, 0);
    endRendering(d, cb_);
    BENCH_VK(d.vk.EndCommandBuffer(cb_));
    d.submitAndWait(cb_);
    lastVariant_[slot] = variant;
    return pipeline;
  }

  std::string cachePath(Device& d, const std::string& dir) const {
    std::string uuid;
    for (uint8_t b : d.properties.pipelineCacheUUID) uuid += "0123456789abcdef"[b >> 4], uuid += "0123456789abcdef"[b & 15];
    return dir + "/graphics_pipeline_cache_" + std::to_string(d.properties.vendorID) + "_" + uuid + ".bin";
  }

  // Fills cacheData_: from an earlier process's file if there is one, else by compiling every
  // variant once (with its first draw, so that anything compiled lazily is compiled too).
  void prime(Device& d, const std::string& dir) {
    if (!dir.empty()) {
      std::ifstream f(cachePath(d, dir), std::ios::binary);
      cacheData_.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    VkPipelineCache cache = newCache(d);
    std::vector<VkPipeline> pipelines;
    for (uint32_t i = 0; i < count_; ++i) pipelines.push_back(createAndDraw(d, i, variant(0, i), cache));
    for (VkPipeline pl : pipelines) d.vk.DestroyPipeline(d.device, pl, nullptr);
    size_t size = 0;
    BENCH_VK(d.vk.GetPipelineCacheData(d.device, cache, &size, nullptr));
    cacheData_.resize(size);
    BENCH_VK(d.vk.GetPipelineCacheData(d.device, cache, &size, cacheData_.data()));
    cacheData_.resize(size);
    d.vk.DestroyPipelineCache(d.device, cache, nullptr);
    if (!dir.empty()) {
      std::ofstream f(cachePath(d, dir), std::ios::binary);
      f.write(cacheData_.data(), std::streamsize(cacheData_.size()));
    }
  }

  VkPipelineCache newCache(Device& d) {
    VkPipelineCacheCreateInfo pcci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    pcci.initialDataSize = cacheData_.size();
    pcci.pInitialData = cacheData_.empty() ? nullptr : cacheData_.data();
    VkPipelineCache cache = VK_NULL_HANDLE;
    BENCH_VK(d.vk.CreatePipelineCache(d.device, &pcci, nullptr, &cache));
    return cache;
  }

  uint32_t count_ = 0;
  RenderTarget target_;
  std::optional<GraphicsProgram> program_;
  Buffer readback_;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  std::vector<uint32_t> lastVariant_;  // the variant that last drew each slot
  std::vector<char> cacheData_;
};

using PipelineCreateGraphicsCold = PipelineCreateGraphics<false>;
using PipelineCreateGraphicsWarm = PipelineCreateGraphics<true>;

}  // namespace

BENCH_REGISTER(PipelineCreateGraphicsCold,
               {.name = "pipeline_create_graphics_cold",
                .description = "200 distinct graphics pipelines, create + first draw to idle, no caches",
                .metric = "ms/pipeline",
                .scale = 1e3,
                .rate = false,
                .group = "graphics",
                .defaultSize = 200,
                .sizeUnit = "pipelines",
                .scalingSizes = {10, 50, 200},
                .defaultReps = 2,
                .coldCaches = true});
BENCH_REGISTER(PipelineCreateGraphicsWarm,
               {.name = "pipeline_create_graphics_warm",
                .description = "the same 200 graphics pipelines from a VkPipelineCache saved earlier (disk caches on)",
                .metric = "ms/pipeline",
                .scale = 1e3,
                .rate = false,
                .group = "graphics",
                .defaultSize = 200,
                .sizeUnit = "pipelines",
                .scalingSizes = {10, 50, 200}});

}  // namespace bench
