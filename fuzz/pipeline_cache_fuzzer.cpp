// libFuzzer target: VkPipelineCache initial data, through the driver's own entry points
// (tessera_vk*, no loader) on a device created in-process. Each input becomes the pInitialData
// of a cache that a compute pipeline creation then looks up and fills, that is merged into
// another cache, and whose data is read back (vkGetPipelineCacheData) and fed to a third.
//
// Arbitrary bytes almost never get past the header and the HMAC, so the first byte picks how
// the rest is presented (so that the fuzzer spends its time past each check in turn):
//   0: the bytes as they are;
//   1: this device's valid header, then the bytes (entry framing, keys, authentication);
//   2: the header and one entry under the pipeline's real key whose blob is the bytes plus a
//      valid digest (as if its author held the secret): the serialized object's parser
//      (jit::isAuthenticCacheEntry, deserializeObject) and the lookup that takes it.
// Seeds for each mode come from the harness itself (TESSERA_FUZZ_WRITE_SEEDS=<dir>, see
// fuzz/README.md and tools/fuzz), since the real key depends on the build and the CPU.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cache_digest.h"
#include "entrypoints.h"

namespace {

constexpr size_t kHeaderSize = 16 + VK_UUID_SIZE;

void require(bool ok, const char* what) {
  if (ok) return;
  std::fprintf(stderr, "pipeline_cache_fuzzer: set-up failed: %s\n", what);
  std::abort();
}

struct Driver {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkShaderModule module = VK_NULL_HANDLE;
  VkDescriptorSetLayout setLayout = VK_NULL_HANDLE;
  VkPipelineLayout layout = VK_NULL_HANDLE;
  VkPipeline warm = VK_NULL_HANDLE;  // kept alive: later creations find its program in memory
  std::vector<uint8_t> data;         // a cache's data after one creation: header + one entry
  std::vector<uint8_t> header, key, blob;

