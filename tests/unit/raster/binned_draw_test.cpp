// The binned draw path against the reference path (include/tessera/draw.h: "Both give the same
// coverage, depth, stencil and colour"), on generated scenes at W = 4, 8, 16 and 1, 2 and 5
// threads: meshes sharing edges, fans, strips, slivers, huge clipped triangles, tiny ones,
// lines in every VK_EXT_line_rasterization mode, stippled or not, polygon mode LINE, points;
// every depth compare, stencil ops, blending, 1 and 4 samples, discard and
// FragDepth, scissors, instancing and indexed draws with restart. Plus watertightness through
// the binned path ("Basic Polygon Rasterization": a sample on an edge shared by two triangles
// is covered by exactly one of them).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "draw_internal.h"  // encodeBytes8
#include "tessera/blend_unorm8.h"
#include "tessera/draw.h"
#include "tessera/format.h"
#include "tessera/spirv_jit.h"
#include "tessera/texel_codec.h"
#include "tessera/thread_pool.h"

namespace tessera::raster {
namespace {

constexpr int kWidth = 203, kHeight = 141;  // not tile multiples: partial tiles on both edges

// Vertex kernel: location 0 is the clip position, location 1 the colour passed on as output 0.
template <uint32_t W>
void passThroughVertex(abi::VertexBatch* b) {
  for (uint32_t lane = 0; lane < b->count; ++lane) {
    for (uint32_t c = 0; c < 4; ++c) {
      std::memcpy(&b->position[c * W + lane], &b->inputs[(0 * 4 + c) * W + lane], 4);
      b->outputs[(0 * 4 + c) * W + lane] = b->inputs[(1 * 4 + c) * W + lane];
    }
    b->pointSize[lane] = 1.0f;
  }
}

// Fragment kernel: colour = input 0, and the second blend source (Location 0 Index 1,
// "Dual-Source Blending") its components in reverse order; the "discarding" variant discards
// lanes whose red > 0.75 and writes FragDepth = green (what a late depth test must see).
template <uint32_t W, bool Discard>
void colourFragment(abi::FragmentBatch* b) {
  b->alive = b->coverage;
  for (uint32_t lane = 0; lane < W; ++lane) {
    float v[4];
    for (uint32_t c = 0; c < 4; ++c) {
      std::memcpy(&v[c], &b->inputs[(0 * 4 + c) * W + lane], 4);
      b->outputs[(0 * 4 + c) * W + lane] = b->inputs[(0 * 4 + c) * W + lane];
      b->outputs[(abi::kSecondColorLocation * 4 + c) * W + lane] = b->inputs[(0 * 4 + 3 - c) * W + lane];
    }
    if (Discard) {
      if (v[0] > 0.75f) b->alive &= ~(1u << lane);
      b->fragDepth[lane] = std::clamp(v[1], 0.0f, 1.0f);
    }
  }
}

abi::VertexBatchFn vertexKernel(uint32_t w) {
  return w == 4 ? passThroughVertex<4> : w == 8 ? passThroughVertex<8> : passThroughVertex<16>;
}
abi::FragmentBatchFn fragmentKernel(uint32_t w, bool discard) {
  if (discard) return w == 4 ? colourFragment<4, true> : w == 8 ? colourFragment<8, true> : colourFragment<16, true>;
  return w == 4 ? colourFragment<4, false> : w == 8 ? colourFragment<8, false> : colourFragment<16, false>;
}

struct Targets {
  uint32_t samples = 1;
  std::vector<uint8_t> colour, depth, stencil;
  // floatColour: the colour texels are R32_SFLOAT values in [0, 1] (random bytes would hold
  // NaNs, whose payloads blending need not keep), drawn from the same random bytes.
  void reset(uint32_t s, std::mt19937& rng, bool floatColour = false) {
    samples = s;
    const size_t n = size_t(kWidth) * kHeight * s;
    colour.resize(n * 4);
    depth.resize(n * 4);
    stencil.resize(n);
    for (auto& b : colour) b = uint8_t(rng());
    if (floatColour)
      for (size_t i = 0; i < n; ++i) {
        const float v = float(colour[i * 4] | colour[i * 4 + 1] << 8) / 65535.0f;
        std::memcpy(&colour[i * 4], &v, 4);
      }
    for (size_t i = 0; i < n; ++i) {
      const float z = float(rng() % 1000) / 999.0f;
      std::memcpy(&depth[i * 4], &z, 4);
    }
    for (auto& b : stencil) b = uint8_t(rng() % 4);
  }
};

AttachmentView view(std::vector<uint8_t>& bytes, VkFormat format, uint32_t texelSize, uint32_t samples) {
  AttachmentView v;
  v.base = bytes.data();
  v.format = format;
  v.texelSize = texelSize;
  v.samples = samples;
  v.rowPitch = uint64_t(kWidth) * samples * texelSize;
  return v;
}

struct Scene {
  DrawState state;
  DrawCall call;
  std::vector<float> vertices;  // position (clip) and colour per vertex
  std::vector<uint32_t> indices;
  bool discard = false;
  bool derivatives = false;  // the JIT tests' derivative shader (binned_derivative.frag) instead
  VkFormat depthFormat = VK_FORMAT_D32_SFLOAT;  // D32_SFLOAT, D16_UNORM or X8_D24_UNORM_PACK32
  VkFormat colourFormat = VK_FORMAT_R8G8B8A8_UNORM;  // or an 8-bit sRGB RGBA/BGRA format
};

float uniform(std::mt19937& rng, float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); }

// Clip-space vertices of kinds that stress different rules; colours random.
void addVertex(Scene& sc, std::mt19937& rng, float x, float y, float z, float w) {
  sc.vertices.insert(sc.vertices.end(), {x * w, y * w, z * w, w, uniform(rng, 0, 1), uniform(rng, 0, 1),
                                         uniform(rng, 0, 1), uniform(rng, 0, 1)});
}

void generateGeometry(Scene& sc, std::mt19937& rng, int kind) {
  switch (kind) {
    case 0: {  // a jittered grid mesh: every interior edge shared by two triangles
      // A third of the grids and random triangles have w = 1 at every vertex (2D and
      // full-screen draws): unclipped, their weights take the rasterizer's affine shortcut.
      const bool equalW = rng() % 3 == 0;
      const int n = 6 + int(rng() % 8);
      for (int j = 0; j <= n; ++j)
        for (int i = 0; i <= n; ++i) {
          const bool border = i == 0 || j == 0 || i == n || j == n;
          // Jitter below a quarter cell keeps every triangle's orientation, so the mesh never folds.
          const float jx = border ? 0 : uniform(rng, -0.24f, 0.24f), jy = border ? 0 : uniform(rng, -0.24f, 0.24f);
          addVertex(sc, rng, -1.1f + 2.2f * (float(i) + jx) / float(n), -1.1f + 2.2f * (float(j) + jy) / float(n),
                    uniform(rng, 0, 1), equalW ? 1.0f : uniform(rng, 0.5f, 2));
        }
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i) {
          const uint32_t a = uint32_t(j * (n + 1) + i), b = a + 1, c = a + uint32_t(n + 1), d = c + 1;
          sc.indices.insert(sc.indices.end(), {a, b, c, b, d, c});
        }
      sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      sc.call.indexed = true;
      break;
    }
    case 1: {  // random triangles of every size, some huge with w < 0 vertices (clipped)
      const bool equalW = rng() % 3 == 0;
      const int n = 20 + int(rng() % 60);
      for (int t = 0; t < n * 3; ++t) {
        const float r = rng() % 5 == 0 ? 40.0f : rng() % 2 ? 1.5f : 0.05f;
        addVertex(sc, rng, uniform(rng, -r, r), uniform(rng, -r, r), uniform(rng, -0.2f, 1.2f),
                  equalW ? 1.0f : rng() % 7 == 0 ? uniform(rng, -1, 0.2f) : uniform(rng, 0.3f, 3));
      }
      sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
      break;
    }
    case 2: {  // a fan of slivers around a centre, drawn as a strip with restarts (indexed)
      const int n = 30 + int(rng() % 40);
      addVertex(sc, rng, uniform(rng, -0.3f, 0.3f), uniform(rng, -0.3f, 0.3f), 0.5f, 1);
      for (int i = 0; i <= n; ++i) {
        const float a = 6.2831853f * float(i) / float(n);
        addVertex(sc, rng, 1.3f * std::cos(a), 1.3f * std::sin(a), uniform(rng, 0, 1), 1);
      }
      if (rng() % 2) {
        sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
        for (uint32_t i = 0; i <= uint32_t(n) + 1; ++i) sc.indices.push_back(i);
      } else {
        sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP;
        sc.state.primitiveRestart = true;
        for (uint32_t i = 1; i <= uint32_t(n); ++i) sc.indices.insert(sc.indices.end(), {0, i, i + 1, 0xFFFFFFFFu});
      }
      sc.call.indexed = true;
      break;
    }
    case 3: {  // lines (list or strip), some crossing the near plane (clipped starts and ends)
      const int n = 20 + int(rng() % 40);
      for (int i = 0; i < n * 2; ++i)
        addVertex(sc, rng, uniform(rng, -1.2f, 1.2f), uniform(rng, -1.2f, 1.2f), uniform(rng, rng() % 4 ? 0 : -1, 1),
                  uniform(rng, 0.5f, 2));
      sc.state.topology = rng() % 2 ? VK_PRIMITIVE_TOPOLOGY_LINE_LIST : VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
      break;
    }
    default: {  // points
      const int n = 100 + int(rng() % 200);
      for (int i = 0; i < n; ++i)
        addVertex(sc, rng, uniform(rng, -1.05f, 1.05f), uniform(rng, -1.05f, 1.05f), uniform(rng, 0, 1), 1);
      sc.state.topology = VK_PRIMITIVE_TOPOLOGY_POINT_LIST;
      break;
    }
  }
}

