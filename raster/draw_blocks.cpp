// The block walker of the binned path (FragmentStage::blockTriangle): a 1- or 4-sample triangle
// inside one tile, 4x4 pixels at a time. A block is one batch at W = 16 (its four quads in
// order), two at W = 8, four at W = 4. Per block: the three exact edge values at every pixel
// centre by increments (no multiplication per pixel), a trivial reject from the block's
// corners, then depth and weights through pixel_weights.h, the same arithmetic the reference
// quad walker (coverage.cpp) runs pixel by pixel, so the results are bit-identical
// (tests/unit/raster/binned_draw_test.cpp). Fragments then go through the same per-fragment
// operations as the reference (FragmentStage::runFragments).
//
// What it saves against the reference walker: a std::function call and a 700-byte Quad copy
// per quad, weights at centroids and samples that a single-sample pipeline never reads, and
// the per-lane scalar loops of batch assembly; the per-pixel arithmetic runs in loops over the
// block's 16 lanes that the compiler vectorizes.
#include <algorithm>
#include <cstring>

#include "block_depth.h"
#include "block_stencil.h"
#include "block_edges.h"
#include "draw_internal.h"
#include "pixel_weights.h"
#include "tessera/blend_unorm8.h"

// The block's lane loops are compiled for AVX2 and AVX-512 as well, chosen when the library
// loads (GCC function multi-versioning): the driver binary stays portable.
#define TESSERA_LANE_CLONES __attribute__((target_clones("default", "arch=x86-64-v3", "arch=x86-64-v4")))

