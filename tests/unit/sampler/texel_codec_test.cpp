// Unit tests for texel_codec: each expected value is computed by hand (or by an independent
// formula in the test) from the specification section named in the test.
#include "tessera/texel_codec.h"

#include <gtest/gtest.h>
#include <bit>
#include <algorithm>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "tessera/format.h"

namespace tessera {
namespace {

const FormatInfo& fmt(VkFormat f) {
  const FormatInfo* info = formatInfo(f);
  EXPECT_NE(info, nullptr);
  return *info;
}

template <size_t N>
TexelValue decodeBytes(VkFormat f, const std::array<uint8_t, N>& bytes) {
  TexelValue v;
  decodeTexel(fmt(f), bytes.data(), v);
  return v;
}

TexelValue decodeU32(VkFormat f, uint32_t word) {
  uint8_t b[4];
  std::memcpy(b, &word, 4);
  TexelValue v;
  decodeTexel(fmt(f), b, v);
  return v;
}

TexelValue decodeU16(VkFormat f, uint16_t word) {
  uint8_t b[2];
  std::memcpy(b, &word, 2);
  TexelValue v;
  decodeTexel(fmt(f), b, v);
  return v;
}

TexelValue floats(float r, float g = 0, float b = 0, float a = 1) {
  TexelValue v;
  v.f[0] = r, v.f[1] = g, v.f[2] = b, v.f[3] = a;
  return v;
}
TexelValue uints(uint32_t r, uint32_t g = 0, uint32_t b = 0, uint32_t a = 1) {
  TexelValue v;
  v.u[0] = r, v.u[1] = g, v.u[2] = b, v.u[3] = a;
  return v;
}
TexelValue sints(int32_t r, int32_t g = 0, int32_t b = 0, int32_t a = 1) {
  TexelValue v;
  v.i[0] = r, v.i[1] = g, v.i[2] = b, v.i[3] = a;
  return v;
}

std::vector<uint8_t> encodeBytes(VkFormat f, const TexelValue& v) {
  std::vector<uint8_t> out(fmt(f).blockSize, 0xCD);
  encodeTexel(fmt(f), v, out.data());
  return out;
}
uint32_t encodeU32(VkFormat f, const TexelValue& v) {
  auto b = encodeBytes(f, v);
  uint32_t w = 0;
  std::memcpy(&w, b.data(), std::min<size_t>(4, b.size()));
  return w;
}
uint16_t encodeU16(VkFormat f, const TexelValue& v) {
  auto b = encodeBytes(f, v);
  uint16_t w = 0;
  std::memcpy(&w, b.data(), 2);
  return w;
}
uint8_t encodeU8(VkFormat f, const TexelValue& v) { return encodeBytes(f, v)[0]; }

uint16_t half(float f) { return encodeU16(VK_FORMAT_R16_SFLOAT, floats(f)); }
float unhalf(uint16_t h) { return decodeU16(VK_FORMAT_R16_SFLOAT, h).f[0]; }

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// ---- Format classification ----------------------------------------------------------------

TEST(TexelKind, FromNumericFormat) {
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_R8_UINT)), TexelKind::UInt);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_A2B10G10R10_SINT_PACK32)), TexelKind::SInt);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_R8G8B8A8_SRGB)), TexelKind::Float);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_R16_SSCALED)), TexelKind::Float);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32)), TexelKind::Float);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_S8_UINT)), TexelKind::UInt);
  EXPECT_EQ(texelKind(fmt(VK_FORMAT_D16_UNORM)), TexelKind::Float);
}

TEST(HasColorCodec, CoversUncompressedSinglePlaneColorFormats) {
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_R8G8B8A8_UNORM)));
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_R32G32B32A32_SFLOAT)));
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_B10G11R11_UFLOAT_PACK32)));
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32)));
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_R10X6_UNORM_PACK16)));
  EXPECT_TRUE(hasColorCodec(fmt(VK_FORMAT_A4B4G4R4_UNORM_PACK16)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_BC1_RGB_UNORM_BLOCK)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_ASTC_4x4_UNORM_BLOCK)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_D16_UNORM)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_D24_UNORM_S8_UINT)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_S8_UINT)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_R64_UINT)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_R64G64B64A64_SFLOAT)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_G8B8G8R8_422_UNORM)));
  EXPECT_FALSE(hasColorCodec(fmt(VK_FORMAT_G8_B8R8_2PLANE_420_UNORM)));
}

// ---- Conversion to RGBA ---------------------------------------------------------------------

// Spec "Conversion to RGBA": missing components become (0, 0, 0, one), one = 1.0f for float
// formats and 1 for integer formats.
TEST(ConversionToRGBA, MissingComponentsAre0001) {
  TexelValue v = decodeBytes(VK_FORMAT_R8_UNORM, std::array<uint8_t, 1>{255});
  EXPECT_EQ(v.f[0], 1.0f);
  EXPECT_EQ(v.f[1], 0.0f);
  EXPECT_EQ(v.f[2], 0.0f);
  EXPECT_EQ(v.f[3], 1.0f);
  v = decodeBytes(VK_FORMAT_R8G8_UINT, std::array<uint8_t, 2>{7, 9});
  EXPECT_EQ(v.u[0], 7u);
  EXPECT_EQ(v.u[1], 9u);
  EXPECT_EQ(v.u[2], 0u);
  EXPECT_EQ(v.u[3], 1u);
  v = decodeBytes(VK_FORMAT_R8G8B8_SINT, std::array<uint8_t, 3>{0xFF, 0x80, 0x7F});
  EXPECT_EQ(v.i[0], -1);
  EXPECT_EQ(v.i[1], -128);
  EXPECT_EQ(v.i[2], 127);
  EXPECT_EQ(v.i[3], 1);
}

