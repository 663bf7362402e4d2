// Vertex and fragment stages in the compile caches (code_cache.h): a stage's object file and
// its GraphicsFacts go to the application's pipeline cache and the disk cache, come back from
// either with the same machine code and facts, and damaged data is a miss, never a crash.
#include <gtest/gtest.h>

#include <unistd.h>

#include <bit>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "code_cache.h"
#include "compute_harness.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

namespace fs = std::filesystem;
using tessera::abi::kMaxInterfaceLocations;
using namespace tessera::jit;

// This binary's disk cache is a directory of its own, set before anything reads the variable
// (the JIT reads it once) and removed at exit: tests never see or fill a user's cache. A child
// process started by a test (kChildDirectory set) uses its parent's.
constexpr const char* kChildDirectory = "TESSERA_TEST_CHILD_CACHE_DIR";
constexpr const char* kChildSpecValue = "TESSERA_TEST_CHILD_SPEC_VALUE";
struct DiskCacheDirectory {
  const bool child = std::getenv(kChildDirectory) != nullptr;
  fs::path path = child ? fs::path(std::getenv(kChildDirectory))
                        : fs::temp_directory_path() / ("tessera-jit-unit-cache-" + std::to_string(getpid()));
  DiskCacheDirectory() {
    setenv("TESSERA_SHADER_CACHE_DIR", path.c_str(), 1);
    unsetenv("TESSERA_SHADER_CACHE");
  }
  ~DiskCacheDirectory() {
    std::error_code ec;
    if (!child) fs::remove_all(path, ec);
  }
};
const DiskCacheDirectory diskCache;

