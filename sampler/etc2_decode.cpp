// ETC2 and EAC block decoding (tessera/compressed.h, through compressed.cpp), written from the
// Khronos Data Format Specification, chapter "ETC2 Compressed Texture Image Formats" (sections
// "Format RGB ETC2", "Format RGBA ETC2", "Format Unsigned/Signed R11 EAC", "Format
// Unsigned/Signed RG11 EAC", "Format RGB ETC2 with punchthrough alpha" and their sRGB variants).
// Section and table names below are that chapter's.
//
// Every mode first produces the integers the specification defines (8-bit colour and alpha,
// 11-bit EAC values); only the last step makes floats. The 8-bit results go through the texel
// codec as R8G8B8A8_UNORM/_SRGB texels, so that ETC2 texels convert exactly like the
// uncompressed 8-bit formats (x/255, and the codec's sRGB EOTF for sRGB colour). EAC values use
// the 11-bit representation the specification calls exact: v/2047 unsigned, v/1023 signed.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "block_decoders.h"

namespace tessera {
namespace {

// "int64bit = 256 x (256 x (... q0 + q1) ...) + q7": the eight bytes as a big-endian word.
uint64_t word64(const uint8_t* q) {
  uint64_t w = 0;
  for (int n = 0; n < 8; ++n) w = (w << 8) | q[n];
  return w;
}

uint32_t bits(uint64_t w, int high, int low) { return uint32_t((w >> low) & ((uint64_t(1) << (high - low + 1)) - 1)); }

int clamp255(int v) { return std::clamp(v, 0, 255); }

// The pixels of a block are lettered a..p down the columns ("Pixel layout for an ETC2
// compressed block": a,b,c,d is the first column). Pixel number n = 4x + y for block position
// (x, y); the output arrays of this file are indexed by y * 4 + x.
constexpr int pixelNumber(int x, int y) { return 4 * x + y; }

// "bit layout for bits 31 through 0": pixel n's index has its MSB at bit 16 + n, LSB at bit n.
int colorIndex(uint64_t w, int n) { return int(((w >> (16 + n)) & 1) << 1 | ((w >> n) & 1)); }

struct Rgba8 {
  int c[4];  // R, G, B, A in 0..255
};

// extend_4to8bits / extend_5to8bits / 6 and 7 bits: the high bits replicated into the low ones.
int extend(uint32_t v, int width) { return int((v << (8 - width)) | (v >> (2 * width - 8))); }

// "ETC2 intensity modifier sets for 'individual' and 'differential' modes": the small (a) and
// large (b) value of each table codeword; the table is [-b, -a, a, b].
constexpr int kModifierA[8] = {2, 5, 9, 13, 18, 24, 33, 47};
constexpr int kModifierB[8] = {8, 17, 29, 42, 60, 80, 106, 183};

// "Distance table for ETC2 'T' and 'H' modes".
constexpr int kDistance[8] = {3, 6, 11, 16, 23, 32, 41, 64};

// ---- RGB ETC2 and RGB ETC2 with punchthrough alpha -----------------------------------------
// `punchthrough` selects the second format: bit 33 is then the 'opaque' bit instead of the
// 'diff' bit, there is no individual mode, and when opaque is 0 pixel index 2 (msb 1, lsb 0)
// is transparent black in the differential, T and H modes.

// Individual and differential modes: two subblocks, each a base colour plus a modifier.
void decodeSubblocks(uint64_t w, bool differential, bool opaque, Rgba8 out[16]) {
  int base[2][3];
  for (int ch = 0; ch < 3; ++ch) {
    const int hi = 63 - 8 * ch;  // R at 63, G at 55, B at 47
    if (differential) {
      // "base col subblock1 = extend_5to8bits(R, G, B); subblock2 = extend_5to8bits(R+dR, ...)",
      // dR a 3-bit two's-complement number. The caller has checked that the sums fit 0..31.
      const int c5 = int(bits(w, hi, hi - 4));
      const int d3 = int(bits(w, hi - 5, hi - 7));
      const int delta = d3 >= 4 ? d3 - 8 : d3;
      base[0][ch] = extend(uint32_t(c5), 5);
      base[1][ch] = extend(uint32_t(c5 + delta), 5);
    } else {
      // "base col subblock1 = extend_4to8bits(R1, G1, B1)", R1 at bits 63-60, R2 at 59-56.
      base[0][ch] = extend(bits(w, hi, hi - 3), 4);
      base[1][ch] = extend(bits(w, hi - 4, hi - 7), 4);
    }
  }
  const int table[2] = {int(bits(w, 39, 37)), int(bits(w, 36, 34))};
  const bool flip = (w >> 32) & 1;  // 0: 2x4 subblocks side by side, 1: 4x2 on top of each other
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int sub = flip ? (y >= 2) : (x >= 2);
      const int index = colorIndex(w, pixelNumber(x, y));
      Rgba8& t = out[y * 4 + x];
      if (!opaque && index == 2) {  // punchthrough: "alpha = 0; red = green = blue = 0"
        t = {{0, 0, 0, 0}};
        continue;
      }
      // "Mapping from pixel index values to modifier values": 00 a, 01 b, 10 -a, 11 -b; with the
      // opaque bit unset the small values are 0 ("modifier sets ... if 'opaque' is unset").
      const int a = opaque ? kModifierA[table[sub]] : 0, b = kModifierB[table[sub]];
      const int modifier = index == 0 ? a : index == 1 ? b : index == 2 ? -a : -b;
      for (int ch = 0; ch < 3; ++ch) t.c[ch] = clamp255(base[sub][ch] + modifier);
      t.c[3] = 255;
    }
}

// T and H modes: four paint colours, chosen per pixel by its index.
void decodePaint(uint64_t w, bool hMode, bool opaque, Rgba8 out[16]) {
  int base1[3], base2[3];
  int paint[4][3];
  if (!hMode) {
    // 'T' layout: R1a 60-59, R1b 57-56, G1 55-52, B1 51-48, R2 47-44, G2 43-40, B2 39-36,
    // da 35-34, db 32. "base col 1 = extend_4to8bits((R1a << 2) | R1b, G1, B1)".
    base1[0] = extend(bits(w, 60, 59) << 2 | bits(w, 57, 56), 4);
    base1[1] = extend(bits(w, 55, 52), 4);
    base1[2] = extend(bits(w, 51, 48), 4);
    for (int ch = 0; ch < 3; ++ch) base2[ch] = extend(bits(w, 47 - 4 * ch, 44 - 4 * ch), 4);
    const int d = kDistance[bits(w, 35, 34) << 1 | bits(w, 32, 32)];
    for (int ch = 0; ch < 3; ++ch) {
      paint[0][ch] = base1[ch];
      paint[1][ch] = clamp255(base2[ch] + d);
      paint[2][ch] = base2[ch];
      paint[3][ch] = clamp255(base2[ch] - d);
    }
  } else {
    // 'H' layout: R1 62-59, G1a 58-56, G1b 52, B1a 51, B1b 49-47, R2 46-43, G2 42-39,
    // B2 38-35, da 34, db 32. "base col 1 = extend_4to8bits(R1, (G1a << 1) | G1b,
    // (B1a << 3) | B1b)".
    base1[0] = extend(bits(w, 62, 59), 4);
    base1[1] = extend(bits(w, 58, 56) << 1 | bits(w, 52, 52), 4);
    base1[2] = extend(bits(w, 51, 51) << 3 | bits(w, 49, 47), 4);
    for (int ch = 0; ch < 3; ++ch) base2[ch] = extend(bits(w, 46 - 4 * ch, 43 - 4 * ch), 4);
    // The distance index's LSB is "(base col 1 value >= base col 2 value)", a colour's value
    // being (R << 16) + (G << 8) + B.
    const int value1 = base1[0] << 16 | base1[1] << 8 | base1[2];
    const int value2 = base2[0] << 16 | base2[1] << 8 | base2[2];
    const int d = kDistance[bits(w, 34, 34) << 2 | bits(w, 32, 32) << 1 | uint32_t(value1 >= value2)];
    for (int ch = 0; ch < 3; ++ch) {
      paint[0][ch] = clamp255(base1[ch] + d);
      paint[1][ch] = clamp255(base1[ch] - d);
      paint[2][ch] = clamp255(base2[ch] + d);
      paint[3][ch] = clamp255(base2[ch] - d);
    }
  }
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int index = colorIndex(w, pixelNumber(x, y));
      Rgba8& t = out[y * 4 + x];
      if (!opaque && index == 2) {
        t = {{0, 0, 0, 0}};
        continue;
      }
      t = {{paint[index][0], paint[index][1], paint[index][2], 255}};
    }
}