namespace tessera::raster {

namespace {

// table[l] = laneX(l) sx + laneY(l) sy for the 16 lanes: lane 4 q + i is pixel i of quad q,
// the quad's corner (2 (q & 1), 2 (q >> 1)) plus (i & 1, i >> 1), so the table is four corner
// values each plus the same four quad values: eight two-lane vector additions, where the
// lane-by-lane gather of x[laneX(l)] + y[laneY(l)] stayed scalar (a tenth of blockTriangle's
// instructions on tris_small). For doubles every term and sum is an integer below 2^53 in
// magnitude (makeBlockEdges checks the extremes), so the sums are exact and equal the integer
// table's.
template <typename T>
inline void laneTable(T sx, T sy, T* table) {
  typedef T Pair __attribute__((vector_size(2 * sizeof(T))));
  const Pair low = {T(0), sx}, high = {sy, sx + sy};  // the quad's pixels (0, 1) and (2, 3)
  const T corner[4] = {T(0), sx + sx, sy + sy, (sx + sx) + (sy + sy)};
  for (int q = 0; q < 4; ++q) {
    const Pair c = {corner[q], corner[q]};
    const Pair a = c + low, b = c + high;
    std::memcpy(&table[4 * q], &a, sizeof a);
    std::memcpy(&table[4 * q + 2], &b, sizeof b);
  }
}

// doubles: fill laneOffsetD (blockWeights' exact shortcut) where the offsets allow; without it
// offsetsExact is false and blockWeights takes its integer path, which gives the same values.
// Inlined into each of walkTriangleBlocks' versions, as into the one walker before them.
inline __attribute__((always_inline)) bool makeBlockEdges(const SetupTriangle& t, BlockEdges& e, bool doubles) {
  if (!pixel::triangleEdges(t, e.edge, &e.invArea2)) return false;
  e.samples = t.samples;
  e.small = t.smallSpan && t.samples <= 1;
  for (int k = 0; k < 3; ++k) {
    // value(sx, sy) = dx (sy - y0) - dy (sx - x0): one pixel is kSubPixelOne on either axis.
    e.stepX[k] = -e.edge[k].dy * rules::kSubPixelOne;
    e.stepY[k] = e.edge[k].dx * rules::kSubPixelOne;
    e.threshold[k] = e.edge[k].inclusive ? 0 : 1;
    e.sampleMin[k] = e.sampleMax[k] = e.sampleOffset[k][0] = 0;  // one sample is the centre
  }
  if (e.small) {
    // The 32-bit lane offsets alone: weights come from them too (blockWeights), one sample
    // needs no sample or corner tables.
    smallLaneOffsets(e);
    e.offsetsExact = false;
    return true;
  }
  // The sample locations ("Multisampling": rules::sampleLocation) relative to the centre, once
  // per triangle rather than per edge and sample (a tenth of msaa4_tris' instructions).
  const uint32_t samples = t.samples > 1 ? std::min(t.samples, kMaxSamples) : 0;  // 0: the centre alone
  int64_t sampleX[kMaxSamples] = {}, sampleY[kMaxSamples] = {};
  for (uint32_t smp = 0; smp < samples; ++smp) {
    rules::sampleLocation(0, 0, t.samples, smp, &sampleX[smp], &sampleY[smp]);
    sampleX[smp] -= rules::pixelCenter(0), sampleY[smp] -= rules::pixelCenter(0);
  }
  for (int k = 0; k < 3; ++k) {
    laneTable(e.stepX[k], e.stepY[k], e.laneOffset[k]);
    // The change of the edge value from the centre to each sample.
    for (uint32_t smp = 0; smp < samples; ++smp) {
      e.sampleOffset[k][smp] = e.edge[k].dx * sampleY[smp] - e.edge[k].dy * sampleX[smp];
      e.sampleMin[k] = smp == 0 ? e.sampleOffset[k][smp] : std::min(e.sampleMin[k], e.sampleOffset[k][smp]);
      e.sampleMax[k] = smp == 0 ? e.sampleOffset[k][smp] : std::max(e.sampleMax[k], e.sampleOffset[k][smp]);
    }
    // blockCoverage's corner tests (several samples), as offsets from the block's first centre
    // value (BlockEdges::cornerReject, cornerInside).
    if (samples == 0) continue;
    const int64_t corner[4] = {0, 3 * e.stepX[k], 3 * e.stepY[k], 3 * e.stepX[k] + 3 * e.stepY[k]};
    for (int c = 0; c < 4; ++c) {
      e.cornerReject[k][c] = corner[c] + e.sampleMax[k] - e.threshold[k];
      e.cornerInside[k][c] = corner[c] + e.sampleMin[k] - e.threshold[k];
    }
  }
  // The lanes' offsets as doubles, for blockWeights, which reads them only when every one lies
  // below 2^52 in magnitude (then base + offset is exact as double(base) + double(offset) for
  // any base below 2^52 too). An offset is i stepX + j stepY (i, j in 0..3), linear on the
  // block, so its largest magnitudes are at the corners: three comparisons per edge decide.
  constexpr int64_t kExact = int64_t(1) << 52;
  e.offsetsExact = doubles;
  for (int k = 0; k < 3 && doubles; ++k)
    for (const int64_t corner : {3 * e.stepX[k], 3 * e.stepY[k], 3 * e.stepX[k] + 3 * e.stepY[k]})
      e.offsetsExact &= corner > -kExact && corner < kExact;
  if (e.offsetsExact)
    for (int k = 0; k < 3; ++k) laneTable(double(e.stepX[k]), double(e.stepY[k]), e.laneOffsetD[k]);
  return true;
}


// Bit l set where block lane l's pixel lies in `columns` (bit dx: pixel column bx + dx) and
// `rows` (bit dy: row by + dy): every pair of 4-bit spans, as one table.
struct RegionLaneTable {
  uint16_t lanes[16][16];
  constexpr RegionLaneTable() : lanes() {
    for (uint32_t columns = 0; columns < 16; ++columns)
      for (uint32_t rows = 0; rows < 16; ++rows)
        for (int l = 0; l < kBlockLanes; ++l)
          if ((columns >> laneX(l) & 1) && (rows >> laneY(l) & 1)) lanes[columns][rows] |= uint16_t(1u << l);
  }
};
constexpr RegionLaneTable kRegionLanes;

// Bit d set where b + d (d < 4) lies in [lo, hi).
inline uint32_t spanBits(int32_t b, int32_t lo, int32_t hi) {
  const int32_t from = std::clamp(lo - b, 0, 4), to = std::clamp(hi - b, 0, 4);
  return to > from ? ((1u << to) - 1) & ~((1u << from) - 1) : 0u;
}

// The block's lanes whose pixel lies in `region`.
inline uint32_t regionLanes(const Rect& region, int32_t bx, int32_t by) {
  return kRegionLanes.lanes[spanBits(bx, region.x0, region.x1)][spanBits(by, region.y0, region.y1)];
}

// Coverage of the block at (bx, by) within `region`; 0 when no pixel centre is inside. With
// several samples, edge values being linear, the block's corners bound them: the block is
// rejected when one edge fails at all four corners, and covered whole (no test per sample) when
// every edge passes at all four.
// sampleCoverage: fill b.sampleCoverage with one sample too (the kernel-only blocks of
// shadeKernelBlock read none then).
TESSERA_LANE_CLONES uint32_t blockCoverage(const BlockEdges& e, const Rect& region, int32_t bx, int32_t by,
                                           BlockPixels& b, bool sampleCoverage = true) {
  const int64_t cx = rules::pixelCenter(bx), cy = rules::pixelCenter(by);
  int64_t base[3];
  b.singleSample = e.samples == 1;
  if (e.samples == 1) {
    // One sample: the lanes' centre test itself (centreLanes, a few vector comparisons) costs
    // less than the corner tests that would skip it for a rejected or whole block, and gives
    // the same bits.
    for (int k = 0; k < 3; ++k) base[k] = e.edge[k].value(cx, cy);
    const uint32_t coverage = regionLanes(region, bx, by) & (e.small ? centreLanes32(e, base) : centreLanes(e, base));
    if (sampleCoverage)
      for (int l = 0; l < kBlockLanes; ++l) b.sampleCoverage[l] = coverage >> l & 1;
    return coverage;
  }
  // Rejected when, for one edge, every corner's value plus the largest sample offset lies
  // below the threshold (all four sign bits set: their AND is negative); covered whole when,
  // for every edge, every corner's value plus the smallest offset reaches it (their OR is not
  // negative). The same comparisons as max(corners) + sampleMax < threshold and
  // min(corners) + sampleMin >= threshold, without the min and max trees.
  int64_t outsideSome = 0, insideAll = 0;
  for (int k = 0; k < 3; ++k) {
    base[k] = e.edge[k].value(cx, cy);
    const int64_t* reject = e.cornerReject[k];
    const int64_t* in = e.cornerInside[k];
    outsideSome |= (base[k] + reject[0]) & (base[k] + reject[1]) & (base[k] + reject[2]) & (base[k] + reject[3]);
    insideAll |= (base[k] + in[0]) | (base[k] + in[1]) | (base[k] + in[2]) | (base[k] + in[3]);
  }
  if (outsideSome < 0) return 0;
  const bool inside = insideAll >= 0;
  const uint32_t inRegion = regionLanes(region, bx, by);
  const uint32_t allSamples = (1u << e.samples) - 1;
  if (inside) {
    for (int l = 0; l < kBlockLanes; ++l) b.sampleCoverage[l] = (inRegion >> l & 1) * allSamples;
    return inRegion;
  }
  uint32_t samples[kBlockLanes];
  sampleLanes(e, base, samples);
  uint32_t coverage = 0;
  for (int l = 0; l < kBlockLanes; ++l) {
    b.sampleCoverage[l] = (inRegion >> l & 1) * samples[l];
    coverage |= uint32_t(b.sampleCoverage[l] != 0) << l;
  }
  return coverage;
}

// A 16x16 square of pixels from (sx, sy) against the triangle and the region: every sample
// location outside one edge, every one inside all edges (and the square inside the region), or
// neither. Edge values are linear, so the square's corner pixels bound them.
enum class SquareClass { Outside, Inside, Partial };
SquareClass classifySquare(const BlockEdges& e, const Rect& region, int32_t sx, int32_t sy) {
  const int64_t cx = rules::pixelCenter(sx), cy = rules::pixelCenter(sy);
  bool inside = sx >= region.x0 && sx + 16 <= region.x1 && sy >= region.y0 && sy + 16 <= region.y1;
  for (int k = 0; k < 3; ++k) {
    const int64_t c00 = e.edge[k].value(cx, cy), c30 = c00 + 15 * e.stepX[k], c03 = c00 + 15 * e.stepY[k],
                  c33 = c30 + 15 * e.stepY[k];
    if (std::max(std::max(c00, c30), std::max(c03, c33)) + e.sampleMax[k] < e.threshold[k]) return SquareClass::Outside;
    inside = inside && std::min(std::min(c00, c30), std::min(c03, c33)) + e.sampleMin[k] >= e.threshold[k];
  }
  return inside ? SquareClass::Inside : SquareClass::Partial;
}

// A block of an Inside square: every sample of every lane covered (blockCoverage's result for
// it, computed without tests). No pixel is partly covered, so nothing reads its edge values.
TESSERA_LANE_CLONES uint32_t wholeBlock(const BlockEdges& e, BlockPixels& b) {
  b.singleSample = e.samples == 1;
  const uint32_t allSamples = (1u << e.samples) - 1;
  for (int l = 0; l < kBlockLanes; ++l) b.sampleCoverage[l] = allSamples;
  return 0xFFFFu;
}

// Depth and weights of every lane (helpers included: derivatives need them); the centre depth
// and 1/w only when the tests or FragCoord.zw read them, the perspective and window-space weight
// sets only when some input is interpolated with them. Compiled for AVX2 and AVX-512 too
// (chosen at load time): the loops are 16 lanes of double arithmetic, one instance per
// combination so that each drops the arithmetic of what it does not store, and the identity
// mapping of unclipped triangles and an affine triangle's division-free perspective weights
// (SetupTriangle::uniformW) are decided once per block, not per lane.
template <bool Depth, bool Perspective, bool Linear, bool Identity, bool UniformW>
inline __attribute__((always_inline)) void storeWeights(const SetupTriangle& t, const double (*lin)[kBlockLanes],
                                                       BlockPixels& b) {
  for (int l = 0; l < kBlockLanes; ++l) {
    const double at[3] = {lin[0][l], lin[1][l], lin[2][l]};
    const double invW = pixel::invWAt(t, at);
    if (Depth) {
      b.z[l] = pixel::interpolatedDepth(t, at);  // blockWeights replaces it for a flat-depth triangle
      b.invW[l] = static_cast<float>(invW);
    }
    if (!Perspective && !Linear) continue;
    float persp[3], linear[3];
    if (Identity && UniformW) {
      // pixel::identityWeights with perspectiveWeights' uniform-w case: both sets are `at`.
      for (int i = 0; i < 3; ++i) persp[i] = linear[i] = static_cast<float>(at[i]);
    } else if (Identity) {
      // pixel::identityWeights with perspectiveWeights' varying-w case.
      double p[3];
      pixel::perspectiveWeightsOf<false>(t, at, invW, p);
      for (int i = 0; i < 3; ++i) persp[i] = static_cast<float>(p[i]), linear[i] = static_cast<float>(at[i]);
    } else {
      pixel::mappedWeightsOf<UniformW>(t, at, invW, persp, linear);
    }
    for (int i = 1; i < 3; ++i) {  // (row 0 is never read: BlockPixels::persp)
      if (Perspective) b.persp[i][l] = persp[i];
      if (Linear) b.linear[i][l] = linear[i];
    }
  }
}

template <bool Depth, bool Perspective, bool Linear>
inline __attribute__((always_inline)) void storeWeights(const SetupTriangle& t, const double (*lin)[kBlockLanes],
                                                       BlockPixels& b) {
  if (t.identityWeights && t.uniformW) storeWeights<Depth, Perspective, Linear, true, true>(t, lin, b);
  else if (t.identityWeights) storeWeights<Depth, Perspective, Linear, true, false>(t, lin, b);
  else if (t.uniformW) storeWeights<Depth, Perspective, Linear, false, true>(t, lin, b);
  else storeWeights<Depth, Perspective, Linear, false, false>(t, lin, b);
}

// sampleDepths: with several samples, each sample's depth too (only the per-fragment tests read them).
// The edge values are computed here from the block's corner (the coverage functions keep none:
// when they did, in BlockPixels, loading them back was a third of this function's time on
// tex_nearest, and the values cost a few integer additions per lane).
// invW: b.invW is read (FragCoord.w); without it a block whose only need is depth (the early
// depth test of a pipeline without interpolated inputs) computes depth alone.
// kNativeConversion: the int64 -> double conversions as static_cast, one instruction a vector
// with AVX-512DQ (vcvtqq2pd), else by pixel::exactDouble's bit operations, which give the same
// values and vectorize with AVX2 too (a loop with the plain conversion stays scalar there).
template <bool kNativeConversion>
inline __attribute__((always_inline)) double edgeDouble(int64_t v) {
  return kNativeConversion ? static_cast<double>(v) : pixel::exactDouble(v);
}

// storeWeights<Depth, Perspective, Linear, Identity = true, UniformW = true> with its `lin`
// computed in the same loop (the same operations: (base + offset) / (2 area) as
// double(base) + laneOffsetD, exact, times invArea2), for blockWeightsOf's affine case.
// Small: a small triangle's (BlockEdges::small) lane values as 32-bit sums, exact, converted
// to the same doubles.
template <bool Depth, bool Perspective, bool Linear, bool Small = false>
inline __attribute__((always_inline)) void affineWeights(const SetupTriangle& t, const BlockEdges& e, const int64_t base[3],
                                                        BlockPixels& b) {
  const double inv = e.invArea2;
  const double b0 = double(base[0]), b1 = double(base[1]), b2 = double(base[2]);
  const int32_t s0 = int32_t(base[0]), s1 = int32_t(base[1]), s2 = int32_t(base[2]);
  for (int l = 0; l < kBlockLanes; ++l) {
    // Weight 0 only for the depth plane: interpolation reads weights 1 and 2 alone
    // (BlockPixels::persp).
    const double at[3] = {
        !Depth ? 0.0 : Small ? double(s0 + e.laneOffset32[0][l]) * inv : (b0 + e.laneOffsetD[0][l]) * inv,
        Small ? double(s1 + e.laneOffset32[1][l]) * inv : (b1 + e.laneOffsetD[1][l]) * inv,
        Small ? double(s2 + e.laneOffset32[2][l]) * inv : (b2 + e.laneOffsetD[2][l]) * inv};
    if (Depth) b.z[l] = pixel::interpolatedDepth(t, at);
    for (int i = 1; i < 3; ++i) {
      const float w = static_cast<float>(at[i]);
      if (Perspective) b.persp[i][l] = w;
      if (Linear) b.linear[i][l] = w;
    }
  }
}

// affineWeights' instance for what the block needs. Always inlined (not a lambda, whose body
// the target clones of blockWeights would not clone: compiled for the baseline ISA, it made
// tex_cube 15% slower).
template <bool Small>
inline __attribute__((always_inline)) void affineWeightsFor(const SetupTriangle& t, const BlockEdges& e, const int64_t base[3],
                                                           bool depth, bool perspective, bool linearWeights, BlockPixels& b) {
  switch ((depth && !t.flatDepth ? 4 : 0) | (perspective ? 2 : 0) | (linearWeights ? 1 : 0)) {
    case 0: break;
    case 1: affineWeights<false, false, true, Small>(t, e, base, b); break;
    case 2: affineWeights<false, true, false, Small>(t, e, base, b); break;
    case 3: affineWeights<false, true, true, Small>(t, e, base, b); break;
    case 4: affineWeights<true, false, false, Small>(t, e, base, b); break;
    case 5: affineWeights<true, false, true, Small>(t, e, base, b); break;
    case 6: affineWeights<true, true, false, Small>(t, e, base, b); break;
    default: affineWeights<true, true, true, Small>(t, e, base, b); break;
  }
}

// Whether blockWeights' only work for the block is a flat-depth triangle's one depth (no
// weights, no 1/w): then it reads neither the edge values nor the lanes' offsets, and
// blockTriangle does not build their doubles.
inline bool flatDepthAlone(const SetupTriangle& t, bool depth, bool perspective, bool linearWeights, bool invW) {
  return t.flatDepth && depth && !perspective && !linearWeights && !invW;
}

template <bool kNativeConversion>
inline __attribute__((always_inline)) void blockWeightsOf(const SetupTriangle& t, const BlockEdges& e, int32_t bx, int32_t by,
                                                         bool depth, bool perspective, bool linearWeights, bool sampleDepths,
                                                         bool invW, BlockPixels& b) {
  // windowBarycentrics' arithmetic with its int64 -> double conversions as edgeDouble (the
  // same values), so that the loops vectorize at every width.
  const int64_t cx = rules::pixelCenter(bx), cy = rules::pixelCenter(by);
  int64_t base[3];
  for (int k = 0; k < 3; ++k) base[k] = e.edge[k].value(cx, cy);
  if (flatDepthAlone(t, depth, perspective, linearWeights, invW)) {
    // Depth alone, one value for the triangle (pixel::depthAt): no weights needed.
    const float z = pixel::flatDepthOf(t);
    for (int l = 0; l < kBlockLanes; ++l) b.z[l] = z;
    if (e.samples == 1 || !sampleDepths) return;
    for (uint32_t smp = 0; smp < e.samples; ++smp)
      for (int l = 0; l < kBlockLanes; ++l) b.sampleZ[smp][l] = z;
    return;
  }
  double lin[3][kBlockLanes];
  // base + offset is an integer below 2^53 whenever both are below 2^52 (true of every triangle
  // a viewport can hold): then its double is double(base) + double(offset) exactly, which saves
  // the 48 int64 conversions (four operations each without AVX-512DQ).
  constexpr int64_t kExact = int64_t(1) << 52;
  const bool baseExact = base[0] > -kExact && base[0] < kExact && base[1] > -kExact && base[1] < kExact &&
                         base[2] > -kExact && base[2] < kExact;
  if ((e.small || (e.offsetsExact && baseExact)) && t.identityWeights && t.uniformW && !invW &&
      (e.samples == 1 || !sampleDepths)) {
    // The common case (an unclipped triangle of equal w: every full-screen pass, sprite and
    // 2D draw), whose both weight sets are the window-space ones: straight from the edge values
    // to the stored floats, without staging `lin` on the stack (storeWeights' reload of it
    // was the hottest part of this function in tex_bilinear).
    if (e.small) affineWeightsFor<true>(t, e, base, depth, perspective, linearWeights, b);
    else affineWeightsFor<false>(t, e, base, depth, perspective, linearWeights, b);
    if (depth && t.flatDepth) {
      const float z = pixel::flatDepthOf(t);
      for (int l = 0; l < kBlockLanes; ++l) b.z[l] = z;
    }
    return;
  }
  if (e.small) {
    // Exact 32-bit sums (BlockEdges::small): the same integers as base + laneOffset.
    const double inv = e.invArea2;
    for (int k = 0; k < 3; ++k) {
      const int32_t b = int32_t(base[k]);
      const int32_t* offset = e.laneOffset32[k];
      double* out = lin[k];
      for (int l = 0; l < kBlockLanes; ++l) out[l] = double(b + offset[l]) * inv;
    }
  } else if (!kNativeConversion && e.offsetsExact && baseExact) {
    const double inv = e.invArea2;
    for (int k = 0; k < 3; ++k) {
      const double b = double(base[k]);
      const double* offset = e.laneOffsetD[k];
      double* out = lin[k];
      for (int l = 0; l < kBlockLanes; ++l) out[l] = (b + offset[l]) * inv;
    }
  } else {
    for (int l = 0; l < kBlockLanes; ++l)
      for (int k = 0; k < 3; ++k) lin[k][l] = edgeDouble<kNativeConversion>(base[k] + e.laneOffset[k][l]) * e.invArea2;
  }
  switch ((depth ? 4 : 0) | (perspective ? 2 : 0) | (linearWeights ? 1 : 0)) {
    case 0: break;
    case 1: storeWeights<false, false, true>(t, lin, b); break;
    case 2: storeWeights<false, true, false>(t, lin, b); break;
    case 3: storeWeights<false, true, true>(t, lin, b); break;
    case 4:
      if (invW) {
        storeWeights<true, false, false>(t, lin, b);
      } else if (!t.flatDepth) {
        for (int l = 0; l < kBlockLanes; ++l) {
          const double at[3] = {lin[0][l], lin[1][l], lin[2][l]};
          b.z[l] = pixel::interpolatedDepth(t, at);
        }
      }
      break;
    case 5: storeWeights<true, false, true>(t, lin, b); break;
    case 6: storeWeights<true, true, false>(t, lin, b); break;
    default: storeWeights<true, true, true>(t, lin, b); break;
  }
  // pixel::depthAt's two cases, decided once for the block so that the lane loops above and
  // below have no test in them and vectorize (a scalar sample loop here was a quarter of the
  // 4-sample scene demo's time).
  // (A flat-depth triangle's storeWeights instances computed the plane anyway: their Depth
  // flag also writes 1/w, which FragCoord.w may read; the overwrite costs less than doubling
  // the instances.)
  const float flatZ = t.flatDepth ? pixel::flatDepthOf(t) : 0.0f;
  if (depth && t.flatDepth)
    for (int l = 0; l < kBlockLanes; ++l) b.z[l] = flatZ;
  if (e.samples == 1 || !sampleDepths) return;
  // "Depth Test" compares each sample's own depth: the plane at each sample location.
  for (uint32_t smp = 0; smp < e.samples; ++smp) {
    if (t.flatDepth) {
      for (int l = 0; l < kBlockLanes; ++l) b.sampleZ[smp][l] = flatZ;
      continue;
    }
    const int64_t o0 = e.sampleOffset[0][smp], o1 = e.sampleOffset[1][smp], o2 = e.sampleOffset[2][smp];
    for (int l = 0; l < kBlockLanes; ++l) {
      const double at[3] = {edgeDouble<kNativeConversion>(base[0] + e.laneOffset[0][l] + o0) * e.invArea2,
                            edgeDouble<kNativeConversion>(base[1] + e.laneOffset[1][l] + o1) * e.invArea2,
                            edgeDouble<kNativeConversion>(base[2] + e.laneOffset[2][l] + o2) * e.invArea2};
      b.sampleZ[smp][l] = pixel::interpolatedDepth(t, at);
    }
  }
}

TESSERA_LANE_CLONES void blockWeights(const SetupTriangle& t, const BlockEdges& e, int32_t bx, int32_t by, bool depth,
                                      bool perspective, bool linearWeights, bool sampleDepths, bool invW, BlockPixels& b) {
  // The host decides (the AVX-512 clone is the one that runs where it says yes).
  if (__builtin_cpu_supports("avx512dq"))
    blockWeightsOf<true>(t, e, bx, by, depth, perspective, linearWeights, sampleDepths, invW, b);
  else
    blockWeightsOf<false>(t, e, bx, by, depth, perspective, linearWeights, sampleDepths, invW, b);
}

// The Centroid location of a partly covered pixel ("Interpolation Decorations": its
// lowest-numbered covered sample, as the reference walker chooses) and its weights; the centre
// otherwise. Only pipelines with Centroid inputs ask.
void blockCentroids(const SetupTriangle& t, const BlockEdges& e, int32_t bx, int32_t by, BlockPixels& b) {
  const uint32_t all = (1u << e.samples) - 1;
  const int64_t cx = rules::pixelCenter(bx), cy = rules::pixelCenter(by);
  const int64_t base[3] = {e.edge[0].value(cx, cy), e.edge[1].value(cx, cy), e.edge[2].value(cx, cy)};
  for (int l = 0; l < kBlockLanes; ++l) {
    const uint32_t mask = b.sampleCoverage[l];
    if (mask == 0 || mask == all) {
      for (int i = 1; i < 3; ++i) b.centroidPersp[i][l] = b.persp[i][l], b.centroidLinear[i][l] = b.linear[i][l];
      continue;
    }
    const uint32_t smp = uint32_t(__builtin_ctz(mask));
    int64_t values[3];
    for (int k = 0; k < 3; ++k) values[k] = base[k] + e.laneOffset[k][l] + e.sampleOffset[k][smp];
    double at[3];
    pixel::windowBarycentrics(values, e.invArea2, at);
    float persp[3], linear[3];
    pixel::originalWeights(t, at, pixel::invWAt(t, at), persp, linear);
    for (int i = 0; i < 3; ++i) b.centroidPersp[i][l] = persp[i], b.centroidLinear[i][l] = linear[i];
  }
}

// The samples blockDepthTest's 4-sample test takes per lane: covered, of a covered lane, and
// inside the sample mask. (A lane loop compiled for AVX2 too: in the caller's default build it
// was about a hundred instructions a block on msaa4_tris.)
TESSERA_LANE_CLONES void testedSamples(const BlockPixels& b, uint32_t sampleMask, uint32_t* tested) {
  for (int l = 0; l < kBlockLanes; ++l) tested[l] = (b.coverage >> l & 1) * (b.sampleCoverage[l] & sampleMask);
}

// Whether every sample of every pixel of the block is covered (with one sample, coverage
// 0xFFFF says so already).
inline bool everySampleCovered(const BlockPixels& b, uint32_t samples) {
  if (samples == 1) return true;
  const uint32_t all = (1u << samples) - 1;
  uint32_t missing = 0;
  for (int l = 0; l < kBlockLanes; ++l) missing |= b.sampleCoverage[l] ^ all;
  return missing == 0;
}

// Where the blocks and 16x16 squares covering [lo, hi) start on one axis. Quads (and so
// blocks) must start at even pixels (derivatives pair the pixels of a quad), not at multiples
// of 4: a small triangle whose span starts at 2 mod 4 takes one block instead of two when the
// blocks start at its even-aligned start. Squares start with the blocks, so each block lies in
// one square. Otherwise the grid stays aligned to 4 (and squares to 16), where a block row is
// one aligned 16-byte access.
struct BlockGrid {
  int32_t block0, square0;
};
BlockGrid blockGrid(int32_t lo, int32_t hi) {
  const int32_t aligned = lo & ~3, even = lo & ~1;
  const int32_t alignedBlocks = (hi - aligned + 3) >> 2, evenBlocks = (hi - even + 3) >> 2;
  if (evenBlocks < alignedBlocks) return {even, even};
  return {aligned, lo & ~15};
}

}  // namespace

bool FragmentStage::walksBlocks(const SetupTriangle& st) const {
  // Per-sample shading evaluates inputs at every sample: the quad walker does that.
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  if (!blocks_ || st.samples != samples || (samples != 1 && samples != kBlockMaxSamples)) return false;
  if (st.customLocations) return false;  // the block walker's tables hold the standard locations
  return samples == 1 || !(s_->sampleShading || s_->fragment.perSampleShading);
}

void FragmentStage::blockTriangle(const SetupTriangle& st, const Rect& tile) {
  const Rect region = rules::intersect(st.bounds, tile);
  if (rules::isEmpty(region)) return;
  // Hierarchical Z (depthBounds_, for the block depth tests: D32 of 1 or 4 samples, D24, D16): a
  // triangle whose fragment depths all fail the depth test against every depth stored in its
  // region is dropped before its edges are even set up (most of a scene drawn front to back,
  // once the first layers have covered the tile), and a large one's blocks likewise. Triangles
  // of at most 64 pixels' bounds are not tested: their few cells were seldom all covered by
  // nearer ones (2-16 pixel triangles front to back: 6% of them dropped, for 14% more
  // instructions); their writes only mark the cells the larger ones computed.
  const bool large = int64_t(region.x1 - region.x0) * (region.y1 - region.y0) > 64;
  bool bounded = false;  // depthBounds_ holds this tile's cells: the block test's writes mark them
  if (blockDepthTests_ && (large || depthBounds_.anyKnown())) {
    const Rect readable = rules::intersect(tile, s_->renderArea);
    const TileDepthBounds::DepthPlane plane{s_->depth.base, s_->depth.rowPitch, blockDepthUnormBits_,
                                            std::max(s_->raster.samples, 1u)};
    bounded = region.x0 >= readable.x0 && region.y0 >= readable.y0 && region.x1 <= readable.x1 && region.y1 <= readable.y1 &&
              depthBounds_.use(plane, tile, readable);
    if (!bounded) depthBounds_.forget();  // (a region beyond the render area: not in the binned path)
  }
  const bool depthCulling = bounded && large;
  const DepthInterval depths =
      depthCulling ? quantizedDepthInterval(fragmentDepthInterval(st), blockDepthUnormBits_) : DepthInterval{};
  if (depthCulling && depthBounds_.rejects(region, s_->depthCompare, depths)) return;
  const bool markWrites = bounded && s_->depthWrite;
  // The walker without what it does not need (the bounds' tests and marks cost a small
  // triangle's walk 2% more instructions even when skipped).
  const bool cullBlocks = depthCulling && region.x1 - region.x0 >= 16 && region.y1 - region.y0 >= 16;
  if (cullBlocks) markWrites ? walkTriangleBlocks<true, true>(st, region, depths) : walkTriangleBlocks<true, false>(st, region, depths);
  else markWrites ? walkTriangleBlocks<false, true>(st, region, depths) : walkTriangleBlocks<false, false>(st, region, depths);
}

// blockTriangle's walk over the blocks of `region` (CullBlocks: each block first asked of
// depthBounds_ with the triangle's `depths`; MarkWrites: the blocks whose depth test wrote
// marked there).
template <bool CullBlocks, bool MarkWrites>
void FragmentStage::walkTriangleBlocks(const SetupTriangle& st, const Rect& region, const DepthInterval& depths) {
  const bool centroids = st.samples > 1 && s_->fragment.centroidInputs;
  const bool weights = needCentreDepth_ || needPerspective_ || needLinear_ || centroids;
  // blockWeights (called below with these flags) reads the lanes' offsets as doubles unless
  // all it computes is a flat-depth triangle's one depth.
  const bool offsetDoubles = weights && !flatDepthAlone(st, needCentreDepth_, needPerspective_ || centroids,
                                                        needLinear_ || centroids, laneNeeds_ & kLaneFragZW);
  BlockEdges edges;
  if (!makeBlockEdges(st, edges, offsetDoubles)) return;  // zero area: no sample is inside
  const uint32_t W = simdWidth_;
  // The inputs are prepared when the first block is shaded: with the block depth tests, most
  // triangles of a scene drawn front to back have none.
  bool inputsPrepared = false;
  BlockPixels b;
  // 16x16 pixels at a time first ("Coverage by blocks": tile, 16x16, 4x4): a square outside
  // one edge is skipped whole, one inside every edge and the region gives 16 blocks covered
  // whole without a test each; the others are tested block by block.
  const BlockGrid gx = blockGrid(region.x0, region.x1), gy = blockGrid(region.y0, region.y1);
  const int32_t blockX0 = gx.block0, blockY0 = gy.block0;
  const bool smallRegion = region.x1 - region.x0 < 16 || region.y1 - region.y0 < 16;
  for (int32_t sy = gy.square0; sy < region.y1; sy += 16) {
    for (int32_t sx = gx.square0; sx < region.x1; sx += 16) {
      // A region narrower or shorter than a square holds no Inside square, and an Outside one
      // would only be found again block by block: a small triangle skips the test.
      const SquareClass square = smallRegion ? SquareClass::Partial : classifySquare(edges, region, sx, sy);
      if (square == SquareClass::Outside) continue;
      if (square == SquareClass::Inside && wholeBlocksInKernel_) {
        // Every block of the square is whole and only the kernel touches it.
        if (!inputsPrepared) prepareBlockInputs(st.samples), inputsPrepared = true;
        shadeWholeSquare(st, edges, std::max(sx, blockX0), std::max(sy, blockY0), std::min(sx + 16, region.x1),
                         std::min(sy + 16, region.y1), weights, b);
        continue;
      }
      for (int32_t by = std::max(sy, blockY0); by < std::min(sy + 16, region.y1); by += 4) {
        for (int32_t bx = std::max(sx, blockX0); bx < std::min(sx + 16, region.x1); bx += 4) {
          // The blocks of a triangle wider and taller than a square (its region as a whole was
          // asked about above).
          if (CullBlocks &&
              depthBounds_.blockRejects(rules::intersect(Rect{bx, by, bx + 4, by + 4}, region), s_->depthCompare, depths))
            continue;
          b.coverage = square == SquareClass::Inside ? wholeBlock(edges, b)
                                                     : blockCoverage(edges, region, bx, by, b, !kernelBlocks_);
          if (!b.coverage) continue;
          // Centroid inputs read the centre's weight sets too (fully covered pixels).
          if (weights)
            blockWeights(st, edges, bx, by, needCentreDepth_, needPerspective_ || centroids, needLinear_ || centroids,
                         testsEnabled_, laneNeeds_ & kLaneFragZW, b);
          bool testsDone = false;
          if (blockDepthTests_ || blockStencilTests_) {
            // The lanes left are those that passed.
            b.coverage = blockDepthD32_ ? blockDepthD32_(s_->depth.base, s_->depth.rowPitch, bx, by, b.z, b.coverage,
                                                         s_->depthCompare, s_->depthWrite)
                                        : blockDepthTest(bx, by, b);
            if (!b.coverage) continue;
            if (MarkWrites) depthBounds_.changed(rules::intersect(Rect{bx, by, bx + 4, by + 4}, region));
            testsDone = true;
          }
          if (centroids) blockCentroids(st, edges, bx, by, b);
          if (!inputsPrepared) prepareBlockInputs(st.samples), inputsPrepared = true;
          if (b.coverage == 0xFFFFu && wholeBlocksInKernel_ && everySampleCovered(b, st.samples)) {
            shadeWholeBlock(bx, by, b);
            continue;
          }
          if (kernelBlocks_) {
            shadeKernelBlock(bx, by, b, testsDone);
            continue;
          }
          for (uint32_t first = 0; first < kBlockLanes; first += W) {
            const uint32_t laneMask = W == 16 ? 0xFFFFu : ((1u << W) - 1) << first;
            if (!(b.coverage & laneMask)) continue;
            shadeBlockBatch(b.coverage >> first, bx, by, first, b, testsDone);
          }
        }
      }
    }
  }
}

// runDepthTestD32's single-sample test and write on a whole block's covered pixels at once:
// the same depths (b.z) compared with the stored D32 values by the same comparisons, the
// passing pixels' depths written when depth writes are on (block_depth.h). Returns the pixels
// that passed. With blockStencilTests_, runDepthStencilLanes' single-sample tests and writes
// on the block's S8 (and D32) texels the same way (block_stencil.h), with the primitive's
// facing's stencil state. (The single-sample D32 test without stencil is not here: blockTriangle
// calls the host's version itself, blockDepthD32_.)
uint32_t FragmentStage::blockDepthTest(int32_t bx, int32_t by, BlockPixels& b) const {
  if (blockStencilTests_) {
    BlockStencilPlanes planes;
    planes.stencil = s_->stencil.base;
    planes.stencilPitch = s_->stencil.rowPitch;
    if (s_->depthTest && s_->depth.base) {
      planes.depth = s_->depth.base;
      planes.depthPitch = s_->depth.rowPitch;
      planes.depthCompare = s_->depthCompare;
      planes.depthWrite = s_->depthWrite;
    }
    return blockStencilTestS8(planes, frontFacing_ ? s_->stencilFront : s_->stencilBack, bx, by, b.z, b.coverage);
  }
  if (blockDepthUnormBits_)
    return blockDepthTestUnorm(s_->depth.base, s_->depth.rowPitch, bx, by, b.z, b.coverage, s_->depthCompare,
                               s_->depthWrite, blockDepthUnormBits_);
  // 4 samples: each covered sample inside the sample mask ("Sample Mask Test") against its own
  // depth; b.sampleCoverage keeps the coverage before the test (SampleMaskIn, Centroid).
  uint32_t tested[kBlockLanes];
  testedSamples(b, s_->sampleMask & 0xFu, tested);
  return blockDepthTestD32x4(s_->depth.base, s_->depth.rowPitch, bx, by, b.sampleZ, tested, s_->depthCompare,
                             s_->depthWrite, b.passedSamples);
}

namespace {

// `value` in W consecutive words, W a constant in each case (a broadcast and one or two vector
// stores; std::fill_n with W unknown was a scalar loop, a fifth of prepareBlockInputs on
// tris_small's flat colour).
inline void broadcastWord(uint32_t* to, uint32_t W, uint32_t value) {
  switch (W) {
    case 4: std::fill_n(to, 4, value); break;
    case 8: std::fill_n(to, 8, value); break;
    case 16: std::fill_n(to, 16, value); break;
    default: std::fill_n(to, W, value); break;
  }
}

}  // namespace

// "Interpolation": flat inputs from the provoking vertex (flatSlot_, "Flat Shading"), written
// once for the triangle's batches (the kernel only reads inputs); the others from the three
// vertices with the perspective or window-space weights (Centroid is the centre with one
// sample).
void FragmentStage::prepareBlockInputs(uint32_t samples) {
  const uint32_t W = simdWidth_;
  // The batch fields that stay for the triangle's blocks (shadeKernelBlock sets none of them).
  abi::FragmentBatch& fb = *blockBatch_;
  fb.frontFacing = frontFacing_;
  fb.primitiveId = primitiveId_;
  fb.viewportIndex = viewport_;
  fb.inputs = inputs_.data();
  fb.outputs = outputs_.data();
  const uint32_t centroidLocations = samples > 1 ? s_->fragment.centroidInputs : 0u;
  const uint32_t* o0 = vertices_->outputs(slots_[0]);
  const uint32_t* o1 = vertices_->outputs(slots_[1]);
  const uint32_t* o2 = vertices_->outputs(slots_[2]);
  const uint32_t* flat = vertices_->outputs(flatSlot_);
  blockInputs_.clear();
  for (size_t k = 0; k < vertices_->locations.size(); ++k) {
    const uint32_t loc = vertices_->locations[k];
    const uint8_t interp = s_->fragment.inputInterpolation[loc];
    const bool centroid = centroidLocations >> loc & 1;
    for (uint32_t comp = 0; comp < 4; ++comp) {
      const uint32_t word = (loc * 4 + comp) * W;
      const uint32_t at = 4 * uint32_t(k) + comp;
      if (interp == 2) {
        broadcastWord(&inputs_[word], W, flat[at]);
        continue;
      }
      float v0, v1, v2;
      std::memcpy(&v0, &o0[at], 4);
      std::memcpy(&v1, &o1[at], 4);
      std::memcpy(&v2, &o2[at], 4);
      blockInputs_.push_back({word, v0, v1 - v0, v2 - v0, (interp == 1 ? 1u : 0u) + (centroid ? 2u : 0u)});
    }
  }
  // ClipDistance and CullDistance inputs: perspective-correct, as FragmentStage::interpolate.
  forEachDistanceInput([&](uint32_t inputWord, uint32_t vertexWord) {
    float v0, v1, v2;
    std::memcpy(&v0, &o0[vertexWord - 4], 4);
    std::memcpy(&v1, &o1[vertexWord - 4], 4);
    std::memcpy(&v2, &o2[vertexWord - 4], 4);
    blockInputs_.push_back({inputWord * W, v0, v1 - v0, v2 - v0, 0u});
  });
}

namespace {

// Lane l of a block as FragmentBatch coordinates, as tables (laneX/laneY above); the float
// tables hold the lane's pixel centre offset, laneX(l) + 0.5, for FragCoord: float(bx) plus it
// is float(bx + laneX(l)) + 0.5f exactly (every value an integer or a half below 2^23), as
// contiguous loads and one addition per lane instead of conversions from the int table.
struct LaneTables {
  int32_t x[kBlockLanes], y[kBlockLanes];
  alignas(64) float centreX[kBlockLanes];
  alignas(64) float centreY[kBlockLanes];
  constexpr LaneTables() : x(), y(), centreX(), centreY() {
    for (int l = 0; l < kBlockLanes; ++l)
      x[l] = laneX(l), y[l] = laneY(l), centreX[l] = float(laneX(l)) + 0.5f, centreY[l] = float(laneY(l)) + 0.5f;
  }
};
constexpr LaneTables kLanes;

// The per-batch lane state of block lanes [first, first + W). W is a constant in each
// instance, so every loop is a few whole-vector instructions.
template <uint32_t W>
inline __attribute__((always_inline)) uint32_t fillBlockLanes(uint32_t first, int32_t bx, int32_t by, uint32_t coverage,
                                                         uint32_t sampleMask, uint32_t needs, const BlockPixels& b,
                                                         int32_t* __restrict px, int32_t* __restrict py,
                                                         uint32_t* __restrict sampleBits, float* __restrict sampleZ,
                                                         abi::FragmentBatch& __restrict fb) {
  uint32_t covered = 0;  // the lanes left with samples
  constexpr uint32_t kAll = uint32_t((uint64_t(1) << W) - 1);
  if ((coverage & kAll) == kAll && sampleMask == 1 && b.singleSample) {
    // A fully covered single-sample batch (most of a large triangle): every lane has its sample.
    std::memcpy(sampleBits, &b.sampleCoverage[first], W * sizeof(uint32_t));
    std::memcpy(fb.sampleMaskIn, &b.sampleCoverage[first], W * sizeof(uint32_t));
    covered = kAll;
  } else {
    for (uint32_t j = 0; j < W; ++j) {
      sampleBits[j] = (coverage >> j & 1) * (b.sampleCoverage[first + j] & sampleMask);
      fb.sampleMaskIn[j] = sampleBits[j];
      covered |= uint32_t(sampleBits[j] != 0) << j;
    }
  }
  if (needs & (kLanePixels | kLaneFragXY)) {
    for (uint32_t j = 0; j < W; ++j) {
      px[j] = bx + kLanes.x[first + j];
      py[j] = by + kLanes.y[first + j];
    }
  }
  if (needs & kLaneFragXY) {
    for (uint32_t j = 0; j < W; ++j) {
      fb.fragCoord[0][j] = float(px[j]) + 0.5f;
      fb.fragCoord[1][j] = float(py[j]) + 0.5f;
    }
  }
  if (needs & kLaneSampleZ) std::memcpy(sampleZ, &b.z[first], W * sizeof(float));
  if (needs & kLaneFragZW) {
    std::memcpy(fb.fragCoord[2], &b.z[first], W * sizeof(float));
    std::memcpy(fb.fragCoord[3], &b.invW[first], W * sizeof(float));
  }
  return covered;
}

// SampleMaskIn of a single-sample batch: each lane's one sample where it is covered (all
// kMaxSimdWidth entries, a constant count; bits from W on are 0).
TESSERA_LANE_CLONES void singleSampleMaskIn(uint32_t covered, uint32_t* sampleMaskIn) {
  for (uint32_t j = 0; j < abi::kMaxSimdWidth; ++j) sampleMaskIn[j] = covered >> j & 1;
}

// The Centroid location of a pixel by its covered samples (4 bits): the lowest covered
// sample's for a partly covered pixel, else the centre.
struct CentroidTable {
  float x[16], y[16];
  constexpr CentroidTable() : x(), y() {
    for (uint32_t mask = 0; mask < 16; ++mask) {
      const bool partial = mask != 0 && mask != 0xFu;
      const uint32_t smp = partial ? uint32_t(__builtin_ctz(mask)) : 0;
      x[mask] = partial ? standardSampleLocation(4, smp)[0] : 0.5f;
      y[mask] = partial ? standardSampleLocation(4, smp)[1] : 0.5f;
    }
  }
};
constexpr CentroidTable kCentroids;

// FragmentBatch::centroid of block lanes [first, first + count) from the table.
inline __attribute__((always_inline)) void centroidLanes(uint32_t first, uint32_t count, const BlockPixels& b,
                                                        abi::FragmentBatch& fb) {
  for (uint32_t j = 0; j < count; ++j) {
    const uint32_t mask = b.sampleCoverage[first + j] & 0xFu;
    fb.centroid[0][j] = kCentroids.x[mask];
    fb.centroid[1][j] = kCentroids.y[mask];
  }
}

// shadeKernelBlock's lane state of a 4-sample batch: the samples each lane's kernel writes
// (those that passed the block tests when they ran), SampleMaskIn (the covered samples inside
// the sample mask, or the written ones with PostDepthCoverage), the Centroid locations.
// Returns the lanes with samples to write. Cloned: the loop is W lanes of vector code.
template <uint32_t W>
inline __attribute__((always_inline)) uint32_t kernelSampleLanes(uint32_t first, uint32_t covered, uint32_t sampleMask,
                                                                bool testsDone, bool postDepthCoverage,
                                                                const BlockPixels& b, uint32_t* __restrict written,
                                                                abi::FragmentBatch& __restrict fb) {
  uint32_t withSamples = 0;
  for (uint32_t j = 0; j < W; ++j) {
    const uint32_t l = first + j, in = covered >> j & 1;
    const uint32_t before = in * (b.sampleCoverage[l] & sampleMask);
    written[j] = testsDone ? in * b.passedSamples[l] : before;
    fb.sampleMaskIn[j] = postDepthCoverage ? written[j] : before;
    withSamples |= uint32_t(written[j] != 0) << j;
  }
#if defined(__GNUC__) && !defined(__clang__)  // __builtin_shuffle is GCC's (the fuzz build uses Clang)
  if constexpr (W == 16) {
    // The lookups as one permutation of the 16-entry tables (GCC made scalar loads of them).
    typedef float Floats __attribute__((vector_size(64)));
    typedef int32_t Ints __attribute__((vector_size(64)));
    Floats x, y;
    Ints mask;
    std::memcpy(&x, kCentroids.x, sizeof x);
    std::memcpy(&y, kCentroids.y, sizeof y);
    std::memcpy(&mask, &b.sampleCoverage[first], sizeof mask);
    mask &= 0xF;
    const Floats cx = __builtin_shuffle(x, mask), cy = __builtin_shuffle(y, mask);
    std::memcpy(fb.centroid[0], &cx, sizeof cx);
    std::memcpy(fb.centroid[1], &cy, sizeof cy);
    return withSamples;
  }
#endif
  centroidLanes(first, W, b, fb);
  return withSamples;
}
TESSERA_LANE_CLONES uint32_t kernelSampleLanes(uint32_t w, uint32_t first, uint32_t covered, uint32_t sampleMask,
                                               bool testsDone, bool postDepthCoverage, const BlockPixels& b,
                                               uint32_t* written, abi::FragmentBatch& fb) {
  if (w == 16) return kernelSampleLanes<16>(first, covered, sampleMask, testsDone, postDepthCoverage, b, written, fb);
  if (w == 8) return kernelSampleLanes<8>(first, covered, sampleMask, testsDone, postDepthCoverage, b, written, fb);
  return kernelSampleLanes<4>(first, covered, sampleMask, testsDone, postDepthCoverage, b, written, fb);
}

// FragCoord.xy of block lanes [first, first + W): whole-vector additions at each width (this
// function is cloned), whose stores the kernel's vector loads can take from the store buffer.
// Compiled for the baseline x86-64 inside runKernelBatch, the loop was a tenth of alu_fs.
template <uint32_t W>
inline __attribute__((always_inline)) void fragCoordXY(int32_t bx, int32_t by, uint32_t first, float* __restrict x,
                                                      float* __restrict y) {
  const float fx = float(bx), fy = float(by);
  for (uint32_t j = 0; j < W; ++j) x[j] = fx + kLanes.centreX[first + j];
  for (uint32_t j = 0; j < W; ++j) y[j] = fy + kLanes.centreY[first + j];
}
TESSERA_LANE_CLONES void fragCoordXY(uint32_t w, int32_t bx, int32_t by, uint32_t first, float* x, float* y) {
  if (w == 16) fragCoordXY<16>(bx, by, first, x, y);
  else if (w == 8) fragCoordXY<8>(bx, by, first, x, y);
  else fragCoordXY<4>(bx, by, first, x, y);
}

// Returns the lanes left with samples (after the sample mask).
TESSERA_LANE_CLONES uint32_t fillBlockLanes(uint32_t first, uint32_t w, int32_t bx, int32_t by, uint32_t coverage,
                                        uint32_t sampleMask, uint32_t needs, const BlockPixels& b, int32_t* px,
                                        int32_t* py, uint32_t* sampleBits, float* sampleZ, abi::FragmentBatch& fb) {
  if (w == 16) return fillBlockLanes<16>(first, bx, by, coverage, sampleMask, needs, b, px, py, sampleBits, sampleZ, fb);
  if (w == 8) return fillBlockLanes<8>(first, bx, by, coverage, sampleMask, needs, b, px, py, sampleBits, sampleZ, fb);
  return fillBlockLanes<4>(first, bx, by, coverage, sampleMask, needs, b, px, py, sampleBits, sampleZ, fb);
}

// 4 samples: each sample's depth (sampleZ[sample * kMaxSimdWidth + lane]), and the Centroid
// location FragmentBatch::centroid reports (the lowest covered sample's location of a partly
// covered pixel, else the centre).
// sampleZ: null when nothing reads the samples' depths (no per-fragment tests).
void fillBlockSampleLanes(uint32_t first, uint32_t w, const BlockPixels& b, float* sampleZ, abi::FragmentBatch& fb) {
  for (uint32_t smp = 0; sampleZ && smp < kBlockMaxSamples; ++smp) std::memcpy(&sampleZ[smp * abi::kMaxSimdWidth], &b.sampleZ[smp][first], w * sizeof(float));
  centroidLanes(first, w, b, fb);
}

// Interpolation of the triangle's input components over W lanes (vectorizes: W is a constant).
// weightSets[i]: the weight set i (BlockInput::weights) of block lane 0, rows of 16 lanes.
template <uint32_t W>
inline __attribute__((always_inline)) void interpolateLanes(const BlockInput* inputs, size_t count,
                                                           const float (*const* weightSets)[16], uint32_t first,
                                                           uint32_t* __restrict words) {
  // Whole-vector loads and stores written out (GCC vector extensions): left to the
  // vectorizer, the weights were read one float at a time and inserted into a vector.
  typedef float Lanes __attribute__((vector_size(W * sizeof(float))));
  for (size_t i = 0; i < count; ++i) {
    const BlockInput& in = inputs[i];
    Lanes b1, b2;
    std::memcpy(&b1, &weightSets[in.weights][1][first], sizeof b1);
    std::memcpy(&b2, &weightSets[in.weights][2][first], sizeof b2);
    // pixel::interpolateDifferences, lane-wise: v0 + b1 d1 + b2 d2 (no contraction in raster/).
    const Lanes v = in.v0 + b1 * in.d1 + b2 * in.d2;
    std::memcpy(&words[in.word], &v, sizeof v);
  }
}

TESSERA_LANE_CLONES void interpolateLanes(uint32_t w, const BlockInput* inputs, size_t count,
                                          const float (*const* weightSets)[16], uint32_t first, uint32_t* words) {
  if (w == 16) interpolateLanes<16>(inputs, count, weightSets, first, words);
  else if (w == 8) interpolateLanes<8>(inputs, count, weightSets, first, words);
  else interpolateLanes<4>(inputs, count, weightSets, first, words);
}

}  // namespace

// One batch of block lanes [first, first + W) (fewer lanes than the reference's batches may
// hold: a batch never mixes blocks). Mirrors shadeBatch's single-sample branch lane for lane.
void FragmentStage::shadeBlockBatch(uint32_t coverage, int32_t bx, int32_t by, uint32_t first, const BlockPixels& b,
                                    bool testsDone) {
  const uint32_t W = simdWidth_;
  // The fields that are the same for every single-sample batch (PointCoord and the centroid
  // at the centre, SampleId 0...) were set once (blockBatch_); these change per batch.
  abi::FragmentBatch& fb = *blockBatch_;
  fb.frontFacing = frontFacing_;
  fb.primitiveId = primitiveId_;
  fb.viewportIndex = viewport_;
  LaneState lanes;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  // "Sample Mask Test": samples outside pSampleMask are not covered.
  uint32_t covered = fillBlockLanes(first, W, bx, by, coverage, s_->sampleMask & ((1u << samples) - 1), laneNeeds_,
                                          b, lanes.px, lanes.py, lanes.sampleBits, &lanes.sampleZ[0][0], fb);
  if (samples > 1) fillBlockSampleLanes(first, W, b, testsEnabled_ ? &lanes.sampleZ[0][0] : nullptr, fb);
  if (testsDone) {
    // blockDepthTest ran the early tests: the covered lanes are those that passed. With one
    // sample SampleMaskIn, after PostDepthCoverage's tests too, is their one sample, as
    // fillBlockLanes set it; with 4 the samples that passed are the lanes' samples from here on
    // (SampleMaskIn keeps the coverage before the tests unless PostDepthCoverage).
    if (samples > 1) {
      covered = 0;
      for (uint32_t j = 0; j < W; ++j) {
        lanes.sampleBits[j] = (coverage >> j & 1) * b.passedSamples[first + j];
        if (s_->fragment.postDepthCoverage) fb.sampleMaskIn[j] = lanes.sampleBits[j];
        covered |= uint32_t(lanes.sampleBits[j] != 0) << j;
      }
    }
    fb.coverage = covered;
    if (countBeforeShading_) countSamples(lanes.sampleBits, covered);
    if (!covered) return;
  } else if (!earlyTests(fb, lanes, covered)) {
    return;
  }
  // "Interpolation": the triangle's prepared input components (prepareBlockInputs).
  const float(*const weightSets[4])[16] = {b.persp, b.linear, b.centroidPersp, b.centroidLinear};
  interpolateLanes(W, blockInputs_.data(), blockInputs_.size(), weightSets, first, inputs_.data());
  setDirectRows(fb, bx, by, first);
  shadeAndWrite(fb, lanes);
}

// Attachments the kernel writes itself (FragmentBatch::direct): the pixel of the batch's first
// lane, its block's top-left pixel at W = 16, of its half at W = 8, of its quad at W = 4.
void FragmentStage::setDirectRows(abi::FragmentBatch& fb, int32_t bx, int32_t by, uint32_t first) const {
  for (uint32_t i = 0, bits = directColor_; bits; ++i, bits >>= 1)
    if (bits & 1) fb.direct[i].row = texelAt(s_->color[i], bx + kLanes.x[first], by + kLanes.y[first]);
}

// The batch fields of blocks whose pixels have every sample covered and whose only work is
// the kernel's (wholeBlocksInKernel_), set once for a run of such blocks: every lane covered
// with all its samples (1 or 4; the sample mask keeps them all), the kernel writing the
// attachments (FragmentBatch::direct, every sample of every lane with 4), and the Centroid
// location of a fully covered pixel its centre.
void FragmentStage::beginWholeBlocks() {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const uint32_t allSamples = (1u << samples) - 1;
  static constexpr uint32_t kFourSamples[abi::kMaxSimdWidth] = {0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF,
                                                                0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF, 0xF};
  abi::FragmentBatch& fb = *blockBatch_;  // its per-triangle fields set by prepareBlockInputs
  fb.directSamples = directColor_ && samples > 1 ? kFourSamples : nullptr;
  for (uint32_t j = 0; j < W; ++j) fb.sampleMaskIn[j] = allSamples;  // SampleMaskIn: the covered samples
  if (samples > 1)
    for (uint32_t j = 0; j < W; ++j) fb.centroid[0][j] = fb.centroid[1][j] = 0.5f;
}

// One block after beginWholeBlocks, without per-lane coverage, tests or writes. The centroid
// weight sets are the centre's (a fully covered pixel's Centroid location is its centre).
void FragmentStage::shadeWholeBlockBatches(int32_t bx, int32_t by, const BlockPixels& b) {
  const uint32_t W = simdWidth_;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const uint32_t all = uint32_t((uint64_t(1) << W) - 1);
  const float(*const weightSets[4])[16] = {b.persp, b.linear, b.persp, b.linear};
  for (uint32_t first = 0; first < kBlockLanes; first += W) {
    const uint32_t alive = runKernelBatch(bx, by, first, b, weightSets, all);
    // "Sample Counting": each lane left alive (every lane, countBeforeShading_) passed with
    // all its samples.
    if (s_->occlusionSamples) occlusionSamples_ += uint32_t(__builtin_popcount(countBeforeShading_ ? all : alive)) * samples;
  }
}

// The part of a kernel-only batch every such batch shares (shadeWholeBlockBatches,
// shadeKernelBlock): `covered` as the batch's coverage, FragCoord where the shader reads it, the
// inputs interpolated with `weightSets`, the kernel's attachment rows, the invocation count, the
// kernel. Returns the covered lanes left alive.
inline __attribute__((always_inline)) uint32_t FragmentStage::runKernelBatch(int32_t bx, int32_t by, uint32_t first,
                                                                              const BlockPixels& b,
                                                                              const float (*const* weightSets)[16],
                                                                              uint32_t covered) {
  const uint32_t W = simdWidth_;
  abi::FragmentBatch& fb = *blockBatch_;
  fb.coverage = covered;
  if (laneNeeds_ & kLaneFragXY) fragCoordXY(W, bx, by, first, fb.fragCoord[0], fb.fragCoord[1]);
  if (laneNeeds_ & kLaneFragZW) {
    std::memcpy(fb.fragCoord[2], &b.z[first], W * sizeof(float));
    std::memcpy(fb.fragCoord[3], &b.invW[first], W * sizeof(float));
  }
  if (!blockInputs_.empty())
    interpolateLanes(W, blockInputs_.data(), blockInputs_.size(), weightSets, first, inputs_.data());
  setDirectRows(fb, bx, by, first);
  if (s_->statistics) fragmentInvocations_ += uint32_t(__builtin_popcount(covered));
  s_->fragmentShader(&fb);
  return fb.alive & covered;
}

// A block of kernelBlocks_: per batch, the covered lanes and their samples are all the state
// the kernel needs besides what shadeWholeBlockBatches sets, so the lane arrays shadeBlockBatch
// builds for the loop's tests and writes (pixels, sample bits, sample depths) are skipped.
// With one sample the lanes are the block's coverage (after the block depth test when it ran)
// and SampleMaskIn their one sample. With 4 (a kernel compiled for them, writing each sample
// itself), as shadeBlockBatch: SampleMaskIn the covered samples inside the sample mask, the
// kernel's samples (FragmentBatch::directSamples) those that passed the block depth test
// (SampleMaskIn too with PostDepthCoverage), the Centroid location of a partly covered pixel
// its lowest covered sample (fillBlockSampleLanes).
void FragmentStage::shadeKernelBlock(int32_t bx, int32_t by, const BlockPixels& b, bool testsDone) {
  const uint32_t W = simdWidth_;
  const uint32_t laneMask = uint32_t((uint64_t(1) << W) - 1);
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const uint32_t sampleMask = s_->sampleMask & ((1u << samples) - 1);
  abi::FragmentBatch& fb = *blockBatch_;  // its per-triangle fields set by prepareBlockInputs
  uint32_t written[abi::kMaxSimdWidth];  // per lane, the samples the kernel writes
  fb.directSamples = samples > 1 ? written : nullptr;
  const float(*const weightSets[4])[16] = {b.persp, b.linear, b.centroidPersp, b.centroidLinear};
  for (uint32_t first = 0; first < kBlockLanes; first += W) {
    uint32_t covered = b.coverage >> first & laneMask;
    if (!covered) continue;
    if (samples == 1) {
      if (s_->fragment.readsSampleMaskIn) singleSampleMaskIn(covered, fb.sampleMaskIn);
    } else {
      covered = kernelSampleLanes(W, first, covered, sampleMask, testsDone, testsDone && s_->fragment.postDepthCoverage, b,
                                  written, fb);
      if (!covered) continue;
    }
    const uint32_t alive = runKernelBatch(bx, by, first, b, weightSets, covered);
    if (!s_->occlusionSamples) continue;
    // "Sample Counting": the samples of the lanes left alive (of the lanes the early tests
    // passed, countBeforeShading_).
    const uint32_t counted = countBeforeShading_ ? covered : alive;
    if (samples == 1) occlusionSamples_ += uint32_t(__builtin_popcount(counted));
    else countSamples(written, counted);
  }
}

void FragmentStage::shadeWholeBlock(int32_t bx, int32_t by, const BlockPixels& b) {
  beginWholeBlocks();
  shadeWholeBlockBatches(bx, by, b);
}

// The blocks from (x0, y0) to (x1, y1) of a 16x16 square inside every edge and the region,
// every one whole (blockTriangle's Inside square with wholeBlocksInKernel_): the batch is set up
// once for the square, then each block costs its weights (when inputs need them) and the
// kernel calls.
void FragmentStage::shadeWholeSquare(const SetupTriangle& st, const BlockEdges& edges, int32_t x0, int32_t y0,
                                     int32_t x1, int32_t y1, bool weights, BlockPixels& b) {
  beginWholeBlocks();
  if (kernelOnlyBlocks(weights)) return shadeKernelOnlySquare(x0, y0, x1, y1);
  const bool centroids = st.samples > 1 && s_->fragment.centroidInputs;
  for (int32_t by = y0; by < y1; by += 4)
    for (int32_t bx = x0; bx < x1; bx += 4) {
      if (weights)
        blockWeights(st, edges, bx, by, needCentreDepth_, needPerspective_ || centroids, needLinear_ || centroids,
                     testsEnabled_, laneNeeds_ & kLaneFragZW, b);
      shadeWholeBlockBatches(bx, by, b);
    }
}

bool FragmentStage::kernelOnlyBlocks(bool weights) const {
  return !weights && blockInputs_.empty() && !(laneNeeds_ & (kLaneFragXY | kLaneFragZW)) && !s_->statistics &&
         !s_->occlusionSamples;
}

// runKernelBatch for every batch of the square's blocks with nothing but the rows to set: a
// full-screen pass of a constant or flat colour spends as much per block around the kernel call
// as in it otherwise (fill_blend: the caller's loop was a fifth of the time).
void FragmentStage::shadeKernelOnlySquare(int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const uint32_t W = simdWidth_;
  abi::FragmentBatch& fb = *blockBatch_;
  const uint32_t all = uint32_t((uint64_t(1) << W) - 1);
  const abi::FragmentBatchFn kernel = s_->fragmentShader;
  // With one attachment written by the kernel (the common case) its rows step through the
  // square by additions: setDirectRows' address arithmetic per batch was a third of this
  // loop's instructions in fill_blend.
  if (directColor_ == 1) {
    const AttachmentView& v = s_->color[0];
    const uint64_t blockStep = 4 * uint64_t(v.samples) * v.texelSize, rowsStep = 4 * v.rowPitch;
    uint64_t batchOffset[kBlockLanes] = {};
    for (uint32_t first = 0; first < kBlockLanes; first += W)
      batchOffset[first] = uint64_t(texelAt(v, kLanes.x[first], kLanes.y[first]) - v.base);
    uint8_t* rowStart = texelAt(v, x0, y0);
    for (int32_t by = y0; by < y1; by += 4, rowStart += rowsStep) {
      uint8_t* block = rowStart;
      for (int32_t bx = x0; bx < x1; bx += 4, block += blockStep)
        for (uint32_t first = 0; first < kBlockLanes; first += W) {
          fb.coverage = all;
          fb.direct[0].row = block + batchOffset[first];
          kernel(&fb);
        }
    }
    return;
  }
  for (int32_t by = y0; by < y1; by += 4)
    for (int32_t bx = x0; bx < x1; bx += 4)
      for (uint32_t first = 0; first < kBlockLanes; first += W) {
        fb.coverage = all;
        setDirectRows(fb, bx, by, first);
        kernel(&fb);
      }
}

namespace {

// floatToUnorm (draw_internal.h) with 8 bits on W lanes at once, in GCC vector types so that every clone
// gets whole-vector instructions: the same selects, multiply, add and subtract, per lane.
// W-lane GCC vector types (spelled per W: GCC's vector builtins reject dependent sizes).
template <uint32_t W>
struct LaneVectors;
#define TESSERA_LANE_VECTORS(W)                                  \
  template <>                                                    \
  struct LaneVectors<W> {                                        \
    typedef float Floats __attribute__((vector_size(W * 4)));    \
    typedef double Doubles __attribute__((vector_size(W * 8)));  \
    typedef int32_t Ints __attribute__((vector_size(W * 4)));    \
    typedef uint32_t Words __attribute__((vector_size(W * 4)));  \
  };
TESSERA_LANE_VECTORS(4)
TESSERA_LANE_VECTORS(8)
TESSERA_LANE_VECTORS(16)
#undef TESSERA_LANE_VECTORS

template <uint32_t W>
inline __attribute__((always_inline)) void encodeUnorm8Lanes(const float* __restrict out, const uint32_t* __restrict shift,
                                                            uint32_t* __restrict texels) {
  using Floats = typename LaneVectors<W>::Floats;
  using Doubles = typename LaneVectors<W>::Doubles;
  using Ints = typename LaneVectors<W>::Ints;
  // The clamps in float: float -> double is exact, so clamping before or after it is the same.
  const Floats zero = {}, one = zero + 1.0f;
  const Doubles round = Doubles{} + 4503599627370496.0;  // 2^52
  Ints texel = {};
  for (uint32_t c = 0; c < 4; ++c) {
    Floats f;
    std::memcpy(&f, out + c * W, sizeof f);
    f = f > zero ? f : zero;  // NaN fails the comparison: 0
    f = f < one ? f : one;
    Doubles d = __builtin_convertvector(f, Doubles);
    d = (d * 255.0 + round) - round;
    texel |= __builtin_convertvector(d, Ints) << int32_t(shift[c]);
  }
  std::memcpy(texels, &texel, sizeof texel);
}

}  // namespace

template <uint32_t W>
inline __attribute__((always_inline)) uint32_t lanesWithBits(const uint32_t* __restrict bits, uint32_t laneMask) {
  uint32_t m = 0;
  for (uint32_t j = 0; j < W; ++j) m |= uint32_t(bits[j] != 0) << j;
  return m & laneMask;
}

TESSERA_LANE_CLONES uint32_t lanesWithBits(uint32_t w, const uint32_t* bits, uint32_t laneMask) {
  if (w == 16) return lanesWithBits<16>(bits, laneMask);
  if (w == 8) return lanesWithBits<8>(bits, laneMask);
  return lanesWithBits<4>(bits, laneMask);
}

// "Depth Test" of W lanes against stored D32_SFLOAT values (no conversion: the float is the
// texel): the lanes among `laneMask` whose depth z passes `op`. The comparisons are the
// reference's (draw_fragments.cpp: compare), NaN included.
template <uint32_t W, typename Compare>
inline __attribute__((always_inline)) uint32_t depthPassLanes(const float* __restrict z, const float* __restrict stored,
                                                             Compare compare) {
  uint32_t m = 0;
  for (uint32_t j = 0; j < W; ++j) m |= uint32_t(compare(z[j], stored[j])) << j;
  return m;
}

template <uint32_t W>
inline __attribute__((always_inline)) uint32_t depthPassLanes(VkCompareOp op, const float* z, const float* stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return depthPassLanes<W>(z, stored, [](float a, float b) { return a < b; });
    case VK_COMPARE_OP_EQUAL: return depthPassLanes<W>(z, stored, [](float a, float b) { return a == b; });
    case VK_COMPARE_OP_LESS_OR_EQUAL: return depthPassLanes<W>(z, stored, [](float a, float b) { return a <= b; });
    case VK_COMPARE_OP_GREATER: return depthPassLanes<W>(z, stored, [](float a, float b) { return a > b; });
    case VK_COMPARE_OP_NOT_EQUAL: return depthPassLanes<W>(z, stored, [](float a, float b) { return a != b; });
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return depthPassLanes<W>(z, stored, [](float a, float b) { return a >= b; });
    default: return ~0u;  // ALWAYS
  }
}

