// Unit tests for the ETC2/EAC block decoder (tessera/compressed.h). Every block is built here bit
// by bit from the field layouts of the Khronos Data Format Specification's chapter "ETC2
// Compressed Texture Image Formats", and every expected texel is worked out by hand in the
// comments (the chapter's own worked examples where it has them), never by the decoder's code.
#include "tessera/compressed.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <initializer_list>

#include "tessera/format.h"

namespace tessera {
namespace {

// One 64-bit ETC2/EAC word, bit 63 the MSB, stored big-endian ("int64bit = 256 x (... q0 ...)").
struct Word {
  uint64_t w = 0;
  Word& set(int high, int low, uint64_t value) {
    for (int b = low; b <= high; ++b) {
      const uint64_t bit = uint64_t(1) << b;
      w = (value >> (b - low)) & 1 ? (w | bit) : (w & ~bit);
    }
    return *this;
  }
  // Colour pixel index of block position (x, y): pixel n = 4x + y (a..p run down the columns),
  // MSB at bit 16 + n, LSB at bit n ("bit layout for bits 31 through 0").
  Word& index(int x, int y, int idx) {
    const int n = 4 * x + y;
    return set(16 + n, 16 + n, idx >> 1).set(n, n, idx & 1);
  }
  // EAC 3-bit pixel index: pixel a at bits 47-45, b at 44-42, ... p at 2-0.
  Word& eacIndex(int x, int y, int idx) {
    const int n = 4 * x + y;
    return set(47 - 3 * n, 45 - 3 * n, uint64_t(idx));
  }
  void store(uint8_t* q) const {
    for (int n = 0; n < 8; ++n) q[n] = uint8_t(w >> (56 - 8 * n));
  }
};

struct Decoded {
  TexelValue t[16];
  const TexelValue& at(int x, int y) const { return t[y * 4 + x]; }
};

Decoded decode(VkFormat format, const Word& first, const Word* second = nullptr) {
  uint8_t bytes[16] = {};
  first.store(bytes);
  if (second) second->store(bytes + 8);
  Decoded d;
  EXPECT_TRUE(decodeCompressedBlock(*formatInfo(format), bytes, d.t));
  return d;
}

void expectRgba8(const TexelValue& t, int r, int g, int b, int a, const char* where) {
  const int want[4] = {r, g, b, a};
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(t.f[c], want[c] / 255.0, 1e-6) << where << " component " << c;
}

// ---- RGB ETC2 --------------------------------------------------------------------------------

// 'individual' mode (D = bit 33 = 0): R1 63-60, R2 59-56, G1 55-52, G2 51-48, B1 47-44,
// B2 43-40, table1 39-37, table2 36-34, flip 32.
Word individualBlock(bool flip) {
  Word w;
  w.set(63, 60, 14).set(55, 52, 3).set(47, 44, 8);  // the chapter's example: (238, 51, 136)
  w.set(59, 56, 1).set(51, 48, 15).set(43, 40, 0);  // 0x11, 0xFF, 0x00: (17, 255, 0)
  w.set(39, 37, 2).set(36, 34, 0).set(33, 33, 0).set(32, 32, flip);
  // Table 2 = {-29, -9, 9, 29}, table 0 = {-8, -2, 2, 8}; index 00 -> a, 01 -> b, 10 -> -a, 11 -> -b.
  w.index(0, 0, 1).index(0, 1, 3).index(1, 0, 2).index(3, 0, 3);
  return w;
}

TEST(Etc2Decode, IndividualModeSideBySideSubblocks) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, individualBlock(false));
  // flip 0: columns 0-1 are subblock 1 (base (238,51,136), table 2), columns 2-3 subblock 2.
  expectRgba8(d.at(0, 0), 255, 80, 165, 255, "a: +29, 238+29 clamps to 255");
  expectRgba8(d.at(0, 1), 209, 22, 107, 255, "b: -29");
  expectRgba8(d.at(1, 0), 229, 42, 127, 255, "e: -9");
  expectRgba8(d.at(1, 3), 247, 60, 145, 255, "h: +9");
  expectRgba8(d.at(3, 0), 9, 247, 0, 255, "m: (17,255,0) - 8, 0-8 clamps to 0");
  expectRgba8(d.at(2, 2), 19, 255, 2, 255, "k: +2, 255+2 clamps");
  expectRgba8(d.at(3, 3), 19, 255, 2, 255, "p: +2");
}

