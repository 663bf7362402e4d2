// Texel decode/encode, the scalar reference implementation. Each conversion below quotes the
// specification section it implements; see texel_codec.h for the contract.
#include "tessera/texel_codec.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

namespace tessera {

// Packed formats are read "host-endian" (the spec defines packed components by their bit position
// in a 8/16/32-bit word held in host byte order), unpacked components by bytes in memory. On a
// little-endian host both are the same little-endian bit string starting at the block's first
// byte, which is what readBits/writeBits implement.
static_assert(std::endian::native == std::endian::little,
              "texel_codec assumes a little-endian host (packed words read host-endian)");

namespace {

// ----------------------------------------------------------------------------------------------
// Component layout

struct Field {
  uint8_t channel;  // 0..3 = R, G, B, A
  uint8_t bits;
  uint16_t pos;  // first bit, counted in the block's little-endian bit string
  NumericFormat numeric;
};

struct Layout {
  uint8_t count = 0;
  Field fields[4] = {};
};

int channelIndex(char name) {
  switch (name) {
    case 'R': return 0;
    case 'G': return 1;
    case 'B': return 2;
    case 'A': return 3;
    default: return -1;
  }
}

// Where each component of a format lives. Driven by the format table, with two corrections that
// the spec's format definitions require and that vk.xml (1.3.239) does not carry:
//  - VK_FORMAT_B10G11R11_UFLOAT_PACK32 "has a 10-bit B component in bits 22..31, an 11-bit G
//    component in bits 11..21, an 11-bit R component in bits 0..10" (vk.xml lists R with 10 bits).
//    It is one of the special encodings anyway, so its layout is spelled out here.
//  - The XnPACK16 formats (R10X6_UNORM_PACK16, R10X6G10X6_UNORM_2PACK16,
//    R10X6G10X6B10X6A10X6_UNORM_4PACK16, R12X4...): each component sits "in the top 10 (12) bits
//    of" its own 16-bit word, the X padding in the low bits. vk.xml gives no offsets and only
//    says packed="16"; a format whose block holds one packed word per component and whose
//    components do not fill those words is laid out that way (this is derived from blockSize,
//    packedBits and the component widths, not from the name, and agrees with a table that
//    already carries the right offsets).
Layout layoutOf(const FormatInfo& f) {
  Layout l;
  if (f.format == VK_FORMAT_B10G11R11_UFLOAT_PACK32) {
    l.count = 3;
    l.fields[0] = {0, 11, 0, NumericFormat::UFloat};
    l.fields[1] = {1, 11, 11, NumericFormat::UFloat};
    l.fields[2] = {2, 10, 22, NumericFormat::UFloat};
    return l;
  }
  const uint32_t blockBits = f.blockSize * 8u;
  uint32_t namedBits = 0;
  for (uint8_t i = 0; i < f.componentCount; ++i) namedBits += f.components[i].bits;
  const bool onePaddedWordPerComponent =
      f.packedBits != 0 && !f.sharedExponent && (f.aspects & VK_IMAGE_ASPECT_COLOR_BIT) &&
      namedBits < blockBits && blockBits / f.packedBits == f.componentCount;
  for (uint8_t i = 0; i < f.componentCount && i < 4; ++i) {
    const FormatComponent& c = f.components[i];
    Field& field = l.fields[l.count++];
    field.channel = static_cast<uint8_t>(std::max(channelIndex(c.name), 0));
    field.bits = c.bits;
    field.numeric = c.numeric;
    field.pos = onePaddedWordPerComponent
                    ? static_cast<uint16_t>(i * f.packedBits + (f.packedBits - c.bits))
                    : c.bitOffset;
  }
  return l;
}

}  // namespace

bool componentField(const FormatInfo& format, uint32_t channel, ComponentField* out) {
  if (!hasColorCodec(format)) return false;
  const Layout l = layoutOf(format);
  for (uint32_t i = 0; i < l.count; ++i)
    if (l.fields[i].channel == channel) {
      *out = {l.fields[i].pos, l.fields[i].bits, l.fields[i].numeric};
      return true;
    }
  return false;
}

namespace {

uint64_t readBits(const uint8_t* block, uint32_t pos, uint32_t bits) {
  const uint32_t first = pos / 8, last = (pos + bits - 1) / 8;
  uint64_t window = 0;
  for (uint32_t b = first; b <= last; ++b) window |= uint64_t(block[b]) << (8 * (b - first));
  const uint64_t mask = bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  return (window >> (pos % 8)) & mask;
}

void writeBits(uint8_t* block, uint32_t pos, uint32_t bits, uint64_t value) {
  // The bytes the field touches as one little-endian window, read, merged and written back
  // (every field of a colour format fits: at most 32 bits, so shift + bits <= 39); the bit loop
  // below only for wider fields. Image stores encode every texel through here.
  const uint32_t shift = pos % 8;
  if (bits + shift <= 64) {
    const uint32_t first = pos / 8, last = (pos + bits - 1) / 8;
    uint64_t window = 0;
    for (uint32_t b = first; b <= last; ++b) window |= uint64_t(block[b]) << (8 * (b - first));
    const uint64_t mask = (bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1) << shift;
    window = (window & ~mask) | ((value << shift) & mask);
    for (uint32_t b = first; b <= last; ++b) block[b] = uint8_t(window >> (8 * (b - first)));
    return;
  }
  for (uint32_t k = 0; k < bits; ++k) {
    const uint32_t bit = pos + k;
    const uint8_t m = uint8_t(1u << (bit % 8));
    if ((value >> k) & 1)
      block[bit / 8] |= m;
    else
      block[bit / 8] &= uint8_t(~m);
  }
}

int64_t signExtend(uint64_t raw, uint32_t bits) {
  const uint64_t signBit = uint64_t(1) << (bits - 1);
  return static_cast<int64_t>((raw ^ signBit) - signBit);
}

uint64_t maxUnsigned(uint32_t bits) { return (uint64_t(1) << bits) - 1; }
int64_t maxSigned(uint32_t bits) { return (int64_t(1) << (bits - 1)) - 1; }
int64_t minSigned(uint32_t bits) { return -(int64_t(1) << (bits - 1)); }

// Round to nearest, ties to even. Written out rather than relying on the FP environment's
// rounding mode (std::nearbyint) so the result does not depend on the caller's MXCSR.
double roundHalfEven(double x) {
  const double r = std::floor(x + 0.5);
  if (r - x == 0.5 && std::fmod(r, 2.0) != 0.0) return r - 1.0;
  return r;
}

// ----------------------------------------------------------------------------------------------
// Fixed-point conversions (spec: "Fixed-Point Data Conversions")

// "Conversion From Normalized Fixed-Point to Floating-Point": f = c / (2^b - 1).
float unormToFloat(uint64_t c, uint32_t bits) {
  return static_cast<float>(double(c) / double(maxUnsigned(bits)));
}

// f = max(c / (2^(b-1) - 1), -1.0); "one value (-128 in the example) is outside the representable
// range, and implementations must clamp it to -1.0".
float snormToFloat(int64_t c, uint32_t bits) {
  return static_cast<float>(std::max(double(c) / double(maxSigned(bits)), -1.0));
}

// "Conversion From Floating-Point to Normalized Fixed-Point": clamp f to [0,1], then
// c = convertFloatToUint(f * (2^b - 1), b); "Implementations should round to nearest" (we round
// half to even). f * (2^b - 1) is exact in double for b <= 24 (every UNORM component is).
// NaN: the spec does not say; 0.
uint64_t floatToUnorm(float f, uint32_t bits) {
  const double clamped = std::isnan(f) ? 0.0 : std::clamp(double(f), 0.0, 1.0);
  return static_cast<uint64_t>(roundHalfEven(clamped * double(maxUnsigned(bits))));
}

// Clamp f to [-1,1], then c = convertFloatToInt(f * (2^(b-1) - 1), b), rounded to nearest even.
int64_t floatToSnorm(float f, uint32_t bits) {
  const double clamped = std::isnan(f) ? 0.0 : std::clamp(double(f), -1.0, 1.0);
  return static_cast<int64_t>(roundHalfEven(clamped * double(maxSigned(bits))));
}

// USCALED/SSCALED hold integers that convert to float as plain values. The other direction
// (vkCmdBlitImage: "the float values are first clamped and then cast to the destination image
// format") clamps to the integer range and rounds to nearest even; NaN becomes 0.
uint64_t floatToUscaled(float f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  return static_cast<uint64_t>(
      roundHalfEven(std::clamp(double(f), 0.0, double(maxUnsigned(bits)))));
}
int64_t floatToSscaled(float f, uint32_t bits) {
  if (std::isnan(f)) return 0;
  return static_cast<int64_t>(
      roundHalfEven(std::clamp(double(f), double(minSigned(bits)), double(maxSigned(bits)))));
}

// ----------------------------------------------------------------------------------------------
// sRGB (spec "Format Conversion": "sRGB to linear conversion is applied to the R, G, and B
// components as described in the 'sRGB EOTF' section of the Khronos Data Format
// Specification. The A component, if present, is unchanged.")

}  // namespace

// KDFS sRGB EOTF: C = C'/12.92 for C' <= 0.04045, ((C' + 0.055)/1.055)^2.4 otherwise.
double srgbToLinear(double c) {
  return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

namespace {

// KDFS sRGB EOTF^-1 (the OETF): C' = 12.92 C for C <= 0.0031308, 1.055 C^(1/2.4) - 0.055 otherwise.
double linearToSrgb(double l) {
  return l <= 0.0031308 ? l * 12.92 : 1.055 * std::pow(l, 1.0 / 2.4) - 0.055;
}

// The b-bit sRGB encode of one colour component as the formula computes it: NaN 0, clamped to
// [0, 1], the OETF, clamped, times 2^b - 1, rounded half to even (encodeField's for any width;
// the 8-bit table below is built from it).
uint64_t srgbByFormula(float f, uint32_t bits) {
  const double l = std::isnan(f) ? 0.0 : std::clamp(double(f), 0.0, 1.0);
  const double s = std::clamp(linearToSrgb(l), 0.0, 1.0);
  return static_cast<uint64_t>(roundHalfEven(s * double(maxUnsigned(bits))));
}
uint8_t srgb8ByFormula(float f) { return uint8_t(srgbByFormula(f, 8)); }

// at[k - 1], k = 1..255: the smallest float in (0, 1] that srgb8ByFormula takes to k or above,
// found by bisection over the floats' bit patterns (non-negative floats order as their bits; the
// encode does not decrease with its argument: tests/unit/sampler/texel_codec_test.cpp checks the
// table against an independent evaluation of the formula). first[b]: the encode of the smallest
// float whose bits >> 16 are b, so that a float's encode is first[bits >> 16] plus the few
// steps inside its bucket (at most 2: a bucket is 2^-7 of its value wide).
struct Srgb8Table {
  float at[256];
  uint8_t first[0x3F80 + 1];
  Srgb8Table() {
    for (uint32_t k = 1; k <= 255; ++k) {
      uint32_t lo = 0, hi = 0x3F800000u;  // encode(lo) < k <= encode(hi) = 255
      while (hi - lo > 1) {
        const uint32_t mid = lo + (hi - lo) / 2;
        (srgb8ByFormula(std::bit_cast<float>(mid)) >= k ? hi : lo) = mid;
      }
      at[k - 1] = std::bit_cast<float>(hi);
    }
    at[255] = HUGE_VALF;  // stops the walk at 255
    for (uint32_t b = 0; b <= 0x3F80; ++b) first[b] = srgb8ByFormula(std::bit_cast<float>(b << 16));
  }
};
const Srgb8Table kSrgb8;  // built when the library loads (a quarter of a millisecond)

// ----------------------------------------------------------------------------------------------
// Small floats: 16-bit (1/5/10), unsigned 11-bit (0/5/6), unsigned 10-bit (0/5/5), as defined in
// the Khronos Data Format Specification and referenced by the spec's "16-Bit Floating-Point
// Numbers", "Unsigned 11-Bit Floating-Point Numbers", "Unsigned 10-Bit Floating-Point Numbers".
// Exponent bias 15 for all three; exponent 0 = zero/denormal, exponent 31 = Inf/NaN.

constexpr int kSmallFloatExpBits = 5;

float decodeSmallFloat(uint32_t raw, int mantBits, bool hasSign) {
  const int bias = (1 << (kSmallFloatExpBits - 1)) - 1;
  const uint32_t expMax = (1u << kSmallFloatExpBits) - 1;
  const uint32_t sign = hasSign ? (raw >> (kSmallFloatExpBits + mantBits)) & 1u : 0u;
  const uint32_t e = (raw >> mantBits) & expMax;
  const uint32_t m = raw & ((1u << mantBits) - 1);
  if (e == expMax) {
    // Inf, or NaN with its payload moved to the top of the float mantissa (stays a NaN since
    // m != 0, and comes back unchanged through encodeSmallFloat).
    return std::bit_cast<float>((sign << 31) | 0x7F800000u | (m << (23 - mantBits)));
  }
  double v = e == 0 ? std::ldexp(double(m), 1 - bias - mantBits)
                    : std::ldexp(double(m | (1u << mantBits)), int(e) - bias - mantBits);
  return static_cast<float>(sign ? -v : v);
}

// Round the integer m right by `shift` bits, to nearest, ties to even.
uint64_t shiftRoundHalfEven(uint64_t m, int shift) {
  if (shift <= 0) return m << -shift;
  if (shift >= 63) return 0;
  const uint64_t q = m >> shift;
  const uint64_t rem = m & ((uint64_t(1) << shift) - 1);
  const uint64_t half = uint64_t(1) << (shift - 1);
  return (rem > half || (rem == half && (q & 1))) ? q + 1 : q;
}

// Spec "Floating-Point Format Conversions": values between two representable ones are rounded to
// one or the other (we: nearest, ties to even, denormals produced); values too large become the
// largest finite value or infinity (we: infinity, as IEEE rounding does); "For unsigned
// destination formats any negative values are converted to zero. Positive infinity is converted
// to positive infinity; negative infinity is converted to negative infinity in signed formats and
// to zero in unsigned formats; and any NaN is converted to a NaN."
uint32_t encodeSmallFloat(float f, int mantBits, bool hasSign) {
  const int bias = (1 << (kSmallFloatExpBits - 1)) - 1;
  const uint32_t expMax = (1u << kSmallFloatExpBits) - 1;
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  const uint32_t sign = bits >> 31;
  const uint32_t fExp = (bits >> 23) & 0xFF;
  const uint32_t fMant = bits & 0x7FFFFF;
  const uint32_t signOut = hasSign ? sign << (kSmallFloatExpBits + mantBits) : 0u;
  const uint32_t infOut = expMax << mantBits;

  if (fExp == 0xFF && fMant != 0) {  // NaN: keep the top of the payload, never let it become 0
    uint32_t m = fMant >> (23 - mantBits);
    if (m == 0) m = 1u << (mantBits - 1);
    return signOut | infOut | m;
  }
  if (sign && !hasSign) return 0;             // negative (incl. -0, -Inf) -> 0
  if (fExp == 0xFF) return signOut | infOut;  // +-Inf
  if (fExp == 0) return signOut;              // zero or float denormal (< 2^-126): 0

  // |f| = mant24 * 2^(fExp - 127 - 23)
  const uint64_t mant24 = fMant | 0x800000u;
  const int e = int(fExp) - 127 + bias;  // biased exponent in the small format
  if (e >= 1) {
    uint64_t r = shiftRoundHalfEven(mant24, 23 - mantBits);  // in [2^m, 2^(m+1)]
    int eOut = e;
    if (r == (uint64_t(1) << (mantBits + 1))) {
      r >>= 1;
      ++eOut;
    }
    if (eOut >= int(expMax)) return signOut | infOut;  // overflow -> Inf
    return signOut | (uint32_t(eOut) << mantBits) | uint32_t(r & ((1u << mantBits) - 1));
  }
  // Denormal result: units of 2^(1 - bias - mantBits). Rounding up to 2^mantBits carries into the
  // exponent field, which is exactly the smallest normal number's encoding.
  const int shift = (23 - mantBits) + (1 - e);
  return signOut | uint32_t(shiftRoundHalfEven(mant24, shift));
}

// ----------------------------------------------------------------------------------------------
// Shared exponent (spec "Shared Exponent to RGB" and "RGB to Shared Exponent Conversion"),
// E5B9G9R9: R in bits 0..8, G in 9..17, B in 18..26, exponent in 27..31. N = 9, B = 15, Emax = 31.

constexpr int kSeN = 9, kSeB = 15, kSeEmax = 31;

void decodeSharedExponent(uint32_t word, TexelValue& out) {
  const int exp = int(word >> 27);
  for (int c = 0; c < 3; ++c) {
    const uint32_t m = (word >> (9 * c)) & 0x1FF;
    // red = red_shared * 2^(exp_shared - B - N)
    out.f[c] = static_cast<float>(std::ldexp(double(m), exp - kSeB - kSeN));
  }
}

uint32_t encodeSharedExponent(const float rgb[3]) {
  // sharedexp_max = (2^N - 1) / 2^N * 2^(Emax - B)
  const double sharedexpMax =
      double((1 << kSeN) - 1) / double(1 << kSeN) * std::ldexp(1.0, kSeEmax - kSeB);
  double clamped[3];
  for (int c = 0; c < 3; ++c) {
    // max(0, min(sharedexp_max, x)) with minNum/maxNum semantics: NaN -> 0.
    const double x = rgb[c];
    clamped[c] = !(x > 0.0) ? 0.0 : std::min(sharedexpMax, x);
  }
  const double maxClamped = std::max({clamped[0], clamped[1], clamped[2]});
  // exp' = max(-B - 1, floor(log2(max_clamped))) + 1 + B; floor(log2(x)) taken exactly via frexp.
  int floorLog2 = -kSeB - 1;
  if (maxClamped > 0.0) {
    int e2;
    std::frexp(maxClamped, &e2);  // maxClamped = m * 2^e2, m in [0.5, 1)
    floorLog2 = std::max(-kSeB - 1, e2 - 1);
  }
  const int expPrime = floorLog2 + 1 + kSeB;
  // max_shared = floor(max_clamped / 2^(exp' - B - N) + 1/2)
  const double maxShared = std::floor(std::ldexp(maxClamped, -(expPrime - kSeB - kSeN)) + 0.5);
  // exp_shared = exp' if 0 <= max_shared < 2^N, exp' + 1 if max_shared = 2^N
  const int expShared = maxShared < double(1 << kSeN) ? expPrime : expPrime + 1;
  uint32_t word = uint32_t(expShared) << 27;
  for (int c = 0; c < 3; ++c) {
    // red_shared = floor(red_clamped / 2^(exp_shared - B - N) + 1/2)
    const double s = std::floor(std::ldexp(clamped[c], -(expShared - kSeB - kSeN)) + 0.5);
    word |= (uint32_t(s) & 0x1FF) << (9 * c);
  }
  return word;
}

// ----------------------------------------------------------------------------------------------
// One component

void decodeField(const Field& fd, uint64_t raw, TexelValue& out) {
  const uint32_t b = fd.bits;
  switch (fd.numeric) {
    case NumericFormat::UNorm: out.f[fd.channel] = unormToFloat(raw, b); break;
    case NumericFormat::SNorm: out.f[fd.channel] = snormToFloat(signExtend(raw, b), b); break;
    case NumericFormat::UScaled: out.f[fd.channel] = static_cast<float>(raw); break;
    case NumericFormat::SScaled: out.f[fd.channel] = static_cast<float>(signExtend(raw, b)); break;
    case NumericFormat::UInt: out.u[fd.channel] = static_cast<uint32_t>(raw); break;
    case NumericFormat::SInt: out.i[fd.channel] = static_cast<int32_t>(signExtend(raw, b)); break;
    case NumericFormat::Srgb:
      // "the color components are first converted as if they are UNORM, and then sRGB to linear
      // conversion is applied to the R, G, and B components"
      if (fd.channel < 3)
        out.f[fd.channel] = static_cast<float>(srgbToLinear(double(raw) / double(maxUnsigned(b))));
      else
        out.f[fd.channel] = unormToFloat(raw, b);
      break;
    case NumericFormat::UFloat:
      out.f[fd.channel] = decodeSmallFloat(uint32_t(raw), b == 11 ? 6 : 5, false);
      break;
    case NumericFormat::SFloat:
      out.f[fd.channel] =
          b == 16 ? decodeSmallFloat(uint32_t(raw), 10, true) : std::bit_cast<float>(uint32_t(raw));
      break;
    case NumericFormat::None: break;
  }
}

uint64_t encodeField(const Field& fd, const TexelValue& v, bool clampIntegers) {
  const uint32_t b = fd.bits;
  const float f = v.f[fd.channel];
  switch (fd.numeric) {
    case NumericFormat::UNorm: return floatToUnorm(f, b);
    case NumericFormat::SNorm: return static_cast<uint64_t>(floatToSnorm(f, b)) & maxUnsigned(b);
    case NumericFormat::UScaled: return floatToUscaled(f, b);
    case NumericFormat::SScaled:
      return static_cast<uint64_t>(floatToSscaled(f, b)) & maxUnsigned(b);
    case NumericFormat::UInt: {
      const uint64_t u = v.u[fd.channel];
      return (clampIntegers ? std::min<uint64_t>(u, maxUnsigned(b)) : u) & maxUnsigned(b);
    }
    case NumericFormat::SInt: {
      const int64_t i = v.i[fd.channel];
      const int64_t c = clampIntegers ? std::clamp(i, minSigned(b), maxSigned(b)) : i;
      return static_cast<uint64_t>(c) & maxUnsigned(b);
    }
    case NumericFormat::Srgb: {
      if (fd.channel == 3) return floatToUnorm(f, b);
      // Linear -> sRGB on the clamped value, then the UNORM conversion (8 bits: by the table).
      return b == 8 ? linearToSrgb8(f) : srgbByFormula(f, b);
    }
    case NumericFormat::UFloat: return encodeSmallFloat(f, b == 11 ? 6 : 5, false);
    case NumericFormat::SFloat:
      return b == 16 ? encodeSmallFloat(f, 10, true) : std::bit_cast<uint32_t>(f);
    case NumericFormat::None: return 0;
  }
  return 0;
}

void initMissing(const FormatInfo& format, TexelValue& out) {
  // "Conversion to RGBA": missing components are (0, 0, 0, one), one = 1.0f for float formats and
  // 1 for integer formats.
  if (texelKind(format) == TexelKind::Float) {
    out.f[0] = out.f[1] = out.f[2] = 0.0f;
    out.f[3] = 1.0f;
  } else {
    out.u[0] = out.u[1] = out.u[2] = 0;
    out.u[3] = 1;
  }
}

void encodeImpl(const FormatInfo& format, const TexelValue& value, void* dst, bool clampIntegers) {
  if (!hasColorCodec(format)) return;
  auto* bytes = static_cast<uint8_t*>(dst);
  std::memset(bytes, 0, format.blockSize);  // unused (X) bits are written as 0
  if (format.sharedExponent) {
    const uint32_t word = encodeSharedExponent(value.f);
    std::memcpy(bytes, &word, 4);
    return;
  }
  const Layout l = layoutOf(format);
  for (uint8_t k = 0; k < l.count; ++k)
    writeBits(bytes, l.fields[k].pos, l.fields[k].bits,
              encodeField(l.fields[k], value, clampIntegers));
}

}  // namespace

TexelKind texelKind(const FormatInfo& format) {
  if (format.componentCount == 0) return TexelKind::Float;
  switch (format.components[0].numeric) {
    case NumericFormat::UInt: return TexelKind::UInt;
    case NumericFormat::SInt: return TexelKind::SInt;
    default: return TexelKind::Float;
  }
}

bool hasColorCodec(const FormatInfo& format) {
  if (format.aspects != VK_IMAGE_ASPECT_COLOR_BIT) return false;
  if (format.isCompressed() || format.planeCount != 1) return false;
  if (format.blockWidth != 1 || format.blockHeight != 1 || format.blockDepth != 1) return false;
  if (format.componentCount == 0 || format.componentCount > 4) return false;
  for (uint8_t i = 0; i < format.componentCount; ++i) {
    const FormatComponent& c = format.components[i];
    if (c.bits == 0 || c.bits > 32 || c.numeric == NumericFormat::None) return false;
    if (channelIndex(c.name) < 0) return false;
  }
  return true;
}

void decodeTexel(const FormatInfo& format, const void* src, TexelValue& out) {
  initMissing(format, out);
  if (!hasColorCodec(format)) return;
  const auto* bytes = static_cast<const uint8_t*>(src);
  if (format.sharedExponent) {
    uint32_t word;
    std::memcpy(&word, bytes, 4);
    decodeSharedExponent(word, out);
    return;
  }
  const Layout l = layoutOf(format);
  for (uint8_t k = 0; k < l.count; ++k)
    decodeField(l.fields[k], readBits(bytes, l.fields[k].pos, l.fields[k].bits), out);
}

void encodeTexel(const FormatInfo& format, const TexelValue& value, void* dst) {
  encodeImpl(format, value, dst, /*clampIntegers=*/true);
}

float decodeDepth(const FormatInfo& format, const void* src) {
  const FormatComponent* d = format.component('D');
  if (!d) return 0.0f;
  if (d->numeric == NumericFormat::SFloat) {
    float v;
    std::memcpy(&v, src, 4);
    return v;
  }
  if (d->bits == 16) {
    uint16_t v;
    std::memcpy(&v, src, 2);
    return unormToFloat(v, 16);
  }
  uint32_t w;
  std::memcpy(&w, src, 4);
  return unormToFloat(w & 0xFFFFFFu, 24);
}

void encodeDepth(const FormatInfo& format, float depth, void* dst) {
  const FormatComponent* d = format.component('D');
  if (!d) return;
  if (d->numeric == NumericFormat::SFloat) {
    std::memcpy(dst, &depth, 4);
    return;
  }
  if (d->bits == 16) {
    const uint16_t v = static_cast<uint16_t>(floatToUnorm(depth, 16));
    std::memcpy(dst, &v, 2);
    return;
  }
  const uint32_t w = static_cast<uint32_t>(floatToUnorm(depth, 24));  // upper 8 bits 0
  std::memcpy(dst, &w, 4);
}

uint32_t encodeClearColor(const FormatInfo& format, const VkClearColorValue& value, uint8_t* out) {
  // Formats with 64-bit components: "the first 2 array elements of each of the arrays above are
  // reinterpreted as a single 64-bit element for the R component. The second 2 array elements
  // are used in the same way for the G component." Components are taken by position (these
  // formats are all R[G[B[A]]] in memory order; vk.xml 1.3.239 names R64G64's second component
  // "B").
  if (format.aspects == VK_IMAGE_ASPECT_COLOR_BIT && !format.isCompressed() &&
      format.planeCount == 1 && format.componentCount > 0 && format.components[0].bits == 64) {
    std::memset(out, 0, format.blockSize);
    for (uint8_t i = 0; i < format.componentCount && i < 2; ++i) {
      uint64_t v;
      std::memcpy(&v, &value.uint32[2 * i], 8);
      std::memcpy(out + 8 * i, &v, 8);
    }
    return format.blockSize;
  }
  if (!hasColorCodec(format)) return 0;
  TexelValue v;
  std::memcpy(&v, &value, sizeof v);  // float32/int32/uint32 share the layout of TexelValue
  // USCALED/SSCALED components hold integers: their clear values come as .uint32/.int32, as
  // for UINT/SINT (what the CTS's image clearing tests pass and check, channel class
  // "integer"), and are stored as those integers.
  for (uint8_t c = 0; c < format.componentCount; ++c) {
    const FormatComponent& fc = format.components[c];
    const int ch = channelIndex(fc.name);
    if (ch < 0) continue;
    if (fc.numeric == NumericFormat::UScaled) v.f[ch] = static_cast<float>(value.uint32[ch]);
    if (fc.numeric == NumericFormat::SScaled) v.f[ch] = static_cast<float>(value.int32[ch]);
  }
  encodeImpl(format, v, out, /*clampIntegers=*/false);
  return format.blockSize;
}

uint8_t linearToSrgb8(float f) {
  if (!(f > 0.0f)) return 0;  // NaN, zero and negatives: 0, as the formula gives
  if (!(f < 1.0f)) return 255;
  const uint32_t bits = std::bit_cast<uint32_t>(f);
  uint32_t k = kSrgb8.first[bits >> 16];
  while (kSrgb8.at[k] <= f) ++k;
  return uint8_t(k);
}

}  // namespace tessera
