// The hierarchical Z's parts (raster/tile_depth_bounds.h) against the "Depth Test" they stand
// in for: whatever they reject, the per-pixel test rejects too, checked pixel by pixel on
// random depth planes (NaN, infinities and signed zeros among them) and random depths.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "draw_internal.h"  // floatToUnorm
#include "pixel_weights.h"
#include "tile_depth_bounds.h"

namespace tessera::raster {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// "Depth Test": the fragment passes when z op stored.
bool passes(VkCompareOp op, float z, float stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return z < stored;
    case VK_COMPARE_OP_EQUAL: return z == stored;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return z <= stored;
    case VK_COMPARE_OP_GREATER: return z > stored;
    case VK_COMPARE_OP_NOT_EQUAL: return z != stored;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return z >= stored;
    default: return true;
  }
}

// A stored depth: mostly in [0, 1] on a coarse grid (so that equal values occur), sometimes
// NaN, an infinity or a signed zero.
float randomDepth(std::mt19937& rng) {
  switch (rng() % 16) {
    case 0: return std::numeric_limits<float>::quiet_NaN();
    case 1: return rng() % 2 ? kInf : -kInf;
    case 2: return rng() % 2 ? 0.0f : -0.0f;
    default: return float(rng() % 64) / 63.0f;
  }
}

TEST(TileDepthBounds, FailsEverywhereOnlyWhereEveryDepthFails) {
  std::mt19937 rng(5);
  int rejected[8] = {};
  for (int iteration = 0; iteration < 20000; ++iteration) {
    const VkCompareOp op = VkCompareOp(iteration % 8);
    std::vector<float> stored(1 + rng() % 6);
    float lo = kInf, hi = -kInf;
    for (float& v : stored) {
      v = randomDepth(rng);
      lo = v < lo ? v : lo;  // NaNs left out, as computeCell leaves them out
      hi = v > hi ? v : hi;
    }
    float a = randomDepth(rng), b = rng() % 4 ? randomDepth(rng) : a;
    if (b < a) std::swap(a, b);
    const DepthInterval z{a, b};
    if (!failsEverywhere(op, z, lo, hi)) continue;
    ++rejected[op];
    // Every depth of the interval: its ends and points between them.
    std::vector<float> depths = {a, b, std::nextafter(a, kInf), std::nextafter(b, -kInf)};
    for (int k = 1; k < 8 && std::isfinite(a) && std::isfinite(b); ++k) depths.push_back(a + (b - a) * float(k) / 8);
    for (float d : depths) {
      if (!(d >= a && d <= b)) continue;  // (NaN ends: only NEVER rejects, checked below)
      for (float v : stored) ASSERT_FALSE(passes(op, d, v)) << "op " << op << " z " << d << " stored " << v;
    }
  }
  for (int op = 0; op < 8; ++op) {
    if (op == VK_COMPARE_OP_NOT_EQUAL || op == VK_COMPARE_OP_ALWAYS) EXPECT_EQ(rejected[op], 0) << "op " << op;
    else EXPECT_GT(rejected[op], 100) << "op " << op;  // a test that rejects nothing would pass too
  }
  EXPECT_FALSE(failsEverywhere(VK_COMPARE_OP_LESS, {std::nanf(""), std::nanf("")}, 0.5f, 0.5f));
  EXPECT_TRUE(failsEverywhere(VK_COMPARE_OP_NEVER, {std::nanf(""), std::nanf("")}, 0.5f, 0.5f));
}