TEST(Etc2Decode, IndividualModeFlippedSubblocks) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, individualBlock(true));
  // flip 1: rows 0-1 are subblock 1, rows 2-3 subblock 2.
  expectRgba8(d.at(3, 0), 209, 22, 107, 255, "m (row 0, index 11): subblock 1, -29");
  expectRgba8(d.at(3, 1), 247, 60, 145, 255, "n: subblock 1, +9");
  expectRgba8(d.at(0, 3), 19, 255, 2, 255, "d: subblock 2, +2");
  expectRgba8(d.at(2, 2), 19, 255, 2, 255, "k: subblock 2, +2");
}

// 'differential' mode: R 63-59, dR 58-56, G 55-51, dG 50-48, B 47-43, dB 42-40 (3-bit two's
// complement), D = 1. The chapter's example: R = 28, dR = -4, G = 4, dG = 2, B = 3, dB = 0 gives
// base colours (231, 33, 24) and (198, 49, 24).
Word differentialBlock(bool diffBit) {
  Word w;
  w.set(63, 59, 28).set(58, 56, 0b100).set(55, 51, 4).set(50, 48, 2).set(47, 43, 3).set(42, 40, 0);
  w.set(39, 37, 0).set(36, 34, 7).set(33, 33, diffBit).set(32, 32, 0);  // tables {2,8} and {47,183}
  w.index(0, 0, 1).index(1, 2, 2).index(2, 0, 3).index(3, 3, 1);
  return w;
}

TEST(Etc2Decode, DifferentialMode) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, differentialBlock(true));
  expectRgba8(d.at(0, 0), 239, 41, 32, 255, "a: (231,33,24) + 8");
  expectRgba8(d.at(1, 2), 229, 31, 22, 255, "g: -2");
  expectRgba8(d.at(1, 1), 233, 35, 26, 255, "f: +2");
  expectRgba8(d.at(2, 0), 15, 0, 0, 255, "i: (198,49,24) - 183, clamped");
  expectRgba8(d.at(3, 3), 255, 232, 207, 255, "p: +183, clamped");
  expectRgba8(d.at(2, 1), 245, 96, 71, 255, "j: +47");
}

// 'T' mode: R + dR outside [0, 31]. Bits 63-61 = 111 and R1a = 10 make R = 30; bit 58 = 0 and
// R1b = 11 make dR = +3: 33. R1 = (R1a << 2) | R1b = 1011b = 11.
Word tBlock(bool bit33) {
  Word w;
  w.set(63, 61, 0b111).set(60, 59, 0b10).set(58, 58, 0).set(57, 56, 0b11);
  w.set(55, 52, 5).set(51, 48, 12);                   // base col 1 = (187, 85, 204)
  w.set(47, 44, 6).set(43, 40, 9).set(39, 36, 15);    // base col 2 = (102, 153, 255)
  w.set(35, 34, 0b10).set(33, 33, bit33).set(32, 32, 1);  // distance index 101b = 5: d = 32
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) w.index(x, y, (x + y) % 4);
  return w;
}

TEST(Etc2Decode, TMode) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, tBlock(true));
  // paint 0 = base 1; paint 1 = base 2 + 32 (255 + 32 clamps); paint 2 = base 2; paint 3 = base 2 - 32.
  const int paint[4][3] = {{187, 85, 204}, {134, 185, 255}, {102, 153, 255}, {70, 121, 223}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int* p = paint[(x + y) % 4];
      expectRgba8(d.at(x, y), p[0], p[1], p[2], 255, "T paint colour");
    }
}

// 'H' mode: R + dR inside, G + dG outside [0, 31]. Bit 63 = 0 and R1 = 8 make R = 8, G1a = 011
// makes dR = +3. Bits 55-53 = 111, G1b = 1, B1a = 1 make G = 31; bit 50 = 0 and B1b = 101 make
// dG = 010b = +2: 33. G1 = (G1a << 1) | G1b = 7, B1 = (B1a << 3) | B1b = 13.
Word hBlock(int b2) {
  Word w;
  w.set(63, 63, 0).set(62, 59, 8).set(58, 56, 0b011).set(55, 53, 0b111).set(52, 52, 1).set(51, 51, 1);
  w.set(50, 50, 0).set(49, 47, 0b101);                // base col 1 = (136, 119, 221)
  w.set(46, 43, 8).set(42, 39, 7).set(38, 35, b2);    // base col 2 = (136, 119, 17 * b2)
  w.set(34, 34, 1).set(33, 33, 1).set(32, 32, 0);     // da = 1, db = 0
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) w.index(x, y, (x + 2 * y) % 4);
  return w;
}

