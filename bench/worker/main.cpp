// tessera-bench-worker: runs ONE workload on ONE driver (whichever the Vulkan loader finds;
// the orchestrator bench/run selects it with VK_DRIVER_FILES) and prints one JSON line:
// device identity, per-repetition times, the work done, a hash of the output, the CPU
// check's verdict and the peak resident memory. See bench/README.md.
//
//   tessera-bench-worker --list
//   tessera-bench-worker --probe [--threads N] [--size BYTES]
//   tessera-bench-worker --workload NAME [--size N] [--reps N] [--warmup N] [--dump-dir DIR]
//                        [--cache-dir DIR] [--expect-driver-id ID] [--expect-name PREFIX]
//                        [--validation]
#include <sys/resource.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "device.h"
#include "json.h"
#include "probe.h"
#include "workload.h"

namespace bench {
namespace {

uint64_t hashBytes(const void* data, size_t n) {
  // Four independent multiply-rotate lanes over 8-byte words: fast enough for 256 MiB outputs.
  const auto* p = static_cast<const uint8_t*>(data);
  const uint64_t k1 = 0x9E3779B185EBCA87ull, k2 = 0xC2B2AE3D27D4EB4Full;
  uint64_t h[4] = {k1 ^ n, k2 ^ n, k1 + k2, k1 - k2};
  auto rotl = [](uint64_t x, int r) { return (x << r) | (x >> (64 - r)); };
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, p + i + 8 * l, 8);
      h[l] = rotl(h[l] + w * k2, 31) * k1;
    }
  uint64_t r = rotl(h[0], 1) + rotl(h[1], 7) + rotl(h[2], 12) + rotl(h[3], 18);
  for (; i < n; ++i) r = (r ^ p[i]) * 0x100000001B3ull;
  r ^= r >> 33;
  r *= 0xFF51AFD7ED558CCDull;
  r ^= r >> 33;
  return r;
}

std::string hex(uint64_t v) {
  char buf[20];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string apiVersion(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
         std::to_string(VK_API_VERSION_PATCH(v));
}

long maxRssKib() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;  // KiB on Linux
}

JsonObject describe(const WorkloadInfo& w) {
  std::vector<double> sizes(w.scalingSizes.begin(), w.scalingSizes.end());
  JsonObject o;
  o.str("name", w.name)
      .str("description", w.description)
      .str("group", w.group)
      .str("metric", w.metric)
      .num("scale", w.scale)
      .boolean("rate", w.rate)
      .integer("default_size", int64_t(w.defaultSize))
      .str("size_unit", w.sizeUnit)
      .numbers("scaling_sizes", sizes)
      .integer("default_reps", w.defaultReps)
      .boolean("cold_caches", w.coldCaches);
  return o;
}

