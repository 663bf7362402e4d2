// Cache entries are authenticated (cache_digest.h, cache_directory.h, docs/SECURITY.md): every
// byte of a serialized object is covered by the HMAC, an entry whose digest was made without
// the secret is refused, the cache directory and its files are private, and files that are
// not plain files of this user are not read.
// (This binary's disk cache directory is set by graphics_cache_test.cpp before anything reads it.)
#include <gtest/gtest.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <sys/stat.h>
#include <unistd.h>

#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cache_digest.h"
#include "cache_directory.h"
#include "code_cache.h"
#include "compute_harness.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

namespace fs = std::filesystem;
using namespace tessera::jit;

struct OneEntryCache final : ExternalCache {
  std::mutex mutex;
  std::map<std::string, std::vector<uint8_t>> entries;
  bool find(const uint8_t key[16], std::vector<uint8_t>* blob) override {
    std::lock_guard lock(mutex);
    auto it = entries.find(std::string(reinterpret_cast<const char*>(key), 16));
    if (it == entries.end()) return false;
    *blob = it->second;
    return true;
  }
  void insert(const uint8_t key[16], const std::vector<uint8_t>& blob) override {
    std::lock_guard lock(mutex);
    entries.emplace(std::string(reinterpret_cast<const char*>(key), 16), blob);
  }
};

// saxpy compiled with a specialization no other test uses, so that this compile stores it;
// the serialized object as the application's cache received it, and its key.
struct CompiledEntry {
  CacheKey key;
  uint8_t keyBytes[16];
  std::vector<uint8_t> blob;
};

CompiledEntry compileSaxpy(uint32_t salt) {
  static const std::vector<uint32_t> words = loadShader("saxpy");
  ComputeCompileRequest req;
  req.spirv = words;
  req.interface.simdWidth = 8;
  for (uint32_t i = 0; i < 2; ++i) req.interface.bindings.push_back({0, i, kStorageBuffer, 1, i * tessera::abi::kDescriptorSize, -1});
  const uint32_t value = uint32_t(getpid()) ^ salt;
  const SpecializationEntry entry{900, 0, 4};  // no such constant: only the key changes
  req.specialization = {&entry, 1};
  req.specializationData = &value;
  req.specializationDataSize = 4;
  OneEntryCache app;
  req.external = &app;
  CompileResult r = compileCompute(req);
  EXPECT_EQ(r.status, CompileStatus::Success) << r.message;
  CompiledEntry e;
  e.key = computeCacheKey(req);
  e.key.bytes(e.keyBytes);
  EXPECT_EQ(app.entries.size(), 1u);
  if (!app.entries.empty()) e.blob = app.entries.begin()->second;
  return e;
}

// A kernel whose barriers are coroutine suspend points (translate_barrier_coroutine.cpp) says
// so in its serialized form: loaded from the application's cache it must still be run as one
// (its entry returns a frame), and the loaded program gives the same results.
TEST(CacheTrust, ACoroutineKernelLoadedFromTheCacheIsStillResumable) {
  static const std::vector<uint32_t> words = loadShader("shared_barrier_call");
  ComputeCompileRequest req;
  req.spirv = words;
  req.interface.simdWidth = 8;
  req.interface.bindings.push_back({0, 0, kStorageBuffer, 1, 0, -1});
  const uint32_t value = uint32_t(getpid()) ^ 0x2002;
  const SpecializationEntry entry{900, 0, 4};  // no such constant: only the key changes
  req.specialization = {&entry, 1};
  req.specializationData = &value;
  req.specializationDataSize = 4;
  OneEntryCache app;
  req.external = &app;
  CompileResult first = compileCompute(req);
  ASSERT_EQ(first.status, CompileStatus::Success) << first.message;
  ASSERT_TRUE(first.program->resumable);
  ASSERT_EQ(app.entries.size(), 1u);
  CachedObject o;
  ASSERT_TRUE(deserializeObject(app.entries.begin()->second.data(), app.entries.begin()->second.size(), &o));
  EXPECT_TRUE(o.info.resumable);
  EXPECT_TRUE(o.info.usesBarrier);
  req.cacheOnly = true;
  req.useCache = true;
  CompileResult again = compileCompute(req);
  ASSERT_EQ(again.status, CompileStatus::Success) << again.message;
  ASSERT_TRUE(again.program->resumable);
  ComputeRun run;
  auto out = zeros<uint32_t>(128);
  run.buffers = {&out};
  run.groups[0] = 2;
  dispatch(*again.program, run);
  auto v = valuesOf<uint32_t>(out);
  for (uint32_t i = 0; i < 128; ++i) ASSERT_EQ(v[i], 3 * (i % 64) + 1 + i / 64) << "invocation " << i;
}