TEST(Etc2Decode, HModeDistanceLsbFromColourOrder) {
  {
    // B2 = 12 (204): base 1 >= base 2, so the index is (1 << 2) | (0 << 1) | 1 = 5: d = 32.
    const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, hBlock(12));
    const int paint[4][3] = {{168, 151, 253}, {104, 87, 189}, {168, 151, 236}, {104, 87, 172}};
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int* p = paint[(x + 2 * y) % 4];
        expectRgba8(d.at(x, y), p[0], p[1], p[2], 255, "H, d = 32");
      }
  }
  {
    // B2 = 15 (255): base 1 < base 2, index 100b = 4: d = 23.
    const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, hBlock(15));
    const int paint[4][3] = {{159, 142, 244}, {113, 96, 198}, {159, 142, 255}, {113, 96, 232}};
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) {
        const int* p = paint[(x + 2 * y) % 4];
        expectRgba8(d.at(x, y), p[0], p[1], p[2], 255, "H, d = 23");
      }
  }
}

// 'planar' mode: R + dR and G + dG inside, B + dB outside [0, 31]. Layout: RO 62-57, GO1 56,
// GO2 54-49, BO1 48, BO2 44-43, BO3 41-39, RH1 38-34, RH2 32, GH 31-25, BH 24-19, RV 18-13,
// GV 12-6, BV 5-0. Bits 47-45 = 111 and BO2 = 11 make B = 31; bit 42 = 0 and BO3 = 110 make
// dB = 011b = +3. With bit 63 = 0, RO = 100001b and GO1 = 1 make R = 01000b = 8 and
// dR = 011b = +3; with bit 55 = 0, GO2 = 100000b and BO1 = 1 make G = 8 and dG = +1: both in range.
Word planarBlock(bool bit33) {
  Word w;
  w.set(63, 63, 0).set(62, 57, 33).set(56, 56, 1).set(55, 55, 0).set(54, 49, 32).set(48, 48, 1);
  w.set(47, 45, 0b111).set(44, 43, 0b11).set(42, 42, 0).set(41, 39, 0b110);
  w.set(38, 34, 5).set(33, 33, bit33).set(32, 32, 0);  // RH = 001010b = 10
  w.set(31, 25, 127).set(24, 19, 0).set(18, 13, 63).set(12, 6, 0).set(5, 0, 32);
  return w;
}

// O = (extend6(33), extend7(1000000b | 100000b = 96), extend6(100000b | 11000b | 110b = 62))
//   = (134, 193, 251); H = (extend6(10), extend7(127), extend6(0)) = (40, 255, 0);
// V = (extend6(63), extend7(0), extend6(32)) = (255, 0, 130).
// "R(x,y) = clamp255((x (RH-RO) + y (RV-RO) + 4 RO + 2) >> 2)", >> rounding towards -inf.
int planar(int o, int h, int v, int x, int y) {
  const int sum = x * (h - o) + y * (v - o) + 4 * o + 2;
  const int shifted = sum >= 0 ? sum / 4 : -((-sum + 3) / 4);
  return shifted < 0 ? 0 : shifted > 255 ? 255 : shifted;
}

void expectPlanar(const Decoded& d) {
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x)
      expectRgba8(d.at(x, y), planar(134, 40, 255, x, y), planar(193, 255, 0, x, y), planar(251, 0, 130, x, y), 255,
                  "planar");
  // Two by hand: (0,0) = O rounded: (538 >> 2, 774 >> 2, 1006 >> 2) = (134, 193, 251);
  // (3,1): R (-282 + 121 + 538) >> 2 = 94, G (186 - 193 + 774) >> 2 = 191, B (-753 - 121 + 1006) >> 2 = 33.
  expectRgba8(d.at(0, 0), 134, 193, 251, 255, "planar (0,0)");
  expectRgba8(d.at(3, 1), 94, 191, 33, 255, "planar (3,1)");
}

TEST(Etc2Decode, PlanarMode) { expectPlanar(decode(VK_FORMAT_ETC2_R8G8B8_UNORM_BLOCK, planarBlock(true))); }