// A random scene; `forcedKind` >= 0 picks generateGeometry's kind.
Scene generateScene(std::mt19937& rng, uint32_t samples, int forcedKind = -1) {
  Scene sc;
  DrawState& s = sc.state;
  const int randomKind = int(rng() % 5);
  const int kind = forcedKind >= 0 ? forcedKind : randomKind;
  generateGeometry(sc, rng, kind);
  // VK_EXT_line_rasterization: every line mode, wide or not, stippled or not, for lines and for
  // random triangles drawn in polygon mode LINE. "Line Stipple"'s counter comes from each
  // fragment's place on the line, so the binned path's tiles must find what the reference's
  // whole lines do.
  const VkLineRasterizationModeEXT lineModes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  s.raster.lineMode = lineModes[rng() % 4];
  const float lineWidths[4] = {1.0f, 1.0f, 3.0f, 2.5f};
  s.raster.lineWidth = lineWidths[rng() % 4];
  s.raster.lineStippleEnable = rng() % 2;
  s.raster.lineStippleFactor = 1 + rng() % 3;
  s.raster.lineStipplePattern = uint16_t(rng());
  if (kind == 1 && rng() % 3 == 0) s.polygonMode = VK_POLYGON_MODE_LINE;
  s.fragment.inputComponents[0] = 4;
  s.fragment.inputInterpolation[0] = uint8_t(rng() % 3);
  s.fragment.colorOutputs = 1;
  s.fragment.writesSecondColor = true;
  s.fragment.centroidInputs = rng() % 2;
  sc.discard = rng() % 4 == 0;
  s.fragment.canDiscard = s.fragment.writesFragDepth = sc.discard;
  s.vertexOutputComponents[0] = 4;
  s.attributeCount = 2;
  s.attributes[0] = {0, 0, 0, VK_FORMAT_R32G32B32A32_SFLOAT};
  s.attributes[1] = {1, 0, 16, VK_FORMAT_R32G32B32A32_SFLOAT};
  s.raster.samples = samples;
  s.raster.viewport = {0, 0, float(kWidth), float(kHeight), 0, 1};
  s.raster.scissor = rng() % 3 == 0 ? Rect{int32_t(rng() % 60), int32_t(rng() % 40), kWidth - int32_t(rng() % 60),
                                           kHeight - int32_t(rng() % 40)}
                                    : Rect{0, 0, kWidth, kHeight};
  s.raster.cullMode = VkCullModeFlags(rng() % 4);
  s.raster.frontFace = rng() % 2 ? VK_FRONT_FACE_CLOCKWISE : VK_FRONT_FACE_COUNTER_CLOCKWISE;
  s.raster.depthBiasEnable = rng() % 3 == 0;
  s.raster.depthBiasConstantFactor = uniform(rng, -100, 100);
  s.raster.depthBiasSlopeFactor = uniform(rng, -2, 2);
  const VkFormat depthFormats[3] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D16_UNORM, VK_FORMAT_X8_D24_UNORM_PACK32};
  sc.depthFormat = depthFormats[rng() % 3];
  s.raster.depthFormat = sc.depthFormat;
  s.sampleMask = rng() % 4 == 0 ? uint32_t(rng()) : ~0u;
  s.alphaToCoverage = samples > 1 && rng() % 4 == 0;
  s.depthTest = rng() % 4 != 0;
  s.depthWrite = rng() % 2;
  s.depthCompare = VkCompareOp(rng() % 8);
  s.depthBoundsTest = rng() % 5 == 0;
  s.minDepthBounds = uniform(rng, 0, 0.5f);
  s.maxDepthBounds = uniform(rng, 0.5f, 1);
  s.stencilTest = rng() % 2;
  for (StencilFace* f : {&s.stencilFront, &s.stencilBack}) {
    f->failOp = VkStencilOp(rng() % 8);
    f->passOp = VkStencilOp(rng() % 8);
    f->depthFailOp = VkStencilOp(rng() % 8);
    f->compareOp = VkCompareOp(rng() % 8);
    f->compareMask = rng() % 2 ? 0xFF : 0x3;
    f->writeMask = rng() % 2 ? 0xFF : 0x5;
    f->reference = rng() % 4;
  }
  s.colorCount = 1;
  BlendAttachment& b = s.blend[0];
  b.enable = rng() % 2;
  // Every factor, the dual-source ones (15-18) included: the compiled blend has no packed form
  // for them, so the loop must blend those draws itself, as the reference does.
  b.srcColor = VkBlendFactor(rng() % 19);
  b.dstColor = VkBlendFactor(rng() % 19);
  b.colorOp = VkBlendOp(rng() % 5);
  b.srcAlpha = VkBlendFactor(rng() % 19);
  b.dstAlpha = VkBlendFactor(rng() % 19);
  b.alphaOp = VkBlendOp(rng() % 5);
  b.writeMask = rng() % 3 == 0 ? VkColorComponentFlags(rng() % 16) : 0xF;
  for (float& k : s.blendConstants) k = uniform(rng, 0, 1);
  s.renderArea = {0, 0, kWidth, kHeight};
  sc.call.instanceCount = 1 + rng() % 2;
  const uint32_t vertexCount = uint32_t(sc.vertices.size() / 8);
  sc.call.vertexCount = sc.call.indexed ? uint32_t(sc.indices.size()) : vertexCount;
  // The kernels read no FragCoord; half the scenes say so, which lets the binned path skip 1/w.
  s.fragment.fragCoordReads = rng() % 2 ? 0xF : 0;
  return sc;
}

// Binds the scene's buffers and the targets, with kernels for W.
void bind(Scene& sc, Targets& t, uint32_t w, uint64_t* occlusion) {
  DrawState& s = sc.state;
  s.simdWidth = w;
  s.vertexShader = vertexKernel(w);
  s.fragmentShader = fragmentKernel(w, sc.discard);
  s.bindings[0] = {reinterpret_cast<const uint8_t*>(sc.vertices.data()), sc.vertices.size() * 4, 32,
                   VK_VERTEX_INPUT_RATE_VERTEX};
  s.color[0] = view(t.colour, sc.colourFormat, 4, t.samples);
  s.depth = view(t.depth, sc.depthFormat, sc.depthFormat == VK_FORMAT_D16_UNORM ? 2 : 4, t.samples);
  s.stencil = view(t.stencil, VK_FORMAT_S8_UINT, 1, t.samples);
  s.occlusionSamples = occlusion;
  sc.call.indices = reinterpret_cast<const uint8_t*>(sc.indices.data());
  sc.call.indexBytes = sc.indices.size() * 4;
  sc.call.indexType = VK_INDEX_TYPE_UINT32;
}

TEST(BinnedDraw, MatchesReferenceOnRandomScenes) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::mt19937 rng(20261124);
  int drawn = 0, changed = 0;
  for (int iteration = 0; iteration < 60; ++iteration) {
    // 1 and 4 samples (the block walker's counts) most often; every sixth scene 2, 8 or 16 (the
    // quad walker's, "Multisampling").
    constexpr uint32_t kOtherCounts[3] = {2, 8, 16};
    const uint32_t samples = iteration % 6 == 1 ? kOtherCounts[iteration / 6 % 3] : iteration % 3 == 2 ? 4 : 1;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene scene = generateScene(sceneRng, samples);
    // Every fifth scene into an 8-bit sRGB target (RGBA or BGRA), half of those unblended with
    // every component written (the loop's direct write, encodeBytes8, which
    // Bytes8EncodeEqualsTheTexelCodec checks against the codec), the others blending or masking.
    if (iteration % 5 == 4) {
      scene.colourFormat = iteration % 10 == 4 ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_B8G8R8A8_SRGB;
      if (iteration % 20 >= 10) scene.state.blend[0].enable = false, scene.state.blend[0].writeMask = 0xF;
    }
    // Every fifth scene into R32_SFLOAT: the interpolated red as the weights make it, to the
    // last bit (an 8-bit target hides weights that differ by less than about 2^-9).
    if (iteration % 5 == 1) scene.colourFormat = VK_FORMAT_R32_SFLOAT;
    const bool floatColour = scene.colourFormat == VK_FORMAT_R32_SFLOAT;
    Targets expected;
    std::mt19937 initRng(seed);
    expected.reset(samples, initRng, floatColour);
    uint64_t expectedOcclusion = 0;
    bind(scene, expected, 8, &expectedOcclusion);
    drawReference(scene.state, scene.call);
    {
      // The reference path with the fragment stage at another width than the vertex stage.
      Targets mixed;
      std::mt19937 sameInit(seed);
      mixed.reset(samples, sameInit, floatColour);
      uint64_t occlusion = 0;
      bind(scene, mixed, 16, &occlusion);
      scene.state.fragmentSimdWidth = 4;
      scene.state.fragmentShader = fragmentKernel(4, scene.discard);
      drawReference(scene.state, scene.call);
      scene.state.fragmentSimdWidth = 0;
      SCOPED_TRACE(testing::Message() << "reference, vertex W 16, fragment W 4, scene seed " << seed);
      ASSERT_EQ(mixed.colour, expected.colour);
      ASSERT_EQ(mixed.depth, expected.depth);
      ASSERT_EQ(mixed.stencil, expected.stencil);
      ASSERT_EQ(occlusion, expectedOcclusion);
    }
    {
      // Scenes that change nothing would let both paths pass by doing nothing: count them.
      Targets initial;
      std::mt19937 sameInit(seed);
      initial.reset(samples, sameInit, floatColour);
      changed += initial.colour != expected.colour || initial.depth != expected.depth || initial.stencil != expected.stencil;
    }
    for (uint32_t w : {4u, 8u, 16u}) {
      for (ThreadPool& pool : pools) {
        Targets got;
        std::mt19937 sameInit(seed);
        got.reset(samples, sameInit, floatColour);
        uint64_t occlusion = 0;
        bind(scene, got, w, &occlusion);
        // With two threads the fragment stage runs at another width than the vertex stage (a
        // fragment shader's required subgroup size, DrawState::fragmentSimdWidth).
        const uint32_t fragmentW = pool.threadCount() == 2 ? (w == 16 ? 4u : 16u) : w;
        if (fragmentW != w) {
          scene.state.fragmentSimdWidth = fragmentW;
          scene.state.fragmentShader = fragmentKernel(fragmentW, scene.discard);
        }
        drawBinned(scene.state, scene.call, pool);
        scene.state.fragmentSimdWidth = 0;
        SCOPED_TRACE(testing::Message() << "fragment W " << fragmentW);
        SCOPED_TRACE(testing::Message() << "scene seed " << seed << ", topology " << scene.state.topology << ", polygon mode "
                                        << scene.state.polygonMode << ", line mode " << scene.state.raster.lineMode
                                        << (scene.state.raster.lineStippleEnable ? " stippled" : "") << ", depth format "
                                        << scene.depthFormat << ", colour format " << scene.colourFormat << ", samples "
                                        << samples << ", W " << w << ", threads " << pool.threadCount());
        ASSERT_EQ(got.colour, expected.colour);
        ASSERT_EQ(got.depth, expected.depth);
        ASSERT_EQ(got.stencil, expected.stencil);
        ASSERT_EQ(occlusion, expectedOcclusion);
        ++drawn;
      }
    }
  }
  EXPECT_EQ(drawn, 60 * 9);
  EXPECT_GE(changed, 30);
}