// Planar mode: three RGB676 colours O, H, V spanning a plane. Always opaque (with punchthrough
// "should the 'opaque'-bit anyway be 0 the decoder should treat it as if it were 1").
void decodePlanar(uint64_t w, Rgba8 out[16]) {
  // Bit layout 'g': RO 62-57, GO1 56, GO2 54-49, BO1 48, BO2 44-43, BO3 41-39, RH1 38-34,
  // RH2 32, GH 31-25, BH 24-19, RV 18-13, GV 12-6, BV 5-0.
  const int o[3] = {extend(bits(w, 62, 57), 6), extend(bits(w, 56, 56) << 6 | bits(w, 54, 49), 7),
                    extend(bits(w, 48, 48) << 5 | bits(w, 44, 43) << 3 | bits(w, 41, 39), 6)};
  const int h[3] = {extend(bits(w, 38, 34) << 1 | bits(w, 32, 32), 6), extend(bits(w, 31, 25), 7),
                    extend(bits(w, 24, 19), 6)};
  const int v[3] = {extend(bits(w, 18, 13), 6), extend(bits(w, 12, 6), 7), extend(bits(w, 5, 0), 6)};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      Rgba8& t = out[y * 4 + x];
      // "R(x,y) = clamp255((x (RH-RO) + y (RV-RO) + 4 RO + 2) >> 2)": rounding to nearest, ties
      // up; >> of a negative int is an arithmetic shift (C++20), and clamps to 0 anyway.
      for (int ch = 0; ch < 3; ++ch)
        t.c[ch] = clamp255((x * (h[ch] - o[ch]) + y * (v[ch] - o[ch]) + 4 * o[ch] + 2) >> 2);
      t.c[3] = 255;
    }
}