// ---- sRGB: the same integers, then the sRGB EOTF on R, G, B ("Format RGB ETC2 with sRGB
// encoding"); KDFS sRGB EOTF: c/12.92 for c <= 0.04045, else ((c + 0.055)/1.055)^2.4.
double srgbEotf(int v) {
  const double c = v / 255.0;
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

TEST(Etc2Decode, SrgbDecodesColourToLinear) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, differentialBlock(true));
  const TexelValue& a = d.at(0, 0);  // (239, 41, 32) as in DifferentialMode
  EXPECT_NEAR(a.f[0], srgbEotf(239), 1e-6);
  EXPECT_NEAR(a.f[1], srgbEotf(41), 1e-6);
  EXPECT_NEAR(a.f[2], srgbEotf(32), 1e-6);
  EXPECT_EQ(a.f[3], 1.0f);
  const TexelValue& i = d.at(2, 0);  // (15, 0, 0)
  EXPECT_NEAR(i.f[0], srgbEotf(15), 1e-6);
  EXPECT_EQ(i.f[1], 0.0f);
  // The linear segment (c <= 0.04045): R1 = 0 of the individual block's subblock 2 gives 17 - 8 = 9.
  const Decoded ind = decode(VK_FORMAT_ETC2_R8G8B8_SRGB_BLOCK, individualBlock(false));
  EXPECT_NEAR(ind.at(3, 0).f[0], 9 / 255.0 / 12.92, 1e-7);
}

// ---- RGB ETC2 with punchthrough alpha: bit 33 is 'opaque' ------------------------------------

TEST(Etc2Decode, PunchthroughOpaqueBlockIsDifferential) {
  // With opaque = 1 the block decodes exactly as RGB ETC2's differential mode, alpha 255.
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, differentialBlock(true));
  expectRgba8(d.at(0, 0), 239, 41, 32, 255, "a");
  expectRgba8(d.at(1, 2), 229, 31, 22, 255, "g: index 10 is -a when opaque");
  expectRgba8(d.at(2, 0), 15, 0, 0, 255, "i");
}

TEST(Etc2Decode, PunchthroughTransparentDifferential) {
  // Opaque = 0: no individual mode (this block would be 'individual' in RGB ETC2); the
  // modifier table loses its small values (00 -> 0, 01 -> b, 11 -> -b) and index 10 is
  // transparent black.
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, differentialBlock(false));
  expectRgba8(d.at(0, 0), 239, 41, 32, 255, "a: 01 -> +8");
  expectRgba8(d.at(1, 2), 0, 0, 0, 0, "g: 10 -> transparent");
  expectRgba8(d.at(1, 1), 231, 33, 24, 255, "f: 00 -> modifier 0, the base colour");
  expectRgba8(d.at(2, 0), 15, 0, 0, 255, "i: 11 -> -183");
  expectRgba8(d.at(2, 1), 198, 49, 24, 255, "j: 00 -> base colour 2");
}

TEST(Etc2Decode, PunchthroughTransparentTMode) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, tBlock(false));
  const int paint[4][3] = {{187, 85, 204}, {134, 185, 255}, {0, 0, 0}, {70, 121, 223}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int idx = (x + y) % 4;
      expectRgba8(d.at(x, y), paint[idx][0], paint[idx][1], paint[idx][2], idx == 2 ? 0 : 255, "T, paint 2 transparent");
    }
}

TEST(Etc2Decode, PunchthroughTransparentHMode) {
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, [] {
    Word w = hBlock(12);
    return w.set(33, 33, 0);
  }());
  const int paint[4][3] = {{168, 151, 253}, {104, 87, 189}, {0, 0, 0}, {104, 87, 172}};
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) {
      const int idx = (x + 2 * y) % 4;
      expectRgba8(d.at(x, y), paint[idx][0], paint[idx][1], paint[idx][2], idx == 2 ? 0 : 255, "H, paint 2 transparent");
    }
}

TEST(Etc2Decode, PunchthroughPlanarIsOpaqueEvenWithOpaqueBitClear) {
  expectPlanar(decode(VK_FORMAT_ETC2_R8G8B8A1_UNORM_BLOCK, planarBlock(false)));
}

// ---- RGBA ETC2: int64bitAlpha (bytes 0-7) then int64bitColor (bytes 8-15) ---------------------