TESSERA_LANE_CLONES uint32_t depthPassLanes(uint32_t w, VkCompareOp op, const float* z, const float* stored,
                                            uint32_t laneMask) {
  if (w == 16) return depthPassLanes<16>(op, z, stored) & laneMask;
  if (w == 8) return depthPassLanes<8>(op, z, stored) & laneMask;
  return depthPassLanes<4>(op, z, stored) & laneMask;
}

TESSERA_LANE_CLONES void encodeUnorm8(uint32_t w, const float* out, const uint32_t shift[4], uint32_t* texels) {
  if (w == 16) encodeUnorm8Lanes<16>(out, shift, texels);
  else if (w == 8) encodeUnorm8Lanes<8>(out, shift, texels);
  else encodeUnorm8Lanes<4>(out, shift, texels);
}

template <uint32_t W>
inline __attribute__((always_inline)) void encodeUint8Lanes(const uint32_t* __restrict out, uint32_t* __restrict texels) {
  using Words = typename LaneVectors<W>::Words;
  const Words limit = Words{} + 255u;
  Words texel = {};
  for (uint32_t c = 0; c < 4; ++c) {
    Words u;
    std::memcpy(&u, out + c * W, sizeof u);
    const Words clamped = u > limit ? limit : u;
    texel |= clamped << (Words{} + 8 * c);
  }
  std::memcpy(texels, &texel, sizeof texel);
}

