// Unit tests for the BC1-BC7 block decoders (tessera/compressed.h). Every block is built here bit
// by bit from the field layouts of the Khronos Data Format Specification's chapters "S3TC
// Compressed Texture Image Formats", "RGTC Compressed Texture Image Formats" and "BPTC Compressed
// Texture Image Formats" (KDFS below), and every expected texel is worked out by hand from those
// chapters' formulas in the comments, never by the decoder's code.
#include "tessera/compressed.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>

#include "tessera/format.h"

namespace tessera {
namespace {

// Writes fields LSB first into a 128-bit little-endian block, in the order a layout lists them.
struct BlockWriter {
  uint8_t bytes[16] = {};
  int position = 0;
  BlockWriter& put(uint64_t value, int count) {
    for (int k = 0; k < count; ++k, ++position)
      if ((value >> k) & 1) bytes[position >> 3] |= uint8_t(1u << (position & 7));
    return *this;
  }
  BlockWriter& setBit(int bit) {
    bytes[bit >> 3] |= uint8_t(1u << (bit & 7));
    return *this;
  }
};

struct Decoded {
  TexelValue t[16];
  const TexelValue& at(int x, int y) const { return t[y * 4 + x]; }
  const TexelValue& texel(int i) const { return t[i]; }
};

Decoded decode(VkFormat format, const uint8_t* bytes) {
  Decoded d;
  EXPECT_TRUE(decodeCompressedBlock(*formatInfo(format), bytes, d.t));
  return d;
}

void expectRgba(const TexelValue& t, double r, double g, double b, double a, const char* where) {
  const double want[4] = {r, g, b, a};
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(t.f[c], want[c], 1e-6) << where << " component " << c;
}

// BC7 results are 8-bit integers (KDFS "BPTC endpoint interpolation formula"), read as x / 255.
void expectRgba8(const TexelValue& t, int r, int g, int b, int a, const char* where) {
  expectRgba(t, r / 255.0, g / 255.0, b / 255.0, a / 255.0, where);
}

// The KDFS sRGB EOTF, written out here so that the sRGB expectations do not come from the codec.
double eotf(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

// A 16-bit half float's value: sign, 5-bit exponent (bias 15), 10-bit mantissa (KDFS "16-bit
// signed floating-point numbers").
double half(uint16_t h) {
  const int exponent = (h >> 10) & 31, mantissa = h & 1023;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (exponent == 31) return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// ---- S3TC: BC1 ---------------------------------------------------------------------------------
// "color_n ... R in the high 5 bits, G in the next 6 bits and B in the low 5 bits", stored
// little-endian; bits = the next 4 bytes little-endian, code(x, y) at bits 2(4y + x) + 1..0.
void bc1Block(uint8_t* q, uint16_t color0, uint16_t color1, const int codes[16]) {
  q[0] = uint8_t(color0), q[1] = uint8_t(color0 >> 8), q[2] = uint8_t(color1), q[3] = uint8_t(color1 >> 8);
  uint32_t bits = 0;
  for (int i = 0; i < 16; ++i) bits |= uint32_t(codes[i]) << (2 * i);
  for (int n = 0; n < 4; ++n) q[4 + n] = uint8_t(bits >> (8 * n));
}

constexpr uint16_t kYellow = 31 << 11 | 63 << 5;  // RGB_0 = (31/31, 63/63, 0)
constexpr uint16_t kBlue = 31;                     // (0, 0, 31/31)
constexpr int kCodesByColumn[16] = {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3};  // code = x

TEST(Bc1Decode, FourColorModeWhenColor0IsGreater) {
  // KDFS "Block decoding for BC1", color_0 > color_1: RGB_0, RGB_1, (2 RGB_0 + RGB_1) / 3,
  // (RGB_0 + 2 RGB_1) / 3. Yellow (1, 1, 0) and blue (0, 0, 1): the thirds are exact fractions.
  uint8_t q[8];
  bc1Block(q, kYellow, kBlue, kCodesByColumn);
  for (VkFormat f : {VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK}) {
    const Decoded d = decode(f, q);
    for (int y = 0; y < 4; ++y) {
      expectRgba(d.at(0, y), 1, 1, 0, 1, "code 0");
      expectRgba(d.at(1, y), 0, 0, 1, 1, "code 1");
      expectRgba(d.at(2, y), 2 / 3.0, 2 / 3.0, 1 / 3.0, 1, "code 2");
      expectRgba(d.at(3, y), 1 / 3.0, 1 / 3.0, 2 / 3.0, 1, "code 3");
    }
  }
}

TEST(Bc1Decode, ThreeColorModeWhenColor0IsNotGreater) {
  // color_0 <= color_1: RGB_0, RGB_1, (RGB_0 + RGB_1) / 2, BLACK; "BC1 with alpha": alpha 0.0
  // for code 3 in this mode, 1.0 otherwise; "BC1 with no alpha": fully opaque.
  uint8_t q[8];
  bc1Block(q, kBlue, kYellow, kCodesByColumn);
  const Decoded rgb = decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, q);
  const Decoded rgba = decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, q);
  expectRgba(rgb.at(0, 1), 0, 0, 1, 1, "code 0");
  expectRgba(rgb.at(1, 1), 1, 1, 0, 1, "code 1");
  expectRgba(rgb.at(2, 1), 0.5, 0.5, 0.5, 1, "code 2");
  expectRgba(rgb.at(3, 1), 0, 0, 0, 1, "code 3: opaque black");
  expectRgba(rgba.at(2, 1), 0.5, 0.5, 0.5, 1, "code 2");
  expectRgba(rgba.at(3, 1), 0, 0, 0, 0, "code 3: transparent black");
  // Equal colours are "color_0 <= color_1" too: code 3 is black, not a third of the way.
  bc1Block(q, kYellow, kYellow, kCodesByColumn);
  expectRgba(decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, q).at(3, 0), 0, 0, 0, 1, "equal colours, code 3");
  expectRgba(decode(VK_FORMAT_BC1_RGBA_UNORM_BLOCK, q).at(3, 0), 0, 0, 0, 0, "equal colours, code 3");
}

TEST(Bc1Decode, EndpointsAreFiveSixFiveBitsOverTheirMaximum) {
  // R_n = color^15..11 / 31, G_n = color^10..5 / 63, B_n = color^4..0 / 31; code(x, y) bit
  // placement: only texel (2, 1) (bits 13..12) has code 1.
  uint8_t q[8];
  int codes[16] = {};
  codes[1 * 4 + 2] = 1;
  bc1Block(q, uint16_t(20 << 11 | 2 << 5 | 30), uint16_t(3 << 11 | 41 << 5 | 7), codes);
  const Decoded d = decode(VK_FORMAT_BC1_RGB_UNORM_BLOCK, q);
  expectRgba(d.at(0, 0), 20 / 31.0, 2 / 63.0, 30 / 31.0, 1, "code 0");
  expectRgba(d.at(2, 1), 3 / 31.0, 41 / 63.0, 7 / 31.0, 1, "texel (2, 1): code 1");
  expectRgba(d.at(1, 2), 20 / 31.0, 2 / 63.0, 30 / 31.0, 1, "code 0");
}

TEST(Bc1Decode, SrgbAppliesTheEotfToTheInterpolatedValue) {
  // Vulkan "Compressed Image Formats": sRGB-encoded R', G', B' are converted to linear; the value
  // converted is the S3TC texel value, here 2/3 and 1/3, not an 8-bit rounding of it.
  uint8_t q[8];
  bc1Block(q, kYellow, kBlue, kCodesByColumn);
  for (VkFormat f : {VK_FORMAT_BC1_RGB_SRGB_BLOCK, VK_FORMAT_BC1_RGBA_SRGB_BLOCK}) {
    const Decoded d = decode(f, q);
    expectRgba(d.at(2, 0), eotf(2 / 3.0), eotf(2 / 3.0), eotf(1 / 3.0), 1, "code 2");
    expectRgba(d.at(0, 0), 1, 1, 0, 1, "code 0");
  }
  bc1Block(q, kBlue, kYellow, kCodesByColumn);
  expectRgba(decode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, q).at(3, 0), 0, 0, 0, 0, "transparent black");
  expectRgba(decode(VK_FORMAT_BC1_RGBA_SRGB_BLOCK, q).at(2, 0), eotf(0.5), eotf(0.5), eotf(0.5), 1, "code 2");
}

