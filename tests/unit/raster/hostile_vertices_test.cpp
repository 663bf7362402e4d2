// Rasterizer extremes (issue 14, "the rest of the bad-input suite"): vertices at ±1e30, ±Inf and
// NaN, w near 0 on either side, w exactly 0, viewports up to 16384 x 16384 placed far off the
// attachment, slivers of zero and near-zero area, for triangles (filled and in polygon mode
// LINE), lines in every VK_EXT_line_rasterization mode (wide ones too) and points (of sizes
// NaN, ±Inf, 0, negative and huge too). Whatever the
// rules make of such input, a draw may write only inside its scissor: every byte outside the
// scissor keeps its value, the guard bytes around each attachment stay as they were (and an
// ASan build sees every access), the binned path gives the reference's bytes at every W and
// thread count, and nothing hangs or crashes. ("Primitive Clipping": clipping keeps what is
// drawn inside the view volume, and "Scissor Test" discards every fragment outside the
// scissor; neither lets coordinates the clipper could not bound reach memory.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "tessera/draw.h"
#include "tessera/thread_pool.h"

namespace tessera::raster {
namespace {

constexpr int kWidth = 97, kHeight = 71;  // partial tiles on both edges
constexpr size_t kGuard = 4096;           // bytes before and after each attachment
constexpr uint8_t kGuardByte = 0xA5;

// Clip position from location 0 and a colour from location 1, whose alpha is also the point
// size (hostile scenes give it NaN, Inf, 0, negative and huge values too).
template <uint32_t W>
void passThroughVertex(abi::VertexBatch* b) {
  for (uint32_t lane = 0; lane < b->count; ++lane) {
    for (uint32_t c = 0; c < 4; ++c) {
      std::memcpy(&b->position[c * W + lane], &b->inputs[(0 * 4 + c) * W + lane], 4);
      b->outputs[(0 * 4 + c) * W + lane] = b->inputs[(1 * 4 + c) * W + lane];
    }
    std::memcpy(&b->pointSize[lane], &b->inputs[(1 * 4 + 3) * W + lane], 4);
  }
}

template <uint32_t W>
void colourFragment(abi::FragmentBatch* b) {
  b->alive = b->coverage;
  for (uint32_t lane = 0; lane < W; ++lane)
    for (uint32_t c = 0; c < 4; ++c) b->outputs[(0 * 4 + c) * W + lane] = b->inputs[(0 * 4 + c) * W + lane];
}

// One attachment's bytes with guard bytes on both sides.
struct Guarded {
  std::vector<uint8_t> bytes;
  void reset(size_t size, uint32_t seed) {
    bytes.assign(size + 2 * kGuard, kGuardByte);
    std::mt19937 rng(seed);
    for (size_t i = 0; i < size; ++i) bytes[kGuard + i] = uint8_t(rng());
  }
  uint8_t* data() { return bytes.data() + kGuard; }
  bool guardsIntact() const {
    for (size_t i = 0; i < kGuard; ++i)
      if (bytes[i] != kGuardByte || bytes[bytes.size() - 1 - i] != kGuardByte) return false;
    return true;
  }
};

struct Targets {
  Guarded colour, depth, stencil;
  void reset(uint32_t samples, uint32_t seed) {
    const size_t n = size_t(kWidth) * kHeight * samples;
    colour.reset(n * 4, seed);
    depth.reset(n * 4, seed + 1);
    // Depth values in [0, 1] so that the tests pass and fail both ways.
    for (size_t i = 0; i < n; ++i) {
      const float z = float(i % 1000) / 999.0f;
      std::memcpy(depth.data() + i * 4, &z, 4);
    }
    stencil.reset(n, seed + 2);
  }
};

AttachmentView view(uint8_t* base, VkFormat format, uint32_t texelSize, uint32_t samples) {
  AttachmentView v;
  v.base = base;
  v.format = format;
  v.texelSize = texelSize;
  v.samples = samples;
  v.rowPitch = uint64_t(kWidth) * samples * texelSize;
  return v;
}

// A value from the hostile list, or an ordinary one.
float hostile(std::mt19937& rng) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  const float values[] = {1e30f,    -1e30f, kInf,  -kInf,   std::nanf(""), 1e-30f, -1e-30f, 0.0f,  -0.0f,
                          3.4e38f, -3.4e38f, 1e7f, -1e7f, 1.0f + 1e-7f, 0.5f,   -0.75f,  65536.0f};
  return values[rng() % (sizeof values / sizeof values[0])];
}

struct Scene {
  DrawState state;
  DrawCall call;
  std::vector<float> vertices;  // position (clip) and colour per vertex
};

Scene hostileScene(std::mt19937& rng, uint32_t samples) {
  Scene sc;
  const int count = 3 * (4 + int(rng() % 12));
  // How hostile: one coordinate in 2, 4 or 8 from the list (mild scenes still draw, so that
  // the comparison of the two paths sees pixels).
  const uint32_t oneIn = 2u << (rng() % 3);
  for (int v = 0; v < count; ++v) {
    float p[4];
    for (float& c : p) c = rng() % oneIn == 0 ? hostile(rng) : std::uniform_real_distribution<float>(-2, 2)(rng);
    // w: from the list (tiny, zero, negative, huge: the near plane and the w = 0 plane) as
    // often, else in [0.5, 2].
    if (rng() % oneIn) p[3] = std::uniform_real_distribution<float>(0.5f, 2)(rng);
    if (rng() % 5 == 0 && v % 3 == 2) {  // a sliver: the third vertex on (or next to) the first two's line
      const float* a = &sc.vertices[size_t(v - 2) * 8];
      const float* b = &sc.vertices[size_t(v - 1) * 8];
      const float t = std::uniform_real_distribution<float>(-3, 3)(rng);
      for (int c = 0; c < 4; ++c) p[c] = a[c] + t * (b[c] - a[c]);
      if (rng() % 2) p[0] += 1e-6f;
    }
    // Alpha, and so the point size: usually 1 or a large point, else from the hostile list.
    const float alpha = rng() % oneIn == 0 ? hostile(rng) : rng() % 2 ? 1.0f : 37.5f;
    sc.vertices.insert(sc.vertices.end(), {p[0], p[1], p[2], p[3], 0.25f, 0.5f, 0.75f, alpha});
  }
  DrawState& s = sc.state;
  const VkPrimitiveTopology topologies[] = {VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST, VK_PRIMITIVE_TOPOLOGY_TRIANGLE_STRIP,
                                            VK_PRIMITIVE_TOPOLOGY_TRIANGLE_FAN, VK_PRIMITIVE_TOPOLOGY_LINE_LIST,
                                            VK_PRIMITIVE_TOPOLOGY_LINE_STRIP, VK_PRIMITIVE_TOPOLOGY_POINT_LIST};
  s.topology = topologies[rng() % 6];
  if (rng() % 4 == 0) s.polygonMode = rng() % 2 ? VK_POLYGON_MODE_LINE : VK_POLYGON_MODE_POINT;
  const VkLineRasterizationModeEXT lineModes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  s.raster.lineMode = lineModes[rng() % 4];
  s.raster.lineWidth = rng() % 2 ? 1.0f : 7.5f;
  s.fragment.inputComponents[0] = 4;
  s.fragment.inputInterpolation[0] = uint8_t(rng() % 3);
  s.fragment.colorOutputs = 1;
  s.vertexOutputComponents[0] = 4;
  s.attributeCount = 2;
  s.attributes[0] = {0, 0, 0, VK_FORMAT_R32G32B32A32_SFLOAT};
  s.attributes[1] = {1, 0, 16, VK_FORMAT_R32G32B32A32_SFLOAT};
  s.raster.samples = samples;
  // Viewports from the attachment's own to 16384 x 16384, often placed so that the attachment
  // is a small corner of them, flipped (negative height) or not, depth ranges inverted.
  if (rng() % 3 == 0) {
    s.raster.viewport = {0, 0, float(kWidth), float(kHeight), 0, 1};
  } else {
    const float w = float(16 << (rng() % 11)), h = float(16 << (rng() % 11));
    s.raster.viewport = {-std::uniform_real_distribution<float>(0, w)(rng), -std::uniform_real_distribution<float>(0, h)(rng),
                         w, rng() % 4 ? h : -h, rng() % 2 ? 0.0f : 1.0f, rng() % 2 ? 1.0f : 0.0f};
    // A negative height flips y (VK_KHR_maintenance1, core in 1.1): y = the viewport's top + h.
    if (s.raster.viewport.height < 0) s.raster.viewport.y += h;
  }
  const int32_t x0 = int32_t(rng() % 30), y0 = int32_t(rng() % 20);
  s.raster.scissor = Rect{x0, y0, x0 + 10 + int32_t(rng() % uint32_t(kWidth - x0 - 10)),
                          y0 + 10 + int32_t(rng() % uint32_t(kHeight - y0 - 10))};
  s.raster.cullMode = VkCullModeFlags(rng() % 4);
  s.raster.depthBiasEnable = rng() % 3 == 0;
  s.raster.depthBiasConstantFactor = rng() % 2 ? 1e30f : 3.0f;
  s.raster.depthBiasSlopeFactor = rng() % 2 ? -1e30f : 2.0f;
  s.raster.depthBiasClamp = rng() % 2 ? 0.0f : 0.5f;
  s.raster.depthFormat = VK_FORMAT_D32_SFLOAT;
  s.depthTest = rng() % 2;
  s.depthWrite = true;
  s.depthCompare = VkCompareOp(rng() % 8);
  s.stencilTest = rng() % 2;
  for (StencilFace* f : {&s.stencilFront, &s.stencilBack}) {
    f->failOp = f->passOp = f->depthFailOp = VK_STENCIL_OP_INCREMENT_AND_WRAP;
    f->compareOp = VK_COMPARE_OP_ALWAYS;
    f->compareMask = f->writeMask = 0xFF;
  }
  s.colorCount = 1;
  s.blend[0].enable = rng() % 2;
  s.blend[0].srcColor = s.blend[0].srcAlpha = VK_BLEND_FACTOR_SRC_ALPHA;
  s.blend[0].dstColor = s.blend[0].dstAlpha = VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA;
  s.blend[0].colorOp = s.blend[0].alphaOp = VK_BLEND_OP_ADD;
  s.blend[0].writeMask = 0xF;
  s.renderArea = {0, 0, kWidth, kHeight};
  sc.call.vertexCount = uint32_t(count);
  return sc;
}

void bind(Scene& sc, Targets& t, uint32_t samples, uint32_t w) {
  DrawState& s = sc.state;
  s.simdWidth = w;
  s.vertexShader = w == 4 ? passThroughVertex<4> : w == 8 ? passThroughVertex<8> : passThroughVertex<16>;
  s.fragmentShader = w == 4 ? colourFragment<4> : w == 8 ? colourFragment<8> : colourFragment<16>;
  s.bindings[0] = {reinterpret_cast<const uint8_t*>(sc.vertices.data()), sc.vertices.size() * 4, 32,
                   VK_VERTEX_INPUT_RATE_VERTEX};
  s.color[0] = view(t.colour.data(), VK_FORMAT_R8G8B8A8_UNORM, 4, samples);
  s.depth = view(t.depth.data(), VK_FORMAT_D32_SFLOAT, 4, samples);
  s.stencil = view(t.stencil.data(), VK_FORMAT_S8_UINT, 1, samples);
}

// Every texel outside `scissor` of an attachment of `texelSize` bytes a sample holds what it
// held before the draw.
::testing::AssertionResult unchangedOutside(const Guarded& before, const Guarded& after, const Rect& scissor,
                                            uint32_t samples, uint32_t texelSize) {
  if (!after.guardsIntact()) return ::testing::AssertionFailure() << "a guard byte around the attachment changed";
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      if (x >= scissor.x0 && x < scissor.x1 && y >= scissor.y0 && y < scissor.y1) continue;
      const size_t at = kGuard + (size_t(y) * kWidth + size_t(x)) * samples * texelSize;
      if (std::memcmp(&before.bytes[at], &after.bytes[at], size_t(samples) * texelSize) != 0)
        return ::testing::AssertionFailure() << "pixel (" << x << ", " << y << ") outside the scissor changed";
    }
  return ::testing::AssertionSuccess();
}

