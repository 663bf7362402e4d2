// The block decoders behind tessera/compressed.h, one per family of formats; compressed.cpp
// picks one by the format's Compression. Each writes texel (x, y) of the 4x4 block to out[y * 4 + x].
#pragma once

#include <cstdint>

#include "tessera/compressed.h"

namespace tessera {

// ETC2 and EAC (etc2_decode.cpp). False for other formats.
bool decodeEtc2Block(const FormatInfo& format, const uint8_t* block, TexelValue out[16]);

// BC1-BC7 (bc_decode.cpp; BC6H and BC7 in bptc_decode.cpp). False for other formats.
bool decodeBcBlock(const FormatInfo& format, const uint8_t* block, TexelValue out[16]);

// BPTC (bptc_decode.cpp), before the conversion to floats: BC7 as 8-bit RGBA integers, BC6H as
// 16-bit half-float bit patterns of R, G, B. Any 16 bytes decode; reserved modes give zeros.
void decodeBc7(const uint8_t* block, uint8_t out[16][4]);
void decodeBc6h(const uint8_t* block, bool isSigned, uint16_t out[16][3]);

}  // namespace tessera