// ---- S3TC: BC2 and BC3 -------------------------------------------------------------------------
TEST(Bc2Decode, FourBitAlphaAndAlwaysFourColors) {
  // KDFS "BC2": 64 bits of alpha, alpha(x, y) = bits[4(4y + x) + 3..4(4y + x)] / 15, then a BC1
  // colour block "treated as though color_0 > color_1": with color_0 < color_1, code 3 is
  // (RGB_0 + 2 RGB_1) / 3, not black.
  uint8_t q[16] = {};
  uint64_t alpha = 0;
  for (int i = 0; i < 16; ++i) alpha |= uint64_t(15 - i) << (4 * i);
  for (int n = 0; n < 8; ++n) q[n] = uint8_t(alpha >> (8 * n));
  bc1Block(q + 8, kBlue, kYellow, kCodesByColumn);
  for (VkFormat f : {VK_FORMAT_BC2_UNORM_BLOCK, VK_FORMAT_BC2_SRGB_BLOCK}) {
    const Decoded d = decode(f, q);
    const bool srgb = f == VK_FORMAT_BC2_SRGB_BLOCK;
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(d.texel(i).f[3], (15 - i) / 15.0, 1e-7) << "texel " << i;
    const double third = srgb ? eotf(1 / 3.0) : 1 / 3.0, twoThirds = srgb ? eotf(2 / 3.0) : 2 / 3.0;
    // color_0 is blue, color_1 yellow: code 2 = (2 blue + yellow) / 3, code 3 = (blue + 2 yellow) / 3.
    expectRgba(d.at(2, 0), third, third, twoThirds, 13 / 15.0, "code 2");
    expectRgba(d.at(3, 0), twoThirds, twoThirds, third, 12 / 15.0, "code 3 is a colour, not black");
  }
}

// BC3 alpha / BC4: red_0, red_1, then 48 bits of 3-bit codes at bits 3(4y + x) + 2..0.
void rgtcBlock(uint8_t* q, uint8_t red0, uint8_t red1, const int codes[16]) {
  q[0] = red0, q[1] = red1;
  uint64_t bits = 0;
  for (int i = 0; i < 16; ++i) bits |= uint64_t(codes[i]) << (3 * i);
  for (int n = 0; n < 6; ++n) q[2 + n] = uint8_t(bits >> (8 * n));
}

constexpr int kCodesByTexel[16] = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};

TEST(Bc3Decode, EightAndSixAlphaValues) {
  // KDFS "Alpha encoding for BC3 blocks". alpha_0 = 200 > alpha_1 = 60: code k in 2..7 is
  // ((8 - k) 200 + (k - 1) 60) / 7 / 255: code 2 = 1260/7 = 180, code 5 = (600 + 240)/7 = 120,
  // code 7 = (200 + 360)/7 = 80 (all / 255).
  uint8_t q[16] = {};
  rgtcBlock(q, 200, 60, kCodesByTexel);
  bc1Block(q + 8, kYellow, kBlue, kCodesByColumn);
  Decoded d = decode(VK_FORMAT_BC3_UNORM_BLOCK, q);
  const double six[8] = {200, 60, 180, 160, 140, 120, 100, 80};
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(d.texel(i).f[3], six[i % 8] / 255, 1e-7) << "texel " << i;
  expectRgba(d.at(2, 0), 2 / 3.0, 2 / 3.0, 1 / 3.0, 180 / 255.0, "colour code 2");
  // alpha_0 = 60 <= alpha_1 = 200: code k in 2..5 is ((6 - k) 60 + (k - 1) 200) / 5: code 2 =
  // 440/5 = 88, 3 = 580/5 = 116, 4 = 720/5 = 144, 5 = 860/5 = 172; code 6 = 0.0, code 7 = 1.0.
  rgtcBlock(q, 60, 200, kCodesByTexel);
  d = decode(VK_FORMAT_BC3_SRGB_BLOCK, q);
  const double five[8] = {60 / 255.0, 200 / 255.0, 88 / 255.0, 116 / 255.0, 144 / 255.0, 172 / 255.0, 0, 1};
  for (int i = 0; i < 16; ++i) EXPECT_NEAR(d.texel(i).f[3], five[i % 8], 1e-7) << "texel " << i;
  expectRgba(d.at(2, 0), eotf(2 / 3.0), eotf(2 / 3.0), eotf(1 / 3.0), 88 / 255.0, "sRGB colour, linear alpha");
}