// ---- Fixed-Point Data Conversions -----------------------------------------------------------

// Spec "Conversion From Normalized Fixed-Point to Floating-Point": f = c / (2^b - 1).
TEST(FixedPointDataConversions, UnormToFloat) {
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_UNORM, std::array<uint8_t, 1>{0}).f[0], 0.0f);
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_UNORM, std::array<uint8_t, 1>{255}).f[0], 1.0f);
  EXPECT_FLOAT_EQ(decodeBytes(VK_FORMAT_R8_UNORM, std::array<uint8_t, 1>{128}).f[0],
                  128.0f / 255.0f);
  EXPECT_FLOAT_EQ(decodeU16(VK_FORMAT_R16_UNORM, 0x8000).f[0], 32768.0f / 65535.0f);
  EXPECT_EQ(decodeU16(VK_FORMAT_R16_UNORM, 0xFFFF).f[0], 1.0f);
}

// Spec "Conversion From Normalized Fixed-Point to Floating-Point": f = max(c / (2^(b-1) - 1), -1);
// "-128 ... is outside the representable range, and implementations must clamp it to -1.0".
TEST(FixedPointDataConversions, SnormToFloatClampsMostNegative) {
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_SNORM, std::array<uint8_t, 1>{0x80}).f[0], -1.0f);
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_SNORM, std::array<uint8_t, 1>{0x81}).f[0], -1.0f);
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_SNORM, std::array<uint8_t, 1>{0x7F}).f[0], 1.0f);
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_SNORM, std::array<uint8_t, 1>{0x00}).f[0], 0.0f);
  EXPECT_FLOAT_EQ(decodeBytes(VK_FORMAT_R8_SNORM, std::array<uint8_t, 1>{0x40}).f[0],
                  64.0f / 127.0f);
  EXPECT_EQ(decodeU16(VK_FORMAT_R16_SNORM, 0x8000).f[0], -1.0f);
  EXPECT_FLOAT_EQ(decodeU16(VK_FORMAT_R16_SNORM, 0xC000).f[0], -16384.0f / 32767.0f);
  // 2-bit SNORM alpha of A2B10G10R10_SNORM_PACK32: -2 -> -1, -1 -> -1, 1 -> 1.
  EXPECT_EQ(decodeU32(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 2u << 30).f[3], -1.0f);
  EXPECT_EQ(decodeU32(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 3u << 30).f[3], -1.0f);
  EXPECT_EQ(decodeU32(VK_FORMAT_A2B10G10R10_SNORM_PACK32, 1u << 30).f[3], 1.0f);
}

// Spec "Conversion From Floating-Point to Normalized Fixed-Point": clamp to [0,1], then
// c = convertFloatToUint(f * (2^b - 1)), round to nearest; 0.0 and 1.0 give 0 and 2^b - 1.
TEST(FixedPointDataConversions, FloatToUnormClampsAndRounds) {
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(0.0f)), 0);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(1.0f)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(0.5f)), 128);  // 127.5 -> 128
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(0.2f)), 51);   // 51.0000008 -> 51
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(0.3f)), 77);   // 76.5000011 -> 77
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(100.4f / 255.0f)), 100);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(100.6f / 255.0f)), 101);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(-3.0f)), 0);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(7.0f)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(kInf)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(-kInf)), 0);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UNORM, floats(kNaN)), 0);         // Tessera's choice
  EXPECT_EQ(encodeU16(VK_FORMAT_R16_UNORM, floats(0.5f)), 0x8000);  // 32767.5 -> 32768
  EXPECT_EQ(encodeU16(VK_FORMAT_R16_UNORM, floats(1.0f)), 0xFFFF);
}

// Spec "Conversion From Floating-Point to Normalized Fixed-Point": clamp to [-1,1], then
// c = convertFloatToInt(f * (2^(b-1) - 1)); -1.0, 0.0, 1.0 give -(2^(b-1) - 1), 0, 2^(b-1) - 1.
TEST(FixedPointDataConversions, FloatToSnormClampsToMinusOne) {
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(-1.0f)), 0x81);  // -127, never -128
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(-5.0f)), 0x81);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(1.0f)), 0x7F);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(5.0f)), 0x7F);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(0.0f)), 0x00);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(0.5f)), 0x40);   // 63.5 -> 64
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SNORM, floats(-0.5f)), 0xC0);  // -63.5 -> -64
  EXPECT_EQ(encodeU16(VK_FORMAT_R16_SNORM, floats(-1.0f)), 0x8001);
  EXPECT_EQ(encodeU32(VK_FORMAT_A2B10G10R10_SNORM_PACK32, floats(0, 0, 0, -1.0f)), 3u << 30);
}

// USCALED/SSCALED: integer values read as floats; written back by clamping to the integer range
// and rounding to nearest (ties to even: the only place the tie rule is observable).
TEST(FixedPointDataConversions, ScaledFormats) {
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_USCALED, std::array<uint8_t, 1>{200}).f[0], 200.0f);
  EXPECT_EQ(decodeBytes(VK_FORMAT_R8_SSCALED, std::array<uint8_t, 1>{0x9C}).f[0], -100.0f);
  EXPECT_EQ(decodeU16(VK_FORMAT_R16_USCALED, 65535).f[0], 65535.0f);
  EXPECT_EQ(decodeU32(VK_FORMAT_A2R10G10B10_SSCALED_PACK32, 0x200u).f[2], -512.0f);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_USCALED, floats(200.4f)), 200);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_USCALED, floats(2.5f)), 2);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_USCALED, floats(3.5f)), 4);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_USCALED, floats(300.0f)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_USCALED, floats(-1.0f)), 0);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SSCALED, floats(-2.5f)), 0xFE);  // -2
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SSCALED, floats(-200.0f)), 0x80);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SSCALED, floats(200.0f)), 0x7F);
}

