#include "code_cache.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <link.h>
#include <xxhash.h>

#include "cache_digest.h"
#include "cache_directory.h"
#include "disk_cache_trim.h"
#include "llvm_engine.h"
#include "spirv_jit_build.h"
#include "tessera/cpu_info.h"

namespace tessera::jit {
namespace {

// 64-bit mixing hash over bytes (two independent seeds give the 128-bit key).
// The cache key's hash: XXH3's 128-bit variant, one pass over the request (the previous
// byte-at-a-time hash, run twice for 128 bits, was 16% of a warm pipeline creation).
class Hasher {
 public:
  Hasher() { XXH3_128bits_reset(state_); }
  ~Hasher() { XXH3_freeState(state_); }
  Hasher(const Hasher&) = delete;
  Hasher& operator=(const Hasher&) = delete;
  void bytes(const void* data, size_t n) { XXH3_128bits_update(state_, data, n); }
  void u64(uint64_t v) { bytes(&v, sizeof(v)); }
  void str(std::string_view s) { bytes(s.data(), s.size()), u64(s.size()); }
  XXH128_hash_t value() const { return XXH3_128bits_digest(state_); }

 private:
  XXH3_state_t* state_ = XXH3_createState();
};

// The ELF build-id of the binary holding this code: it changes with every rebuild, so cached
// machine code never outlives the translator that produced it (the git commit alone would
// miss uncommitted changes).
std::string binaryBuildId() {
  struct Search {
    uintptr_t address;
    std::string id;
  } search{reinterpret_cast<uintptr_t>(&binaryBuildId), {}};
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) -> int {
        auto* s = static_cast<Search*>(data);
        bool contains = false;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          uintptr_t start = info->dlpi_addr + ph.p_vaddr;
          if (ph.p_type == PT_LOAD && s->address >= start && s->address < start + ph.p_memsz) contains = true;
        }
        if (!contains) return 0;
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
          const uint8_t* end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const uint8_t* name = p + sizeof(ElfW(Nhdr));
            const uint8_t* desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && desc + n->n_descsz <= end) {
              s->id.assign(reinterpret_cast<const char*>(desc), n->n_descsz);
              return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &search);
  return search.id;
}

// Compute and graphics requests have the same fields that change the code; the kind tells
// them (and vertex from fragment) apart.
template <class Request>
void hashRequest(Hasher& h, const Request& r, ObjectKind kind) {
  static const std::string buildId = binaryBuildId();
  h.str(TESSERA_JIT_BUILD_ID);
  h.str(buildId);
  h.str(hostTargetDescription());
  h.u64(uint64_t(kind));
  h.u64(r.interface.simdWidth);
  h.u64(r.optimize);
  for (uint32_t b : r.interface.colorBlend) h.u64(b);
  h.u64(r.interface.colorSamples);
  h.u64(hostCpu().avx512vbmi);  // the colour writes' byte permutes (TESSERA_NO_VBMI turns them off)
  h.u64(r.interface.vertexAttributes.size());
  for (const ShaderInterface::VertexAttributeInput& a : r.interface.vertexAttributes)
    h.u64(a.location), h.u64(a.binding), h.u64(a.offset), h.u64(a.format);
  h.u64(r.interface.vertexBindings.size());
  for (const ShaderInterface::VertexBindingInput& b : r.interface.vertexBindings) h.u64(b.perInstance), h.u64(b.divisor);
  // Hashed only when set, so that the keys of every other stage stay what they were.
  if (r.interface.viewIndexFromDeviceIndex) h.str("viewIndexFromDeviceIndex");
  h.str(r.entryPoint);
  h.bytes(r.spirv.data(), r.spirv.size_bytes());
  // Specialization: the value bytes by constant id, in id order.
  std::vector<SpecializationEntry> spec(r.specialization.begin(), r.specialization.end());
  std::sort(spec.begin(), spec.end(), [](auto& a, auto& b) { return a.constantId < b.constantId; });
  for (const SpecializationEntry& e : spec) {
    h.u64(e.constantId);
    if (r.specializationData && e.offset + e.size <= r.specializationDataSize)
      h.bytes(static_cast<const uint8_t*>(r.specializationData) + e.offset, e.size);
  }
  std::vector<DescriptorBinding> bindings = r.interface.bindings;
  std::sort(bindings.begin(), bindings.end(),
            [](auto& a, auto& b) { return a.set != b.set ? a.set < b.set : a.binding < b.binding; });
  for (const DescriptorBinding& b : bindings) {
    h.u64(b.set), h.u64(b.binding), h.u64(b.type), h.u64(b.count), h.u64(b.offset), h.u64(uint64_t(int64_t(b.dynamicIndex)));
  }
}