// ---- RGTC: BC4 and BC5 -------------------------------------------------------------------------
TEST(Bc4Decode, UnsignedIsRedOnly) {
  // KDFS "BC4 unsigned": RED_n = red_n / 255, the BC3 alpha table; RGBA = (R, 0, 0, 1).
  // red_0 = 7 > red_1 = 0: code 2 = 6 x 7 / 7 = 6, code 3 = 5, ... code 7 = 1 (/ 255).
  uint8_t q[8];
  rgtcBlock(q, 7, 0, kCodesByTexel);
  const Decoded d = decode(VK_FORMAT_BC4_UNORM_BLOCK, q);
  const double want[8] = {7, 0, 6, 5, 4, 3, 2, 1};
  for (int i = 0; i < 16; ++i) expectRgba(d.texel(i), want[i % 8] / 255, 0, 0, 1, "BC4 unsigned");
}

TEST(Bc4Decode, SignedEndpointsAndMinusOneTwentyEight) {
  // KDFS "BC4 signed": RED_n = red_n / 127 for red_n > -128, -1.0 for -128; RED_min = -1.0,
  // RED_max = 1.0. red_0 = -128 <= red_1 = 127: code 2 = (4 x -1 + 1) / 5 = -0.6, code 3 = -0.2,
  // code 4 = 0.2, code 5 = 0.6, code 6 = -1, code 7 = 1.
  uint8_t q[8];
  rgtcBlock(q, 0x80, 127, kCodesByTexel);
  Decoded d = decode(VK_FORMAT_BC4_SNORM_BLOCK, q);
  const double five[8] = {-1, 1, -0.6, -0.2, 0.2, 0.6, -1, 1};
  for (int i = 0; i < 16; ++i) expectRgba(d.texel(i), five[i % 8], 0, 0, 1, "signed, five values");
  // red_0 = 100 > red_1 = -50 (signed comparison): code 3 = (5 x 100 + 2 x -50) / 7 / 127 =
  // 400 / 889; code 7 = (100 - 300) / 889.
  rgtcBlock(q, 100, uint8_t(-50), kCodesByTexel);
  d = decode(VK_FORMAT_BC4_SNORM_BLOCK, q);
  EXPECT_NEAR(d.texel(3).f[0], 400 / 889.0, 1e-7);
  EXPECT_NEAR(d.texel(7).f[0], -200 / 889.0, 1e-7);
  EXPECT_NEAR(d.texel(1).f[0], -50 / 127.0, 1e-7);
}

TEST(Bc5Decode, RedThenGreen) {
  // KDFS "BC5 unsigned/signed": the first 64 bits decode as BC4 red, the second as BC4 green;
  // RGBA = (R, G, 0, 1).
  uint8_t q[16];
  rgtcBlock(q, 7, 0, kCodesByTexel);
  rgtcBlock(q + 8, 0, 255, kCodesByTexel);
  const Decoded u = decode(VK_FORMAT_BC5_UNORM_BLOCK, q);
  // Green 0 <= 255: code 2 = (4 x 0 + 255) / 5 = 51 (/ 255).
  expectRgba(u.texel(2), 6 / 255.0, 51 / 255.0, 0, 1, "green code 2");
  expectRgba(u.texel(6), 2 / 255.0, 0, 0, 1, "green code 6 = 0.0");
  expectRgba(u.texel(7), 1 / 255.0, 1, 0, 1, "green code 7 = 1.0");
  const Decoded s = decode(VK_FORMAT_BC5_SNORM_BLOCK, q);
  // Signed: red 7 > 0: code 2 = 6 x 7 / 7 / 127 = 6/127; green 0 > -1 (0xFF): code 2 = 6 x 0 + -1
  // over 7 = -1/889.
  expectRgba(s.texel(2), 6 / 127.0, -1 / 889.0, 0, 1, "signed");
}

// ---- BPTC: BC7 ---------------------------------------------------------------------------------
// Index bits: the anchor texels of the partition store one bit fewer (KDFS: "Each index has the
// number of bits indicated by the mode except for one special index per subset").
void putIndices(BlockWriter& w, int bits, const int index[16], std::initializer_list<int> anchors) {
  for (int i = 0; i < 16; ++i) {
    bool anchor = false;
    for (int a : anchors) anchor = anchor || a == i;
    w.put(uint64_t(index[i]), bits - (anchor ? 1 : 0));
  }
}

