// Vertex and fragment kernels run directly (no Vulkan): the batch layouts of shader_abi.h,
// interface locations ("Location Assignment"), built-ins, quad derivatives ("Derivative
// Operations"), discard and helper invocations ("Helper Invocations": no side effects), and
// implicit-LOD sampling ("Level-of-Detail Operation" from the quad's derivatives), at every
// SIMD width. Expected values are computed here from the shaders' source.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "compute_harness.h"
#include "tessera/blend_unorm8.h"
#include "tessera/sampling.h"
#include "tessera/shader_abi.h"
#include "tessera/spirv_jit.h"
#include "tessera/texel_codec.h"

namespace tessera_test {
namespace {

using tessera::abi::kMaxInterfaceLocations;
using tessera::jit::GraphicsStage;

std::shared_ptr<const tessera::jit::GraphicsProgram> compileStage(const std::string& name, GraphicsStage stage,
                                                                  uint32_t width,
                                                                  std::vector<tessera::jit::DescriptorBinding> bindings = {},
                                                                  uint32_t blendPlan = 0) {
  std::vector<uint32_t> words = loadShader(name);
  tessera::jit::GraphicsCompileRequest req;
  req.stage = stage;
  req.spirv = words;
  req.interface.simdWidth = width;
  req.interface.bindings = std::move(bindings);
  req.interface.colorBlend[0] = blendPlan;
  tessera::jit::GraphicsCompileResult r = tessera::jit::compileGraphicsStage(req);
  EXPECT_EQ(r.status, tessera::jit::CompileStatus::Success) << name << ": " << r.message;
  return r.program;
}

float asFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}
uint32_t asWord(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

TEST(GraphicsStages, VertexKernelReadsAttributesAndWritesEveryOutputKind) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_transform_vert", GraphicsStage::Vertex, W);
    ASSERT_TRUE(program && program->vertex);
    const auto& f = program->facts;
    EXPECT_EQ(f.outputComponents[0], 0xF);
    EXPECT_EQ(f.outputComponents[1], 0x1);
    EXPECT_EQ(f.outputComponents[2], 0x1);
    EXPECT_EQ(f.outputComponents[3], 0x3);  // Extra.pair at location 3, components 0-1
    EXPECT_EQ(f.outputComponents[4], 0x1);  // Extra.single at the next location
    EXPECT_TRUE(f.writesPointSize);
    EXPECT_EQ(f.clipDistances, 2u);

    tessera::abi::BoundResources resources{};
    const float scale[4] = {2, 3, 4, 9};
    std::memcpy(resources.pushConstants, scale, 16);
    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    auto in = [&](uint32_t loc, uint32_t c, uint32_t lane) -> uint32_t& { return inputs[(loc * 4 + c) * W + lane]; };
    for (uint32_t i = 0; i < W; ++i) {
      for (uint32_t c = 0; c < 3; ++c) in(0, c, i) = asWord(float(i) * 0.5f + float(c));
      for (uint32_t c = 0; c < 4; ++c) in(1, c, i) = asWord(float(10 * c + i));
      in(2, 0, i) = i;
      in(2, 1, i) = uint32_t(-int32_t(i));
    }
    std::vector<float> position(4 * W), pointSize(W), clip(8 * W), cull(8 * W);
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
    tessera::abi::VertexBatch batch{};
    batch.resources = &resources;
    batch.count = W - 1;  // the last lane is inactive
    batch.instanceIndex = 2;
    for (uint32_t i = 0; i < W; ++i) batch.vertexIndex[i] = 10 + i;
    batch.inputs = inputs.data();
    batch.position = position.data();
    batch.pointSize = pointSize.data();
    batch.clipDistance = clip.data();
    batch.cullDistance = cull.data();
    batch.outputs = outputs.data();
    program->vertex(&batch);
    auto out = [&](uint32_t loc, uint32_t c, uint32_t lane) { return outputs[(loc * 4 + c) * W + lane]; };
    for (uint32_t i = 0; i + 1 < W; ++i) {
      const float pos[3] = {float(i) * 0.5f, float(i) * 0.5f + 1, float(i) * 0.5f + 2};
      EXPECT_EQ(position[0 * W + i], pos[0] * 2) << W << " lane " << i;
      EXPECT_EQ(position[1 * W + i], pos[1] * 3);
      EXPECT_EQ(position[2 * W + i], pos[2] * 4);
      EXPECT_EQ(position[3 * W + i], 1.0f + float(10 + i));
      EXPECT_EQ(pointSize[i], 3.0f);
      EXPECT_EQ(clip[0 * W + i], pos[0]);
      EXPECT_EQ(clip[1 * W + i], -pos[1]);
      // outColor = inColor.bgra
      EXPECT_EQ(asFloat(out(0, 0, i)), float(20 + i));
      EXPECT_EQ(asFloat(out(0, 1, i)), float(10 + i));
      EXPECT_EQ(asFloat(out(0, 2, i)), float(i));
      EXPECT_EQ(asFloat(out(0, 3, i)), float(30 + i));
      EXPECT_EQ(int32_t(out(1, 0, i)), int32_t(i) * 100 - int32_t(i) + 2000);
      EXPECT_EQ(asFloat(out(2, 0, i)), float(10 + i) * 0.5f);
      EXPECT_EQ(asFloat(out(3, 0, i)), pos[1]);
      EXPECT_EQ(asFloat(out(3, 1, i)), pos[0]);
      EXPECT_EQ(asFloat(out(4, 0, i)), 9.0f);
    }
  }
}

