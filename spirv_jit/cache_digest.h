// Authentication of cache entries: every serialized object (VkPipelineCache data, disk cache
// files) ends with an HMAC-SHA256 of all its other bytes (machine code, symbol and every value
// stored beside them) under a secret the driver alone knows:
//  - per installation: 32 random bytes in the cache directory's `secret.key` (0600 in a 0700
//    directory owned by this user), so that data saved by one run is valid in the next run of
//    the same user;
//  - per process: 32 random bytes when there is no usable cache directory (cache off, no
//    home, a directory someone else owns); such data is then valid in this process only.
// Someone who can change cache data but not read the secret cannot make an entry that is
// accepted: see docs/SECURITY.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tessera::jit {

constexpr size_t kCacheDigestBytes = 32;

// HMAC-SHA256 of the bytes under the secret. False when OpenSSL could not compute it (out of
// memory): the entry is then not written.
bool cacheDigest(const uint8_t* data, size_t size, uint8_t out[kCacheDigestBytes]);

// Whether `digest` is the bytes' digest (compared in constant time).
bool cacheDigestMatches(const uint8_t* data, size_t size, const uint8_t* digest);

// Where this process's secret came from (tests, diagnostics).
enum class CacheSecretSource { Directory, Process };
CacheSecretSource cacheSecretSource();

// The secret file's name inside cacheDirectory().
constexpr const char* kCacheSecretFile = "secret.key";

}  // namespace tessera::jit