// Every VK_EXT_line_rasterization mode at widths 1 and 3, stippled or not, 1, 4 and 8 samples (smooth
// lines' coverage scaling the shader's alpha before blending):
// random line lists and strips (some crossing the near plane) through both paths. "Line
// Stipple"'s counter must come from each fragment's place on its line: the binned path draws a
// line tile by tile, the reference path whole.
TEST(BinnedDraw, LineModesAndStippleMatchReference) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::mt19937 rng(16032);
  const VkLineRasterizationModeEXT modes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  int changed = 0;
  for (const VkLineRasterizationModeEXT mode : modes)
    for (const bool stipple : {false, true})
      for (const float width : {1.0f, 3.0f})
        for (const uint32_t samples : {1u, 4u, 8u}) {
          const uint32_t seed = uint32_t(rng());
          std::mt19937 sceneRng(seed);
          Scene scene = generateScene(sceneRng, samples, 3);
          scene.state.raster.lineMode = mode;
          scene.state.raster.lineWidth = width;
          scene.state.raster.lineStippleEnable = stipple;
          scene.state.raster.lineStippleFactor = 1 + seed % 3;
          scene.state.raster.lineStipplePattern = uint16_t(seed >> 8);
          Targets expected;
          std::mt19937 initRng(seed);
          expected.reset(samples, initRng);
          uint64_t expectedOcclusion = 0;
          bind(scene, expected, 8, &expectedOcclusion);
          drawReference(scene.state, scene.call);
          {
            Targets initial;
            std::mt19937 sameInit(seed);
            initial.reset(samples, sameInit);
            changed += initial.colour != expected.colour;
          }
          for (uint32_t w : {4u, 8u, 16u})
            for (ThreadPool& pool : pools) {
              Targets got;
              std::mt19937 sameInit(seed);
              got.reset(samples, sameInit);
              uint64_t occlusion = 0;
              bind(scene, got, w, &occlusion);
              drawBinned(scene.state, scene.call, pool);
              SCOPED_TRACE(testing::Message() << "seed " << seed << ", line mode " << mode << ", stipple " << stipple
                                              << ", width " << width << ", samples " << samples << ", topology "
                                              << scene.state.topology << ", W " << w << ", threads " << pool.threadCount());
              ASSERT_EQ(got.colour, expected.colour);
              ASSERT_EQ(got.depth, expected.depth);
              ASSERT_EQ(got.stencil, expected.stencil);
              ASSERT_EQ(occlusion, expectedOcclusion);
            }
        }
  EXPECT_GE(changed, 24);
}

// The same with the fragment stage compiled by the JIT from GLSL equal to colourFragment
// (tests/shaders/binned_colour*.frag): the binned path then lets the kernel encode and write
// 8-bit UNORM attachments itself (shader_abi.h FragmentBatch::direct) where nothing after the
// shader can change the result, and skips FragCoord and weights the kernel does not read. The
// reference path takes the kernel's output words through its own per-fragment operations, so
// equal images check the kernel's writes (blending included: the kernel is compiled with the
// scene's blend state, and for 4 samples per pixel in 4-sample scenes) against the loop's.
// R8G8B8A8 and B8G8R8A8 targets.
std::shared_ptr<const jit::GraphicsProgram> jitColourKernel(uint32_t w, const std::string& shader, uint32_t blend,
                                                            uint32_t samples) {
  static std::map<std::tuple<uint32_t, std::string, uint32_t, uint32_t>, std::shared_ptr<const jit::GraphicsProgram>> programs;
  auto& p = programs[{w, shader, blend, samples}];
  if (p) return p;
  std::ifstream in(std::string(TESSERA_TEST_SHADER_DIR) + "/" + shader + "_frag.spv", std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  jit::GraphicsCompileRequest req;
  req.stage = jit::GraphicsStage::Fragment;
  req.spirv = words;
  req.interface.simdWidth = w;
  req.interface.colorBlend[0] = blend;
  req.interface.colorSamples = samples;
  jit::GraphicsCompileResult r = jit::compileGraphicsStage(req);
  EXPECT_EQ(r.status, jit::CompileStatus::Success) << r.message;
  p = r.program;
  return p;
}

// The kernel compiled with the scene's blend state and sample count (as a pipeline compiles it:
// its own writes then blend and address that many samples per pixel), or with another blend
// state or sample count when `otherState` (the loop must then not let it write).
void useJitKernel(Scene& sc, uint32_t w, VkFormat colourFormat, bool otherState = false) {
  DrawState& s = sc.state;
  const BlendAttachment& b = s.blend[0];
  uint32_t blend = b.enable ? abi::packBlend(b.srcColor, b.dstColor, b.colorOp, b.srcAlpha, b.dstAlpha, b.alphaOp) : 0u;
  const uint32_t samples = std::max(s.raster.samples, 1u);
  const bool otherSamples = otherState && samples == 4;
  if (otherState && !otherSamples) blend = blend ? 0u : abi::packBlend(6, 7, 0, 1, 0, 0);
  const char* shader = sc.derivatives ? "binned_derivative" : sc.discard ? "binned_colour_discard" : "binned_colour";
  auto program = jitColourKernel(w, shader, blend, otherSamples ? 1u : samples);
  ASSERT_TRUE(program && program->fragment);
  s.fragmentShader = program->fragment;
  s.fragment.directColorLocations = program->facts.directColorLocations;
  s.fragment.fragCoordReads = program->facts.fragCoordReads;
  std::copy(program->facts.directBlend, program->facts.directBlend + abi::kMaxColorAttachments, s.fragment.directBlend);
  s.fragment.directSamples = program->facts.directSamples;
  s.fragment.canDiscard = program->facts.canDiscard;
  s.fragment.writesFragDepth = program->facts.writesFragDepth;
  s.fragment.writesSecondColor = program->facts.outputComponents[abi::kSecondColorLocation] != 0;
  s.color[0].format = colourFormat;
}

// `scene` with the JIT's kernels on the reference path (W = 8) and on the binned path at W = 4,
// 8 and 16 on each pool, from the same initial targets (seeded with `seed`): the same colour,
// depth and stencil, and with `counting` the same occlusion sample count. `otherStateAtW8`: the
// W = 8 binned runs get a kernel compiled for another blend state or sample count than the
// draw's (useJitKernel). Counts the binned runs compared in `runs`; returns whether the draw
// changed the colour attachment.
bool expectJitSceneMatchesReference(Scene& scene, uint32_t seed, uint32_t samples, VkFormat colourFormat, bool counting,
                                    bool otherStateAtW8, ThreadPool (&pools)[3], int& runs) {
  Targets expected;
  std::mt19937 initRng(seed);
  expected.reset(samples, initRng);
  const std::vector<uint8_t> initialColour = expected.colour;
  uint64_t expectedOcclusion = 0;
  bind(scene, expected, 8, counting ? &expectedOcclusion : nullptr);
  useJitKernel(scene, 8, colourFormat);
  drawReference(scene.state, scene.call);
  for (uint32_t w : {4u, 8u, 16u}) {
    for (ThreadPool& pool : pools) {
      Targets got;
      std::mt19937 sameInit(seed);
      got.reset(samples, sameInit);
      uint64_t occlusion = 0;
      bind(scene, got, w, counting ? &occlusion : nullptr);
      useJitKernel(scene, w, colourFormat, otherStateAtW8 && w == 8);
      drawBinned(scene.state, scene.call, pool);
      SCOPED_TRACE(testing::Message() << "scene seed " << seed << ", format " << colourFormat << ", samples " << samples
                                      << ", discard " << scene.discard << ", blend " << scene.state.blend[0].enable
                                      << ", W " << w << ", threads " << pool.threadCount());
      EXPECT_EQ(got.colour, expected.colour);
      EXPECT_EQ(got.depth, expected.depth);
      EXPECT_EQ(got.stencil, expected.stencil);
      EXPECT_EQ(occlusion, expectedOcclusion);
      if (testing::Test::HasFailure()) return initialColour != expected.colour;
      ++runs;
    }
  }
  return initialColour != expected.colour;
}

// Draws `iterations` random scenes with the JIT's kernels through both paths (see above);
// `derivatives`: with binned_derivative.frag, whose colours depend on how pixels pair in quads.
void jitScenesMatchTheReference(uint32_t seedBase, int iterations, bool derivatives) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::mt19937 rng(seedBase);
  int drawn = 0, changed = 0;
  for (int iteration = 0; iteration < iterations; ++iteration) {
    const uint32_t samples = iteration % 2 ? 4 : 1;
    const VkFormat colourFormat = iteration / 4 % 2 ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_R8G8B8A8_UNORM;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene scene = generateScene(sceneRng, samples);
    if (derivatives) {
      scene.derivatives = true;
      scene.discard = scene.state.fragment.canDiscard = scene.state.fragment.writesFragDepth = false;
    }
    // Half the scenes without blending or per-fragment tests: the kernel's own writes then
    // carry every pixel.
    if (iteration % 4 < 2) scene.state.blend[0].enable = scene.state.depthTest = scene.state.stencilTest = false;
    // One run in three with a kernel compiled for another blend state (or sample count) than
    // the draw's.
    changed += expectJitSceneMatchesReference(scene, seed, samples, colourFormat, /*counting=*/true, iteration % 3 == 1,
                                              pools, drawn);
    if (testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(drawn, iterations * 9);
  // Scenes that change no colour let both paths pass by doing nothing: most must change some.
  EXPECT_GE(changed, iterations * (derivatives ? 3 : 5) / 8);
}

TEST(BinnedDraw, JitFragmentKernelsMatchTheReferenceOnRandomScenes) { jitScenesMatchTheReference(20261125, 48, false); }

// "Derivative Operations" through the block walker: its batches must hold the same 2x2 quads
// (even coordinates) as the reference's, wherever a triangle's blocks start.
TEST(BinnedDraw, JitDerivativeKernelsMatchTheReferenceOnRandomScenes) {
  jitScenesMatchTheReference(20261126, 32, true);
}

// The binned path's vectorized depth test (D32_SFLOAT, no stencil or depth bounds:
// FragmentStage::runDepthTestD32) against the reference's per-sample tests ("Depth Test"), for
// every compare op, with and without depth writes, early and late (FragDepth), 1, 4, 8 and 16
// samples (4: a pixel's samples as one vector; 8 and 16: sample by sample across the lanes).
TEST(BinnedDraw, DepthOnlyD32MatchesTheReferenceForEveryCompareOp) {
  ThreadPool pool(2);
  std::mt19937 rng(4242);
  int changedDepth = 0;
  for (int iteration = 0; iteration < 128; ++iteration) {
    const uint32_t samples = iteration < 48 ? 1 : iteration < 96 ? 4 : iteration < 112 ? 8 : 16;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene scene = generateScene(sceneRng, samples);
    DrawState& s = scene.state;
    scene.depthFormat = s.raster.depthFormat = VK_FORMAT_D32_SFLOAT;
    s.depthTest = true;
    s.depthCompare = VkCompareOp(iteration % 8);
    s.depthWrite = iteration / 8 % 2 == 0;
    s.stencilTest = s.depthBoundsTest = false;
    Targets expected;
    std::mt19937 initRng(seed);
    expected.reset(samples, initRng);
    const std::vector<uint8_t> initialDepth = expected.depth;
    uint64_t expectedOcclusion = 0;
    bind(scene, expected, 8, &expectedOcclusion);
    drawReference(s, scene.call);
    changedDepth += expected.depth != initialDepth;
    for (uint32_t w : {4u, 8u, 16u}) {
      Targets got;
      std::mt19937 sameInit(seed);
      got.reset(samples, sameInit);
      uint64_t occlusion = 0;
      bind(scene, got, w, &occlusion);
      drawBinned(s, scene.call, pool);
      SCOPED_TRACE(testing::Message() << "scene seed " << seed << ", samples " << samples << ", compare " << s.depthCompare << ", write "
                                      << s.depthWrite << ", discard " << scene.discard << ", W " << w);
      ASSERT_EQ(got.colour, expected.colour);
      ASSERT_EQ(got.depth, expected.depth);
      ASSERT_EQ(occlusion, expectedOcclusion);
    }
  }
  EXPECT_GE(changedDepth, 20);  // depth writes that pass change the attachment
}

// The binned loop's blending of 8-bit RGBA/BGRA UNORM lanes (blendUnorm8, draw_blocks.cpp, in
// every target clone this host runs) against the rule it implements (tessera/blend_unorm8.h):
// random blend states with every factor (dual-source included) and operation, random sources
// with NaN, out-of-range and halfway values, both bit orders, at every W.
TEST(BinnedDraw, Unorm8BlendLanesEqualTheRule) {
  std::mt19937 rng(1201);
  auto randomSource = [&]() -> float {
    switch (rng() % 6) {
      case 0: return std::numeric_limits<float>::quiet_NaN();
      case 1: return uniform(rng, -2, 0);
      case 2: return uniform(rng, 1, 3);
      case 3: return std::nextafter((float(rng() % 255) + 0.5f) / 255.0f, rng() % 2 ? 0.0f : 1.0f);
      default: return uniform(rng, 0, 1);
    }
  };
  for (uint32_t W : {4u, 8u, 16u}) {
    for (int n = 0; n < 20000; ++n) {
      BlendAttachment b;
      b.enable = true;
      b.srcColor = VkBlendFactor(rng() % 19), b.dstColor = VkBlendFactor(rng() % 19), b.colorOp = VkBlendOp(rng() % 5);
      b.srcAlpha = VkBlendFactor(rng() % 19), b.dstAlpha = VkBlendFactor(rng() % 19), b.alphaOp = VkBlendOp(rng() % 5);
      const bool bgra = n % 2;
      const uint32_t shift[4] = {bgra ? 16u : 0u, 8u, bgra ? 0u : 16u, 24u};
      float src[64], src1[64];
      uint32_t current[16], texels[16], k8[4];  // the constants as the draw converts them once
      for (uint32_t& c : k8) c = blendInputUnorm8(uniform(rng, 0, 1));
      for (uint32_t i = 0; i < 4 * W; ++i) src[i] = randomSource(), src1[i] = randomSource();
      for (uint32_t l = 0; l < W; ++l) current[l] = uint32_t(rng());
      blendUnorm8(W, b, k8, src, src1, current, shift, texels);
      for (uint32_t l = 0; l < W; ++l) {
        uint32_t s[4], s1[4], d[4], out[4];
        for (int c = 0; c < 4; ++c) {
          s[c] = blendInputUnorm8(src[c * W + l]), s1[c] = blendInputUnorm8(src1[c * W + l]);
          d[c] = current[l] >> shift[c] & 0xFF;
        }
        blendUnorm8Texel(b, s, s1, d, k8, out);
        const uint32_t want = out[0] << shift[0] | out[1] << shift[1] | out[2] << shift[2] | out[3] << shift[3];
        ASSERT_EQ(texels[l], want) << "W=" << W << " n " << n << " lane " << l;
      }
    }
  }
}

// The loop's direct 8-bit RGBA/BGRA UNORM and sRGB texel encode (encodeBytes8) against the
// texel codec's encodeTexel (the reference path's write): every format, random components in and
// out of [0, 1], halfway points between UNORM steps, NaN and infinities.
TEST(BinnedDraw, Bytes8EncodeEqualsTheTexelCodec) {
  std::mt19937 rng(1130);
  const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(), -0.0f, 0.0f, 1.0f, 0.5f / 255.0f, 1.5f / 255.0f};
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_SRGB,
                          VK_FORMAT_B8G8R8A8_SRGB}) {
    const FormatInfo* info = formatInfo(format);
    ASSERT_NE(info, nullptr);
    for (int n = 0; n < 200000; ++n) {
      TexelValue v{};
      for (int c = 0; c < 4; ++c)
        v.f[c] = n % 7 == 0 ? specials[rng() % std::size(specials)]
                 : n % 7 == 1 ? (float(rng() % 256) + 0.5f) / 255.0f
                              : uniform(rng, -0.25f, 1.25f);
      uint8_t got[4] = {}, want[4] = {};
      ASSERT_TRUE(encodeBytes8(format, v.f, got));
      encodeTexel(*info, v, want);
      ASSERT_EQ(std::memcmp(got, want, 4), 0) << "format " << format << " (" << v.f[0] << ", " << v.f[1] << ", "
                                              << v.f[2] << ", " << v.f[3] << ")";
    }
  }
  uint8_t unused[4];
  const float one[4] = {1, 1, 1, 1};
  EXPECT_FALSE(encodeBytes8(VK_FORMAT_R16G16B16A16_UNORM, one, unused));
  EXPECT_FALSE(encodeBytes8(VK_FORMAT_R8G8B8A8_UINT, one, unused));
}