TEST(GraphicsStages, FragmentQuadsGiveDerivativesDiscardAndNoHelperSideEffects) {
  for (uint32_t W : kSimdWidths) {
    tessera::jit::DescriptorBinding ssbo{0, 0, kStorageBuffer, 1, 0, -1};
    auto program = compileStage("stage_quad_frag", GraphicsStage::Fragment, W, {ssbo});
    ASSERT_TRUE(program && program->fragment);
    const auto& f = program->facts;
    EXPECT_EQ(f.inputComponents[0], 0xF);  // inColor: every declared component
    EXPECT_EQ(f.inputInterpolation[1], tessera::jit::Interpolation::Flat);
    EXPECT_EQ(f.outputComponents[0], 0xF);
    EXPECT_EQ(f.outputComponents[1], 0x3);
    EXPECT_TRUE(f.writesFragDepth);
    EXPECT_TRUE(f.canDiscard);

    std::vector<uint32_t> written(64, 0);
    tessera::abi::BufferDescriptor desc{reinterpret_cast<uint8_t*>(written.data()), written.size() * 4, {}};
    tessera::abi::BoundResources resources{};
    resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);

    // Quad q covers pixels (2q, 0)..(2q+1, 1); pixel (1, 1) (lane 3) is a helper.
    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0);
    tessera::abi::FragmentBatch batch{};
    batch.resources = &resources;
    batch.coverage = ((W == 32 ? 0u : (1u << W)) - 1) & ~(1u << 3);
    batch.frontFacing = 1;
    auto pixelOf = [](uint32_t lane, uint32_t* x, uint32_t* y) {
      *x = 2 * (lane / 4) + (lane & 1);
      *y = (lane >> 1) & 1;
    };
    for (uint32_t l = 0; l < W; ++l) {
      uint32_t x, y;
      pixelOf(l, &x, &y);
      batch.fragCoord[0][l] = float(x) + 0.5f;
      batch.fragCoord[1][l] = float(y) + 0.5f;
      batch.fragCoord[2][l] = 0.25f + 0.01f * float(l);
      batch.fragCoord[3][l] = 1.0f;
      const float fx = float(x), fy = float(y);
      inputs[(0 * 4 + 0) * W + l] = asWord(2 * fx + 3 * fy);
      inputs[(0 * 4 + 1) * W + l] = asWord(5 * fy - fx);
      inputs[(0 * 4 + 2) * W + l] = asWord(fx * fx + 7 * fy * fx);
      inputs[(1 * 4 + 0) * W + l] = 7;  // inId
    }
    batch.inputs = inputs.data();
    batch.outputs = outputs.data();
    program->fragment(&batch);

    uint32_t expectAlive = batch.coverage & ~0x5u;  // pixels (0,0) and (0,1) discard
    EXPECT_EQ(batch.alive, expectAlive) << "W=" << W;
    for (uint32_t l = 0; l < W; ++l) {
      uint32_t x, y;
      pixelOf(l, &x, &y);
      // "Helper Invocations": the helper's store is not performed; covered lanes all store
      // (before their discard).
      EXPECT_EQ(written[y * 8 + x], l == 3 ? 0u : 1u) << "W=" << W << " lane " << l;
      if (!(expectAlive & (1u << l))) continue;
      auto out = [&](uint32_t loc, uint32_t c) { return outputs[(loc * 4 + c) * W + l]; };
      const uint32_t x0 = x & ~1u;
      EXPECT_EQ(asFloat(out(0, 0)), 2.0f) << "dFdx, W=" << W << " lane " << l;
      EXPECT_EQ(asFloat(out(0, 1)), 5.0f) << "dFdy";
      EXPECT_EQ(asFloat(out(0, 2)), float(2 * x0 + 1 + 7 * y)) << "dFdxFine uses the lane's own row";
      EXPECT_EQ(asFloat(out(0, 3)), 1.0f) << "gl_FrontFacing";
      EXPECT_EQ(out(1, 0), 0u) << "gl_HelperInvocation";
      EXPECT_EQ(out(1, 1), 7u);
      EXPECT_EQ(batch.fragDepth[l], (0.25f + 0.01f * float(l)) * 0.5f);
    }
  }
}

TEST(GraphicsStages, CentroidInputsAndSampleMasks) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_samples_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(program && program->fragment);
    const auto& f = program->facts;
    EXPECT_EQ(f.centroidInputs, 0x1u) << "location 0 is Centroid, location 1 is not";
    EXPECT_TRUE(f.writesSampleMask);

    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0);
    tessera::abi::FragmentBatch batch{};
    batch.coverage = ((W == 32 ? 0u : (1u << W)) - 1) & ~(1u << 2);  // lane 2 is a helper
    for (uint32_t l = 0; l < W; ++l) {
      batch.sampleMaskIn[l] = (l * 7 + 3) & 0xF;
      batch.sampleMask[l] = ~0u;
    }
    batch.inputs = inputs.data();
    batch.outputs = outputs.data();
    program->fragment(&batch);
    for (uint32_t l = 0; l < W; ++l) {
      if (!(batch.coverage >> l & 1)) continue;
      // "SampleMask": the input holds the covered samples; the shader keeps samples 0 and 2.
      EXPECT_EQ(batch.sampleMask[l], ((l * 7 + 3) & 0xF) & 0x5u) << "W=" << W << " lane " << l;
    }
  }
}

// "Sample Shading": the built-ins that make a shader run per sample, and the interpolation
// functions. The inputs are set as the draw loop interpolates them: planes in window coordinates
// (NoPerspective), or a plane divided by the plane 1/w (perspective), each evaluated at
// FragCoord.xy, or for the Centroid input at the lane's centroid; the functions must give the
// same functions' values at the locations they name.
TEST(GraphicsStages, InterpolateAtOffsetOfANonUniformlyIndexedInput) {
  // planes[k] = (k + 1) x + 10 k y at the pixel centres; each pixel reads element x % 4, which
  // differs between the two pixels of a quad row: the result must be plane[index] at the
  // offset location, not a difference between two elements.
  auto plane = [](int k, float x, float y) { return float(k + 1) * x + 10.0f * float(k) * y; };
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_interpolant_index_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(program && program->fragment);
    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0);
    tessera::abi::FragmentBatch batch{};
    batch.coverage = (W == 32 ? 0u : (1u << W)) - 1;
    batch.sampleCount = 1;
    std::vector<float> px(W), py(W);
    for (uint32_t l = 0; l < W; ++l) {
      px[l] = float(2 * (l / 4) + (l & 1));
      py[l] = float((l >> 1) & 1);
      batch.fragCoord[0][l] = px[l] + 0.5f;
      batch.fragCoord[1][l] = py[l] + 0.5f;
      batch.fragCoord[3][l] = 1.0f;
      for (int k = 0; k < 4; ++k) inputs[(uint32_t(k) * 4 + 0) * W + l] = asWord(plane(k, px[l] + 0.5f, py[l] + 0.5f));
    }
    batch.inputs = inputs.data();
    batch.outputs = outputs.data();
    program->fragment(&batch);
    for (uint32_t l = 0; l < W; ++l) {
      const int index = int(px[l]) % 4;
      const float expected = plane(index, px[l] + 0.75f, py[l] + 0.125f);
      EXPECT_EQ(asFloat(outputs[(0 * 4 + 1) * W + l]), float(index));
      EXPECT_NEAR(asFloat(outputs[(0 * 4 + 0) * W + l]), expected, 1e-4f) << "W=" << W << " lane " << l;
    }
  }
}

