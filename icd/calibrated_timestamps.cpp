// VK_EXT_calibrated_timestamps ("Calibrated timestamps"): the device's time domain is the clock
// vkCmdWriteTimestamp writes (timestampNow: CLOCK_MONOTONIC in nanoseconds, so
// timestampPeriod is 1), and the shader clock reads it too (spirv_jit/runtime_clock.cpp). The
// host domains offered are CLOCK_MONOTONIC and CLOCK_MONOTONIC_RAW.
#include <time.h>

#include <algorithm>

#include "entrypoints.h"
#include "query_pool.h"

namespace tessera {
namespace {

constexpr VkTimeDomainEXT kTimeDomains[] = {VK_TIME_DOMAIN_DEVICE_EXT, VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT,
                                            VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT};

uint64_t monotonicRawNow() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

}  // namespace
}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceCalibrateableTimeDomainsEXT(VkPhysicalDevice, uint32_t* pTimeDomainCount,
                                                                                     VkTimeDomainEXT* pTimeDomains) {
  constexpr uint32_t n = uint32_t(std::size(kTimeDomains));
  if (!pTimeDomains) {
    *pTimeDomainCount = n;
    return VK_SUCCESS;
  }
  const uint32_t written = std::min(*pTimeDomainCount, n);
  std::copy_n(kTimeDomains, written, pTimeDomains);
  *pTimeDomainCount = written;
  return written < n ? VK_INCOMPLETE : VK_SUCCESS;
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetCalibratedTimestampsEXT(VkDevice, uint32_t timestampCount,
                                                                   const VkCalibratedTimestampInfoEXT* pTimestampInfos,
                                                                   uint64_t* pTimestamps, uint64_t* pMaxDeviation) {
  // The samples are taken one after another; the spec's maxDeviation is the largest difference
  // between their sampling instants, bounded here by the raw clock read before and after them
  // all, plus one tick (1 ns) of the coarsest domain for the reads' own granularity.
  const uint64_t begin = monotonicRawNow();
  for (uint32_t i = 0; i < timestampCount; ++i) {
    switch (pTimestampInfos[i].timeDomain) {
      case VK_TIME_DOMAIN_DEVICE_EXT:
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_EXT:
        pTimestamps[i] = timestampNow();
        break;
      case VK_TIME_DOMAIN_CLOCK_MONOTONIC_RAW_EXT:
        pTimestamps[i] = monotonicRawNow();
        break;
      default:
        pTimestamps[i] = 0;  // not a domain vkGetPhysicalDeviceCalibrateableTimeDomainsEXT offers
        break;
    }
  }
  const uint64_t end = monotonicRawNow();
  *pMaxDeviation = end - begin + 1;
  return VK_SUCCESS;
}

}  // extern "C"