// A VkPipelineCache as the JIT sees it.
struct MapCache final : ExternalCache {
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

struct Stage {
  std::vector<uint32_t> words;
  GraphicsCompileRequest request;
};

Stage vertexStage(uint32_t width) {
  Stage s;
  s.words = loadShader("stage_transform_vert");
  s.request.stage = GraphicsStage::Vertex;
  s.request.spirv = s.words;
  s.request.interface.simdWidth = width;
  return s;
}

void expectSameFacts(const GraphicsFacts& a, const GraphicsFacts& b) {
  EXPECT_EQ(0, std::memcmp(a.inputComponents, b.inputComponents, sizeof(a.inputComponents)));
  EXPECT_EQ(0, std::memcmp(a.inputInterpolation, b.inputInterpolation, sizeof(a.inputInterpolation)));
  EXPECT_EQ(0, std::memcmp(a.outputComponents, b.outputComponents, sizeof(a.outputComponents)));
  EXPECT_EQ(a.centroidInputs, b.centroidInputs);
  EXPECT_EQ(a.writesPointSize, b.writesPointSize);
  EXPECT_EQ(a.clipDistances, b.clipDistances);
  EXPECT_EQ(a.cullDistances, b.cullDistances);
  EXPECT_EQ(a.writesFragDepth, b.writesFragDepth);
  EXPECT_EQ(a.writesSampleMask, b.writesSampleMask);
  EXPECT_EQ(a.perSampleShading, b.perSampleShading);
  EXPECT_EQ(a.canDiscard, b.canDiscard);
  EXPECT_EQ(a.hasSideEffects, b.hasSideEffects);
  EXPECT_EQ(a.earlyFragmentTests, b.earlyFragmentTests);
  EXPECT_EQ(a.postDepthCoverage, b.postDepthCoverage);
  EXPECT_EQ(a.writesStencilRef, b.writesStencilRef);
  EXPECT_EQ(a.writesLayer, b.writesLayer);
  EXPECT_EQ(a.writesViewportIndex, b.writesViewportIndex);
  EXPECT_EQ(a.readsSampleMaskIn, b.readsSampleMaskIn);
  EXPECT_EQ(a.fragCoordReads, b.fragCoordReads);
  EXPECT_EQ(a.directColorLocations, b.directColorLocations);
}

// Runs a stage_transform_vert kernel on one batch; returns every output word.
std::vector<uint32_t> runVertex(const GraphicsProgram& program, uint32_t W) {
  tessera::abi::BoundResources resources{};
  const float scale[4] = {2, 3, 4, 9};
  std::memcpy(resources.pushConstants, scale, 16);
  std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
  for (uint32_t i = 0; i < inputs.size(); ++i) inputs[i] = 0x3f800000u + i * 4096u;
  std::vector<float> position(4 * W), pointSize(W), clip(8 * W), cull(8 * W);
  std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
  tessera::abi::VertexBatch batch{};
  batch.resources = &resources;
  batch.count = W;
  batch.instanceIndex = 3;
  for (uint32_t i = 0; i < W; ++i) batch.vertexIndex[i] = 7 + i;
  batch.inputs = inputs.data();
  batch.position = position.data();
  batch.pointSize = pointSize.data();
  batch.clipDistance = clip.data();
  batch.cullDistance = cull.data();
  batch.outputs = outputs.data();
  program.vertex(&batch);
  std::vector<uint32_t> all = outputs;
  for (float f : position) all.push_back(std::bit_cast<uint32_t>(f));
  for (float f : pointSize) all.push_back(std::bit_cast<uint32_t>(f));
  for (float f : clip) all.push_back(std::bit_cast<uint32_t>(f));
  return all;
}

TEST(GraphicsCache, AStageGoesToTheApplicationCacheWithItsFactsAndLinksBackToTheSameResults) {
  for (uint32_t W : kSimdWidths) {
    Stage s = vertexStage(W);
    MapCache app;
    s.request.external = &app;
    GraphicsCompileResult first = compileGraphicsStage(s.request);
    ASSERT_EQ(first.status, CompileStatus::Success) << first.message;
    EXPECT_FALSE(first.cacheHit);
    const CacheKey key = computeCacheKey(s.request);
    ASSERT_EQ(app.entries.size(), 1u) << "the stage is in the application's cache";
    const std::vector<uint8_t>& blob = app.entries.begin()->second;
    CachedObject object;
    ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &object));
    EXPECT_EQ(object.kind, ObjectKind::Vertex);
    EXPECT_EQ(object.symbol, objectSymbol(ObjectKind::Vertex, key));
    EXPECT_EQ(object.info.simdWidth, W);
    expectSameFacts(object.facts, first.program->facts);

    // Linked afresh from the blob (as another process would): same facts, same results.
    std::string error;
    auto linked = std::static_pointer_cast<const GraphicsProgram>(CodeCache::instance().load(key, object, &error, false));
    ASSERT_TRUE(linked && linked->vertex) << error;
    EXPECT_NE(linked->vertex, first.program->vertex);
    EXPECT_EQ(linked->stage, GraphicsStage::Vertex);
    EXPECT_EQ(linked->stackBytes, first.program->stackBytes);
    expectSameFacts(linked->facts, first.program->facts);
    EXPECT_EQ(runVertex(*linked, W), runVertex(*first.program, W)) << W;

    // Found in the application's cache: a hit; a cache without it gets it from the process.
    GraphicsCompileResult again = compileGraphicsStage(s.request);
    ASSERT_EQ(again.status, CompileStatus::Success);
    EXPECT_TRUE(again.cacheHit);
    MapCache other;
    s.request.external = &other;
    GraphicsCompileResult fromProcess = compileGraphicsStage(s.request);
    EXPECT_FALSE(fromProcess.cacheHit);
    EXPECT_EQ(other.entries.size(), 1u);
    EXPECT_EQ(other.entries.begin()->second, blob);
  }
}

