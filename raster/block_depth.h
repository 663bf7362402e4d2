// The block walker's early depth test on a 4x4 block of a single-sample D32_SFLOAT attachment
// (FragmentStage::blockDepthTest, draw_blocks.cpp): "Depth Test" with the reference's
// comparisons (draw_fragments.cpp: compare, NaN included) on the block's covered pixels, and
// the depth write of those that pass.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>
#include <cstring>

namespace tessera::raster {

// A D16 (`bits` 16) or D24 (24: X8_D24_UNORM_PACK32 or D24_UNORM_S8_UINT's depth plane, 4 bytes
// a texel, the depth in the low 24 bits) plane's texel of pixel (x, y), its depth as an integer,
// 2^b - 1, and the decode c / (2^b - 1) rounded to float that the tests compare.
inline uint8_t* unormTexel(uint8_t* base, uint64_t rowPitch, int32_t x, int32_t y, uint32_t bits) {
  return base + uint64_t(y) * rowPitch + uint64_t(x) * (bits == 16 ? 2 : 4);
}
inline const uint8_t* unormTexel(const uint8_t* base, uint64_t rowPitch, int32_t x, int32_t y, uint32_t bits) {
  return base + uint64_t(y) * rowPitch + uint64_t(x) * (bits == 16 ? 2 : 4);
}
inline uint32_t readUnorm(const uint8_t* texel, uint32_t bits) {
  if (bits == 16) {
    uint16_t v;
    std::memcpy(&v, texel, 2);
    return v;
  }
  uint32_t v;
  std::memcpy(&v, texel, 4);
  return v & 0xFFFFFFu;
}
inline double unormDepthMax(uint32_t bits) { return bits == 16 ? 65535.0 : 16777215.0; }
inline float decodeUnormDepth(uint32_t c, uint32_t bits) { return static_cast<float>(double(c) / unormDepthMax(bits)); }

// Block lanes are in FragmentBatch order (quads in rows, pixels in a quad: draw_blocks.cpp's
// laneX/laneY); `z` holds each lane's depth and `coverage` the covered lanes. The pixel of
// lane l is (bx + laneX(l), by + laneY(l)) of the attachment at `base` with `rowPitch` bytes
// per row; only covered pixels are read and only passing ones written (when `write`), so a
// block may hang over the attachment's edge where it is not covered. Returns the lanes that
// passed.
uint32_t blockDepthTestD32(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z, uint32_t coverage,
                           VkCompareOp op, bool write);
// The version blockDepthTestD32 calls on this host, for callers that keep it (one indirect call
// per block instead of two calls).
using BlockDepthTestD32Fn = uint32_t (*)(uint8_t*, uint64_t, int32_t, int32_t, const float*, uint32_t, VkCompareOp, bool);
BlockDepthTestD32Fn blockDepthTestD32Function();

// The same, one row and pixel at a time in portable C++: the definition the vector version
// (used where the processor has AVX-512) is tested against (tests/unit/raster/block_depth_test.cpp).
uint32_t blockDepthTestD32Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                   uint32_t coverage, VkCompareOp op, bool write);
// The AVX-512 version (false from blockDepthTestD32Vector's `available`: not on this processor).
bool blockDepthTestD32VectorAvailable();
uint32_t blockDepthTestD32Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                 uint32_t coverage, VkCompareOp op, bool write);
// The AVX2 version, for processors without AVX-512: rows by VMASKMOVPS loads, one comparison
// per two rows; a row whose four pixels are covered is written back whole, its failing pixels
// with the values just read (covered pixels lie in the tile being drawn, whose pixels only this
// thread touches), partly covered rows by masked stores.
bool blockDepthTestD32Avx2Available();
uint32_t blockDepthTestD32Avx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                               uint32_t coverage, VkCompareOp op, bool write);

// The same on a single-sample D24 attachment (X8_D24_UNORM_PACK32 or the depth plane of
// D24_UNORM_S8_UINT: 4 bytes a texel, the depth in the low 24 bits; `bits` 24) or D16 one
// (`bits` 16), as the per-lane tests do it (draw_fragments.cpp's sampleTests): z converted to the
// format first (quantizeDepth: floatToUnorm, then decoded), compared with the decoded stored
// value, and the passing pixels written with storeDepth of the converted value.
uint32_t blockDepthTestUnorm(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z, uint32_t coverage,
                             VkCompareOp op, bool write, uint32_t bits);
uint32_t blockDepthTestUnormPortable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                     uint32_t coverage, VkCompareOp op, bool write, uint32_t bits);
// The AVX-512 one compares the integers themselves: the decode c / (2^b - 1), rounded to float,
// is strictly increasing in c for b <= 24, so integer order is the decoded floats' order, and
// storeDepth of a decoded c writes c again (both checked for every c in block_depth_test.cpp).
uint32_t blockDepthTestUnormVector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                   uint32_t coverage, VkCompareOp op, bool write, uint32_t bits);
// AVX2 (blockDepthTestD32Avx2Available): the same integers, compared two rows at a time; D24 rows
// read by masked loads, D16 ones whole when covered, else pixel by pixel; a covered row written
// back whole (its other pixels with the bits just read), as blockDepthTestD32Avx2 does.
uint32_t blockDepthTestUnormAvx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float* z,
                                 uint32_t coverage, VkCompareOp op, bool write, uint32_t bits);

// The same on a 4-sample D32 attachment (a pixel's four samples are consecutive floats, so a
// block row is 64 bytes): sampleZ[s][l] is lane l's depth at sample s, covered[l] the samples
// to test (bits 0-3; the sample mask already applied). passed[l] receives the samples that
// passed; returns the lanes with at least one.
uint32_t blockDepthTestD32x4(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                             const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed);
uint32_t blockDepthTestD32x4Portable(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                                     const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed);
uint32_t blockDepthTestD32x4Vector(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                                   const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed);
// AVX2 (blockDepthTestD32Avx2Available): a quad's samples transposed into pixels, two pixels of a
// row (32 bytes) per masked load and comparison; two wholly covered pixels written back whole.
uint32_t blockDepthTestD32x4Avx2(uint8_t* base, uint64_t rowPitch, int32_t bx, int32_t by, const float (*sampleZ)[16],
                                 const uint32_t* covered, VkCompareOp op, bool write, uint32_t* passed);

}  // namespace tessera::raster
