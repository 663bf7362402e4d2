// OpReadClockKHR's clock (VK_KHR_shader_clock): nanoseconds of CLOCK_MONOTONIC, the clock
// vkCmdWriteTimestamp and the device time domain of VK_EXT_calibrated_timestamps read
// (icd/query_pool.cpp: timestampNow), so shader clocks, timestamps and calibrated host times are
// one time line. One clock serves both scopes: it is the same on every core (the kernel keeps
// CLOCK_MONOTONIC consistent across CPUs), so it is also a valid Device-scope clock.
#include <time.h>

#include <cstdint>

extern "C" uint64_t tessera_rt_read_clock() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}