TEST(CacheTrust, EveryByteOfACompiledObjectIsCoveredByTheDigest) {
  const CompiledEntry e = compileSaxpy(0x1001);
  ASSERT_GT(e.blob.size(), 1000u);
  CachedObject o;
  ASSERT_TRUE(deserializeObject(e.blob.data(), e.blob.size(), &o));
  ASSERT_TRUE(isAuthenticCacheEntry(e.keyBytes, e.blob.data(), e.blob.size()));
  std::mt19937 random(14);
  for (size_t i = 0; i < e.blob.size(); ++i) {
    std::vector<uint8_t> bad = e.blob;
    bad[i] ^= uint8_t(1 + random() % 255);
    ASSERT_FALSE(deserializeObject(bad.data(), bad.size(), &o)) << "byte " << i;
    ASSERT_FALSE(isAuthenticCacheEntry(e.keyBytes, bad.data(), bad.size())) << "byte " << i;
  }
  // Truncated, or with a byte added.
  for (size_t n : {size_t(0), size_t(31), size_t(32), e.blob.size() - 1})
    EXPECT_FALSE(deserializeObject(e.blob.data(), n, &o)) << n;
  std::vector<uint8_t> longer = e.blob;
  longer.push_back(0);
  EXPECT_FALSE(deserializeObject(longer.data(), longer.size(), &o));
  // An authentic entry under another key is not that key's.
  uint8_t otherKey[16];
  std::memcpy(otherKey, e.keyBytes, 16);
  otherKey[5] ^= 1;
  EXPECT_FALSE(isAuthenticCacheEntry(otherKey, e.blob.data(), e.blob.size()));
}

// Whoever changes a stored value and recomputes the digest without the secret (with a key of
// their own, or the unkeyed checksum of the previous format) gets a miss.
TEST(CacheTrust, AnEntryWhoseDigestWasMadeWithoutTheSecretIsRefused) {
  const CompiledEntry e = compileSaxpy(0x2002);
  ASSERT_GT(e.blob.size(), 1000u);
  const size_t body = e.blob.size() - kCacheDigestBytes;
  std::vector<uint8_t> forged(e.blob.begin(), e.blob.begin() + long(body));
  const uint32_t hugeShared = 1u << 20;
  std::memcpy(forged.data() + 24, &hugeShared, 4);  // sharedMemoryBytes
  uint8_t attackerKey[32];
  for (int i = 0; i < 32; ++i) attackerKey[i] = uint8_t(i * 7);
  uint8_t digest[32];
  unsigned int length = 0;
  ASSERT_NE(HMAC(EVP_sha256(), attackerKey, 32, forged.data(), forged.size(), digest, &length), nullptr);
  forged.insert(forged.end(), digest, digest + 32);
  CachedObject o;
  EXPECT_FALSE(deserializeObject(forged.data(), forged.size(), &o));
  EXPECT_FALSE(isAuthenticCacheEntry(e.keyBytes, forged.data(), forged.size()));
  // The same change with the digest the driver would make is accepted: the refusal above is
  // the secret's doing, not the changed value's.
  std::vector<uint8_t> signedByDriver(forged.begin(), forged.begin() + long(body));
  ASSERT_TRUE(cacheDigest(signedByDriver.data(), signedByDriver.size(), digest));
  signedByDriver.insert(signedByDriver.end(), digest, digest + 32);
  ASSERT_TRUE(deserializeObject(signedByDriver.data(), signedByDriver.size(), &o));
  EXPECT_EQ(o.info.sharedMemoryBytes, hugeShared);
}