  VkPipeline createPipeline(VkPipelineCache cache) const {
    VkComputePipelineCreateInfo ci{VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    ci.stage = {VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, nullptr, 0, VK_SHADER_STAGE_COMPUTE_BIT, module, "main"};
    ci.layout = layout;
    VkPipeline p = VK_NULL_HANDLE;
    if (tessera_vkCreateComputePipelines(device, cache, 1, &ci, nullptr, &p) != VK_SUCCESS) return VK_NULL_HANDLE;
    return p;
  }
  std::vector<uint8_t> cacheData(VkPipelineCache cache) const {
    size_t size = 0;
    require(tessera_vkGetPipelineCacheData(device, cache, &size, nullptr) == VK_SUCCESS, "data size");
    std::vector<uint8_t> out(size);
    require(tessera_vkGetPipelineCacheData(device, cache, &size, out.data()) == VK_SUCCESS, "data");
    out.resize(size);
    return out;
  }
};

Driver* makeDriver() {
  auto* d = new Driver;  // never destroyed: lives as long as the fuzzing process
  VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
  app.apiVersion = VK_API_VERSION_1_3;
  VkInstanceCreateInfo ici{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
  ici.pApplicationInfo = &app;
  require(tessera_vkCreateInstance(&ici, nullptr, &d->instance) == VK_SUCCESS, "instance");
  uint32_t count = 1;
  VkResult r = tessera_vkEnumeratePhysicalDevices(d->instance, &count, &d->physical);
  require((r == VK_SUCCESS || r == VK_INCOMPLETE) && count == 1, "physical device");
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  VkDeviceCreateInfo dci{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  require(tessera_vkCreateDevice(d->physical, &dci, nullptr, &d->device) == VK_SUCCESS, "device");

  std::ifstream in(TESSERA_FUZZ_SHADER, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  require(bytes.size() >= 20 && bytes.size() % 4 == 0, TESSERA_FUZZ_SHADER);
  VkShaderModuleCreateInfo sm{VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
  sm.codeSize = bytes.size();
  sm.pCode = reinterpret_cast<const uint32_t*>(bytes.data());
  require(tessera_vkCreateShaderModule(d->device, &sm, nullptr, &d->module) == VK_SUCCESS, "shader module");
  VkDescriptorSetLayoutBinding bindings[2] = {
      {0, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr},
      {1, VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 1, VK_SHADER_STAGE_COMPUTE_BIT, nullptr}};
  VkDescriptorSetLayoutCreateInfo dl{VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, nullptr, 0, 2, bindings};
  require(tessera_vkCreateDescriptorSetLayout(d->device, &dl, nullptr, &d->setLayout) == VK_SUCCESS, "set layout");
  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, 8};
  VkPipelineLayoutCreateInfo pl{VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, nullptr, 0, 1, &d->setLayout, 1, &range};
  require(tessera_vkCreatePipelineLayout(d->device, &pl, nullptr, &d->layout) == VK_SUCCESS, "pipeline layout");

  VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  VkPipelineCache cache = VK_NULL_HANDLE;
  require(tessera_vkCreatePipelineCache(d->device, &pci, nullptr, &cache) == VK_SUCCESS, "cache");
  d->warm = d->createPipeline(cache);
  require(d->warm != VK_NULL_HANDLE, "pipeline");
  d->data = d->cacheData(cache);
  tessera_vkDestroyPipelineCache(d->device, cache, nullptr);
  require(d->data.size() > kHeaderSize + 20 + tessera::jit::kCacheDigestBytes, "an entry in the cache data");
  d->header.assign(d->data.begin(), d->data.begin() + kHeaderSize);
  d->key.assign(d->data.begin() + kHeaderSize, d->data.begin() + kHeaderSize + 16);
  uint32_t len = 0;
  std::memcpy(&len, d->data.data() + kHeaderSize + 16, 4);
  require(len <= d->data.size() - kHeaderSize - 20, "entry length");
  d->blob.assign(d->data.begin() + kHeaderSize + 20, d->data.begin() + kHeaderSize + 20 + len);
  return d;
}

Driver& driver() {
  static Driver* d = makeDriver();
  return *d;
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  setenv("TESSERA_SHADER_CACHE", "0", 1);  // no disk cache: the secret is this process's
  Driver& d = driver();
  if (const char* dir = std::getenv("TESSERA_FUZZ_WRITE_SEEDS")) {
    std::vector<uint8_t> mode0{0}, mode1{1}, mode2{2};
    mode0.insert(mode0.end(), d.data.begin(), d.data.end());
    mode1.insert(mode1.end(), d.data.begin() + kHeaderSize, d.data.end());
    mode2.insert(mode2.end(), d.blob.begin(), d.blob.end() - tessera::jit::kCacheDigestBytes);
    writeFile(std::string(dir) + "/cache_data", mode0);
    writeFile(std::string(dir) + "/entries", mode1);
    writeFile(std::string(dir) + "/object", mode2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0 || size > (4u << 20)) return -1;
  Driver& d = driver();
  std::vector<uint8_t> initial;
  const uint8_t* rest = data + 1;
  const size_t restSize = size - 1;
  switch (data[0] % 3) {
    case 0:
      initial.assign(rest, rest + restSize);
      break;
    case 1:
      initial = d.header;
      initial.insert(initial.end(), rest, rest + restSize);
      break;
    default: {
      std::vector<uint8_t> blob(rest, rest + restSize);
      blob.resize(restSize + tessera::jit::kCacheDigestBytes);
      if (!tessera::jit::cacheDigest(blob.data(), restSize, blob.data() + restSize)) return 0;
      initial = d.header;
      initial.insert(initial.end(), d.key.begin(), d.key.end());
      const uint32_t len = uint32_t(blob.size());
      initial.insert(initial.end(), reinterpret_cast<const uint8_t*>(&len), reinterpret_cast<const uint8_t*>(&len) + 4);
      initial.insert(initial.end(), blob.begin(), blob.end());
    }
  }
  VkPipelineCacheCreateInfo pci{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  pci.initialDataSize = initial.size();
  pci.pInitialData = initial.data();
  VkPipelineCache fuzzed = VK_NULL_HANDLE, merged = VK_NULL_HANDLE, again = VK_NULL_HANDLE;
  if (tessera_vkCreatePipelineCache(d.device, &pci, nullptr, &fuzzed) != VK_SUCCESS) return 0;
  if (VkPipeline p = d.createPipeline(fuzzed)) tessera_vkDestroyPipeline(d.device, p, nullptr);
  VkPipelineCacheCreateInfo empty{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO};
  require(tessera_vkCreatePipelineCache(d.device, &empty, nullptr, &merged) == VK_SUCCESS, "merge target");
  require(tessera_vkMergePipelineCaches(d.device, merged, 1, &fuzzed) == VK_SUCCESS, "merge");
  const std::vector<uint8_t> out = d.cacheData(merged);
  VkPipelineCacheCreateInfo roundTrip{VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, nullptr, 0, out.size(), out.data()};
  require(tessera_vkCreatePipelineCache(d.device, &roundTrip, nullptr, &again) == VK_SUCCESS, "round trip");
  // What a cache hands out is exactly what it was made of: its own data, whole.
  require(d.cacheData(again) == out, "the round trip keeps the data");
  tessera_vkDestroyPipelineCache(d.device, again, nullptr);
  tessera_vkDestroyPipelineCache(d.device, merged, nullptr);
  tessera_vkDestroyPipelineCache(d.device, fuzzed, nullptr);
  return 0;
}