TEST(GraphicsCache, KeysTellStagesWidthsAndSpecializationApart) {
  Stage v = vertexStage(8);
  const CacheKey base = computeCacheKey(v.request);
  GraphicsCompileRequest r = v.request;
  r.stage = GraphicsStage::Fragment;
  EXPECT_FALSE(computeCacheKey(r) == base);
  r = v.request;
  r.interface.simdWidth = 4;
  EXPECT_FALSE(computeCacheKey(r) == base);
  r = v.request;
  r.interface.bindings.push_back({0, 0, kStorageBuffer, 1, 0, -1});
  EXPECT_FALSE(computeCacheKey(r) == base);
  const uint32_t value = 5;
  const SpecializationEntry entry{9, 0, 4};
  r = v.request;
  r.specialization = {&entry, 1};
  r.specializationData = &value;
  r.specializationDataSize = 4;
  EXPECT_FALSE(computeCacheKey(r) == base);
  // The same SPIR-V as a compute request has another key.
  ComputeCompileRequest c;
  c.spirv = v.request.spirv;
  c.interface = v.request.interface;
  EXPECT_FALSE(computeCacheKey(c) == base);
  EXPECT_TRUE(computeCacheKey(v.request) == base);
}

TEST(GraphicsCache, CacheOnlyIsCompileRequiredUntilAStageIsCached) {
  Stage s = vertexStage(8);
  const uint32_t value = uint32_t(getpid());  // a key no earlier run has cached
  const SpecializationEntry entry{77, 0, 4};
  s.request.specialization = {&entry, 1};
  s.request.specializationData = &value;
  s.request.specializationDataSize = 4;
  s.request.cacheOnly = true;
  EXPECT_EQ(compileGraphicsStage(s.request).status, CompileStatus::CompileRequired);
  s.request.cacheOnly = false;
  ASSERT_EQ(compileGraphicsStage(s.request).status, CompileStatus::Success);
  s.request.cacheOnly = true;
  EXPECT_EQ(compileGraphicsStage(s.request).status, CompileStatus::Success);
}

TEST(GraphicsCache, AFragmentStageRoundTripsThroughTheDiskCache) {
  std::vector<uint32_t> words = loadShader("stage_quad_frag");
  GraphicsCompileRequest req;
  req.stage = GraphicsStage::Fragment;
  req.spirv = words;
  req.interface.simdWidth = 8;
  const uint32_t value = uint32_t(getpid()) ^ 0x5a5a5a5au;  // compiled here, not found earlier
  const SpecializationEntry entry{78, 0, 4};
  req.specialization = {&entry, 1};
  req.specializationData = &value;
  req.specializationDataSize = 4;
  GraphicsCompileResult r = compileGraphicsStage(req);
  ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
  // Facts the file must carry back (not only the defaults): FragCoord is read, outColor is a
  // whole vec4 the kernel may write itself, outInfo (uvec2) is not.
  EXPECT_EQ(r.program->facts.fragCoordReads, 0xF);
  EXPECT_EQ(r.program->facts.directColorLocations, 0x1);
  const CacheKey key = computeCacheKey(req);
  const fs::path file = diskCache.path / (key.hex() + ".tso");
  ASSERT_TRUE(fs::exists(file));

  CachedObject fromDisk, remembered;
  ASSERT_TRUE(readDiskCache(key, &fromDisk));
  ASSERT_TRUE(CodeCache::instance().findObject(key, &remembered));
  EXPECT_EQ(fromDisk.kind, ObjectKind::Fragment);
  EXPECT_EQ(fromDisk.symbol, remembered.symbol);
  EXPECT_EQ(fromDisk.code, remembered.code);
  expectSameFacts(fromDisk.facts, r.program->facts);
  std::string error;
  auto linked = std::static_pointer_cast<const GraphicsProgram>(CodeCache::instance().load(key, fromDisk, &error, false));
  ASSERT_TRUE(linked && linked->fragment) << error;

  // A damaged file is a miss: truncated, or one byte changed anywhere.
  std::vector<char> bytes(fs::file_size(file));
  std::ifstream(file, std::ios::binary).read(bytes.data(), std::streamsize(bytes.size()));
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size() / 2));
  EXPECT_FALSE(readDiskCache(key, &fromDisk));
  std::vector<char> flipped = bytes;
  flipped[bytes.size() / 3] ^= 0x10;
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(flipped.data(), std::streamsize(flipped.size()));
  EXPECT_FALSE(readDiskCache(key, &fromDisk));
  std::ofstream(file, std::ios::binary | std::ios::trunc).write(bytes.data(), std::streamsize(bytes.size()));
  EXPECT_TRUE(readDiskCache(key, &fromDisk));
}

