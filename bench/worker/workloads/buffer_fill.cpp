// vkCmdFillBuffer over a large buffer: the driver's memset (the roofline's memset bandwidth is
// the limit).
#include <cstring>
#include <string>

#include "workload.h"

namespace bench {
namespace {

constexpr uint32_t kPattern = 0xA5C3E1F7u;

class BufferFill : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    d.require({"vkCmdFillBuffer"});
    size_ = p.size & ~uint64_t(3);
    dst_ = d.createBuffer(size_, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    std::memset(dst_.mapped, 0, size_);  // commit the pages before anything is timed
    recordTimed(d, [&](VkCommandBuffer cb) { d.vk.CmdFillBuffer(cb, dst_.buffer, 0, size_, kPattern); });
  }

  Output finish(Device&) override {
    Output o{dst_.mapped, size_};
    const auto* w = dst_.as<const uint32_t>();
    for (uint64_t i = 0; i < size_ / 4; ++i)
      if (w[i] != kPattern) {
        o.cpuCheck = "word " + std::to_string(i) + " is " + std::to_string(w[i]);
        break;
      }
    return o;
  }

  Work work() const override { return {double(size_), 0, double(size_), 0}; }

 private:
  uint64_t size_ = 0;
  Buffer dst_;
};

}  // namespace

BENCH_REGISTER(BufferFill, {.name = "buffer_fill",
                            .description = "vkCmdFillBuffer of a 256 MiB buffer (limit: memset)",
                            .metric = "GB/s written",
                            .scale = 1e-9,
                            .group = "transfer",
                            .defaultSize = 256ull << 20,
                            .sizeUnit = "bytes",
                            .scalingSizes = {1ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}});

}  // namespace bench