TEST(GraphicsStages, SampleShadingBuiltInsAndInterpolationFunctions) {
  struct Location {
    float x, y;
  };
  const Location kStandard4[4] = {{0.375f, 0.125f}, {0.875f, 0.375f}, {0.125f, 0.625f}, {0.625f, 0.875f}};
  const Location off = {0.25f, -0.375f};
  auto linearX = [](Location p) { return 2 * p.x + 3 * p.y; };
  auto linearY = [](Location p) { return 5 * p.y - p.x + 1; };
  auto centroidPlane = [](Location p) { return 3 * p.x - 2 * p.y + 0.5f; };
  auto smoothU = [](Location p) { return 4 * p.x - p.y + 1; };  // inSmooth / w
  for (bool perSample : {false, true}) {
    // Per pixel: one sample, FragCoord at the centre, w = 1 (the smooth input is a plane too).
    // Per sample: 4 samples, this batch shades sample 2 (FragCoord there), 1/w a plane.
    const uint32_t sampleCount = perSample ? 4 : 1, sampleId = perSample ? 2 : 0;
    const Location samplePos = perSample ? kStandard4[sampleId] : Location{0.5f, 0.5f};
    auto invW = [&](Location p) { return perSample ? 1.0f + 0.125f * p.x + 0.0625f * p.y : 1.0f; };
    auto smooth = [&](Location p) { return smoothU(p) / invW(p); };
    auto sampleLoc = [&](uint32_t k) { return sampleCount == 4 && k < 4 ? kStandard4[k] : Location{0.5f, 0.5f}; };
    for (uint32_t W : kSimdWidths) {
      auto program = compileStage("stage_sample_shading_frag", GraphicsStage::Fragment, W);
      ASSERT_TRUE(program && program->fragment);
      EXPECT_TRUE(program->facts.perSampleShading);
      EXPECT_EQ(program->facts.centroidInputs, 1u << 2);
      EXPECT_EQ(program->facts.inputInterpolation[0], tessera::jit::Interpolation::NoPerspective);
      EXPECT_EQ(program->facts.inputInterpolation[1], tessera::jit::Interpolation::Smooth);

      std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
      std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0);
      auto in = [&](uint32_t loc, uint32_t c, uint32_t lane) -> uint32_t& { return inputs[(loc * 4 + c) * W + lane]; };
      tessera::abi::FragmentBatch batch{};
      batch.coverage = ((W == 32 ? 0u : (1u << W)) - 1) & ~(1u << 3);  // lane 3 is a helper
      batch.sampleCount = sampleCount;
      batch.sampleId = sampleId;
      batch.samplePosition[0] = samplePos.x;
      batch.samplePosition[1] = samplePos.y;
      std::vector<Location> pixel(W), centroid(W);
      for (uint32_t l = 0; l < W; ++l) {
        pixel[l] = {float(5 + 2 * (l / 4) + (l & 1)), float(3 + ((l >> 1) & 1))};
        // Partly covered pixels have their centroid elsewhere (lanes 1 and 2 of each quad).
        centroid[l] = (l & 3) == 1 ? Location{0.875f, 0.375f} : (l & 3) == 2 ? Location{0.125f, 0.625f} : Location{0.5f, 0.5f};
        batch.centroid[0][l] = centroid[l].x;
        batch.centroid[1][l] = centroid[l].y;
        const Location at = {pixel[l].x + samplePos.x, pixel[l].y + samplePos.y};
        const Location atCentroid = {pixel[l].x + centroid[l].x, pixel[l].y + centroid[l].y};
        batch.fragCoord[0][l] = at.x;
        batch.fragCoord[1][l] = at.y;
        batch.fragCoord[2][l] = 0.5f;
        batch.fragCoord[3][l] = invW(at);
        in(0, 0, l) = asWord(linearX(at));
        in(0, 1, l) = asWord(linearY(at));
        in(1, 0, l) = asWord(smooth(at));
        in(2, 0, l) = asWord(centroidPlane(atCentroid));
        in(3, 0, l) = asWord(7.0f + float(l));  // flat: anything, kept as is
      }
      batch.inputs = inputs.data();
      batch.outputs = outputs.data();
      program->fragment(&batch);

      for (uint32_t l = 0; l < W; ++l) {
        auto out = [&](uint32_t loc, uint32_t c) { return asFloat(outputs[(loc * 4 + c) * W + l]); };
        auto near = [](float expected) { return 1e-5f * std::max(1.0f, std::fabs(expected)); };
        auto at = [&](Location d) { return Location{pixel[l].x + d.x, pixel[l].y + d.y}; };
        const Location atOffset = at({0.5f + off.x, 0.5f + off.y});
        const std::string where = std::string(perSample ? "per sample" : "per pixel") + ", W=" + std::to_string(W) +
                                  " lane " + std::to_string(l);
        EXPECT_EQ(out(0, 0), float(sampleId)) << "gl_SampleID, " << where;
        EXPECT_EQ(out(0, 1), samplePos.x) << "gl_SamplePosition.x, " << where;
        EXPECT_EQ(out(0, 2), samplePos.y) << "gl_SamplePosition.y, " << where;
        EXPECT_EQ(out(0, 3), 7.0f + float(l)) << "flat input at an offset, " << where;

        EXPECT_NEAR(out(1, 0), linearX(atOffset), near(linearX(atOffset))) << "noperspective at offset, " << where;
        EXPECT_NEAR(out(1, 1), linearY(atOffset), near(linearY(atOffset))) << where;
        const float atSample1 = linearX(at(sampleLoc(1)));
        EXPECT_NEAR(out(1, 2), atSample1, near(atSample1)) << "noperspective at sample 1, " << where;
        const float atCentroidY = linearY(at(centroid[l]));
        EXPECT_NEAR(out(1, 3), atCentroidY, near(atCentroidY)) << "noperspective at the centroid, " << where;

        const float sOffset = smooth(atOffset), sSample2 = smooth(at(sampleLoc(2))), sCentroid = smooth(at(centroid[l])),
                    sCentre = smooth(at({0.5f, 0.5f}));
        EXPECT_NEAR(out(2, 0), sOffset, near(sOffset)) << "smooth at offset, " << where;
        EXPECT_NEAR(out(2, 1), sSample2, near(sSample2)) << "smooth at sample 2, " << where;
        EXPECT_NEAR(out(2, 2), sCentroid, near(sCentroid)) << "smooth at the centroid, " << where;
        EXPECT_NEAR(out(2, 3), sCentre, near(sCentre)) << "sample 7 does not exist: the centre, " << where;

        // Per-lane sample number and offset, through access chains to one component.
        const float fragX = batch.fragCoord[0][l];
        const uint32_t k = uint32_t(int32_t(fragX)) & 3;
        const float laneOffsetX = (fragX * 0.25f - std::floor(fragX * 0.25f)) - 0.5f;
        const float vSample = linearY(at(sampleLoc(k)));
        const float vOffset = linearX(at({0.5f + laneOffsetX, 0.5f + 0.125f}));
        EXPECT_NEAR(out(3, 0), vSample, near(vSample)) << "at sample " << k << ", " << where;
        EXPECT_NEAR(out(3, 1), vOffset, near(vOffset)) << "at a per-lane offset, " << where;
        // The Centroid input's batch values lie at the centroids, not one pixel apart.
        const float cOffset = centroidPlane(atOffset), cSample3 = centroidPlane(at(sampleLoc(3)));
        EXPECT_NEAR(out(3, 2), cOffset, near(cOffset)) << "centroid input at offset, " << where;
        EXPECT_NEAR(out(3, 3), cSample3, near(cSample3)) << "centroid input at sample 3, " << where;
      }
    }
  }
}