// vkCmdBlitImage ("Image Copies With Scaling"): "Signed and unsigned integers are converted by
// first clamping to the representable range of the destination format, then casting the value."
TEST(ImageCopiesWithScaling, IntegerEncodeClampsToComponentRange) {
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UINT, uints(300)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UINT, uints(0xFFFFFFFFu)), 255);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_UINT, uints(17)), 17);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SINT, sints(-200)), 0x80);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SINT, sints(200)), 0x7F);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SINT, sints(-5)), 0xFB);
  EXPECT_EQ(encodeU32(VK_FORMAT_A2B10G10R10_UINT_PACK32, uints(5000, 1, 2, 9)),
            (3u << 30) | (2u << 20) | (1u << 10) | 1023u);
  EXPECT_EQ(encodeU32(VK_FORMAT_R32_SINT, sints(std::numeric_limits<int32_t>::min())), 0x80000000u);
  EXPECT_EQ(encodeU32(VK_FORMAT_R32_UINT, uints(0xFFFFFFFFu)), 0xFFFFFFFFu);
}

// ---- sRGB (Khronos Data Format Specification sRGB EOTF / EOTF^-1, used by "Format Conversion")

double eotf(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

TEST(SrgbTransferFunction, DecodeAppliesEotfToRgbNotAlpha) {
  TexelValue v = decodeBytes(VK_FORMAT_R8G8B8A8_SRGB, std::array<uint8_t, 4>{128, 0, 255, 128});
  EXPECT_NEAR(v.f[0], 0.2158605f, 1e-6f);  // ((128/255 + 0.055) / 1.055)^2.4
  EXPECT_EQ(v.f[1], 0.0f);
  EXPECT_EQ(v.f[2], 1.0f);
  EXPECT_FLOAT_EQ(v.f[3], 128.0f / 255.0f);  // "The A component, if present, is unchanged."
  // Linear segment: C = C' / 12.92 for C' <= 0.04045 (10/255 = 0.0392).
  v = decodeBytes(VK_FORMAT_R8_SRGB, std::array<uint8_t, 1>{10});
  EXPECT_FLOAT_EQ(v.f[0], float(10.0 / 255.0 / 12.92));
  // B8G8R8A8: byte 0 is B.
  v = decodeBytes(VK_FORMAT_B8G8R8A8_SRGB, std::array<uint8_t, 4>{200, 0, 0, 255});
  EXPECT_FLOAT_EQ(v.f[2], float(eotf(200.0 / 255.0)));
  EXPECT_EQ(v.f[0], 0.0f);
}

TEST(SrgbTransferFunction, EncodeAppliesInverseEotf) {
  // 1.055 * 0.5^(1/2.4) - 0.055 = 0.735357; * 255 = 187.52 -> 188.
  auto b = encodeBytes(VK_FORMAT_R8G8B8A8_SRGB, floats(0.5f, 0.0f, 1.0f, 0.5f));
  EXPECT_EQ(b, (std::vector<uint8_t>{188, 0, 255, 128}));
  // Linear segment: 12.92 * 0.001 * 255 = 3.29 -> 3.
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SRGB, floats(0.001f)), 3);
  // Clamped: negative -> 0, > 1 -> 255.
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SRGB, floats(-1.0f)), 0);
  EXPECT_EQ(encodeU8(VK_FORMAT_R8_SRGB, floats(3.0f)), 255);
}

TEST(SrgbTransferFunction, EveryByteRoundTrips) {
  for (int c = 0; c < 256; ++c) {
    const std::array<uint8_t, 4> in{uint8_t(c), uint8_t(255 - c), uint8_t(c ^ 0x5A), uint8_t(c)};
    TexelValue v;
    decodeTexel(fmt(VK_FORMAT_R8G8B8A8_SRGB), in.data(), v);
    EXPECT_NEAR(v.f[0], eotf(c / 255.0), 1e-7) << c;
    std::array<uint8_t, 4> out{};
    encodeTexel(fmt(VK_FORMAT_R8G8B8A8_SRGB), v, out.data());
    EXPECT_EQ(out, in) << c;
  }
}

