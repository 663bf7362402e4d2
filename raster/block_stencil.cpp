// blockStencilTestS8 (block_stencil.h): a portable definition and an AVX-512 one. With AVX-512
// the block's 16 stencil bytes are one 128-bit vector in row order (each row one masked byte
// load and store), the comparison one unsigned byte compare, each stencil operation one or two
// byte instructions applied to the lanes that take it by a masked move, and the depth test
// block_depth.cpp's row loads and compare.
#include "block_stencil.h"

#include <cstring>

#include "block_depth.h"
#include "block_vector.h"
#include "stencil_rules.h"
#include "tessera/cpu_info.h"

namespace tessera::raster {
namespace {

using block_vector::laneOf;

// The new stencil bytes of `op` for every element (stencilOp as byte vector operations; SSE2,
// shared by the AVX-512 and AVX2 versions).
inline __m128i stencilOpBytes(VkStencilOp op, __m128i stored, __m128i reference) {
  const __m128i one = _mm_set1_epi8(1);
  switch (op) {
    case VK_STENCIL_OP_ZERO: return _mm_setzero_si128();
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return _mm_adds_epu8(stored, one);
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return _mm_subs_epu8(stored, one);
    case VK_STENCIL_OP_INVERT: return _mm_xor_si128(stored, _mm_set1_epi8(-1));
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return _mm_add_epi8(stored, one);
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return _mm_sub_epi8(stored, one);
    default: return stored;  // KEEP
  }
}

// The bytes stencil operation `op` writes through the write mask (`write` its bits set in every
// byte, `keep` the others): the operation's result where the mask has bits, the stored bits
// elsewhere (maskedStencilUpdate for all bytes at once).
inline __m128i stencilWrittenBytes(VkStencilOp op, __m128i stored, __m128i reference, __m128i keep, __m128i write) {
  return _mm_or_si128(_mm_and_si128(stored, keep), _mm_and_si128(stencilOpBytes(op, stored, reference), write));
}

// The elements where (reference & mask) op (stored & mask) holds, among `covered`.
TESSERA_AVX512 inline __mmask16 stencilPassMask(VkCompareOp op, __mmask16 covered, __m128i reference, __m128i stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_LT);
    case VK_COMPARE_OP_EQUAL: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_EQ);
    case VK_COMPARE_OP_LESS_OR_EQUAL: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_LE);
    case VK_COMPARE_OP_GREATER: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_NLE);
    case VK_COMPARE_OP_NOT_EQUAL: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_NE);
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return _mm_mask_cmp_epu8_mask(covered, reference, stored, _MM_CMPINT_NLT);
    default: return covered;  // ALWAYS
  }
}

// Row r's four stencil bytes sit at elements 4 r .. 4 r + 3: a masked access through the
// address 4 r bytes before the row's first texel touches only those (the other elements are
// masked off, so nothing outside the row is read, written or faulted on).
inline void* rowOrigin(uint8_t* row, int r) { return reinterpret_cast<void*>(uintptr_t(row) - uintptr_t(4 * r)); }

}  // namespace

uint32_t blockStencilTestS8Portable(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                                    const float* z, uint32_t coverage) {
  const uint8_t reference = uint8_t(face.reference), compareMask = uint8_t(face.compareMask);
  const uint8_t writeMask = uint8_t(face.writeMask);
  uint32_t pass = 0;
  for (int r = 0; r < 4; ++r)
    for (int p = 0; p < 4; ++p) {
      const int l = laneOf(r, p);
      if (!(coverage >> l & 1)) continue;
      uint8_t* s = planes.stencil + uint64_t(by + r) * planes.stencilPitch + uint64_t(bx + p);
      const uint8_t stored = *s;
      VkStencilOp op;
      if (!compare(face.compareOp, uint8_t(reference & compareMask), uint8_t(stored & compareMask))) {
        op = face.failOp;
      } else {
        bool depthPass = true;
        if (planes.depth) {
          uint8_t* d = planes.depth + uint64_t(by + r) * planes.depthPitch + uint64_t(bx + p) * 4;
          float storedDepth;
          std::memcpy(&storedDepth, d, 4);
          depthPass = compare(planes.depthCompare, z[l], storedDepth);
          if (depthPass && planes.depthWrite) std::memcpy(d, &z[l], 4);
        }
        op = depthPass ? face.passOp : face.depthFailOp;
        if (depthPass) pass |= 1u << l;
      }
      if (op != VK_STENCIL_OP_KEEP && writeMask) *s = maskedStencilUpdate(op, stored, reference, writeMask);
    }
  return pass;
}