// Random writes into a D32 plane of 1 or 4 samples a pixel, each followed by changed() of its
// rectangle as the block walker does, and random questions (rejects, blockRejects) about
// rectangles of a tile whose
// readable area cuts some cells: every rectangle rejected has no sample whose test would pass,
// at the interval's ends.
TEST(TileDepthBounds, RejectsOnlyRectanglesWhereEverySampleFails) {
  constexpr int kPlaneWidth = 150, kPlaneHeight = 100;
  std::mt19937 rng(11);
  int rejections = 0, questions = 0;
  for (int round = 0; round < 40; ++round) {
    const uint32_t samples = round % 2 ? 4 : 1;
    const size_t rowFloats = size_t(kPlaneWidth) * samples + 3;  // 3 floats of padding a row
    std::vector<float> plane(rowFloats * kPlaneHeight);
    auto at = [&](int32_t x, int32_t y, uint32_t smp) -> float& { return plane[size_t(y) * rowFloats + size_t(x) * samples + smp]; };
    // Smooth depths with some NaN and infinite samples: whole cells in one range, so that some
    // questions are answered by rejecting.
    for (int y = 0; y < kPlaneHeight; ++y)
      for (int x = 0; x < kPlaneWidth; ++x)
        for (uint32_t smp = 0; smp < samples; ++smp)
          at(x, y, smp) = rng() % 50 == 0 ? randomDepth(rng) : float((x / 8 + y / 8) % 8) / 8.0f;
    const Rect tile = rng() % 2 ? Rect{64, 0, 128, 64} : Rect{128, 64, 150, 100};  // a whole tile, or one cut by the plane
    const Rect readable{tile.x0 + int32_t(rng() % 3), tile.y0 + int32_t(rng() % 3), tile.x1 - int32_t(rng() % 3),
                        tile.y1 - int32_t(rng() % 3)};
    TileDepthBounds bounds;
    bounds.begin(tile);
    ASSERT_TRUE(bounds.use({reinterpret_cast<const uint8_t*>(plane.data()), rowFloats * 4, 0, samples}, tile, readable));
    auto randomRect = [&](int maxSide) {
      const int32_t x0 = readable.x0 + int32_t(rng() % uint32_t(readable.x1 - readable.x0));
      const int32_t y0 = readable.y0 + int32_t(rng() % uint32_t(readable.y1 - readable.y0));
      return Rect{x0, y0, std::min(readable.x1, x0 + 1 + int32_t(rng() % uint32_t(maxSide))),
                  std::min(readable.y1, y0 + 1 + int32_t(rng() % uint32_t(maxSide)))};
    };
    for (int step = 0; step < 400; ++step) {
      if (rng() % 4 == 0) {  // the block walker's write: a block, its covered samples
        const Rect r = randomRect(4);
        const float v = randomDepth(rng);
        for (int32_t y = r.y0; y < r.y1; ++y)
          for (int32_t x = r.x0; x < r.x1; ++x)
            for (uint32_t smp = 0; smp < samples; ++smp)
              if (rng() % 2) at(x, y, smp) = v;
        bounds.changed(r);
        continue;
      }
      // A triangle's region, or a block asked from known cells only (blockRejects).
      const bool block = rng() % 3 == 0;
      const Rect r = randomRect(block ? 4 : 24);
      const VkCompareOp op = VkCompareOp(rng() % 8);
      float a = float(rng() % 10) / 8.0f, b = rng() % 2 ? a : float(rng() % 10) / 8.0f;
      if (b < a) std::swap(a, b);
      ++questions;
      if (!(block ? bounds.blockRejects(r, op, {a, b}) : bounds.rejects(r, op, {a, b}))) continue;
      ++rejections;
      for (int32_t y = r.y0; y < r.y1; ++y)
        for (int32_t x = r.x0; x < r.x1; ++x)
          for (uint32_t smp = 0; smp < samples; ++smp)
            for (float z : {a, b})
              ASSERT_FALSE(passes(op, z, at(x, y, smp)))
                  << "round " << round << " step " << step << " op " << op << " pixel " << x << "," << y << " sample " << smp;
    }
    // After a begin the cells are computed afresh: a tile's bounds are not another's.
    bounds.begin(tile);
    EXPECT_FALSE(bounds.anyKnown());
  }
  EXPECT_GT(rejections, questions / 10);
}

