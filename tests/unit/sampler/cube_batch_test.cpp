// Cube maps in batches (sampling_cube.h) against the reference sampler (sampleImage), which
// implements "Cube Map Face Selection and Transformations" and "Cube Map Edge Handling" as the
// spec writes them: every lane within the fixed-point routines' bound of the reference (their
// coordinate and δ snapped to 2^-8: 2^-8 + 2^-9 for values in [0, 1]), footprints that cross a
// face edge exactly the reference's (the neighbouring face's texels), on random cube maps,
// samplers and directions at W = 4, 8, 16.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "sampler_internal.h"
#include "sampling_test_view.h"
#include "tessera/sampling.h"
#include "tessera/sampling_batch.h"
#include "tessera/sampling_cube.h"

namespace tessera {
namespace {

using test::SamplingTestView;

abi::SamplerState makeSampler(VkFilter mag, VkFilter min, VkSamplerMipmapMode mip, VkSamplerAddressMode mode,
                              float bias = 0, float minLod = 0, float maxLod = VK_LOD_CLAMP_NONE, float maxAnisotropy = 0,
                              bool nonSeamless = false) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.flags = nonSeamless ? VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT : 0;
  info.magFilter = mag;
  info.minFilter = min;
  info.mipmapMode = mip;
  info.addressModeU = info.addressModeV = info.addressModeW = mode;  // cube maps ignore them (seamless)
  info.mipLodBias = bias;
  info.minLod = minLod;
  info.maxLod = maxLod;
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  info.anisotropyEnable = maxAnisotropy > 0;
  info.maxAnisotropy = maxAnisotropy;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

// A cube view (6 faces, full mip chain) of random texels, classified as view creation does.
SamplingTestView randomCube(VkFormat format, uint32_t size, std::mt19937& rng) {
  const uint32_t levels = uint32_t(std::bit_width(size));
  SamplingTestView view(format, VK_IMAGE_VIEW_TYPE_CUBE, size, size, 1, 6, levels);
  for (uint32_t l = 0; l < levels; ++l)
    view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
      for (uint32_t b = 0; b < view.state.texelSize; ++b) p[b] = uint8_t(rng());
    });
  view.state.fastSampling = classifyViewForRoutines(view.state);
  return view;
}

// One batch's operands, lane-major arrays as the runtime hands them over.
struct CubeBatch {
  uint32_t width = 0, active = 0;
  std::vector<float> x, y, z, dx[3], dy[3], lod;
  bool explicitLod = false;

  CubeSampleLanes lanes() const {
    CubeSampleLanes c;
    c.lanes.width = width;
    c.lanes.active = active;
    c.lanes.s = x.data(), c.lanes.t = y.data(), c.r = z.data();
    if (explicitLod) {
      c.lanes.lod = lod.data();
    } else {
      c.lanes.dPdx[0] = dx[0].data(), c.lanes.dPdx[1] = dx[1].data(), c.dPdxR = dx[2].data();
      c.lanes.dPdy[0] = dy[0].data(), c.lanes.dPdy[1] = dy[1].data(), c.dPdyR = dy[2].data();
    }
    return c;
  }
  SampleRequest request(uint32_t k) const {
    SampleRequest r;
    r.s = x[k], r.t = y[k], r.r = z[k];
    r.hasLod = explicitLod;
    r.lod = explicitLod ? lod[k] : 0.0f;
    r.hasGrad = !explicitLod;
    for (int c = 0; c < 3 && !explicitLod; ++c) r.dPdx[c] = dx[c][k], r.dPdy[c] = dy[c][k];
    return r;
  }
};

// Directions all over the sphere (a third of the batches hug face edges and corners, where
// footprints cross into the neighbouring faces); derivatives perpendicular-ish to the direction
// of a random length (λ from about -3 to 7 on a 32-texel face), as a quad's would be.
CubeBatch randomBatch(uint32_t width, std::mt19937& rng) {
  CubeBatch b;
  b.width = width;
  b.active = width == 32 ? ~0u : (1u << width) - 1;
  if (rng() % 3 == 0) b.active &= uint32_t(rng()) | 1u;
  b.x.resize(width), b.y.resize(width), b.z.resize(width), b.lod.resize(width);
  for (auto& v : b.dx) v.resize(width);
  for (auto& v : b.dy) v.resize(width);
  b.explicitLod = rng() % 4 == 0;
  std::normal_distribution<float> gauss(0.0f, 1.0f);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const bool edges = rng() % 3 == 0;
  for (uint32_t k = 0; k < width; ++k) {
    float d[3] = {gauss(rng), gauss(rng), gauss(rng)};
    if (edges) {
      // Two (or three) components of equal size: on an edge (a corner) of the cube, moved a
      // little so that it lies on one face.
      const int a = int(rng() % 3), c = (a + 1 + int(rng() % 2)) % 3;
      d[c] = std::copysign(std::fabs(d[a]) * (1.0f + (unit(rng) - 0.5f) * 0.02f), d[c]);
      if (rng() % 4 == 0) d[3 - a - c] = std::copysign(std::fabs(d[a]), d[3 - a - c]);
    }
    b.x[k] = d[0], b.y[k] = d[1], b.z[k] = d[2];
    const float len = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    const float scale = len * std::exp2(unit(rng) * 10.0f - 8.0f);
    for (int c = 0; c < 3; ++c) b.dx[c][k] = gauss(rng) * scale, b.dy[c][k] = gauss(rng) * scale;
    b.lod[k] = unit(rng) * 7.0f - 1.0f;
  }
  return b;
}