// An opaque full-screen quad (two triangles), no tests or blending: what lets a scene drop the
// work under it.
Scene opaqueQuad(std::mt19937& rng, uint32_t samples = 1) {
  Scene sc = generateScene(rng, samples);
  sc.vertices.clear();
  sc.indices.clear();
  const float z = uniform(rng, 0, 1);
  for (auto [x, y] : {std::pair{-1.3f, -1.3f}, {1.3f, -1.3f}, {-1.3f, 1.3f}, {1.3f, -1.3f}, {1.3f, 1.3f}, {-1.3f, 1.3f}})
    addVertex(sc, rng, x, y, z, 1);
  DrawState& s = sc.state;
  s.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  s.primitiveRestart = false;
  s.raster.cullMode = VK_CULL_MODE_NONE;
  s.raster.scissor = {0, 0, kWidth, kHeight};
  s.depthTest = s.stencilTest = s.depthBoundsTest = s.alphaToCoverage = false;
  s.sampleMask = ~0u;
  s.blend[0].enable = false;
  s.blend[0].writeMask = 0xF;
  sc.discard = false;
  s.fragment.canDiscard = s.fragment.writesFragDepth = false;
  sc.call = DrawCall{};
  sc.call.vertexCount = 6;
  return sc;
}

// A fragment kernel writing the same integer colour to every lane (W = 8), an out-of-range
// component included, for the 8-bit integer attachment write below.
constexpr uint32_t kIntegerColour[4] = {7, 255, 256, 0xFFFFFF80u};
void integerColourKernel(abi::FragmentBatch* fb) {
  for (uint32_t c = 0; c < 4; ++c)
    for (uint32_t lane = 0; lane < 8; ++lane) fb->outputs[c * 8 + lane] = kIntegerColour[c];
  fb->alive = fb->coverage;
}

// "Fragment Output Interface" into an R8G8B8A8_UINT attachment (the CTS multi_draw tests'
// format), which the loop writes without the texel codec: every pixel the quad covers holds the
// codec's encoding of the output (components clamped to the format's range) in the components
// the write mask writes, at 1 and 4 samples, blending enabled or not; the others keep
// their contents, and both draw paths write the same pixels.
TEST(BinnedDraw, EightBitUintAttachmentHoldsTheCodecsEncoding) {
  const FormatInfo* info = formatInfo(VK_FORMAT_R8G8B8A8_UINT);
  ASSERT_NE(info, nullptr);
  TexelValue value{};
  for (uint32_t c = 0; c < 4; ++c) value.u[c] = kIntegerColour[c];
  uint8_t expected[4];
  encodeTexel(*info, value, expected);
  ASSERT_EQ(expected[2], 255);  // 256 clamped
  // 1 and 4 samples; "Color Write Mask" keeping components; blending enabled, which "Blending"
  // does not apply to integer attachments.
  for (const uint32_t samples : {1u, 4u})
    for (const VkColorComponentFlags writeMask : {VkColorComponentFlags(0xF), VkColorComponentFlags(0x9)})
      for (const bool blend : {false, true}) {
        SCOPED_TRACE(testing::Message() << samples << " samples, write mask " << writeMask << ", blend " << blend);
        std::vector<uint8_t> written[2];
        for (const bool binned : {false, true}) {
          std::mt19937 rng(11);
          Scene sc = opaqueQuad(rng, samples);
          Targets t;
          t.reset(samples, rng);
          const std::vector<uint8_t> before = t.colour;
          bind(sc, t, 8, nullptr);
          sc.state.fragmentShader = integerColourKernel;
          sc.state.color[0].format = VK_FORMAT_R8G8B8A8_UINT;
          sc.state.blend[0].writeMask = writeMask;
          sc.state.blend[0].enable = blend;
          ThreadPool pool(2);
          if (binned) drawBinned(sc.state, sc.call, pool);
          else drawReference(sc.state, sc.call);
          size_t covered = 0;
          for (size_t texel = 0; texel < t.colour.size() / 4; ++texel) {
            if (std::memcmp(&t.colour[texel * 4], &before[texel * 4], 4) == 0) continue;
            ++covered;
            for (uint32_t c = 0; c < 4; ++c)
              ASSERT_EQ(t.colour[texel * 4 + c], (writeMask >> c & 1) ? expected[c] : before[texel * 4 + c])
                  << "binned " << binned << " texel " << texel << " component " << c;
          }
          EXPECT_GT(covered, 100u * samples) << "binned " << binned;
          written[binned] = t.colour;
        }
        EXPECT_EQ(written[0], written[1]);
      }
}

// Several draws into the same attachments accumulated in one Scene (draw.h: "Results are those
// of running the draws one after another through drawReference"), with opaque full-screen
// quads among them so that hidden work is dropped, and occlusion queries on some scenes.
// One render pass instance: every draw sees the same attachments in the same formats (the
// first draw's depth format) and sample count.
void asOneRenderPass(std::vector<Scene>& draws, uint32_t samples) {
  for (Scene& d : draws) {
    d.state.raster.samples = samples;
    d.depthFormat = draws[0].depthFormat;
    d.state.raster.depthFormat = draws[0].depthFormat;
  }
}

