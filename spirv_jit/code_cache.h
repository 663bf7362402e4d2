// Compiled code, shared and remembered.
//  - Key: a 128-bit hash of everything that changes the machine code (driver build, host CPU,
//    SIMD width, SPIR-V, entry point, specialization, descriptor layout, optimization).
//  - Live programs: one loaded copy per key while any pipeline uses it.
//  - Objects: the object files of every compile in this process, so a pipeline created again
//    (same key) only needs linking, not LLVM.
// The lookups are a mutex-protected map: pipeline creation is not a hot path compared with
// the compile it saves (see docs/ARCHITECTURE.md, compile caches).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera::jit {

struct CacheKey {
  uint64_t hi = 0, lo = 0;
  std::string hex() const;
  void bytes(uint8_t out[16]) const;
  bool operator<(const CacheKey& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
  bool operator==(const CacheKey& o) const { return hi == o.hi && lo == o.lo; }
};

CacheKey computeCacheKey(const ComputeCompileRequest& request);

struct ProgramInfo {
  uint32_t localSize[3] = {1, 1, 1};
  uint32_t simdWidth = 8;
  uint32_t sharedMemoryBytes = 0;
  bool usesBarrier = false;
  bool zeroInitSharedMemory = false;
  uint64_t stackBytes = 0;
};

struct CachedObject {
  ProgramInfo info;
  std::string symbol;
  std::vector<char> code;
};

// Serialized form of a CachedObject (pipeline cache data, disk cache files).
std::vector<uint8_t> serializeObject(const CachedObject& object);
bool deserializeObject(const uint8_t* data, size_t size, CachedObject* out);

// The on-disk cache: TESSERA_SHADER_CACHE_DIR, else $XDG_CACHE_HOME/tessera, else
// ~/.cache/tessera; TESSERA_SHADER_CACHE=0 turns it off. One file per key, written atomically.
bool readDiskCache(const CacheKey& key, CachedObject* out);
void writeDiskCache(const CacheKey& key, const std::vector<uint8_t>& blob);

class CodeCache {
 public:
  static CodeCache& instance();

  // A live program for the key, or one linked from a remembered object; null if neither.
  std::shared_ptr<const ComputeProgram> findProgram(const CacheKey& key);
  // Links an object into a program (and remembers both when `remember`).
  std::shared_ptr<const ComputeProgram> load(const CacheKey& key, const CachedObject& object, std::string* error,
                                             bool remember);
  bool findObject(const CacheKey& key, CachedObject* out);

 private:
  std::mutex mutex_;
  std::map<CacheKey, std::weak_ptr<const ComputeProgram>> live_;
  std::map<CacheKey, CachedObject> objects_;
  // The most recently loaded programs stay alive after their last pipeline is destroyed, so
  // an application that recreates pipelines (or a VkPipelineCache read again) gets them back
  // without linking. Kernels are a few KiB each.
  std::deque<std::shared_ptr<const ComputeProgram>> recent_;
  size_t objectBytes_ = 0;
};

}  // namespace tessera::jit
