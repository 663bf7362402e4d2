// A bound on the memory one draw's vertex work may take, checked before vectors are sized by
// the application's counts (vkCmdDraw with 2^31 vertices): above it the draw throws
// std::bad_alloc, which the queue turns into a lost device (icd/queue.cpp). Without the bound
// the allocation could succeed (Linux overcommits) and the kernel's OOM killer end the
// process once the pages are touched, or a plain std::bad_alloc reach std::terminate.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <new>

namespace tessera::raster {

// Half of physical memory: no draw may take more for its indices and shaded vertices.
inline uint64_t drawMemoryLimitBytes() {
  static const uint64_t limit = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    return pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) / 2 : uint64_t(4) << 30;
  }();
  return limit;
}

// Throws std::bad_alloc when `elements` of `bytesPerElement` exceed the bound.
inline void requireDrawMemory(uint64_t elements, uint64_t bytesPerElement) {
  if (bytesPerElement && elements > drawMemoryLimitBytes() / bytesPerElement) throw std::bad_alloc();
}

}  // namespace tessera::raster
