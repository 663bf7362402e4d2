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

#include "disk_cache_trim.h"
#include "llvm_engine.h"
#include "spirv_jit_build.h"

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

void hashRequest(Hasher& h, const ComputeCompileRequest& r) {
  static const std::string buildId = binaryBuildId();
  h.str(TESSERA_JIT_BUILD_ID);
  h.str(buildId);
  h.str(hostTargetDescription());
  h.u64(r.interface.simdWidth);
  h.u64(r.optimize);
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

struct LoadedProgram final : ComputeProgram {
  std::unique_ptr<LoadedCode> code;
};

constexpr uint32_t kObjectMagic = 0x54534f32;  // "TSO2" (TSO1 had no stack size)
constexpr size_t kMaxRememberedBytes = size_t(256) << 20;
constexpr size_t kRecentPrograms = 256;

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

const std::string& diskCacheDirectory() {
  static const std::string dir = [] {
    const char* off = std::getenv("TESSERA_SHADER_CACHE");
    if (off && std::string(off) == "0") return std::string();
    if (const char* d = std::getenv("TESSERA_SHADER_CACHE_DIR"); d && *d) return std::string(d);
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/tessera";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/tessera";
    return std::string();
  }();
  return dir;
}

}  // namespace

bool readDiskCache(const CacheKey& key, CachedObject* out) {
  const std::string& dir = diskCacheDirectory();
  if (dir.empty()) return false;
  FILE* f = std::fopen((dir + "/" + key.hex() + ".tso").c_str(), "rb");
  if (!f) return false;
  std::vector<uint8_t> blob;
  uint8_t chunk[65536];
  for (size_t n; (n = std::fread(chunk, 1, sizeof(chunk), f)) > 0;) blob.insert(blob.end(), chunk, chunk + n);
  std::fclose(f);
  if (!deserializeObject(blob.data(), blob.size(), out)) return false;
  markDiskCacheUse(dir + "/" + key.hex() + ".tso");  // recently used files are trimmed last
  return true;
}

void writeDiskCache(const CacheKey& key, const std::vector<uint8_t>& blob) {
  const std::string& dir = diskCacheDirectory();
  if (dir.empty()) return;
  // Best effort: a cache that cannot be written is simply not used.
  std::string parent = dir.substr(0, dir.rfind('/'));
  if (!parent.empty()) mkdir(parent.c_str(), 0755);
  mkdir(dir.c_str(), 0755);
  std::string tmp = dir + "/." + key.hex() + "." + std::to_string(getpid()) + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) return;
  bool ok = std::fwrite(blob.data(), 1, blob.size(), f) == blob.size();
  ok &= std::fclose(f) == 0;
  if (ok) ok = std::rename(tmp.c_str(), (dir + "/" + key.hex() + ".tso").c_str()) == 0;
  if (!ok) std::remove(tmp.c_str());
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

CacheKey computeCacheKey(const ComputeCompileRequest& request) {
  Hasher h;
  hashRequest(h, request);
  const XXH128_hash_t v = h.value();
  return {v.high64, v.low64};
}

std::vector<uint8_t> serializeObject(const CachedObject& o) {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) { out.insert(out.end(), static_cast<const uint8_t*>(p), static_cast<const uint8_t*>(p) + n); };
  auto u32 = [&](uint32_t v) { put(&v, 4); };
  u32(kObjectMagic);
  for (uint32_t s : o.info.localSize) u32(s);
  u32(o.info.simdWidth);
  u32(o.info.sharedMemoryBytes);
  u32(o.info.usesBarrier);
  u32(o.info.zeroInitSharedMemory);
  put(&o.info.stackBytes, 8);
  u32(uint32_t(o.symbol.size()));
  put(o.symbol.data(), o.symbol.size());
  u32(uint32_t(o.code.size()));
  put(o.code.data(), o.code.size());
  return out;
}

bool deserializeObject(const uint8_t* data, size_t size, CachedObject* out) {
  size_t pos = 0;
  auto get = [&](void* p, size_t n) {
    if (pos + n > size) return false;
    std::memcpy(p, data + pos, n);
    pos += n;
    return true;
  };
  uint32_t magic = 0, flags[2] = {}, len = 0;
  if (!get(&magic, 4) || magic != kObjectMagic) return false;
  if (!get(out->info.localSize, 12) || !get(&out->info.simdWidth, 4) || !get(&out->info.sharedMemoryBytes, 4) ||
      !get(flags, 8) || !get(&out->info.stackBytes, 8) || !get(&len, 4) || len > 256 || pos + len > size)
    return false;
  out->info.usesBarrier = flags[0] != 0;
  out->info.zeroInitSharedMemory = flags[1] != 0;
  out->symbol.assign(reinterpret_cast<const char*>(data + pos), len);
  pos += len;
  if (!get(&len, 4) || pos + len != size) return false;
  out->code.assign(reinterpret_cast<const char*>(data + pos), reinterpret_cast<const char*>(data + size));
  return true;
}

CodeCache& CodeCache::instance() {
  // Never destroyed: its programs' code belongs to the JIT, which outlives everything.
  static CodeCache* cache = new CodeCache;
  return *cache;
}

std::shared_ptr<const ComputeProgram> CodeCache::findProgram(const CacheKey& key) {
  CachedObject object;
  {
    std::lock_guard lock(mutex_);
    auto it = live_.find(key);
    if (it != live_.end())
      if (auto p = it->second.lock()) return p;
    auto o = objects_.find(key);
    if (o == objects_.end()) return nullptr;
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

std::shared_ptr<const ComputeProgram> CodeCache::load(const CacheKey& key, const CachedObject& object,
                                                      std::string* error, bool remember) {
  auto code = loadObject(object.code, object.symbol, error);
  if (!code) return nullptr;
  auto program = std::make_shared<LoadedProgram>();
  program->entry = reinterpret_cast<abi::ComputeBatchFn>(code->symbol(object.symbol));
  for (int i = 0; i < 3; ++i) program->localSize[i] = object.info.localSize[i];
  program->simdWidth = object.info.simdWidth;
  program->sharedMemoryBytes = object.info.sharedMemoryBytes;
  program->usesBarrier = object.info.usesBarrier;
  program->zeroInitSharedMemory = object.info.zeroInitSharedMemory;
  program->stackBytes = object.info.stackBytes;
  program->code = std::move(code);
  if (remember) {
    std::lock_guard lock(mutex_);
    live_[key] = program;
    recent_.push_back(program);
    if (recent_.size() > kRecentPrograms) recent_.pop_front();
    if (!objects_.count(key) && objectBytes_ + object.code.size() <= kMaxRememberedBytes) {
      objects_[key] = object;
      objectBytes_ += object.code.size();
    }
  }
  return program;
}

}  // namespace tessera::jit
