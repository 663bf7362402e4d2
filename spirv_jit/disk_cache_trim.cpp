// The disk cache's size limit. Without one, every distinct pipeline a machine ever compiled
// stayed on disk (a CTS run left 34,000 files, 266 MB in ~/.cache/tessera).
#include "disk_cache_trim.h"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace tessera::jit {

uint64_t diskCacheLimitBytes() {
  static const uint64_t limit = [] {
    constexpr uint64_t kDefaultMiB = 256;
    const char* v = std::getenv("TESSERA_SHADER_CACHE_MAX_MB");
    char* end = nullptr;
    const unsigned long long mib = v && *v ? std::strtoull(v, &end, 10) : kDefaultMiB;
    return (end && *end) ? kDefaultMiB << 20 : uint64_t(mib) << 20;
  }();
  return limit;
}

uint64_t trimDiskCache(const std::string& directory, uint64_t limitBytes) {
  namespace fs = std::filesystem;
  struct Entry {
    fs::path path;
    fs::file_time_type time;
    uint64_t size;
  };
  std::vector<Entry> entries;
  uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".tso") continue;
    std::error_code e1, e2;
    const uint64_t size = it->file_size(e1);
    const auto time = it->last_write_time(e2);
    if (e1 || e2) continue;  // deleted meanwhile
    entries.push_back({it->path(), time, size});
    total += size;
  }
  if (total <= limitBytes) return total;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.time < b.time; });
  const uint64_t target = limitBytes / 4 * 3;  // some room, so the next writes do not trim again
  for (const Entry& e : entries) {
    if (total <= target) break;
    std::error_code removeError;
    if (fs::remove(e.path, removeError) || !removeError) total -= std::min(total, e.size);
  }
  return total;
}

void markDiskCacheUse(const std::string& path) { utimensat(AT_FDCWD, path.c_str(), nullptr, 0); }

}  // namespace tessera::jit