// The 8-bit encode by table (linearToSrgb8, behind encodeTexel for every 8-bit sRGB format) is
// the KDFS OETF as written out here, C' = 12.92 C below 0.0031308 and 1.055 C^(1/2.4) - 0.055
// above, in double, times 255, rounded half to even: on every 61st float of [0, 1], on both
// sides of every step, and on NaN, infinities, negatives and values above 1.
TEST(SrgbTransferFunction, TableEncodeIsTheFormula) {
  auto formula = [](float f) -> int {
    const double c = std::isnan(f) ? 0.0 : std::clamp(double(f), 0.0, 1.0);
    const double e = std::clamp(c <= 0.0031308 ? c * 12.92 : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055, 0.0, 1.0);
    const double x = e * 255.0, r = std::floor(x + 0.5);
    return int(r - x == 0.5 && std::fmod(r, 2.0) != 0.0 ? r - 1.0 : r);
  };
  for (uint32_t bits = 0; bits <= 0x3F800000u; bits += 61) {
    const float f = std::bit_cast<float>(bits);
    ASSERT_EQ(linearToSrgb8(f), formula(f)) << std::hexfloat << f;
  }
  int steps = 0;
  for (uint32_t bits = 1; bits <= 0x3F800000u; ++bits) {
    // Each step's first float, found by bisection on the formula: the table must agree on it
    // and on the float below it.
    const float below = std::bit_cast<float>(bits - 1);
    const int k = formula(below);
    if (k == 255) break;
    uint32_t lo = bits - 1, hi = 0x3F800000u;
    while (hi - lo > 1) {
      const uint32_t mid = lo + (hi - lo) / 2;
      (formula(std::bit_cast<float>(mid)) > k ? hi : lo) = mid;
    }
    ASSERT_EQ(linearToSrgb8(std::bit_cast<float>(lo)), formula(std::bit_cast<float>(lo)));
    ASSERT_EQ(linearToSrgb8(std::bit_cast<float>(hi)), formula(std::bit_cast<float>(hi)));
    ++steps;
    bits = hi;
  }
  EXPECT_EQ(steps, 255);
  for (float f : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                  -std::numeric_limits<float>::infinity(), -0.0f, -1.0f, 1.5f, 1e30f})
    EXPECT_EQ(linearToSrgb8(f), formula(f)) << f;
}

// ---- 16-Bit Floating-Point Numbers (KDFS "16-bit floating-point numbers") -------------------

TEST(FloatingPointFormats, HalfEncodeHandPicked) {
  EXPECT_EQ(half(1.0f), 0x3C00);
  EXPECT_EQ(half(-2.0f), 0xC000);
  EXPECT_EQ(half(0.0f), 0x0000);
  EXPECT_EQ(half(-0.0f), 0x8000);
  EXPECT_EQ(half(1.0f / 3.0f), 0x3555);  // 1.0101010101|01.. x 2^-2, rounds down
  EXPECT_EQ(half(0.1f), 0x2E66);
  EXPECT_EQ(half(65504.0f), 0x7BFF);  // largest finite
  EXPECT_EQ(half(65519.0f), 0x7BFF);  // below the halfway point to 2^16
  EXPECT_EQ(half(65520.0f), 0x7C00);  // tie -> even -> 2^16 -> overflow to +Inf
  EXPECT_EQ(half(1e10f), 0x7C00);
  EXPECT_EQ(half(kInf), 0x7C00);
  EXPECT_EQ(half(-kInf), 0xFC00);
  EXPECT_EQ(half(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(half(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -25)),
            0x0400);                               // denormal rounds up into it
  EXPECT_EQ(half(std::ldexp(1.0f, -24)), 0x0001);  // smallest denormal
  EXPECT_EQ(half(std::ldexp(1.0f, -25)), 0x0000);  // tie between 0 and 2^-24 -> even (0)
  EXPECT_EQ(half(std::ldexp(3.0f, -26)), 0x0001);  // 0.75 x 2^-24 -> 1
  EXPECT_EQ(half(std::ldexp(3.0f, -25)), 0x0002);  // 1.5 x 2^-24 tie -> even (2)
  EXPECT_EQ(half(std::ldexp(1.0f, -30)), 0x0000);
  EXPECT_EQ(half(-std::ldexp(1.0f, -30)), 0x8000);
  EXPECT_EQ(half(1.0f + std::ldexp(1.0f, -11)), 0x3C00);  // tie -> even
  EXPECT_EQ(half(1.0f + std::ldexp(3.0f, -11)), 0x3C02);  // tie -> even
  const uint16_t nan = half(kNaN);
  EXPECT_EQ(nan & 0x7C00, 0x7C00);
  EXPECT_NE(nan & 0x03FF, 0);
}

// Every 16-bit pattern decodes to the value the KDFS definition gives: (-1)^S 2^-14 (M/2^10) for
// E = 0, (-1)^S 2^(E-15) (1 + M/2^10) for 0 < E < 31, +-Inf / NaN for E = 31.
TEST(FloatingPointFormats, HalfDecodeEveryPattern) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    const float got = unhalf(uint16_t(h));
    if (e == 31) {
      if (m == 0)
        EXPECT_EQ(got, s ? -kInf : kInf) << h;
      else
        EXPECT_TRUE(std::isnan(got)) << h;
      continue;
    }
    const double mag = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(1.0 + m / 1024.0, e - 15);
    EXPECT_EQ(double(got), s ? -mag : mag) << h;
    EXPECT_EQ(std::signbit(got), bool(s)) << h;
  }
}

#if defined(__FLT16_MAX__) && (defined(__x86_64__) || defined(__aarch64__))
// Independent oracle: the compiler's float -> _Float16 conversion (IEEE round to nearest even).
TEST(FloatingPointFormats, HalfEncodeMatchesCompilerConversion) {
  uint32_t state = 12345;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };
  for (int n = 0; n < 200000; ++n) {
    uint32_t bits = next();
    // Concentrate on the interesting exponent range: [2^-30, 2^17).
    if (n % 2) bits = (bits & 0x807FFFFFu) | ((97u + (next() % 48u)) << 23);
    float f;
    std::memcpy(&f, &bits, 4);
    if (std::isnan(f)) continue;
    const _Float16 h = static_cast<_Float16>(f);
    uint16_t expect;
    std::memcpy(&expect, &h, 2);
    ASSERT_EQ(half(f), expect) << std::hex << bits;
  }
}
#endif