GraphicsCompileRequest uniqueFragmentRequest(const std::vector<uint32_t>& words, const uint32_t* value,
                                             const SpecializationEntry* entry) {
  GraphicsCompileRequest req;
  req.stage = GraphicsStage::Fragment;
  req.spirv = words;
  req.interface.simdWidth = 8;
  req.specialization = {entry, 1};
  req.specializationData = value;
  req.specializationDataSize = 4;
  return req;
}

// Another process (this binary again, running only the child test below) finds the stage on
// disk: with cacheOnly it would fail if it had to compile.
// What the draw loop obeys comes back from the application's cache: EarlyFragmentTests and
// PostDepthCoverage (VK_EXT_post_depth_coverage) and a FragStencilRefEXT output
// (VK_EXT_shader_stencil_export) are facts of the stage linked from its blob, and a stage
// without them has none.
TEST(GraphicsCache, FragmentExecutionModesTravelWithTheStage) {
  for (const char* name : {"post_depth_coverage_frag", "stencil_export_frag", "stage_quad_frag"}) {
    const bool modes = std::string(name) == "post_depth_coverage_frag", stencil = std::string(name) == "stencil_export_frag";
    std::vector<uint32_t> words = loadShader(name);
    GraphicsCompileRequest req;
    req.stage = GraphicsStage::Fragment;
    req.spirv = words;
    req.interface.simdWidth = 8;
    MapCache app;
    req.external = &app;
    GraphicsCompileResult r = compileGraphicsStage(req);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    EXPECT_EQ(r.program->facts.earlyFragmentTests, modes) << name;
    EXPECT_EQ(r.program->facts.postDepthCoverage, modes) << name;
    EXPECT_EQ(r.program->facts.writesStencilRef, stencil) << name;
    // post_depth_coverage.frag reads SampleMaskIn (the draw loop fills it only then).
    EXPECT_EQ(r.program->facts.readsSampleMaskIn, modes) << name;
    ASSERT_EQ(app.entries.size(), 1u);
    const std::vector<uint8_t>& blob = app.entries.begin()->second;
    CachedObject object;
    ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &object));
    expectSameFacts(object.facts, r.program->facts);
  }
}

// A vertex or tessellation evaluation stage's Layer and ViewportIndex outputs (shaderOutputLayer,
// shaderOutputViewportIndex) are facts the draw loop obeys: they come back from the application's
// cache, and a stage without them has none.
TEST(GraphicsCache, VertexLayerAndViewportIndexTravelWithTheStage) {
  struct Case {
    const char* name;
    GraphicsStage stage;
    bool layer, viewport;
  };
  for (const Case& c : {Case{"vertex_layer_viewport_vert", GraphicsStage::Vertex, true, true},
                        Case{"vertex_viewport_only_vert", GraphicsStage::Vertex, false, true},
                        Case{"tess_layer_viewport_tese", GraphicsStage::TessEval, true, true},
                        Case{"stage_transform_vert", GraphicsStage::Vertex, false, false}}) {
    std::vector<uint32_t> words = loadShader(c.name);
    GraphicsCompileRequest req;
    req.stage = c.stage;
    req.spirv = words;
    req.interface.simdWidth = 8;
    MapCache app;
    req.external = &app;
    GraphicsCompileResult r = compileGraphicsStage(req);
    ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
    EXPECT_EQ(r.program->facts.writesLayer, c.layer) << c.name;
    EXPECT_EQ(r.program->facts.writesViewportIndex, c.viewport) << c.name;
    ASSERT_EQ(app.entries.size(), 1u);
    const std::vector<uint8_t>& blob = app.entries.begin()->second;
    CachedObject object;
    ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &object));
    expectSameFacts(object.facts, r.program->facts);
  }
}