// The draws one after another on the reference path (W = 8) and as one Scene on the binned
// path at W = 4 and 16 on each pool, from the same initial targets (seeded with `seed`): the
// same colour, depth and stencil, and with `counting` the same occlusion sample count.
void expectSceneMatchesReference(std::vector<Scene>& draws, uint32_t seed, uint32_t samples, bool counting,
                                 ThreadPool (&pools)[2]) {
  Targets expected;
  std::mt19937 initRng(seed);
  expected.reset(samples, initRng);
  uint64_t expectedOcclusion = 0;
  for (Scene& d : draws) {
    bind(d, expected, 8, counting ? &expectedOcclusion : nullptr);
    drawReference(d.state, d.call);
  }
  for (uint32_t w : {4u, 16u}) {
    for (ThreadPool& pool : pools) {
      Targets got;
      std::mt19937 sameInit(seed);
      got.reset(samples, sameInit);
      uint64_t occlusion = 0;
      tessera::raster::Scene scene(pool);
      for (Scene& d : draws) {
        bind(d, got, w, counting ? &occlusion : nullptr);
        scene.add(d.state, d.call);
      }
      scene.flush();
      SCOPED_TRACE(testing::Message() << "seed " << seed << ", " << draws.size() << " draws, samples " << samples << ", W "
                                      << w << ", threads " << pool.threadCount());
      ASSERT_EQ(got.colour, expected.colour);
      ASSERT_EQ(got.depth, expected.depth);
      ASSERT_EQ(got.stencil, expected.stencil);
      ASSERT_EQ(occlusion, expectedOcclusion);
    }
  }
}

TEST(BinnedDraw, ScenesOfSeveralDrawsMatchTheReference) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(99);
  for (int iteration = 0; iteration < 30; ++iteration) {
    const uint32_t samples = iteration % 3 == 2 ? 4 : 1;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    std::vector<Scene> draws;
    const int count = 2 + int(sceneRng() % 5);
    for (int d = 0; d < count; ++d) draws.push_back(sceneRng() % 3 == 0 ? opaqueQuad(sceneRng) : generateScene(sceneRng, samples));
    asOneRenderPass(draws, samples);
    const bool counting = sceneRng() % 3 == 0;
    expectSceneMatchesReference(draws, seed, samples, counting, pools);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// Render pass load clears joined to the scene (Scene::addClear: each tile clears its part
// before its primitives, a colour clear under a primitive overwriting the whole tile not at all)
// against clearing the whole rectangles first, by plain loops here, then drawing on the
// reference path: colour, depth and stencil clears of random rectangles, then draws with
// opaque full-tile quads among them.
TEST(BinnedDraw, ClearsInTheSceneMatchClearingFirst) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(777);
  int droppedSome = 0;
  for (int iteration = 0; iteration < 30; ++iteration) {
    const uint32_t samples = iteration % 3 == 2 ? 4 : 1;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    std::vector<Scene> draws;
    const int count = 1 + int(sceneRng() % 4);
    bool opaque = false;  // some opaque quad covers every tile: the colour clear is dropped there
    for (int d = 0; d < count; ++d) {
      const bool quad = sceneRng() % 2 == 0;
      opaque = opaque || (quad && samples == 1);
      draws.push_back(quad ? opaqueQuad(sceneRng) : generateScene(sceneRng, samples));
    }
    asOneRenderPass(draws, samples);
    const uint32_t depthSize = draws[0].depthFormat == VK_FORMAT_D16_UNORM ? 2 : 4;
    // The clears: colour, depth and stencil, each over a random rectangle (or all of it).
    auto randomRect = [&]() {
      if (sceneRng() % 2) return Rect{0, 0, kWidth, kHeight};
      const int32_t x0 = int32_t(sceneRng() % kWidth), y0 = int32_t(sceneRng() % kHeight);
      return Rect{x0, y0, x0 + 1 + int32_t(sceneRng() % uint32_t(kWidth - x0)), y0 + 1 + int32_t(sceneRng() % uint32_t(kHeight - y0))};
    };
    ClearRegion clears[3];
    for (int k = 0; k < 3; ++k) {
      clears[k].rect = randomRect();
      for (uint8_t& b : clears[k].texel) b = uint8_t(sceneRng());
    }
    clears[0].colour = true;
    const float z = float(sceneRng() % 1000) / 999.0f;
    if (draws[0].depthFormat == VK_FORMAT_D32_SFLOAT) std::memcpy(clears[1].texel, &z, 4);
    const uint32_t texelSizes[3] = {4, depthSize, 1};

    auto clearByHand = [&](Targets& t) {
      std::vector<uint8_t>* planes[3] = {&t.colour, &t.depth, &t.stencil};
      for (int k = 0; k < 3; ++k)
        for (int32_t y = clears[k].rect.y0; y < clears[k].rect.y1; ++y)
          for (int32_t x = clears[k].rect.x0; x < clears[k].rect.x1; ++x)
            for (uint32_t smp = 0; smp < samples; ++smp)
              std::memcpy(&(*planes[k])[((size_t(y) * kWidth + size_t(x)) * samples + smp) * texelSizes[k]], clears[k].texel,
                          texelSizes[k]);
    };
    Targets expected;
    std::mt19937 initRng(seed);
    expected.reset(samples, initRng);
    clearByHand(expected);
    for (Scene& d : draws) {
      bind(d, expected, 8, nullptr);
      drawReference(d.state, d.call);
    }
    for (uint32_t w : {4u, 16u}) {
      for (ThreadPool& pool : pools) {
        Targets got;
        std::mt19937 sameInit(seed);
        got.reset(samples, sameInit);
        bind(draws[0], got, w, nullptr);
        clears[0].target = draws[0].state.color[0];
        clears[1].target = draws[0].state.depth;
        clears[2].target = draws[0].state.stencil;
        tessera::raster::Scene scene(pool);
        for (const ClearRegion& c : clears) scene.addClear(c, Rect{0, 0, kWidth, kHeight});
        for (Scene& d : draws) {
          bind(d, got, w, nullptr);
          scene.add(d.state, d.call);
        }
        scene.flush();
        SCOPED_TRACE(testing::Message() << "seed " << seed << ", " << count << " draws, samples " << samples << ", W " << w
                                        << ", threads " << pool.threadCount());
        ASSERT_EQ(got.colour, expected.colour);
        ASSERT_EQ(got.depth, expected.depth);
        ASSERT_EQ(got.stencil, expected.stencil);
      }
    }
    droppedSome += opaque;
  }
  EXPECT_GE(droppedSome, 5);
}

// Large triangles drawn nearest first (for the compare ops LESS and LESS_OR_EQUAL increasing
// depth, for GREATER and GREATER_OR_EQUAL decreasing, either for the others), each vertex's
// depth jittered within the triangle's layer, many layers deep over the target: most later triangles lie wholly behind the earlier
// ones, the case the block walker's hierarchical Z (raster/tile_depth_bounds.h) drops whole.
// Early depth test without stencil: the pipelines it serves.
Scene occluders(std::mt19937& rng, VkCompareOp op, uint32_t samples) {
  Scene sc = opaqueQuad(rng, samples);
  sc.vertices.clear();
  DrawState& s = sc.state;
  s.depthTest = true;
  s.depthWrite = rng() % 4 != 0;
  s.depthCompare = op;
  const bool increasing = s.depthCompare == VK_COMPARE_OP_LESS || s.depthCompare == VK_COMPARE_OP_LESS_OR_EQUAL ||
                          (s.depthCompare != VK_COMPARE_OP_GREATER && s.depthCompare != VK_COMPARE_OP_GREATER_OR_EQUAL && rng() % 2);
  const bool equalW = rng() % 2 == 0;
  const int n = 60 + int(rng() % 60);  // about 8 layers over the target
  for (int i = 0; i < n; ++i) {
    const float cx = uniform(rng, -1, 1), cy = uniform(rng, -1, 1);
    const float layer = (float(i) + 1) / float(n + 2);
    for (int k = 0; k < 3; ++k) {
      const float z = (increasing ? layer : 1 - layer) + uniform(rng, -0.5f, 0.5f) / float(n + 2);
      // One draw a line: the order of a call's arguments is unspecified.
      const float x = cx + uniform(rng, -0.9f, 0.9f);
      const float y = cy + uniform(rng, -0.9f, 0.9f);
      const float w = equalW ? 1.0f : uniform(rng, 0.5f, 2);
      addVertex(sc, rng, x, y, z, w);
    }
  }
  // Every flat-depth shortcut too (SetupTriangle::flatDepth): a third of the draws' triangles
  // each at one depth.
  if (rng() % 3 == 0)
    for (size_t v = 0; v < sc.vertices.size(); v += 24)
      for (size_t k : {v + 8, v + 16}) sc.vertices[k + 2] = sc.vertices[v + 2] / sc.vertices[v + 3] * sc.vertices[k + 3];
  s.raster.depthBiasEnable = rng() % 4 == 0;
  s.blend[0].enable = rng() % 2;
  sc.call.vertexCount = uint32_t(n * 3);
  return sc;
}