// ---- Unsigned 11-bit and 10-bit floats, B10G11R11_UFLOAT_PACK32 -----------------------------

// Spec format definition: "a 10-bit B component in bits 22..31, an 11-bit G component in bits
// 11..21, an 11-bit R component in bits 0..10". 11-bit: 5-bit exponent, 6-bit mantissa; 10-bit:
// 5-bit exponent, 5-bit mantissa; bias 15, no sign.
TEST(FloatingPointFormats, B10G11R11Layout) {
  // R = 1.0 (E=15) -> 0x3C0, G = 2.0 (E=16) -> 0x400, B = 0.5 (E=14) -> 0x1C0.
  const uint32_t word = 0x3C0u | (0x400u << 11) | (0x1C0u << 22);
  EXPECT_EQ(word, 0x702003C0u);
  EXPECT_EQ(encodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, floats(1.0f, 2.0f, 0.5f)), word);
  TexelValue v = decodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, word);
  EXPECT_EQ(v.f[0], 1.0f);
  EXPECT_EQ(v.f[1], 2.0f);
  EXPECT_EQ(v.f[2], 0.5f);
  EXPECT_EQ(v.f[3], 1.0f);
  // The top bit of R's 11 bits (bit 10) belongs to R.
  EXPECT_EQ(decodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, 0x400u).f[0], 2.0f);
  EXPECT_EQ(decodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, 0x400u).f[1], 0.0f);
}

TEST(FloatingPointFormats, UnsignedSmallFloatsEncode) {
  auto r11 = [](float f) {
    return encodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, floats(f, 0, 0)) & 0x7FFu;
  };
  auto b10 = [](float f) {
    return encodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, floats(0, 0, f)) >> 22;
  };
  EXPECT_EQ(r11(1.0f), 0x3C0u);
  EXPECT_EQ(r11(65024.0f), 0x7BFu);  // (1 + 63/64) x 2^15, largest finite
  EXPECT_EQ(r11(1e9f), 0x7C0u);      // overflow -> +Inf
  EXPECT_EQ(r11(kInf), 0x7C0u);
  EXPECT_EQ(r11(std::ldexp(1.0f, -20)), 0x001u);  // smallest denormal 2^-14 x 1/64
  // "For unsigned destination formats any negative values are converted to zero ... negative
  // infinity is converted ... to zero in unsigned formats; and any NaN is converted to a NaN."
  EXPECT_EQ(r11(-1.0f), 0u);
  EXPECT_EQ(r11(-kInf), 0u);
  EXPECT_EQ(r11(-0.0f), 0u);
  const uint32_t nan11 = r11(kNaN);
  EXPECT_EQ(nan11 & 0x7C0u, 0x7C0u);
  EXPECT_NE(nan11 & 0x3Fu, 0u);
  EXPECT_TRUE(std::isnan(decodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, nan11).f[0]));
  EXPECT_EQ(b10(1.0f), 0x1E0u);
  EXPECT_EQ(b10(64512.0f), 0x3DFu);  // (1 + 31/32) x 2^15
  EXPECT_EQ(b10(-3.0f), 0u);
  const uint32_t nan10 = b10(-kNaN);  // a NaN with the sign bit set is still a NaN
  EXPECT_EQ(nan10 & 0x3E0u, 0x3E0u);
  EXPECT_NE(nan10 & 0x1Fu, 0u);
}

// Every 11-bit and 10-bit pattern decodes per the KDFS definition: 2^-14 (M/2^m) for E = 0,
// 2^(E-15) (1 + M/2^m) for 0 < E < 31, +Inf / NaN for E = 31.
TEST(FloatingPointFormats, UnsignedSmallFloatsDecodeEveryPattern) {
  for (uint32_t p = 0; p < 2048; ++p) {
    for (int which = 0; which < 2; ++which) {
      const int mbits = which == 0 ? 6 : 5;
      if (which == 1 && p >= 1024) continue;
      const uint32_t word = which == 0 ? p : p << 22;
      const float got = decodeU32(VK_FORMAT_B10G11R11_UFLOAT_PACK32, word).f[which == 0 ? 0 : 2];
      const int e = int(p >> mbits), m = int(p & ((1u << mbits) - 1));
      if (e == 31) {
        if (m == 0)
          EXPECT_EQ(got, kInf) << p;
        else
          EXPECT_TRUE(std::isnan(got)) << p;
        continue;
      }
      const double expect = e == 0 ? std::ldexp(double(m), -14 - mbits)
                                   : std::ldexp(1.0 + m / double(1 << mbits), e - 15);
      EXPECT_EQ(double(got), expect) << p;
    }
  }
}

// ---- Shared exponent (spec "RGB to Shared Exponent Conversion", "Shared Exponent to RGB") ----

TEST(SharedExponent, DecodeFormula) {
  // red = red_shared x 2^(exp_shared - B - N), N = 9, B = 15. R in bits 0..8, G 9..17, B 18..26,
  // exponent 27..31.
  TexelValue v = decodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 0x81010100u);
  EXPECT_EQ(v.f[0], 1.0f);   // 256 x 2^(16 - 24)
  EXPECT_EQ(v.f[1], 0.5f);   // 128 x 2^-8
  EXPECT_EQ(v.f[2], 0.25f);  // 64 x 2^-8
  EXPECT_EQ(v.f[3], 1.0f);
  v = decodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, (31u << 27) | 511u);
  EXPECT_EQ(v.f[0], 65408.0f);  // sharedexp_max
  v = decodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, 1u);
  EXPECT_EQ(v.f[0], std::ldexp(1.0f, -24));
}