TEST(GraphicsCache, AnotherProcessFindsAStageOnDiskWithoutCompiling) {
  std::vector<uint32_t> words = loadShader("stage_quad_frag");
  const uint32_t value = uint32_t(getpid()) ^ 0x00c0ffeeu;
  const SpecializationEntry entry{79, 0, 4};
  GraphicsCompileRequest req = uniqueFragmentRequest(words, &value, &entry);
  ASSERT_EQ(compileGraphicsStage(req).status, CompileStatus::Success);
  const std::string command = std::string(kChildDirectory) + "='" + diskCache.path.string() + "' " + kChildSpecValue +
                              "=" + std::to_string(value) + " " + fs::read_symlink("/proc/self/exe").string() +
                              " --gtest_filter=GraphicsCacheChild.* > /dev/null";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

TEST(GraphicsCacheChild, FindsTheStageOnDisk) {
  const char* v = std::getenv(kChildSpecValue);
  if (!v) GTEST_SKIP() << "run by GraphicsCache.AnotherProcessFindsAStageOnDiskWithoutCompiling";
  std::vector<uint32_t> words = loadShader("stage_quad_frag");
  const uint32_t value = uint32_t(std::stoul(v));
  const SpecializationEntry entry{79, 0, 4};
  GraphicsCompileRequest req = uniqueFragmentRequest(words, &value, &entry);
  req.cacheOnly = true;
  GraphicsCompileResult r = compileGraphicsStage(req);
  ASSERT_EQ(r.status, CompileStatus::Success) << r.message;
  EXPECT_FALSE(r.cacheHit) << "not from an application cache";
  ASSERT_TRUE(r.program && r.program->fragment);
  EXPECT_EQ(r.program->stage, GraphicsStage::Fragment);
  EXPECT_NE(r.program->facts.outputComponents[0], 0);
}

TEST(GraphicsCache, DamagedBlobsAreMissesNotCrashes) {
  Stage s = vertexStage(8);
  MapCache app;
  s.request.external = &app;
  ASSERT_EQ(compileGraphicsStage(s.request).status, CompileStatus::Success);
  ASSERT_EQ(app.entries.size(), 1u);
  const std::vector<uint8_t> blob = app.entries.begin()->second;
  CachedObject o;
  ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &o));
  // Every truncation, a byte changed at many places, an empty blob, another version.
  for (size_t n = 0; n < blob.size(); n += (n < 256 ? 1 : 97)) EXPECT_FALSE(deserializeObject(blob.data(), n, &o)) << n;
  EXPECT_FALSE(deserializeObject(nullptr, 0, &o));
  for (size_t i = 0; i < blob.size(); i += (i < 256 ? 1 : 61)) {
    std::vector<uint8_t> bad = blob;
    bad[i] ^= 0x41;
    EXPECT_FALSE(deserializeObject(bad.data(), bad.size(), &o)) << i;
  }
  // A well-formed object of another kind or width under this key is refused too: the stage is
  // compiled (or found in the process), not taken from the application's cache.
  CachedObject fragment;
  ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &fragment));
  fragment.kind = ObjectKind::Fragment;
  app.entries.begin()->second = serializeObject(fragment);
  GraphicsCompileResult r = compileGraphicsStage(s.request);
  ASSERT_EQ(r.status, CompileStatus::Success);
  EXPECT_FALSE(r.cacheHit);
  // Garbage under the key: a miss.
  app.entries.begin()->second.assign(blob.size(), 0xAB);
  r = compileGraphicsStage(s.request);
  ASSERT_EQ(r.status, CompileStatus::Success);
  EXPECT_FALSE(r.cacheHit);
  EXPECT_TRUE(r.program && r.program->vertex);
}

}  // namespace
}  // namespace tessera_test