// The hierarchical Z drops only what the depth test would reject: scenes of occluders (every
// compare op, with and without depth writes), random draws of every other kind among them
// (lines, points, stencil, discard: paths that write depth without it), and depth clears
// between draws (what the bounds computed before them no longer describe), against the
// reference path drawing and clearing one after another ("Depth Test").
TEST(BinnedDraw, DepthBoundsDropOnlyWhatTheDepthTestRejects) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(31337);
  int clearedBetween = 0;
  for (int iteration = 0; iteration < 32; ++iteration) {
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    std::vector<Scene> draws;
    const int count = 2 + int(sceneRng() % 3);
    const uint32_t samples = iteration % 4 == 1 ? 4 : 1;  // (D32 iterations)
    // The iteration's compare op for most occluders (all eight in turn), a random one for a
    // third: bounds computed under one op and written under another.
    const VkCompareOp op = VkCompareOp(iteration % 8);
    for (int d = 0; d < count; ++d) {
      if (d > 0 && sceneRng() % 3 == 0) {
        // A draw of any other kind that writes whatever depth it has (compare ALWAYS) through a
        // path that does not keep the bounds (lines, points, stencil, discard, FragDepth).
        draws.push_back(generateScene(sceneRng, samples));
        DrawState& other = draws.back().state;
        other.depthTest = other.depthWrite = true;
        other.depthCompare = VK_COMPARE_OP_ALWAYS;
        other.depthBoundsTest = false;
      } else {
        draws.push_back(occluders(sceneRng, sceneRng() % 3 == 0 ? VkCompareOp(sceneRng() % 8) : op, samples));
      }
    }
    asOneRenderPass(draws, samples);
    // D32_SFLOAT of 1 or 4 samples, single-sample D24 and D16: the block test's formats.
    const VkFormat formats[4] = {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT, VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D16_UNORM};
    const VkFormat format = formats[iteration % 4];
    const uint32_t texelSize = format == VK_FORMAT_D16_UNORM ? 2 : 4;
    for (Scene& d : draws) d.depthFormat = d.state.raster.depthFormat = format;
    // A depth clear before draw `clearAt` (none when it is 0; mostly there is one): to the depth
    // every later fragment passes against (the far plane for LESS, the near one for GREATER,
    // which bounds computed before the clear would reject) or a random one, over a random
    // rectangle or all of it.
    const int clearAt = sceneRng() % 4 == 0 ? 0 : 1 + int(sceneRng() % uint32_t(count - 1));
    ClearRegion clear;
    clear.rect = sceneRng() % 2 ? Rect{0, 0, kWidth, kHeight}
                                : Rect{int32_t(sceneRng() % 100), int32_t(sceneRng() % 70), kWidth - int32_t(sceneRng() % 100),
                                       kHeight - int32_t(sceneRng() % 70)};
    const bool greater = op == VK_COMPARE_OP_GREATER || op == VK_COMPARE_OP_GREATER_OR_EQUAL;
    const float clearDepth = sceneRng() % 4 == 0 ? uniform(sceneRng, 0, 1) : greater ? 0.0f : 1.0f;
    if (format == VK_FORMAT_D32_SFLOAT) {
      std::memcpy(clear.texel, &clearDepth, 4);
    } else {
      const uint32_t c = floatToUnorm(clearDepth, format == VK_FORMAT_D16_UNORM ? 65535.0 : 16777215.0);
      std::memcpy(clear.texel, &c, texelSize);
    }
    clearedBetween += clearAt > 0;

    Targets expected;
    std::mt19937 initRng(seed);
    expected.reset(samples, initRng);
    for (int d = 0; d < count; ++d) {
      if (d == clearAt && d > 0)
        for (int32_t y = clear.rect.y0; y < clear.rect.y1; ++y)
          for (int32_t x = clear.rect.x0; x < clear.rect.x1; ++x)
            for (uint32_t smp = 0; smp < samples; ++smp)
              std::memcpy(&expected.depth[((size_t(y) * kWidth + size_t(x)) * samples + smp) * texelSize], clear.texel, texelSize);
      bind(draws[size_t(d)], expected, 8, nullptr);
      drawReference(draws[size_t(d)].state, draws[size_t(d)].call);
    }
    for (uint32_t w : {4u, 16u}) {
      for (ThreadPool& pool : pools) {
        Targets got;
        std::mt19937 sameInit(seed);
        got.reset(samples, sameInit);
        tessera::raster::Scene scene(pool);
        for (int d = 0; d < count; ++d) {
          bind(draws[size_t(d)], got, w, nullptr);
          if (d == clearAt && d > 0) {
            clear.target = draws[size_t(d)].state.depth;
            scene.addClear(clear, Rect{0, 0, kWidth, kHeight});
          }
          scene.add(draws[size_t(d)].state, draws[size_t(d)].call);
        }
        scene.flush();
        SCOPED_TRACE(testing::Message() << "seed " << seed << ", format " << format << ", samples " << samples << ", " << count
                                        << " draws, clear before "
                                        << clearAt << ", W " << w
                                        << ", threads " << pool.threadCount());
        ASSERT_EQ(got.colour, expected.colour);
        ASSERT_EQ(got.depth, expected.depth);
        ASSERT_EQ(got.stencil, expected.stencil);
      }
    }
  }
  EXPECT_GE(clearedBetween, 12);
}

// Opaque quads, each drawn as two triangles, that hide the tiles they cover (draw_binned.cpp's
// pairCoversRect: neither triangle alone covers a tile on the quad's diagonal): rectangles
// whose sides lie on or a sub-pixel beside tile edges, split along either diagonal with either
// winding; rotated and random (convex or not) quads; and folded pairs, whose second triangle
// lies on the same side of the shared edge as the first, so that the pair leaves a gap. Earlier
// draws of random colours show any sample dropped under a pair that does not cover it.
Scene opaqueQuads(std::mt19937& rng, uint32_t samples) {
  Scene sc = opaqueQuad(rng, samples);
  sc.vertices.clear();
  auto ndcX = [](float px) { return px * 2.0f / float(kWidth) - 1.0f; };
  auto ndcY = [](float px) { return px * 2.0f / float(kHeight) - 1.0f; };
  const float z = uniform(rng, 0, 1);
  const int quads = 1 + int(rng() % 4);
  for (int q = 0; q < quads; ++q) {
    float corner[4][2];  // in pixels: (x0,y0) (x1,y0) (x1,y1) (x0,y1), around the quad
    const int kind = int(rng() % 4);
    if (kind <= 1) {
      // Sides on a tile edge (64 pixels), or 1/256 or half a pixel inside or outside it.
      const float nudges[5] = {0.0f, 1.0f / 256, -1.0f / 256, 0.5f, -0.5f};
      auto side = [&](int limit) { return float(64 * int(rng() % uint32_t(limit / 64 + 2))) + nudges[rng() % 5]; };
      float x0 = side(kWidth) - 64, x1 = side(kWidth), y0 = side(kHeight) - 64, y1 = side(kHeight);
      if (x1 <= x0) x1 = x0 + 64;
      if (y1 <= y0) y1 = y0 + 64;
      const float rect[4][2] = {{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}};
      std::memcpy(corner, rect, sizeof corner);
      if (kind == 1) {  // rotated by a few degrees about its centre
        const float a = uniform(rng, -0.2f, 0.2f), cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
        for (auto& c : corner) {
          const float dx = c[0] - cx, dy = c[1] - cy;
          c[0] = cx + dx * std::cos(a) - dy * std::sin(a), c[1] = cy + dx * std::sin(a) + dy * std::cos(a);
        }
      }
    } else {  // anywhere, convex or not
      for (auto& c : corner) c[0] = uniform(rng, -60, kWidth + 60), c[1] = uniform(rng, -60, kHeight + 60);
    }
    // The two triangles share the diagonal from corner d to corner d + 2 (apexes d + 1 and
    // d + 3), each with either winding. A folded pair's second apex is moved to the first
    // apex's side of the diagonal (halfway from the diagonal's midpoint to the first apex).
    const int d = int(rng() % 2), apex = (d + 3) % 4;
    int first[3] = {d, d + 1, d + 2}, second[3] = {d + 2, apex, d};
    if (rng() % 2) std::swap(first[0], first[1]);
    if (rng() % 2) std::swap(second[0], second[2]);
    const bool folded = kind == 3 && rng() % 2;
    const float midX = (corner[d][0] + corner[d + 2][0]) / 2, midY = (corner[d][1] + corner[d + 2][1]) / 2;
    for (const int* tri : {first, second})
      for (int k = 0; k < 3; ++k) {
        float px = corner[tri[k]][0], py = corner[tri[k]][1];
        if (folded && tri == second && tri[k] == apex)
          px = midX + (corner[d + 1][0] - midX) / 2, py = midY + (corner[d + 1][1] - midY) / 2;
        addVertex(sc, rng, ndcX(px), ndcY(py), z, 1);
      }
  }
  if (rng() % 3 == 0)
    sc.state.raster.scissor = {int32_t(rng() % 64), int32_t(rng() % 64), kWidth - int32_t(rng() % 64), kHeight - int32_t(rng() % 64)};
  sc.call.vertexCount = uint32_t(sc.vertices.size() / 8);
  return sc;
}

TEST(BinnedDraw, QuadsOfTwoTrianglesHideOnlyWhatTheyCover) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(20261130);
  for (int iteration = 0; iteration < 60; ++iteration) {
    // 1 and 4 samples (the block walker's counts) most often; every sixth scene 2, 8 or 16 (the
    // quad walker's, "Multisampling").
    constexpr uint32_t kOtherCounts[3] = {2, 8, 16};
    const uint32_t samples = iteration % 6 == 1 ? kOtherCounts[iteration / 6 % 3] : iteration % 3 == 2 ? 4 : 1;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    std::vector<Scene> draws;
    draws.push_back(generateScene(sceneRng, samples));
    const int count = 2 + int(sceneRng() % 3);
    for (int d = 0; d < count; ++d) draws.push_back(opaqueQuads(sceneRng, samples));
    asOneRenderPass(draws, samples);
    expectSceneMatchesReference(draws, seed, samples, /*counting=*/false, pools);
    if (testing::Test::HasFatalFailure()) return;
  }
}

// Large quads of a flat colour through the JIT's kernel with no query, test or interpolated
// input: the walker's whole 16x16 squares then run the kernel alone, block after block
// (FragmentStage::shadeKernelOnlySquare), which must give the reference's pixels, blended
// ("Blending": SRC_ALPHA, ONE_MINUS_SRC_ALPHA) or not, R8G8B8A8 and B8G8R8A8, 1 and 4 samples,
// at W = 4, 8 and 16 on 1, 2 and 5 threads.
TEST(BinnedDraw, FlatQuadsShadedByTheKernelAloneMatchTheReference) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::mt19937 rng(20261201);
  int drawn = 0, changed = 0;
  for (int iteration = 0; iteration < 12; ++iteration) {
    const uint32_t samples = iteration % 3 == 2 ? 4 : 1;
    const VkFormat colourFormat = iteration / 2 % 2 ? VK_FORMAT_B8G8R8A8_UNORM : VK_FORMAT_R8G8B8A8_UNORM;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene scene = opaqueQuads(sceneRng, samples);
    DrawState& s = scene.state;
    s.fragment.inputInterpolation[0] = 2;  // flat: nothing to interpolate per block
    s.fragment.centroidInputs = false;
    s.raster.scissor = {0, 0, kWidth, kHeight};
    BlendAttachment& b = s.blend[0];
    b.enable = iteration % 2 == 0;
    b.srcColor = b.srcAlpha = VK_BLEND_FACTOR_SRC_ALPHA;
    b.dstColor = b.dstAlpha = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
    b.colorOp = b.alphaOp = VK_BLEND_OP_ADD;
    changed += expectJitSceneMatchesReference(scene, seed, samples, colourFormat, /*counting=*/false,
                                              /*otherStateAtW8=*/false, pools, drawn);
    if (testing::Test::HasFailure()) return;
  }
  EXPECT_EQ(drawn, 12 * 9);
  EXPECT_EQ(changed, 12);
}

