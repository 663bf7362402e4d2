// Rasterization at 2, 4, 8 and 16 samples per pixel ("Multisampling", Table "Standard sample
// locations"): the sample locations of every count, coverage per sample with the edge
// functions and tie-break of "Basic Polygon Rasterization" (a mesh covers every sample once; an
// exact oracle agrees at every sample), each sample's own depth ("Depth Test" reads the
// sample's depth; "Depth Bias"), points ("Basic Point Rasterization") and non-strict lines
// ("Basic Line Segment Rasterization") sampled the same way. multisample_test.cpp holds the
// 4-sample cases worked out by hand; here the spec's table is written out once more (in
// sixteenths of a pixel, not taken from raster/ or the shader ABI) and every count is checked
// against it.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <map>
#include <random>

#include "raster_test_support.h"
#include "rules.h"

namespace tessera::raster {
namespace {

using test::WindowVertex;

// The spec's table, sample by sample, in 1/16 pixel from the pixel's top-left corner.
struct CountTable {
  uint32_t samples;
  int location[16][2];
};
constexpr CountTable kTables[] = {
    {1, {{8, 8}}},
    {2, {{12, 12}, {4, 4}}},
    {4, {{6, 2}, {14, 6}, {2, 10}, {10, 14}}},
    {8, {{9, 5}, {7, 11}, {13, 9}, {5, 3}, {3, 13}, {1, 7}, {11, 15}, {15, 1}}},
    {16, {{9, 9}, {7, 5}, {5, 10}, {12, 7}, {3, 6}, {10, 13}, {13, 11}, {11, 3}, {6, 14}, {8, 1}, {4, 2}, {2, 12},
          {0, 8}, {15, 4}, {14, 15}, {1, 0}}},
};
const CountTable& tableFor(uint32_t samples) {
  for (const CountTable& t : kTables)
    if (t.samples == samples) return t;
  ADD_FAILURE() << "no table for " << samples;
  return kTables[0];
}
// Sample k of pixel (x, y) in 1/256 pixel.
int64_t sampleX(uint32_t samples, int x, int k) { return int64_t(x) * 256 + tableFor(samples).location[k][0] * 16; }
int64_t sampleY(uint32_t samples, int y, int k) { return int64_t(y) * 256 + tableFor(samples).location[k][1] * 16; }

constexpr uint32_t kMultiCounts[] = {2, 4, 8, 16};

RasterState msaaState(int width, int height, uint32_t samples) {
  RasterState s = test::fullScreenState(width, height);
  s.samples = samples;
  return s;
}

// Per pixel: the OR of the sample masks emitted for it, and how many times each sample was.
struct SampleRaster {
  std::map<std::pair<int, int>, uint32_t> mask;
  std::map<std::pair<int, int>, std::array<int, 16>> sampleCount;
  std::map<std::pair<int, int>, test::Fragment> fragment;
};

void collectSamples(const Quad& q, uint32_t samples, SampleRaster& r) {
  for (int slot = 0; slot < 4; ++slot) {
    const std::pair<int, int> p{q.x + (slot & 1), q.y + (slot >> 1)};
    EXPECT_EQ((q.coverage >> slot & 1) != 0, q.sampleCoverage[slot] != 0) << p.first << "," << p.second;
    EXPECT_EQ(q.sampleCoverage[slot] >> samples, 0u) << "a sample bit beyond the count";
    if (q.sampleCoverage[slot] == 0) continue;
    r.mask[p] |= q.sampleCoverage[slot];
    auto& counts = r.sampleCount.try_emplace(p, std::array<int, 16>{}).first->second;
    for (uint32_t s = 0; s < samples; ++s) counts[s] += q.sampleCoverage[slot] >> s & 1;
    r.fragment[p] = {q.coverage, slot, q};
  }
}

SampleRaster drawTriangles(const RasterState& s, const std::vector<std::array<WindowVertex, 3>>& tris,
                           std::vector<SetupTriangle>* setupsOut = nullptr) {
  std::vector<SetupTriangle> setups;
  for (const auto& t : tris) {
    const WindowVertex v[3] = {t[0], t[1], t[2]};
    setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
  }
  SampleRaster r;
  for (const SetupTriangle& t : setups) {
    EXPECT_EQ(t.samples, s.samples);
    rasterizeTriangle(t, s.scissor, [&](const Quad& q) { collectSamples(q, s.samples, r); });
  }
  if (setupsOut) *setupsOut = setups;
  return r;
}

uint32_t maskAt(const SampleRaster& r, int x, int y) {
  const auto it = r.mask.find({x, y});
  return it == r.mask.end() ? 0 : it->second;
}

TEST(RasterSampleCounts, StandardSampleLocations_EveryCountAtTheTablesLocations) {
  for (const CountTable& t : kTables) {
    EXPECT_EQ(rules::rasterSampleCount(t.samples), t.samples);
    for (uint32_t k = 0; k < t.samples; ++k) {
      for (const auto& [px, py] : {std::pair{0, 0}, std::pair{7, -3}, std::pair{-5, 1000}}) {
        int64_t sx, sy;
        rules::sampleLocation(px, py, t.samples, k, &sx, &sy);
        EXPECT_EQ(sx, sampleX(t.samples, px, int(k))) << t.samples << " samples, sample " << k;
        EXPECT_EQ(sy, sampleY(t.samples, py, int(k))) << t.samples << " samples, sample " << k;
      }
      // The kernels' table (SamplePosition, InterpolateAtSample) is the same one.
      EXPECT_EQ(abi::standardSampleLocation(t.samples, k)[0], t.location[k][0] / 16.0f);
      EXPECT_EQ(abi::standardSampleLocation(t.samples, k)[1], t.location[k][1] / 16.0f);
    }
    // The extremes the bounds widen by.
    int lo = 16, hi = 0;
    for (uint32_t k = 0; k < t.samples; ++k)
      for (const int c : t.location[k]) lo = std::min(lo, c), hi = std::max(hi, c);
    EXPECT_EQ(rules::sampleOffsetRange(t.samples).min, lo * 16) << t.samples;
    EXPECT_EQ(rules::sampleOffsetRange(t.samples).max, hi * 16) << t.samples;
  }
  // Counts without standard locations sample once, at the centre.
  for (const uint32_t n : {0u, 3u, 32u, 64u}) EXPECT_EQ(rules::rasterSampleCount(n), 1u) << n;
}

TEST(RasterSampleCounts, BasicPolygonRasterization_MeshCoversEverySampleOnce) {
  // "If two polygons lie on either side of a common edge ... on which a sample point lies,
  // then exactly one of the polygons must result in a covered sample": a mesh tiling the
  // viewport covers every sample of every pixel exactly once. Vertices are jittered on the
  // 1/16-pixel grid the 8- and 16-sample locations lie on, so many samples fall exactly on
  // shared edges and vertices (16 samples have locations on the pixel's left and top edges).
  constexpr int kW = 32, kH = 32, kCell = 8;
  constexpr int nx = kW / kCell, ny = kH / kCell;
  for (const uint32_t samples : kMultiCounts) {
    for (uint32_t seed = 1; seed <= 8; ++seed) {
      std::mt19937 rng(seed);
      const RasterState s = msaaState(kW, kH, samples);
      std::vector<WindowVertex> grid((nx + 1) * (ny + 1));
      for (int j = 0; j <= ny; ++j) {
        for (int i = 0; i <= nx; ++i) {
          double x = i * kCell, y = j * kCell;
          auto jitter = [&] { return std::uniform_int_distribution<int>(-32, 32)(rng) / 16.0; };
          if (i > 0 && i < nx) x += jitter();
          if (j > 0 && j < ny) y += jitter();
          grid[j * (nx + 1) + i] = {x, y, 0.5, std::uniform_real_distribution<double>(0.5, 4)(rng)};
        }
      }
      std::vector<std::array<WindowVertex, 3>> tris;
      for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
          const WindowVertex p00 = grid[j * (nx + 1) + i], p10 = grid[j * (nx + 1) + i + 1];
          const WindowVertex p01 = grid[(j + 1) * (nx + 1) + i], p11 = grid[(j + 1) * (nx + 1) + i + 1];
          if (rng() % 2) {
            tris.push_back({p00, p10, p11});
            tris.push_back({p00, p11, p01});
          } else {
            tris.push_back({p00, p10, p01});
            tris.push_back({p10, p11, p01});
          }
          for (size_t t = tris.size() - 2; t < tris.size(); ++t) {
            const auto& v = tris[t];
            ASSERT_GT((v[1].x - v[0].x) * (v[2].y - v[0].y) - (v[1].y - v[0].y) * (v[2].x - v[0].x), 0);
            if (rng() % 2) std::swap(tris[t][1], tris[t][2]);  // random winding
          }
        }
      }
      const SampleRaster r = drawTriangles(s, tris);
      int missing = 0, doubled = 0;
      for (int y = 0; y < kH; ++y) {
        for (int x = 0; x < kW; ++x) {
          const auto it = r.sampleCount.find({x, y});
          for (uint32_t k = 0; k < samples; ++k) {
            const int n = it == r.sampleCount.end() ? 0 : it->second[k];
            missing += n == 0;
            doubled += n > 1;
          }
        }
      }
      EXPECT_EQ(missing, 0) << samples << " samples, seed " << seed;
      EXPECT_EQ(doubled, 0) << samples << " samples, seed " << seed;
      EXPECT_EQ(r.mask.size(), size_t(kW) * kH) << samples << " samples, seed " << seed << ": pixels outside the viewport";
    }
  }
}

