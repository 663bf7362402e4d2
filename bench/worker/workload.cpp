#include "workload.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace bench {

std::vector<WorkloadInfo>& registry() {
  static std::vector<WorkloadInfo> workloads;
  return workloads;
}

bool registerWorkload(WorkloadInfo info) {
  auto& r = registry();
  auto at = std::lower_bound(r.begin(), r.end(), info.name,
                             [](const WorkloadInfo& w, const std::string& n) { return w.name < n; });
  r.insert(at, std::move(info));
  return true;
}

void Workload::recordTimed(Device& d, const std::function<void(VkCommandBuffer)>& record) {
  timedCommands_ = d.allocateCommandBuffer();
  d.begin(timedCommands_);
  d.beginTimed(timedCommands_);
  record(timedCommands_);
  d.endTimed(timedCommands_);
  BENCH_VK(d.vk.EndCommandBuffer(timedCommands_));
}

Sample Workload::run(Device& d, int) {
  if (!timedCommands_) throw Failure("benchmark bug: setup() recorded no timed commands");
  return d.submitAndWait(timedCommands_, true);
}

void fillPattern(void* dst, size_t bytes, uint64_t seed) {
  // 64-bit words from a counter-based mix, so that each thread can start anywhere.
  auto fill = [dst, seed](size_t begin, size_t end) {
    auto* p = static_cast<uint8_t*>(dst);
    for (size_t i = begin; i < end; i += 8) {
      uint64_t x = (i / 8 + 1) * 0x9E3779B97F4A7C15ull ^ seed;
      x ^= x >> 31;
      x *= 0xBF58476D1CE4E5B9ull;
      x ^= x >> 29;
      std::memcpy(p + i, &x, std::min<size_t>(8, end - i));
    }
  };
  const size_t chunk = size_t(16) << 20;
  if (bytes <= chunk) return fill(0, bytes);
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  std::vector<std::thread> pool;
  size_t per = (bytes / threads + 7) & ~size_t(7);
  for (unsigned t = 0; t < threads; ++t) {
    size_t b = std::min(bytes, t * per), e = std::min(bytes, b + per);
    if (b < e) pool.emplace_back(fill, b, e);
  }
  for (auto& th : pool) th.join();
}

}  // namespace bench
