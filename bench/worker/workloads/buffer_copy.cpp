// vkCmdCopyBuffer between two large buffers: the driver's memcpy (the roofline's memcpy
// bandwidth is the limit).
#include <cstring>

#include "workload.h"

namespace bench {
namespace {

class BufferCopy : public Workload {
 public:
  void setup(Device& d, const Params& p) override {
    d.require({"vkCmdCopyBuffer"});
    size_ = p.size;
    src_ = d.createBuffer(size_, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
    dst_ = d.createBuffer(size_, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    fillPattern(src_.mapped, size_, 1);
    std::memset(dst_.mapped, 0, size_);
    recordTimed(d, [&](VkCommandBuffer cb) {
      VkBufferCopy region{0, 0, size_};
      d.vk.CmdCopyBuffer(cb, src_.buffer, dst_.buffer, 1, &region);
    });
  }

  Output finish(Device&) override {
    Output o{dst_.mapped, size_};
    if (std::memcmp(dst_.mapped, src_.mapped, size_) != 0) o.cpuCheck = "destination differs from source";
    return o;
  }

  Work work() const override { return {double(size_), double(size_), double(size_), 0}; }

 private:
  uint64_t size_ = 0;
  Buffer src_, dst_;
};

}  // namespace

BENCH_REGISTER(BufferCopy, {.name = "buffer_copy",
                            .description = "vkCmdCopyBuffer of 256 MiB (limit: memcpy)",
                            .metric = "GB/s copied",
                            .scale = 1e-9,
                            .group = "transfer",
                            .defaultSize = 256ull << 20,
                            .sizeUnit = "bytes",
                            .scalingSizes = {1ull << 20, 16ull << 20, 64ull << 20, 256ull << 20}});

}  // namespace bench
