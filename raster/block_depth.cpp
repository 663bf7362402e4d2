// blockDepthTestD32 (block_depth.h): a portable definition and an AVX-512 one. The portable one
// handles each row's pixels with branches (a small triangle's rows are mostly partly covered,
// so they mispredict) and gathers the lanes into row order one float at a time; with AVX-512 a
// row is one masked load or store (masked-out pixels are neither read nor written, and cannot
// fault), the lanes go to row order and back by one permutation each, and the comparison is
// one instruction with the predicate that matches C++'s operator on floats.
#include "block_depth.h"

#include "block_vector.h"
#include "stencil_rules.h"
#include "tessera/cpu_info.h"

#include <immintrin.h>

#include <cstring>

namespace tessera::raster {
namespace {

using block_vector::laneOf;
using block_vector::loadRowsD32;
using block_vector::passMask;
using block_vector::permuteBits;
using block_vector::storeRowsD32;

// For row r of a 4-sample block, element 4 p + s: lane laneOf(r, p) of the first (s even) or
// second (s odd) source of a two-source permutation.
struct RowSampleIndex {
  alignas(64) int32_t index[4][16];
  constexpr RowSampleIndex() : index() {
    for (int r = 0; r < 4; ++r)
      for (int p = 0; p < 4; ++p)
        for (int smp = 0; smp < 4; ++smp) index[r][4 * p + smp] = laneOf(r, p) + 16 * (smp & 1);
  }
};
constexpr RowSampleIndex kRowSampleIndex;

}  // namespace

uint32_t blockDepthTestD32Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                   uint32_t coverage, VkCompareOp op, bool write) {
  uint32_t pass = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      if (!(coverage >> l & 1)) continue;
      float* texel = reinterpret_cast<float*>(base + uint64_t(by + r) * rowPitch + uint64_t(bx + p) * 4);
      float stored;
      std::memcpy(&stored, texel, 4);
      if (!compare(op, z[l], stored)) continue;
      pass |= 1u << l;
      if (write) std::memcpy(texel, &z[l], 4);
    }
  return pass;
}

bool blockDepthTestD32VectorAvailable() { return hostCpu().avx512; }  // F, BW, DQ, VL

TESSERA_AVX512 uint32_t blockDepthTestD32Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                const float* z, uint32_t coverage, VkCompareOp op, bool write) {
  const __m512i toLane = block_vector::laneToRowIndex(), toRow = toLane;
  const __mmask16 covered = permuteBits(__mmask16(coverage), toLane);
  const __m512 depth = _mm512_permutexvar_ps(toLane, _mm512_loadu_ps(z));
  uint8_t* rows[4];
  for (int r = 0; r < 4; ++r) rows[r] = base + uint64_t(by + r) * rowPitch + uint64_t(bx) * 4;
  const __m512 stored = loadRowsD32(rows, covered);
  const __mmask16 pass = passMask(op, covered, depth, stored);
  if (!pass) return 0;
  if (write) storeRowsD32(rows, pass, depth);
  return permuteBits(pass, toRow);
}

uint32_t blockDepthTestD32(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z, uint32_t coverage,
                           VkCompareOp op, bool write) {
  static const bool vector = blockDepthTestD32VectorAvailable();  // (once: this runs per block)
  if (vector) return blockDepthTestD32Vector(base, rowPitch, bx, by, z, coverage, op, write);
  return blockDepthTestD32Portable(base, rowPitch, bx, by, z, coverage, op, write);
}

uint32_t blockDepthTestD32x4Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                                     const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed) {
  uint32_t lanes = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      passed[l] = 0;
      for (int smp = 0; smp < 4; ++smp) {
        if (!(covered[l] >> smp & 1)) continue;
        uint8_t* texel = base + uint64_t(by + r) * rowPitch + uint64_t(bx + p) * 16 + 4 * smp;
        float stored;
        std::memcpy(&stored, texel, 4);
        if (!compare(op, sampleZ[smp][l], stored)) continue;
        passed[l] |= 1u << smp;
        if (write) std::memcpy(texel, &sampleZ[smp][l], 4);
      }
      if (passed[l]) lanes |= 1u << l;
    }
  return lanes;
}

TESSERA_AVX512 uint32_t blockDepthTestD32x4Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by,
                                                  const float (*sampleZ)[16], const uint32_t* covered, VkCompareOp op,
                                                  bool write, uint32_t* passed) {
  const __m512 z0 = _mm512_loadu_ps(sampleZ[0]), z1 = _mm512_loadu_ps(sampleZ[1]);
  const __m512 z2 = _mm512_loadu_ps(sampleZ[2]), z3 = _mm512_loadu_ps(sampleZ[3]);
  uint32_t lanes = 0;
  for (int r = 0; r < 4; ++r) {
    // Row element 4 p + s is sample s of pixel p: from z_s at lane laneOf(r, p). One
    // permutation takes samples 0 and 1 from z0 and z1, another (the same indices) 2 and 3
    // from z2 and z3.
    uint32_t rowCovered = 0;
    for (int p = 0; p < 4; ++p) rowCovered |= (covered[laneOf(r, p)] & 0xF) << (4 * p);
    const __m512i index = _mm512_load_si512(kRowSampleIndex.index[r]);
    const __m512 depth = _mm512_mask_blend_ps(__mmask16(0xCCCC), _mm512_permutex2var_ps(z0, index, z1),
                                              _mm512_permutex2var_ps(z2, index, z3));
    uint8_t* row = base + uint64_t(by + r) * rowPitch + uint64_t(bx) * 16;
    const __mmask16 tested = __mmask16(rowCovered);
    const __m512 stored = _mm512_maskz_loadu_ps(tested, row);
    const __mmask16 pass = tested ? passMask(op, tested, depth, stored) : 0;
    if (write && pass) _mm512_mask_storeu_ps(row, pass, depth);
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      passed[l] = uint32_t(pass) >> (4 * p) & 0xF;
      if (passed[l]) lanes |= 1u << l;
    }
  }
  return lanes;
}

uint32_t blockDepthTestD32x4(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                             const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed) {
  static const bool vector = blockDepthTestD32VectorAvailable();
  if (vector)
    return blockDepthTestD32x4Vector(base, rowPitch, bx, by, sampleZ, covered, op, write, passed);
  return blockDepthTestD32x4Portable(base, rowPitch, bx, by, sampleZ, covered, op, write, passed);
}

}  // namespace tessera::raster
