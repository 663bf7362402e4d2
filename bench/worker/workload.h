// A benchmark workload and the registry that lists them. Adding a workload is one file under
// bench/worker/workloads/ (picked up by CMake) ending with
//
//   BENCH_REGISTER(MyWorkload, {.name = "my_workload", .description = "...", .metric = "GB/s", ...});
//
// and, for a compute workload, its GLSL under bench/shaders/ (compiled at build time; include
// "shaders/<name>.h" for the SPIR-V words `<name>_spv`).
//
// The worker runs a workload as: setup() (resources, pipelines, input data; not timed), one
// warmUp() per Params::warmup, Params::reps timed run()s, then finish() (read back,
// check on the CPU, describe the output for the cross-driver comparison).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "device.h"

namespace bench {

struct Params {
  uint64_t size = 0;  // the workload's problem size (its own unit); 0 = its default
  int reps = 3;       // timed repetitions in this process
  int warmup = 1;     // untimed repetitions before them
  std::string cacheDir;  // a directory the workload may keep files in between processes
  int runs() const { return warmup + reps; }
};

// How much work one repetition does; the orchestrator turns it into the metric and into the
// share of the machine's limit (roofline: max(bytes / memory bandwidth, flops / FMA peak)).
struct Work {
  double units = 0;         // what the metric counts (bytes, flops, dispatches, pipelines)
  double bytesRead = 0;     // memory traffic
  double bytesWritten = 0;
  double flops = 0;
};

// The workload's result, compared between drivers before a time counts.
struct Output {
  const void* data = nullptr;  // bytes that must agree between drivers
  size_t size = 0;
  // "exact": bytes equal (compared by hash);
  // "u8:<tol>": every byte within tol; "f32:<rtol>:<atol>": |a-b| <= atol + rtol*|b| per float
  // (the bytes are written to a file for the orchestrator to compare).
  std::string compare = "exact";
  std::string cpuCheck;  // empty when the CPU reference agrees, else what differs
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual void setup(Device& d, const Params& p) = 0;
  // One repetition. The default submits the command buffer setup() recorded with
  // recordTimed() and waits for idle.
  virtual Sample run(Device& d, int index);
  // One warm-up repetition (not timed): run() unless a workload has a cheaper way to use every
  // pipeline once and touch its memory.
  virtual void warmUp(Device& d, int index) { run(d, index); }
  virtual Output finish(Device& d) = 0;
  virtual Work work() const = 0;

 protected:
  // Records `record` between the start and end timestamps into the command buffer that the
  // default run() submits.
  void recordTimed(Device& d, const std::function<void(VkCommandBuffer)>& record);

 private:
  VkCommandBuffer timedCommands_ = VK_NULL_HANDLE;
};

struct WorkloadInfo {
  std::string name;
  std::string description;
  std::string metric;          // unit of the reported value, e.g. "GB/s", "GFLOP/s", "us/dispatch"
  double scale = 1;            // value = units * scale / seconds (rate) or seconds * scale / units
  bool rate = true;            // true: higher is better (units per second); false: a latency
  std::string group;           // "transfer", "compute", "pipeline"
  uint64_t defaultSize = 0;
  std::string sizeUnit;        // what Params::size counts, e.g. "bytes", "n", "bodies"
  std::vector<uint64_t> scalingSizes;  // sizes for the size-scaling run
  int defaultReps = 3;         // timed repetitions per process unless bench/run --reps says otherwise
  bool coldCaches = false;     // bench/run turns the drivers' disk caches off for every process
  std::function<std::unique_ptr<Workload>()> create;
};

std::vector<WorkloadInfo>& registry();
bool registerWorkload(WorkloadInfo info);

#define BENCH_CONCAT_(a, b) a##b
#define BENCH_CONCAT(a, b) BENCH_CONCAT_(a, b)
// Registers `Class` (default-constructible Workload) under the WorkloadInfo given after it.
#define BENCH_REGISTER(Class, ...)                                                            \
  static const bool BENCH_CONCAT(registered_, __LINE__) = ::bench::registerWorkload([] {     \
    ::bench::WorkloadInfo info = __VA_ARGS__;                                                 \
    info.create = [] { return std::unique_ptr<::bench::Workload>(new Class()); };             \
    return info;                                                                              \
  }())

// Deterministic pseudo-random numbers for input data (identical for every driver).
struct Rng {
  uint64_t state;
  explicit Rng(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  uint32_t next() {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return uint32_t(state >> 16);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * (1.0f / 16777216.0f); }
  int range(int lo, int hi) { return lo + int(next() % uint32_t(hi - lo + 1)); }  // inclusive
};

// Fills `bytes` bytes at `dst` with a deterministic pattern (several threads for large sizes).
void fillPattern(void* dst, size_t bytes, uint64_t seed);

}  // namespace bench