// "Sample Shading" is enabled by the shader through SampleId, SamplePosition or a Sample
// decoration (here on an input block member), and only then.
TEST(GraphicsStages, PerSampleShadingFact) {
  auto perSample = compileStage("stage_sample_qualifier_frag", GraphicsStage::Fragment, 8);
  ASSERT_TRUE(perSample);
  EXPECT_TRUE(perSample->facts.perSampleShading);
  tessera::jit::DescriptorBinding ssbo{0, 0, kStorageBuffer, 1, 0, -1};
  auto quad = compileStage("stage_quad_frag", GraphicsStage::Fragment, 8, {ssbo});
  ASSERT_TRUE(quad);
  EXPECT_FALSE(quad->facts.perSampleShading);
  auto samples = compileStage("stage_samples_frag", GraphicsStage::Fragment, 8);  // SampleMask, Centroid
  ASSERT_TRUE(samples);
  EXPECT_FALSE(samples->facts.perSampleShading);
  // Static use is enough ("statically uses an input variable decorated with a BuiltIn of
  // SampleId or SamplePosition"): a statement that only names the built-in, which the optimizer
  // removes, still makes the shader run per sample.
  for (const char* name : {"stage_static_sample_id_frag", "stage_static_sample_position_frag"}) {
    auto named = compileStage(name, GraphicsStage::Fragment, 8);
    ASSERT_TRUE(named) << name;
    EXPECT_TRUE(named->facts.perSampleShading) << name;
  }
}

TEST(GraphicsStages, ImplicitLodComesFromTheQuadDerivatives) {
  // 8x8 R32_SFLOAT with 4 levels; every texel of level l holds l, so the result is the level
  // "Image Level(s) Selection" picked: lambda = log2(rho), rho = |d(uv)/dx| * 8 texels.
  const uint32_t kLevels = 4;
  std::vector<std::vector<float>> levels;
  tessera::abi::ImageViewState view{};
  view.format = VK_FORMAT_R32_SFLOAT;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
  view.levelCount = kLevels;
  view.layerCount = 1;
  view.samples = 1;
  view.texelSize = 4;
  const uint32_t swizzle[4] = {VK_COMPONENT_SWIZZLE_R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B, VK_COMPONENT_SWIZZLE_A};
  std::memcpy(view.swizzle, swizzle, sizeof(swizzle));
  for (uint32_t l = 0; l < kLevels; ++l) levels.emplace_back((8u >> l) * (8u >> l), float(l));
  for (uint32_t l = 0; l < kLevels; ++l) {
    const uint32_t n = 8u >> l;
    view.levels[l] = {reinterpret_cast<uint8_t*>(levels[l].data()), n, n, 1, 0, n * 4ull, n * n * 4ull, n * n * 4ull};
  }
  VkSamplerCreateInfo sci{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  sci.magFilter = sci.minFilter = VK_FILTER_NEAREST;
  sci.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
  sci.addressModeU = sci.addressModeV = sci.addressModeW = VK_SAMPLER_ADDRESS_MODE_REPEAT;
  sci.maxLod = 100.0f;
  tessera::abi::SamplerState sampler =
      tessera::makeSamplerState(sci, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
  tessera::abi::ImageDescriptor desc{&view, &sampler, {}};
  tessera::abi::BoundResources resources{};
  resources.sets[0] = reinterpret_cast<const uint8_t*>(&desc);
  const uint32_t kCombinedImageSampler = 1;
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_texture_frag", GraphicsStage::Fragment, W, {{0, 0, kCombinedImageSampler, 1, 0, -1}});
    ASSERT_TRUE(program && program->fragment);
    for (uint32_t level = 0; level < kLevels; ++level) {
      const float step = float(1u << level) / 8.0f;  // uv per pixel
      std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0), outputs(kMaxInterfaceLocations * 4 * W, 0);
      tessera::abi::FragmentBatch batch{};
      batch.resources = &resources;
      batch.coverage = W == 32 ? ~0u : (1u << W) - 1;
      for (uint32_t l = 0; l < W; ++l) {
        const float x = float(2 * (l / 4) + (l & 1)), y = float((l >> 1) & 1);
        inputs[0 * W + l] = asWord((x + 0.5f) * step);
        inputs[1 * W + l] = asWord((y + 0.5f) * step);
      }
      batch.inputs = inputs.data();
      batch.outputs = outputs.data();
      program->fragment(&batch);
      for (uint32_t l = 0; l < W; ++l) {
        EXPECT_EQ(asFloat(outputs[0 * W + l]), float(level)) << "W=" << W << " lane " << l;
        EXPECT_EQ(asFloat(outputs[3 * W + l]), 1.0f);
      }
    }
  }
}