TEST(RasterSampleCounts, BasicPolygonRasterization_MatchesExactOracleAtEverySample) {
  // Random triangles, large (the 16x16 block reject) and sub-pixel slivers (the bounds, which
  // widen by the count's extreme offsets), vertices on the 1/16 grid or anywhere on the 1/256
  // grid, against the exact perturbed-point oracle at every standard location of the count.
  for (const uint32_t samples : kMultiCounts) {
    std::mt19937 rng(5 + samples);
    const RasterState s = msaaState(40, 40, samples);
    for (int n = 0; n < 120; ++n) {
      const bool sliver = n % 2;
      const int unit = n % 4 < 2 ? 16 : 1;  // 1/16 or 1/256 pixel grid
      WindowVertex v[3];
      const int cx = std::uniform_int_distribution<int>(-2, 41)(rng) * 256, cy = std::uniform_int_distribution<int>(-2, 41)(rng) * 256;
      for (auto& p : v) {
        const int range = sliver ? 320 : 0;
        const int x = sliver ? cx + std::uniform_int_distribution<int>(-range, range)(rng) / unit * unit
                             : std::uniform_int_distribution<int>(-1280, 40 * 256 + 1280)(rng) / unit * unit;
        const int y = sliver ? cy + std::uniform_int_distribution<int>(-range, range)(rng) / unit * unit
                             : std::uniform_int_distribution<int>(-1280, 40 * 256 + 1280)(rng) / unit * unit;
        p = {x / 256.0, y / 256.0, 0.5, 1};
      }
      std::vector<SetupTriangle> setups;
      const SampleRaster r = drawTriangles(s, {{v[0], v[1], v[2]}}, &setups);
      if (setups.empty()) {
        EXPECT_TRUE(r.mask.empty());
        continue;
      }
      ASSERT_EQ(setups.size(), 1u);  // inside the guard band: not clipped
      const SetupTriangle& t = setups[0];
      for (int y = 0; y < 40; ++y) {
        for (int x = 0; x < 40; ++x) {
          uint32_t expected = 0;
          for (uint32_t k = 0; k < samples; ++k)
            if (test::oracleCoversAt(t.x, t.y, sampleX(samples, x, int(k)), sampleY(samples, y, int(k)))) expected |= 1u << k;
          ASSERT_EQ(maskAt(r, x, y), expected) << samples << " samples, triangle " << n << " pixel " << x << "," << y;
        }
      }
    }
  }
}