TEST(SharedExponent, EncodeFormula) {
  // max = 1.0: exp' = floor(log2 1) + 1 + 15 = 16; max_shared = floor(1 / 2^-8 + 1/2) = 256 < 512.
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(1.0f, 0.5f, 0.25f)), 0x81010100u);
  // max = 1.999: exp' = 16, max_shared = floor(511.744 + 0.5) = 512 = 2^N -> exp_shared = 17;
  // red_shared = floor(1.999 x 2^7 + 1/2) = 256.
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(1.999f, 0, 0)), (17u << 27) | 256u);
  // Clamped to sharedexp_max = 511/512 x 2^16 = 65408 -> exp' = 15 + 16 = 31, mantissa 511;
  // negative and NaN components become 0 (minNum/maxNum).
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(1e10f, -5.0f, kNaN)),
            (31u << 27) | 511u);
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(kInf, 0, 0)), (31u << 27) | 511u);
  // All zero: exp' = max(-16, -inf) + 16 = 0.
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(0, 0, 0)), 0u);
  // Tiny values: max(-B - 1, floor(log2 x)) keeps exp' at 0; 2^-24 is mantissa 1.
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(std::ldexp(1.0f, -24), 0, 0)), 1u);
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(std::ldexp(1.0f, -26), 0, 0)), 0u);
  // G = 3.0: exp' = 1 + 16 = 17, max_shared = floor(3 x 2^7 + .5) = 384; R = 0.1 -> floor(12.8 +
  // .5) = 13.
  EXPECT_EQ(encodeU32(VK_FORMAT_E5B9G9R9_UFLOAT_PACK32, floats(0.1f, 3.0f, 0)),
            (17u << 27) | (384u << 9) | 13u);
}

// ---- Packed and unpacked layouts (spec "Format Definition") ---------------------------------

TEST(FormatDefinition, PackedComponentsCountFromTheWordsLsb) {
  // R5G6B5_UNORM_PACK16: R in bits 11..15, G in 5..10, B in 0..4.
  TexelValue v = decodeU16(VK_FORMAT_R5G6B5_UNORM_PACK16, 0xF800);
  EXPECT_EQ(v.f[0], 1.0f);
  EXPECT_EQ(v.f[1], 0.0f);
  EXPECT_EQ(v.f[2], 0.0f);
  v = decodeU16(VK_FORMAT_R5G6B5_UNORM_PACK16, 0x07E0);
  EXPECT_EQ(v.f[1], 1.0f);
  v = decodeU16(VK_FORMAT_R5G6B5_UNORM_PACK16, 0x001F);
  EXPECT_EQ(v.f[2], 1.0f);
  EXPECT_EQ(encodeU16(VK_FORMAT_R5G6B5_UNORM_PACK16, floats(1, 0, 1)), 0xF81F);
  // R4G4_UNORM_PACK8: R in bits 4..7.
  v = decodeBytes(VK_FORMAT_R4G4_UNORM_PACK8, std::array<uint8_t, 1>{0xF0});
  EXPECT_EQ(v.f[0], 1.0f);
  EXPECT_EQ(v.f[1], 0.0f);
  // A1R5G5B5_UNORM_PACK16: A in bit 15.
  v = decodeU16(VK_FORMAT_A1R5G5B5_UNORM_PACK16, 0x8000);
  EXPECT_EQ(v.f[3], 1.0f);
  EXPECT_EQ(v.f[0], 0.0f);
  // A2B10G10R10_UINT_PACK32: R in bits 0..9, G 10..19, B 20..29, A 30..31.
  v = decodeU32(VK_FORMAT_A2B10G10R10_UINT_PACK32, (3u << 30) | (3u << 20) | (2u << 10) | 1u);
  EXPECT_EQ(v.u[0], 1u);
  EXPECT_EQ(v.u[1], 2u);
  EXPECT_EQ(v.u[2], 3u);
  EXPECT_EQ(v.u[3], 3u);
  // A8B8G8R8_UNORM_PACK32: R in the word's low byte.
  EXPECT_EQ(encodeU32(VK_FORMAT_A8B8G8R8_UNORM_PACK32, floats(1, 0, 0, 0)), 0x000000FFu);
  // B4G4R4A4_UNORM_PACK16: B in bits 12..15.
  EXPECT_EQ(encodeU16(VK_FORMAT_B4G4R4A4_UNORM_PACK16, floats(0, 0, 1, 0)), 0xF000);
}

// VK_EXT_4444_formats (core 1.3): A4R4G4B4_UNORM_PACK16 has A in bits 12..15, R in 8..11,
// G in 4..7, B in 0..3; A4B4G4R4 swaps R and B (formatA4R4G4B4 / formatA4B4G4R4 rest on this).
TEST(FormatDefinition, FourFourFourFourFormatsWithAlphaFirst) {
  TexelValue v = decodeU16(VK_FORMAT_A4R4G4B4_UNORM_PACK16, 0xF842);
  EXPECT_FLOAT_EQ(v.f[0], 8.0f / 15.0f);
  EXPECT_FLOAT_EQ(v.f[1], 4.0f / 15.0f);
  EXPECT_FLOAT_EQ(v.f[2], 2.0f / 15.0f);
  EXPECT_FLOAT_EQ(v.f[3], 1.0f);
  v = decodeU16(VK_FORMAT_A4B4G4R4_UNORM_PACK16, 0xF842);
  EXPECT_FLOAT_EQ(v.f[0], 2.0f / 15.0f);
  EXPECT_FLOAT_EQ(v.f[2], 8.0f / 15.0f);
  EXPECT_EQ(encodeU16(VK_FORMAT_A4R4G4B4_UNORM_PACK16, floats(1, 0, 0, 0)), 0x0F00);
  EXPECT_EQ(encodeU16(VK_FORMAT_A4B4G4R4_UNORM_PACK16, floats(1, 0, 0, 0)), 0x000F);
  EXPECT_EQ(encodeU16(VK_FORMAT_A4B4G4R4_UNORM_PACK16, floats(0, 0, 0, 1)), 0xF000);
}