TEST(CacheTrust, TheDirectoryTheSecretAndTheFilesArePrivate) {
  const CompiledEntry e = compileSaxpy(0x3003);
  const std::string& dir = cacheDirectory();
  ASSERT_FALSE(dir.empty());
  EXPECT_EQ(cacheSecretSource(), CacheSecretSource::Directory);
  struct stat st;
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0700u);
  ASSERT_EQ(stat((dir + "/" + kCacheSecretFile).c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(st.st_size, 32);
  ASSERT_EQ(stat((dir + "/" + e.key.hex() + ".tso").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// readDiskCache reads only a plain file of this user that nobody else may write.
TEST(CacheTrust, DiskCacheFilesThatAreNotThisUsersPlainFilesAreMisses) {
  const CompiledEntry e = compileSaxpy(0x4004);
  const fs::path file = fs::path(cacheDirectory()) / (e.key.hex() + ".tso");
  CachedObject o;
  ASSERT_TRUE(readDiskCache(e.key, &o));
  // Every byte of the file damaged in turn.
  std::vector<char> bytes(fs::file_size(file));
  std::ifstream(file, std::ios::binary).read(bytes.data(), std::streamsize(bytes.size()));
  auto write = [&](const std::vector<char>& b) {
    std::ofstream(file, std::ios::binary | std::ios::trunc).write(b.data(), std::streamsize(b.size()));
  };
  for (size_t i = 0; i < bytes.size(); ++i) {
    std::vector<char> bad = bytes;
    bad[i] ^= 0x11;
    write(bad);
    ASSERT_FALSE(readDiskCache(e.key, &o)) << "byte " << i;
  }
  write(bytes);
  ASSERT_TRUE(readDiskCache(e.key, &o));
  // Writable by others.
  fs::permissions(file, fs::perms::others_write, fs::perm_options::add);
  EXPECT_FALSE(readDiskCache(e.key, &o));
  fs::permissions(file, fs::perms::owner_read | fs::perms::owner_write);
  ASSERT_TRUE(readDiskCache(e.key, &o));
  // A symbolic link to a valid file.
  const fs::path elsewhere = fs::path(cacheDirectory()) / "elsewhere";
  fs::rename(file, elsewhere);
  fs::create_symlink(elsewhere, file);
  EXPECT_FALSE(readDiskCache(e.key, &o));
  fs::remove(file);
  // A FIFO under the name: refused without blocking.
  ASSERT_EQ(mkfifo(file.c_str(), 0600), 0);
  EXPECT_FALSE(readDiskCache(e.key, &o));
  fs::remove(file);
  fs::rename(elsewhere, file);
  ASSERT_TRUE(readDiskCache(e.key, &o));
  // Another user's file (root can arrange one).
  if (geteuid() == 0) {
    ASSERT_EQ(chown(file.c_str(), 65534, 65534), 0);
    EXPECT_FALSE(readDiskCache(e.key, &o));
  }
}

TEST(CacheTrust, ACacheDirectoryIsUsedOnlyWhenItCanBePrivate) {
  const fs::path base = fs::temp_directory_path() / ("tessera-cache-dir-test-" + std::to_string(getpid()));
  fs::remove_all(base);
  fs::create_directories(base);
  // Made when missing (with a missing parent), 0700.
  const fs::path fresh = base / "parent" / "cache";
  EXPECT_EQ(usableCacheDirectory(fresh.string()), fresh.string());
  EXPECT_EQ(fs::status(fresh).permissions(), fs::perms::owner_all);
  // An existing one of this user, open to all: narrowed.
  const fs::path open = base / "open";
  fs::create_directories(open);
  fs::permissions(open, fs::perms::all);
  EXPECT_EQ(usableCacheDirectory(open.string()), open.string());
  EXPECT_EQ(fs::status(open).permissions(), fs::perms::owner_all);
  // A file where the directory should be.
  std::ofstream(base / "file") << "x";
  EXPECT_EQ(usableCacheDirectory((base / "file").string()), "");
  // Another user's directory, even one open to all.
  if (geteuid() == 0) {
    const fs::path foreign = base / "foreign";
    fs::create_directories(foreign);
    fs::permissions(foreign, fs::perms::all);
    ASSERT_EQ(chown(foreign.c_str(), 65534, 65534), 0);
    EXPECT_EQ(usableCacheDirectory(foreign.string()), "");
  }
  fs::remove_all(base);
}

// Like ThreadPool::shared(): a thread made before OpenSSL's first use and joined by a static
// destructor at exit digests. OpenSSL's exit handler, had it been registered, would run before
// that join and the thread would leave its per-thread state unfreed: under the sanitizer jobs
// LeakSanitizer then fails this test's process (run alone, as ctest runs it, the digest below
// is the process's first OpenSSL use). Elsewhere it checks that a worker's digest is the
// caller's.
TEST(CacheTrust, AWorkerJoinedAtExitLeavesNoOpenSslStateBehind) {
  struct Worker {
    std::thread thread;
    std::mutex mutex;
    std::condition_variable wake;
    bool quit = false;
    uint8_t digest[kCacheDigestBytes] = {};
    bool digested = false;
    bool done = false;
    ~Worker() {
      {
        std::lock_guard lock(mutex);
        quit = true;
      }
      wake.notify_all();
      thread.join();
    }
  };
  static Worker worker;  // destroyed at exit, after every handler registered later
  const uint8_t bytes[] = {1, 2, 3, 4, 5};
  worker.thread = std::thread([&] {
    std::unique_lock lock(worker.mutex);
    worker.digested = cacheDigest(bytes, sizeof bytes, worker.digest);
    worker.done = true;
    worker.wake.notify_all();
    worker.wake.wait(lock, [&] { return worker.quit; });
  });
  {
    std::unique_lock lock(worker.mutex);
    worker.wake.wait(lock, [&] { return worker.done; });
  }
  ASSERT_TRUE(worker.digested);
  EXPECT_TRUE(cacheDigestMatches(bytes, sizeof bytes, worker.digest));
}

}  // namespace
}  // namespace tessera_test
