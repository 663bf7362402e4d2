// Shared-memory sum reduction of 256 MiB of uint32 (bandwidth bound: one read per element;
// limit: memory bandwidth), 1024 values per workgroup with 8 barrier steps. Values are small
// integers, so every correct driver writes the same partial sums.
#include <algorithm>
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/reduction.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint64_t kPerGroup = 1024;

class Reduction : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    n_ = p.size / 4;
    const VkPhysicalDeviceLimits& limits = d.properties.limits;
    // Descriptor ranges are limited (lavapipe: 128 MiB): one dispatch per chunk. Chunks are whole
    // workgroups, and their partial sums start at aligned offsets of the output buffer.
    const uint64_t align = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 4) / 4;
    uint64_t chunk = std::min<uint64_t>(n_, limits.maxStorageBufferRange / 4);
    const uint64_t unit = kPerGroup * align;
    chunk = chunk / unit * unit;
    if (chunk == 0) throw Unsupported("maxStorageBufferRange too small");
    const uint32_t chunks = uint32_t((n_ + chunk - 1) / chunk);
    kernel_.emplace(d, reduction_spv, sizeof reduction_spv, 2, 4, chunks);
    VkPipeline pipeline = kernel_->pipeline();

    groups_ = (n_ + kPerGroup - 1) / kPerGroup;
    in_ = d.createBuffer(n_ * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    out_ = d.createBuffer(groups_ * 4, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    uint32_t* v = in_.as<uint32_t>();
    for (uint64_t i = 0; i < n_; ++i) v[i] = uint32_t((i * 13) % 997);
    std::vector<std::pair<VkDescriptorSet, uint32_t>> dispatches;
    for (uint64_t first = 0; first < n_; first += chunk) {
      const uint64_t count = std::min(chunk, n_ - first);
      const uint64_t groups = (count + kPerGroup - 1) / kPerGroup;
      VkDescriptorSet set = kernel_->descriptorSet({{in_.buffer, first * 4, count * 4}, {out_.buffer, first / kPerGroup * 4, groups * 4}});
      dispatches.push_back({set, uint32_t(count)});
    }
    recordTimed(d, [&](VkCommandBuffer cb) {
      for (auto& [set, count] : dispatches) {
        uint32_t groups = uint32_t((count + kPerGroup - 1) / kPerGroup);
        uint32_t gx = std::min<uint32_t>(groups, 4096), gy = (groups + gx - 1) / gx;
        kernel_->dispatch(cb, pipeline, set, &count, gx, gy);
      }
    });
  }

  Output finish(Device&) override {
    Output o{out_.mapped, groups_ * 4};
    const uint32_t* partial = out_.as<const uint32_t>();
    for (uint64_t g = 0; g < groups_; ++g) {
      uint32_t expected = 0;
      for (uint64_t i = g * kPerGroup; i < std::min(n_, (g + 1) * kPerGroup); ++i) expected += uint32_t((i * 13) % 997);
      if (partial[g] != expected) {
        o.cpuCheck = "partial[" + std::to_string(g) + "] = " + std::to_string(partial[g]) + ", expected " + std::to_string(expected);
        break;
      }
    }
    return o;
  }

  Work work() const override { return {double(n_) * 4, double(n_) * 4, double(groups_) * 4, double(n_)}; }

 private:
  uint64_t n_ = 0, groups_ = 0;
  std::optional<ComputeKernel> kernel_;
  Buffer in_, out_;
};

}  // namespace

BENCH_REGISTER(Reduction, {.name = "reduction",
                           .description = "compute sum of 256 MiB of uint32, shared-memory tree per 1024 values (limit: memory bandwidth)",
                           .metric = "GB/s read",
                           .scale = 1e-9,
                           .group = "compute",
                           .defaultSize = 256ull << 20,
                           .sizeUnit = "bytes",
                           .scalingSizes = {4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}});

}  // namespace bench
