// Query pools. Transform feedback stream queries hold two counts (cmd_sync.cpp). Timestamps are nanoseconds of CLOCK_MONOTONIC (timestampPeriod = 1). Occlusion
// queries count samples that pass: with no draws recorded between begin and end that is 0.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vulkan/vulkan_core.h>

namespace tessera {

struct QueryPool {
  VkQueryType type;
  uint32_t count;
  // Values per query: 2 for VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT (primitives written,
  // primitives needed), else 1. values holds count * valuesPerQuery.
  uint32_t valuesPerQuery = 1;
  std::unique_ptr<uint64_t[]> values;
  std::unique_ptr<bool[]> available;
  // VK_QUERY_TYPE_PIPELINE_STATISTICS: the statistics a query holds (pipelineStatistics), its
  // values in the order of their bits, and per query the execution's counters at its begin
  // (raster::kPipelineStatistics each).
  VkQueryPipelineStatisticFlags statisticsFlags = 0;
  std::unique_ptr<uint64_t[]> statisticsBase;
  // VK_QUERY_TYPE_TRANSFORM_FEEDBACK_STREAM_EXT and VK_QUERY_TYPE_PRIMITIVES_GENERATED_EXT: per
  // query the execution's running counts of its stream at its begin (2 each: primitives
  // written and needed, or generated and 0).
  std::unique_ptr<uint64_t[]> countBase;
  std::mutex mutex;
  std::condition_variable cv;

  void reset(uint32_t first, uint32_t n);
  void write(uint32_t query, uint64_t value, uint64_t second = 0);
  // Writes a query's valuesPerQuery values at once and makes it available.
  void writeAll(uint32_t query, const uint64_t* v);
  // Writes results as vkGetQueryPoolResults / vkCmdCopyQueryPoolResults describe.
  VkResult copyResults(uint32_t first, uint32_t n, uint8_t* out, VkDeviceSize stride, VkQueryResultFlags flags);
};

uint64_t timestampNow();

}  // namespace tessera