TEST(FormatDefinition, UnpackedComponentsCountFromTheFirstByte) {
  EXPECT_EQ(encodeBytes(VK_FORMAT_B8G8R8A8_UNORM, floats(1, 0, 0, 0)),
            (std::vector<uint8_t>{0, 0, 255, 0}));
  EXPECT_EQ(encodeBytes(VK_FORMAT_R8G8B8_UINT, uints(1, 2, 3)), (std::vector<uint8_t>{1, 2, 3}));
  // R16G16_SFLOAT: R is the 16-bit value in bytes 0..1 (host order).
  EXPECT_EQ(encodeBytes(VK_FORMAT_R16G16_SFLOAT, floats(1.0f, -2.0f)),
            (std::vector<uint8_t>{0x00, 0x3C, 0x00, 0xC0}));
  // R32G32B32_SFLOAT: B is the float in bytes 8..11.
  std::array<float, 3> rgb{1.5f, -2.0f, 3.25f};
  std::array<uint8_t, 12> bytes{};
  std::memcpy(bytes.data(), rgb.data(), 12);
  TexelValue v = decodeBytes(VK_FORMAT_R32G32B32_SFLOAT, bytes);
  EXPECT_EQ(v.f[0], 1.5f);
  EXPECT_EQ(v.f[1], -2.0f);
  EXPECT_EQ(v.f[2], 3.25f);
  EXPECT_EQ(v.f[3], 1.0f);
}

// Spec format definitions: R10X6_UNORM_PACK16 has "a single 10-bit R component in the top 10
// bits of a 16-bit word, with the bottom 6 bits unused"; R10X6G10X6_UNORM_2PACK16 has R "in the
// top 10 bits of the word in bytes 0..1" and G "in the top 10 bits of the word in bytes 2..3".
TEST(FormatDefinition, XPaddedComponentsUseTheTopBitsOfTheirWord) {
  EXPECT_EQ(decodeU16(VK_FORMAT_R10X6_UNORM_PACK16, 0xFFC0).f[0], 1.0f);
  EXPECT_FLOAT_EQ(decodeU16(VK_FORMAT_R10X6_UNORM_PACK16, 0x0040).f[0], 1.0f / 1023.0f);
  EXPECT_EQ(decodeU16(VK_FORMAT_R10X6_UNORM_PACK16, 0x003F).f[0], 0.0f);  // X bits ignored
  EXPECT_EQ(encodeU16(VK_FORMAT_R10X6_UNORM_PACK16, floats(1.0f)), 0xFFC0);
  EXPECT_EQ(encodeU16(VK_FORMAT_R12X4_UNORM_PACK16, floats(1.0f)), 0xFFF0);
  EXPECT_EQ(encodeU32(VK_FORMAT_R10X6G10X6_UNORM_2PACK16, floats(1.0f, 0.0f)), 0x0000FFC0u);
  EXPECT_EQ(encodeU32(VK_FORMAT_R10X6G10X6_UNORM_2PACK16, floats(0.0f, 1.0f)), 0xFFC00000u);
  auto rgba = encodeBytes(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16, floats(0, 0, 0, 1.0f));
  EXPECT_EQ(rgba, (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0xC0, 0xFF}));
  TexelValue v = decodeBytes(VK_FORMAT_R10X6G10X6B10X6A10X6_UNORM_4PACK16,
                             std::array<uint8_t, 8>{0, 0, 0x40, 0, 0, 0, 0, 0});
  EXPECT_FLOAT_EQ(v.f[1], 1.0f / 1023.0f);
  EXPECT_EQ(v.f[0], 0.0f);
}

// ---- Depth ---------------------------------------------------------------------------------

TEST(DepthConversions, UnormDepthPlanes) {
  const FormatInfo& d16 = fmt(VK_FORMAT_D16_UNORM);
  uint16_t w16 = 0xFFFF;
  EXPECT_EQ(decodeDepth(d16, &w16), 1.0f);
  encodeDepth(d16, 0.5f, &w16);
  EXPECT_EQ(w16, 0x8000);  // 32767.5 -> 32768
  encodeDepth(d16, 1.5f, &w16);
  EXPECT_EQ(w16, 0xFFFF);
  encodeDepth(d16, -0.5f, &w16);
  EXPECT_EQ(w16, 0);

  for (VkFormat f : {VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D24_UNORM_S8_UINT}) {
    const FormatInfo& d24 = fmt(f);
    uint32_t w = 0xDEADBEEF;
    encodeDepth(d24, 1.0f, &w);
    EXPECT_EQ(w, 0x00FFFFFFu);  // upper 8 bits written as 0
    encodeDepth(d24, 2.0f, &w);
    EXPECT_EQ(w, 0x00FFFFFFu);
    encodeDepth(d24, 0.0f, &w);
    EXPECT_EQ(w, 0u);
    w = 0xFF800000u;  // upper byte ignored on read
    EXPECT_FLOAT_EQ(decodeDepth(d24, &w), float(double(0x800000) / 16777215.0));
  }
  const FormatInfo& d16s8 = fmt(VK_FORMAT_D16_UNORM_S8_UINT);
  w16 = 0;
  encodeDepth(d16s8, 1.0f, &w16);
  EXPECT_EQ(w16, 0xFFFF);
}

