// The directory that holds the disk shader cache and the secret that authenticates cache
// entries (cache_digest.h), and the only ways files there are read and written. Everything in
// it is treated as possibly planted by someone else: files are read only when they are regular
// files owned by this user (no symbolic links followed), and written as 0600 files, atomically.
// See docs/SECURITY.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::jit {

// TESSERA_SHADER_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else ~/.cache/tessera, created
// 0700 (an existing one owned by this user is narrowed to 0700). Empty when
// TESSERA_SHADER_CACHE=0, when there is no such path, or when the directory cannot be made
// private: not a directory, owned by another user, or writable by others. Decided once per
// process.
const std::string& cacheDirectory();

// Resolves and checks `path` as cacheDirectory() does (for tests; no caching).
std::string usableCacheDirectory(const std::string& path);

// Reads a whole file if it is a regular file owned by this user, writable by nobody else (with
// `privateOnly`, not readable by anybody else either), at most maxBytes long, and not reached
// through a symbolic link. False otherwise (missing, foreign, too large, I/O error): the
// caller treats that as a miss.
bool readOwnedFile(const std::string& path, size_t maxBytes, std::vector<uint8_t>* out, bool privateOnly = false);

// Writes `bytes` to directory/name as a new 0600 file, through a temporary file renamed over
// it (readers see the old file or the whole new one). With `replace` false an existing file is
// kept (the first writer wins). True when the file now holds these bytes.
bool writePrivateFile(const std::string& directory, const std::string& name, const std::vector<uint8_t>& bytes,
                      bool replace);

}  // namespace tessera::jit