TEST(RasterSampleCounts, DepthBias_EverySampleHasThePlanesDepthAtItsLocation) {
  // Window depth z = x / 16 over (0, 0), (16, 0), (0, 16) plus a constant bias of 4 r, r = 2^-16
  // for D16_UNORM ("Depth Bias Computation"): sample k of pixel (2, 3) has depth
  // (2 + x_k) / 16 + 2^-14 at its own location x_k; the centre keeps (2.5) / 16 + 2^-14.
  for (const uint32_t samples : kMultiCounts) {
    RasterState s = msaaState(16, 16, samples);
    s.depthBiasEnable = true;
    s.depthBiasConstantFactor = 4;
    s.depthFormat = VK_FORMAT_D16_UNORM;
    const SampleRaster r = drawTriangles(s, {{{{0, 0, 0, 1}, {16, 0, 1, 1}, {0, 16, 0, 1}}}});
    const test::Fragment& f = r.fragment.at({2, 3});
    const double bias = 1.0 / 16384;
    for (uint32_t k = 0; k < samples; ++k)
      EXPECT_NEAR(f.quad.sampleZ[f.slot][k], (2 + tableFor(samples).location[k][0] / 16.0) / 16 + bias, 1e-7)
          << samples << " samples, sample " << k;
    EXPECT_NEAR(f.quad.z[f.slot], 2.5 / 16 + bias, 1e-7);
  }
}

