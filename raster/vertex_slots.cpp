// mapVertexSlots (vertex_slots.h). Built with -O3 (raster/CMakeLists.txt): the index range's
// minimum and maximum is a reduction GCC vectorizes there, not at -O2, in clones for hosts with
// unsigned vector minimum and maximum (x86-64's baseline, SSE2, has none).
#include "vertex_slots.h"

#include <algorithm>
#include <atomic>
#include <utility>

#include "tessera/thread_pool.h"

namespace tessera::raster {
namespace {

constexpr size_t kRange = size_t(1) << 16;  // entries per task

std::pair<size_t, size_t> rangeOf(size_t r, size_t size) { return {r * kRange, std::min(size, (r + 1) * kRange)}; }

// The smallest and largest index of positions [begin, end) that are not restarts.
__attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4"))) std::pair<uint32_t, uint32_t> indexBounds(const uint32_t* indices, const uint8_t* restart, size_t begin, size_t end) {
  uint32_t lo = UINT32_MAX, hi = 0;
  if (!restart) {
    for (size_t i = begin; i < end; ++i) lo = std::min(lo, indices[i]), hi = std::max(hi, indices[i]);
  } else {
    for (size_t i = begin; i < end; ++i) {
      const bool skip = restart[i] != 0;
      lo = std::min(lo, skip ? UINT32_MAX : indices[i]);
      hi = std::max(hi, skip ? 0u : indices[i]);
    }
  }
  return {lo, hi};
}

}  // namespace

void mapVertexSlots(const DrawCall& c, VertexIndexList& list, VertexSlots& out, std::vector<uint32_t>& table,
                    ThreadPool& pool) {
  const uint32_t n = c.vertexCount;
  out.slotOf.clear();
  if (!c.indexed) {
    out.vertexIndex.swap(list.vertexIndex);
    return;
  }
  const uint32_t* indices = list.vertexIndex.data();
  const uint8_t* restart = list.isRestart.empty() ? nullptr : list.isRestart.data();
  const size_t ranges = (size_t(n) + kRange - 1) / kRange;
  std::vector<std::pair<uint32_t, uint32_t>> bounds(ranges);
  pool.parallelFor(ranges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, n);
    bounds[r] = indexBounds(indices, restart, begin, end);
  });
  uint32_t lo = UINT32_MAX, hi = 0;
  for (const auto& [l, h] : bounds) lo = std::min(lo, l), hi = std::max(hi, h);
  if (lo > hi || uint64_t(hi) - lo >= 4ull * n + 4096) {
    out.vertexIndex.swap(list.vertexIndex);
    return;
  }
  // The range's used entries are marked (1), then numbered in order: an entry's slot is the
  // count of used entries before it.
  const size_t span = size_t(hi - lo) + 1, spanRanges = (span + kRange - 1) / kRange;
  table.resize(span);
  pool.parallelFor(spanRanges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, span);
    std::fill(table.begin() + begin, table.begin() + end, 0u);
  });
  pool.parallelFor(ranges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, n);
    for (size_t i = begin; i < end; ++i)  // another range may mark the same entry: atomic
      if (!restart || !restart[i]) std::atomic_ref<uint32_t>(table[indices[i] - lo]).store(1, std::memory_order_relaxed);
  });
  std::vector<uint32_t> firstSlot(spanRanges + 1, 0);
  pool.parallelFor(spanRanges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, span);
    uint32_t used = 0;
    for (size_t j = begin; j < end; ++j) used += table[j];
    firstSlot[r + 1] = used;
  });
  for (size_t r = 0; r < spanRanges; ++r) firstSlot[r + 1] += firstSlot[r];
  out.vertexIndex.resize(firstSlot[spanRanges]);
  pool.parallelFor(spanRanges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, span);
    uint32_t slot = firstSlot[r];
    for (size_t j = begin; j < end; ++j)
      if (table[j]) {
        table[j] = slot;
        out.vertexIndex[slot++] = lo + uint32_t(j);
      }
  });
  out.slotOf.resize(n);
  pool.parallelFor(ranges, [&](size_t r) {
    const auto [begin, end] = rangeOf(r, n);
    for (size_t i = begin; i < end; ++i) out.slotOf[i] = restart && restart[i] ? 0 : table[indices[i] - lo];
  });
}

}  // namespace tessera::raster
