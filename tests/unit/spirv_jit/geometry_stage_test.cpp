// Geometry kernels run directly (no Vulkan), at every SIMD width: the execution modes as facts,
// per-vertex inputs (gl_in[].gl_Position and user locations), PrimitiveIdIn and InvocationId,
// and the vertex records OpEmitVertex writes (abi::GeometryBatch: header, then the outputs by
// location), with EndPrimitive's strip starts ("Geometry Shading") and vertex streams; and a geometry stage's
// facts through the application's pipeline cache. Expected values are computed here from the
// shaders' source (tests/shaders/gs_*.geom).
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "code_cache.h"
#include "compute_harness.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

namespace abi = tessera::abi;
using tessera::jit::GraphicsStage;

std::shared_ptr<const tessera::jit::GraphicsProgram> compileGeometry(const std::string& name, uint32_t width) {
  std::vector<uint32_t> words = loadShader(name);
  tessera::jit::GraphicsCompileRequest req;
  req.stage = GraphicsStage::Geometry;
  req.spirv = words;
  req.interface.simdWidth = width;
  req.useCache = false;
  tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
  EXPECT_EQ(r.status, tessera::jit::CompileStatus::Success) << name << ": " << r.message;
  return r.program;
}

float asFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

// One batch's buffers, sized for the program's records.
struct GeometryRun {
  uint32_t W;
  const tessera::jit::GraphicsFacts::Geometry& g;
  abi::BoundResources resources{};
  std::vector<float> position, pointSize, distances;
  std::vector<uint32_t> inputs, records;
  abi::GeometryBatch batch{};
  GeometryRun(uint32_t w, const tessera::jit::GraphicsFacts::Geometry& facts)
      : W(w), g(facts), position(abi::kMaxGeometryInputVertices * 4 * w, 0.0f), pointSize(abi::kMaxGeometryInputVertices * w, 1.0f),
        distances(abi::kMaxGeometryInputVertices * 2 * abi::kMaxClipDistances * w, 0.0f),
        inputs(abi::kMaxGeometryInputVertices * abi::kMaxInterfaceLocations * 4 * w, 0),
        records(size_t(facts.maxVertices) * facts.vertexWords * w, 0xdeadbeef) {
    batch.resources = &resources;
    batch.inPosition = position.data();
    batch.inPointSize = pointSize.data();
    batch.inputs = inputs.data();
    batch.inDistances = distances.data();
    batch.vertices = records.data();
  }
  float& pos(uint32_t v, uint32_t c, uint32_t lane) { return position[(v * 4 + c) * W + lane]; }
  uint32_t& in(uint32_t v, uint32_t loc, uint32_t c, uint32_t lane) {
    return inputs[((v * abi::kMaxInterfaceLocations + loc) * 4 + c) * W + lane];
  }
  uint32_t word(uint32_t k, uint32_t w, uint32_t lane) const { return records[(size_t(k) * g.vertexWords + w) * W + lane]; }
};

// gs_quads.geom: points in, a 4-vertex triangle strip out, the square around the point in
// pixels of a 32x32 target, carrying VertexIndex + 1 in location 0.
TEST(GeometryStage, PointsBecomeSquareStripsWithTheInputsValue) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileGeometry("gs_quads_geom", W);
    ASSERT_TRUE(program && program->geometry);
    const auto& f = program->facts;
    EXPECT_EQ(f.geometry.inputVertices, 1u);
    EXPECT_EQ(f.geometry.outputTopology, 2u);  // triangle strip
    EXPECT_EQ(f.geometry.maxVertices, 4u);
    EXPECT_EQ(f.geometry.invocations, 1u);
    EXPECT_EQ(f.geometry.vertexWords, abi::kGeometryRecordHeader + 4);  // location 0
    EXPECT_EQ(f.inputComponents[0], 0xF);  // id[]: a uvec4 per vertex
    EXPECT_EQ(f.outputComponents[0], 0xF);
    GeometryRun run(W, f.geometry);
    run.batch.count = W - 1;  // the last lane is inactive
    for (uint32_t i = 0; i < W; ++i) {
      run.pos(0, 0, i) = float(i) / 16.0f - 0.5f;
      run.pos(0, 1, i) = 0.25f;
      run.pos(0, 3, i) = 1.0f;
      run.in(0, 0, 0, i) = 40 + i;
      run.batch.primitiveIdIn[i] = i;
    }
    program->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      ASSERT_EQ(run.batch.emitted[i], i + 1 < W ? 4u : 0u) << "W " << W << " lane " << i;
      if (i + 1 == W) {
        EXPECT_EQ(run.word(0, 0, i), 0xdeadbeefu) << "an inactive lane writes nothing";
        continue;
      }
      const float cx = (float(i) / 16.0f - 0.5f + 1.0f) * 16.0f, cy = (0.25f + 1.0f) * 16.0f;
      for (uint32_t k = 0; k < 4; ++k) {
        EXPECT_EQ(run.word(k, abi::kGeometryFlags, i), k == 0 ? 1u : 0u) << "a strip starts at vertex 0 only";
        EXPECT_EQ(asFloat(run.word(k, abi::kGeometryPosition + 0, i)), (cx + (k < 2 ? -3.0f : 3.0f)) / 16.0f - 1.0f);
        EXPECT_EQ(asFloat(run.word(k, abi::kGeometryPosition + 1, i)), (cy + ((k & 1) == 0 ? -3.0f : 3.0f)) / 16.0f - 1.0f);
        EXPECT_EQ(asFloat(run.word(k, abi::kGeometryPosition + 3, i)), 1.0f);
        EXPECT_EQ(asFloat(run.word(k, abi::kGeometryPointSize, i)), 1.0f);
        EXPECT_EQ(run.word(k, abi::kGeometryPrimitiveId, i), i) << "PrimitiveId unwritten: the input's";
        EXPECT_EQ(run.word(k, abi::kGeometryLayer, i), 0u);
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 0, i), 41 + i);
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 3, i), 1u);
      }
    }
  }
}