TEST(HostileVertices, NothingOutsideTheScissorChangesAndBothPathsAgree) {
  ThreadPool pools[2] = {ThreadPool(1), ThreadPool(3)};
  std::mt19937 rng(20261129);
  int changedInside = 0;
  for (int iteration = 0; iteration < 200; ++iteration) {
    const uint32_t samples = iteration % 4 == 3 ? 4 : 1;
    const uint32_t seed = uint32_t(rng());
    std::mt19937 sceneRng(seed);
    Scene scene = hostileScene(sceneRng, samples);
    Targets initial, expected;
    initial.reset(samples, seed);
    expected.reset(samples, seed);
    bind(scene, expected, samples, 8);
    drawReference(scene.state, scene.call);
    const Rect& scissor = scene.state.raster.scissor;
    SCOPED_TRACE(testing::Message() << "scene seed " << seed << ", topology " << scene.state.topology << ", polygon mode "
                                    << scene.state.polygonMode << ", samples " << samples);
    ASSERT_TRUE(unchangedOutside(initial.colour, expected.colour, scissor, samples, 4)) << "reference path, colour";
    ASSERT_TRUE(unchangedOutside(initial.depth, expected.depth, scissor, samples, 4)) << "reference path, depth";
    ASSERT_TRUE(unchangedOutside(initial.stencil, expected.stencil, scissor, samples, 1)) << "reference path, stencil";
    changedInside += initial.colour.bytes != expected.colour.bytes;
    for (uint32_t w : {4u, 8u, 16u})
      for (ThreadPool& pool : pools) {
        Targets got;
        got.reset(samples, seed);
        bind(scene, got, samples, w);
        drawBinned(scene.state, scene.call, pool);
        SCOPED_TRACE(testing::Message() << "binned path, W " << w << ", threads " << pool.threadCount());
        ASSERT_TRUE(got.colour.guardsIntact() && got.depth.guardsIntact() && got.stencil.guardsIntact());
        ASSERT_EQ(got.colour.bytes, expected.colour.bytes);
        ASSERT_EQ(got.depth.bytes, expected.depth.bytes);
        ASSERT_EQ(got.stencil.bytes, expected.stencil.bytes);
      }
  }
  // Hostile input must not make every draw empty: many scenes still draw inside the scissor.
  EXPECT_GE(changedInside, 40);
}


