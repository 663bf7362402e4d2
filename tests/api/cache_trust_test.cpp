// Nothing that comes back from a cache is trusted (docs/SECURITY.md): VkPipelineCache data and
// disk cache files carry an HMAC under this installation's secret, and a damaged or foreign
// entry is a miss: the pipeline is compiled again, created, and computes the right values;
// nothing damaged is ever run (no application-cache hit is reported for it, the process does
// not crash). The spec lets a driver ignore any initial data (Vulkan 1.3 "Pipeline Cache",
// vkCreatePipelineCache: "if the data is incompatible ... the pipeline cache will be initially
// empty") and vkMergePipelineCaches's result is whatever the implementation keeps.
//
// Runs in other processes (this binary again, running only CacheTrustChild.*, with a disk cache
// directory of the test's own) check what a next run of the application sees: a process where
// nothing is loaded yet would run whatever it accepted.
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>

#include "compute_fixture.h"

namespace tessera_test {
namespace {

namespace fs = std::filesystem;

constexpr const char* kRole = "TESSERA_TEST_CACHE_TRUST_ROLE";          // produce | consume
constexpr const char* kDataFile = "TESSERA_TEST_CACHE_TRUST_DATA";      // pipeline cache data; "none": no cache
constexpr const char* kExpectHit = "TESSERA_TEST_CACHE_TRUST_EXPECT_HIT";  // 0 | 1
constexpr size_t kHeader = 16 + VK_UUID_SIZE;  // "Pipeline Cache Header", version one
constexpr size_t kEntryHeader = 20;             // Tessera's entry: 16-byte key, 32-bit length

std::vector<uint8_t> readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(bytes.data()),
                                                             std::streamsize(bytes.size()));
}