TESSERA_LANE_CLONES void encodeUint8(uint32_t w, const uint32_t* out, uint32_t* texels) {
  if (w == 16) encodeUint8Lanes<16>(out, texels);
  else if (w == 8) encodeUint8Lanes<8>(out, texels);
  else encodeUint8Lanes<4>(out, texels);
}

namespace {

// 8-bit fixed-point "Blending" (tessera/blend_unorm8.h) on W lanes: blendInputUnorm8,
// blendFactorUnorm8 and blendOpUnorm8 operation for operation in 32-bit integer lanes, so that
// every lane gives the rule's bytes (BinnedDraw.Unorm8BlendLanesEqualTheRule compares them).
template <uint32_t W>
struct BlendLanes {
  using F = typename LaneVectors<W>::Floats;
  using I = typename LaneVectors<W>::Ints;
  __attribute__((always_inline)) static I min(I a, I b) { return b < a ? b : a; }
  __attribute__((always_inline)) static I max(I a, I b) { return a < b ? b : a; }
  // blendInputUnorm8: the clamps (NaN to 0), f x 255 rounded to float, then to the nearest
  // integer, ties to even, by adding and subtracting 2^23 (exact below 2^23; the separate
  // statements and the library's -ffp-contract=off keep the product rounded on its own).
  __attribute__((always_inline)) static I toUnorm8(F f) {
    const F zero = {}, one = zero + 1.0f;
    f = f > zero ? f : zero;
    f = f < one ? f : one;
    F p = f * 255.0f;
    p = (p + 0x1p23f) - 0x1p23f;
    return __builtin_convertvector(p, I);
  }
  __attribute__((always_inline)) static I factor(VkBlendFactor f, const I* s, const I* s1, const I* d, const I* k, int c,
                                                 bool alpha) {
    const I zero = {}, full = zero + 255;
    switch (f) {
      case VK_BLEND_FACTOR_ZERO: return zero;
      case VK_BLEND_FACTOR_ONE: return full;
      case VK_BLEND_FACTOR_SRC_COLOR: return s[c];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_COLOR: return full - s[c];
      case VK_BLEND_FACTOR_DST_COLOR: return d[c];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_COLOR: return full - d[c];
      case VK_BLEND_FACTOR_SRC_ALPHA: return s[3];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC_ALPHA: return full - s[3];
      case VK_BLEND_FACTOR_DST_ALPHA: return d[3];
      case VK_BLEND_FACTOR_ONE_MINUS_DST_ALPHA: return full - d[3];
      case VK_BLEND_FACTOR_CONSTANT_COLOR: return k[c];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_COLOR: return full - k[c];
      case VK_BLEND_FACTOR_CONSTANT_ALPHA: return k[3];
      case VK_BLEND_FACTOR_ONE_MINUS_CONSTANT_ALPHA: return full - k[3];
      case VK_BLEND_FACTOR_SRC_ALPHA_SATURATE: return alpha ? full : min(s[3], full - d[3]);
      case VK_BLEND_FACTOR_SRC1_COLOR: return s1[c];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC1_COLOR: return full - s1[c];
      case VK_BLEND_FACTOR_SRC1_ALPHA: return s1[3];
      case VK_BLEND_FACTOR_ONE_MINUS_SRC1_ALPHA: return full - s1[3];
      default: return zero;
    }
  }
  // divide255Rounded.
  __attribute__((always_inline)) static I divide255(I t) { return (t + 128) * 257 >> 16; }
  __attribute__((always_inline)) static I op(VkBlendOp op, I s, I sf, I d, I df) {
    const I a = s * sf, b = d * df, zero = {};
    switch (op) {
      case VK_BLEND_OP_SUBTRACT: return divide255(max(a - b, zero));
      case VK_BLEND_OP_REVERSE_SUBTRACT: return divide255(max(b - a, zero));
      case VK_BLEND_OP_MIN: return min(s, d);
      case VK_BLEND_OP_MAX: return max(s, d);
      default: return divide255(min(a + b, zero + 255 * 255));  // ADD
    }
  }
  __attribute__((always_inline)) static void run(const BlendAttachment& blend, const uint32_t* k, const float* src,
                                                 const float* src1, const uint32_t* current, const uint32_t* shift,
                                                 uint32_t* texels) {
    I texel;
    std::memcpy(&texel, current, sizeof texel);
    I s[4], s1[4], d[4], kv[4];
    for (int c = 0; c < 4; ++c) {
      F f;
      std::memcpy(&f, src + c * W, sizeof f);
      s[c] = toUnorm8(f);
      std::memcpy(&f, src1 + c * W, sizeof f);
      s1[c] = toUnorm8(f);
      d[c] = (texel >> int32_t(shift[c])) & 0xFF;  // c / 255 converts back to c
      kv[c] = I{} + int32_t(k[c]);
    }
    I result = {};
    for (int c = 0; c < 4; ++c) {
      const bool alpha = c == 3;
      const I sf = factor(alpha ? blend.srcAlpha : blend.srcColor, s, s1, d, kv, c, alpha);
      const I df = factor(alpha ? blend.dstAlpha : blend.dstColor, s, s1, d, kv, c, alpha);
      result |= op(alpha ? blend.alphaOp : blend.colorOp, s[c], sf, d[c], df) << int32_t(shift[c]);
    }
    std::memcpy(texels, &result, sizeof result);
  }
};

}  // namespace

TESSERA_LANE_CLONES void blendUnorm8(uint32_t w, const BlendAttachment& blend, const uint32_t k[4], const float* src,
                                     const float* src1, const uint32_t* current, const uint32_t shift[4],
                                     uint32_t* texels) {
  if (w == 16) BlendLanes<16>::run(blend, k, src, src1, current, shift, texels);
  else if (w == 8) BlendLanes<8>::run(blend, k, src, src1, current, shift, texels);
  else BlendLanes<4>::run(blend, k, src, src1, current, shift, texels);
}

}  // namespace tessera::raster
