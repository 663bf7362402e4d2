// Pipeline-creation latency: 50 distinct compute pipelines (bench/shaders/pipeline_variant.comp
// specialized with 50 values), each measured as vkCreateComputePipelines + recording, submitting
// and waiting for its first dispatch. Reported per pipeline; no roofline limit.
//
// pipeline_create_cold: no VkPipelineCache, and every repetition uses variants never compiled
//   before in the process; bench/run also turns drivers' disk caches off and points
//   XDG_CACHE_HOME at an empty directory for each process.
// pipeline_create_warm: set-up compiles the variants once (or loads the data a previous
//   process saved under --cache-dir) and keeps vkGetPipelineCacheData; every repetition then
//   creates a new VkPipelineCache from that data, as an application's next start would, with
//   the drivers' disk caches on.
#include <algorithm>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "compute.h"
#include "shaders/pipeline_variant.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kLanes = 64;
constexpr uint32_t kFirstVariant = 1000;

// pipeline_variant.comp on the CPU, for one workgroup.
void referenceVariant(uint32_t variant, uint32_t* out) {
  auto mix32 = [](uint32_t x) {
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
  };
  uint32_t h[kLanes], sum = 0;
  for (uint32_t lane = 0; lane < kLanes; ++lane) {
    uint32_t v = mix32(lane ^ (variant * 0x9e3779b9u));
    for (uint32_t i = 0; i < 4u + variant % 5u; ++i) {
      v = mix32(v + i * 0x632be5abu);
      if ((v & 3u) == (variant & 3u))
        v ^= v << 7;
      else
        v += variant;
    }
    h[lane] = v;
    sum += v;  // the shader's tree reduction wraps the same way
  }
  for (uint32_t lane = 0; lane < kLanes; ++lane) out[lane] += h[lane] ^ sum;
}

template <bool kWarm>
class PipelineCreate : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    count_ = uint32_t(p.size);
    if (kWarm) d.require({"vkCreatePipelineCache", "vkDestroyPipelineCache", "vkGetPipelineCacheData"});
    kernel_.emplace(d, pipeline_variant_spv, sizeof pipeline_variant_spv, 1, 4, 1);
    out_ = d.createBuffer(uint64_t(count_) * kLanes * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::fill_n(out_.as<uint32_t>(), uint64_t(count_) * kLanes, 0u);
    set_ = kernel_->descriptorSet({{out_.buffer, 0, VK_WHOLE_SIZE}});
    cb_ = d.allocateCommandBuffer();
    expected_.assign(uint64_t(count_) * kLanes, 0u);
    if (kWarm) prime(d, p.cacheDir);
  }

  Sample run(Device& d, int index) override {
    VkPipelineCache cache = VK_NULL_HANDLE;
    if (kWarm) cache = newCache(d);
    std::vector<VkPipeline> pipelines;
    Sample s;
    auto t0 = std::chrono::steady_clock::now();
    for (uint32_t i = 0; i < count_; ++i) pipelines.push_back(createAndDispatch(d, i, variant(index, i), cache));
    s.wallSeconds = secondsSince(t0);
    expect(index);
    for (VkPipeline pl : pipelines) d.vk.DestroyPipeline(d.device, pl, nullptr);
    if (cache) d.vk.DestroyPipelineCache(d.device, cache, nullptr);
    return s;
  }

  Output finish(Device&) override {
    Output o{out_.mapped, uint64_t(count_) * kLanes * 4};
    const uint32_t* got = out_.as<const uint32_t>();
    for (uint64_t i = 0; i < expected_.size(); ++i)
      if (got[i] != expected_[i]) {
        o.cpuCheck = "pipeline " + std::to_string(i / kLanes) + " lane " + std::to_string(i % kLanes) + " wrote " +
                     std::to_string(got[i]) + ", expected " + std::to_string(expected_[i]);
        break;
      }
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  uint32_t variant(int index, uint32_t i) const {
    return kWarm ? kFirstVariant + i : kFirstVariant + uint32_t(index) * count_ + i;
  }

  VkPipeline createAndDispatch(Device& d, uint32_t slot, uint32_t variant, VkPipelineCache cache) {
    VkSpecializationMapEntry entry{0, 0, 4};
    VkSpecializationInfo spec{1, &entry, 4, &variant};
    VkPipeline pipeline = kernel_->createUntracked(&spec, cache);
    BENCH_VK(d.vk.ResetCommandBuffer(cb_, 0));
    d.begin(cb_, VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT);
    kernel_->dispatch(cb_, pipeline, set_, &slot, 1);
    BENCH_VK(d.vk.EndCommandBuffer(cb_));
    d.submitAndWait(cb_);
    return pipeline;
  }

  // What one repetition's dispatches add to the output, on the CPU (not timed).
  void expect(int index) {
    for (uint32_t i = 0; i < count_; ++i) referenceVariant(variant(index, i), &expected_[uint64_t(i) * kLanes]);
  }

  std::string cachePath(Device& d, const std::string& dir) const {
    std::string uuid;
    for (uint8_t b : d.properties.pipelineCacheUUID) uuid += "0123456789abcdef"[b >> 4], uuid += "0123456789abcdef"[b & 15];
    return dir + "/pipeline_cache_" + std::to_string(d.properties.vendorID) + "_" + uuid + ".bin";
  }

  // Fills cacheData_: from an earlier process's file if there is one, else by compiling every
  // variant once (with its first dispatch, so that anything compiled lazily is compiled too).
  void prime(Device& d, const std::string& dir) {
    if (!dir.empty()) {
      std::ifstream f(cachePath(d, dir), std::ios::binary);
      cacheData_.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    }
    VkPipelineCache cache = newCache(d);
    std::vector<VkPipeline> pipelines;
    for (uint32_t i = 0; i < count_; ++i) pipelines.push_back(createAndDispatch(d, i, variant(0, i), cache));
    expect(0);
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
  std::optional<ComputeKernel> kernel_;
  Buffer out_;
  VkDescriptorSet set_ = VK_NULL_HANDLE;
  VkCommandBuffer cb_ = VK_NULL_HANDLE;
  std::vector<uint32_t> expected_;
  std::vector<char> cacheData_;
};

using PipelineCreateCold = PipelineCreate<false>;
using PipelineCreateWarm = PipelineCreate<true>;

}  // namespace

BENCH_REGISTER(PipelineCreateCold,
               {.name = "pipeline_create_cold",
                .description = "50 distinct compute pipelines, create + first dispatch to idle, no caches",
                .metric = "ms/pipeline",
                .scale = 1e3,
                .rate = false,
                .group = "pipeline",
                .defaultSize = 50,
                .sizeUnit = "pipelines",
                .scalingSizes = {10, 50, 200},
                .defaultReps = 2,
                .coldCaches = true});
BENCH_REGISTER(PipelineCreateWarm,
               {.name = "pipeline_create_warm",
                .description = "the same 50 pipelines from a VkPipelineCache saved earlier (disk caches on)",
                .metric = "ms/pipeline",
                .scale = 1e3,
                .rate = false,
                .group = "pipeline",
                .defaultSize = 50,
                .sizeUnit = "pipelines",
                .scalingSizes = {10, 50, 200}});

}  // namespace bench