bool blockStencilTestS8VectorAvailable() { return hostCpu().avx512; }  // F, BW, DQ, VL

TESSERA_AVX512 uint32_t blockStencilTestS8Vector(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx,
                                                 int32_t by, const float* z, uint32_t coverage) {
  const __m512i toLane = block_vector::laneToRowIndex(), toRow = toLane;
  const __mmask16 covered = block_vector::permuteBits(__mmask16(coverage), toLane);
  uint8_t* stencilRows[4];
  for (int r = 0; r < 4; ++r) stencilRows[r] = planes.stencil + uint64_t(by + r) * planes.stencilPitch + uint64_t(bx);
  __m128i stored = _mm_setzero_si128();
  for (int r = 0; r < 4; ++r)
    stored = _mm_mask_loadu_epi8(stored, __mmask16(covered & (0xFu << 4 * r)), rowOrigin(stencilRows[r], r));
  const __m128i reference = _mm_set1_epi8(char(face.reference));
  const __m128i compareMask = _mm_set1_epi8(char(face.compareMask));
  const __mmask16 stencilPass = stencilPassMask(face.compareOp, covered, _mm_and_si128(reference, compareMask),
                                                _mm_and_si128(stored, compareMask));
  __mmask16 depthPass = stencilPass;
  __m512 depth = _mm512_setzero_ps();
  uint8_t* depthRows[4] = {};
  if (planes.depth && stencilPass) {
    // (Depth is read only where the stencil test passed: a failed pixel's depth result is not used.)
    for (int r = 0; r < 4; ++r) depthRows[r] = planes.depth + uint64_t(by + r) * planes.depthPitch + uint64_t(bx) * 4;
    depth = _mm512_permutexvar_ps(toLane, _mm512_loadu_ps(z));
    depthPass = block_vector::passMask(planes.depthCompare, stencilPass,
                                       depth, block_vector::loadRowsD32(depthRows, stencilPass));
  }
  const __mmask16 passed = depthPass;  // (a subset of stencilPass)
  const uint8_t writeMask = uint8_t(face.writeMask);
  if (writeMask) {
    // The lanes each operation other than KEEP applies to, and the value it writes through the
    // write mask.
    const __mmask16 takes[3] = {__mmask16(covered & ~stencilPass), __mmask16(stencilPass & ~passed), passed};
    const VkStencilOp ops[3] = {face.failOp, face.depthFailOp, face.passOp};
    const __m128i keep = _mm_set1_epi8(char(~writeMask)), write = _mm_set1_epi8(char(writeMask));
    __m128i updated = stored;
    __mmask16 written = 0;
    for (int i = 0; i < 3; ++i) {
      if (ops[i] == VK_STENCIL_OP_KEEP || !takes[i]) continue;
      updated = _mm_mask_mov_epi8(updated, takes[i], stencilWrittenBytes(ops[i], stored, reference, keep, write));
      written |= takes[i];
    }
    for (int r = 0; written && r < 4; ++r)
      _mm_mask_storeu_epi8(rowOrigin(stencilRows[r], r), __mmask16(written & (0xFu << 4 * r)), updated);
  }
  if (planes.depth && planes.depthWrite && passed) block_vector::storeRowsD32(depthRows, passed, depth);
  return block_vector::permuteBits(passed, toRow);
}

namespace {

// The 16 bytes whose bit in `bits` is set, as 0xFF (others 0).
__attribute__((target("avx2"))) inline __m128i byteMask(uint32_t bits) {
  const __m128i spread = _mm_shuffle_epi8(_mm_cvtsi32_si128(int(bits)), _mm_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1));
  const __m128i bit = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128);
  return _mm_cmpeq_epi8(_mm_and_si128(spread, bit), bit);
}

// The elements where reference op stored holds, as unsigned bytes: a >= b is max(a, b) == a.
__attribute__((target("avx2"))) inline uint32_t stencilPassBits(VkCompareOp op, __m128i reference, __m128i stored) {
  auto bitsOf = [](__m128i m) __attribute__((target("avx2"))) { return uint32_t(_mm_movemask_epi8(m)); };
  const uint32_t referenceAtLeast = bitsOf(_mm_cmpeq_epi8(_mm_max_epu8(reference, stored), reference));
  const uint32_t storedAtLeast = bitsOf(_mm_cmpeq_epi8(_mm_max_epu8(reference, stored), stored));
  const uint32_t equal = bitsOf(_mm_cmpeq_epi8(reference, stored));
  switch (op) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return ~referenceAtLeast & 0xFFFF;
    case VK_COMPARE_OP_EQUAL: return equal;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return storedAtLeast;
    case VK_COMPARE_OP_GREATER: return ~storedAtLeast & 0xFFFF;
    case VK_COMPARE_OP_NOT_EQUAL: return ~equal & 0xFFFF;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return referenceAtLeast;
    default: return 0xFFFF;  // ALWAYS
  }
}

}  // namespace