std::vector<uint8_t> floats(const std::vector<float>& v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

struct TempDir {
  fs::path path;
  explicit TempDir(const char* name)
      : path(fs::temp_directory_path() / (std::string(name) + "-" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Positions in a serialized object worth damaging one by one: its magic and kind, each stored
// value (local size, SIMD width, shared memory, barrier and zero-init flags, stack size), the
// symbol, the object file's start and middle, the digest's first and last byte.
std::vector<size_t> objectPositions(size_t size) {
  return {0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 43, 48, 56, 70, 120, size / 2, size - 32, size - 1};
}

class CacheTrust : public ComputeTest {
 protected:
  // saxpy (y = 2x + y over 200 elements, 4 workgroups of 64) through `cache`: the creation must
  // succeed and the values be right. Returns whether the application's cache was hit.
  bool createAndCheck(VkPipelineCache cache) {
    VkPipelineCreationFeedback feedback{};
    VkPipelineCreationFeedbackCreateInfo fci{VK_STRUCTURE_TYPE_PIPELINE_CREATION_FEEDBACK_CREATE_INFO};
    fci.pPipelineCreationFeedback = &feedback;
    Program p = createProgram(loadCorpusShader("saxpy"), 2, 8, cache, &fci);
    EXPECT_EQ(p.result, VK_SUCCESS);
    if (p.result != VK_SUCCESS) return false;
    constexpr uint32_t n = 200;
    std::vector<float> x(n), y(n);
    for (uint32_t i = 0; i < n; ++i) x[i] = float(i), y[i] = float(3 * i + 1);
    auto xb = floats(x), yb = floats(y);
    std::vector<uint8_t> push(8);
    const float a = 2.0f;
    std::memcpy(push.data(), &a, 4);
    std::memcpy(push.data() + 4, &n, 4);
    run(p, {&xb, &yb}, push, (n + 63) / 64);
    std::vector<float> out(n);
    std::memcpy(out.data(), yb.data(), yb.size());
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(out[i], 2.0f * x[i] + y[i]) << i;
    destroy(p);
    EXPECT_TRUE(feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_VALID_BIT);
    return feedback.flags & VK_PIPELINE_CREATION_FEEDBACK_APPLICATION_PIPELINE_CACHE_HIT_BIT;
  }

  VkPipelineCache cacheFrom(const std::vector<uint8_t>& data) {
    VkPipelineCacheCreateInfo ci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
    ci.initialDataSize = data.size();
    ci.pInitialData = data.data();
    VkPipelineCache cache = VK_NULL_HANDLE;
    EXPECT_EQ(vkCreatePipelineCache(device, &ci, nullptr, &cache), VK_SUCCESS);
    return cache;
  }

  std::vector<uint8_t> dataOf(VkPipelineCache cache) {
    size_t size = 0;
    EXPECT_EQ(vkGetPipelineCacheData(device, cache, &size, nullptr), VK_SUCCESS);
    std::vector<uint8_t> data(size);
    EXPECT_EQ(vkGetPipelineCacheData(device, cache, &size, data.data()), VK_SUCCESS);
    data.resize(size);
    return data;
  }
};

// This binary again, as the next run of an application: its own disk cache directory, the
// pipeline cache data in `dataFile` ("none": no VkPipelineCache). Success when it exited
// cleanly with every expectation met; otherwise the message carries the end of what it printed.
// The children run without LeakSanitizer (ASAN_OPTIONS=detect_leaks=0; no effect outside a
// sanitizer build): its exit-time tracer in GCC 12's libasan crashes now and then under load
// ("Tracer caught signal", tools/dev), which says nothing about the driver, and these runs are
// about what the cache accepts; leaks are the parent's and the other tests' to find. One rerun
// is still allowed for that crash.
::testing::AssertionResult runChild(const std::string& role, const fs::path& diskCache, const std::string& dataFile,
                                    bool expectHit, bool cacheOff = false) {
  const fs::path log = diskCache.parent_path() / ("child-" + role + ".log");
  const std::string command = std::string("ASAN_OPTIONS=detect_leaks=0 ") + (cacheOff ? "TESSERA_SHADER_CACHE=0 " : "") +
                              kRole + "=" + role + " " +
                              kDataFile + "='" + dataFile + "' " + kExpectHit +
                              "=" + (expectHit ? "1" : "0") + " TESSERA_SHADER_CACHE_DIR='" + diskCache.string() + "' '" +
                              fs::read_symlink("/proc/self/exe").string() +
                              "' --gtest_filter=CacheTrustChild.* > '" + log.string() + "' 2>&1";
  std::string printed;
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int status = std::system(command.c_str());
    const std::vector<uint8_t> bytes = readBytes(log);
    printed.assign(bytes.begin(), bytes.end());
    if (status == 0) return ::testing::AssertionSuccess();
    if (printed.find("Tracer caught signal") == std::string::npos) break;
  }
  constexpr size_t kTail = 3000;
  return ::testing::AssertionFailure() << "the child (" << role << (cacheOff ? ", disk cache off" : "")
                                       << ") failed; it printed:\n"
                                       << (printed.size() > kTail ? printed.substr(printed.size() - kTail) : printed);
}

using CacheTrustChild = CacheTrust;

TEST_F(CacheTrustChild, CreatesAndRunsThePipeline) {
  const char* role = std::getenv(kRole);
  if (!role) GTEST_SKIP() << "run by the CacheTrust tests in a process of its own";
  const std::string data = std::getenv(kDataFile);
  if (std::string(role) == "produce") {
    VkPipelineCache cache = cacheFrom({});
    EXPECT_FALSE(createAndCheck(cache));
    writeBytes(data, dataOf(cache));
    vkDestroyPipelineCache(device, cache, nullptr);
    return;
  }
  VkPipelineCache cache = data == "none" ? VK_NULL_HANDLE : cacheFrom(readBytes(data));
  EXPECT_EQ(createAndCheck(cache), std::string(std::getenv(kExpectHit)) == "1");
  if (cache) vkDestroyPipelineCache(device, cache, nullptr);
}

// Single bytes damaged at hundreds of places (every byte of the spec's header, of the entry's
// key and length, of the stored values and of the digest, and 300 random bytes of the object
// file): vkCreatePipelineCache succeeds, the pipeline is created and computes right, the
// damaged entry is never a hit, and a cache made from it merges nothing into another.
TEST_F(CacheTrust, DamagedPipelineCacheDataIsNeverUsedNorMerged) {
  VkPipelineCache original = cacheFrom({});
  createAndCheck(original);
  const std::vector<uint8_t> data = dataOf(original);
  vkDestroyPipelineCache(device, original, nullptr);
  ASSERT_GT(data.size(), kHeader + kEntryHeader + 200);
  uint32_t len;
  std::memcpy(&len, data.data() + kHeader + 16, 4);
  ASSERT_EQ(kHeader + kEntryHeader + len, data.size()) << "one entry";
  {
    VkPipelineCache intact = cacheFrom(data);
    EXPECT_TRUE(createAndCheck(intact)) << "the undamaged data hits";
    vkDestroyPipelineCache(device, intact, nullptr);
  }
  std::vector<size_t> positions;
  const size_t object = kHeader + kEntryHeader;
  for (size_t i = 0; i < object + 128; ++i) positions.push_back(i);
  for (size_t i = data.size() - 32; i < data.size(); ++i) positions.push_back(i);
  std::mt19937 random(14);
  for (int i = 0; i < 300; ++i) positions.push_back(object + random() % len);
  for (size_t pos : positions) {
    std::vector<uint8_t> damaged = data;
    damaged[pos] ^= uint8_t(1 + random() % 255);
    VkPipelineCache cache = cacheFrom(damaged);
    // Merged before the pipeline is created (creating it puts the process's own entry in).
    VkPipelineCache merged = cacheFrom({});
    ASSERT_EQ(vkMergePipelineCaches(device, merged, 1, &cache), VK_SUCCESS);
    EXPECT_EQ(dataOf(merged).size(), kHeader) << "byte " << pos << " damaged, yet the entry was merged";
    vkDestroyPipelineCache(device, merged, nullptr);
    EXPECT_FALSE(createAndCheck(cache)) << "byte " << pos << " damaged, yet the entry was used";
    vkDestroyPipelineCache(device, cache, nullptr);
    if (HasFailure()) break;
  }
}

// Data saved by one run hits in the next run of the same user (the secret is the
// installation's), and the same data with one byte damaged (header, key, stored values, code,
// digest) is compiled again there: created, right values, no hit, no crash.
TEST_F(CacheTrust, PipelineCacheDataFromAnEarlierRunHitsAndDamagedDataIsRecompiled) {
  TempDir dir("tessera-cache-trust-data");
  const fs::path disk = dir.path / "shader-cache", file = dir.path / "pipeline-cache.bin";
  ASSERT_TRUE(runChild("produce", disk, file, false));
  const std::vector<uint8_t> data = readBytes(file);
  ASSERT_GT(data.size(), kHeader + kEntryHeader + 200);
  EXPECT_TRUE(runChild("consume", disk, file, true)) << "saved data hits in the next run";
  // Both cache directories private, the secret too.
  EXPECT_EQ(fs::status(disk).permissions(), fs::perms::owner_all);
  EXPECT_EQ(fs::status(disk / "secret.key").permissions(), fs::perms::owner_read | fs::perms::owner_write);
  std::vector<size_t> positions = {3, kHeader + 5, kHeader + 17};
  for (size_t p : objectPositions(data.size() - kHeader - kEntryHeader)) positions.push_back(kHeader + kEntryHeader + p);
  const fs::path damagedFile = dir.path / "damaged.bin";
  for (size_t pos : positions) {
    std::vector<uint8_t> damaged = data;
    damaged[pos] ^= 0x24;
    writeBytes(damagedFile, damaged);
    EXPECT_TRUE(runChild("consume", disk, damagedFile, false)) << "byte " << pos << " damaged";
  }
  // Another installation (another secret) never accepts this one's data.
  EXPECT_TRUE(runChild("consume", dir.path / "other-installation", file, false));
  // With the disk cache off there is no installation secret: a process's key is its own, so
  // its data does not hit in the next run, and the installation's data does not hit in it.
  const fs::path offFile = dir.path / "cache-off.bin";
  ASSERT_TRUE(runChild("produce", disk, offFile, false, true));
  EXPECT_TRUE(runChild("consume", disk, offFile, false)) << "a per-process key's data hit in another process";
  EXPECT_TRUE(runChild("consume", disk, file, false, true));
  EXPECT_TRUE(runChild("consume", disk, offFile, false, true));
}

// A disk cache file damaged at one byte, owned by someone else, or reached through a symbolic
// link is not loaded: the next run compiles again (and writes a fresh private file), creates
// the pipeline and computes the right values.
TEST_F(CacheTrust, DamagedOrForeignDiskCacheFilesAreRecompiled) {
  TempDir dir("tessera-cache-trust-disk");
  const fs::path disk = dir.path / "shader-cache";
  ASSERT_TRUE(runChild("produce", disk, (dir.path / "unused.bin").string(), false));
  fs::path file;
  for (auto& e : fs::directory_iterator(disk))
    if (e.path().extension() == ".tso") file = e.path();
  ASSERT_FALSE(file.empty());
  EXPECT_EQ(fs::status(file).permissions(), fs::perms::owner_read | fs::perms::owner_write);
  const std::vector<uint8_t> bytes = readBytes(file);
  for (size_t pos : objectPositions(bytes.size())) {
    std::vector<uint8_t> damaged = bytes;
    damaged[pos] ^= 0x24;
    writeBytes(file, damaged);
    EXPECT_TRUE(runChild("consume", disk, "none", false)) << "byte " << pos << " damaged";
    EXPECT_NE(readBytes(file), damaged) << "byte " << pos << " damaged, yet the file was not compiled again";
  }
  // Through a symbolic link to a valid file: not followed, compiled again.
  const fs::path elsewhere = dir.path / "elsewhere.tso";
  writeBytes(elsewhere, bytes);
  fs::remove(file);
  fs::create_symlink(elsewhere, file);
  EXPECT_TRUE(runChild("consume", disk, "none", false));
  EXPECT_FALSE(fs::is_symlink(file)) << "the link was not replaced by a compile";
  // Owned by another user (needs root to arrange): ignored, compiled again.
  if (geteuid() == 0) {
    writeBytes(file, bytes);
    ASSERT_EQ(chown(file.c_str(), 65534, 65534), 0);
    EXPECT_TRUE(runChild("consume", disk, "none", false));
    struct stat st;
    ASSERT_EQ(stat(file.c_str(), &st), 0);
    EXPECT_EQ(st.st_uid, 0u) << "another user's file was used";
  }
}

}  // namespace
}  // namespace tessera_test