TEST(RasterSampleCounts, InterpolationDecorations_CentroidIsTheLowestCoveredSample) {
  // A vertical edge at x = 2 + 1/2 through pixel column 2 ("Interpolation Decorations": a
  // partly covered pixel's Centroid location lies in the pixel and the primitive; Tessera's
  // choice is its lowest-numbered covered sample). With window-space weights of the vertices
  // (0, 0), (32, 0), (0, 32) the first weight is 1 - (x + y) / 32 at the location.
  for (const uint32_t samples : kMultiCounts) {
    const RasterState s = msaaState(16, 16, samples);
    // The triangle right of x = 2.5: (2.5, -64), (2.5, 64), (66.5, 0) in window space.
    const SampleRaster r = drawTriangles(s, {{{{2.5, -64, 0.5, 1}, {66.5, 0, 0.5, 1}, {2.5, 64, 0.5, 1}}}});
    const test::Fragment& f = r.fragment.at({2, 5});
    uint32_t expected = 0;
    for (uint32_t k = 0; k < samples; ++k)
      if (tableFor(samples).location[k][0] >= 8) expected |= 1u << k;
    ASSERT_EQ(maskAt(r, 2, 5), expected) << samples;
    const int first = std::countr_zero(expected);
    const double lx = 2 + tableFor(samples).location[first][0] / 16.0, ly = 5 + tableFor(samples).location[first][1] / 16.0;
    // Weights of the triangle's vertices 0 (2.5, -64), 1 (66.5, 0), 2 (2.5, 64) at (lx, ly): the
    // weight of vertex 1 is (x - 2.5) / 64; vertices 0 and 2 share the rest by y.
    const double w1 = (lx - 2.5) / 64;
    const double w2 = (ly + 64 - 64 * w1) / 128, w0 = 1 - w1 - w2;
    EXPECT_NEAR(f.quad.centroidLinear[f.slot][0], w0, 1e-6) << samples;
    EXPECT_NEAR(f.quad.centroidLinear[f.slot][1], w1, 1e-6) << samples;
    EXPECT_NEAR(f.quad.centroidLinear[f.slot][2], w2, 1e-6) << samples;
  }
}