bool blockStencilTestS8Avx2Available() { return hostCpu().avx2; }

__attribute__((target("avx2"))) uint32_t blockStencilTestS8Avx2(const BlockStencilPlanes& planes, const StencilFace& face,
                                                                int32_t bx, int32_t by, const float* z, uint32_t coverage) {
  const uint32_t covered = block_vector::swapLaneRowBits(coverage);  // bit 4 r + p: row r, pixel p
  if (!covered) return 0;
  uint8_t* stencilRows[4];
  alignas(16) uint8_t stored[16] = {};  // row order; only covered pixels are read
  for (int r = 0; r < 4; ++r) {
    stencilRows[r] = planes.stencil + uint64_t(by + r) * planes.stencilPitch + uint64_t(bx);
    const uint32_t rowCovered = covered >> 4 * r & 0xF;
    if (rowCovered == 0xF) {
      std::memcpy(stored + 4 * r, stencilRows[r], 4);
    } else {
      for (int p = 0; p < 4; ++p)
        if (rowCovered >> p & 1) stored[4 * r + p] = stencilRows[r][p];
    }
  }
  const __m128i storedBytes = _mm_load_si128(reinterpret_cast<const __m128i*>(stored));
  const __m128i reference = _mm_set1_epi8(char(face.reference));
  const __m128i compareMask = _mm_set1_epi8(char(face.compareMask));
  const uint32_t stencilPass = stencilPassBits(face.compareOp, _mm_and_si128(reference, compareMask),
                                               _mm_and_si128(storedBytes, compareMask)) & covered;
  // The depth test (and write) of the pixels that passed the stencil test, as the D32 block test
  // does it (a failed pixel's depth result is not used).
  uint32_t passed = stencilPass;
  if (planes.depth && stencilPass)
    passed = block_vector::swapLaneRowBits(blockDepthTestD32Avx2(planes.depth, planes.depthPitch, bx, by, z,
                                                                 block_vector::swapLaneRowBits(stencilPass),
                                                                 planes.depthCompare, planes.depthWrite));
  const uint8_t writeMask = uint8_t(face.writeMask);
  if (writeMask) {
    const uint32_t takes[3] = {covered & ~stencilPass, stencilPass & ~passed, passed};
    const VkStencilOp ops[3] = {face.failOp, face.depthFailOp, face.passOp};
    const __m128i keep = _mm_set1_epi8(char(~writeMask)), write = _mm_set1_epi8(char(writeMask));
    __m128i updated = storedBytes;
    uint32_t written = 0;
    for (int i = 0; i < 3; ++i) {
      if (ops[i] == VK_STENCIL_OP_KEEP || !takes[i]) continue;
      updated = _mm_blendv_epi8(updated, stencilWrittenBytes(ops[i], storedBytes, reference, keep, write),
                                byteMask(takes[i]));
      written |= takes[i];
    }
    if (written) {
      alignas(16) uint8_t out[16];
      _mm_store_si128(reinterpret_cast<__m128i*>(out), updated);
      for (int r = 0; r < 4; ++r) {
        const uint32_t rowWritten = written >> 4 * r & 0xF;
        if (!rowWritten) continue;
        // A wholly covered row (in this thread's tile) is stored whole, the others byte by byte.
        if ((covered >> 4 * r & 0xF) == 0xF) {
          std::memcpy(stencilRows[r], out + 4 * r, 4);
        } else {
          for (int p = 0; p < 4; ++p)
            if (rowWritten >> p & 1) stencilRows[r][p] = out[4 * r + p];
        }
      }
    }
  }
  return block_vector::swapLaneRowBits(passed);
}

uint32_t blockStencilTestS8(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                            const float* z, uint32_t coverage) {
  static const bool vector = blockStencilTestS8VectorAvailable();  // (once: this runs per block)
  static const bool avx2 = blockStencilTestS8Avx2Available();
  if (vector) return blockStencilTestS8Vector(planes, face, bx, by, z, coverage);
  if (avx2) return blockStencilTestS8Avx2(planes, face, bx, by, z, coverage);
  return blockStencilTestS8Portable(planes, face, bx, by, z, coverage);
}

}  // namespace tessera::raster
