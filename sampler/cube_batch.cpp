// Cube maps in batches (sampling_cube.h): per lane, the reference's face selection and
// derivative transformation; per face, the 2D fixed-point routine on that face; for lanes whose
// LINEAR footprint needs a neighbouring face, the same arithmetic on the neighbour's texels
// (RGBA8 and BGRA8 faces), the reference on cube corners and other formats.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <utility>

#include "batch_lanes.h"
#include "routine_clones.h"
#include "sampler_internal.h"
#include "tessera/sampling.h"
#include "tessera/sampling_cube.h"

namespace tessera {
namespace {

using namespace sampler_detail::batch;

// Whether a LINEAR footprint at face coordinate x (s or t) of a level `size` texels wide stays
// inside the face: texels floor(u - 1/2) and floor(u - 1/2) + 1 with u = x size, both in
// [0, size - 1], with 2^-7 texel to spare (the routine snaps u - 1/2 to 2^-8 and takes x in
// float; a footprint that reaches beyond by less has the neighbour's weight 0 anyway, and the
// reference samples it either way).
bool insideFace(double x, uint32_t size) {
  const double u = x * double(size);
  return u >= 0.5 + 0x1p-7 && u <= double(size) - 0.5 - 0x1p-7;
}

// "Cube Map Edge Handling" of a LINEAR footprint on an RGBA8/BGRA8 face in the fixed-point
// routines' arithmetic (filterLevelFixed's coordinates and sums): the 2x2 texels of (s, t) on
// level `level` of `face`, those beyond the face's edge taken from the neighbouring face
// (cubeAdjacentTexel; a texel inside maps to itself), with the weights the face routine gives
// them; each byte's sum is 255 x 2^16 times the value. False where the footprint covers a cube
// corner (both axes cross an edge: the corner texel is the average of three texels, left to
// the reference). The kernel's inline cube sampling (spirv_jit/inline_sample.cpp
// edgeFootprint) computes the same texels.
bool cubeEdgeSums(const abi::ImageViewState& view, uint32_t face, uint32_t level, float s, float t, uint32_t sum[4]) {
  const abi::ImageLevel& l = view.levels[level];
  const int32_t n = int32_t(l.width);  // cube faces are square
  const double x = std::floor((double(s) * l.width - 0.5) * 256.0 + 0.5);
  const double y = std::floor((double(t) * l.height - 0.5) * 256.0 + 0.5);
  // s and t lie in [0, 1] (selectCubeFaceLanes), so i0 and j0 lie in [-1, n - 1].
  const int32_t fx = int32_t(x), fy = int32_t(y);
  const int32_t i0 = fx >> 8, j0 = fy >> 8;
  const uint32_t a = uint32_t(fx & 255), b = uint32_t(fy & 255);
  const bool acrossI = i0 < 0 || i0 >= n - 1, acrossJ = j0 < 0 || j0 >= n - 1;
  if (acrossI && acrossJ) return false;
  uint32_t texel[4];
  for (uint32_t q = 0; q < 4; ++q) {
    const sampler_detail::CubeTexel c =
        sampler_detail::cubeAdjacentTexel(face, i0 + int32_t(q & 1), j0 + int32_t(q >> 1), n);
    std::memcpy(&texel[q], l.base + uint64_t(c.face) * l.layerPitch + uint64_t(c.j) * l.rowPitch + uint64_t(c.i) * 4, 4);
  }
  for (uint32_t c = 0; c < 4; ++c) {
    const auto byte = [c](uint32_t v) { return (v >> (8 * c)) & 0xFF; };
    const uint32_t row0 = byte(texel[0]) * (256 - a) + byte(texel[1]) * a;
    const uint32_t row1 = byte(texel[2]) * (256 - a) + byte(texel[3]) * a;
    sum[c] = row0 * (256 - b) + row1 * b;
  }
  return true;
}

// The lane's value from its edge sums on its level(s), as the face routine divides them
// (sampleUnorm8: one level over 255 x 2^16; mipmapMode LINEAR S_hi (256 - δ8) + S_lo δ8 over
// 255 x 2^24), in R, G, B, A order (a BGRA8 face's bytes 0 and 2 swapped). False for a corner
// footprint (cubeEdgeSums).
bool cubeEdgeLane(const abi::ImageViewState& view, bool bgra, bool mipLinear, uint32_t face, float s, float t,
                  uint32_t levelHi, uint32_t levelLo, double delta, uint32_t value[4]) {
  uint32_t hi[4], lo[4];
  if (!cubeEdgeSums(view, face, levelHi, s, t, hi)) return false;
  // δ8 = 0: S_hi 256 over 255 x 2^24 is S_hi over 255 x 2^16, both correctly rounded, so the
  // one-level quotient has the same bits without level lo (whose footprint may be a corner's;
  // the kernel does the same).
  const uint32_t d8 = mipLinear ? uint32_t(int32_t(std::floor(delta * 256.0 + 0.5))) : 0;
  if (d8 != 0) {
    if (!cubeEdgeSums(view, face, levelLo, s, t, lo)) return false;
    constexpr double kScale = 255.0 * 16777216.0;
    for (uint32_t c = 0; c < 4; ++c) value[c] = std::bit_cast<uint32_t>(float(double(hi[c] * (256 - d8) + lo[c] * d8) / kScale));
  } else {
    for (uint32_t c = 0; c < 4; ++c) value[c] = std::bit_cast<uint32_t>(float(int32_t(hi[c])) / 16711680.0f);
  }
  if (bgra) std::swap(value[0], value[2]);
  return true;
}

template <uint32_t N>
__attribute__((always_inline)) inline bool sampleCube(const abi::ImageViewState& view, const abi::SamplerState& sampler, const abi::SamplerState& faceSampler,
                const CubeSampleLanes& cube, uint32_t* out) {
  const SampleLanes& in = cube.lanes;
  // The faces as 2D views of the cube's levels (face f: layer f), sampled with CLAMP_TO_EDGE,
  // which is what "Wrapping Operation" gives cube maps under NEAREST; a LINEAR lane takes the
  // routine only where its footprint never reaches an edge, so the clamp changes nothing there.
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  abi::ImageViewState face;
  cubeFaceView(view, levelCount, face);
  // The fixed-point routine of the face's format (routine_choice.cpp's own choice; null for
  // the formats only the exact routines take, whose results must be the reference's bits).
  const SampleRoutine routine = unorm8Routine(face.fastSampling, N == 4 ? 0 : N == 8 ? 1 : 2, faceSampler.fastSampling);
  if (!routine) return false;

  // Each active lane's face, coordinates and derivatives (selectCubeFaceLanes: the reference's
  // selectCubeFace bit for bit, on all lanes at once), given to the routine as floats; lanes
  // whose direction is not finite and non-zero go to the reference.
  const bool grad = !in.lod && in.dPdx[0] && in.dPdy[0] && cube.dPdxR && cube.dPdyR;
  alignas(64) float s[N], t[N], dsdx[N], dtdx[N], dsdy[N], dtdy[N];
  uint32_t faceOf[N];
  const float* const dx[3] = {in.dPdx[0], in.dPdx[1], cube.dPdxR};
  const float* const dy[3] = {in.dPdy[0], in.dPdy[1], cube.dPdyR};
  sampler_detail::selectCubeFaceLanes(N, in.s, in.t, cube.r, grad ? dx : nullptr, grad ? dy : nullptr,
                                      {faceOf, s, t, dsdx, dtdx, dsdy, dtdy});
  uint32_t valid = 0;
  for (uint32_t k = 0; k < N; ++k)
    valid |= uint32_t(std::isfinite(in.s[k]) && std::isfinite(in.t[k]) && std::isfinite(cube.r[k]) &&
                      !(in.s[k] == 0 && in.t[k] == 0 && cube.r[k] == 0))
             << k;
  uint32_t routed = in.active & valid, reference = in.active & ~valid;
  SampleLanes lanes;
  lanes.width = N;
  lanes.active = routed;
  lanes.s = s, lanes.t = t;
  lanes.lod = in.lod;
  if (grad) lanes.dPdx[0] = dsdx, lanes.dPdx[1] = dtdx, lanes.dPdy[0] = dsdy, lanes.dPdy[1] = dtdy;
  lanes.bias = in.bias;
  lanes.minLod = in.minLod;

  // The routine's own levels and filter per lane (selectLaneLevels, as the fixed-point routines
  // call it): a LINEAR lane whose footprint at one of its levels reaches an edge takes the
  // neighbouring faces' texels (cubeEdgeLane) on the faces the kernel samples inline (RGBA8 and
  // BGRA8 as they are), the reference elsewhere and on a cube corner.
  const bool mipLinear = sampler.mipmapMode == VK_SAMPLER_MIPMAP_MODE_LINEAR;
  uint32_t levelHi[N], levelLo[N], linearLanes = 0, across = 0;
  alignas(64) double delta[N];
  selectLaneLevels<N, true>(face, faceSampler, lanes, routed, levelCount, mipLinear, levelHi, levelLo, delta, linearLanes);
  for (uint32_t k = 0; k < N; ++k) {
    if (!(linearLanes >> k & 1)) continue;
    bool inside = true;
    for (const uint32_t level : {levelHi[k], levelLo[k]}) {
      const abi::ImageLevel& l = view.levels[std::min(level, levelCount - 1)];
      inside = inside && insideFace(s[k], l.width) && insideFace(t[k], l.height);
    }
    if (!inside) routed &= ~(1u << k), across |= 1u << k;
  }

  std::memset(out, 0, sizeof(uint32_t) * 4 * N);
  // One routine call per face met, its lanes' results copied out.
  uint32_t remaining = routed;
  while (remaining) {
    const uint32_t f = faceOf[std::countr_zero(remaining)];
    uint32_t mask = 0;
    for (uint32_t k = 0; k < N; ++k)
      if ((remaining >> k & 1) && faceOf[k] == f) mask |= 1u << k;
    remaining &= ~mask;
    for (uint32_t l = 0; l < levelCount; ++l) face.levels[l].base = view.levels[l].base + uint64_t(f) * view.levels[l].layerPitch;
    lanes.active = mask;
    alignas(64) uint32_t faceOut[4 * N];
    routine(face, faceSampler, lanes, faceOut);
    for (uint32_t c = 0; c < 4; ++c)
      for (uint32_t k = 0; k < N; ++k)
        if (mask >> k & 1) out[c * N + k] = faceOut[c * N + k];
  }
  const bool edgesInline = (face.fastSampling == kRgba8Unorm || face.fastSampling == kBgra8Unorm) && identitySwizzle(view);
  for (uint32_t k = 0; k < N; ++k) {
    if (!(across >> k & 1)) continue;
    uint32_t value[4];
    if (edgesInline && cubeEdgeLane(view, face.fastSampling == kBgra8Unorm, mipLinear, faceOf[k], s[k], t[k], levelHi[k], levelLo[k], delta[k], value)) {
      for (uint32_t c = 0; c < 4; ++c) out[c * N + k] = value[c];
    } else {
      reference |= 1u << k;
    }
  }
  // The rest through the reference, as the per-lane path would take them.
  for (uint32_t k = 0; k < N; ++k) {
    if (!(reference >> k & 1)) continue;
    SampleRequest r;
    r.s = in.s[k], r.t = in.t[k], r.r = cube.r[k];
    r.hasLod = in.lod != nullptr;
    if (in.lod) r.lod = in.lod[k];
    r.hasGrad = !in.lod && in.dPdx[0] != nullptr;
    if (r.hasGrad) {
      r.dPdx[0] = in.dPdx[0][k], r.dPdx[1] = in.dPdx[1][k], r.dPdx[2] = cube.dPdxR ? cube.dPdxR[k] : 0.0f;
      r.dPdy[0] = in.dPdy[0][k], r.dPdy[1] = in.dPdy[1][k], r.dPdy[2] = cube.dPdyR ? cube.dPdyR[k] : 0.0f;
    }
    r.bias = in.bias ? in.bias[k] : 0.0f;
    r.hasMinLod = in.minLod != nullptr;
    if (in.minLod) r.minLod = in.minLod[k];
    const TexelValue v = sampleImage(view, sampler, r);
    for (uint32_t c = 0; c < 4; ++c) out[c * N + k] = v.u[c];
  }
  return true;
}

// One instance per width, each built for the baseline, AVX2 and AVX-512 (the host's runs), as
// the routines are: its selectLaneLevels and lane loops then vectorize as theirs do.
#define TESSERA_CUBE_WIDTH(N)                                                                                         \
  TESSERA_ROUTINE_CLONES bool sampleCube##N(                                                                        \
      const abi::ImageViewState& view, const abi::SamplerState& sampler, const abi::SamplerState& faceSampler,     \
      const CubeSampleLanes& cube, uint32_t* out) {                                                                \
    return sampleCube<N>(view, sampler, faceSampler, cube, out);                                                   \
  }
TESSERA_CUBE_WIDTH(4)
TESSERA_CUBE_WIDTH(8)
TESSERA_CUBE_WIDTH(16)

}  // namespace

