// One step of an all-pairs n-body simulation with 8192 bodies, staged through shared memory
// (limit: FMA peak; 20 FLOPs per interaction, the usual convention). inversesqrt and the
// summation order legitimately differ between drivers, so outputs are compared with a
// tolerance, and the CPU reference (double precision) checks a sample of bodies.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/nbody.h"
#include "workload.h"

namespace bench {
namespace {

constexpr float kDt = 0.01f;
constexpr float kSoftening2 = 0.01f;
constexpr double kRelTol = 1e-4, kAbsTol = 1e-5;

class NBody : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    n_ = uint32_t(p.size);
    if (n_ == 0 || n_ % 256 != 0) throw Failure("nbody size must be a multiple of 256");
    kernel_.emplace(d, nbody_spv, sizeof nbody_spv, 4, 12, 1);
    VkPipeline pipeline = kernel_->pipeline();
    const uint64_t bytes = uint64_t(n_) * 16;
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    posIn_ = d.createBuffer(bytes, usage);
    velIn_ = d.createBuffer(bytes, usage);
    out_ = d.createBuffer(2 * bytes, usage);  // positions, then velocities: one output to compare
    Rng rng(6);
    float* pos = posIn_.as<float>();
    float* vel = velIn_.as<float>();
    for (uint32_t i = 0; i < n_; ++i) {
      pos[4 * i + 0] = rng.uniform(-1, 1);
      pos[4 * i + 1] = rng.uniform(-1, 1);
      pos[4 * i + 2] = rng.uniform(-1, 1);
      pos[4 * i + 3] = rng.uniform(0.5f, 1.5f) / float(n_);
      for (int c = 0; c < 3; ++c) vel[4 * i + c] = rng.uniform(-0.1f, 0.1f);
      vel[4 * i + 3] = 0;
    }
    std::fill_n(out_.as<float>(), 8 * uint64_t(n_), 0.0f);
    VkDescriptorSet set = kernel_->descriptorSet(
        {{posIn_.buffer, 0, bytes}, {velIn_.buffer, 0, bytes}, {out_.buffer, 0, bytes}, {out_.buffer, bytes, bytes}});
    recordTimed(d, [&](VkCommandBuffer cb) {
      struct {
        uint32_t n;
        float dt, softening2;
      } push{n_, kDt, kSoftening2};
      kernel_->dispatch(cb, pipeline, set, &push, n_ / 256);
    });
  }

  Output finish(Device&) override {
    char compare[64];
    std::snprintf(compare, sizeof compare, "f32:%g:%g", kRelTol, kAbsTol);
    Output o{out_.mapped, uint64_t(n_) * 32, compare};
    const float* pos = posIn_.as<const float>();
    const float* vel = velIn_.as<const float>();
    const float* outPos = out_.as<const float>();
    const float* outVel = outPos + 4 * uint64_t(n_);
    for (uint32_t i = 0; i < n_ && o.cpuCheck.empty(); i += n_ / 64) {
      double acc[3] = {0, 0, 0};
      for (uint32_t j = 0; j < n_; ++j) {
        double dx[3], r2 = kSoftening2;
        for (int c = 0; c < 3; ++c) {
          dx[c] = double(pos[4 * j + c]) - double(pos[4 * i + c]);
          r2 += dx[c] * dx[c];
        }
        double inv = 1.0 / std::sqrt(r2);
        for (int c = 0; c < 3; ++c) acc[c] += dx[c] * double(pos[4 * j + 3]) * inv * inv * inv;
      }
      for (int c = 0; c < 3; ++c) {
        double v = double(vel[4 * i + c]) + acc[c] * kDt;
        double x = double(pos[4 * i + c]) + v * kDt;
        auto bad = [](double got, double want) { return std::fabs(got - want) > kAbsTol + kRelTol * std::fabs(want); };
        if (bad(outVel[4 * i + c], v) || bad(outPos[4 * i + c], x)) {
          o.cpuCheck = "body " + std::to_string(i) + " component " + std::to_string(c) + ": velocity " +
                       std::to_string(outVel[4 * i + c]) + " vs " + std::to_string(v) + ", position " +
                       std::to_string(outPos[4 * i + c]) + " vs " + std::to_string(x);
          break;
        }
      }
    }
    return o;
  }

  Work work() const override {
    double n = n_;
    return {20 * n * n, 32 * n, 32 * n, 20 * n * n};
  }

 private:
  uint32_t n_ = 0;
  std::optional<ComputeKernel> kernel_;
  Buffer posIn_, velIn_, out_;
};

}  // namespace

BENCH_REGISTER(NBody, {.name = "nbody",
                       .description = "compute all-pairs n-body step, 8192 bodies, shared-memory tiles (limit: FMA peak)",
                       .metric = "GFLOP/s",
                       .scale = 1e-9,
                       .group = "compute",
                       .defaultSize = 8192,
                       .sizeUnit = "bodies",
                       .scalingSizes = {2048, 4096, 8192, 16384}});

}  // namespace bench
