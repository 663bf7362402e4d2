// SGEMM, C = A * B for 1024x1024 matrices, with the classic 16x16 shared-memory tiling and
// barriers (limit: FMA peak). The entries are small integers (-2..2), so every product and
// partial sum is an exact float whatever the summation order or FMA contraction: the result
// is bit-exact for every correct driver, and the CPU reference is exact too.
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/sgemm.h"
#include "workload.h"

namespace bench {
namespace {

class Sgemm : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    n_ = uint32_t(p.size);
    if (n_ == 0 || n_ % 16 != 0) throw Failure("sgemm size must be a multiple of 16");
    uint64_t bytes = uint64_t(n_) * n_ * 4;
    if (bytes > d.properties.limits.maxStorageBufferRange) throw Unsupported("matrix larger than maxStorageBufferRange");
    kernel_.emplace(d, sgemm_spv, sizeof sgemm_spv, 3, 4, 1);
    VkPipeline pipeline = kernel_->pipeline();
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    a_ = d.createBuffer(bytes, usage);
    b_ = d.createBuffer(bytes, usage);
    c_ = d.createBuffer(bytes, usage);
    Rng rng(5);
    for (uint64_t i = 0; i < uint64_t(n_) * n_; ++i) {
      a_.as<float>()[i] = float(rng.range(-2, 2));
      b_.as<float>()[i] = float(rng.range(-2, 2));
      c_.as<float>()[i] = 0.0f;
    }
    VkDescriptorSet set = kernel_->descriptorSet({{a_.buffer, 0, bytes}, {b_.buffer, 0, bytes}, {c_.buffer, 0, bytes}});
    recordTimed(d, [&](VkCommandBuffer cb) {
      uint32_t push = n_;
      kernel_->dispatch(cb, pipeline, set, &push, n_ / 16, n_ / 16);
    });
    // Warm-up: the same pipeline on one workgroup (its tile is recomputed by every timed run);
    // a whole product takes seconds on some drivers.
    warmUpCommands_ = d.allocateCommandBuffer();
    d.begin(warmUpCommands_);
    uint32_t push = n_;
    kernel_->dispatch(warmUpCommands_, pipeline, set, &push, 1, 1);
    BENCH_VK(d.vk.EndCommandBuffer(warmUpCommands_));
  }

  void warmUp(Device& d, int) override { d.submitAndWait(warmUpCommands_); }

  Output finish(Device&) override {
    Output o{c_.mapped, uint64_t(n_) * n_ * 4};
    // Every element for small matrices; otherwise 4096 elements spread over the matrix.
    const float* a = a_.as<const float>();
    const float* b = b_.as<const float>();
    const float* c = c_.as<const float>();
    const uint64_t total = uint64_t(n_) * n_;
    const uint64_t step = total <= (1u << 18) ? 1 : total / 4096 + 1;
    for (uint64_t e = 0; e < total; e += step) {
      uint64_t row = e / n_, col = e % n_;
      double sum = 0;
      for (uint32_t k = 0; k < n_; ++k) sum += double(a[row * n_ + k]) * double(b[uint64_t(k) * n_ + col]);
      if (double(c[e]) != sum) {
        o.cpuCheck = "C[" + std::to_string(row) + "][" + std::to_string(col) + "] = " + std::to_string(c[e]) +
                     ", expected " + std::to_string(sum);
        break;
      }
    }
    return o;
  }

  Work work() const override {
    double n = n_;
    return {2 * n * n * n, 2 * n * n * 4, n * n * 4, 2 * n * n * n};
  }

 private:
  uint32_t n_ = 0;
  VkCommandBuffer warmUpCommands_ = VK_NULL_HANDLE;
  std::optional<ComputeKernel> kernel_;
  Buffer a_, b_, c_;
};

}  // namespace

BENCH_REGISTER(Sgemm, {.name = "sgemm",
                       .description = "compute SGEMM 1024x1024, 16x16 shared-memory tiles with barriers (limit: FMA peak)",
                       .metric = "GFLOP/s",
                       .scale = 1e-9,
                       .group = "compute",
                       .defaultSize = 1024,
                       .sizeUnit = "n (n x n matrices)",
                       .scalingSizes = {256, 512, 1024, 2048},
                       .defaultReps = 1});

}  // namespace bench