// Whether the reference's λ' lies within 2^-12 of a point where a mipmap or filter choice
// changes (a multiple of 1/2): there the routine, whose λ differs from the reference's in the
// last bits (log2 within 2^-40, the face derivatives rounded to float), may fall on the other
// side and pick another level.
bool nearAChoice(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleRequest& r) {
  double lambdaPrime;
  if (r.hasLod) {
    lambdaPrime = double(r.lod) + double(sampler.mipLodBias);
  } else {
    SampleRequest q = r;
    q.kind = SampleKind::QueryLod;
    lambdaPrime = sampleImage(view, sampler, q).f[1];
  }
  if (!std::isfinite(lambdaPrime)) return false;
  const double twice = 2.0 * lambdaPrime;
  return std::fabs(twice - std::round(twice)) < 0x1p-11;
}

// "Cube Map Face Selection and Transformations" on lanes (selectCubeFaceLanes, which the cube
// batches use) is the reference's selectCubeFace bit for bit: faces, coordinates and derivative
// transformations, on directions with ties between the axes' magnitudes (z wins, then y),
// signed zeros, negative and large or tiny components.
TEST(CubeFaceLanes, AreTheReferencesSelectCubeFaceBitForBit) {
  std::mt19937 rng(17);
  const float kSpecial[] = {0.0f, -0.0f, 1.0f, -1.0f, 0.5f, -0.5f, 3e-20f, -7e19f, 0.75f};
  auto component = [&]() {
    const uint32_t k = rng() % 12;
    return k < 9 ? kSpecial[k] : std::uniform_real_distribution<float>(-2.0f, 2.0f)(rng);
  };
  constexpr uint32_t kLanes = 16;
  for (int round = 0; round < 4000; ++round) {
    float dir[3][kLanes], dx[3][kLanes], dy[3][kLanes];
    for (uint32_t k = 0; k < kLanes; ++k) {
      for (int c = 0; c < 3; ++c) dir[c][k] = component(), dx[c][k] = component(), dy[c][k] = component();
      if (rng() % 3 == 0) dir[rng() % 3][k] = (rng() & 1 ? -1.0f : 1.0f) * dir[rng() % 3][k];  // a tie
      if (dir[0][k] == 0 && dir[1][k] == 0 && dir[2][k] == 0) dir[2][k] = 1.0f;  // undefined direction
    }
    const bool grads = round % 2 == 0;
    const float* const dxs[3] = {dx[0], dx[1], dx[2]};
    const float* const dys[3] = {dy[0], dy[1], dy[2]};
    uint32_t face[kLanes];
    float s[kLanes], t[kLanes], dsdx[kLanes], dtdx[kLanes], dsdy[kLanes], dtdy[kLanes];
    sampler_detail::selectCubeFaceLanes(kLanes, dir[0], dir[1], dir[2], grads ? dxs : nullptr, grads ? dys : nullptr,
                                        {face, s, t, dsdx, dtdx, dsdy, dtdy});
    for (uint32_t k = 0; k < kLanes; ++k) {
      const float d[3] = {dir[0][k], dir[1][k], dir[2][k]};
      const float gx[3] = {dx[0][k], dx[1][k], dx[2][k]}, gy[3] = {dy[0][k], dy[1][k], dy[2][k]};
      const sampler_detail::CubeFaceCoord ref = sampler_detail::selectCubeFace(d, grads ? gx : nullptr, grads ? gy : nullptr);
      const std::string where = "round " + std::to_string(round) + " lane " + std::to_string(k);
      ASSERT_EQ(face[k], ref.face) << where;
      auto same = [](float a, double b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(float(b)); };
      ASSERT_TRUE(same(s[k], ref.s) && same(t[k], ref.t)) << where;
      ASSERT_TRUE(same(dsdx[k], ref.dsdx) && same(dtdx[k], ref.dtdx) && same(dsdy[k], ref.dsdy) && same(dtdy[k], ref.dtdy))
          << where;
    }
  }
}

