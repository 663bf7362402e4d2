// Compiled code, shared and remembered: compute kernels and vertex, fragment and geometry stages alike.
//  - Key: a 128-bit hash of everything that changes the machine code (driver build, host CPU,
//    kind of kernel (compute, vertex, fragment), SIMD width, SPIR-V, entry point,
//    specialization, descriptor layout, optimization).
//  - Live programs: one loaded copy per key while any pipeline uses it.
//  - Objects: the object files of every compile in this process, so a pipeline created again
//    (same key) only needs linking, not LLVM.
//  - Lookup order (findCompiled): the application's VkPipelineCache (its hits are reported
//    through creation feedback), the process's live programs and remembered objects, the disk
//    cache. A compile stores its object in all three (storeCompiled).
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

// What an object file holds; part of the key and of the serialized object.
enum class ObjectKind : uint32_t { Compute = 0, Vertex = 1, Fragment = 2, Geometry = 3, TessControl = 4, TessEval = 5 };

CacheKey computeCacheKey(const ComputeCompileRequest& request);
CacheKey computeCacheKey(const GraphicsCompileRequest& request);
ObjectKind graphicsObjectKind(GraphicsStage stage);
// The kernel's symbol in its object file: unique per key ("tessera_cs_<key>", _vs_, _fs_, _gs_). A
// serialized object whose symbol is not its key's is refused.
std::string objectSymbol(ObjectKind kind, const CacheKey& key);

struct ProgramInfo {
  uint32_t localSize[3] = {1, 1, 1};
  uint32_t simdWidth = 8;
  uint32_t sharedMemoryBytes = 0;
  bool usesBarrier = false;
  bool resumable = false;  // compute: barriers are coroutine suspend points
  bool zeroInitSharedMemory = false;
  uint64_t stackBytes = 0;
};

// An object file and every value the runtime needs beside it.
struct CachedObject {
  ObjectKind kind = ObjectKind::Compute;
  ProgramInfo info;     // compute: all of it; vertex and fragment: simdWidth and stackBytes
  GraphicsFacts facts;  // vertex, fragment and geometry
  std::string symbol;
  std::vector<char> code;
};

// Serialized form of a CachedObject (pipeline cache data, disk cache files): a versioned
// magic, then fixed fields, then the symbol and the object file, then the HMAC of all that
// (cache_digest.h). Deserialization checks the HMAC before reading anything, then is strict:
// another version, a length or value out of range, or bytes left over make it fail (a miss).
// serializeObject returns no bytes when the digest could not be computed.
std::vector<uint8_t> serializeObject(const CachedObject& object);
bool deserializeObject(const uint8_t* data, size_t size, CachedObject* out);

// The on-disk cache in cacheDirectory() (cache_directory.h); TESSERA_SHADER_CACHE=0 turns it
// off. One 0600 file per key, written atomically; files not owned by this user are not read.
bool readDiskCache(const CacheKey& key, CachedObject* out);
void writeDiskCache(const CacheKey& key, const std::vector<uint8_t>& blob);

// A loaded program of either kind: a ComputeProgram for ObjectKind::Compute, else a
// GraphicsProgram (the key, which includes the kind, says which).
using AnyProgram = std::shared_ptr<const void>;

class CodeCache {
 public:
  static CodeCache& instance();

  // A live program for the key, or one linked from a remembered object; null if neither.
  AnyProgram findProgram(const CacheKey& key, ObjectKind kind);
  // Links an object into a program (and remembers both when `remember`).
  AnyProgram load(const CacheKey& key, const CachedObject& object, std::string* error, bool remember);
  bool findObject(const CacheKey& key, CachedObject* out);
  // Serialized entries this process made or authenticated, by key: an application's entry
  // byte-identical to one of them is authentic without its HMAC being computed again, so a
  // VkPipelineCache created again from the same data costs a comparison per entry.
  bool isKnownAuthentic(const CacheKey& key, const uint8_t* blob, size_t size);
  void rememberAuthentic(const CacheKey& key, const uint8_t* blob, size_t size);
  bool findAuthentic(const CacheKey& key, std::vector<uint8_t>* blob);

 private:
  struct Live {
    ObjectKind kind;
    std::weak_ptr<const void> program;
  };
  std::mutex mutex_;
  std::map<CacheKey, Live> live_;
  std::map<CacheKey, CachedObject> objects_;
  std::map<CacheKey, std::vector<uint8_t>> authentic_;
  size_t authenticBytes_ = 0;
  // The most recently loaded programs stay alive after their last pipeline is destroyed, so
  // an application that recreates pipelines (or a VkPipelineCache read again) gets them back
  // without linking. Kernels are a few KiB each.
  std::deque<AnyProgram> recent_;
  size_t objectBytes_ = 0;
};

struct FoundProgram {
  AnyProgram program;           // null: in no cache
  bool applicationHit = false;  // found in the application's VkPipelineCache
};

// Looks for the key's program in the application's cache, the process and the disk cache, in
// that order; an object found in the process or on disk is added to the application's cache.
FoundProgram findCompiled(const CacheKey& key, ObjectKind kind, uint32_t simdWidth, ExternalCache* external);
// Loads a freshly compiled object; with `useCache`, remembers it in the process and writes it
// to the application's cache and the disk cache.
AnyProgram storeCompiled(const CacheKey& key, const CachedObject& object, ExternalCache* external, bool useCache,
                         std::string* error);

}  // namespace tessera::jit