template <class Request>
CacheKey keyOf(const Request& request, ObjectKind kind) {
  Hasher h;
  hashRequest(h, request, kind);
  const XXH128_hash_t v = h.value();
  return {v.high64, v.low64};
}

struct LoadedProgram final : ComputeProgram {
  std::unique_ptr<LoadedCode> code;
};

struct LoadedGraphicsProgram final : GraphicsProgram {
  std::unique_ptr<LoadedCode> code;
};

// "TSO7": TSO1 had no stack size, TSO2 only compute kernels (no kind, no graphics facts, no
// checksum), TSO3 no FragCoord reads, direct colour locations or their blend states, TSO4 no
// geometry stages, TSO5 an unkeyed checksum (XXH3-64) instead of the HMAC (cache_digest.h),
// TSO6 no tessellation stages nor a vertex stage's fetched locations.
constexpr uint32_t kObjectMagic = 0x54534f37;
constexpr uint32_t kMaxSymbolBytes = 256;
constexpr size_t kMaxRememberedBytes = size_t(256) << 20;
// Programs kept linked after their last pipeline is gone (CodeCache::recent_). A FIFO smaller
// than an application's working set of stages relinks every one of them when the application
// cycles through its pipelines (200 pipelines of two stages did with 256): 1024 covers a few
// hundred pipelines at a few KiB of code each.
constexpr size_t kRecentPrograms = 1024;

}  // namespace

