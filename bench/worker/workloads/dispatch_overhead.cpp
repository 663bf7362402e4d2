// Dispatch overhead: 10,000 vkCmdDispatch(1,1,1) of a trivial 64-lane kernel in one command
// buffer, each with its own push constant (reported per dispatch; no roofline limit).
#include <optional>
#include <string>

#include "compute.h"
#include "shaders/dispatch.h"
#include "workload.h"

namespace bench {
namespace {

class DispatchOverhead : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    runs_ = p.runs();
    count_ = uint32_t(p.size);
    kernel_.emplace(d, dispatch_spv, sizeof dispatch_spv, 1, 4, 1);
    VkPipeline pipeline = kernel_->pipeline();
    const uint64_t bytes = uint64_t(count_) * 64 * 4;
    counts_ = d.createBuffer(bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT);
    std::fill_n(counts_.as<uint32_t>(), uint64_t(count_) * 64, 0u);
    VkDescriptorSet set = kernel_->descriptorSet({{counts_.buffer, 0, bytes}});
    recordTimed(d, [&](VkCommandBuffer cb) {
      d.vk.CmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
      d.vk.CmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_COMPUTE, kernel_->layout(), 0, 1, &set, 0, nullptr);
      for (uint32_t i = 0; i < count_; ++i) {
        d.vk.CmdPushConstants(cb, kernel_->layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0, 4, &i);
        d.vk.CmdDispatch(cb, 1, 1, 1);
      }
    });
  }

  Output finish(Device&) override {
    Output o{counts_.mapped, uint64_t(count_) * 64 * 4};
    const uint32_t* c = counts_.as<const uint32_t>();
    for (uint64_t i = 0; i < uint64_t(count_) * 64; ++i)
      if (c[i] != uint32_t(runs_)) {
        o.cpuCheck = "dispatch " + std::to_string(i / 64) + " lane " + std::to_string(i % 64) + " ran " +
                     std::to_string(c[i]) + " times, expected " + std::to_string(runs_);
        break;
      }
    return o;
  }

  Work work() const override { return {double(count_), 0, 0, 0}; }

 private:
  int runs_ = 0;
  uint32_t count_ = 0;
  std::optional<ComputeKernel> kernel_;
  Buffer counts_;
};

}  // namespace

BENCH_REGISTER(DispatchOverhead, {.name = "dispatch_overhead",
                                  .description = "10,000 one-workgroup dispatches in one command buffer",
                                  .metric = "us/dispatch",
                                  .scale = 1e6,
                                  .rate = false,
                                  .group = "compute",
                                  .defaultSize = 10000,
                                  .sizeUnit = "dispatches",
                                  .scalingSizes = {100, 1000, 10000, 100000}});

}  // namespace bench
