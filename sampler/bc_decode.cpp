// BC1-BC5 block decoding, written from the Khronos Data Format Specification's chapters "S3TC
// Compressed Texture Image Formats" (BC1 with and without alpha, BC2, BC3) and "RGTC Compressed
// Texture Image Formats" (BC4 and BC5, unsigned and signed), and the dispatch of every BC format
// (BC6H and BC7 are in bptc_decode.cpp). Section and table names below are those chapters'.
//
// S3TC and RGTC define texels as real numbers: endpoints are normalized ("R_n = color_n^15..11 /
// 31", "RED_0 = red_0 / 255") and the other palette entries are fractions of them ("(2 x RGB_0 +
// RGB_1) / 3"). Each value is computed here as one exact rational in double precision and rounded
// to float once, so a texel is the float nearest the specification's value. sRGB formats apply
// the sRGB EOTF (the texel codec's, srgbToLinear) to that value; alpha stays linear.
#include <algorithm>
#include <cstdint>

#include "block_decoders.h"

namespace tessera {
namespace {

uint32_t le16(const uint8_t* q) { return uint32_t(q[0]) | uint32_t(q[1]) << 8; }
uint32_t le32(const uint8_t* q) { return le16(q) | le16(q + 2) << 16; }
uint64_t le48(const uint8_t* q) { return uint64_t(le32(q)) | uint64_t(le16(q + 4)) << 32; }
uint64_t le64(const uint8_t* q) { return uint64_t(le32(q)) | uint64_t(le32(q + 4)) << 32; }

// A palette entry as (w0 x c0 + w1 x c1) / den, c0 and c1 the endpoints' integer components.
struct Mix {
  int w0, w1, den;
};

// ---- S3TC colour ---------------------------------------------------------------------------------
// The 8-byte RGB block of BC1, and of BC2/BC3 after their alpha. Writes the normalized (for sRGB
// formats still nonlinear) R, G, B of each texel and whether it is BC1's transparent entry.
// `alwaysFourColors`: BC2 and BC3 "are treated as though color_0 > color_1, regardless of the
// actual values".
void decodeS3tcColor(const uint8_t* q, bool alwaysFourColors, double rgb[16][3], bool transparent[16]) {
  const uint32_t color0 = le16(q), color1 = le16(q + 2);
  // "R in the high 5 bits, G in the next 6 bits and B in the low 5 bits".
  const int c0[3] = {int(color0 >> 11), int((color0 >> 5) & 63), int(color0 & 31)};
  const int c1[3] = {int(color1 >> 11), int((color1 >> 5) & 63), int(color1 & 31)};
  constexpr int kMax[3] = {31, 63, 31};
  // "Block decoding for BC1": with color_0 > color_1, RGB_0, RGB_1, (2 RGB_0 + RGB_1) / 3 and
  // (RGB_0 + 2 RGB_1) / 3; otherwise RGB_0, RGB_1, (RGB_0 + RGB_1) / 2 and BLACK (which BC1 with
  // alpha makes transparent: "0.0 ... color_0 <= color_1 and code(x, y) = 3").
  const bool four = alwaysFourColors || color0 > color1;
  const uint32_t bits = le32(q + 4);
  for (int i = 0; i < 16; ++i) {
    const int code = int((bits >> (2 * i)) & 3);  // "code(x, y) = bits[2 x (4 x y + x) + 1 ... + 0]"
    const S3tcMix m = s3tcPaletteEntry(uint32_t(code), four);
    for (int ch = 0; ch < 3; ++ch)
      rgb[i][ch] = double(m.w0 * c0[ch] + m.w1 * c1[ch]) / double(m.den * kMax[ch]);
    transparent[i] = !four && code == 3;
  }
}

// ---- BC3 alpha and RGTC channels ---------------------------------------------------------------
// One 8-byte block of "BC4 unsigned" / "BC4 signed" (also BC3's alpha, whose table "Alpha encoding
// for BC3 blocks" is BC4 unsigned's): two 8-bit endpoints, then 16 three-bit codes.
void decodeRgtcChannel(const uint8_t* q, bool isSigned, double out[16]) {
  // Signed: "RED_0 = red_0 / 127.0 for red_0 > -128, -1.0 for red_0 = -128", which is
  // max(red_0, -127) / 127; the comparison below uses the stored values. (The specification leaves
  // red_0 = -127, red_1 = -128 undefined; this decoder compares -127 > -128.)
  const int raw0 = isSigned ? int(int8_t(q[0])) : int(q[0]);
  const int raw1 = isSigned ? int(int8_t(q[1])) : int(q[1]);
  const int r0 = std::max(raw0, -127), r1 = std::max(raw1, -127);
  const int scale = isSigned ? 127 : 255;
  const double minValue = isSigned ? -1.0 : 0.0;  // RED_min
  const bool six = raw0 > raw1;
  const uint64_t bits = le48(q + 2);
  for (int i = 0; i < 16; ++i) {
    const int code = int((bits >> (3 * i)) & 7);  // "code(x, y) = bits[3 x (4 x y + x) + 2 ... + 0]"
    // "Block decoding for BC4": codes 0 and 1 are the endpoints; with red_0 > red_1, code k in
    // 2..7 is ((8 - k) RED_0 + (k - 1) RED_1) / 7; otherwise code k in 2..5 is
    // ((6 - k) RED_0 + (k - 1) RED_1) / 5, 6 is RED_min and 7 is RED_max (1.0).
    Mix m;
    if (code == 0) m = {1, 0, 1};
    else if (code == 1) m = {0, 1, 1};
    else if (six) m = {8 - code, code - 1, 7};
    else if (code <= 5) m = {6 - code, code - 1, 5};
    else {
      out[i] = code == 6 ? minValue : 1.0;
      continue;
    }
    out[i] = double(m.w0 * r0 + m.w1 * r1) / double(m.den * scale);
  }
}

float colorValue(double v, bool srgb) { return float(srgb ? srgbToLinear(v) : v); }

}  // namespace

bool decodeBcBlock(const FormatInfo& format, const uint8_t* q, TexelValue out[16]) {
  const VkFormat f = format.format;
  switch (f) {
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGB_SRGB_BLOCK:
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK:
    case VK_FORMAT_BC1_RGBA_SRGB_BLOCK:
    case VK_FORMAT_BC2_UNORM_BLOCK:
    case VK_FORMAT_BC2_SRGB_BLOCK:
    case VK_FORMAT_BC3_UNORM_BLOCK:
    case VK_FORMAT_BC3_SRGB_BLOCK: {
      const bool srgb = f == VK_FORMAT_BC1_RGB_SRGB_BLOCK || f == VK_FORMAT_BC1_RGBA_SRGB_BLOCK ||
                        f == VK_FORMAT_BC2_SRGB_BLOCK || f == VK_FORMAT_BC3_SRGB_BLOCK;
      const bool bc1 = f == VK_FORMAT_BC1_RGB_UNORM_BLOCK || f == VK_FORMAT_BC1_RGB_SRGB_BLOCK ||
                       f == VK_FORMAT_BC1_RGBA_UNORM_BLOCK || f == VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
      const bool bc1Alpha = f == VK_FORMAT_BC1_RGBA_UNORM_BLOCK || f == VK_FORMAT_BC1_RGBA_SRGB_BLOCK;
      double rgb[16][3];
      bool transparent[16];
      // BC2 and BC3: "64 bits of ... alpha image data followed by 64 bits of RGB image data".
      decodeS3tcColor(bc1 ? q : q + 8, !bc1, rgb, transparent);
      double alpha[16];
      if (f == VK_FORMAT_BC2_UNORM_BLOCK || f == VK_FORMAT_BC2_SRGB_BLOCK) {
        // BC2: "alpha(x, y) = bits[4 x (4 x y + x) + 3 ... + 0]", alpha / 15.
        const uint64_t bits = le64(q);
        for (int i = 0; i < 16; ++i) alpha[i] = double((bits >> (4 * i)) & 15) / 15.0;
      } else if (f == VK_FORMAT_BC3_UNORM_BLOCK || f == VK_FORMAT_BC3_SRGB_BLOCK) {
        decodeRgtcChannel(q, false, alpha);
      } else {
        // BC1 with alpha: 0.0 for the transparent entry, 1.0 otherwise; BC1 with no alpha is
        // "considered fully opaque" (its code 3 of the 3-colour mode is opaque black).
        for (int i = 0; i < 16; ++i) alpha[i] = bc1Alpha && transparent[i] ? 0.0 : 1.0;
      }
      for (int i = 0; i < 16; ++i) {
        for (int ch = 0; ch < 3; ++ch) out[i].f[ch] = colorValue(rgb[i][ch], srgb);
        out[i].f[3] = float(alpha[i]);
      }
      return true;
    }
    case VK_FORMAT_BC4_UNORM_BLOCK:
    case VK_FORMAT_BC4_SNORM_BLOCK:
    case VK_FORMAT_BC5_UNORM_BLOCK:
    case VK_FORMAT_BC5_SNORM_BLOCK: {
      // BC4: (R, 0, 0, 1). BC5: red from the first 64 bits, green from the second: (R, G, 0, 1).
      const bool isSigned = f == VK_FORMAT_BC4_SNORM_BLOCK || f == VK_FORMAT_BC5_SNORM_BLOCK;
      const bool twoChannels = f == VK_FORMAT_BC5_UNORM_BLOCK || f == VK_FORMAT_BC5_SNORM_BLOCK;
      double red[16], green[16] = {};
      decodeRgtcChannel(q, isSigned, red);
      if (twoChannels) decodeRgtcChannel(q + 8, isSigned, green);
      for (int i = 0; i < 16; ++i) out[i].f[0] = float(red[i]), out[i].f[1] = float(green[i]), out[i].f[2] = 0, out[i].f[3] = 1;
      return true;
    }
    case VK_FORMAT_BC6H_UFLOAT_BLOCK:
    case VK_FORMAT_BC6H_SFLOAT_BLOCK: {
      // Half-float bit patterns, made floats by the codec's 16-bit float conversion; alpha 1.0.
      uint16_t rgb[16][3];
      decodeBc6h(q, f == VK_FORMAT_BC6H_SFLOAT_BLOCK, rgb);
      const FormatInfo& half = *formatInfo(VK_FORMAT_R16G16B16A16_SFLOAT);
      for (int i = 0; i < 16; ++i) {
        const uint16_t texel[4] = {rgb[i][0], rgb[i][1], rgb[i][2], 0x3C00};
        decodeTexel(half, texel, out[i]);
      }
      return true;
    }
    case VK_FORMAT_BC7_UNORM_BLOCK:
    case VK_FORMAT_BC7_SRGB_BLOCK: {
      // "These 8-bit values should be interpreted as RGBA 8-bit normalized channels, either
      // linearly encoded ... or with the sRGB transfer function": exactly R8G8B8A8_UNORM/_SRGB.
      uint8_t rgba[16][4];
      decodeBc7(q, rgba);
      const FormatInfo& bytes = *formatInfo(f == VK_FORMAT_BC7_SRGB_BLOCK ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM);
      for (int i = 0; i < 16; ++i) decodeTexel(bytes, rgba[i], out[i]);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tessera
