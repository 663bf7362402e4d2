// SAXPY, y = a*x + y, on two 256 MiB buffers (bandwidth bound; limit: memcpy bandwidth for the
// 2 reads and 1 write per element). Inputs are small integers and a = 2, so every correct
// driver (with or without FMA contraction) gives the exact same bits.
#include <algorithm>
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/saxpy.h"
#include "workload.h"

namespace bench {
namespace {

constexpr float kA = 2.0f;

class Saxpy : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    runs_ = p.runs();
    n_ = p.size / 4;
    const VkPhysicalDeviceLimits& limits = d.properties.limits;
    // Descriptor ranges are limited (lavapipe: 128 MiB): one dispatch per chunk.
    uint64_t align = std::max<uint64_t>(limits.minStorageBufferOffsetAlignment, 4) / 4;
    uint64_t chunk = std::min<uint64_t>(n_, limits.maxStorageBufferRange / 4);
    chunk = chunk / std::max<uint64_t>(align, 256) * std::max<uint64_t>(align, 256);
    if (chunk == 0) throw Unsupported("maxStorageBufferRange too small");
    uint32_t chunks = uint32_t((n_ + chunk - 1) / chunk);
    kernel_.emplace(d, saxpy_spv, sizeof saxpy_spv, 2, 8, chunks);
    VkPipeline pipeline = kernel_->pipeline();

    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    x_ = d.createBuffer(n_ * 4, usage);
    y_ = d.createBuffer(n_ * 4, usage);
    float* x = x_.as<float>();
    float* y = y_.as<float>();
    for (uint64_t i = 0; i < n_; ++i) {
      x[i] = float(i % 1021);
      y[i] = float((i * 7) % 4093);
    }
    struct Push {
      float a;
      uint32_t count;
    };
    std::vector<std::pair<VkDescriptorSet, Push>> dispatches;
    for (uint64_t first = 0; first < n_; first += chunk) {
      uint64_t count = std::min(chunk, n_ - first);
      VkDescriptorSet set = kernel_->descriptorSet({{x_.buffer, first * 4, count * 4}, {y_.buffer, first * 4, count * 4}});
      dispatches.push_back({set, Push{kA, uint32_t(count)}});
    }
    recordTimed(d, [&](VkCommandBuffer cb) {
      for (auto& [set, push] : dispatches) {
        uint32_t groups = uint32_t((push.count + 255) / 256);
        uint32_t gx = std::min<uint32_t>(groups, 4096), gy = (groups + gx - 1) / gx;
        kernel_->dispatch(cb, pipeline, set, &push, gx, gy);
      }
    });
  }

  Output finish(Device&) override {
    Output o{y_.mapped, n_ * 4};
    const float* x = x_.as<const float>();
    const float* y = y_.as<const float>();
    for (uint64_t i = 0; i < n_; ++i) {
      float expected = float((i * 7) % 4093) + float(runs_) * kA * x[i];
      if (y[i] != expected) {
        o.cpuCheck = "y[" + std::to_string(i) + "] = " + std::to_string(y[i]) + ", expected " + std::to_string(expected);
        break;
      }
    }
    return o;
  }

  Work work() const override { return {double(n_) * 12, double(n_) * 8, double(n_) * 4, double(n_) * 2}; }

 private:
  int runs_ = 0;
  uint64_t n_ = 0;
  std::optional<ComputeKernel> kernel_;
  Buffer x_, y_;
};

}  // namespace

BENCH_REGISTER(Saxpy, {.name = "saxpy",
                       .description = "compute SAXPY y = 2x + y on two 256 MiB buffers (limit: memory bandwidth)",
                       .metric = "GB/s read+written",
                       .scale = 1e-9,
                       .group = "compute",
                       .defaultSize = 256ull << 20,
                       .sizeUnit = "bytes per buffer",
                       .scalingSizes = {4ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}});

}  // namespace bench
