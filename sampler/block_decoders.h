// The block decoders behind tessera/compressed.h, one per family of formats; compressed.cpp
// picks one by the format's Compression. Each writes texel (x, y) of the 4x4 block to out[y * 4 + x].
#pragma once

#include <cstdint>

#include "tessera/compressed.h"

namespace tessera {

// ETC2 and EAC (etc2_decode.cpp). False for other formats.
bool decodeEtc2Block(const FormatInfo& format, const uint8_t* block, TexelValue out[16]);
// ETC2's colour formats (RGB8, RGB8A1, RGBA8, UNORM or SRGB) before the conversion to floats:
// their texels are 8-bit RGBA, which decodeEtc2Block reads as R8G8B8A8 (UNORM or SRGB) texels.
// False for other formats.
bool decodeEtc2Rgba8(uint32_t format, const uint8_t* block, uint8_t out[16][4]);

// "Block decoding for BC1" (S3TC colour, also BC2/BC3's): the palette entry of a 2-bit code as
// (w0 colour_0 + w1 colour_1) / den. With colour_0 > colour_1 (`fourColors`; BC2 and BC3
// always) RGB_0, RGB_1, (2 RGB_0 + RGB_1) / 3 and (RGB_0 + 2 RGB_1) / 3; otherwise RGB_0, RGB_1,
// (RGB_0 + RGB_1) / 2 and BLACK. Shared by bc_decode.cpp and the batched routines' BC1 texels.
struct S3tcMix {
  int w0, w1, den;
};
constexpr S3tcMix s3tcPaletteEntry(uint32_t code, bool fourColors) {
  return code == 0   ? S3tcMix{1, 0, 1}
         : code == 1 ? S3tcMix{0, 1, 1}
         : code == 2 ? (fourColors ? S3tcMix{2, 1, 3} : S3tcMix{1, 1, 2})
                     : (fourColors ? S3tcMix{1, 2, 3} : S3tcMix{0, 0, 1});
}

// BC1-BC7 (bc_decode.cpp; BC6H and BC7 in bptc_decode.cpp). False for other formats.
bool decodeBcBlock(const FormatInfo& format, const uint8_t* block, TexelValue out[16]);

// BPTC (bptc_decode.cpp), before the conversion to floats: BC7 as 8-bit RGBA integers, BC6H as
// 16-bit half-float bit patterns of R, G, B. Any 16 bytes decode; reserved modes give zeros.
void decodeBc7(const uint8_t* block, uint8_t out[16][4]);
void decodeBc6h(const uint8_t* block, bool isSigned, uint16_t out[16][3]);

}  // namespace tessera