TEST(RasterSampleCounts, BasicPointRasterization_RandomPointsMatchTheSquare) {
  // Every sample in the half-open square [x - 1/2, x + 1/2) x [y - 1/2, y + 1/2) and no other
  // is covered; a 1x1 square holds exactly one sample of each index.
  for (const uint32_t samples : kMultiCounts) {
    std::mt19937 rng(9 + samples);
    const RasterState s = msaaState(16, 16, samples);
    for (int n = 0; n < 100; ++n) {
      const int step = n % 2 ? 1 : 16;  // every other point on the locations' 1/16 grid
      auto coord = [&] { return int64_t(std::uniform_int_distribution<int>(2 * 256 / step, 14 * 256 / step)(rng)) * step; };
      const int64_t cx = coord(), cy = coord();
      float pos[4];
      test::clipFromWindow(s.viewport, {cx / 256.0, cy / 256.0, 0.5, 1}, pos);
      SetupPoint sp;
      ASSERT_TRUE(setupPoint(pos, 1, s, &sp));
      SampleRaster r;
      rasterizePoint(sp, s.scissor, [&](const Quad& q) { collectSamples(q, samples, r); });
      int total = 0;
      for (int y = 0; y < 16; ++y) {
        for (int x = 0; x < 16; ++x) {
          uint32_t expected = 0;
          for (uint32_t k = 0; k < samples; ++k) {
            const int64_t sx = sampleX(samples, x, int(k)), sy = sampleY(samples, y, int(k));
            if (sx >= cx - 128 && sx < cx + 128 && sy >= cy - 128 && sy < cy + 128) expected |= 1u << k;
          }
          ASSERT_EQ(maskAt(r, x, y), expected) << samples << " samples, point " << cx << "," << cy << " pixel " << x << "," << y;
          total += std::popcount(expected);
        }
      }
      EXPECT_EQ(total, int(samples));
    }
  }
}

TEST(RasterSampleCounts, BasicLineSegmentRasterization_RandomLinesMatchTheParallelogramAtEverySample) {
  // The non-strict line's coverage is the parallelogram's at each sample location (the
  // two-triangle oracle of raster_test_support.h), the tie-break that of polygons.
  for (const uint32_t samples : kMultiCounts) {
    const RasterState s = msaaState(24, 24, samples);
    std::mt19937 rng(17 + samples);
    for (int n = 0; n < 80; ++n) {
      const int step = rng() % 2 ? 1 : 16;
      auto coord = [&] { return int64_t(std::uniform_int_distribution<int>(0, 24 * 256 / step)(rng)) * step; };
      const int64_t ax = coord(), ay = coord(), bx = coord(), by = coord();
      std::vector<SetupLine> setups;
      setupLine(test::lineFromWindow(s.viewport, {ax / 256.0, ay / 256.0, 0.5, 1}, {bx / 256.0, by / 256.0, 0.5, 1}), s,
                setups);
      SampleRaster r;
      for (const SetupLine& l : setups) rasterizeLine(l, s.scissor, [&](const Quad& q) { collectSamples(q, samples, r); });
      for (int y = 0; y < 24; ++y) {
        for (int x = 0; x < 24; ++x) {
          uint32_t expected = 0;
          for (uint32_t k = 0; k < samples; ++k)
            if (test::oracleLineCoversAt(ax, ay, bx, by, sampleX(samples, x, int(k)), sampleY(samples, y, int(k))))
              expected |= 1u << k;
          ASSERT_EQ(maskAt(r, x, y), expected) << samples << " samples, line " << n << " (" << ax << "," << ay << ")-(" << bx
                                               << "," << by << ") pixel " << x << "," << y;
        }
      }
    }
  }
}

