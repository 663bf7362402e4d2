// The block walker's early depth test on D32 blocks (raster/block_depth.h, "Depth Test"): the
// AVX-512 version against the portable one on random blocks, and the portable one against the
// spec's comparisons computed here pixel by pixel.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "block_depth.h"

namespace tessera::raster {
namespace {

constexpr VkCompareOp kOps[] = {VK_COMPARE_OP_NEVER,   VK_COMPARE_OP_LESS,      VK_COMPARE_OP_EQUAL,
                                VK_COMPARE_OP_LESS_OR_EQUAL, VK_COMPARE_OP_GREATER, VK_COMPARE_OP_NOT_EQUAL,
                                VK_COMPARE_OP_GREATER_OR_EQUAL, VK_COMPARE_OP_ALWAYS};

// Pixel (x, y) of a block and its lane (quads in rows, pixels in a quad: FragmentBatch order).
int laneOf(int x, int y) { return 8 * (y >> 1) + 4 * (x >> 1) + 2 * (y & 1) + (x & 1); }

// A depth from a small set (so that equal values are frequent) or an extreme one.
float randomDepth(std::mt19937& rng) {
  static const float kSpecial[] = {0.0f, -0.0f, 1.0f, 0.5f, 0.25f, std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity(), -1.0f, 1e-30f};
  const uint32_t k = rng() % 16;
  return k < 9 ? kSpecial[k] : float(rng() % 8) / 8.0f;
}

// A 12x10 D32 attachment with a block placed so that some of it hangs over the right or bottom
// edge (those pixels are never covered, and must not be touched).
struct Target {
  static constexpr int kWidth = 12, kHeight = 10;
  std::vector<float> texels = std::vector<float>(kWidth * kHeight);
  uint8_t* base() { return reinterpret_cast<uint8_t*>(texels.data()); }
  static constexpr uint64_t kPitch = kWidth * 4;
};

TEST(BlockDepth, DepthTest_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  std::mt19937 rng(11);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    Target a, b;
    for (float& t : a.texels) t = randomDepth(rng);
    b.texels = a.texels;
    const int bx = int(rng() % 10), by = int(rng() % 8);  // up to 2 columns / rows outside
    float z[16];
    uint32_t coverage = rng() & 0xFFFF;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        z[laneOf(x, y)] = randomDepth(rng);
        if (bx + x >= Target::kWidth || by + y >= Target::kHeight) coverage &= ~(1u << laneOf(x, y));
      }
    const VkCompareOp op = kOps[rng() % 8];
    const bool write = rng() & 1;
    const uint32_t fast = blockDepthTestD32Vector(a.base(), Target::kPitch, bx, by, z, coverage, op, write);
    const uint32_t slow = blockDepthTestD32Portable(b.base(), Target::kPitch, bx, by, z, coverage, op, write);
    ASSERT_EQ(fast, slow) << "iteration " << iteration << " op " << op;
    ASSERT_EQ(std::memcmp(a.texels.data(), b.texels.data(), a.texels.size() * 4), 0) << "iteration " << iteration;
  }
}

TEST(BlockDepth, DepthTest_PortableComparesAsTheSpecSays) {
  std::mt19937 rng(12);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    Target t;
    for (float& v : t.texels) v = randomDepth(rng);
    const std::vector<float> before = t.texels;
    float z[16];
    for (float& v : z) v = randomDepth(rng);
    const uint32_t coverage = rng() & 0xFFFF;
    const VkCompareOp op = kOps[rng() % 8];
    const uint32_t pass = blockDepthTestD32(t.base(), Target::kPitch, 4, 4, z, coverage, op, true);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        const float stored = before[(4 + y) * Target::kWidth + 4 + x], d = z[l];
        // "Depth Comparison": the fragment's depth is the first operand (a reference value).
        bool want = false;
        switch (op) {
          case VK_COMPARE_OP_NEVER: want = false; break;
          case VK_COMPARE_OP_LESS: want = d < stored; break;
          case VK_COMPARE_OP_EQUAL: want = d == stored; break;
          case VK_COMPARE_OP_LESS_OR_EQUAL: want = d <= stored; break;
          case VK_COMPARE_OP_GREATER: want = d > stored; break;
          case VK_COMPARE_OP_NOT_EQUAL: want = d != stored; break;
          case VK_COMPARE_OP_GREATER_OR_EQUAL: want = d >= stored; break;
          default: want = true; break;
        }
        want = want && (coverage >> l & 1);
        ASSERT_EQ(bool(pass >> l & 1), want) << "op " << op << " pixel " << x << "," << y;
        const float after = t.texels[(4 + y) * Target::kWidth + 4 + x];
        const float expected = want ? d : stored;
        ASSERT_EQ(std::memcmp(&after, &expected, 4), 0) << "op " << op << " pixel " << x << "," << y;
      }
  }
}

}  // namespace
}  // namespace tessera::raster