// The same on D24 and D16 planes, whose cells hold decoded values and whose block test compares
// each fragment depth converted to the format and decoded (blockDepthTestUnorm): whatever
// rejects(quantizedDepthInterval(z)) rejects fails that comparison at every pixel for every
// depth in z.
TEST(TileDepthBounds, UnormPlanesRejectOnlyWhereEveryConvertedDepthFails) {
  std::mt19937 rng(23);
  int rejections = 0;
  for (const uint32_t bits : {16u, 24u}) {
    const double maxValue = bits == 16 ? 65535.0 : 16777215.0;
    const uint32_t texelBytes = bits == 16 ? 2 : 4;
    auto decode = [&](uint32_t c) { return static_cast<float>(double(c) / maxValue); };
    for (int round = 0; round < 20; ++round) {
      constexpr int kSide = 64;
      std::vector<uint8_t> plane(size_t(kSide) * kSide * texelBytes);
      auto stored = [&](int x, int y) {
        uint32_t c = 0;
        std::memcpy(&c, &plane[(size_t(y) * kSide + size_t(x)) * texelBytes], texelBytes);
        return bits == 16 ? c : c & 0xFFFFFFu;
      };
      for (int y = 0; y < kSide; ++y)
        for (int x = 0; x < kSide; ++x) {
          // Cells of one value, some texels off it by a unit; D24's upper byte is not depth.
          uint32_t c = uint32_t(((x / 4 + y / 4) % 8) * (maxValue / 8)) + (rng() % 8 == 0 ? 1 : 0);
          if (bits == 24) c |= uint32_t(rng() % 256) << 24;
          std::memcpy(&plane[(size_t(y) * kSide + size_t(x)) * texelBytes], &c, texelBytes);
        }
      const Rect tile{0, 0, kSide, kSide};
      TileDepthBounds bounds;
      bounds.begin(tile);
      ASSERT_TRUE(bounds.use({plane.data(), kSide * texelBytes, bits, 1}, tile, tile));
      for (int q = 0; q < 300; ++q) {
        const int32_t x0 = int32_t(rng() % kSide), y0 = int32_t(rng() % kSide);
        const Rect r{x0, y0, std::min(kSide, x0 + 1 + int32_t(rng() % 12)), std::min(kSide, y0 + 1 + int32_t(rng() % 12))};
        const VkCompareOp op = VkCompareOp(rng() % 8);
        float a = float(rng() % 10) / 8.0f - 0.1f, b = rng() % 2 ? a : float(rng() % 10) / 8.0f;
        if (b < a) std::swap(a, b);
        const DepthInterval z = quantizedDepthInterval({a, b}, bits);
        if (!bounds.rejects(r, op, z)) continue;
        ++rejections;
        for (int32_t y = r.y0; y < r.y1; ++y)
          for (int32_t x = r.x0; x < r.x1; ++x)
            for (int k = 0; k <= 8; ++k) {
              const float depth = a + (b - a) * float(k) / 8;
              ASSERT_FALSE(passes(op, decode(floatToUnorm(depth, maxValue)), decode(stored(x, y))))
                  << bits << " bits, op " << op << " depth " << depth << " pixel " << x << "," << y;
            }
      }
    }
  }
  EXPECT_GT(rejections, 500);
}

// fragmentDepthInterval holds every depth the block walker interpolates at a covered pixel:
// weights a_k = e_k / (e_0 + e_1 + e_2) from non-negative edge values (windowBarycentrics), the
// interpolated depth (pixel_weights.h interpolatedDepth or flatDepthOf), with and without bias
// and clamping, for depths of every magnitude.
TEST(TileDepthBounds, FragmentDepthIntervalHoldsEveryInterpolatedDepth) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    SetupTriangle t;
    const float scale = iteration % 4 == 0 ? 1e6f : iteration % 4 == 1 ? 1e-6f : 1.0f;
    for (float& z : t.z) z = (unit(rng) * 2 - (iteration % 3 == 0 ? 1 : 0)) * scale;
    t.flatDepth = iteration % 5 == 0;
    if (t.flatDepth) t.z[1] = t.z[2] = t.z[0];
    t.depthBias = iteration % 2 ? (unit(rng) - 0.5f) * scale * 0.01f : 0.0f;
    if (iteration % 3 == 0) t.depthMin = -kInf, t.depthMax = kInf;  // VK_EXT_depth_range_unrestricted
    else t.depthMin = 0, t.depthMax = 1;
    const DepthInterval range = fragmentDepthInterval(t);
    for (int sample = 0; sample < 20; ++sample) {
      int64_t edge[3];
      for (int64_t& e : edge) e = sample == 0 ? 0 : int64_t(rng() % 1000000);
      if (sample < 3) edge[sample] = 1000;  // the vertices themselves
      const int64_t area2 = edge[0] + edge[1] + edge[2];
      double lin[3];
      pixel::windowBarycentrics(edge, 1.0 / double(area2), lin);
      const float z = pixel::depthAt(t, lin);
      ASSERT_GE(z, range.lo) << "iteration " << iteration;
      ASSERT_LE(z, range.hi) << "iteration " << iteration;
    }
  }
  SetupTriangle notFinite;
  notFinite.z[0] = 0, notFinite.z[1] = std::nanf(""), notFinite.z[2] = 1;
  notFinite.depthBias = 0, notFinite.depthMin = 0, notFinite.depthMax = 1;
  const DepthInterval anything = fragmentDepthInterval(notFinite);
  EXPECT_EQ(anything.lo, -kInf);
  EXPECT_EQ(anything.hi, kInf);
}

}  // namespace
}  // namespace tessera::raster