// The kernel's own colour writes (shader_abi.h FragmentBatch::direct) against the texel codec's
// encode ("Conversion From Floating-Point to Normalized Fixed-Point": NaN, negatives, values
// above 1, halfway cases), with the write mask's kept bits ("Color Write Mask"), discarded and
// uncovered lanes left alone, R8G8B8A8 and B8G8R8A8 bit orders, at every SIMD width; and with no
// attachment named, the same locations come back as words.
TEST(GraphicsStages, FragmentKernelWritesUnorm8AttachmentsItself) {
  std::mt19937 rng(1234);
  auto randomComponent = [&]() -> float {
    switch (rng() % 8) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return -float(rng() % 1000) / 100.0f;
      case 2: return 1.0f + float(rng() % 1000) / 100.0f;
      case 3: return (float(rng() % 255) + 0.5f) / 255.0f;  // halfway between two codes
      case 4: return std::nextafter((float(rng() % 255) + 0.5f) / 255.0f, 2.0f);
      case 5: {  // within 64 ulps of a halfway point, where a rounding shortcut would go wrong
        const float halfway = (float(rng() % 255) + 0.5f) / 255.0f;
        return asFloat(asWord(halfway) + uint32_t(int32_t(rng() % 129) - 64));
      }
      default: return float(rng() % 100001) / 100000.0f;
    }
  };
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_direct_color_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(program && program->fragment);
    EXPECT_EQ(program->facts.directColorLocations, 0x3u) << "whole float vec4s only, W=" << W;
    EXPECT_EQ(program->facts.fragCoordReads, 0u) << "the shader never reads FragCoord";
    // The block a batch covers: 4x4 pixels at W = 16, 4x2 at W = 8, a 2x2 quad at W = 4
    // (lane l at (2 (l/4 % 2) + l % 2, 2 (l/8) + l/2 % 2)); placed at (3, 2) in a 9x7 image.
    const int32_t imageW = 9, imageH = 7, originX = 3, originY = 2;
    for (int round = 0; round < 400; ++round) {
      const bool bgra = round & 1;
      const VkFormat format = bgra ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_R8G8B8A8_UNORM;
      const uint32_t shift[4] = {bgra ? 16u : 0u, 8u, bgra ? 0u : 16u, 24u};
      const uint32_t writeMask = round < 4 ? 0xFu : 1u + rng() % 15;
      uint32_t keep = 0;
      for (uint32_t c = 0; c < 4; ++c)
        if (!(writeMask >> c & 1)) keep |= 0xFFu << shift[c];
      std::vector<uint32_t> image(imageW * imageH), before;
      for (uint32_t& t : image) t = uint32_t(rng());
      before = image;
      std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
      std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
      tessera::abi::FragmentBatch batch{};
      batch.coverage = uint32_t(rng()) & uint32_t((uint64_t(1) << W) - 1);
      if (round == 0) batch.coverage = uint32_t((uint64_t(1) << W) - 1);
      for (uint32_t l = 0; l < W; ++l) {
        for (uint32_t c = 0; c < 4; ++c) inputs[(0 * 4 + c) * W + l] = asWord(randomComponent());
        inputs[(1 * 4 + 0) * W + l] = asWord(rng() % 4 == 0 ? 1.0f : 0.0f);  // discard
      }
      batch.inputs = inputs.data();
      batch.outputs = outputs.data();
      tessera::abi::FragmentBatch::DirectColor& d = batch.direct[0];
      d.row = reinterpret_cast<uint8_t*>(&image[originY * imageW + originX]);
      d.pitch = imageW * 4;
      std::copy(shift, shift + 4, d.shift);
      d.keep = keep;
      program->fragment(&batch);

      const tessera::FormatInfo* info = tessera::formatInfo(format);
      for (uint32_t l = 0; l < W; ++l) {
        const bool discarded = asFloat(inputs[(1 * 4 + 0) * W + l]) > 0.5f;
        EXPECT_EQ(batch.alive >> l & 1, (batch.coverage >> l & 1) && !discarded ? 1u : 0u) << "W=" << W << " lane " << l;
      }
      for (int32_t y = 0; y < imageH; ++y)
        for (int32_t x = 0; x < imageW; ++x) {
          const int32_t bx = x - originX, by = y - originY;
          int32_t lane = -1;
          if (bx >= 0 && by >= 0 && bx < (W == 4 ? 2 : 4) && by < (W == 16 ? 4 : 2))
            lane = ((by >> 1) * 2 + (bx >> 1)) * 4 + (by & 1) * 2 + (bx & 1);
          uint32_t want = before[y * imageW + x];
          if (lane >= 0 && (batch.alive >> lane & 1)) {
            tessera::TexelValue v{};
            for (uint32_t c = 0; c < 4; ++c) v.u[c] = inputs[(0 * 4 + c) * W + uint32_t(lane)];
            uint32_t encoded = 0;
            tessera::encodeTexel(*info, v, &encoded);
            want = (encoded & ~keep) | (want & keep);
          }
          EXPECT_EQ(image[y * imageW + x], want) << "W=" << W << " round " << round << " pixel " << x << "," << y;
        }
      // Location 0 went to the attachment, not to the words; location 1 (no attachment named),
      // 2 and 3 are words as always.
      for (uint32_t l = 0; l < W; ++l) {
        if (!(batch.alive >> l & 1)) continue;
        EXPECT_EQ(outputs[(0 * 4 + 0) * W + l], 0xdeadbeefu);
        for (uint32_t c = 0; c < 4; ++c)
          EXPECT_EQ(outputs[(1 * 4 + c) * W + l], inputs[(0 * 4 + (3 - c)) * W + l]) << "outSwizzled, W=" << W;
        for (uint32_t c = 0; c < 2; ++c) EXPECT_EQ(outputs[(2 * 4 + c) * W + l], inputs[(0 * 4 + c) * W + l]) << "outPair";
        EXPECT_EQ(outputs[(3 * 4 + 0) * W + l], 7u);
      }
    }
  }
}

