// Block-compressed texel formats: one texel block decoded into its texels. The scalar reference,
// written from the Khronos Data Format Specification's chapters "ETC2 Compressed Texture Image
// Formats", "S3TC ...", "RGTC ..." and "BPTC Compressed Texture Image Formats" (Vulkan's
// "Compressed Image Formats" appendix points there). Tessera decodes the ETC2 and EAC formats
// (the textureCompressionETC2 set: sampler/etc2_decode.cpp) and BC1-BC7 (textureCompressionBC:
// sampler/bc_decode.cpp, sampler/bptc_decode.cpp); ASTC images can only be copied.
#pragma once

#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera {

// True for the formats decodeCompressedBlock handles: VK_FORMAT_ETC2_R8G8B8_{UNORM,SRGB}_BLOCK,
// ETC2_R8G8B8A1_{UNORM,SRGB}, ETC2_R8G8B8A8_{UNORM,SRGB}, EAC_R11_{UNORM,SNORM},
// EAC_R11G11_{UNORM,SNORM}, and the sixteen BC formats (BC1_RGB/BC1_RGBA/BC2/BC3/BC7
// UNORM and SRGB, BC4/BC5 UNORM and SNORM, BC6H UFLOAT and SFLOAT).
bool hasBlockDecoder(const FormatInfo& format);

// Decodes one block (format.blockSize bytes, as stored in memory) into its 4x4 texels: texel
// (x, y) of the block, x along u and y along v, lands in out[y * 4 + x]. Values are floats as
// decodeTexel gives them for an uncompressed format of the same kind: UNORM in [0,1], SNORM in
// [-1,1], UFLOAT/SFLOAT (BC6H) as the half floats they encode, sRGB colour converted to linear
// (alpha stays linear); missing components read as (0, 0, 0, 1). Any block contents decode
// (reserved encodings as their specification says). Returns false, writing nothing, for
// formats without a decoder.
bool decodeCompressedBlock(const FormatInfo& format, const void* block, TexelValue out[16]);

}  // namespace tessera
