// Tessellation kernels run directly (no Vulkan), at every SIMD width ("Tessellation Control
// Shaders", "Tessellation Evaluation Shaders"): the execution modes as facts; a control kernel's
// inputs per control point, InvocationId and PrimitiveId, its per-vertex and per-patch outputs
// and levels in the output TessPatch; a control kernel of 32 output vertices whose barrier
// makes every invocation's output visible to invocation 0 (runTessControlPatch's fibers); an
// evaluation kernel's TessCoord, control-point and patch inputs. Expected values are computed
// here from the shaders' source (tests/shaders/tess_*.tesc, tess_*.tese).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "compute_harness.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"

namespace tessera_test {
namespace {

namespace abi = tessera::abi;
using tessera::jit::GraphicsStage;

std::shared_ptr<const tessera::jit::GraphicsProgram> compileStage(const std::string& name, GraphicsStage stage, uint32_t width) {
  std::vector<uint32_t> words = loadShader(name);
  tessera::jit::GraphicsCompileRequest req;
  req.stage = stage;
  req.spirv = words;
  req.interface.simdWidth = width;
  req.interface.bindings = {};
  req.useCache = false;
  tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
  EXPECT_EQ(r.status, tessera::jit::CompileStatus::Success) << name << ": " << r.message;
  return r.program;
}

uint32_t bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// Runs a control kernel over one patch: inputs are 4 control points whose position is
// (k, 10 k, 0, 1) and location 0 the same; push constants are the levels.
struct ControlRun {
  abi::BoundResources resources{};
  std::unique_ptr<abi::TessPatch> in = std::make_unique<abi::TessPatch>(), out = std::make_unique<abi::TessPatch>();
  std::vector<uint8_t> memory;
  void run(const tessera::jit::GraphicsProgram& p, uint32_t primitiveId) {
    std::memset(in.get(), 0, sizeof(abi::TessPatch));
    std::memset(out.get(), 0, sizeof(abi::TessPatch));
    for (uint32_t k = 0; k < 4; ++k) {
      const float v[4] = {float(k), 10.0f * k, 0.0f, 1.0f};
      std::memcpy(in->position[k], v, 16);
      std::memcpy(&in->vertex[k][0], v, 16);
    }
    memory.assign(p.facts.tessellation.patchBytes + 64, 0);
    abi::TessControlBatch b{};
    b.resources = &resources;
    b.outputVertices = p.facts.tessellation.outputVertices;
    b.primitiveId = primitiveId;
    b.patchVertices = 4;
    b.patchMemory = memory.data();
    b.in = in.get();
    b.out = out.get();
    tessera::jit::runTessControlPatch(p.tessControl, p.simdWidth, p.facts.tessellation.usesBarrier, p.stackBytes, &b);
  }
};

TEST(TessellationStage, ControlKernelWritesPerVertexAndPatchOutputs) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("tess_levels_tesc", GraphicsStage::TessControl, W);
    ASSERT_TRUE(program && program->tessControl);
    const auto& t = program->facts.tessellation;
    EXPECT_EQ(t.outputVertices, 4u);
    EXPECT_EQ(t.domain, 0u);  // the evaluation shader declares it
    EXPECT_FALSE(t.usesBarrier);
    EXPECT_GT(t.patchBytes, 0u);
    EXPECT_EQ(program->facts.inputComponents[0], 0xF);  // controlPoint[]
    ControlRun r;
    const float levels[6] = {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f};
    std::memcpy(r.resources.pushConstants, levels, sizeof(levels));
    r.run(*program, 7);
    for (uint32_t k = 0; k < 4; ++k) {
      EXPECT_EQ(r.out->position[k][0], float(k)) << "W " << W << " vertex " << k;
      EXPECT_EQ(r.out->position[k][1], 10.0f * k);
      EXPECT_EQ(r.out->vertex[k][1], bits(10.0f * k));  // point[k].y at location 0
    }
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(r.out->tessLevelOuter[i], levels[i]) << "W " << W;
    EXPECT_EQ(r.out->tessLevelInner[0], levels[4]);
    EXPECT_EQ(r.out->tessLevelInner[1], levels[5]);
    EXPECT_EQ(r.out->patch[1 * 4 + 0], 8u);  // patchWord at location 1: PrimitiveId + 1
  }
}

TEST(TessellationStage, BarrierMakesEveryInvocationsOutputVisible) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("tess_barrier_tesc", GraphicsStage::TessControl, W);
    ASSERT_TRUE(program && program->tessControl);
    EXPECT_EQ(program->facts.tessellation.outputVertices, 32u);
    EXPECT_TRUE(program->facts.tessellation.usesBarrier);
    ControlRun r;
    r.run(*program, 0);
    EXPECT_EQ(r.out->patch[1 * 4 + 0], 528u) << "W " << W;  // 1 + 2 + ... + 32
    for (uint32_t k = 0; k < 32; ++k) {
      EXPECT_EQ(r.out->vertex[k][2 * 4 + 0], k + 1) << "W " << W << " word[" << k << "]";
      EXPECT_EQ(r.out->position[k][1], 10.0f * (k % 4));
    }
    EXPECT_EQ(r.out->tessLevelOuter[0], 2.0f);
    EXPECT_EQ(r.out->tessLevelInner[1], 2.0f);
  }
}