// The kernel's own blending into an R8G8B8A8_UNORM attachment ("Blending": "Blend Factors",
// "Blend Operations"; in 8-bit fixed point, the rule of tessera/blend_unorm8.h, which
// tests/unit/raster/blend_unorm8_test.cpp checks against the spec's formulas) against that rule
// bit for bit: every operation, factor pairs that can exceed 1 (ONE, ONE) and those that cannot
// (X with ONE_MINUS_X, ZERO with anything: the kernel drops the sum's clamp for those), random
// pairs, different colour and alpha operations, over every destination byte, with NaN, negative
// and large sources, at every SIMD width (one, two and four 8-lane chunks here), in R8G8B8A8 and
// B8G8R8A8 bit orders, with uncovered lanes left alone.
TEST(GraphicsStages, FragmentKernelBlendsUnorm8AsTheRuleSays) {
  std::mt19937 rng(20261130);
  struct Pair {
    uint32_t src, dst;
  };
  std::vector<Pair> pairs = {{1, 1}, {6, 7}, {7, 6}, {2, 3}, {5, 4}, {8, 9}, {10, 11}, {13, 12}, {0, 1}, {1, 0}, {14, 1}, {4, 0}};
  for (int i = 0; i < 6; ++i) pairs.push_back({uint32_t(rng() % 15), uint32_t(rng() % 15)});
  const float constants[4] = {0.25f, 0.8f, 1.0f, 0.6f};
  auto randomSource = [&]() -> float {
    switch (rng() % 7) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return -float(rng() % 100) / 50.0f;
      case 2: return 1.0f + float(rng() % 100) / 50.0f;
      case 3: {  // next to a halfway point between two bytes, where the conversion's rounding decides
        const float half = (float(rng() % 255) + 0.5f) / 255.0f;
        return rng() % 2 ? std::nextafter(half, 0.0f) : rng() % 2 ? half : std::nextafter(half, 1.0f);
      }
      default: return float(rng() % 100001) / 100000.0f;
    }
  };
  int compared = 0, aboveOne = 0, untouched = 0;
  for (uint32_t W : kSimdWidths) {
    for (size_t p = 0; p < pairs.size(); ++p) {
      const uint32_t op = uint32_t(p % 5), alphaOp = uint32_t((p + 2) % 5);
      const uint32_t plan = tessera::abi::packBlend(pairs[p].src, pairs[p].dst, op, pairs[(p + 1) % pairs.size()].src,
                                                    pairs[(p + 1) % pairs.size()].dst, alphaOp);
      auto program = compileStage("stage_direct_color_frag", GraphicsStage::Fragment, W, {}, plan);
      ASSERT_TRUE(program && program->fragment);
      // Every destination byte in every component, W pixels at a time (a 4-pixel-wide image).
      for (uint32_t first = 0; first < 256; first += W) {
        const bool bgra = first / W % 2 == 1;
        const uint32_t shift[4] = {bgra ? 16u : 0u, 8u, bgra ? 0u : 16u, 24u};
        const int32_t imageW = 4, rowsOfW = std::max(2, int32_t(W / 4));  // 2x2, 4x2 or 4x4 pixels
        std::vector<uint32_t> image(size_t(imageW) * size_t(rowsOfW));
        std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0), outputs(kMaxInterfaceLocations * 4 * W, 0);
        tessera::abi::FragmentBatch batch{};
        // Every lane covered, and in every third batch some lanes not.
        batch.coverage = uint32_t((uint64_t(1) << W) - 1);
        if (first / W % 3 == 2) batch.coverage &= uint32_t(rng()) | 1u;
        // Lane l's pixel (shader_abi.h: quads of 2x2 in order).
        auto pixelOf = [&](uint32_t l) {
          const uint32_t x = 2 * (l / 4 % 2) + l % 2, y = 2 * (l / 8) + l / 2 % 2;
          return size_t(y) * size_t(imageW) + x;
        };
        for (uint32_t l = 0; l < W; ++l) {
          const uint32_t b = first + l;
          image[pixelOf(l)] = b | (255u - b) << 8 | (b * 37u & 255u) << 16 | ((b * 101u + 7u) & 255u) << 24;
          for (uint32_t c = 0; c < 4; ++c) inputs[c * W + l] = asWord(randomSource());
        }
        const std::vector<uint32_t> before = image;
        batch.inputs = inputs.data();
        batch.outputs = outputs.data();
        tessera::abi::FragmentBatch::DirectColor& d = batch.direct[0];
        d.row = reinterpret_cast<uint8_t*>(image.data());
        d.pitch = imageW * 4;
        std::copy(shift, shift + 4, d.shift);
        std::copy(constants, constants + 4, d.constants);
        program->fragment(&batch);
        for (uint32_t l = 0; l < W; ++l) {
          if (!(batch.coverage >> l & 1)) {
            EXPECT_EQ(image[pixelOf(l)], before[pixelOf(l)]) << "uncovered, W=" << W << " lane " << l;
            ++untouched;
            continue;
          }
          // The rule, on the components in R, G, B, A order.
          const tessera::abi::UnpackedBlend u = tessera::abi::unpackBlend(plan);
          struct {
            VkBlendFactor srcColor, dstColor;
            VkBlendOp colorOp;
            VkBlendFactor srcAlpha, dstAlpha;
            VkBlendOp alphaOp;
          } blend;
          blend.srcColor = VkBlendFactor(u.srcColor), blend.dstColor = VkBlendFactor(u.dstColor);
          blend.colorOp = VkBlendOp(u.colorOp);
          blend.srcAlpha = VkBlendFactor(u.srcAlpha), blend.dstAlpha = VkBlendFactor(u.dstAlpha);
          blend.alphaOp = VkBlendOp(u.alphaOp);
          uint32_t s8[4], d8[4], k8[4], out[4];
          for (uint32_t c = 0; c < 4; ++c) {
            s8[c] = tessera::blendInputUnorm8(asFloat(inputs[c * W + l]));
            d8[c] = before[pixelOf(l)] >> shift[c] & 0xFFu;
            k8[c] = tessera::blendInputUnorm8(constants[c]);
          }
          tessera::blendUnorm8Texel(blend, s8, s8, d8, k8, out);
          uint32_t want = 0;
          for (uint32_t c = 0; c < 4; ++c) {
            const bool alpha = c == 3;
            const uint32_t sf = tessera::blendFactorUnorm8(alpha ? blend.srcAlpha : blend.srcColor, s8, s8, d8, k8, int(c), alpha);
            const uint32_t df = tessera::blendFactorUnorm8(alpha ? blend.dstAlpha : blend.dstColor, s8, s8, d8, k8, int(c), alpha);
            aboveOne += (alpha ? u.alphaOp : u.colorOp) == 0 && s8[c] * sf + d8[c] * df > 255 * 255;
            want |= out[c] << shift[c];
          }
          EXPECT_EQ(image[pixelOf(l)], want) << "W=" << W << " plan " << std::hex << plan << std::dec << " lane " << l;
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared + untouched, int(std::size(kSimdWidths) * pairs.size() * 256));
  EXPECT_GT(untouched, 500);
  EXPECT_GT(aboveOne, 1000);  // the sum's clamp mattered for many components
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// "Multiview" / "Built-In Variables" (ViewIndex): both stages read the view the draw runs for
// from the draw's resources (abi::BoundResources::viewIndex, set per view by the driver).
// tests/shaders/multiview.vert places the square of view v at y = 4 + 4v and passes
// (ViewIndex, InstanceIndex) on; multiview.frag writes its own ViewIndex as (v + 1) / 5 in red.
TEST(GraphicsStages, ViewIndexComesFromTheDrawsResources) {
  for (uint32_t W : kSimdWidths) {
    auto vertex = compileStage("multiview_vert", GraphicsStage::Vertex, W);
    auto fragment = compileStage("multiview_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(vertex && vertex->vertex && fragment && fragment->fragment);
    for (uint32_t view : {0u, 3u, 5u}) {
      tessera::abi::BoundResources resources{};
      resources.viewIndex = view;
      std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
      std::vector<float> position(4 * W), pointSize(W), clip(8 * W), cull(8 * W);
      std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
      tessera::abi::VertexBatch vb{};
      vb.resources = &resources;
      vb.count = W;
      vb.instanceIndex = 1;
      for (uint32_t i = 0; i < W; ++i) vb.vertexIndex[i] = i;
      vb.inputs = inputs.data();
      vb.position = position.data();
      vb.pointSize = pointSize.data();
      vb.clipDistance = clip.data();
      vb.cullDistance = cull.data();
      vb.outputs = outputs.data();
      vertex->vertex(&vb);
      for (uint32_t i = 0; i < W; ++i) {
        EXPECT_EQ(outputs[0 * W + i], view) << "W=" << W << " lane " << i;
        EXPECT_EQ(outputs[1 * W + i], 1u);
        const float cornerY = (i % 6 == 2 || i % 6 == 4 || i % 6 == 5) ? 1.0f : 0.0f;  // kCorners[i % 6].y
        EXPECT_EQ(position[1 * W + i], (4.0f + 4.0f * float(view) + 16.0f * cornerY) / 16.0f - 1.0f);
      }
      std::vector<uint32_t> fragmentOutputs(kMaxInterfaceLocations * 4 * W, 0);
      tessera::abi::FragmentBatch fb{};
      fb.resources = &resources;
      fb.coverage = W == 32 ? ~0u : (1u << W) - 1;
      fb.inputs = inputs.data();  // (0, 0): view and instance as the vertex stage passed them
      fb.outputs = fragmentOutputs.data();
      fragment->fragment(&fb);
      for (uint32_t l = 0; l < W; ++l)
        EXPECT_EQ(asFloat(fragmentOutputs[l]), float(view + 1) * 0.2f) << "W=" << W << " lane " << l;
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// "Fragment Output Interface" / "Dual-Source Blending": an output decorated Location 0 Index 1
// is the second input of attachment 0's blender, not a second value for location 0: the kernel
// writes it to output location kSecondColorLocation (shader_abi.h), next to Index 0 at
// location 0 (tests/shaders/dual_source_blend.frag).
TEST(GraphicsStages, IndexOneOutputGoesToTheSecondColourLocation) {
  using tessera::abi::kSecondColorLocation;
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("dual_source_blend_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(program && program->fragment);
    EXPECT_EQ(program->facts.outputComponents[0], 0xF);
    EXPECT_EQ(program->facts.outputComponents[kSecondColorLocation], 0xF);
    for (uint32_t l = 1; l < kMaxInterfaceLocations; ++l) {
      if (l == kSecondColorLocation) continue;
      EXPECT_EQ(program->facts.outputComponents[l], 0) << "location " << l;
    }
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
    tessera::abi::FragmentBatch batch{};
    batch.coverage = uint32_t((uint64_t(1) << W) - 1);
    batch.outputs = outputs.data();
    for (uint32_t l = 0; l < W; ++l) {
      batch.fragCoord[0][l] = float(3 * l) + 0.5f;
      batch.fragCoord[1][l] = float(60 - 2 * l) + 0.5f;
      batch.fragCoord[3][l] = 1.0f;
    }
    program->fragment(&batch);
    for (uint32_t l = 0; l < W; ++l) {
      const float px = float(3 * l) / 63.0f, py = float(60 - 2 * l) / 63.0f;
      const float first[4] = {px, py, 0.75f, 1.0f - px}, second[4] = {1.0f - py, 0.25f, px * py, py};
      for (uint32_t c = 0; c < 4; ++c) {
        EXPECT_NEAR(asFloat(outputs[c * W + l]), first[c], 1e-6) << "W=" << W << " lane " << l << " Index 0 ." << c;
        EXPECT_NEAR(asFloat(outputs[(kSecondColorLocation * 4 + c) * W + l]), second[c], 1e-6)
            << "W=" << W << " lane " << l << " Index 1 ." << c;
      }
    }
  }
}

// 64-bit interface variables ("Location Assignment": a 64-bit scalar takes two components, a
// 64-bit three- or four-component vector two locations, a matrix that per column; "Interpolation
// Decorations": 64-bit fragment inputs are flat). The vertex kernel's output words carry each
// double's low word first; the fragment kernel reads the same words back into the same doubles.
TEST(GraphicsStages, SixtyFourBitOutputsAndInputsTravelAsTwoWordsEach) {
  std::mt19937_64 random(64);
  // Random finite doubles well inside the range (no NaN payloads or overflow to worry about).
  auto randomDouble = [&] {
    const uint64_t bits = (random() & 0x800FFFFFFFFFFFFFull) | (uint64_t(1023 - 30 + random() % 60) << 52);
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  };
  auto bitsOf = [](double d) {
    uint64_t b;
    std::memcpy(&b, &d, 8);
    return b;
  };
  for (uint32_t W : kSimdWidths) {
    auto vertex = compileStage("stage_double_varyings_vert", GraphicsStage::Vertex, W);
    auto fragment = compileStage("stage_double_varyings_frag", GraphicsStage::Fragment, W);
    ASSERT_TRUE(vertex && vertex->vertex && fragment && fragment->fragment);
    const uint8_t components[9] = {0x3, 0xF, 0x3, 0xF, 0x3, 0xF, 0x3, 0x3, 0xC};
    for (uint32_t loc = 0; loc < 9; ++loc) {
      EXPECT_EQ(vertex->facts.outputComponents[loc], components[loc]) << "W=" << W << " location " << loc;
      EXPECT_EQ(fragment->facts.inputComponents[loc], components[loc]) << "W=" << W << " location " << loc;
      EXPECT_EQ(fragment->facts.inputInterpolation[loc],
                loc == 7 ? tessera::jit::Interpolation::Smooth : tessera::jit::Interpolation::Flat)
          << "location " << loc;
    }

    struct Lane {
      double scalar, vector[3], matrix12;
      float after[2];
    };
    std::vector<Lane> lanes(W);
    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    auto in = [&](uint32_t loc, uint32_t c, uint32_t lane) -> uint32_t& { return inputs[(loc * 4 + c) * W + lane]; };
    auto put = [&](uint32_t loc, uint32_t c, uint32_t lane, double d) {
      in(loc, c, lane) = uint32_t(bitsOf(d));
      in(loc, c + 1, lane) = uint32_t(bitsOf(d) >> 32);
    };
    for (uint32_t i = 0; i < W; ++i) {
      Lane& l = lanes[i];
      l.scalar = randomDouble();
      for (double& v : l.vector) v = randomDouble();
      l.matrix12 = randomDouble();
      l.after[0] = float(i) + 0.25f;
      l.after[1] = -float(i);
      put(0, 0, i, l.scalar);
      put(0, 2, i, l.vector[0]);
      put(1, 0, i, l.vector[1]);
      put(1, 2, i, l.vector[2]);
      put(2, 0, i, l.matrix12);
      in(2, 2, i) = asWord(l.after[0]);
      in(2, 3, i) = asWord(l.after[1]);
    }
    std::vector<float> position(4 * W), pointSize(W), clip(8 * W), cull(8 * W);
    std::vector<uint32_t> varyings(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
    tessera::abi::BoundResources resources{};
    tessera::abi::VertexBatch vb{};
    vb.resources = &resources;
    vb.count = W;
    for (uint32_t i = 0; i < W; ++i) vb.vertexIndex[i] = i;
    vb.inputs = inputs.data();
    vb.position = position.data();
    vb.pointSize = pointSize.data();
    vb.clipDistance = clip.data();
    vb.cullDistance = cull.data();
    vb.outputs = varyings.data();
    vertex->vertex(&vb);
    auto word = [&](const std::vector<uint32_t>& words, uint32_t loc, uint32_t c, uint32_t lane) {
      return words[(loc * 4 + c) * W + lane];
    };
    auto wordPair = [&](const std::vector<uint32_t>& words, uint32_t loc, uint32_t c, uint32_t lane) {
      return uint64_t(word(words, loc, c, lane)) | uint64_t(word(words, loc, c + 1, lane)) << 32;
    };
    for (uint32_t i = 0; i < W; ++i) {
      const Lane& l = lanes[i];
      EXPECT_EQ(wordPair(varyings, 0, 0, i), bitsOf(l.scalar * 2.0)) << "W=" << W << " lane " << i;
      EXPECT_EQ(wordPair(varyings, 1, 0, i), bitsOf(l.vector[0])) << "dvec3.x at location 1";
      EXPECT_EQ(wordPair(varyings, 1, 2, i), bitsOf(l.vector[1])) << "dvec3.y at location 1, component 2";
      EXPECT_EQ(wordPair(varyings, 2, 0, i), bitsOf(l.vector[2])) << "dvec3.z at location 2";
      EXPECT_EQ(wordPair(varyings, 3, 0, i), bitsOf(1.0)) << "column 0";
      EXPECT_EQ(wordPair(varyings, 3, 2, i), bitsOf(2.0));
      EXPECT_EQ(wordPair(varyings, 4, 0, i), bitsOf(3.0));
      EXPECT_EQ(wordPair(varyings, 5, 0, i), bitsOf(4.0)) << "column 1 two locations on";
      EXPECT_EQ(wordPair(varyings, 5, 2, i), bitsOf(5.0));
      EXPECT_EQ(wordPair(varyings, 6, 0, i), bitsOf(l.matrix12));
      EXPECT_EQ(word(varyings, 7, 0, i), asWord(l.after[0])) << "the vec2 after the doubles";
      EXPECT_EQ(word(varyings, 7, 1, i), asWord(l.after[1]));
      EXPECT_EQ(wordPair(varyings, 8, 2, i), bitsOf(-l.vector[0])) << "a double at Component 2";
    }

    // The fragment stage reads the same words (flat inputs: the provoking vertex's words).
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0xdeadbeef);
    tessera::abi::FragmentBatch fb{};
    fb.resources = &resources;
    fb.coverage = uint32_t((uint64_t(1) << W) - 1);
    for (uint32_t l = 0; l < W; ++l) fb.fragCoord[3][l] = 1.0f;
    fb.inputs = varyings.data();
    fb.outputs = outputs.data();
    fragment->fragment(&fb);
    for (uint32_t i = 0; i < W; ++i) {
      const Lane& l = lanes[i];
      EXPECT_EQ(wordPair(outputs, 0, 0, i), bitsOf(l.scalar * 2.0 + 1.0)) << "W=" << W << " lane " << i;
      EXPECT_EQ(wordPair(outputs, 0, 2, i), bitsOf(l.vector[0]));
      EXPECT_EQ(wordPair(outputs, 1, 0, i), bitsOf(l.vector[1]));
      EXPECT_EQ(wordPair(outputs, 1, 2, i), bitsOf(l.vector[2]));
      EXPECT_EQ(wordPair(outputs, 2, 0, i), bitsOf(l.matrix12));
      EXPECT_EQ(wordPair(outputs, 2, 2, i), bitsOf(2.0));
      EXPECT_EQ(word(outputs, 3, 0, i), asWord(l.after[0]));
      EXPECT_EQ(word(outputs, 3, 1, i), asWord(l.after[1]));
      EXPECT_EQ(wordPair(outputs, 3, 2, i), bitsOf(-l.vector[0]));
    }
  }
}

}  // namespace
}  // namespace tessera_test

namespace tessera_test {
namespace {

// stage_quad_subgroup.frag: a fragment batch is the subgroup, its quads lanes 4q .. 4q+3 in the
// order "Quad Group Operations" numbers them (0 top left, 1 top right, 2 bottom left, 3 bottom
// right); quad swaps give the fine derivatives, the built-ins the lane, W and its bits.
TEST(GraphicsStages, SubgroupBuiltInsAndQuadSwapsInAFragmentShader) {
  for (uint32_t W : kSimdWidths) {
    auto program = compileStage("stage_quad_subgroup_frag", GraphicsStage::Fragment, W, {});
    ASSERT_TRUE(program && program->fragment) << "W=" << W;
    tessera::abi::BoundResources resources{};
    std::vector<uint32_t> inputs(kMaxInterfaceLocations * 4 * W, 0);
    std::vector<uint32_t> outputs(kMaxInterfaceLocations * 4 * W, 0);
    tessera::abi::FragmentBatch batch{};
    batch.resources = &resources;
    const uint32_t all = (W == 32 ? 0u : (1u << W)) - 1;
    batch.coverage = all;
    batch.frontFacing = 1;
    auto value = [](uint32_t x, uint32_t y) { return float(x * x + 10 * y * y + x * y); };
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t x = 2 * (l / 4) + (l & 1), y = (l >> 1) & 1;
      batch.fragCoord[0][l] = float(x) + 0.5f;
      batch.fragCoord[1][l] = float(y) + 0.5f;
      batch.fragCoord[3][l] = 1.0f;
      inputs[(0 * 4 + 0) * W + l] = asWord(value(x, y));
    }
    batch.inputs = inputs.data();
    batch.outputs = outputs.data();
    program->fragment(&batch);
    for (uint32_t l = 0; l < W; ++l) {
      const uint32_t x = 2 * (l / 4) + (l & 1), y = (l >> 1) & 1, x0 = x & ~1u, y0 = y & ~1u;
      auto out = [&](uint32_t loc, uint32_t c) { return outputs[(loc * 4 + c) * W + l]; };
      const float dx = value(x0 + 1, y) - value(x0, y), dy = value(x, y0 + 1) - value(x, y0);
      EXPECT_EQ(asFloat(out(0, 0)), dx) << "quad swap horizontal, W=" << W << " lane " << l;
      EXPECT_EQ(asFloat(out(0, 1)), dy) << "quad swap vertical, W=" << W << " lane " << l;
      EXPECT_EQ(asFloat(out(0, 2)), dx) << "dFdxFine, W=" << W << " lane " << l;
      EXPECT_EQ(asFloat(out(0, 3)), dy) << "dFdyFine, W=" << W << " lane " << l;
      EXPECT_EQ(out(1, 0), l) << "gl_SubgroupInvocationID";
      EXPECT_EQ(out(1, 1), W) << "gl_SubgroupSize";
      EXPECT_EQ(out(1, 2), all) << "subgroupBallot(true)";
      EXPECT_EQ(out(1, 3), 1u << l) << "gl_SubgroupEqMask";
    }
  }
}

}  // namespace
}  // namespace tessera_test