const char* envOr(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

int usage() {
  std::fprintf(stderr,
               "usage: tessera-bench-worker --list\n"
               "       tessera-bench-worker --probe [--threads N] [--size BYTES]\n"
               "       tessera-bench-worker --workload NAME [--size N] [--reps N] [--warmup N]\n"
               "                            [--dump-dir DIR] [--cache-dir DIR] [--validation]\n"
               "                            [--expect-driver-id ID] [--expect-name PREFIX]\n");
  return 2;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  using namespace bench;
  std::string workloadName, dumpDir, expectName;
  Params params;
  long expectDriverId = -1;
  bool list = false, probe = false, validation = false;
  int threads = 0;
  uint64_t size = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--list") list = true;
    else if (a == "--probe") probe = true;
    else if (a == "--validation") validation = true;
    else if (a == "--workload") workloadName = value();
    else if (a == "--size") size = std::strtoull(value().c_str(), nullptr, 0);
    else if (a == "--reps") params.reps = std::atoi(value().c_str());
    else if (a == "--warmup") params.warmup = std::atoi(value().c_str());
    else if (a == "--threads") threads = std::atoi(value().c_str());
    else if (a == "--dump-dir") dumpDir = value();
    else if (a == "--cache-dir") params.cacheDir = value();
    else if (a == "--expect-driver-id") expectDriverId = std::strtol(value().c_str(), nullptr, 0);
    else if (a == "--expect-name") expectName = value();
    else return usage();
  }

  if (list) {
    for (const WorkloadInfo& w : registry()) std::printf("%s\n", describe(w).str().c_str());
    return 0;
  }
  if (probe) {
    if (threads <= 0) threads = int(std::thread::hardware_concurrency());
    std::printf("%s\n", runProbe(threads, size ? size_t(size) : size_t(128) << 20).c_str());
    return 0;
  }
  const WorkloadInfo* info = nullptr;
  for (const WorkloadInfo& w : registry())
    if (w.name == workloadName) info = &w;
  if (!info) {
    std::fprintf(stderr, "unknown workload '%s' (--list shows them)\n", workloadName.c_str());
    return usage();
  }
  if (params.reps < 1 || params.warmup < 0) return usage();
  params.size = size ? size : info->defaultSize;

  JsonObject out;
  out.str("worker", "tessera-bench-worker").integer("version", 1).str("workload", info->name);
  JsonObject p;
  p.integer("size", int64_t(params.size)).integer("reps", params.reps).integer("warmup", params.warmup);
  out.object("params", p);
  JsonObject env;
  env.str("TESSERA_THREADS", envOr("TESSERA_THREADS", "")).str("LP_NUM_THREADS", envOr("LP_NUM_THREADS", ""))
      .str("LP_NATIVE_VECTOR_WIDTH", envOr("LP_NATIVE_VECTOR_WIDTH", ""));
  out.object("env", env);

  std::string status = "ok", reason;
  std::vector<double> wall, device;
  try {
    auto d = std::make_unique<Device>(validation);
    JsonObject dev;
    dev.str("name", d->properties.deviceName)
        .integer("driver_id", d->driverProperties.driverID)
        .str("driver_name", d->driverProperties.driverName)
        .str("driver_info", d->driverProperties.driverInfo)
        .str("api_version", apiVersion(d->properties.apiVersion))
        .integer("vendor_id", d->properties.vendorID)
        .boolean("timestamps", d->hasTimestamps)
        .num("timestamp_period_ns", d->properties.limits.timestampPeriod);
    out.object("device", dev);
    if (expectDriverId >= 0 && long(d->driverProperties.driverID) != expectDriverId)
      throw Failure("wrong driver: driverID " + std::to_string(d->driverProperties.driverID) + ", expected " +
                    std::to_string(expectDriverId));
    if (!expectName.empty() && std::strncmp(d->properties.deviceName, expectName.c_str(), expectName.size()) != 0)
      throw Failure(std::string("wrong driver: device '") + d->properties.deviceName + "', expected '" + expectName +
                    "...'");

    std::unique_ptr<Workload> w = info->create();
    w->setup(*d, params);
    for (int i = 0; i < params.warmup; ++i) w->warmUp(*d, i);
    for (int i = 0; i < params.reps; ++i) {
      Sample s = w->run(*d, params.warmup + i);
      wall.push_back(s.wallSeconds);
      device.push_back(s.deviceSeconds);
    }
    Output o = w->finish(*d);
    Work work = w->work();
    JsonObject wk;
    wk.num("units", work.units).num("bytes_read", work.bytesRead).num("bytes_written", work.bytesWritten)
        .num("flops", work.flops);
    out.object("work", wk);
    JsonObject res;
    res.str("hash", hex(hashBytes(o.data, o.size))).integer("bytes", int64_t(o.size)).str("compare", o.compare);
    if (o.compare != "exact" && !dumpDir.empty()) {
      std::string path = dumpDir + "/" + info->name + ".bin";
      std::ofstream f(path, std::ios::binary);
      f.write(static_cast<const char*>(o.data), std::streamsize(o.size));
      if (!f) throw Failure("cannot write " + path);
      res.str("dump", path);
    }
    res.str("cpu_check", o.cpuCheck.empty() ? "passed" : o.cpuCheck);
    out.object("output", res);
    if (!o.cpuCheck.empty()) {
      status = "failed";
      reason = "CPU reference check: " + o.cpuCheck;
    }
    if (d->validationErrors()) {
      status = "failed";
      reason = std::to_string(d->validationErrors()) + " validation error(s), first: " + d->firstValidationError();
    }
  } catch (const Unsupported& e) {
    status = "unsupported";
    reason = e.what();
  } catch (const std::exception& e) {
    status = std::strncmp(e.what(), "wrong driver", 12) == 0 ? "wrong-driver" : "failed";
    reason = e.what();
  }
  out.numbers("wall_s", wall).numbers("device_s", device).integer("maxrss_kib", maxRssKib());
  out.str("status", status);
  if (!reason.empty()) out.str("reason", reason);
  std::printf("%s\n", out.str().c_str());
  std::fflush(stdout);
  return status == "ok" || status == "unsupported" ? 0 : 1;
}