// "Format RGB ETC2" / "Format RGB ETC2 with punchthrough alpha": mode selection.
void decodeEtc2Color(uint64_t w, bool punchthrough, Rgba8 out[16]) {
  const bool bit33 = (w >> 33) & 1;  // 'D' (diff bit), or 'Op' (opaque) with punchthrough
  if (!punchthrough && !bit33) {
    decodeSubblocks(w, false, true, out);  // "if the bit marked 'D' is set to 0, the 'individual' mode"
    return;
  }
  const bool opaque = punchthrough ? bit33 : true;
  // "R and dR are added, and if the sum is not within [0,31], the 'T' mode is selected.
  // Otherwise, if the sum of G and dG is outside [0,31], the 'H' mode ... if the sum of B and
  // dB is outside [0,31], the 'planar' mode ... [otherwise] the 'differential' mode".
  auto outOfRange = [&](int hi) {
    const int c5 = int(bits(w, hi, hi - 4)), d3 = int(bits(w, hi - 5, hi - 7));
    const int sum = c5 + (d3 >= 4 ? d3 - 8 : d3);
    return sum < 0 || sum > 31;
  };
  if (outOfRange(63)) decodePaint(w, false, opaque, out);
  else if (outOfRange(55)) decodePaint(w, true, opaque, out);
  else if (outOfRange(47)) decodePlanar(w, out);
  else decodeSubblocks(w, true, opaque, out);
}

// ---- EAC -------------------------------------------------------------------------------------
// "Intensity modifier sets for RGBA ETC2 alpha component" (shared by R11/RG11 EAC).
constexpr int kEacModifiers[16][8] = {
    {-3, -6, -9, -15, 2, 5, 8, 14}, {-3, -7, -10, -13, 2, 6, 9, 12}, {-2, -5, -8, -13, 1, 4, 7, 12},
    {-2, -4, -6, -13, 1, 3, 5, 12}, {-3, -6, -8, -12, 2, 5, 7, 11}, {-3, -7, -9, -11, 2, 6, 8, 10},
    {-4, -7, -8, -11, 3, 6, 7, 10}, {-3, -5, -8, -11, 2, 4, 7, 10}, {-2, -6, -8, -10, 1, 5, 7, 9},
    {-2, -5, -8, -10, 1, 4, 7, 9},  {-2, -4, -8, -10, 1, 3, 7, 9},  {-2, -5, -7, -10, 1, 4, 6, 9},
    {-3, -4, -7, -10, 2, 3, 6, 9},  {-1, -2, -3, -10, 0, 1, 2, 9},  {-4, -6, -8, -9, 3, 5, 7, 8},
    {-3, -5, -7, -9, 2, 4, 6, 8}};

// The fields of an EAC word: base_codeword 63-56, multiplier 55-52, table index 51-48, and the
// modifier of pixel n, whose 3-bit index sits at bits 47-3n (MSB) down to 45-3n.
struct EacBlock {
  uint32_t base, multiplier;
  int modifier[16];  // by pixel number
};

EacBlock eacFields(uint64_t w) {
  EacBlock e;
  e.base = bits(w, 63, 56);
  e.multiplier = bits(w, 55, 52);
  const uint32_t table = bits(w, 51, 48);
  for (int n = 0; n < 16; ++n) e.modifier[n] = kEacModifiers[table][bits(w, 47 - 3 * n, 45 - 3 * n)];
  return e;
}

// "Format RGBA ETC2", alpha: clamp255(base_codeword + modifier x multiplier); a multiplier of 0
// multiplies by 0 here (unlike R11 EAC).
void decodeEtc2Alpha(uint64_t w, Rgba8 out[16]) {
  const EacBlock e = eacFields(w);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      out[y * 4 + x].c[3] = clamp255(int(e.base) + e.modifier[pixelNumber(x, y)] * int(e.multiplier));
}