// gs_strips.geom: three strips of 6, 4 and 2 vertices split by EndPrimitive; the vertices
// that start a strip are flagged.
TEST(GeometryStage, EndPrimitiveStartsANewStrip) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileGeometry("gs_strips_geom", W);
    ASSERT_TRUE(program && program->geometry);
    EXPECT_EQ(program->facts.geometry.maxVertices, 12u);
    GeometryRun run(W, program->facts.geometry);
    run.batch.count = W;
    program->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      ASSERT_EQ(run.batch.emitted[i], 12u);
      for (uint32_t k = 0; k < 12; ++k) {
        EXPECT_EQ(run.word(k, abi::kGeometryFlags, i), k == 0 || k == 6 || k == 10 ? 1u : 0u) << "vertex " << k;
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader, i), k < 6 ? 1u : k < 10 ? 2u : 3u);
      }
    }
  }
}

// gs_invocations.geom: Invocations = 3; each lane is one invocation and writes its
// InvocationId and PrimitiveIdIn; at most OutputVertices (2) vertices per lane.
TEST(GeometryStage, InvocationIdAndPrimitiveIdInPerLane) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileGeometry("gs_invocations_geom", W);
    ASSERT_TRUE(program && program->geometry);
    EXPECT_EQ(program->facts.geometry.invocations, 3u);
    EXPECT_EQ(program->facts.geometry.outputTopology, 0u);
    GeometryRun run(W, program->facts.geometry);
    run.batch.count = W;
    for (uint32_t i = 0; i < W; ++i) run.batch.invocationId[i] = i % 3, run.batch.primitiveIdIn[i] = 100 + i / 3;
    program->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      ASSERT_EQ(run.batch.emitted[i], 2u);
      for (uint32_t k = 0; k < 2; ++k) {
        EXPECT_EQ(run.word(k, abi::kGeometryFlags, i), 1u) << "each point follows an EndPrimitive";
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 0, i), i % 3);
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 1, i), 100 + i / 3);
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 2, i), k == 0 ? 7u : 8u);
      }
    }
  }
}

// gs_primitive_id_loop.geom: a loop counted by PrimitiveIdIn % 5. PrimitiveId is uniform in a
// fragment batch (one primitive) but a geometry batch's lanes are different primitives: a
// uniformity analysis that took it as uniform ran every lane the first lane's count of
// iterations (the CTS's geometry.basic.output_* cases drew nothing).
TEST(GeometryStage, PrimitiveIdInIsPerLaneInControlFlow) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileGeometry("gs_primitive_id_loop_geom", W);
    ASSERT_TRUE(program && program->geometry);
    GeometryRun run(W, program->facts.geometry);
    run.batch.count = W;
    for (uint32_t i = 0; i < W; ++i) run.batch.primitiveIdIn[i] = 3 * i + 1;  // 1, 4, 7, 10, ...: counts 1, 4, 2, 0, ...
    program->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      const uint32_t count = (3 * i + 1) % 5;
      ASSERT_EQ(run.batch.emitted[i], count) << "W " << W << " lane " << i;
      for (uint32_t k = 0; k < count; ++k) EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 0, i), k) << "W " << W << " lane " << i;
    }
  }
}

