// The block walker's early depth test on D32 blocks (raster/block_depth.h, "Depth Test"): the
// AVX-512 version against the portable one on random blocks, and the portable one against the
// spec's comparisons computed here pixel by pixel.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "block_depth.h"
#include "draw_internal.h"  // floatToUnorm

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

using D32DepthTest = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float*, uint32_t, VkCompareOp, bool);

// `fast` against the portable version on random blocks; wholly covered rows (which the vector
// versions store whole) half of the time, random pixels otherwise.
void d32MatchesPortable(D32DepthTest fast, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    Target a, b;
    for (float& t : a.texels) t = randomDepth(rng);
    b.texels = a.texels;
    const int bx = int(rng() % 10), by = int(rng() % 8);  // up to 2 columns / rows outside
    float z[16];
    uint32_t coverage = rng() & 1 ? rng() & 0xFFFF : 0xFFFFu & ~(rng() & 0x0101u);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        z[laneOf(x, y)] = randomDepth(rng);
        if (bx + x >= Target::kWidth || by + y >= Target::kHeight) coverage &= ~(1u << laneOf(x, y));
      }
    const VkCompareOp op = kOps[rng() % 8];
    const bool write = rng() & 1;
    const uint32_t tested = fast(a.base(), Target::kPitch, bx, by, z, coverage, op, write);
    const uint32_t slow = blockDepthTestD32Portable(b.base(), Target::kPitch, bx, by, z, coverage, op, write);
    ASSERT_EQ(tested, slow) << "iteration " << iteration << " op " << op;
    ASSERT_EQ(std::memcmp(a.texels.data(), b.texels.data(), a.texels.size() * 4), 0) << "iteration " << iteration;
  }
}

TEST(BlockDepth, DepthTest_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  d32MatchesPortable(blockDepthTestD32Vector, 11);
}

// The AVX2 version (hosts without AVX-512).
TEST(BlockDepth, DepthTest_Avx2MatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32Avx2Available()) GTEST_SKIP() << "no AVX2 on this processor";
  d32MatchesPortable(blockDepthTestD32Avx2, 13);
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

using D32x4DepthTest = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float (*)[16], const uint32_t*,
                                    VkCompareOp, bool, uint32_t*);

// `fast` against the portable version on random blocks, wholly covered pixels (two of them side
// by side are stored whole by the AVX2 version) in half of them.
void d32x4MatchesPortable(D32x4DepthTest fast, uint32_t seed) {
  std::mt19937 rng(seed);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    Target4 a, b;
    for (float& t : a.texels) t = randomDepth(rng);
    b.texels = a.texels;
    const int bx = int(rng() % 4), by = int(rng() % 3);  // up to 2 columns / rows outside
    float z[4][16];
    uint32_t covered[16];
    const bool whole = rng() & 1;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        for (auto& s : z) s[l] = randomDepth(rng);
        const uint32_t samples = whole && rng() % 8 ? 0xFu : rng() & 0xF;
        covered[l] = (bx + x < Target4::kWidth && by + y < Target4::kHeight) ? samples : 0;
      }
    const VkCompareOp op = kOps[rng() % 8];
    const bool write = rng() & 1;
    uint32_t fastPassed[16], slowPassed[16];
    const uint32_t tested = fast(a.base(), Target4::kPitch, bx, by, z, covered, op, write, fastPassed);
    const uint32_t slow = blockDepthTestD32x4Portable(b.base(), Target4::kPitch, bx, by, z, covered, op, write, slowPassed);
    ASSERT_EQ(tested, slow) << "iteration " << iteration << " op " << op;
    for (int l = 0; l < 16; ++l) ASSERT_EQ(fastPassed[l], slowPassed[l]) << "iteration " << iteration << " lane " << l;
    ASSERT_EQ(std::memcmp(a.texels.data(), b.texels.data(), a.texels.size() * 4), 0) << "iteration " << iteration;
  }
}

TEST(BlockDepth, DepthTest4Samples_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  d32x4MatchesPortable(blockDepthTestD32x4Vector, 13);
}