namespace tessera::raster {
namespace {

// A 6x5-pixel 4-sample D32 attachment (16 bytes a pixel).
struct Target4 {
  static constexpr int kWidth = 6, kHeight = 5;
  std::vector<float> texels = std::vector<float>(kWidth * kHeight * 4);
  uint8_t* base() { return reinterpret_cast<uint8_t*>(texels.data()); }
  static constexpr uint64_t kPitch = kWidth * 16;
};

TEST(BlockDepth, DepthTest4Samples_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  std::mt19937 rng(13);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    Target4 a, b;
    for (float& t : a.texels) t = randomDepth(rng);
    b.texels = a.texels;
    const int bx = int(rng() % 4), by = int(rng() % 3);  // up to 2 columns / rows outside
    float z[4][16];
    uint32_t covered[16];
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        for (auto& s : z) s[l] = randomDepth(rng);
        covered[l] = (bx + x < Target4::kWidth && by + y < Target4::kHeight) ? rng() & 0xF : 0;
      }
    const VkCompareOp op = kOps[rng() % 8];
    const bool write = rng() & 1;
    uint32_t fastPassed[16], slowPassed[16];
    const uint32_t fast = blockDepthTestD32x4Vector(a.base(), Target4::kPitch, bx, by, z, covered, op, write, fastPassed);
    const uint32_t slow = blockDepthTestD32x4Portable(b.base(), Target4::kPitch, bx, by, z, covered, op, write, slowPassed);
    ASSERT_EQ(fast, slow) << "iteration " << iteration << " op " << op;
    for (int l = 0; l < 16; ++l) ASSERT_EQ(fastPassed[l], slowPassed[l]) << "iteration " << iteration << " lane " << l;
    ASSERT_EQ(std::memcmp(a.texels.data(), b.texels.data(), a.texels.size() * 4), 0) << "iteration " << iteration;
  }
}

// "Depth Test" per sample: each covered sample compares its own depth with its own stored value.
TEST(BlockDepth, DepthTest4Samples_PortableComparesEachSample) {
  std::mt19937 rng(14);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    Target4 t;
    for (float& v : t.texels) v = randomDepth(rng);
    const std::vector<float> before = t.texels;
    float z[4][16];
    uint32_t covered[16];
    for (int l = 0; l < 16; ++l) {
      for (auto& s : z) s[l] = randomDepth(rng);
      covered[l] = rng() & 0xF;
    }
    const VkCompareOp op = kOps[rng() % 8];
    uint32_t passed[16];
    const uint32_t lanes = blockDepthTestD32x4(t.base(), Target4::kPitch, 1, 1, z, covered, op, true, passed);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        uint32_t want = 0;
        for (int smp = 0; smp < 4; ++smp) {
          const size_t at = (size_t(1 + y) * Target4::kWidth + 1 + x) * 4 + smp;
          const float stored = before[at], d = z[smp][l];
          bool pass = false;
          switch (op) {
            case VK_COMPARE_OP_NEVER: pass = false; break;
            case VK_COMPARE_OP_LESS: pass = d < stored; break;
            case VK_COMPARE_OP_EQUAL: pass = d == stored; break;
            case VK_COMPARE_OP_LESS_OR_EQUAL: pass = d <= stored; break;
            case VK_COMPARE_OP_GREATER: pass = d > stored; break;
            case VK_COMPARE_OP_NOT_EQUAL: pass = d != stored; break;
            case VK_COMPARE_OP_GREATER_OR_EQUAL: pass = d >= stored; break;
            default: pass = true; break;
          }
          pass = pass && (covered[l] >> smp & 1);
          if (pass) want |= 1u << smp;
          const float expected = pass ? d : stored;
          ASSERT_EQ(std::memcmp(&t.texels[at], &expected, 4), 0) << "op " << op << " pixel " << x << "," << y << " sample " << smp;
        }
        ASSERT_EQ(passed[l], want) << "op " << op << " pixel " << x << "," << y;
        ASSERT_EQ(bool(lanes >> l & 1), want != 0);
      }
  }
}

}  // namespace
}  // namespace tessera::raster