// tests/shaders/tess_output_init.spvasm: Output variables with initializers (SPIR-V OpVariable
// "Initializer") in a control stage, whose outputs are the patch's: levels given by the
// initializer alone, an initialized level overwritten by invocation 0, per-vertex words
// initialized and then written by half of the invocations; 20 output vertices, so several
// batches at every W, none of which may store the initializers again over earlier batches' writes.
TEST(TessellationStage, ControlOutputInitializersAreThePatchsStartingValues) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("tess_output_init", GraphicsStage::TessControl, W);
    ASSERT_TRUE(program && program->tessControl);
    EXPECT_EQ(program->facts.tessellation.outputVertices, 20u);
    ControlRun r;
    r.run(*program, 0);
    for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(r.out->tessLevelOuter[i], 3.0f) << "W " << W << " outer " << i;
    EXPECT_EQ(r.out->tessLevelInner[0], 7.0f) << "W " << W;
    EXPECT_EQ(r.out->tessLevelInner[1], 5.0f) << "W " << W;
    for (uint32_t k = 0; k < 20; ++k) {
      EXPECT_EQ(r.out->vertex[k][2 * 4 + 0], k % 2 ? 100 + k : k + 1) << "W " << W << " word[" << k << "]";
      EXPECT_EQ(r.out->position[k][1], 10.0f * (k % 4)) << "W " << W << " vertex " << k;
    }
  }
}

TEST(TessellationStage, EvaluationKernelReadsTessCoordControlPointsAndPatch) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("tess_quad_equal_tese", GraphicsStage::TessEval, W);
    ASSERT_TRUE(program && program->vertex);
    const auto& t = program->facts.tessellation;
    EXPECT_EQ(t.domain, 2u);   // quads
    EXPECT_EQ(t.spacing, 1u);  // equal
    EXPECT_EQ(t.order, 2u);    // ccw
    EXPECT_FALSE(t.pointMode);
    auto points = compileStage("tess_points_tese", GraphicsStage::TessEval, W);
    ASSERT_TRUE(points);
    EXPECT_TRUE(points->facts.tessellation.pointMode);
    auto tri = compileStage("tess_triangle_tese", GraphicsStage::TessEval, W);
    ASSERT_TRUE(tri);
    EXPECT_EQ(tri->facts.tessellation.domain, 1u);
    EXPECT_EQ(tri->facts.tessellation.spacing, 3u);
    EXPECT_EQ(tri->facts.tessellation.order, 1u);

    auto patch = std::make_unique<abi::TessPatch>();
    std::memset(patch.get(), 0, sizeof(abi::TessPatch));
    // Control points (location 0): 0 (0,0) 1 (8,0) 2 (8,4) 3 (0,4), as the shader mixes them.
    const float corners[4][2] = {{0, 0}, {8, 0}, {8, 4}, {0, 4}};
    for (uint32_t k = 0; k < 4; ++k) {
      const float v[4] = {corners[k][0], corners[k][1], 0.0f, 1.0f};
      std::memcpy(&patch->vertex[k][0], v, 16);
    }
    patch->patch[1 * 4] = 42;
    abi::BoundResources resources{};
    std::vector<uint32_t> outputs(abi::kMaxInterfaceLocations * 4 * W);
    std::vector<float> position(4 * W), pointSize(W), clip(abi::kMaxClipDistances * W), cull(abi::kMaxClipDistances * W),
        coords(3 * W);
    for (uint32_t i = 0; i < W; ++i) {
      coords[i] = float(i) / W;                // u
      coords[W + i] = float(W - 1 - i) / W;    // v
    }
    abi::VertexBatch b{};
    b.resources = &resources;
    b.count = W;
    b.position = position.data();
    b.pointSize = pointSize.data();
    b.clipDistance = clip.data();
    b.cullDistance = cull.data();
    b.outputs = outputs.data();
    b.tessCoord = coords.data();
    b.patch = patch.get();
    b.primitiveId = 3;
    b.patchVertices = 4;
    program->vertex(&b);
    for (uint32_t i = 0; i < W; ++i) {
      const float u = coords[i], v = coords[W + i];
      EXPECT_NEAR(position[i], 8.0f * u, 1e-5) << "W " << W << " lane " << i;
      EXPECT_NEAR(position[W + i], 4.0f * v, 1e-5);
      EXPECT_EQ(outputs[0 * W + i], 42u);  // words.x: the patch word
      EXPECT_EQ(outputs[1 * W + i], 3u);   // words.y: PrimitiveId
    }
  }
}

}  // namespace
}  // namespace tessera_test
