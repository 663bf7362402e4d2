// Splits big transfers over the shared thread pool: small ones run inline (the pool's
// hand-off costs more than it saves below about a megabyte).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>

#include "tessera/thread_pool.h"

namespace tessera {

constexpr size_t kParallelCopyThreshold = 1 << 20;
constexpr size_t kCopyChunkBytes = 256 * 1024;

// Calls rowFn(i) for i in [0, rows), in parallel chunks when rows * bytesPerRow is large.
template <typename RowFn>
void forEachRow(size_t rows, size_t bytesPerRow, RowFn&& rowFn) {
  const size_t total = rows * bytesPerRow;
  if (total < kParallelCopyThreshold || rows < 2) {
    for (size_t i = 0; i < rows; ++i) rowFn(i);
    return;
  }
  const size_t rowsPerChunk = std::max<size_t>(1, kCopyChunkBytes / std::max<size_t>(1, bytesPerRow));
  const size_t chunks = (rows + rowsPerChunk - 1) / rowsPerChunk;
  ThreadPool::shared().parallelFor(chunks, [&](size_t c) {
    const size_t end = std::min(rows, (c + 1) * rowsPerChunk);
    for (size_t i = c * rowsPerChunk; i < end; ++i) rowFn(i);
  });
}

// memcpy / memset of one large range, in parallel chunks.
inline void parallelMemcpy(void* dst, const void* src, size_t bytes) {
  forEachRow((bytes + kCopyChunkBytes - 1) / kCopyChunkBytes, kCopyChunkBytes, [&](size_t i) {
    const size_t off = i * kCopyChunkBytes;
    std::memmove(static_cast<char*>(dst) + off, static_cast<const char*>(src) + off,
                 std::min(kCopyChunkBytes, bytes - off));
  });
}

}  // namespace tessera
