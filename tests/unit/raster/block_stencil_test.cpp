// The block walker's early stencil and depth tests on single-sample S8 (+ D32) blocks
// (raster/block_stencil.h; "Stencil Test", "Depth Test"): the AVX-512 version against the
// portable one on random blocks and states, and the portable one against the spec's rules
// written out here pixel by pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "block_stencil.h"

namespace tessera::raster {
namespace {

constexpr VkCompareOp kOps[] = {VK_COMPARE_OP_NEVER,   VK_COMPARE_OP_LESS,      VK_COMPARE_OP_EQUAL,
                                VK_COMPARE_OP_LESS_OR_EQUAL, VK_COMPARE_OP_GREATER, VK_COMPARE_OP_NOT_EQUAL,
                                VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_ALWAYS};
constexpr VkStencilOp kStencilOps[] = {VK_STENCIL_OP_KEEP,
                                       VK_STENCIL_OP_ZERO,
                                       VK_STENCIL_OP_REPLACE,
                                       VK_STENCIL_OP_INCREMENT_AND_CLAMP,
                                       VK_STENCIL_OP_DECREMENT_AND_CLAMP,
                                       VK_STENCIL_OP_INVERT,
                                       VK_STENCIL_OP_INCREMENT_AND_WRAP,
                                       VK_STENCIL_OP_DECREMENT_AND_WRAP};

// Pixel (x, y) of a block and its lane (quads in rows, pixels in a quad: FragmentBatch order).
int laneOf(int x, int y) { return 8 * (y >> 1) + 4 * (x >> 1) + 2 * (y & 1) + (x & 1); }

float randomDepth(std::mt19937& rng) {
  static const float kSpecial[] = {0.0f, 1.0f, 0.5f, std::numeric_limits<float>::quiet_NaN(), -0.0f};
  const uint32_t k = rng() % 12;
  return k < 5 ? kSpecial[k] : float(rng() % 4) / 4.0f;
}

// Stencil values near the ends and the reference, so that clamps, wraps and equality happen.
uint8_t randomStencil(std::mt19937& rng) {
  static const uint8_t kValues[] = {0, 1, 2, 0x7F, 0x80, 0xFE, 0xFF, 0x55};
  return rng() % 3 ? kValues[rng() % 8] : uint8_t(rng());
}

StencilFace randomFace(std::mt19937& rng) {
  StencilFace f;
  f.failOp = kStencilOps[rng() % 8];
  f.passOp = kStencilOps[rng() % 8];
  f.depthFailOp = kStencilOps[rng() % 8];
  f.compareOp = kOps[rng() % 8];
  static const uint32_t kMasks[] = {0xFF, 0x0F, 0xF0, 0x00, 0x81};
  f.compareMask = rng() % 2 ? 0xFF : kMasks[rng() % 5];
  f.writeMask = rng() % 2 ? 0xFF : kMasks[rng() % 5];
  f.reference = randomStencil(rng);
  return f;
}

// A 12x10 pair of planes; blocks are placed so that some hang over the right or bottom edge
// (never covered there, and never to be touched). Guard bytes around the planes catch any
// access outside them.
struct Planes {
  static constexpr int kWidth = 12, kHeight = 10, kGuard = 64;
  std::vector<uint8_t> stencil = std::vector<uint8_t>(kWidth * kHeight + 2 * kGuard, 0xA5);
  std::vector<float> depth = std::vector<float>(kWidth * kHeight);
  uint8_t* stencilBase() { return stencil.data() + kGuard; }
  uint8_t& stencilAt(int x, int y) { return stencilBase()[y * kWidth + x]; }
  BlockStencilPlanes view(bool depthTest, VkCompareOp op, bool write) {
    BlockStencilPlanes p;
    p.stencil = stencilBase();
    p.stencilPitch = kWidth;
    if (depthTest) {
      p.depth = reinterpret_cast<uint8_t*>(depth.data());
      p.depthPitch = kWidth * 4;
      p.depthCompare = op;
      p.depthWrite = write;
    }
    return p;
  }
};

using BlockStencilTest = uint32_t (*)(const BlockStencilPlanes&, const StencilFace&, int32_t, int32_t, const float*,
                                     uint32_t);

// `fast` against the portable version on random blocks, planes and stencil states.
void matchesPortable(BlockStencilTest fast, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iteration = 0; iteration < 30000; ++iteration) {
    Planes a, b;
    for (int i = 0; i < Planes::kWidth * Planes::kHeight; ++i) a.stencilBase()[i] = randomStencil(rng);
    for (float& d : a.depth) d = randomDepth(rng);
    b.stencil = a.stencil;
    b.depth = a.depth;
    const int bx = int(rng() % 10), by = int(rng() % 8);
    float z[16];
    uint32_t coverage = rng() % 4 ? rng() & 0xFFFF : 0xFFFF;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        z[laneOf(x, y)] = randomDepth(rng);
        if (bx + x >= Planes::kWidth || by + y >= Planes::kHeight) coverage &= ~(1u << laneOf(x, y));
      }
    const StencilFace face = randomFace(rng);
    const bool depthTest = rng() % 3 != 0, write = rng() & 1;
    const VkCompareOp depthOp = kOps[rng() % 8];
    const uint32_t tested = fast(a.view(depthTest, depthOp, write), face, bx, by, z, coverage);
    const uint32_t slow = blockStencilTestS8Portable(b.view(depthTest, depthOp, write), face, bx, by, z, coverage);
    ASSERT_EQ(tested, slow) << "iteration " << iteration;
    ASSERT_EQ(a.stencil, b.stencil) << "iteration " << iteration;
    ASSERT_EQ(std::memcmp(a.depth.data(), b.depth.data(), a.depth.size() * 4), 0) << "iteration " << iteration;
  }
}