TEST(BlockDepth, DepthTest4Samples_Avx2MatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32Avx2Available()) GTEST_SKIP() << "no AVX2 on this processor";
  d32x4MatchesPortable(blockDepthTestD32x4Avx2, 14);
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

namespace tessera::raster {
namespace {

// ---- D24 and D16 (blockDepthTestUnorm) ----

// What the AVX-512 version relies on, for every value of both formats: the decode c / (2^b - 1)
// rounded to float (draw_fragments.cpp's loadDepth) is strictly increasing in c, so comparing
// the integers is comparing the decoded floats; and converting a decoded value back
// (floatToUnorm, as storeDepth of quantizeDepth's result does) gives c itself.
TEST(BlockDepth, UnormDecodeIsStrictlyIncreasingAndRoundTrips) {
  for (const uint32_t bits : {16u, 24u}) {
    const uint32_t max = (1u << bits) - 1;
    float previous = -1.0f;
    for (uint32_t c = 0; c <= max; ++c) {
      const float decoded = static_cast<float>(double(c) / double(max));
      ASSERT_LT(previous, decoded) << bits << " bits, c " << c;
      ASSERT_EQ(floatToUnorm(decoded, double(max)), c) << bits << " bits, c " << c;
      previous = decoded;
    }
  }
}

// A depth to test against a D24/D16 value: near stored values (equal after conversion, or one
// step away), the extremes, NaN, or random.
float randomUnormDepth(std::mt19937& rng, uint32_t max) {
  static const float kSpecial[] = {0.0f, -0.0f, 1.0f, 0.5f, std::numeric_limits<float>::quiet_NaN(),
                                   std::numeric_limits<float>::infinity(), -1.0f, 2.0f, 1e-30f};
  const uint32_t k = rng() % 16;
  if (k < 9) return kSpecial[k];
  const uint32_t c = rng() % 8 * (max / 8) + rng() % 3;
  // Halfway between two values, or just off one: the rounding of the conversion decides.
  const float offsets[3] = {0.0f, 0.5f, 0.49999f};
  return float((double(c) + offsets[rng() % 3]) / double(max));
}

template <typename T>
struct UnormTarget {
  static constexpr int kWidth = 12, kHeight = 10;
  std::vector<T> texels = std::vector<T>(kWidth * kHeight);
  uint8_t* base() { return reinterpret_cast<uint8_t*>(texels.data()); }
  static constexpr uint64_t kPitch = kWidth * sizeof(T);
};

using UnormDepthTest = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float*, uint32_t, VkCompareOp, bool,
                                    uint32_t);

// `fast` against the portable version on random blocks, wholly covered rows half of the time.
template <typename T>
void unormMatchesPortable(uint32_t bits, uint32_t seed, UnormDepthTest fast = blockDepthTestUnormVector) {
  std::mt19937 rng(seed);
  const uint32_t max = (1u << bits) - 1;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    UnormTarget<T> a, b;
    // D24: random upper 8 bits (X8 is not the depth; the decode ignores it, a write clears it).
    for (T& t : a.texels) t = T(rng() % 8 * (max / 8) + rng() % 3) | (bits == 24 ? T(rng() << 24) : T(0));
    b.texels = a.texels;
    const int bx = int(rng() % 10), by = int(rng() % 8);
    float z[16];
    uint32_t coverage = rng() & 1 ? rng() & 0xFFFF : 0xFFFFu & ~(rng() & 0x0101u);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        z[laneOf(x, y)] = randomUnormDepth(rng, max);
        if (bx + x >= UnormTarget<T>::kWidth || by + y >= UnormTarget<T>::kHeight) coverage &= ~(1u << laneOf(x, y));
      }
    const VkCompareOp op = kOps[rng() % 8];
    const bool write = rng() & 1;
    const uint32_t tested = fast(a.base(), UnormTarget<T>::kPitch, bx, by, z, coverage, op, write, bits);
    const uint32_t slow = blockDepthTestUnormPortable(b.base(), UnormTarget<T>::kPitch, bx, by, z, coverage, op, write, bits);
    ASSERT_EQ(tested, slow) << bits << " bits, iteration " << iteration << " op " << op;
    ASSERT_EQ(std::memcmp(a.texels.data(), b.texels.data(), a.texels.size() * sizeof(T)), 0)
        << bits << " bits, iteration " << iteration;
  }
}