TEST(Etc2Decode, Rgba8AlphaAndSrgbColour) {
  // Alpha: base_codeword 63-56, multiplier 55-52, table index 51-48, 3-bit indices from 47.
  // The chapter's example: base 103, table 13 {-1,-2,-3,-10,0,1,2,9}, index 3, multiplier 2:
  // 103 - 20 = 83.
  Word alpha;
  alpha.set(63, 56, 103).set(55, 52, 2).set(51, 48, 13);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) alpha.eacIndex(x, y, 4);  // modifier 0: 103
  alpha.eacIndex(0, 1, 3).eacIndex(3, 3, 7).eacIndex(2, 0, 0);
  const Word color = differentialBlock(true);
  const Decoded d = decode(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, alpha, &color);
  expectRgba8(d.at(0, 1), 233, 35, 26, 83, "b: index 3, 103 - 10 * 2");
  expectRgba8(d.at(3, 3), 255, 232, 207, 121, "p: index 7, 103 + 9 * 2");
  expectRgba8(d.at(2, 0), 15, 0, 0, 101, "i: index 0, 103 - 1 * 2");
  expectRgba8(d.at(1, 1), 233, 35, 26, 103, "f: index 4, modifier 0");

  // Multiplier 0 multiplies by 0 for RGBA ETC2 alpha (unlike R11 EAC): every texel 103.
  // Clamping: base 250, table 0 index 7 (+14), multiplier 15 -> 460 -> 255.
  Word flat = alpha;
  flat.set(55, 52, 0);
  const Decoded f = decode(VK_FORMAT_ETC2_R8G8B8A8_SRGB_BLOCK, flat, &color);
  EXPECT_NEAR(f.at(0, 1).f[3], 103 / 255.0, 1e-6) << "alpha stays linear in the sRGB format";
  EXPECT_NEAR(f.at(0, 1).f[0], srgbEotf(233), 1e-6);
  Word clamped;
  clamped.set(63, 56, 250).set(55, 52, 15).set(51, 48, 0).eacIndex(0, 0, 7).eacIndex(1, 0, 3);
  const Decoded c = decode(VK_FORMAT_ETC2_R8G8B8A8_UNORM_BLOCK, clamped, &color);
  EXPECT_EQ(c.at(0, 0).f[3], 1.0f);
  // index 3 of table 0 is -15: 250 - 225 = 25; index 0 (the rest) is -3: 250 - 45 = 205.
  EXPECT_NEAR(c.at(1, 0).f[3], 25 / 255.0, 1e-6);
  EXPECT_NEAR(c.at(3, 3).f[3], 205 / 255.0, 1e-6);
}

// ---- EAC -------------------------------------------------------------------------------------

Word eacWord(int base, int multiplier, int table, std::initializer_list<int> indices) {
  Word w;
  w.set(63, 56, uint64_t(base) & 0xFF).set(55, 52, uint64_t(multiplier)).set(51, 48, uint64_t(table));
  int n = 0;
  for (int idx : indices) {
    w.eacIndex(n / 4, n % 4, idx);  // pixel number n = 4x + y
    ++n;
  }
  return w;
}

TEST(EacDecode, UnsignedR11) {
  // "clamp2(base x 8 + 4 + modifier x multiplier x 8)": the chapter's example base 103, table 13,
  // index 3 (-10), multiplier 2: 828 - 160 = 668 -> 668/2047. Pixel b (x 0, y 1) gets index 3.
  const Decoded d =
      decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, eacWord(103, 2, 13, {0, 3, 7, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5}));
  EXPECT_NEAR(d.at(0, 1).f[0], 668 / 2047.0, 1e-7);
  EXPECT_NEAR(d.at(0, 2).f[0], (828 + 9 * 2 * 8) / 2047.0, 1e-7);  // c: index 7 (+9)
  EXPECT_NEAR(d.at(0, 3).f[0], 828 / 2047.0, 1e-7);                // d: index 4 (0)
  EXPECT_NEAR(d.at(0, 0).f[0], (828 - 16) / 2047.0, 1e-7);         // a: index 0 (-1)
  EXPECT_NEAR(d.at(3, 3).f[0], (828 + 16) / 2047.0, 1e-7);         // p: index 5 (+1)
  EXPECT_EQ(d.at(0, 1).f[1], 0.0f);
  EXPECT_EQ(d.at(0, 1).f[2], 0.0f);
  EXPECT_EQ(d.at(0, 1).f[3], 1.0f);

  // Multiplier 0 means 1/8: "clamp2(base x 8 + 4 + modifier)": 828 - 10 = 818.
  const Decoded z = decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, eacWord(103, 0, 13, {3}));
  EXPECT_NEAR(z.at(0, 0).f[0], 818 / 2047.0, 1e-7);

  // Clamping to [0, 2047]: base 255, table 0 index 7 (+14) x 15 x 8 -> 1.0; base 0, index 3
  // (-15) x 15 x 8 -> 0.
  EXPECT_EQ(decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, eacWord(255, 15, 0, {7})).at(0, 0).f[0], 1.0f);
  EXPECT_EQ(decode(VK_FORMAT_EAC_R11_UNORM_BLOCK, eacWord(0, 15, 0, {3})).at(0, 0).f[0], 0.0f);
}