TEST(BlockStencil, VectorMatchesPortableOnRandomBlocks) {
  if (!blockStencilTestS8VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  matchesPortable(blockStencilTestS8Vector, 21);
}

TEST(BlockStencil, Avx2MatchesPortableOnRandomBlocks) {
  if (!blockStencilTestS8Avx2Available()) GTEST_SKIP() << "no AVX2 on this processor";
  matchesPortable(blockStencilTestS8Avx2, 22);
}

// "Stencil Test": s_r and s_a masked by compareMask compared as the op says (the reference
// first), then the operation for the outcome, written through writeMask.
bool holds(VkCompareOp op, double a, double b) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return a < b;
    case VK_COMPARE_OP_EQUAL: return a == b;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return a <= b;
    case VK_COMPARE_OP_GREATER: return a > b;
    case VK_COMPARE_OP_NOT_EQUAL: return a != b;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return a >= b;
    default: return true;
  }
}

int specStencilOp(VkStencilOp op, int s, int reference) {
  switch (op) {
    case VK_STENCIL_OP_KEEP: return s;
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return s < 255 ? s + 1 : 255;  // clamped to 2^s - 1
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return s > 0 ? s - 1 : 0;
    case VK_STENCIL_OP_INVERT: return 255 - s;  // bitwise inversion of 8 bits
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return (s + 1) % 256;
    default: return (s + 255) % 256;  // DECREMENT_AND_WRAP
  }
}

TEST(BlockStencil, PortableFollowsTheStencilAndDepthTests) {
  std::mt19937 rng(22);
  for (int iteration = 0; iteration < 5000; ++iteration) {
    Planes t;
    for (int i = 0; i < Planes::kWidth * Planes::kHeight; ++i) t.stencilBase()[i] = randomStencil(rng);
    for (float& d : t.depth) d = randomDepth(rng);
    const Planes before = t;
    float z[16];
    for (float& v : z) v = randomDepth(rng);
    const uint32_t coverage = rng() & 0xFFFF;
    const StencilFace face = randomFace(rng);
    const bool depthTest = rng() % 3 != 0, write = rng() & 1;
    const VkCompareOp depthOp = kOps[rng() % 8];
    const uint32_t pass = blockStencilTestS8(t.view(depthTest, depthOp, write), face, 4, 4, z, coverage);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        const int s = before.stencil[Planes::kGuard + (4 + y) * Planes::kWidth + 4 + x];
        const float stored = before.depth[(4 + y) * Planes::kWidth + 4 + x];
        const bool covered = coverage >> l & 1;
        const bool stencilPass =
            holds(face.compareOp, face.reference & face.compareMask & 0xFF, s & face.compareMask & 0xFF);
        // "Depth Test" (NaN compares unordered: only NOT_EQUAL and ALWAYS pass).
        const bool depthPass = !depthTest || holds(depthOp, z[l], stored);
        const bool want = covered && stencilPass && depthPass;
        ASSERT_EQ(bool(pass >> l & 1), want) << "iteration " << iteration << " pixel " << x << "," << y;
        int expected = s;
        if (covered) {
          const VkStencilOp op = !stencilPass ? face.failOp : depthPass ? face.passOp : face.depthFailOp;
          const int wm = int(face.writeMask & 0xFF);
          expected = (s & ~wm & 0xFF) | (specStencilOp(op, s, int(face.reference & 0xFF)) & wm);
        }
        ASSERT_EQ(int(t.stencilAt(4 + x, 4 + y)), expected) << "iteration " << iteration << " pixel " << x << "," << y;
        const float after = t.depth[(4 + y) * Planes::kWidth + 4 + x];
        const float wantDepth = want && depthTest && write ? z[l] : stored;
        ASSERT_EQ(std::memcmp(&after, &wantDepth, 4), 0) << "iteration " << iteration << " pixel " << x << "," << y;
      }
    // Nothing outside the block (and nothing in the guard bytes) changes.
    for (int y = 0; y < Planes::kHeight; ++y)
      for (int x = 0; x < Planes::kWidth; ++x)
        if (x < 4 || x >= 8 || y < 4 || y >= 8) {
          ASSERT_EQ(t.stencilAt(x, y), before.stencil[Planes::kGuard + y * Planes::kWidth + x]);
        }
    for (int g = 0; g < Planes::kGuard; ++g) {
      ASSERT_EQ(t.stencil[g], 0xA5);
      ASSERT_EQ(t.stencil[t.stencil.size() - 1 - g], 0xA5);
    }
  }
}

}  // namespace
}  // namespace tessera::raster