// gs_adj_triangles.geom reads all six vertices of a triangle with adjacency; gs_layers.geom
// writes Layer, and gs_primitive_id.geom PrimitiveId, into the records' header.
TEST(GeometryStage, AdjacencyInputsLayerAndPrimitiveId) {
  for (uint32_t W : kSimdWidths) {
    auto adjacency = compileGeometry("gs_adj_triangles_geom", W);
    ASSERT_TRUE(adjacency && adjacency->geometry);
    EXPECT_EQ(adjacency->facts.geometry.inputVertices, 6u);
    GeometryRun run(W, adjacency->facts.geometry);
    run.batch.count = W;
    for (uint32_t i = 0; i < W; ++i)
      for (uint32_t v = 0; v < 6; ++v) run.in(v, 0, 0, i) = 10 * v + i;
    adjacency->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      ASSERT_EQ(run.batch.emitted[i], 1u);
      uint32_t want[2] = {};
      for (uint32_t v = 0; v < 6; ++v) want[v / 3] |= ((10 * v + i) & 255) << (8 * (v % 3));
      EXPECT_EQ(run.word(0, abi::kGeometryRecordHeader + 0, i), want[0]);
      EXPECT_EQ(run.word(0, abi::kGeometryRecordHeader + 1, i), want[1]);
    }

    auto layers = compileGeometry("gs_layers_geom", W);
    ASSERT_TRUE(layers && layers->geometry);
    EXPECT_TRUE(layers->facts.geometry.writesLayer);
    GeometryRun layered(W, layers->facts.geometry);
    layered.batch.count = W;
    for (uint32_t i = 0; i < W; ++i) layered.in(0, 0, 0, i) = i;
    layers->geometry(&layered.batch);
    for (uint32_t i = 0; i < W; ++i) EXPECT_EQ(layered.word(3, abi::kGeometryLayer, i), i % 3);

    auto primitiveId = compileGeometry("gs_primitive_id_geom", W);
    ASSERT_TRUE(primitiveId && primitiveId->geometry);
    EXPECT_TRUE(primitiveId->facts.geometry.writesPrimitiveId);
    EXPECT_EQ(primitiveId->facts.geometry.inputVertices, 3u);
    GeometryRun ids(W, primitiveId->facts.geometry);
    ids.batch.count = W;
    for (uint32_t i = 0; i < W; ++i) ids.batch.primitiveIdIn[i] = 5 + i;
    primitiveId->geometry(&ids.batch);
    for (uint32_t i = 0; i < W; ++i) EXPECT_EQ(ids.word(2, abi::kGeometryPrimitiveId, i), 2 * (5 + i) + 1);
  }
}

// gs_streams.geom ("Geometry Shading", vertex streams; OpEmitStreamVertex and
// OpEndStreamPrimitive): every record says its stream in kGeometryFlags, and each stream keeps
// its own strip: a vertex starts a strip when it is its stream's first or follows that stream's
// EndStreamPrimitive, whatever the other streams did in between. OutputVertices (10) bounds
// the vertices of all streams together: the eleventh is dropped.
TEST(GeometryStage, RecordsCarryTheirStreamAndEachStreamHasItsOwnStrip) {
  struct Expected {
    uint32_t stream;
    bool startsStrip;
  };
  // k: EmitStreamVertex(stream) in the shader's order; EndStreamPrimitive(1) after k = 3,
  // EndStreamPrimitive(0) after k = 7.
  const Expected want[10] = {{0, true},  {1, true},  {1, false}, {0, false}, {1, true},
                             {2, true},  {3, true},  {0, false}, {0, true},  {3, false}};
  for (uint32_t W : kSimdWidths) {
    auto program = compileGeometry("gs_streams_geom", W);
    ASSERT_TRUE(program && program->geometry);
    EXPECT_EQ(program->facts.geometry.maxVertices, 10u);
    EXPECT_EQ(program->facts.geometry.outputTopology, 0u);
    GeometryRun run(W, program->facts.geometry);
    run.batch.count = W;
    program->geometry(&run.batch);
    for (uint32_t i = 0; i < W; ++i) {
      ASSERT_EQ(run.batch.emitted[i], 10u) << "W " << W << " lane " << i << ": OutputVertices counts every stream";
      for (uint32_t k = 0; k < 10; ++k) {
        const uint32_t flags = run.word(k, abi::kGeometryFlags, i);
        EXPECT_EQ(abi::geometryStream(flags), want[k].stream) << "W " << W << " vertex " << k;
        EXPECT_EQ((flags & abi::kGeometryStripStart) != 0, want[k].startsStrip) << "W " << W << " vertex " << k;
        EXPECT_EQ(flags & ~(abi::kGeometryStripStart | abi::kGeometryStreamMask << abi::kGeometryStreamShift), 0u);
        // Outputs of every stream are in every record (location 0 then 1).
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 0, i), k);
        EXPECT_EQ(run.word(k, abi::kGeometryRecordHeader + 4, i), 100 + k);
      }
    }
  }
}