// "Sample Counting" with the EarlyFragmentTests execution mode ("Early Fragment Test Mode"):
// fragment shading and multisample coverage "should instead be performed after sample
// counting", so a shader whose SampleMask output kills every sample still counts the samples
// that passed the early depth test; without the mode the samples its SampleMask removes are
// not counted. Through both paths, 1 and 4 samples, W = 4 and 16, with a depth test that the
// whole quad passes and one that half of the samples (those behind a stored depth) fail.
template <uint32_t W>
void sampleMaskKillingFragment(abi::FragmentBatch* b) {
  b->alive = b->coverage;
  for (uint32_t lane = 0; lane < W; ++lane) {
    b->sampleMask[lane] = 0;
    for (uint32_t c = 0; c < 4; ++c) b->outputs[c * W + lane] = b->inputs[c * W + lane];
  }
}

TEST(BinnedDraw, EarlyFragmentTestsCountSamplesBeforeTheShadersSampleMask) {
  ThreadPool pool(2);
  std::mt19937 rng(30);
  for (uint32_t samples : {1u, 4u})
    for (bool early : {false, true})
      for (bool halfBehind : {false, true}) {
        Scene sc = opaqueQuad(rng, samples);
        sc.state.raster.samples = samples;
        sc.depthFormat = sc.state.raster.depthFormat = VK_FORMAT_D32_SFLOAT;
        DrawState& s = sc.state;
        s.depthTest = true;
        s.depthWrite = false;
        s.depthCompare = VK_COMPARE_OP_LESS_OR_EQUAL;
        s.fragment.writesSampleMask = true;
        s.fragment.earlyFragmentTests = early;
        // The quad's depth is z; rows in the lower half of the target hold a smaller depth.
        const float z = 0.5f;
        for (size_t v = 0; v < sc.vertices.size(); v += 8) sc.vertices[v + 2] = z;
        for (bool binned : {false, true})
          for (uint32_t w : {4u, 16u}) {
            Targets t;
            t.reset(samples, rng);
            for (int32_t y = 0; y < kHeight; ++y)
              for (int32_t x = 0; x < kWidth; ++x)
                for (uint32_t smp = 0; smp < samples; ++smp) {
                  const float stored = halfBehind && y >= kHeight / 2 ? 0.25f : 1.0f;
                  std::memcpy(&t.depth[((size_t(y) * kWidth + size_t(x)) * samples + smp) * 4], &stored, 4);
                }
            uint64_t counted = 0;
            bind(sc, t, w, &counted);
            s.fragmentShader = w == 4 ? sampleMaskKillingFragment<4> : sampleMaskKillingFragment<16>;
            if (binned) drawBinned(s, sc.call, pool);
            else drawReference(s, sc.call);
            const uint64_t passing = uint64_t(kWidth) * uint64_t(halfBehind ? kHeight / 2 : kHeight) * samples;
            EXPECT_EQ(counted, early ? passing : 0u) << "samples " << samples << " early " << early << " half behind "
                                                     << halfBehind << " binned " << binned << " W " << w;
          }
      }
}

// A render pass's multisample resolves joined to the scene (Scene::addResolve: each tile
// resolves its part after its primitives) against resolving the whole area afterwards
// (resolveAttachment, "Multisample resolve operations") of the same draws on the reference path:
// colour AVERAGE and depth SAMPLE_ZERO, MIN or MAX over random render areas; in half of the
// scenes a later clear and an opaque quad covering every tile follow the resolve in the same
// scene, and must not drop the draws the resolve reads.
TEST(BinnedDraw, ResolvesInTheSceneMatchResolvingAfterwards) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(4242);
  constexpr uint32_t kSamples = 4;
  const VkResolveModeFlagBits depthModes[3] = {VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, VK_RESOLVE_MODE_MIN_BIT,
                                               VK_RESOLVE_MODE_MAX_BIT};
  for (int iteration = 0; iteration < 16; ++iteration) {
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    std::vector<Scene> draws;
    const int count = 1 + int(sceneRng() % 3);
    for (int d = 0; d < count; ++d) draws.push_back(generateScene(sceneRng, kSamples));
    for (Scene& d : draws) d.depthFormat = VK_FORMAT_D32_SFLOAT, d.state.raster.depthFormat = VK_FORMAT_D32_SFLOAT;
    const bool coverAfterwards = iteration % 2 == 1;
    Scene cover = opaqueQuad(sceneRng, kSamples);
    cover.state.raster.samples = kSamples;
    const int32_t x0 = int32_t(sceneRng() % (kWidth / 2)), y0 = int32_t(sceneRng() % (kHeight / 2));
    const Rect area = iteration % 3 == 0 ? Rect{0, 0, kWidth, kHeight}
                                         : Rect{x0, y0, x0 + 1 + int32_t(sceneRng() % uint32_t(kWidth - x0)),
                                                y0 + 1 + int32_t(sceneRng() % uint32_t(kHeight - y0))};
    const VkResolveModeFlagBits depthMode = depthModes[iteration % 3];
    ClearRegion clear;
    clear.rect = Rect{0, 0, kWidth, kHeight};
    clear.colour = true;
    for (uint8_t& b : clear.texel) b = uint8_t(sceneRng());

    // Single-sample resolve targets, filled with a pattern outside the area.
    struct Resolved {
      std::vector<uint8_t> colour = std::vector<uint8_t>(size_t(kWidth) * kHeight * 4, 0x5A);
      std::vector<uint8_t> depth = std::vector<uint8_t>(size_t(kWidth) * kHeight * 4, 0x3C);
    };
    auto resolveViews = [&](Resolved& r) {
      return std::pair{view(r.colour, VK_FORMAT_R8G8B8A8_UNORM, 4, 1), view(r.depth, VK_FORMAT_D32_SFLOAT, 4, 1)};
    };
    Targets expected;
    std::mt19937 initRng(seed);
    expected.reset(kSamples, initRng);
    Resolved expectedResolved;
    for (Scene& d : draws) {
      bind(d, expected, 8, nullptr);
      drawReference(d.state, d.call);
    }
    {
      const auto [colour, depth] = resolveViews(expectedResolved);
      resolveAttachment(draws[0].state.color[0], colour, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, area, 1);
      resolveAttachment(draws[0].state.depth, depth, VK_IMAGE_ASPECT_DEPTH_BIT, depthMode, area, 1);
    }
    if (coverAfterwards) {
      bind(cover, expected, 8, nullptr);
      for (size_t texel = 0; texel < expected.colour.size() / 4; ++texel) std::memcpy(&expected.colour[texel * 4], clear.texel, 4);
      drawReference(cover.state, cover.call);
    }
    for (uint32_t w : {4u, 16u}) {
      for (ThreadPool& pool : pools) {
        Targets got;
        std::mt19937 sameInit(seed);
        got.reset(kSamples, sameInit);
        Resolved gotResolved;
        tessera::raster::Scene scene(pool);
        for (Scene& d : draws) {
          bind(d, got, w, nullptr);
          scene.add(d.state, d.call);
        }
        const auto [colour, depth] = resolveViews(gotResolved);
        scene.addResolve({draws[0].state.color[0], colour, VK_IMAGE_ASPECT_COLOR_BIT, VK_RESOLVE_MODE_AVERAGE_BIT, area},
                         Rect{0, 0, kWidth, kHeight});
        scene.addResolve({draws[0].state.depth, depth, VK_IMAGE_ASPECT_DEPTH_BIT, depthMode, area}, Rect{0, 0, kWidth, kHeight});
        EXPECT_FALSE(scene.onlyClears());
        if (coverAfterwards) {
          bind(cover, got, w, nullptr);
          clear.target = cover.state.color[0];
          scene.addClear(clear, Rect{0, 0, kWidth, kHeight});
          scene.add(cover.state, cover.call);
        }
        scene.flush();
        SCOPED_TRACE(testing::Message() << "seed " << seed << ", " << count << " draws, W " << w << ", threads "
                                        << pool.threadCount() << ", cover " << coverAfterwards);
        ASSERT_EQ(gotResolved.colour, expectedResolved.colour);
        ASSERT_EQ(gotResolved.depth, expectedResolved.depth);
        ASSERT_EQ(got.colour, expected.colour);
        ASSERT_EQ(got.depth, expected.depth);
      }
    }
  }
}

// A scene of clears alone hands them back in order (Scene::onlyClears/takeClears: the driver
// then fills whole rectangles at once) and is empty afterwards; a draw among them makes the
// tiles do the clears.
TEST(BinnedDraw, ClearsWithoutDrawsAreHandedBack) {
  ThreadPool pool(2);
  std::mt19937 rng(5);
  Scene draw = opaqueQuad(rng);
  Targets t;
  t.reset(1, rng);
  bind(draw, t, 8, nullptr);
  tessera::raster::Scene scene(pool);
  ClearRegion a, b;
  a.target = draw.state.color[0];
  a.rect = Rect{0, 0, 10, 10};
  a.texel[0] = 1;
  b.target = draw.state.depth;
  b.rect = Rect{5, 5, 20, 30};
  b.texel[0] = 2;
  EXPECT_FALSE(scene.onlyClears());
  scene.addClear(a, Rect{0, 0, kWidth, kHeight});
  scene.addClear(b, Rect{0, 0, kWidth, kHeight});
  ASSERT_TRUE(scene.onlyClears());
  const std::vector<ClearRegion> clears = scene.takeClears();
  ASSERT_EQ(clears.size(), 2u);
  EXPECT_EQ(clears[0].texel[0], 1);
  EXPECT_EQ(clears[1].texel[0], 2);
  EXPECT_EQ(clears[1].rect.y1, 30);
  EXPECT_TRUE(scene.empty());
  scene.addClear(a, Rect{0, 0, kWidth, kHeight});
  scene.add(draw.state, draw.call);
  EXPECT_FALSE(scene.onlyClears());
  scene.flush();
  EXPECT_TRUE(scene.empty());
}

