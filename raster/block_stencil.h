// The block walker's early stencil test, with the depth test where there is one, on a 4x4
// block of single-sample attachments: an S8 stencil plane (one byte a texel) and a D32_SFLOAT
// depth plane or none (FragmentStage::blockDepthTest, draw_blocks.cpp). "Stencil Test" and
// "Depth Test" with the reference's comparisons and stencil operations (stencil_rules.h) on
// the block's covered pixels, their stencil and depth writes included.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "tessera/draw.h"

namespace tessera::raster {

struct BlockStencilPlanes {
  uint8_t* stencil = nullptr;  // S8 texels, one byte each
  uint64_t stencilPitch = 0;
  uint8_t* depth = nullptr;  // D32_SFLOAT texels; null: no depth test
  uint64_t depthPitch = 0;
  VkCompareOp depthCompare = VK_COMPARE_OP_ALWAYS;
  bool depthWrite = false;
};

// Block lanes are in FragmentBatch order (block_depth.h); `z` holds each lane's depth and
// `coverage` the covered lanes; `face` is the primitive's facing's stencil state. Only covered
// pixels are read and only written ones stored, so a block may hang over the attachments'
// edges where it is not covered. Returns the lanes that passed both tests.
uint32_t blockStencilTestS8(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                            const float* z, uint32_t coverage);

// The same pixel by pixel in portable C++: the definition the AVX-512 version is tested against
// (tests/unit/raster/block_stencil_test.cpp).
uint32_t blockStencilTestS8Portable(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                                    const float* z, uint32_t coverage);
bool blockStencilTestS8VectorAvailable();
uint32_t blockStencilTestS8Vector(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                                  const float* z, uint32_t coverage);
// AVX2 (hosts without AVX-512): the block's stencil bytes in one vector in row order (rows read
// and written whole where covered, else byte by byte: AVX2 has no byte-masked accesses), unsigned
// byte comparisons from max and equality, the operations as in the AVX-512 version, and the D32
// test of blockDepthTestD32Avx2 on the pixels that passed the stencil test.
bool blockStencilTestS8Avx2Available();
uint32_t blockStencilTestS8Avx2(const BlockStencilPlanes& planes, const StencilFace& face, int32_t bx, int32_t by,
                                const float* z, uint32_t coverage);

}  // namespace tessera::raster
