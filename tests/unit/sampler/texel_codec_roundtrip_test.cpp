// Round-trip properties of texel_codec over every format it handles: encode(decode(bytes)) gives
// the bytes back (every pattern of the 8- and 16-bit formats, random patterns of the wider ones),
// except where the spec makes two encodings equivalent:
//  - SNORM's most negative value (-2^(b-1)) decodes to -1.0, which encodes as -(2^(b-1) - 1)
//    (spec "Conversion From Normalized Fixed-Point to Floating-Point");
//  - NaN only has to stay NaN (spec "Floating-Point Format Conversions");
//  - bits the format leaves unused (X padding) are undefined (spec "Copy Commands": formats with
//    an X component read and write undefined values in those bits);
//  - E5B9G9R9 has several encodings of one value (a larger exponent with smaller mantissas).
// In every case the decoded values survive, and a second round trip is the identity.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

bool sameValue(const FormatInfo& f, const TexelValue& a, const TexelValue& b, int c) {
  if (texelKind(f) != TexelKind::Float) return a.u[c] == b.u[c];
  if (std::isnan(a.f[c]) || std::isnan(b.f[c])) return std::isnan(a.f[c]) && std::isnan(b.f[c]);
  return a.f[c] == b.f[c];
}

uint32_t namedBits(const FormatInfo& f) {
  uint32_t n = 0;
  for (uint8_t i = 0; i < f.componentCount; ++i) n += f.components[i].bits;
  return n;
}

bool hasNumeric(const FormatInfo& f, NumericFormat n) {
  for (uint8_t i = 0; i < f.componentCount; ++i)
    if (f.components[i].numeric == n) return true;
  return false;
}

// For formats whose components fill the block (no X padding, not B10G11R11, whose layout the
// codec takes from the spec rather than the table): the raw value of component i, read from the
// little-endian bit string of the block at the table's bitOffset.
uint64_t rawComponent(const FormatInfo& f, const uint8_t* block, int i) {
  uint64_t v = 0;
  for (uint32_t k = 0; k < f.components[i].bits; ++k) {
    const uint32_t bit = f.components[i].bitOffset + k;
    v |= uint64_t((block[bit / 8] >> (bit % 8)) & 1) << k;
  }
  return v;
}

// True if this pattern's bytes may legitimately change in a round trip.
bool mayChange(const FormatInfo& f, const uint8_t* block, const TexelValue& decoded) {
  if (f.sharedExponent) return true;
  if (namedBits(f) < f.blockSize * 8u) return true;  // X padding
  if (texelKind(f) == TexelKind::Float)
    for (int c = 0; c < 4; ++c)
      if (std::isnan(decoded.f[c])) return true;
  if (f.format == VK_FORMAT_B10G11R11_UFLOAT_PACK32) return false;
  for (uint8_t i = 0; i < f.componentCount; ++i) {
    const FormatComponent& c = f.components[i];
    if (c.numeric == NumericFormat::SNorm &&
        rawComponent(f, block, i) == (uint64_t(1) << (c.bits - 1)))
      return true;
  }
  return false;
}

void checkPattern(const FormatInfo& f, const uint8_t* p) {
  TexelValue v, v2, v3;
  decodeTexel(f, p, v);
  std::vector<uint8_t> q(f.blockSize), r(f.blockSize);
  encodeTexel(f, v, q.data());
  decodeTexel(f, q.data(), v2);
  for (int c = 0; c < 4; ++c)
    ASSERT_TRUE(sameValue(f, v, v2, c))
        << f.name << " component " << c << " pattern "
        << ::testing::PrintToString(std::vector<uint8_t>(p, p + f.blockSize));
  if (!mayChange(f, p, v)) {
    ASSERT_EQ(0, std::memcmp(p, q.data(), f.blockSize))
        << f.name << " pattern "
        << ::testing::PrintToString(std::vector<uint8_t>(p, p + f.blockSize)) << " came back as "
        << ::testing::PrintToString(q);
  }
  // A second round trip is the identity, whatever the first one did.
  encodeTexel(f, v2, r.data());
  decodeTexel(f, r.data(), v3);
  ASSERT_EQ(q, r) << f.name;
}

// Spec "Format Conversion" / "Fixed-Point Data Conversions" / "Floating-Point Formats": decoding
// then encoding every pattern of every 8- and 16-bit color format gives the pattern back.
TEST(TexelCodecRoundTrip, EveryPatternOf8And16BitFormats) {
  int formats = 0;
  for (const FormatInfo& f : allFormats()) {
    if (!hasColorCodec(f) || f.blockSize > 2) continue;
    ++formats;
    const uint32_t patterns = 1u << (8 * f.blockSize);
    for (uint32_t p = 0; p < patterns; ++p) {
      uint8_t bytes[2] = {uint8_t(p), uint8_t(p >> 8)};
      checkPattern(f, bytes);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GE(formats, 33);  // 33 in core 1.3
}

TEST(TexelCodecRoundTrip, RandomPatternsOfWiderFormats) {
  std::mt19937 rng(20240611);
  int formats = 0;
  for (const FormatInfo& f : allFormats()) {
    if (!hasColorCodec(f) || f.blockSize <= 2) continue;
    ++formats;
    std::vector<uint8_t> bytes(f.blockSize);
    for (int n = 0; n < 4096; ++n) {
      for (auto& b : bytes) b = uint8_t(rng());
      if (n == 0) std::fill(bytes.begin(), bytes.end(), 0x00);
      if (n == 1) std::fill(bytes.begin(), bytes.end(), 0xFF);
      checkPattern(f, bytes.data());
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  EXPECT_GE(formats, 86);  // 86 in core 1.3
}

// The SNORM exception is exactly the most negative value: for R8G8_SNORM the patterns that change
// are those with a 0x80 byte (256 + 256 - 1 of them), and they change to 0x81.
TEST(TexelCodecRoundTrip, SnormMostNegativeBecomesMinusMax) {
  const FormatInfo& f = *formatInfo(VK_FORMAT_R8G8_SNORM);
  int changed = 0;
  for (uint32_t p = 0; p < 0x10000; ++p) {
    uint8_t in[2] = {uint8_t(p), uint8_t(p >> 8)}, out[2];
    TexelValue v;
    decodeTexel(f, in, v);
    encodeTexel(f, v, out);
    if (std::memcmp(in, out, 2) == 0) continue;
    ++changed;
    for (int k = 0; k < 2; ++k) EXPECT_EQ(out[k], in[k] == 0x80 ? 0x81 : in[k]);
  }
  EXPECT_EQ(changed, 511);
  EXPECT_TRUE(hasNumeric(f, NumericFormat::SNorm));
}

}  // namespace
}  // namespace tessera