TEST(EacDecode, SignedR11) {
  // "clamp2(base x 8 + modifier x multiplier x 8)", no +4: the chapter's example base 60,
  // table 13, index 3 (-10), multiplier 2: 480 - 160 = 320 -> 320/1023.
  EXPECT_NEAR(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(60, 2, 13, {3})).at(0, 0).f[0], 320 / 1023.0, 1e-7);
  // Multiplier 0: 480 - 10 = 470.
  EXPECT_NEAR(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(60, 0, 13, {3})).at(0, 0).f[0], 470 / 1023.0, 1e-7);
  // A negative base: -100 (0x9C) x 8 + 9 x 3 x 8 (table 13 index 7, multiplier 3) = -584.
  EXPECT_NEAR(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(-100, 3, 13, {7})).at(0, 0).f[0], -584 / 1023.0, 1e-7);
  // -128 is treated as -127: with multiplier 0 and table 0 index 4 (+2): -1016 + 2 = -1014
  // (-1022 if -128 were kept).
  EXPECT_NEAR(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(-128, 0, 0, {4})).at(0, 0).f[0], -1014 / 1023.0, 1e-7);
  // Clamping to [-1023, 1023]: -1016 - 15 x 15 x 8 -> -1.0; 127 x 8 + 14 x 15 x 8 -> 1.0.
  EXPECT_EQ(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(-128, 15, 0, {3})).at(0, 0).f[0], -1.0f);
  EXPECT_EQ(decode(VK_FORMAT_EAC_R11_SNORM_BLOCK, eacWord(127, 15, 0, {7})).at(0, 0).f[0], 1.0f);
}

TEST(EacDecode, TwoChannelFormatsDecodeRedThenGreen) {
  // int64bit0 (bytes 0-7) is red, int64bit1 (bytes 8-15) green.
  const Word red = eacWord(103, 2, 13, {3}), green = eacWord(10, 1, 0, {6});  // green: 84 + 8 x 8
  const Decoded u = decode(VK_FORMAT_EAC_R11G11_UNORM_BLOCK, red, &green);
  EXPECT_NEAR(u.at(0, 0).f[0], 668 / 2047.0, 1e-7);
  EXPECT_NEAR(u.at(0, 0).f[1], 148 / 2047.0, 1e-7);
  EXPECT_EQ(u.at(0, 0).f[2], 0.0f);
  EXPECT_EQ(u.at(0, 0).f[3], 1.0f);
  const Decoded s = decode(VK_FORMAT_EAC_R11G11_SNORM_BLOCK, red, &green);
  EXPECT_NEAR(s.at(0, 0).f[0], (824 - 160) / 1023.0, 1e-7);  // 103 x 8 - 10 x 2 x 8
  EXPECT_NEAR(s.at(0, 0).f[1], (80 + 64) / 1023.0, 1e-7);   // 10 x 8 + 8 x 1 x 8
}

TEST(CompressedBlock, Etc2EacAndBcHaveADecoderAstcDoesNot) {
  uint8_t block[16] = {};
  TexelValue out[16];
  for (const FormatInfo& f : allFormats()) {
    const bool expected = f.compression == Compression::ETC2 || f.compression == Compression::EAC ||
                          f.compression == Compression::BC;
    EXPECT_EQ(hasBlockDecoder(f), expected) << f.name;
    EXPECT_EQ(decodeCompressedBlock(f, block, out), expected) << f.name;
  }
}

}  // namespace
}  // namespace tessera