// A Stream operand that is not a constant (SPIR-V: "must be an <id> of a constant
// instruction"), or names a stream past maxTransformFeedbackStreams, is a compile failure
// with a message that says so, never a crash or a guess.
TEST(GeometryStage, StreamsThatAreNotConstantOrOutOfRangeAreRefused) {
  for (const char* name : {"gs_stream_not_constant", "gs_stream_out_of_range"}) {
    std::vector<uint32_t> words = loadShader(name);
    tessera::jit::GraphicsCompileRequest req;
    req.stage = GraphicsStage::Geometry;
    req.spirv = words;
    req.interface.simdWidth = 8;
    req.useCache = false;
    const tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
    EXPECT_NE(r.status, tessera::jit::CompileStatus::Success) << name;
    EXPECT_FALSE(r.program) << name;
    EXPECT_NE(r.message.find("tream"), std::string::npos) << name << ": " << r.message;
  }
}

// An application's VkPipelineCache as the JIT sees it.
struct MapCache final : tessera::jit::ExternalCache {
  std::map<std::vector<uint8_t>, std::vector<uint8_t>> entries;
  bool find(const uint8_t key[16], std::vector<uint8_t>* blob) override {
    auto it = entries.find(std::vector<uint8_t>(key, key + 16));
    if (it == entries.end()) return false;
    *blob = it->second;
    return true;
  }
  void insert(const uint8_t key[16], const std::vector<uint8_t>& blob) override {
    entries[std::vector<uint8_t>(key, key + 16)] = blob;
  }
};

// The code caches keep a geometry stage's execution modes and record layout with its object
// (kind Geometry): linked back from the application's cache it runs the same; a blob whose
// geometry facts are out of range (what a compile never produces) is refused.
TEST(GeometryStage, FactsSurviveTheApplicationCacheAndDamagedOnesAreRefused) {
  using namespace tessera::jit;
  std::vector<uint32_t> words = loadShader("gs_invocations_geom");
  GraphicsCompileRequest req;
  req.stage = GraphicsStage::Geometry;
  req.spirv = words;
  req.interface.simdWidth = 8;
  MapCache app;
  req.external = &app;
  GraphicsCompileResult first = compileGraphicsStage(req);
  ASSERT_EQ(first.status, CompileStatus::Success) << first.message;
  ASSERT_EQ(app.entries.size(), 1u);
  const std::vector<uint8_t> blob = app.entries.begin()->second;
  CachedObject object;
  ASSERT_TRUE(deserializeObject(blob.data(), blob.size(), &object));
  EXPECT_EQ(object.kind, ObjectKind::Geometry);
  const auto& g = object.facts.geometry;
  EXPECT_EQ(g.inputVertices, 1u);
  EXPECT_EQ(g.outputTopology, 0u);
  EXPECT_EQ(g.maxVertices, 2u);
  EXPECT_EQ(g.invocations, 3u);
  EXPECT_EQ(g.vertexWords, first.program->facts.geometry.vertexWords);
  std::string error;
  auto linked = std::static_pointer_cast<const GraphicsProgram>(
      CodeCache::instance().load(computeCacheKey(req), object, &error, false));
  ASSERT_TRUE(linked && linked->geometry) << error;
  EXPECT_EQ(linked->stage, GraphicsStage::Geometry);
  GeometryRun run(8, linked->facts.geometry);
  run.batch.count = 8;
  for (uint32_t i = 0; i < 8; ++i) run.batch.invocationId[i] = i % 3;
  linked->geometry(&run.batch);
  for (uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(run.batch.emitted[i], 2u);
    EXPECT_EQ(run.word(1, abi::kGeometryRecordHeader, i), i % 3);
  }
  for (auto damage : {+[](CachedObject& o) { o.facts.geometry.invocations = 0; },
                      +[](CachedObject& o) { o.facts.geometry.maxVertices = kMaxGeometryOutputVertices + 1; },
                      +[](CachedObject& o) { o.facts.geometry.inputVertices = 5; },
                      +[](CachedObject& o) { o.facts.geometry.vertexWords = 3; }}) {
    CachedObject bad = object;
    damage(bad);
    const std::vector<uint8_t> badBlob = serializeObject(bad);
    CachedObject out;
    EXPECT_FALSE(deserializeObject(badBlob.data(), badBlob.size(), &out));
  }
}

}  // namespace
}  // namespace tessera_test
