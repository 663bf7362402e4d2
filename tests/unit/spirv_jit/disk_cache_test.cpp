// The disk cache's size limit (disk_cache_trim.h): least recently used files go first.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "disk_cache_trim.h"

namespace tessera_test {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("tessera-disk-cache-test-" + std::to_string(getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void writeFile(const fs::path& p, size_t bytes, int ageSeconds) {
  std::ofstream(p, std::ios::binary) << std::string(bytes, 'x');
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::seconds(ageSeconds));
}

TEST(DiskCache, TrimDeletesTheLeastRecentlyUsedFilesDownToThreeQuartersOfTheLimit) {
  TempDir dir;
  constexpr size_t kFile = 100 << 10;
  for (int i = 0; i < 10; ++i) writeFile(dir.path / ("f" + std::to_string(i) + ".tso"), kFile, 100 - i);  // f9 newest
  writeFile(dir.path / "notes.txt", kFile, 1000);  // not a cache file: never deleted
  // f0 is the oldest by writing, but was just read: it must survive.
  tessera::jit::markDiskCacheUse((dir.path / "f0.tso").string());

  const uint64_t left = tessera::jit::trimDiskCache(dir.path.string(), 8 * kFile);
  EXPECT_LE(left, 6 * kFile);
  EXPECT_TRUE(fs::exists(dir.path / "f0.tso"));
  EXPECT_TRUE(fs::exists(dir.path / "f9.tso"));
  EXPECT_FALSE(fs::exists(dir.path / "f1.tso"));
  EXPECT_FALSE(fs::exists(dir.path / "f2.tso"));
  EXPECT_TRUE(fs::exists(dir.path / "notes.txt"));
  size_t remaining = 0;
  for (auto& e : fs::directory_iterator(dir.path)) remaining += e.path().extension() == ".tso";
  EXPECT_EQ(remaining, 6u);
}

TEST(DiskCache, TrimLeavesACacheUnderItsLimitAlone) {
  TempDir dir;
  for (int i = 0; i < 3; ++i) writeFile(dir.path / ("f" + std::to_string(i) + ".tso"), 1000, i);
  EXPECT_EQ(tessera::jit::trimDiskCache(dir.path.string(), 3000), 3000u);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 3);
  // A directory that does not exist is an empty cache, not an error.
  EXPECT_EQ(tessera::jit::trimDiskCache((dir.path / "missing").string(), 10), 0u);
}

}  // namespace
}  // namespace tessera_test