// "Format Unsigned R11 EAC": clamp2(base x 8 + 4 + modifier x multiplier x 8) in [0, 2047];
// multiplier 0 means 1/8: clamp2(base x 8 + 4 + modifier). Result as v / 2047.
// "Format Signed R11 EAC": base is two's complement with -128 treated as -127;
// clamp2(base x 8 + modifier x multiplier x 8) in [-1023, 1023] (multiplier 0: + modifier).
// Result as v / 1023.
void decodeEac11(uint64_t w, bool isSigned, float out[16]) {
  const EacBlock e = eacFields(w);
  const int base = isSigned ? std::max(int(int8_t(uint8_t(e.base))), -127) * 8 : int(e.base) * 8 + 4;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int m = e.modifier[pixelNumber(x, y)];
      const int v = base + (e.multiplier ? m * int(e.multiplier) * 8 : m);
      out[y * 4 + x] = isSigned ? float(double(std::clamp(v, -1023, 1023)) / 1023.0)
                                : float(double(std::clamp(v, 0, 2047)) / 2047.0);
    }
}

// 8-bit RGBA results to floats through the texel codec (UNORM, or sRGB colour with linear alpha).
void toTexels(const Rgba8 in[16], bool srgb, TexelValue out[16]) {
  const FormatInfo& f = *formatInfo(srgb ? VK_FORMAT_R8G8B8A8_SRGB : VK_FORMAT_R8G8B8A8_UNORM);
  for (int n = 0; n < 16; ++n) {
    const uint8_t texel[4] = {uint8_t(in[n].c[0]), uint8_t(in[n].c[1]), uint8_t(in[n].c[2]), uint8_t(in[n].c[3])};
    decodeTexel(f, texel, out[n]);
  }
}

}  // namespace

namespace {

// The 8-bit RGBA texels of an ETC2 colour block (RGB8, RGB8A1, RGBA8); false for other formats.
bool decodeEtc2Bytes(uint32_t format, const uint8_t* q, Rgba8 rgba[16]) {
  switch (format) {
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
      decodeEtc2Color(word64(q), false, rgba);  // alpha 255: the format has none, it reads as 1
      return true;
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK:
      decodeEtc2Color(word64(q), true, rgba);
      return true;
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK:
      // "int64bitAlpha" is the first eight bytes, "int64bitColor" the last eight.
      decodeEtc2Color(word64(q + 8), false, rgba);
      decodeEtc2Alpha(word64(q), rgba);
      return true;
    default:
      return false;
  }
}

}  // namespace

bool decodeEtc2Rgba8(uint32_t format, const uint8_t* block, uint8_t out[16][4]) {
  Rgba8 rgba[16];
  if (!decodeEtc2Bytes(format, block, rgba)) return false;
  for (int n = 0; n < 16; ++n)
    for (int c = 0; c < 4; ++c) out[n][c] = uint8_t(rgba[n].c[c]);
  return true;
}

bool decodeEtc2Block(const FormatInfo& format, const uint8_t* q, TexelValue out[16]) {
  Rgba8 rgba[16];
  switch (format.format) {
    case VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK:
    case VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK:
      decodeEtc2Bytes(format.format, q, rgba);
      toTexels(rgba, format.format == VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK || format.format == VK_FORMAT_ETC2_R8G8B8A1_SRGB_BLOCK ||
                         format.format == VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK,
               out);
      return true;
    case VK_FORMAT_EAC_R11_UNORM_BLOCK:
    case VK_FORMAT_EAC_R11_SNORM_BLOCK:
    case VK_FORMAT_EAC_R11G11_UNORM_BLOCK:
    case VK_FORMAT_EAC_R11G11_SNORM_BLOCK: {
      // RG11: "int64bit0" (first eight bytes) is red, "int64bit1" green, each decoded as R11.
      const bool isSigned = format.format == VK_FORMAT_EAC_R11_SNORM_BLOCK ||
                            format.format == VK_FORMAT_EAC_R11G11_SNORM_BLOCK;
      const bool twoChannels = format.format == VK_FORMAT_EAC_R11G11_UNORM_BLOCK ||
                               format.format == VK_FORMAT_EAC_R11G11_SNORM_BLOCK;
      float red[16], green[16] = {};
      decodeEac11(word64(q), isSigned, red);
      if (twoChannels) decodeEac11(word64(q + 8), isSigned, green);
      for (int n = 0; n < 16; ++n) out[n].f[0] = red[n], out[n].f[1] = green[n], out[n].f[2] = 0, out[n].f[3] = 1;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tessera
