// Quantized matrix-vector product, the inner loop of LLM inference on Vulkan back ends
// (llama.cpp's Q8_0 mul_mat_vec): an 8192 x 8192 int8 matrix (64 MiB, blocks of 32 weights
// with a float scale) times an int8 vector, with subgroup reductions (limit: memory bandwidth,
// every weight byte read once per product). Subgroup sizes and summation order legitimately
// differ between drivers, so outputs are compared with a tolerance and the CPU reference
// (double precision) checks a sample of rows.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/qmatvec.h"
#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kCols = 8192;
constexpr double kRelTol = 1e-4, kAbsTol = 1e-3;

int8_t weightAt(uint64_t row, uint64_t col) { return int8_t(int((row * 7919 + col * 104729) % 255) - 127); }
int8_t inputAt(uint64_t col) { return int8_t(int((col * 31337) % 255) - 127); }
float weightScale(uint64_t row, uint64_t block) { return 1.0f / 256 * float(1 + (row + 3 * block) % 7); }
float inputScale(uint64_t block) { return 1.0f / 128 * float(1 + block % 5); }

class QMatVec : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    rows_ = uint32_t(p.size);
    if (rows_ == 0) throw Failure("qmatvec size (rows) must be positive");
    const VkDeviceSize weightBytes = VkDeviceSize(rows_) * kCols;
    if (weightBytes > d.properties.limits.maxStorageBufferRange) throw Unsupported("maxStorageBufferRange too small");
    kernel_.emplace(d, qmatvec_spv, sizeof qmatvec_spv, 5, 8, 1);
    VkPipeline pipeline = kernel_->pipeline();
    const VkBufferUsageFlags usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    const uint32_t blocks = kCols / 32;
    weights_ = d.createBuffer(weightBytes, usage);
    weightScales_ = d.createBuffer(VkDeviceSize(rows_) * blocks * 4, usage);
    input_ = d.createBuffer(kCols, usage);
    inputScales_ = d.createBuffer(blocks * 4, usage);
    out_ = d.createBuffer(VkDeviceSize(rows_) * 4, usage);
    int8_t* w = weights_.as<int8_t>();
    for (uint64_t r = 0; r < rows_; ++r)
      for (uint64_t c = 0; c < kCols; ++c) w[r * kCols + c] = weightAt(r, c);
    float* ws = weightScales_.as<float>();
    for (uint64_t r = 0; r < rows_; ++r)
      for (uint64_t b = 0; b < blocks; ++b) ws[r * blocks + b] = weightScale(r, b);
    for (uint64_t c = 0; c < kCols; ++c) input_.as<int8_t>()[c] = inputAt(c);
    for (uint64_t b = 0; b < blocks; ++b) inputScales_.as<float>()[b] = inputScale(b);
    std::memset(out_.mapped, 0, VkDeviceSize(rows_) * 4);
    VkDescriptorSet set = kernel_->descriptorSet({{weights_.buffer, 0, weightBytes},
                                                  {weightScales_.buffer, 0, VkDeviceSize(rows_) * blocks * 4},
                                                  {input_.buffer, 0, kCols},
                                                  {inputScales_.buffer, 0, blocks * 4},
                                                  {out_.buffer, 0, VkDeviceSize(rows_) * 4}});
    recordTimed(d, [&](VkCommandBuffer cb) {
      const uint32_t push[2] = {rows_, kCols};
      const uint32_t gx = std::min<uint32_t>(rows_, 4096), gy = (rows_ + gx - 1) / gx;
      kernel_->dispatch(cb, pipeline, set, push, gx, gy);
    });
  }

  Output finish(Device&) override {
    char compare[64];
    std::snprintf(compare, sizeof compare, "f32:%g:%g", kRelTol, kAbsTol);
    Output o{out_.mapped, uint64_t(rows_) * 4, compare};
    const float* y = out_.as<const float>();
    for (uint64_t r = 0; r < rows_ && o.cpuCheck.empty(); r += std::max<uint32_t>(1, rows_ / 97)) {
      double want = 0;
      for (uint64_t b = 0; b < kCols / 32; ++b) {
        int64_t dot = 0;
        for (uint64_t c = 32 * b; c < 32 * b + 32; ++c) dot += int64_t(weightAt(r, c)) * inputAt(c);
        want += double(dot) * double(weightScale(r, b)) * double(inputScale(b));
      }
      if (std::fabs(y[r] - want) > kAbsTol + kRelTol * std::fabs(want))
        o.cpuCheck = "y[" + std::to_string(r) + "] = " + std::to_string(y[r]) + ", expected " + std::to_string(want);
    }
    return o;
  }

  // Units: weight bytes. Every weight byte and its scales read once; the integer multiply-adds
  // are not FMA work, so the roofline is the memory traffic alone.
  Work work() const override {
    const double weights = double(rows_) * kCols;
    const double read = weights + double(rows_) * (kCols / 32) * 4 + kCols + (kCols / 32) * 4;
    return {weights, read, double(rows_) * 4, 0};
  }

 private:
  uint32_t rows_ = 0;
  std::optional<ComputeKernel> kernel_;
  Buffer weights_, weightScales_, input_, inputScales_, out_;
};

}  // namespace

BENCH_REGISTER(QMatVec, {.name = "qmatvec",
                         .description = "compute int8 (Q8_0-style) matrix-vector product, 8192x8192, subgroup reductions (limit: memory bandwidth)",
                         .metric = "GB/s weights",
                         .scale = 1e-9,
                         .group = "compute",
                         .defaultSize = 8192,
                         .sizeUnit = "rows",
                         .scalingSizes = {1024, 2048, 4096, 8192}});

}  // namespace bench