TEST(BlockDepth, DepthTestD24_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  unormMatchesPortable<uint32_t>(24, 24);
}

TEST(BlockDepth, DepthTestD16_VectorMatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32VectorAvailable()) GTEST_SKIP() << "no AVX-512 on this processor";
  unormMatchesPortable<uint16_t>(16, 16);
}

TEST(BlockDepth, DepthTestD24_Avx2MatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32Avx2Available()) GTEST_SKIP() << "no AVX2 on this processor";
  unormMatchesPortable<uint32_t>(24, 124, blockDepthTestUnormAvx2);
}

TEST(BlockDepth, DepthTestD16_Avx2MatchesPortableOnRandomBlocks) {
  if (!blockDepthTestD32Avx2Available()) GTEST_SKIP() << "no AVX2 on this processor";
  unormMatchesPortable<uint16_t>(16, 116, blockDepthTestUnormAvx2);
}

// The portable version against "Depth Test" computed here: z converted to the format
// ("Depth Test": "If the depth attachment has a fixed-point format, z_f is converted to it"),
// compared with the stored value as a fixed-point number (the fragment's value first), the
// converted value written where it passes.
TEST(BlockDepth, DepthTestUnorm_PortableComparesConvertedValues) {
  std::mt19937 rng(1624);
  const uint32_t max = 0xFFFFFF;
  for (int iteration = 0; iteration < 2000; ++iteration) {
    UnormTarget<uint32_t> t;
    for (uint32_t& v : t.texels) v = rng() % 8 * (max / 8) + rng() % 3;
    const std::vector<uint32_t> before = t.texels;
    float z[16];
    for (float& v : z) v = randomUnormDepth(rng, max);
    const uint32_t coverage = rng() & 0xFFFF;
    const VkCompareOp op = kOps[rng() % 8];
    const uint32_t pass = blockDepthTestUnorm(t.base(), UnormTarget<uint32_t>::kPitch, 4, 4, z, coverage, op, true, 24);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int l = laneOf(x, y);
        const uint32_t stored = before[(4 + y) * UnormTarget<uint32_t>::kWidth + 4 + x];
        // "Conversion From Floating-Point to Normalized Fixed-Point": clamp to [0, 1] (NaN: 0),
        // times 2^24 - 1, round to nearest.
        const double clamped = std::isnan(z[l]) ? 0.0 : std::clamp(double(z[l]), 0.0, 1.0);
        const uint32_t converted = uint32_t(std::nearbyint(clamped * max));
        bool expected = false;
        switch (op) {
          case VK_COMPARE_OP_LESS: expected = converted < stored; break;
          case VK_COMPARE_OP_EQUAL: expected = converted == stored; break;
          case VK_COMPARE_OP_LESS_OR_EQUAL: expected = converted <= stored; break;
          case VK_COMPARE_OP_GREATER: expected = converted > stored; break;
          case VK_COMPARE_OP_NOT_EQUAL: expected = converted != stored; break;
          case VK_COMPARE_OP_GREATER_OR_EQUAL: expected = converted >= stored; break;
          case VK_COMPARE_OP_ALWAYS: expected = true; break;
          default: break;
        }
        expected = expected && (coverage >> l & 1);
        ASSERT_EQ(bool(pass >> l & 1), expected) << "iteration " << iteration << " op " << op << " lane " << l;
        ASSERT_EQ(t.texels[(4 + y) * UnormTarget<uint32_t>::kWidth + 4 + x], expected ? converted : stored)
            << "iteration " << iteration;
      }
  }
}

}  // namespace
}  // namespace tessera::raster
