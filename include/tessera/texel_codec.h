// Texel decode/encode between the bytes of an image and RGBA values: the scalar reference
// implementation, written from the Vulkan specification ("Format Conversion", "Fixed-Point Data
// Conversions", "Floating-Point Format Conversions", "16-Bit / Unsigned 11-Bit / Unsigned 10-Bit
// Floating-Point Numbers", "Shared Exponent to RGB" / "RGB to Shared Exponent Conversion", and the
// Khronos Data Format Specification's sRGB EOTF/OETF). Everything is driven by the generated
// format table (format.h); only the genuinely special encodings (E5B9G9R9, B10G11R11, the 16/11/10
// bit floats) have code of their own.
//
// Choices the specification leaves to the implementation (all documented in texel_codec.cpp):
//  - float -> UNORM/SNORM/USCALED/SSCALED rounds to nearest, ties to even, computed in double
//    (exact for every component width Tessera has); NaN becomes 0.
//  - float -> 16/11/10-bit float rounds to nearest, ties to even, with denormals; finite values
//    too large for the format become infinity; NaN stays NaN (payload kept where it fits);
//    for the unsigned 11/10-bit floats negative values and -Inf become 0.
//  - encodeTexel writes 0 into bits the format leaves unused (X padding, the X8 of X8_D24).
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

#include "tessera/format.h"

namespace tessera {

// A texel value in RGBA order. Floats for UNORM/SNORM/USCALED/SSCALED/UFLOAT/SFLOAT/SRGB
// (sRGB decoded to linear), integers for UINT/SINT. Missing components read as (0,0,0,1)
// (1 as integer 1 for integer formats).
union TexelValue {
  float f[4];
  int32_t i[4];
  uint32_t u[4];
};

enum class TexelKind { Float, SInt, UInt };

// The kind of value decodeTexel produces for this format (from its first component: UINT ->
// UInt, SINT -> SInt, anything else -> Float; S8_UINT -> UInt, other depth formats -> Float).
TexelKind texelKind(const FormatInfo& format);

// True for uncompressed single-plane color formats whose components are <= 32 bits (everything
// decodeTexel/encodeTexel handle), false for compressed, multi-planar, 64-bit, depth/stencil
// formats and the 2x1 "_422" formats (which hold two texels per block).
bool hasColorCodec(const FormatInfo& format);

// Where decodeTexel finds component `channel` (0 R, 1 G, 2 B, 3 A) of a hasColorCodec format:
// its first bit in the block's little-endian bit string and its width (the codec's own layout,
// the XnPACK16 formats' padding included), and its numeric format. False where the format has
// no such component. For paths that read one component without the whole texel.
struct ComponentField {
  uint32_t pos, bits;
  NumericFormat numeric;
};
bool componentField(const FormatInfo& format, uint32_t channel, ComponentField* out);

// src/dst point at one texel block (format.blockSize bytes). Formats without hasColorCodec
// decode as (0,0,0,1) and encode nothing.
void decodeTexel(const FormatInfo& format, const void* src, TexelValue& out);
// With the spec's rounding and clamping: UNORM/sRGB clamp to [0,1], SNORM to [-1,1], scaled
// formats to their integer range, UINT/SINT to the component's range (as vkCmdBlitImage
// requires: "first clamping to the representable range of the destination format").
void encodeTexel(const FormatInfo& format, const TexelValue& value, void* dst);

// Every 8-bit value as decodeTexel decodes an 8-bit UNORM component and an 8-bit sRGB colour
// component (256 floats each, filled by the codec itself at first use, so a table read is the
// codec's answer bit for bit): for paths that read 8-bit texels in bulk.
const float* unorm8Table();
const float* srgb8Table();

// The KDFS sRGB EOTF on one nonlinear component in [0, 1] (decodeTexel's sRGB conversion; the
// block decoders apply it to compressed colour values that are not whole 8-bit numbers).
double srgbToLinear(double encoded);
// The 8-bit sRGB encode of one linear colour component (encodeTexel's, for every 8-bit sRGB
// format): NaN 0, clamped to [0, 1], the KDFS OETF, times 255, rounded half to even. By a table
// of the 255 steps derived from that formula at first use (a search of 8 comparisons where the
// formula is a pow per component).
uint8_t linearToSrgb8(float linear);

// Depth and stencil as Tessera stores them: each aspect in its own plane. Depth plane texels
// are 2 bytes (D16_UNORM), 4 bytes with depth in the low 24 bits (X8_D24_UNORM_PACK32,
// D24_UNORM_S8_UINT; the upper 8 bits written as 0), or 4 bytes float (D32_SFLOAT,
// D32_SFLOAT_S8_UINT). Stencil planes are 1 byte per texel.
float decodeDepth(const FormatInfo& format, const void* src);
void encodeDepth(const FormatInfo& format, float depth, void* dst);  // clamps to [0,1] for UNORM

// The bytes of one texel block filled with a clear colour (spec: "Clear Values"): float formats
// take .float32 (treated as linear for sRGB formats, converted with encodeTexel's rounding and
// clamping), UINT .uint32, SINT .int32 (cast to the component width, i.e. truncated, as the spec
// describes; values that do not fit are undefined there). Formats with 64-bit components take
// R from elements 0-1 and G from elements 2-3 reinterpreted as one 64-bit value each (B and A
// are written as 0). Returns the number of bytes written (blockSize), or 0 for formats that
// cannot be cleared this way (compressed, multi-planar, _422, depth/stencil).
uint32_t encodeClearColor(const FormatInfo& format, const VkClearColorValue& value, uint8_t* out);

}  // namespace tessera
