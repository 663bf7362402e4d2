#include "cache_digest.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <sys/random.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "cache_directory.h"

namespace tessera::jit {
namespace {

using Secret = std::array<uint8_t, 32>;

Secret randomSecret() {
  Secret s{};
  if (RAND_bytes(s.data(), int(s.size())) == 1) return s;
  if (getrandom(s.data(), s.size(), 0) == ssize_t(s.size())) return s;
  std::random_device device;  // last resort; never a fixed key
  for (uint8_t& b : s) b = uint8_t(device());
  return s;
}

// The installation's secret from the cache directory, made there by the first process that
// needs it; a process's own when the directory is unusable or the file cannot be written.
Secret loadSecret(CacheSecretSource* source) {
  *source = CacheSecretSource::Process;
  const std::string& dir = cacheDirectory();
  if (dir.empty()) return randomSecret();
  const std::string path = dir + "/" + kCacheSecretFile;
  std::vector<uint8_t> bytes;
  auto readValid = [&] { return readOwnedFile(path, 64, &bytes, true) && bytes.size() == Secret().size(); };
  if (!readValid()) {
    const Secret fresh = randomSecret();
    const std::vector<uint8_t> freshBytes(fresh.begin(), fresh.end());
    // No file: the first process to write one wins and the others read it. A file that is
    // not a valid private secret (wrong size or mode, someone else's) is replaced: entries
    // made under it are then misses, never trusted.
    const bool exists = access(path.c_str(), F_OK) == 0;
    if (!writePrivateFile(dir, kCacheSecretFile, freshBytes, exists) && !readValid()) return fresh;
    if (!readValid()) return fresh;
  }
  *source = CacheSecretSource::Directory;
  Secret s{};
  std::copy(bytes.begin(), bytes.end(), s.begin());
  return s;
}

// An HMAC-SHA256 context keyed once; each digest works on a copy, so the key's inner and
// outer pads are hashed once per process.
class Authenticator {
 public:
  Authenticator() {
    // Before any other OpenSSL call of ours: no clean-up at exit. OpenSSL's exit handler
    // deletes the key of its per-thread state, so a thread that digested (a pool worker: the
    // pool is a static made before OpenSSL's first use, joined after that handler ran) would
    // exit without freeing its state (LeakSanitizer reported 904 bytes, the error stack, in
    // CI), and a queue thread still digesting at exit would use freed state. Without it each
    // thread frees its state when it exits, and the globals stay reachable. Ineffective, and
    // harmless, when the application initialized OpenSSL first.
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
    const Secret secret = loadSecret(&source_);
    mac_ = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
    keyed_ = mac_ ? EVP_MAC_CTX_new(mac_) : nullptr;
    char digestName[] = "SHA256";
    const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digestName, 0),
                                 OSSL_PARAM_construct_end()};
    if (keyed_ && EVP_MAC_init(keyed_, secret.data(), secret.size(), params) != 1) {
      EVP_MAC_CTX_free(keyed_);
      keyed_ = nullptr;
    }
  }

  bool digest(const uint8_t* data, size_t size, uint8_t out[kCacheDigestBytes]) {
    if (!keyed_) return false;
    EVP_MAC_CTX* ctx;
    {
      std::lock_guard lock(mutex_);
      ctx = EVP_MAC_CTX_dup(keyed_);
    }
    if (!ctx) return false;
    size_t length = 0;
    const bool ok = EVP_MAC_update(ctx, data, size) == 1 && EVP_MAC_final(ctx, out, &length, kCacheDigestBytes) == 1 &&
                    length == kCacheDigestBytes;
    EVP_MAC_CTX_free(ctx);
    return ok;
  }

  CacheSecretSource source() const { return source_; }

 private:
  CacheSecretSource source_ = CacheSecretSource::Process;
  EVP_MAC* mac_ = nullptr;
  EVP_MAC_CTX* keyed_ = nullptr;
  std::mutex mutex_;
};

Authenticator& authenticator() {
  // Never destroyed: pipelines may be created from other static destructors.
  static Authenticator* a = new Authenticator;
  return *a;
}

}  // namespace

bool cacheDigest(const uint8_t* data, size_t size, uint8_t out[kCacheDigestBytes]) {
  return authenticator().digest(data, size, out);
}

bool cacheDigestMatches(const uint8_t* data, size_t size, const uint8_t* digest) {
  uint8_t expected[kCacheDigestBytes];
  return cacheDigest(data, size, expected) && CRYPTO_memcmp(expected, digest, kCacheDigestBytes) == 0;
}

CacheSecretSource cacheSecretSource() { return authenticator().source(); }

}  // namespace tessera::jit
