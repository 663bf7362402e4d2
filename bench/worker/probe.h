// The roofline probe: what this machine can do at most on the CPUs this process may use, so
// that every benchmark result can also be shown as a share of the physical limit.
#pragma once

#include <string>

namespace bench {

// Measures memset and memcpy bandwidth (bytes per second over `bytes`-sized buffers, larger
// than the caches) and FMA throughput (single-precision FLOP/s) for each SIMD width the CPU
// supports, on `threads` threads. Takes well under a second. Returns one JSON object.
std::string runProbe(int threads, size_t bytes);

}  // namespace bench