std::string CacheKey::hex() const {
  char text[33];
  std::snprintf(text, sizeof(text), "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return text;
}

void CacheKey::bytes(uint8_t out[16]) const {
  std::memcpy(out, &hi, 8);
  std::memcpy(out + 8, &lo, 8);
}

namespace {

// A cache file larger than this was not written by the driver (kernels are KiBs to MiBs).
constexpr size_t kMaxCacheFileBytes = size_t(256) << 20;

}  // namespace

bool readDiskCache(const CacheKey& key, CachedObject* out) {
  const std::string& dir = cacheDirectory();
  if (dir.empty()) return false;
  const std::string path = dir + "/" + key.hex() + ".tso";
  std::vector<uint8_t> blob;
  if (!readOwnedFile(path, kMaxCacheFileBytes, &blob) || !deserializeObject(blob.data(), blob.size(), out)) return false;
  markDiskCacheUse(path);  // recently used files are trimmed last
  return true;
}

void writeDiskCache(const CacheKey& key, const std::vector<uint8_t>& blob) {
  const std::string& dir = cacheDirectory();
  // Best effort: a cache that cannot be written is simply not used.
  if (dir.empty() || blob.empty()) return;
  writePrivateFile(dir, key.hex() + ".tso", blob, true);
  // Keep the directory under its limit: checked at a process's first write and then after every
  // 16 MiB it writes (a directory scan costs milliseconds, a compile much more).
  static std::mutex trimMutex;
  static uint64_t writtenSinceTrim = 0;
  static bool trimmedOnce = false;
  std::lock_guard<std::mutex> lock(trimMutex);
  writtenSinceTrim += blob.size();
  if (!trimmedOnce || writtenSinceTrim >= (16u << 20)) {
    trimmedOnce = true;
    writtenSinceTrim = 0;
    trimDiskCache(dir, diskCacheLimitBytes());
  }
}

CacheKey computeCacheKey(const ComputeCompileRequest& request) { return keyOf(request, ObjectKind::Compute); }

CacheKey computeCacheKey(const GraphicsCompileRequest& request) {
  return keyOf(request, graphicsObjectKind(request.stage));
}

ObjectKind graphicsObjectKind(GraphicsStage stage) {
  switch (stage) {
    case GraphicsStage::Vertex: return ObjectKind::Vertex;
    case GraphicsStage::Fragment: return ObjectKind::Fragment;
    case GraphicsStage::TessControl: return ObjectKind::TessControl;
    case GraphicsStage::TessEval: return ObjectKind::TessEval;
    default: return ObjectKind::Geometry;
  }
}

std::string objectSymbol(ObjectKind kind, const CacheKey& key) {
  const char* prefix = kind == ObjectKind::Compute ? "tessera_cs_"
                       : kind == ObjectKind::Vertex ? "tessera_vs_"
                       : kind == ObjectKind::Fragment ? "tessera_fs_"
                       : kind == ObjectKind::TessControl ? "tessera_tcs_"
                       : kind == ObjectKind::TessEval ? "tessera_tes_"
                                                      : "tessera_gs_";
  return prefix + key.hex();
}

namespace {

// GraphicsFacts flags, one bit each in the serialized form.
constexpr uint32_t kWritesPointSize = 1u << 0, kWritesFragDepth = 1u << 1, kWritesSampleMask = 1u << 2,
                   kPerSampleShading = 1u << 3, kCanDiscard = 1u << 4, kHasSideEffects = 1u << 5,
                   kEarlyFragmentTests = 1u << 6, kPostDepthCoverage = 1u << 7,
                   kWritesStencilRef = 1u << 8, kReadsInputAttachments = 1u << 9, kWritesLayerOut = 1u << 10,
                   kWritesViewportIndexOut = 1u << 11, kReadsSampleMaskIn = 1u << 12,
                   kAllFactBits = (1u << 13) - 1;

bool isGraphics(ObjectKind kind) {
  return kind == ObjectKind::Vertex || kind == ObjectKind::Fragment || kind == ObjectKind::Geometry ||
         kind == ObjectKind::TessControl || kind == ObjectKind::TessEval;
}
// GraphicsFacts::Geometry's flags in the serialized form.
constexpr uint32_t kWritesPrimitiveId = 1u << 0, kWritesLayer = 1u << 1, kWritesViewportIndex = 1u << 2;

}  // namespace

std::vector<uint8_t> serializeObject(const CachedObject& o) {
  std::vector<uint8_t> out;
  out.reserve(128 + o.symbol.size() + o.code.size());
  auto put = [&](const void* p, size_t n) { out.insert(out.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); };
  auto u32 = [&](uint32_t v) { put(&v, 4); };
  u32(kObjectMagic);
  u32(uint32_t(o.kind));
  for (uint32_t s : o.info.localSize) u32(s);
  u32(o.info.simdWidth);
  u32(o.info.sharedMemoryBytes);
  // 0: no barrier, 1: barriers switch fibers, 2: barriers are coroutine suspend points (an
  // older reader refuses 2 and compiles again).
  u32(o.info.resumable ? 2u : uint32_t(o.info.usesBarrier));
  u32(o.info.zeroInitSharedMemory);
  put(&o.info.stackBytes, 8);
  if (isGraphics(o.kind)) {
    const GraphicsFacts& f = o.facts;
    u32(abi::kMaxInterfaceLocations);
    put(f.inputComponents, abi::kMaxInterfaceLocations);
    for (Interpolation i : f.inputInterpolation) {
      const uint8_t b = uint8_t(i);
      put(&b, 1);
    }
    put(f.outputComponents, abi::kMaxInterfaceLocations);
    u32(f.centroidInputs);
    u32(f.clipDistances);
    u32(f.cullDistances);
    u32((f.writesPointSize ? kWritesPointSize : 0u) | (f.writesFragDepth ? kWritesFragDepth : 0u) |
        (f.writesSampleMask ? kWritesSampleMask : 0u) | (f.perSampleShading ? kPerSampleShading : 0u) |
        (f.canDiscard ? kCanDiscard : 0u) | (f.hasSideEffects ? kHasSideEffects : 0u) |
        (f.earlyFragmentTests ? kEarlyFragmentTests : 0u) | (f.postDepthCoverage ? kPostDepthCoverage : 0u) |
        (f.writesStencilRef ? kWritesStencilRef : 0u) | (f.readsInputAttachments ? kReadsInputAttachments : 0u) |
        (f.writesLayer ? kWritesLayerOut : 0u) | (f.writesViewportIndex ? kWritesViewportIndexOut : 0u) |
        (f.readsSampleMaskIn ? kReadsSampleMaskIn : 0u));
    u32(uint32_t(f.fragCoordReads) | uint32_t(f.directColorLocations) << 8 | uint32_t(f.directSamples) << 16);
    for (uint32_t b : f.directBlend) u32(b);
    if (o.kind == ObjectKind::Vertex) u32(f.fetchedLocations);
    if (o.kind == ObjectKind::Geometry) {
      const GraphicsFacts::Geometry& g = f.geometry;
      u32(g.inputVertices);
      u32(g.outputTopology);
      u32(g.maxVertices);
      u32(g.invocations);
      u32(g.vertexWords);
      u32((g.writesPrimitiveId ? kWritesPrimitiveId : 0u) | (g.writesLayer ? kWritesLayer : 0u) |
          (g.writesViewportIndex ? kWritesViewportIndex : 0u));
    }
    if (o.kind == ObjectKind::TessControl || o.kind == ObjectKind::TessEval) {
      const GraphicsFacts::Tessellation& t = f.tessellation;
      u32(uint32_t(t.domain) | uint32_t(t.spacing) << 8 | uint32_t(t.order) << 16 | uint32_t(t.pointMode) << 24 |
          uint32_t(t.usesBarrier) << 25);
      u32(t.outputVertices);
      u32(t.patchBytes);
    }
  }
  u32(uint32_t(o.symbol.size()));
  put(o.symbol.data(), o.symbol.size());
  u32(uint32_t(o.code.size()));
  put(o.code.data(), o.code.size());
  // The digest of everything before it: data not made by this installation (or process) is a
  // miss, never code handed to the linker. Without a digest nothing is stored.
  uint8_t digest[kCacheDigestBytes];
  if (!cacheDigest(out.data(), out.size(), digest)) return {};
  put(digest, kCacheDigestBytes);
  return out;
}

bool deserializeObject(const uint8_t* data, size_t size, CachedObject* out) {
  // Authenticated before any byte is interpreted.
  if (!data || size < kCacheDigestBytes) return false;
  size -= kCacheDigestBytes;
  if (!cacheDigestMatches(data, size, data + size)) return false;
  size_t pos = 0;
  auto get = [&](void* p, size_t n) {
    if (n > size - pos) return false;
    std::memcpy(p, data + pos, n);
    pos += n;
    return true;
  };
  auto u32 = [&](uint32_t* v) { return get(v, 4); };
  CachedObject o;
  uint32_t magic = 0, kind = 0, flags[2] = {}, len = 0;
  if (!u32(&magic) || magic != kObjectMagic || !u32(&kind) || kind > uint32_t(ObjectKind::TessEval)) return false;
  o.kind = ObjectKind(kind);
  if (!get(o.info.localSize, 12) || !u32(&o.info.simdWidth) || !u32(&o.info.sharedMemoryBytes) || !get(flags, 8) ||
      !get(&o.info.stackBytes, 8))
    return false;
  // Values the runtime divides by or sizes memory with must be sane even in a damaged blob.
  const uint32_t w = o.info.simdWidth;
  if (w == 0 || w > 64 || (w & (w - 1)) != 0 || flags[0] > 2 || flags[1] > 1 || o.info.stackBytes > (uint64_t(1) << 30) ||
      o.info.sharedMemoryBytes > (1u << 30))
    return false;
  for (uint32_t s : o.info.localSize)
    if (s == 0) return false;
  o.info.usesBarrier = flags[0] != 0;
  o.info.resumable = flags[0] == 2;
  o.info.zeroInitSharedMemory = flags[1] != 0;
  if (isGraphics(o.kind)) {
    GraphicsFacts& f = o.facts;
    uint32_t locations = 0, bits = 0, fragmentBits = 0;
    uint8_t interpolation[abi::kMaxInterfaceLocations];
    if (!u32(&locations) || locations != abi::kMaxInterfaceLocations || !get(f.inputComponents, locations) ||
        !get(interpolation, locations) || !get(f.outputComponents, locations) || !u32(&f.centroidInputs) ||
        !u32(&f.clipDistances) || !u32(&f.cullDistances) || !u32(&bits) || !u32(&fragmentBits))
      return false;
    // FragCoord components (4 bits), direct colour locations (one per colour attachment) and
    // their samples per pixel (1 or 4).
    if ((fragmentBits & ~(0xFu | ((1u << abi::kMaxColorAttachments) - 1) << 8 | 0xFFu << 16)) != 0) return false;
    f.fragCoordReads = uint8_t(fragmentBits & 0xF);
    f.directColorLocations = uint8_t(fragmentBits >> 8);
    f.directSamples = uint8_t(fragmentBits >> 16);
    if (f.directSamples != 1 && f.directSamples != 4) return false;
    for (uint32_t& b : f.directBlend) {
      // A blend word must be one packBlend makes: enable set, factors and ops in range.
      if (!u32(&b)) return false;
      const abi::UnpackedBlend u = abi::unpackBlend(b);
      if (b != 0 && abi::packBlend(u.srcColor, u.dstColor, u.colorOp, u.srcAlpha, u.dstAlpha, u.alphaOp) != b) return false;
    }
    for (uint32_t l = 0; l < locations; ++l) {
      if (f.inputComponents[l] > 0xF || f.outputComponents[l] > 0xF || interpolation[l] > uint8_t(Interpolation::Flat))
        return false;
      f.inputInterpolation[l] = Interpolation(interpolation[l]);
    }
    if (f.clipDistances > abi::kMaxClipDistances || f.cullDistances > abi::kMaxClipDistances ||
        f.clipDistances + f.cullDistances > abi::kMaxClipDistances || (bits & ~kAllFactBits) != 0)
      return false;
    f.writesPointSize = bits & kWritesPointSize;
    f.writesFragDepth = bits & kWritesFragDepth;
    f.writesSampleMask = bits & kWritesSampleMask;
    f.perSampleShading = bits & kPerSampleShading;
    f.canDiscard = bits & kCanDiscard;
    f.hasSideEffects = bits & kHasSideEffects;
    f.earlyFragmentTests = bits & kEarlyFragmentTests;
    f.postDepthCoverage = bits & kPostDepthCoverage;
    f.writesStencilRef = bits & kWritesStencilRef;
    f.readsInputAttachments = bits & kReadsInputAttachments;
    f.writesLayer = bits & kWritesLayerOut;
    f.writesViewportIndex = bits & kWritesViewportIndexOut;
    f.readsSampleMaskIn = bits & kReadsSampleMaskIn;
    if (o.kind == ObjectKind::Vertex && !u32(&f.fetchedLocations)) return false;
    if (o.kind == ObjectKind::Geometry) {
      // The draw loop sizes its buffers with these: refuse what a compile never produces.
      GraphicsFacts::Geometry& g = f.geometry;
      uint32_t flags = 0;
      if (!u32(&g.inputVertices) || !u32(&g.outputTopology) || !u32(&g.maxVertices) || !u32(&g.invocations) ||
          !u32(&g.vertexWords) || !u32(&flags))
        return false;
      const uint32_t iv = g.inputVertices;
      if ((iv != 1 && iv != 2 && iv != 3 && iv != 4 && iv != 6) || g.outputTopology > 2 || g.maxVertices == 0 ||
          g.maxVertices > kMaxGeometryOutputVertices || g.invocations == 0 || g.invocations > kMaxGeometryInvocations ||
          g.vertexWords < abi::kGeometryRecordHeader ||
          g.vertexWords > abi::kGeometryRecordHeader + 4 * abi::kMaxInterfaceLocations + abi::kMaxClipDistances ||
          (flags & ~7u) != 0)
        return false;
      g.writesPrimitiveId = flags & kWritesPrimitiveId;
      g.writesLayer = flags & kWritesLayer;
      g.writesViewportIndex = flags & kWritesViewportIndex;
    }
    if (o.kind == ObjectKind::TessControl || o.kind == ObjectKind::TessEval) {
      GraphicsFacts::Tessellation& t = f.tessellation;
      uint32_t modes = 0;
      if (!u32(&modes) || !u32(&t.outputVertices) || !u32(&t.patchBytes)) return false;
      t.domain = uint8_t(modes & 0xFF);
      t.spacing = uint8_t(modes >> 8 & 0xFF);
      t.order = uint8_t(modes >> 16 & 0xFF);
      t.pointMode = modes >> 24 & 1;
      t.usesBarrier = modes >> 25 & 1;
      if (t.domain > 3 || t.spacing > 3 || t.order > 2 || (modes >> 26) != 0 || t.outputVertices > abi::kMaxPatchVertices ||
          t.patchBytes > (1u << 30))
        return false;
    }
  }
  if (!u32(&len) || len == 0 || len > kMaxSymbolBytes || len > size - pos) return false;
  o.symbol.assign(reinterpret_cast<const char*>(data + pos), len);
  pos += len;
  if (!u32(&len) || len == 0 || len != size - pos) return false;
  o.code.assign(reinterpret_cast<const char*>(data + pos), reinterpret_cast<const char*>(data + size));
  *out = std::move(o);
  return true;
}

bool isAuthenticCacheEntry(const uint8_t key[16], const uint8_t* blob, size_t size) {
  CacheKey k;
  std::memcpy(&k.hi, key, 8);
  std::memcpy(&k.lo, key + 8, 8);
  CodeCache& cache = CodeCache::instance();
  if (cache.isKnownAuthentic(k, blob, size)) return true;
  CachedObject o;
  if (!deserializeObject(blob, size, &o) || o.symbol != objectSymbol(o.kind, k)) return false;
  cache.rememberAuthentic(k, blob, size);
  return true;
}

CodeCache& CodeCache::instance() {
  // Never destroyed: its programs' code belongs to the JIT, which outlives everything.
  static CodeCache* cache = new CodeCache;
  return *cache;
}

AnyProgram CodeCache::findProgram(const CacheKey& key, ObjectKind kind) {
  CachedObject object;
  {
    std::lock_guard lock(mutex_);
    auto it = live_.find(key);
    if (it != live_.end() && it->second.kind == kind)
      if (auto p = it->second.program.lock()) return p;
    auto o = objects_.find(key);
    if (o == objects_.end() || o->second.kind != kind) return nullptr;
    object = o->second;
  }
  std::string error;
  return load(key, object, &error, true);
}

bool CodeCache::findObject(const CacheKey& key, CachedObject* out) {
  std::lock_guard lock(mutex_);
  auto o = objects_.find(key);
  if (o == objects_.end()) return false;
  *out = o->second;
  return true;
}

bool CodeCache::isKnownAuthentic(const CacheKey& key, const uint8_t* blob, size_t size) {
  std::lock_guard lock(mutex_);
  auto it = authentic_.find(key);
  return it != authentic_.end() && it->second.size() == size && std::memcmp(it->second.data(), blob, size) == 0;
}

void CodeCache::rememberAuthentic(const CacheKey& key, const uint8_t* blob, size_t size) {
  std::lock_guard lock(mutex_);
  if (authentic_.count(key) || authenticBytes_ + size > kMaxRememberedBytes) return;
  authentic_.emplace(key, std::vector<uint8_t>(blob, blob + size));
  authenticBytes_ += size;
}

bool CodeCache::findAuthentic(const CacheKey& key, std::vector<uint8_t>* blob) {
  std::lock_guard lock(mutex_);
  auto it = authentic_.find(key);
  if (it == authentic_.end()) return false;
  *blob = it->second;
  return true;
}

AnyProgram CodeCache::load(const CacheKey& key, const CachedObject& object, std::string* error, bool remember) {
  auto code = loadObject(object.code, object.symbol, error);
  if (!code) return nullptr;
  void* fn = code->symbol(object.symbol);
  if (!fn) {
    *error = "no symbol " + object.symbol + " in the object";
    return nullptr;
  }
  AnyProgram program;
  if (object.kind == ObjectKind::Compute) {
    auto p = std::make_shared<LoadedProgram>();
    // The symbol's type depends on how its barriers were compiled.
    if (object.info.resumable) p->resumableEntry = reinterpret_cast<abi::ResumableComputeBatchFn>(fn);
    else p->entry = reinterpret_cast<abi::ComputeBatchFn>(fn);
    for (int i = 0; i < 3; ++i) p->localSize[i] = object.info.localSize[i];
    p->simdWidth = object.info.simdWidth;
    p->sharedMemoryBytes = object.info.sharedMemoryBytes;
    p->usesBarrier = object.info.usesBarrier;
    p->resumable = object.info.resumable;
    p->zeroInitSharedMemory = object.info.zeroInitSharedMemory;
    p->stackBytes = object.info.stackBytes;
    p->code = std::move(code);
    // Through the base class: users cast the void pointer back to ComputeProgram.
    program = std::shared_ptr<const ComputeProgram>(std::move(p));
  } else {
    auto p = std::make_shared<LoadedGraphicsProgram>();
    if (object.kind == ObjectKind::Vertex) {
      p->stage = GraphicsStage::Vertex;
      p->vertex = reinterpret_cast<abi::VertexBatchFn>(fn);
    } else if (object.kind == ObjectKind::Fragment) {
      p->stage = GraphicsStage::Fragment;
      p->fragment = reinterpret_cast<abi::FragmentBatchFn>(fn);
    } else if (object.kind == ObjectKind::TessControl) {
      p->stage = GraphicsStage::TessControl;
      p->tessControl = reinterpret_cast<abi::TessControlBatchFn>(fn);
    } else if (object.kind == ObjectKind::TessEval) {
      p->stage = GraphicsStage::TessEval;  // a vertex kernel over tessellated vertices
      p->vertex = reinterpret_cast<abi::VertexBatchFn>(fn);
    } else {
      p->stage = GraphicsStage::Geometry;
      p->geometry = reinterpret_cast<abi::GeometryBatchFn>(fn);
    }
    p->simdWidth = object.info.simdWidth;
    p->stackBytes = object.info.stackBytes;
    p->facts = object.facts;
    p->code = std::move(code);
    program = std::shared_ptr<const GraphicsProgram>(std::move(p));
  }
  if (remember) {
    std::lock_guard lock(mutex_);
    live_[key] = {object.kind, program};
    recent_.push_back(program);
    if (recent_.size() > kRecentPrograms) recent_.pop_front();
    if (!objects_.count(key) && objectBytes_ + object.code.size() <= kMaxRememberedBytes) {
      objects_[key] = object;
      objectBytes_ += object.code.size();
    }
  }
  return program;
}

namespace {

// An object without its digest (OpenSSL failed) is not stored.
void insertExternal(ExternalCache* external, const uint8_t key[16], const std::vector<uint8_t>& blob) {
  if (!blob.empty()) external->insert(key, blob);
}

// A deserialized object fits the request it was found for.
bool fits(const CachedObject& o, const CacheKey& key, ObjectKind kind, uint32_t simdWidth) {
  return o.kind == kind && o.info.simdWidth == simdWidth && o.symbol == objectSymbol(kind, key);
}

}  // namespace

FoundProgram findCompiled(const CacheKey& key, ObjectKind kind, uint32_t simdWidth, ExternalCache* external) {
  CodeCache& cache = CodeCache::instance();
  uint8_t keyBytes[16];
  key.bytes(keyBytes);
  // The application's cache first, so that its hits are reported as such.
  std::vector<uint8_t> blob;
  CachedObject stored;
  if (external && external->find(keyBytes, &blob)) {
    // An entry byte-identical to one this process made or authenticated, with the program
    // loaded: a hit without the HMAC (the usual warm creation).
    if (cache.isKnownAuthentic(key, blob.data(), blob.size()))
      if (auto program = cache.findProgram(key, kind)) return {std::move(program), true};
    if (deserializeObject(blob.data(), blob.size(), &stored) && fits(stored, key, kind, simdWidth)) {
      cache.rememberAuthentic(key, blob.data(), blob.size());
      std::string error;
      if (auto program = cache.findProgram(key, kind)) return {std::move(program), true};
      if (auto program = cache.load(key, stored, &error, true)) return {std::move(program), true};
    }
  }
  if (auto program = cache.findProgram(key, kind)) {
    if (external) {
      if (cache.findAuthentic(key, &blob)) insertExternal(external, keyBytes, blob);
      else if (cache.findObject(key, &stored)) insertExternal(external, keyBytes, serializeObject(stored));
    }
    return {std::move(program), false};
  }
  if (readDiskCache(key, &stored) && fits(stored, key, kind, simdWidth)) {
    std::string error;
    if (auto program = cache.load(key, stored, &error, true)) {
      if (external) {
        blob = serializeObject(stored);
        if (!blob.empty()) cache.rememberAuthentic(key, blob.data(), blob.size());
        insertExternal(external, keyBytes, blob);
      }
      return {std::move(program), false};
    }
  }
  return {};
}

AnyProgram storeCompiled(const CacheKey& key, const CachedObject& object, ExternalCache* external, bool useCache,
                         std::string* error) {
  AnyProgram program = CodeCache::instance().load(key, object, error, useCache);
  if (program && useCache) {
    std::vector<uint8_t> blob = serializeObject(object);
    if (!blob.empty()) CodeCache::instance().rememberAuthentic(key, blob.data(), blob.size());
    if (external) {
      uint8_t keyBytes[16];
      key.bytes(keyBytes);
      insertExternal(external, keyBytes, blob);
    }
    writeDiskCache(key, blob);
  }
  return program;
}

}  // namespace tessera::jit