bool cubeFaceSampler(const abi::SamplerState& sampler, abi::SamplerState& faceSampler) {
  if (sampler.nonSeamlessCube) return false;
  faceSampler = sampler;
  for (uint32_t c = 0; c < 3; ++c) faceSampler.addressMode[c] = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
  faceSampler.fastSampling = classifySamplerForRoutines(faceSampler);
  return faceSampler.fastSampling != 0 && faceSampler.fastSampling <= 8;
}

void cubeFaceView(const abi::ImageViewState& view, uint32_t levelCount, abi::ImageViewState& face) {
  // Only the levels read are copied: copying all of them cost a tenth of a cube batch's time.
  std::memcpy(static_cast<void*>(&face), &view, offsetof(abi::ImageViewState, levels) + levelCount * sizeof(abi::ImageLevel));
  face.viewType = VK_IMAGE_VIEW_TYPE_2D;
  face.layerCount = 1;
  face.fastSampling = classifyViewForRoutines(face);
  face.decoded = nullptr;  // the cube view's copy is not the face's
}

bool sampleCubeBatch(const abi::ImageViewState& view, const abi::SamplerState& sampler, const CubeSampleLanes& lanes,
                     uint32_t* out) {
  if (view.viewType != VK_IMAGE_VIEW_TYPE_CUBE || view.layerCount < 6 || view.levelCount == 0) return false;
  if (samplingRoutines() != SamplingRoutines::All) return false;
  // Seamless (a non-seamless cube samples each face with the sampler's own address modes); the
  // address modes are otherwise not read ("Wrapping Operation"): the faces take the sampler
  // with CLAMP_TO_EDGE, which must have a routine class, and not an anisotropic one (an
  // anisotropic footprint's samples may lie on other faces).
  abi::SamplerState faceSampler;
  if (!cubeFaceSampler(sampler, faceSampler)) return false;
  if (!lanes.r || lanes.lanes.offset[0] || lanes.lanes.offset[1] || lanes.lanes.layer) return false;
  switch (lanes.lanes.width) {
    case 4: return sampleCube4(view, sampler, faceSampler, lanes, out);
    case 8: return sampleCube8(view, sampler, faceSampler, lanes, out);
    case 16: return sampleCube16(view, sampler, faceSampler, lanes, out);
    default: return false;
  }
}

}  // namespace tessera