// The case the random scenes found: a segment from a vertex at (x, y, 3.4e38, 3.4e38) to one
// with w = -0. Clipping against w >= 2^-40 gives t = 1 in double (3.4e38 swamps the plane's
// offset), so the "clipped" end was the original one with w = 0, its window coordinate at
// infinity, snapped to INT64_MIN, and the Bresenham span search from there never ended (the
// draw hung). Such a segment is now dropped; every line mode, both paths, alone, as the edge
// of a triangle in polygon mode LINE, and the triangle filled.
TEST(HostileVertices, ASegmentFromTheFloatRangeToWZeroEndsAndDrawsNothingOutside) {
  ThreadPool pool(2);
  const VkLineRasterizationModeEXT lineModes[4] = {
      VK_LINE_RASTERIZATION_MODE_DEFAULT_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_EXT,
      VK_LINE_RASTERIZATION_MODE_BRESENHAM_EXT, VK_LINE_RASTERIZATION_MODE_RECTANGULAR_SMOOTH_EXT};
  for (VkLineRasterizationModeEXT mode : lineModes)
    for (int kind = 0; kind < 3; ++kind)  // a line strip; a triangle in polygon mode LINE; filled
      for (bool binned : {false, true}) {
        const bool triangle = kind > 0;
        std::mt19937 rng(7);
        Scene sc = hostileScene(rng, 1);
        sc.vertices = {1.65344f,  -0.966286f, 3.4e38f,    3.4e38f, 0.25f, 0.5f, 0.75f, 1.0f,
                       0.877104f, 1e7f,       -0.834043f, -0.0f,   0.25f, 0.5f, 0.75f, 1.0f,
                       0.5f,      0.5f,       0.5f,       1.0f,    0.25f, 0.5f, 0.75f, 1.0f};
        sc.state.topology = triangle ? VK_PRIMITIVE_TOPOLOGY_TRIANGLE_LIST : VK_PRIMITIVE_TOPOLOGY_LINE_STRIP;
        sc.state.polygonMode = kind == 2 ? VK_POLYGON_MODE_FILL : VK_POLYGON_MODE_LINE;
        sc.state.raster.lineMode = mode;
        sc.state.raster.cullMode = VK_CULL_MODE_NONE;
        sc.state.raster.viewport = {-2209.85229f, -346.841095f, 4096, 512, 1, 1};
        sc.state.raster.scissor = Rect{3, 4, kWidth - 5, kHeight - 6};
        sc.call.vertexCount = 3;
        Targets initial, got;
        initial.reset(1, 11);
        got.reset(1, 11);
        bind(sc, got, 1, 8);
        if (binned) drawBinned(sc.state, sc.call, pool);
        else drawReference(sc.state, sc.call);
        SCOPED_TRACE(testing::Message() << "line mode " << mode << (kind == 2 ? ", filled triangle" : triangle ? ", triangle edges" : ", line strip")
                                        << (binned ? ", binned" : ", reference"));
        EXPECT_TRUE(unchangedOutside(initial.colour, got.colour, sc.state.raster.scissor, 1, 4));
        EXPECT_TRUE(unchangedOutside(initial.depth, got.depth, sc.state.raster.scissor, 1, 4));
      }
}

}  // namespace
}  // namespace tessera::raster