TEST(CubeBatch, MatchesTheReferenceWithinTheFixedPointBound) {
  std::mt19937 rng(20261201);
  const VkFilter filters[2] = {VK_FILTER_NEAREST, VK_FILTER_LINEAR};
  const VkSamplerAddressMode modes[3] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER};
  uint64_t lanes = 0, differing = 0, compared = 0;
  for (uint32_t width : {4u, 8u, 16u}) {
    for (int c = 0; c < 60; ++c) {
      const VkFormat format = rng() % 2 ? VK_FORMAT_R8G8B8A8_UNORM : VK_FORMAT_B8G8R8A8_UNORM;
      const uint32_t size = (rng() % 3 == 0) ? 24u : 32u;
      SamplingTestView view = randomCube(format, size, rng);
      const abi::SamplerState sampler =
          makeSampler(filters[rng() % 2], filters[rng() % 2],
                      rng() % 2 ? VK_SAMPLER_MIPMAP_MODE_LINEAR : VK_SAMPLER_MIPMAP_MODE_NEAREST, modes[rng() % 3],
                      rng() % 4 == 0 ? 0.75f : 0.0f, rng() % 5 == 0 ? 1.0f : 0.0f);
      const std::string what = "W=" + std::to_string(width) + " case " + std::to_string(c);
      for (int n = 0; n < 20; ++n) {
        const CubeBatch b = randomBatch(width, rng);
        std::vector<uint32_t> out(4 * width, 0xDEADBEEFu);
        ASSERT_TRUE(sampleCubeBatch(view.state, sampler, b.lanes(), out.data())) << what;
        for (uint32_t k = 0; k < width; ++k) {
          if (!(b.active >> k & 1)) {
            for (uint32_t i = 0; i < 4; ++i) ASSERT_EQ(out[i * width + k], 0u) << what << " inactive lane " << k;
            continue;
          }
          ++lanes;
          const SampleRequest r = b.request(k);
          if (nearAChoice(view.state, sampler, r)) continue;
          ++compared;
          const TexelValue want = sampleImage(view.state, sampler, r);
          bool same = true;
          for (uint32_t i = 0; i < 4; ++i) {
            const float got = std::bit_cast<float>(out[i * width + k]);
            same = same && out[i * width + k] == want.u[i];
            ASSERT_LE(std::fabs(double(got) - want.f[i]), 0x1p-8 + 0x1p-9 + 0x1p-20)
                << what << " batch " << n << " lane " << k << " component " << i << ": batch " << got << ", reference "
                << want.f[i] << "; direction (" << r.s << ", " << r.t << ", " << r.r << ")"
                << (r.hasLod ? " lod " + std::to_string(r.lod) : std::string(" gradients"));
          }
          differing += !same;
        }
      }
    }
  }
  EXPECT_GT(compared, lanes * 9 / 10);
  // The fixed-point routines' snapped weights show in the low bits of most filtered lanes: the
  // faces' routines, not the reference, sampled them.
  EXPECT_GT(differing, compared / 4);
}