// "Basic Polygon Rasterization": the tie-breaking rule makes a mesh watertight. A jittered grid
// covering the whole framebuffer, drawn with stencil INCREMENT_AND_WRAP: every sample ends at 1.
TEST(BinnedDraw, SharedEdgesCoverEverySampleOnce) {
  for (uint32_t samples : {1u, 4u}) {
    for (uint32_t threads : {1u, 2u, 5u}) {
      ThreadPool pool(threads);
      std::mt19937 rng(samples * 10 + threads);
      Scene sc;
      generateGeometry(sc, rng, 0);
      DrawState& s = sc.state;
      s.vertexOutputComponents[0] = 4;
      s.fragment.inputComponents[0] = 4;
      s.fragment.colorOutputs = 1;
      s.attributeCount = 2;
      s.attributes[0] = {0, 0, 0, VK_FORMAT_R32G32B32A32_SFLOAT};
      s.attributes[1] = {1, 0, 16, VK_FORMAT_R32G32B32A32_SFLOAT};
      s.raster.samples = samples;
      s.raster.viewport = {0, 0, float(kWidth), float(kHeight), 0, 1};
      s.raster.scissor = {0, 0, kWidth, kHeight};
      s.renderArea = {0, 0, kWidth, kHeight};
      s.stencilTest = true;
      s.stencilFront.passOp = s.stencilBack.passOp = VK_STENCIL_OP_INCREMENT_AND_WRAP;
      s.colorCount = 1;
      sc.call.vertexCount = uint32_t(sc.indices.size());
      Targets t;
      t.samples = samples;
      t.colour.assign(size_t(kWidth) * kHeight * samples * 4, 0);
      t.depth.assign(size_t(kWidth) * kHeight * samples * 4, 0);
      t.stencil.assign(size_t(kWidth) * kHeight * samples, 0);
      uint64_t occlusion = 0;
      bind(sc, t, 8, &occlusion);
      drawBinned(sc.state, sc.call, pool);
      for (size_t i = 0; i < t.stencil.size(); ++i)
        ASSERT_EQ(t.stencil[i], 1) << "sample " << i % samples << " of pixel (" << (i / samples) % kWidth << ", "
                                   << (i / samples) / kWidth << "), " << threads << " threads";
      EXPECT_EQ(occlusion, uint64_t(kWidth) * kHeight * samples);
    }
  }
}

// An indexed mesh shades each distinct vertex once: the vertex kernel counts its invocations.
std::atomic<uint32_t> gVertexInvocations{0};
template <uint32_t W>
void countingVertex(abi::VertexBatch* b) {
  gVertexInvocations += b->count;
  passThroughVertex<W>(b);
}

TEST(BinnedDraw, IndexedDrawShadesEachVertexOnce) {
  std::mt19937 rng(3);
  Scene sc;
  generateGeometry(sc, rng, 0);
  const uint32_t distinct = uint32_t(sc.vertices.size() / 8);
  Scene plain = generateScene(rng, 1);  // for its state only
  sc.state = plain.state;
  sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
  sc.state.primitiveRestart = false;
  sc.call = DrawCall{};
  sc.call.indexed = true;
  sc.call.vertexCount = uint32_t(sc.indices.size());
  Targets t;
  std::mt19937 initRng(1);
  t.reset(1, initRng);
  uint64_t occlusion = 0;
  bind(sc, t, 8, &occlusion);
  sc.state.vertexShader = countingVertex<8>;
  gVertexInvocations = 0;
  drawBinned(sc.state, sc.call, ThreadPool::shared());
  EXPECT_EQ(gVertexInvocations.load(), distinct);
  EXPECT_GT(sc.call.vertexCount, distinct * 2);
}

// A generated scene's state with its geometry removed, for tests that supply their own: filled
// polygons, the colour written without blending, every sample kept, no discard, stencil test or
// FragDepth, a depth test that can pass and not every face culled, so that every primitive can
// change the image.
Scene visibleDrawScene(std::mt19937& rng) {
  Scene sc = generateScene(rng, 1, 1);
  sc.vertices.clear();
  sc.indices.clear();
  sc.state.polygonMode = VK_POLYGON_MODE_FILL;
  sc.state.blend[0].writeMask = 0xF;
  sc.state.blend[0].enable = false;
  sc.state.sampleMask = ~0u;
  sc.discard = sc.state.fragment.canDiscard = sc.state.fragment.writesFragDepth = false;
  if (sc.state.depthCompare == VK_COMPARE_OP_NEVER || sc.state.depthCompare == VK_COMPARE_OP_EQUAL)
    sc.state.depthCompare = VK_COMPARE_OP_ALWAYS;
  sc.state.stencilTest = false;
  if (sc.state.raster.cullMode == VK_CULL_MODE_FRONT_AND_BACK) sc.state.raster.cullMode = VK_CULL_MODE_NONE;
  return sc;
}

// Targets reset from `seed` (Targets::reset) and the scene drawn into them by the reference path
// (no pool) or the binned path on `pool`, its occlusion query counting into *occlusion.
Targets drawnInto(Scene& sc, uint32_t seed, ThreadPool* pool, uint64_t* occlusion) {
  Targets got;
  std::mt19937 init(seed);
  got.reset(1, init);
  *occlusion = 0;
  bind(sc, got, 8, occlusion);
  if (pool) drawBinned(sc.state, sc.call, *pool);
  else drawReference(sc.state, sc.call);
  return got;
}

// Draws too large for one set-up chunk (2,048 primitives), instanced, in every topology the set-up tasks assemble themselves (no
// restart, no stipple: primitive p made from p) and in the two they do not (restart, stippled
// lines), indexed or not: the binned path against the reference at 1, 2 and 5 threads.
TEST(BinnedDraw, LargeInstancedDrawsMatchTheReferenceInEveryTopology) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  const VkPrimitiveTopology topologies[] = {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                                            VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
  std::mt19937 rng(20261130);
  int variant = 0, changed = 0;
  for (const VkPrimitiveTopology topology : topologies)
    for (const bool indexed : {false, true}) {
      const uint32_t seed = uint32_t(rng());
      std::mt19937 sceneRng(seed);
      Scene sc = visibleDrawScene(sceneRng);
      sc.state.topology = topology;
      sc.state.raster.lineStippleEnable = variant % 4 == 3;  // the serial assembly
      // Flat shading (2) with each provoking vertex mode, among others.
      sc.state.provokingVertexLast = variant % 4 >= 2;
      sc.state.fragment.inputInterpolation[0] = uint8_t(variant % 3);
      // Small primitives: vertices in clusters of three (a fan's around one centre), so that
      // strips and fans stay small too.
      const bool fan = topology == VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN;
      const uint32_t vertices = 2600 + uint32_t(sceneRng() % 600);
      float cx = uniform(sceneRng, -0.5f, 0.5f), cy = uniform(sceneRng, -0.5f, 0.5f);
      for (uint32_t v = 0; v < vertices; ++v) {
        if (v % 3 == 0 && !fan) cx = uniform(sceneRng, -1, 1), cy = uniform(sceneRng, -1, 1);
        addVertex(sc, sceneRng, cx + uniform(sceneRng, -0.06f, 0.06f), cy + uniform(sceneRng, -0.06f, 0.06f),
                  uniform(sceneRng, 0, 1), uniform(sceneRng, 0.5f, 2));
      }
      sc.call = DrawCall{};
      sc.call.instanceCount = 3;
      sc.call.indexed = indexed;
      if (indexed) {
        // Positions naming nearby vertices (each about twice), some restarts when enabled.
        sc.state.primitiveRestart = variant % 5 == 2;
        for (uint32_t i = 0; i < 2 * vertices; ++i)
          sc.indices.push_back(sc.state.primitiveRestart && sceneRng() % 200 == 0 ? 0xFFFFFFFFu
                                                                                  : (i / 2 + uint32_t(sceneRng() % 3)) % vertices);
        sc.call.vertexCount = uint32_t(sc.indices.size());
      } else {
        sc.state.primitiveRestart = false;
        sc.call.vertexCount = vertices;
      }
      ++variant;
      uint64_t expectedOcclusion = 0;
      const Targets expected = drawnInto(sc, seed, nullptr, &expectedOcclusion);
      {
        Targets initial;
        std::mt19937 sameInit(seed);
        initial.reset(1, sameInit);
        changed += initial.colour != expected.colour;
      }
      for (ThreadPool& pool : pools) {
        uint64_t occlusion = 0;
        const Targets got = drawnInto(sc, seed, &pool, &occlusion);
        SCOPED_TRACE(testing::Message() << "seed " << seed << ", topology " << topology << ", indexed " << indexed
                                        << ", restart " << sc.state.primitiveRestart << ", stipple "
                                        << sc.state.raster.lineStippleEnable << ", threads " << pool.threadCount());
        ASSERT_EQ(got.colour, expected.colour);
        ASSERT_EQ(got.depth, expected.depth);
        ASSERT_EQ(got.stencil, expected.stencil);
        ASSERT_EQ(occlusion, expectedOcclusion);
      }
    }
  EXPECT_EQ(changed, 12);
}


// Set-up bins a chunk of small primitives as copies of their records, one per tile touched, and
// a chunk whose primitives touch many tiles each as indices into its records (draw_binned.cpp,
// Chunk::copied). One draw of 2,048 tiny triangles (one chunk of copies) followed by 2,048
// triangles spanning the target (one chunk of indices) and a tail of tiny ones again: the binned
// path against the reference at 1, 2 and 5 threads, so that tiles read both kinds of chunk in
// one scene, in order.
TEST(BinnedDraw, ChunksOfCopiedAndIndexedBinEntriesMatchTheReference) {
  ThreadPool pools[3] = {ThreadPool(1), ThreadPool(2), ThreadPool(5)};
  std::mt19937 rng(20261202);
  for (int round = 0; round < 4; ++round) {
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene sc = visibleDrawScene(sceneRng);
    sc.state.topology = VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST;
    sc.state.raster.cullMode = VK_CULL_MODE_NONE;
    auto tiny = [&](uint32_t count) {
      for (uint32_t t = 0; t < count; ++t) {
        const float cx = uniform(sceneRng, -1, 1), cy = uniform(sceneRng, -1, 1);
        for (int k = 0; k < 3; ++k)
          addVertex(sc, sceneRng, cx + uniform(sceneRng, -0.04f, 0.04f), cy + uniform(sceneRng, -0.04f, 0.04f),
                    uniform(sceneRng, 0, 1), uniform(sceneRng, 0.5f, 2));
      }
    };
    tiny(2048);
    for (uint32_t t = 0; t < 2048; ++t)
      for (int k = 0; k < 3; ++k)
        addVertex(sc, sceneRng, uniform(sceneRng, -1.5f, 1.5f), uniform(sceneRng, -1.5f, 1.5f), uniform(sceneRng, 0, 1),
                  uniform(sceneRng, 0.5f, 2));
    tiny(700);
    sc.call = DrawCall{};
    sc.call.vertexCount = 3 * (2048 + 2048 + 700);
    uint64_t expectedOcclusion = 0;
    const Targets expected = drawnInto(sc, seed, nullptr, &expectedOcclusion);
    for (ThreadPool& pool : pools) {
      uint64_t occlusion = 0;
      const Targets got = drawnInto(sc, seed, &pool, &occlusion);
      SCOPED_TRACE(testing::Message() << "seed " << seed << ", threads " << pool.threadCount());
      ASSERT_EQ(got.colour, expected.colour);
      ASSERT_EQ(got.depth, expected.depth);
      ASSERT_EQ(occlusion, expectedOcclusion);
    }
  }
}

}  // namespace
}  // namespace tessera::raster
