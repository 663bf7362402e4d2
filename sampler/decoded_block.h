// The last compressed block a reader decoded, kept so that texels read one after another from
// the same 4x4 block (a row of a blit, the 2x2 footprint of a linear filter) decode it once.
// Keyed by the block's address: valid only while the memory behind it does not change, so a
// cache lives for one blit region or one sample, never longer.
#pragma once

#include <cstdint>

#include "tessera/compressed.h"

namespace tessera {

class DecodedBlock {
 public:
  DecodedBlock() {}  // texels_ stays uninitialized until a block is decoded (no 256-byte clear per sample)

  // Texel (x, y) of the block of `format` at `block` (x < blockWidth, y < blockHeight).
  // A format without a block decoder reads as (0, 0, 0, 1).
  const TexelValue& texel(const FormatInfo& format, const uint8_t* block, uint32_t x, uint32_t y) {
    if (block != block_ || &format != format_) {
      if (!decodeCompressedBlock(format, block, texels_))
        for (TexelValue& t : texels_) t.f[0] = t.f[1] = t.f[2] = 0, t.f[3] = 1;
      block_ = block;
      format_ = &format;
    }
    return texels_[y * 4 + x];
  }

 private:
  const uint8_t* block_ = nullptr;
  const FormatInfo* format_ = nullptr;
  TexelValue texels_[16];
};

}  // namespace tessera