// "Cube Map Edge Handling": magnified (λ < 0: level 0, LINEAR) lanes exactly on the edges
// between faces take half their footprint from the neighbouring face (different random bytes
// here), which a face's own routine with CLAMP_TO_EDGE would not. The batch gives them the
// neighbour's texels with the fixed-point routines' weights: within their bound of the
// reference, not its bits (the routines' snapped weights show in most lanes).
TEST(CubeBatch, FootprintsAcrossAFaceEdgeTakeTheNeighboursTexels) {
  std::mt19937 rng(5);
  uint32_t lanes = 0, differing = 0;
  for (const VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM}) {
    SamplingTestView view = randomCube(format, 16, rng);
    for (const VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_MIPMAP_MODE_NEAREST}) {
      const abi::SamplerState sampler = makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, mip, VK_SAMPLER_ADDRESS_MODE_REPEAT);
      for (uint32_t width : {4u, 8u, 16u}) {
        CubeBatch b = randomBatch(width, rng);
        b.active = width == 32 ? ~0u : (1u << width) - 1;
        b.explicitLod = false;
        std::uniform_real_distribution<float> unit(-0.9f, 0.9f);
        for (uint32_t k = 0; k < width; ++k) {
          const float sign = k & 1 ? -1.0f : 1.0f;
          // |x| = |z| (the +-X/+-Z edge; x wins ties as the reference's face order says), y inside.
          b.x[k] = sign, b.z[k] = (k & 2) ? 1.0f : -1.0f, b.y[k] = unit(rng);
          for (int c = 0; c < 3; ++c) b.dx[c][k] = (c == 1 ? 0.01f : 0.0f), b.dy[c][k] = (c == 0 ? 0.0f : 0.01f);
        }
        std::vector<uint32_t> out(4 * width);
        ASSERT_TRUE(sampleCubeBatch(view.state, sampler, b.lanes(), out.data()));
        for (uint32_t k = 0; k < width; ++k) {
          const TexelValue want = sampleImage(view.state, sampler, b.request(k));
          bool same = true;
          for (uint32_t i = 0; i < 4; ++i) {
            const float got = std::bit_cast<float>(out[i * width + k]);
            same = same && out[i * width + k] == want.u[i];
            ASSERT_LE(std::fabs(double(got) - want.f[i]), 0x1p-8 + 0x1p-9 + 0x1p-20)
                << "W=" << width << " lane " << k << " component " << i << " mip " << mip << " format " << format;
          }
          ++lanes;
          differing += !same;
        }
      }
    }
  }
  EXPECT_GT(differing, lanes / 4);
}

// A footprint over a cube corner (its corner texel the average of the three texels around the
// corner, "Cube Map Edge Handling") is the reference's, bit for bit.
TEST(CubeBatch, FootprintsOverACubeCornerAreTheReferencesOwn) {
  std::mt19937 rng(6);
  SamplingTestView view = randomCube(VK_FORMAT_R8G8B8A8_UNORM, 16, rng);
  const abi::SamplerState sampler =
      makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  std::uniform_real_distribution<float> near(0.995f, 1.0f);
  for (uint32_t width : {4u, 8u, 16u}) {
    CubeBatch b = randomBatch(width, rng);
    b.active = width == 32 ? ~0u : (1u << width) - 1;
    b.explicitLod = false;
    for (uint32_t k = 0; k < width; ++k) {
      // Each of the eight corners, the three components within half a texel of one magnitude.
      b.x[k] = (k & 1 ? -1.0f : 1.0f) * near(rng), b.y[k] = (k & 2 ? -1.0f : 1.0f) * near(rng);
      b.z[k] = (k & 4 ? -1.0f : 1.0f) * near(rng);
      for (int c = 0; c < 3; ++c) b.dx[c][k] = c == 1 ? 0.001f : 0.0f, b.dy[c][k] = c == 0 ? 0.0f : 0.001f;
    }
    std::vector<uint32_t> out(4 * width);
    ASSERT_TRUE(sampleCubeBatch(view.state, sampler, b.lanes(), out.data()));
    for (uint32_t k = 0; k < width; ++k) {
      const TexelValue want = sampleImage(view.state, sampler, b.request(k));
      for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(out[i * width + k], want.u[i]) << "W=" << width << " lane " << k << " component " << i;
    }
  }
}

TEST(CubeBatch, LeavesOtherCasesToTheCaller) {
  std::mt19937 rng(9);
  SamplingTestView rgba = randomCube(VK_FORMAT_R8G8B8A8_UNORM, 8, rng);
  SamplingTestView floats = randomCube(VK_FORMAT_R32G32B32A32_SFLOAT, 8, rng);
  const abi::SamplerState plain =
      makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  const CubeBatch b = randomBatch(8, rng);
  std::vector<uint32_t> out(32, 0xDEADBEEFu);
  // A format no fixed-point routine takes, an anisotropic sampler (samples may lie on other
  // faces), a non-seamless cube (the sampler's address modes per face).
  EXPECT_FALSE(sampleCubeBatch(floats.state, plain, b.lanes(), out.data()));
  EXPECT_FALSE(sampleCubeBatch(rgba.state,
                               makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                           VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, VK_LOD_CLAMP_NONE, 16.0f),
                               b.lanes(), out.data()));
  EXPECT_FALSE(sampleCubeBatch(rgba.state,
                               makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                           VK_SAMPLER_ADDRESS_MODE_REPEAT, 0, 0, VK_LOD_CLAMP_NONE, 0.0f, true),
                               b.lanes(), out.data()));
  for (uint32_t w : out) EXPECT_EQ(w, 0xDEADBEEFu);
  // A 2D view is not a cube.
  SamplingTestView flat(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8);
  EXPECT_FALSE(sampleCubeBatch(flat.state, plain, b.lanes(), out.data()));
}

}  // namespace
}  // namespace tessera
