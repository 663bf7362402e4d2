// Keeps the on-disk shader cache under a size limit, least recently used files first.
#pragma once

#include <cstdint>
#include <string>

namespace tessera::jit {

// TESSERA_SHADER_CACHE_MAX_MB (default 256): the most the disk cache may hold.
uint64_t diskCacheLimitBytes();

// Deletes the cache's *.tso files with the oldest modification times (reads refresh them, see
// markDiskCacheUse) until the total is at most 3/4 of limitBytes, when it is above limitBytes.
// Other files, and files another process deletes meanwhile, are left alone. Returns the bytes
// the directory holds afterwards.
uint64_t trimDiskCache(const std::string& directory, uint64_t limitBytes);

// Marks a cache file as just used (its modification time becomes now).
void markDiskCacheUse(const std::string& path);

}  // namespace tessera::jit