TEST(RasterSampleCounts, SampleLocationsExt_TrianglesPointsAndLinesSampleAtTheGivenLocations) {
  // VK_EXT_sample_locations: with RasterState::customSampleLocations every rule above holds at
  // the draw's own locations (random sixteenths, any of [0, 15/16]: beyond the standard
  // extremes, so the bounds must widen for them), against the same exact oracles.
  std::mt19937 rng(77);
  for (const uint32_t samples : {2u, 4u, 8u, 16u}) {
    RasterState s = msaaState(24, 24, samples);
    s.customSampleLocations = true;
    int64_t lx[16], ly[16];
    for (uint32_t k = 0; k < samples; ++k) {
      s.customLocations.x[k] = uint8_t(rng() % 16), s.customLocations.y[k] = uint8_t(rng() % 16);
      lx[k] = s.customLocations.x[k] * 16, ly[k] = s.customLocations.y[k] * 16;
    }
    for (int n = 0; n < 60; ++n) {
      WindowVertex v[3];
      for (auto& p : v)
        p = {std::uniform_int_distribution<int>(-256, 25 * 256)(rng) / 256.0, std::uniform_int_distribution<int>(-256, 25 * 256)(rng) / 256.0,
             0.5, 1};
      std::vector<SetupTriangle> setups;
      setupTriangle(test::clipFromWindow(s.viewport, v), s, setups);
      SampleRaster r;
      for (const SetupTriangle& t : setups) {
        EXPECT_TRUE(t.customLocations);
        rasterizeTriangle(t, s.scissor, [&](const Quad& q) { collectSamples(q, samples, r); }, &s.customLocations);
      }
      for (int y = 0; y < 24; ++y)
        for (int x = 0; x < 24; ++x) {
          uint32_t expected = 0;
          for (const SetupTriangle& t : setups)
            for (uint32_t k = 0; k < samples; ++k)
              if (test::oracleCoversAt(t.x, t.y, x * 256 + lx[k], y * 256 + ly[k])) expected |= 1u << k;
          ASSERT_EQ(maskAt(r, x, y), expected) << samples << " samples, triangle " << n << " pixel " << x << "," << y;
        }
    }
    for (int n = 0; n < 40; ++n) {
      // Points: the half-open square around the vertex.
      const int64_t cx = std::uniform_int_distribution<int>(2 * 256, 22 * 256)(rng), cy = std::uniform_int_distribution<int>(2 * 256, 22 * 256)(rng);
      float pos[4];
      test::clipFromWindow(s.viewport, {cx / 256.0, cy / 256.0, 0.5, 1}, pos);
      SetupPoint sp;
      ASSERT_TRUE(setupPoint(pos, 3, s, &sp));
      SampleRaster r;
      rasterizePoint(sp, s.scissor, [&](const Quad& q) { collectSamples(q, samples, r); }, &s.customLocations);
      // Lines: the parallelogram.
      const int64_t ax = std::uniform_int_distribution<int>(0, 24 * 256)(rng), ay = std::uniform_int_distribution<int>(0, 24 * 256)(rng);
      const int64_t bx = std::uniform_int_distribution<int>(0, 24 * 256)(rng), by = std::uniform_int_distribution<int>(0, 24 * 256)(rng);
      std::vector<SetupLine> lines;
      setupLine(test::lineFromWindow(s.viewport, {ax / 256.0, ay / 256.0, 0.5, 1}, {bx / 256.0, by / 256.0, 0.5, 1}), s, lines);
      SampleRaster rl;
      for (const SetupLine& l : lines) rasterizeLine(l, s.scissor, [&](const Quad& q) { collectSamples(q, samples, rl); }, &s.customLocations);
      for (int y = 0; y < 24; ++y)
        for (int x = 0; x < 24; ++x) {
          uint32_t point = 0, line = 0;
          for (uint32_t k = 0; k < samples; ++k) {
            const int64_t sx = x * 256 + lx[k], sy = y * 256 + ly[k];
            if (sx >= cx - 384 && sx < cx + 384 && sy >= cy - 384 && sy < cy + 384) point |= 1u << k;
            if (!lines.empty() && test::oracleLineCoversAt(ax, ay, bx, by, sx, sy)) line |= 1u << k;
          }
          ASSERT_EQ(maskAt(r, x, y), point) << samples << " samples, point " << cx << "," << cy << " pixel " << x << "," << y;
          ASSERT_EQ(maskAt(rl, x, y), line) << samples << " samples, line " << n << " pixel " << x << "," << y;
        }
    }
  }
}

}  // namespace
}  // namespace tessera::raster