TEST(Bc7Decode, Mode0ThreeSubsetsWithEndpointPBits) {
  // "Bit layout for BC7 modes": mode 0 = bit 0 set; PB 4 bits; R, G, B of endpoints 0-5 (4 bits
  // each); 6 endpoint P-bits; 3-bit indices. Partition 0 of the 3-subset table is
  // 0011 / 0011 / 0221 / 2222, anchors texel 0, 3 (second subset), 15 (third).
  const int r[6] = {15, 0, 8, 8, 0, 15}, g[6] = {0, 15, 8, 8, 0, 15}, b[6] = {0, 0, 8, 8, 0, 15};
  const int p[6] = {1, 0, 0, 1, 0, 1};
  int index[16] = {};
  index[1] = 7, index[2] = 4, index[3] = 3, index[9] = 2, index[15] = 3;
  BlockWriter w;
  w.put(1, 1).put(0, 4);
  for (const int* c : {r, g, b})
    for (int e = 0; e < 6; ++e) w.put(uint64_t(c[e]), 4);
  for (int e = 0; e < 6; ++e) w.put(uint64_t(p[e]), 1);
  putIndices(w, 3, index, {0, 3, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // Endpoints: 4 bits + P-bit = 5 bits, top bits replicated: 31 -> 255, 1 -> 8, 30 -> 247,
  // 16 -> 132, 17 -> 140, 0 -> 0. E0 = (255, 8, 8), E1 = (0, 247, 0), E2 = 132s, E3 = 140s,
  // E4 = 0, E5 = 255. No alpha bits: alpha 255.
  expectRgba8(d.texel(0), 255, 8, 8, 255, "texel 0: subset 0, index 0");
  expectRgba8(d.texel(1), 0, 247, 0, 255, "texel 1: index 7, weight 64");
  // Texel 2 (subset 1), index 4, weight 37: (27 x 132 + 37 x 140 + 32) >> 6 = 8776 >> 6 = 137.
  expectRgba8(d.texel(2), 137, 137, 137, 255, "texel 2");
  // Texel 3, subset 1's anchor (2 bits), index 3, weight 27: (37 x 132 + 27 x 140 + 32) >> 6 = 135.
  expectRgba8(d.texel(3), 135, 135, 135, 255, "texel 3");
  // Texel 9 (subset 2), index 2, weight 18: (18 x 255 + 32) >> 6 = 72.
  expectRgba8(d.texel(9), 72, 72, 72, 255, "texel 9");
  // Texel 15, subset 2's anchor, index 3, weight 27: (27 x 255 + 32) >> 6 = 108.
  expectRgba8(d.texel(15), 108, 108, 108, 255, "texel 15");
  expectRgba8(d.texel(8), 255, 8, 8, 255, "texel 8: subset 0, index 0");
  expectRgba8(d.texel(11), 132, 132, 132, 255, "texel 11: subset 1, index 0");
}

TEST(Bc7Decode, Mode1SharedPBits) {
  // Mode 1: bits "01"; PB 6; RGB 6 bits x 4 endpoints; 2 shared P-bits (the lower for subset 0,
  // the upper for subset 1); 3-bit indices. Partition 13 = 0000 / 0000 / 1111 / 1111, anchor 15.
  const int r[4] = {63, 0, 10, 10}, g[4] = {0, 63, 20, 20}, b[4] = {32, 32, 30, 30};
  int index[16] = {};
  index[5] = 5, index[12] = 6, index[15] = 3;
  BlockWriter w;
  w.put(2, 2).put(13, 6);
  for (const int* c : {r, g, b})
    for (int e = 0; e < 4; ++e) w.put(uint64_t(c[e]), 6);
  w.put(1, 1).put(0, 1);
  putIndices(w, 3, index, {0, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // Subset 0 (P = 1): 7-bit 127 -> 255, 1 -> 2, 65 -> 131. E0 = (255, 2, 131), E1 = (2, 255, 131).
  // Subset 1 (P = 0): 20 -> 40, 40 -> 80, 60 -> 120; both endpoints (40, 80, 120).
  expectRgba8(d.texel(0), 255, 2, 131, 255, "texel 0");
  // Texel 5, index 5, weight 46: R = (18 x 255 + 46 x 2 + 32) >> 6 = 73,
  // G = (18 x 2 + 46 x 255 + 32) >> 6 = 184, B = (64 x 131 + 32) >> 6 = 131.
  expectRgba8(d.texel(5), 73, 184, 131, 255, "texel 5");
  expectRgba8(d.texel(12), 40, 80, 120, 255, "texel 12: subset 1");
  expectRgba8(d.texel(15), 40, 80, 120, 255, "texel 15: subset 1's anchor");
}

TEST(Bc7Decode, Mode2ThreeSubsetsTwoBitIndices) {
  // Mode 2: bits "001"; PB 6; RGB 5 bits x 6; 2-bit indices. Partition 10 = 0000 / 1111 / 2222 /
  // 2222, anchors 0, 6, 15.
  const int r[6] = {31, 0, 0, 31, 16, 16}, g[6] = {0, 31, 0, 31, 16, 16}, b[6] = {0, 0, 31, 31, 16, 16};
  int index[16] = {};
  index[1] = 2, index[6] = 1, index[10] = 3;
  BlockWriter w;
  w.put(4, 3).put(10, 6);
  for (const int* c : {r, g, b})
    for (int e = 0; e < 6; ++e) w.put(uint64_t(c[e]), 5);
  putIndices(w, 2, index, {0, 6, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // 5 bits: 31 -> 255, 16 -> 132. Texel 1, index 2, weight 43: R = (21 x 255 + 32) >> 6 = 84,
  // G = (43 x 255 + 32) >> 6 = 171.
  expectRgba8(d.texel(1), 84, 171, 0, 255, "texel 1");
  // Texel 6, subset 1's anchor (1 bit), index 1, weight 21, from (0, 0, 255) to (255, 255, 255).
  expectRgba8(d.texel(6), 84, 84, 255, 255, "texel 6");
  expectRgba8(d.texel(10), 132, 132, 132, 255, "texel 10: subset 2");
}

TEST(Bc7Decode, Mode3SevenBitsAndEndpointPBits) {
  // Mode 3: bits "0001"; PB 6; RGB 7 bits x 4; 4 endpoint P-bits; 2-bit indices. Partition 0 =
  // 0011 x 4 rows, anchor 15.
  const int r[4] = {127, 0, 64, 64}, g[4] = {0, 0, 64, 64}, b[4] = {0, 0, 64, 64};
  const int p[4] = {1, 0, 0, 1};
  int index[16] = {};
  index[1] = 1, index[2] = 2, index[15] = 1;
  BlockWriter w;
  w.put(8, 4).put(0, 6);
  for (const int* c : {r, g, b})
    for (int e = 0; e < 4; ++e) w.put(uint64_t(c[e]), 7);
  for (int e = 0; e < 4; ++e) w.put(uint64_t(p[e]), 1);
  putIndices(w, 2, index, {0, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // 8-bit endpoints: E0 = (255, 1, 1), E1 = 0, E2 = 128s, E3 = 129s.
  expectRgba8(d.texel(0), 255, 1, 1, 255, "texel 0");
  // Texel 1, weight 21: R = (43 x 255 + 32) >> 6 = 171, G = B = (43 + 32) >> 6 = 1.
  expectRgba8(d.texel(1), 171, 1, 1, 255, "texel 1");
  // Texel 2 (subset 1), weight 43: (21 x 128 + 43 x 129 + 32) >> 6 = 129.
  expectRgba8(d.texel(2), 129, 129, 129, 255, "texel 2");
  // Texel 15 (anchor, 1 bit), weight 21: (43 x 128 + 21 x 129 + 32) >> 6 = 128.
  expectRgba8(d.texel(15), 128, 128, 128, 255, "texel 15");
}

// Mode 4: bits "00001"; rotation 2 bits; index selection 1 bit; RGB 5 bits x 2; A 6 bits x 2;
// 2-bit primary indices (31 bits), 3-bit secondary indices (47 bits).
BlockWriter mode4Block(int rotation, int indexSelection, const int primary[16], const int secondary[16]) {
  BlockWriter w;
  w.put(16, 5).put(uint64_t(rotation), 2).put(uint64_t(indexSelection), 1);
  w.put(31, 5).put(0, 5).put(0, 5).put(31, 5).put(0, 5).put(31, 5);  // E0 = red, E1 = cyan
  w.put(0, 6).put(63, 6);                                              // A0 = 0, A1 = 63
  putIndices(w, 2, primary, {0});
  putIndices(w, 3, secondary, {0});
  return w;
}

TEST(Bc7Decode, Mode4RotationAndIndexSelection) {
  int primary[16] = {}, secondary[16] = {};
  primary[1] = 3, secondary[1] = 4;
  primary[2] = 1, secondary[2] = 7;
  // Endpoints: E0 = (255, 0, 0, 0), E1 = (0, 255, 255, 255) (alpha 63 -> 6 bits -> 255).
  // Index selection 1: colour from the secondary (3-bit) indices, alpha from the primary (2-bit);
  // rotation 1: swap(A, R).
  BlockWriter w = mode4Block(1, 1, primary, secondary);
  ASSERT_EQ(w.position, 128);
  Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  expectRgba8(d.texel(0), 0, 0, 0, 255, "texel 0: (255, 0, 0, 0) rotated");
  // Texel 1: colour weight 37 (secondary 4): R = (27 x 255 + 32) >> 6 = 108, G = B =
  // (37 x 255 + 32) >> 6 = 147; alpha weight 64 (primary 3): 255. Rotated: (255, 147, 147, 108).
  expectRgba8(d.texel(1), 255, 147, 147, 108, "texel 1");
  // Index selection 0, no rotation: colour from the primary (2-bit), alpha from the secondary.
  w = mode4Block(0, 0, primary, secondary);
  d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // Texel 2: colour weight 21 (primary 1): R = (43 x 255 + 32) >> 6 = 171, G = B = 84; alpha
  // weight 64 (secondary 7): 255.
  expectRgba8(d.texel(2), 171, 84, 84, 255, "texel 2");
  // Texel 1: colour weight 64 (primary 3): cyan; alpha weight 37 (secondary 4): 147.
  expectRgba8(d.texel(1), 0, 255, 255, 147, "texel 1");
}

TEST(Bc7Decode, Mode5SeparateAlphaAndRotation) {
  // Mode 5: bits "000001"; rotation 2; RGB 7 bits x 2; A 8 bits x 2; 2-bit primary and secondary
  // indices. Rotation 3 swaps A and B.
  int primary[16] = {}, secondary[16] = {};
  primary[2] = 2, secondary[2] = 1;
  BlockWriter w;
  w.put(32, 6).put(3, 2);
  w.put(127, 7).put(0, 7).put(0, 7).put(0, 7).put(0, 7).put(127, 7);  // E0 = red, E1 = blue
  w.put(10, 8).put(250, 8);
  putIndices(w, 2, primary, {0});
  putIndices(w, 2, secondary, {0});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  expectRgba8(d.texel(0), 255, 0, 10, 0, "texel 0: (255, 0, 0, 10) with A and B swapped");
  // Texel 2: colour weight 43: R = (21 x 255 + 32) >> 6 = 84, B = (43 x 255 + 32) >> 6 = 171;
  // alpha weight 21: (43 x 10 + 21 x 250 + 32) >> 6 = 89. Swapped: (84, 0, 89, 171).
  expectRgba8(d.texel(2), 84, 0, 89, 171, "texel 2");
}

TEST(Bc7Decode, Mode6FourBitIndicesEveryWeight) {
  // Mode 6: bits "0000001"; RGBA 7 bits x 2; 2 endpoint P-bits; 4-bit indices (texel 0: 3 bits).
  // E0 = (127, 0, 64, 127) P 1 -> (255, 1, 129, 255); E1 = (0, 127, 64, 127) P 0 -> (0, 254, 128, 254).
  int index[16];
  for (int i = 0; i < 16; ++i) index[i] = i;
  BlockWriter w;
  w.put(64, 7).put(127, 7).put(0, 7).put(0, 7).put(127, 7).put(64, 7).put(64, 7).put(127, 7).put(127, 7);
  w.put(1, 1).put(0, 1);
  putIndices(w, 4, index, {0});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // Weight 0: R = (64 x 255 + 32) >> 6 = 255, G = 1, B = 129, A = 255.
  expectRgba8(d.texel(0), 255, 1, 129, 255, "index 0");
  // Index 8, weight 34: R = (30 x 255 + 32) >> 6 = 120, G = (30 + 34 x 254 + 32) >> 6 = 135,
  // B = (30 x 129 + 34 x 128 + 32) >> 6 = 128, A = (30 x 255 + 34 x 254 + 32) >> 6 = 254.
  expectRgba8(d.texel(8), 120, 135, 128, 254, "index 8");
  // Index 15, weight 64: G = (64 x 254 + 32) >> 6 = 254.
  expectRgba8(d.texel(15), 0, 254, 128, 254, "index 15");
  // Every 4-bit weight of "BPTC interpolation factors" on the red channel (255 -> 0).
  const int weights[16] = {0, 4, 9, 13, 17, 21, 26, 30, 34, 38, 43, 47, 51, 55, 60, 64};
  for (int i = 0; i < 16; ++i)
    EXPECT_NEAR(d.texel(i).f[0], (((64 - weights[i]) * 255 + 32) >> 6) / 255.0, 1e-7) << "index " << i;
}

TEST(Bc7Decode, Mode7TwoSubsetsWithAlpha) {
  // Mode 7: bits "00000001"; PB 6; RGBA 5 bits x 4; 4 endpoint P-bits; 2-bit indices. Partition
  // 1 = 0001 x 4 rows, anchor 15.
  const int r[4] = {31, 0, 0, 0}, g[4] = {0, 0, 31, 31}, b[4] = {0, 0, 0, 0}, a[4] = {31, 0, 16, 16};
  const int p[4] = {1, 0, 0, 1};
  int index[16] = {};
  index[1] = 3, index[3] = 2, index[15] = 1;
  BlockWriter w;
  w.put(128, 8).put(1, 6);
  for (const int* c : {r, g, b, a})
    for (int e = 0; e < 4; ++e) w.put(uint64_t(c[e]), 5);
  for (int e = 0; e < 4; ++e) w.put(uint64_t(p[e]), 1);
  putIndices(w, 2, index, {0, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // 6-bit values widened: 63 -> 255, 1 -> 4, 62 -> 251, 32 -> 130, 33 -> 134.
  // E0 = (255, 4, 4, 255), E1 = 0, E2 = (0, 251, 0, 130), E3 = (4, 255, 4, 134).
  expectRgba8(d.texel(0), 255, 4, 4, 255, "texel 0");
  expectRgba8(d.texel(1), 0, 0, 0, 0, "texel 1: weight 64");
  // Texel 3 (subset 1), weight 43: R = (43 x 4 + 32) >> 6 = 3, G = (21 x 251 + 43 x 255 + 32) >> 6
  // = 254, A = (21 x 130 + 43 x 134 + 32) >> 6 = 133.
  expectRgba8(d.texel(3), 3, 254, 3, 133, "texel 3");
  // Texel 15 (anchor, 1 bit), weight 21: R = (21 x 4 + 32) >> 6 = 1, G = (43 x 251 + 21 x 255 +
  // 32) >> 6 = 252, A = (43 x 130 + 21 x 134 + 32) >> 6 = 131.
  expectRgba8(d.texel(15), 1, 252, 1, 131, "texel 15");
}

TEST(Bc7Decode, Partition35AnchorIsTexel8) {
  // KDFS's "anchor index values for the second subset of two-subset partitioning" gives 8 for
  // partition 35; its partition table bolds texel 2 instead
  // (KhronosGroup/DataFormat issue 28). Partition 35 is 0011 / 0011 / 1100 / 1100 (texels 2 and 8
  // are both in subset 1). Mode 1 with texel 2 at index 7 (3 bits) and texel 8 at
  // index 3 (2 bits): read with anchor 8, texel 2 has weight 64 and texel 8 weight 27.
  int index[16] = {};
  index[2] = 7, index[8] = 3;
  BlockWriter w;
  w.put(2, 2).put(35, 6);
  for (int ch = 0; ch < 3; ++ch) w.put(0, 6).put(0, 6).put(0, 6).put(63, 6);  // subset 1: 0 -> 255
  w.put(0, 1).put(1, 1);
  putIndices(w, 3, index, {0, 8});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC7_UNORM_BLOCK, w.bytes);
  // Subset 1 endpoints: 7-bit 1 -> 2 and 127 -> 255. Weight 64: 255; weight 27:
  // (37 x 2 + 27 x 255 + 32) >> 6 = 109.
  expectRgba8(d.texel(2), 255, 255, 255, 255, "texel 2");
  expectRgba8(d.texel(8), 109, 109, 109, 255, "texel 8");
}

TEST(Bc7Decode, ReservedModeIsAllZero) {
  // "hardware decoders processing a texel block with a low byte of 0 should return 0 for all
  // channels of all texels".
  uint8_t q[16];
  for (int n = 0; n < 16; ++n) q[n] = uint8_t(0x5A + 37 * n);
  q[0] = 0;
  for (VkFormat f : {VK_FORMAT_BC7_UNORM_BLOCK, VK_FORMAT_BC7_SRGB_BLOCK}) {
    const Decoded d = decode(f, q);
    for (int i = 0; i < 16; ++i) expectRgba(d.texel(i), 0, 0, 0, 0, "reserved mode");
  }
}

TEST(Bc7Decode, SrgbConvertsColourNotAlpha) {
  // "These 8-bit values should be interpreted as RGBA 8-bit normalized channels, either linearly
  // encoded ... or with the sRGB transfer function": the mode 6 block of above.
  int index[16];
  for (int i = 0; i < 16; ++i) index[i] = i;
  BlockWriter w;
  w.put(64, 7).put(127, 7).put(0, 7).put(0, 7).put(127, 7).put(64, 7).put(64, 7).put(127, 7).put(127, 7);
  w.put(1, 1).put(0, 1);
  putIndices(w, 4, index, {0});
  const Decoded d = decode(VK_FORMAT_BC7_SRGB_BLOCK, w.bytes);
  expectRgba(d.texel(8), eotf(120 / 255.0), eotf(135 / 255.0), eotf(128 / 255.0), 254 / 255.0, "index 8");
}

// ---- BPTC: BC6H --------------------------------------------------------------------------------
// Every mode with R0 = G0 = B0 = 32 (bit 5 of each: block bits 10, 20 and 30 in every mode's
// layout, "Interpretation of lower bits for BC6H block modes") and every other bit 0: transformed
// modes have zero deltas, so all endpoints are E0; untransformed modes 3 and 30 have E1 (and E2,
// E3) = 0. All indices are 0, so texel 0 is E0 and, in partition 0's second subset (texel 15 is
// its anchor), mode 30's texel 15 is E2 = 0.
struct Bc6Case {
  int mode, lowBits;          // mode number and its encoding in the low 2 or 5 bits
  int epb;                    // endpoint bits
  uint16_t unsignedHalf, signedHalf;
};
// Unsigned: unq = ((32 << 15) + 0x4000) >> (EPB - 1) = 1064960 >> (EPB - 1) (EPB < 15), or 32
// (EPB 16); interpolation at weight 0 gives unq back; finish = (unq x 31) >> 6.
// Signed: E0 sign-extended from EPB bits (EPB 6: 32 is -32); unq the same for positive values
// (|x| >= 2^(EPB-1) - 1 gives 0x7FFF: EPB 6, -32 -> -0x7FFF); finish = (|unq| x 31) >> 5 with the
// sign as bit 15.
//   EPB 6:  unq 33280 -> 0x3EF8;  signed -0x7FFF -> (32767 x 31) >> 5 = 0x7BFF | 0x8000 = 0xFBFF
//   EPB 7:  16640 -> 0x1F7C;      signed 0x3EF8
//   EPB 8:  8320 -> 0x0FBE;       signed 0x1F7C
//   EPB 9:  4160 -> 0x07DF;       signed 0x0FBE
//   EPB 10: 2080 -> 0x03EF;       signed 0x07DF
//   EPB 11: 1040 -> 0x01F7;       signed 0x03EF
//   EPB 12: 520 -> 0x00FB;        signed 0x01F7
//   EPB 16: 32 -> 0x000F;         signed (32 x 31) >> 5 = 0x001F
constexpr Bc6Case kBc6Cases[14] = {
    {0, 0x00, 10, 0x03EF, 0x07DF},  {1, 0x01, 7, 0x1F7C, 0x3EF8},   {2, 0x02, 11, 0x01F7, 0x03EF},
    {6, 0x06, 11, 0x01F7, 0x03EF},  {10, 0x0A, 11, 0x01F7, 0x03EF}, {14, 0x0E, 9, 0x07DF, 0x0FBE},
    {18, 0x12, 8, 0x0FBE, 0x1F7C},  {22, 0x16, 8, 0x0FBE, 0x1F7C},  {26, 0x1A, 8, 0x0FBE, 0x1F7C},
    {30, 0x1E, 6, 0x3EF8, 0xFBFF},  {3, 0x03, 10, 0x03EF, 0x07DF},  {7, 0x07, 11, 0x01F7, 0x03EF},
    {11, 0x0B, 12, 0x00FB, 0x01F7}, {15, 0x0F, 16, 0x000F, 0x001F},
};

TEST(Bc6hDecode, EveryModeReadsItsFirstEndpoint) {
  for (const Bc6Case& c : kBc6Cases) {
    BlockWriter w;
    w.put(uint64_t(c.lowBits), c.mode < 2 ? 2 : 5).setBit(10).setBit(20).setBit(30);
    for (bool isSigned : {false, true}) {
      const Decoded d = decode(isSigned ? VK_FORMAT_BC6H_SFLOAT_BLOCK : VK_FORMAT_BC6H_UFLOAT_BLOCK, w.bytes);
      const double e0 = half(isSigned ? c.signedHalf : c.unsignedHalf);
      const std::string where = "mode " + std::to_string(c.mode) + (isSigned ? " signed" : " unsigned");
      expectRgba(d.texel(0), e0, e0, e0, 1, where.c_str());
      const double last = c.mode == 30 ? 0.0 : e0;
      expectRgba(d.texel(15), last, last, last, 1, where.c_str());
    }
  }
}

TEST(Bc6hDecode, Mode3InterpolatesWithFourBitWeights) {
  // Mode 3 (untransformed, 10 bits, one subset): R0 bits 5-14, G0 15-24, B0 25-34, R1 35-44,
  // G1 45-54, B1 55-64; indices from bit 65, 4 bits (texel 0: 3). E0 = 0, E1 = 1023 (the maximum:
  // unq 0xFFFF). Texel i has index i: (w x 65535 + 32) >> 6, then x 31 >> 6:
  //   index 1 (weight 4): 4096 -> 0x07C0; index 8 (34): 34815 -> 0x41DF; index 15: 65535 -> 0x7BFF.
  int index[16];
  for (int i = 0; i < 16; ++i) index[i] = i;
  BlockWriter w;
  w.put(3, 5).put(0, 10).put(0, 10).put(0, 10).put(1023, 10).put(1023, 10).put(1023, 10);
  putIndices(w, 4, index, {0});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.bytes);
  expectRgba(d.texel(0), 0, 0, 0, 1, "index 0");
  expectRgba(d.texel(1), half(0x07C0), half(0x07C0), half(0x07C0), 1, "index 1");
  expectRgba(d.texel(8), half(0x41DF), half(0x41DF), half(0x41DF), 1, "index 8");
  expectRgba(d.texel(15), 65504, 65504, 65504, 1, "index 15: the largest half");
}

TEST(Bc6hDecode, Mode11ReversedBitsAndNegativeDelta) {
  // Mode 11 (transformed, 12-bit endpoints, 8-bit deltas): "R0^10..11" at bits 43-44 is reversed,
  // bit 43 = R0^11. R0 = 0x800 (bit 43 only); R1 (delta, bits 35-42) = 0xFF = -1, so
  // E1 = (0x800 - 1) & 0xFFF = 0x7FF. Unsigned unq: (0x800 << 15 + 0x4000) >> 11 = 32776,
  // (0x7FF << 15 + 0x4000) >> 11 = 32760; finish x 31 >> 6: 0x3E03 and 0x3DFC. Texel 15 index 15.
  int index[16] = {};
  index[15] = 15;
  BlockWriter w;
  w.put(11, 5).put(0, 30).put(0xFF, 8);  // mode, R0/G0/B0 bits 0..9, R1
  w.put(1, 1).put(0, 1);                 // bit 43 = R0^11, bit 44 = R0^10
  w.put(0, 20);                          // G1, G0^10..11, B1, B0^10..11 (bits 45-64)
  putIndices(w, 4, index, {0});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.bytes);
  EXPECT_EQ(d.texel(0).f[0], float(half(0x3E03)));
  EXPECT_EQ(d.texel(15).f[0], float(half(0x3DFC)));
  EXPECT_EQ(d.texel(0).f[1], 0.0f);  // G0 = 0, G1 delta 0
}

TEST(Bc6hDecode, Mode15SixteenBitsAndMinusInfinity) {
  // Mode 15 (transformed, 16-bit endpoints, 4-bit deltas): R0^15 is bit 39 ("R0^10..15" reversed,
  // bits 39-44). R0 = 0x8000, R1 delta (bits 35-38) = 8 = -8: E1 = 0x7FF8.
  // Unsigned (EPB >= 15: unq = x): 0x8000 x 31 >> 6 = 0x3E00 (1.5), 0x7FF8 x 31 >> 6 = 0x3DFC.
  // Signed: E0 = -32768, E1 = (-32768 - 8) & 0xFFFF = 0x7FF8 = 32760. Finish: -32768 ->
  // (32768 x 31) >> 5 = 0x7C00 | 0x8000 = 0xFC00 (-infinity, the "accidental" case the chapter
  // notes); 32760 -> 0x7BF8 (65280).
  int index[16] = {};
  index[15] = 15;
  BlockWriter w;
  w.put(15, 5).put(0, 30).put(8, 4).put(1, 1).put(0, 5);  // mode, R0/G0/B0^9..0, R1, R0^15..10
  w.put(0, 20);                                             // G1, G0^10..15, B1, B0^10..15
  putIndices(w, 4, index, {0});
  ASSERT_EQ(w.position, 128);
  Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.bytes);
  EXPECT_EQ(d.texel(0).f[0], 1.5f);
  EXPECT_EQ(d.texel(15).f[0], float(half(0x3DFC)));
  d = decode(VK_FORMAT_BC6H_SFLOAT_BLOCK, w.bytes);
  EXPECT_EQ(d.texel(0).f[0], -INFINITY);
  EXPECT_EQ(d.texel(15).f[0], 65280.0f);
}

TEST(Bc6hDecode, Mode0TwoSubsetsWithDeltas) {
  // Mode 0 (transformed, 10-bit endpoints, 5-bit deltas, two subsets): R0 bits 5-14, R1 35-39,
  // R2 65-69, R3 71-75, partition bits 77-81; 3-bit indices from bit 82. R0 = 512; deltas R1 = 0,
  // R2 = 0b10000 (-16), R3 = 15: E1 = 512, E2 = 496, E3 = 527. Unsigned unq (EPB 10, >> 9):
  // 32800, 31776, 33760. Partition 13 = 0000 / 0000 / 1111 / 1111, anchor 15.
  //   texel 0 (E0): 32800 x 31 >> 6 = 0x3E0F;  texel 12 (index 0: E2): 31776 -> 0x3C1F;
  //   texel 15 (anchor, 2 bits, index 3, weight 27): (37 x 31776 + 27 x 33760 + 32) >> 6 = 32613
  //   -> 0x3DB4.
  BlockWriter w;
  w.put(0, 2).setBit(14);                            // mode 0, R0^9
  w.setBit(69);                                      // R2^4: R2 = 0b10000
  for (int bit = 71; bit <= 74; ++bit) w.setBit(bit);  // R3^0..3: R3 = 0b01111
  w.position = 77;
  w.put(13, 5);
  int index[16] = {};
  index[15] = 3;
  putIndices(w, 3, index, {0, 15});
  ASSERT_EQ(w.position, 128);
  const Decoded d = decode(VK_FORMAT_BC6H_UFLOAT_BLOCK, w.bytes);
  EXPECT_EQ(d.texel(0).f[0], float(half(0x3E0F)));
  EXPECT_EQ(d.texel(7).f[0], float(half(0x3E0F)));
  EXPECT_EQ(d.texel(12).f[0], float(half(0x3C1F)));
  EXPECT_EQ(d.texel(15).f[0], float(half(0x3DB4)));
  EXPECT_EQ(d.texel(15).f[3], 1.0f);
}

TEST(Bc6hDecode, ReservedModesAreBlackOpaque) {
  // "Mode numbers not listed ... (19, 23, 27, and 31) are reserved"; "If a block uses a reserved
  // or invalid encoding, the return value is (0.0, 0.0, 0.0, 1.0)".
  for (int mode : {19, 23, 27, 31}) {
    uint8_t q[16];
    for (int n = 0; n < 16; ++n) q[n] = uint8_t(0xC3 + 29 * n);
    q[0] = uint8_t((q[0] & 0xE0) | mode);
    for (VkFormat f : {VK_FORMAT_BC6H_UFLOAT_BLOCK, VK_FORMAT_BC6H_SFLOAT_BLOCK}) {
      const Decoded d = decode(f, q);
      for (int i = 0; i < 16; ++i) expectRgba(d.texel(i), 0, 0, 0, 1, ("mode " + std::to_string(mode)).c_str());
    }
  }
}

// ---- Any 16 bytes ------------------------------------------------------------------------------
TEST(BcDecode, RandomBlocksDecodeToValuesInTheFormatsRange) {
  // Robustness: pseudo-random blocks of every BC format decode (no reserved pattern crashes or
  // reads past the block, which the sanitizer builds would report) to values each format can
  // hold: UNORM/sRGB in [0, 1], SNORM in [-1, 1], BC6H UFLOAT in [0, 65504], SFLOAT in
  // [-infinity, 65504], never NaN; formats without alpha read alpha 1, BC4/BC5 the missing
  // components as 0.
  std::mt19937 rng(20240517);
  for (const FormatInfo& f : allFormats()) {
    if (f.compression != Compression::BC) continue;
    const NumericFormat numeric = f.components[0].numeric;
    const bool hasAlpha = f.component('A') != nullptr;
    for (int n = 0; n < 20000; ++n) {
      uint8_t q[16];
      for (uint8_t& b : q) b = uint8_t(rng());
      TexelValue out[16];
      ASSERT_TRUE(decodeCompressedBlock(f, q, out)) << f.name;
      for (const TexelValue& t : out) {
        for (int c = 0; c < 4; ++c) {
          const float v = t.f[c];
          ASSERT_FALSE(std::isnan(v)) << f.name;
          // The range of the format's numeric type.
          bool inRange;
          if (numeric == NumericFormat::UFloat) inRange = v >= 0 && v <= 65504;
          else if (numeric == NumericFormat::SFloat) inRange = v <= 65504;
          else if (numeric == NumericFormat::SNorm && c < 2) inRange = v >= -1 && v <= 1;
          else inRange = v >= 0 && v <= 1;
          ASSERT_TRUE(inRange) << f.name << " " << v;
        }
        if (!hasAlpha) {
          ASSERT_EQ(t.f[3], 1.0f) << f.name;
        }
        if (f.componentCount == 1) {
          ASSERT_EQ(t.f[1], 0.0f) << f.name;
        }
        if (f.componentCount <= 2) {
          ASSERT_EQ(t.f[2], 0.0f) << f.name;
        }
      }
    }
  }
}

}  // namespace
}  // namespace tessera