TEST(DepthConversions, FloatDepthPlanes) {
  for (VkFormat f : {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT}) {
    float d = 0;
    encodeDepth(fmt(f), 0.25f, &d);
    EXPECT_EQ(d, 0.25f);
    EXPECT_EQ(decodeDepth(fmt(f), &d), 0.25f);
  }
}

// ---- Clear Values ----------------------------------------------------------------------------

TEST(ClearValues, FloatClearsAreConvertedSrgbAsLinear) {
  // "Floating-point values are automatically converted to the format of the image, with the
  // clear value being treated as linear if the image is sRGB."
  VkClearColorValue c{};
  c.float32[0] = 0.5f, c.float32[1] = 0.0f, c.float32[2] = 1.0f, c.float32[3] = 0.5f;
  std::array<uint8_t, 16> out{};
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R8G8B8A8_SRGB), c, out.data()), 4u);
  EXPECT_EQ(out[0], 188);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 255);
  EXPECT_EQ(out[3], 128);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R8G8B8A8_UNORM), c, out.data()), 4u);
  EXPECT_EQ(out[0], 128);
  c.float32[0] = 2.5f;
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R32G32B32A32_SFLOAT), c, out.data()), 16u);
  float f[4];
  std::memcpy(f, out.data(), 16);
  EXPECT_EQ(f[0], 2.5f);
  EXPECT_EQ(f[3], 0.5f);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_B10G11R11_UFLOAT_PACK32), c, out.data()), 4u);
}

TEST(ClearValues, IntegerClearsAreCastToTheComponentWidth) {
  // "Unsigned integer values are converted to the format of the image by casting to the integer
  // type with fewer bits." / "Signed integer values are converted ... by casting to the smaller
  // type (with negative 32-bit values mapping to negative values in the smaller type)."
  VkClearColorValue c{};
  c.uint32[0] = 300;
  std::array<uint8_t, 16> out{};
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R8_UINT), c, out.data()), 1u);
  EXPECT_EQ(out[0], 44);  // 300 & 0xFF
  c.int32[0] = -1, c.int32[1] = -2, c.int32[2] = 5, c.int32[3] = -128;
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R8G8B8A8_SINT), c, out.data()), 4u);
  EXPECT_EQ(out[0], 0xFF);
  EXPECT_EQ(out[1], 0xFE);
  EXPECT_EQ(out[2], 5);
  EXPECT_EQ(out[3], 0x80);
  c.int32[0] = -2;
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R16_SINT), c, out.data()), 2u);
  EXPECT_EQ(out[0], 0xFE);
  EXPECT_EQ(out[1], 0xFF);
  c.uint32[0] = 0xDEADBEEF;
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R32_UINT), c, out.data()), 4u);
  uint32_t w;
  std::memcpy(&w, out.data(), 4);
  EXPECT_EQ(w, 0xDEADBEEFu);
}

TEST(ClearValues, ScaledFormatsTakeIntegerClearValues) {
  // USCALED/SSCALED store integers: their clear values are given in .uint32/.int32 (the CTS's
  // image clearing tests classify them as integer formats and check the stored integers).
  VkClearColorValue c{};
  c.uint32[0] = 25, c.uint32[1] = 127, c.uint32[2] = 76, c.uint32[3] = 229;
  std::array<uint8_t, 16> out{};
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R8G8B8A8_USCALED), c, out.data()), 4u);
  EXPECT_EQ(out[0], 25);
  EXPECT_EQ(out[1], 127);
  EXPECT_EQ(out[2], 76);
  EXPECT_EQ(out[3], 229);
  c.int32[0] = -100, c.int32[1] = 32767;
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R16G16_SSCALED), c, out.data()), 4u);
  int16_t v[2];
  std::memcpy(v, out.data(), 4);
  EXPECT_EQ(v[0], -100);
  EXPECT_EQ(v[1], 32767);
}

TEST(ClearValues, SixtyFourBitComponentsTakeTwoElementsEach) {
  VkClearColorValue c{};
  c.uint32[0] = 0x11111111u, c.uint32[1] = 0x22222222u;
  c.uint32[2] = 0x33333333u, c.uint32[3] = 0x44444444u;
  std::array<uint8_t, 32> out{};
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R64_UINT), c, out.data()), 8u);
  uint64_t r, g;
  std::memcpy(&r, out.data(), 8);
  EXPECT_EQ(r, 0x2222222211111111ull);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R64G64_SINT), c, out.data()), 16u);
  std::memcpy(&g, out.data() + 8, 8);
  EXPECT_EQ(g, 0x4444444433333333ull);
  const double d = 1.5;
  std::memcpy(&c, &d, 8);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_R64_SFLOAT), c, out.data()), 8u);
  double back;
  std::memcpy(&back, out.data(), 8);
  EXPECT_EQ(back, 1.5);
}

TEST(ClearValues, UnsupportedFormatsWriteNothing) {
  VkClearColorValue c{};
  std::array<uint8_t, 16> out{};
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_BC1_RGBA_UNORM_BLOCK), c, out.data()), 0u);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_D16_UNORM), c, out.data()), 0u);
  EXPECT_EQ(encodeClearColor(fmt(VK_FORMAT_G8B8G8R8_422_UNORM), c, out.data()), 0u);
}

}  // namespace
}  // namespace tessera
