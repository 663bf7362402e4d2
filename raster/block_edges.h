// A triangle's edge functions prepared for the block walker (FragmentStage::blockTriangle,
// draw_blocks.cpp: makeBlockEdges fills them), and the single-sample coverage test of one 4x4
// block's pixel centres against them ("Basic Polygon Rasterization": a sample is inside when
// every edge function is positive there, or zero on a top-left edge).
#pragma once

#include <cstdint>

#include "rules.h"
#include "tessera/raster.h"

namespace tessera::raster {

inline constexpr int kBlockLanes = 16;

// Block lane l is pixel (laneX(l), laneY(l)) of the block: quads in rows (q = l / 4 at
// (2 (q & 1), 2 (q >> 1))), pixels in a quad as a FragmentBatch orders them.
constexpr int laneX(int l) { return 2 * ((l >> 2) & 1) + (l & 1); }
constexpr int laneY(int l) { return 2 * (l >> 3) + ((l >> 1) & 1); }

struct BlockEdges {
  int64_t stepX[3], stepY[3];  // change of each edge value per pixel in x and y
  int64_t laneOffset[3][16];   // change from the block's first pixel to each lane's
  // laneOffset as doubles, and whether every one is below 2^52 in magnitude (then exact).
  double laneOffsetD[3][16];
  bool offsetsExact = false;
  // With 4 samples: change from a pixel's centre to each sample location, and its extremes.
  uint32_t samples = 1;
  int64_t sampleOffset[3][kMaxSamples];
  int64_t sampleMin[3], sampleMax[3];
  int64_t threshold[3];        // covered iff value >= threshold (1, or 0 for a top-left edge)
  // A 4x4 block's corners (pixels (0,0), (3,0), (0,3), (3,3)) as offsets from its first pixel's
  // value, less the threshold, plus sampleMax (cornerReject: every sample of the block is
  // outside the edge where all four sums are negative) or sampleMin (cornerInside: every one is
  // inside where none is). Filled with several samples only: the one-sample test reads none.
  int64_t cornerReject[3][4], cornerInside[3][4];
  rules::EdgeFunction edge[3];
  double invArea2;
  // A small single-sample triangle (SetupTriangle::smallSpan, one sample): its vertices at most
  // kSmallTriangleSpan (S = 2^14) apart on either axis and its pixels within their bounding box,
  // so the pixel centres of the blocks it touches lie within S + 4 pixels of every vertex and
  // every edge value dx (y - y0) - dy (x - x0) there is below 2 S (S + 1024) < 2^30 in
  // magnitude: the lanes' offsets are kept as 32-bit integers alone (laneOffset32; laneOffset
  // and laneOffsetD unwritten) and the centre test compares 32-bit lanes, twice as many per
  // instruction (llvmpipe's rasterizer has 32-bit variants for small triangles too).
  bool small = false;
  int32_t laneOffset32[3][16];
};


// The lanes (bit l) whose pixel centre is inside all three edges, given the edge values
// base[k] at the block's first pixel centre: base[k] + laneOffset[k][l] >= threshold[k] for
// every k. The AVX-512 version where the processor has it (F, BW, DQ, VL), else the AVX2 one,
// else the portable loop; all give the same bits (tests/unit/raster/block_edges_test.cpp).
uint32_t centreLanes(const BlockEdges& e, const int64_t base[3]);
uint32_t centreLanesPortable(const BlockEdges& e, const int64_t base[3]);
bool centreLanesVectorAvailable();
uint32_t centreLanesVector(const BlockEdges& e, const int64_t base[3]);
// The AVX2 version, used where AVX-512 is missing (the same bits again).
bool centreLanesAvx2Available();
uint32_t centreLanesAvx2(const BlockEdges& e, const int64_t base[3]);

// centreLanes for a small triangle (BlockEdges::small): the same bits from laneOffset32, with
// base[k] (and threshold[k] - base[k]) within 32 bits. The AVX-512 version (one comparison of
// 16 lanes per edge) where the processor has it, else the AVX2 one, else the portable loop.
uint32_t centreLanes32(const BlockEdges& e, const int64_t base[3]);
uint32_t centreLanes32Portable(const BlockEdges& e, const int64_t base[3]);
uint32_t centreLanes32Vector(const BlockEdges& e, const int64_t base[3]);
uint32_t centreLanes32Avx2(const BlockEdges& e, const int64_t base[3]);
// laneOffset32 of a small triangle's three edges from their steps: offset[k][l] =
// laneX(l) stepX[k] + laneY(l) stepY[k] (a few vector multiplications, compiled for AVX2 and
// AVX-512 too).
void smallLaneOffsets(BlockEdges& e);

// With several samples: per lane l, bit s of samples[l] set where sample s (s < e.samples) of
// the lane's pixel is inside all three edges, base[k] + laneOffset[k][l] + sampleOffset[k][s] >=
// threshold[k] for every k ("Multisampling": the same rule at each sample location). The AVX2
// version where the processor has it, else the portable loop; both give the same bits.
void sampleLanes(const BlockEdges& e, const int64_t base[3], uint32_t samples[kBlockLanes]);
void sampleLanesPortable(const BlockEdges& e, const int64_t base[3], uint32_t samples[kBlockLanes]);
void sampleLanesAvx2(const BlockEdges& e, const int64_t base[3], uint32_t samples[kBlockLanes]);

}  // namespace tessera::raster
