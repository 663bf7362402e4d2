// vkCmdResolveImage arithmetic, the scalar reference implementation (spec: "Resolving Multisample
// Images": "If the source format is a floating-point or normalized type, the sample values for
// each pixel are resolved in an implementation-dependent manner. If the source format is an
// integer type, a single sample's value is selected for each pixel.").
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "tessera/blit.h"
#include "tessera/cpu_info.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

// Formats of four 8-bit UNORM components, one per byte, that the average below handles inline.
bool bytewiseUnorm8(VkFormat f) { return f == VK_FORMAT_R8G8B8A8_UNORM || f == VK_FORMAT_B8G8R8A8_UNORM; }

// The texel codec's arithmetic for such bytes, without its per-component dispatch: decode as
// float(c / 255.0) (equal to float(c) / 255.0f), sum in double in sample order, divide, round
// to float, encode as "Conversion From Floating-Point to Normalized Fixed-Point" does (clamp,
// times 255 in double, round to nearest even). A render pass's 4x resolve of a full-HD
// attachment went through decodeTexel and encodeTexel for every sample (perf: msaa4_tris), then
// through this arithmetic one component at a time (callgrind: ~300 instructions a pixel, a
// quarter of msaa4_blend); the four components are now one vector. The same operations in the
// same order: the file is compiled without contraction into fused multiply-adds, so the
// round-to-even trick below rounds exactly once.
using Int4 = int32_t __attribute__((vector_size(16)));
using Float4 = float __attribute__((vector_size(16)));
using Double4 = double __attribute__((vector_size(32)));

// kSamples: the sample count when fixed at compile time (4, the common case, unrolled), else 0.
template <uint32_t kSamples>
__attribute__((always_inline)) inline void averageUnorm8Pixels(const uint8_t* s, uint32_t samples, uint8_t* d,
                                                               uint32_t count) {
  if (kSamples) samples = kSamples;
  constexpr double kRound = 4503599627370496.0;  // 2^52: adding and subtracting rounds to even
  const Double4 zero = {0, 0, 0, 0}, one = {1, 1, 1, 1};
  for (uint32_t x = 0; x < count; ++x, s += size_t(samples) * 4, d += 4) {
    Double4 sum = zero;
    for (uint32_t i = 0; i < samples; ++i) {
      const uint8_t* c = s + size_t(i) * 4;
      const Int4 bytes = {c[0], c[1], c[2], c[3]};
      sum += __builtin_convertvector(__builtin_convertvector(bytes, Float4) / 255.0f, Double4);
    }
    Double4 f = __builtin_convertvector(__builtin_convertvector(sum / double(samples), Float4), Double4);
    f = f > zero ? (f < one ? f : one) : zero;
    const Int4 out = __builtin_convertvector((f * 255.0 + kRound) - kRound, Int4);
    const uint32_t packed = uint32_t(out[0]) | uint32_t(out[1]) << 8 | uint32_t(out[2]) << 16 | uint32_t(out[3]) << 24;
    std::memcpy(d, &packed, 4);  // bytes in memory order on this little-endian target
  }
}

// The same for 4 samples with AVX-512, a pixel's 16 bytes as one vector, the samples summed
// pairwise ((s0 + s2) + (s1 + s3)) instead of in order. The sum is exact either way, so the
// order cannot change it: every term is a float in [0, 1] that is 0 or at least 1/255 > 2^-8, so
// a multiple of 2^-31, and four of them add up to less than 4 with at most 33 significant bits,
// which a double holds. float(c) / 255.0f without the division: q = c r, e = c - q 255 (exact,
// a fused multiply-add), q + e r with r = 1/255, the correctly rounded quotient for each of the
// 256 bytes (the JIT's direct colour writes decode the same way; MultisampleResolve.* compares
// this with the codec). Two pixels share each double vector after the sum and four share the
// final conversion to bytes. The rest is the scalar version's operations, each rounded once
// (intrinsics multiply and add separately); the conversion to integers rounds to nearest even
// by its embedded rounding mode, as adding and subtracting 2^52 does. A render pass's 4x resolve
// took ~10% of the demo scene's frame one pixel at a time with a division (GCC's vector code
// for the per-sample version converts bytes with scalar shifts and inserts, slower still).
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"))) inline __m512d pixelPairSums(const uint8_t* s) {
  const __m512 d = _mm512_set1_ps(255.0f), r = _mm512_set1_ps(1.0f / 255.0f);
  const __m512 c = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(s))));
  const __m512 q = _mm512_mul_ps(c, r);
  const __m512 f = _mm512_fmadd_ps(_mm512_fnmadd_ps(q, d, c), r, q);
  // Lanes 0-3: s0 + s2, lanes 4-7: s1 + s3.
  return _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(f)), _mm512_cvtps_pd(_mm512_extractf32x8_ps(f, 1)));
}

// Two pixels' pair sums -> their two averages as bytes, 8 int32 lanes (pixel a's, then b's).
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"))) inline __m256i averageTwoPixels(__m512d a, __m512d b) {
  const __m512d lows = _mm512_shuffle_f64x2(a, b, 0x44), highs = _mm512_shuffle_f64x2(a, b, 0xEE);
  const __m512d sum = _mm512_add_pd(lows, highs);  // (s0 + s2) + (s1 + s3), 4 components of a then of b
  __m512d v = _mm512_cvtps_pd(_mm512_cvtpd_ps(_mm512_mul_pd(sum, _mm512_set1_pd(0.25))));  // sum / 4, to float
  v = _mm512_min_pd(_mm512_max_pd(v, _mm512_setzero_pd()), _mm512_set1_pd(1.0));           // (no NaN here)
  v = _mm512_mul_pd(v, _mm512_set1_pd(255.0));
  return _mm512_cvt_roundpd_epi32(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}

__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"))) void averageUnorm8Row4Avx512(const uint8_t* s, uint8_t* d,
                                                                                          uint32_t count) {
  uint32_t x = 0;
  // A row of whole cache lines of the single-sample destination (a scene tile's row: 64 pixels,
  // 256 bytes) is written with non-temporal stores: nothing reads the resolved image soon, and
  // plain stores would first read every destination line from memory. The stores are fenced
  // before returning, so whoever is told next that the resolve is done sees them.
  const bool stream = count >= 16 && (reinterpret_cast<uintptr_t>(d) & 63) == 0;
  for (; x + 4 <= count; x += 4, s += 64, d += 16) {
    // Four pixels whose samples are all equal (every pixel inside a primitive) resolve to their
    // sample 0: the average of n copies of c / 255 is that float exactly, and 255 times it lies
    // within 255 x 2^-24 of c, so it rounds to c (MultisampleResolve.EqualSamplesResolveExactly).
    const __m512i pixels = _mm512_loadu_si512(s);
    if (_mm512_cmpeq_epi32_mask(pixels, _mm512_shuffle_epi32(pixels, _MM_PERM_AAAA)) == 0xFFFF) {
      const __m128i firsts =
          _mm512_castsi512_si128(_mm512_permutexvar_epi32(_mm512_setr_epi32(0, 4, 8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0), pixels));
      if (stream) _mm_stream_si128(reinterpret_cast<__m128i*>(d), firsts);
      else _mm_storeu_si128(reinterpret_cast<__m128i*>(d), firsts);
      continue;
    }
    const __m256i ab = averageTwoPixels(pixelPairSums(s), pixelPairSums(s + 16));
    const __m256i cd = averageTwoPixels(pixelPairSums(s + 32), pixelPairSums(s + 48));
    const __m512i all = _mm512_inserti64x4(_mm512_castsi256_si512(ab), cd, 1);
    if (stream) _mm_stream_si128(reinterpret_cast<__m128i*>(d), _mm512_cvtepi32_epi8(all));
    else _mm_storeu_si128(reinterpret_cast<__m128i*>(d), _mm512_cvtepi32_epi8(all));
  }
  if (stream) _mm_sfence();
  for (; x < count; ++x, s += 16, d += 4) {
    const __m512d sums = pixelPairSums(s);
    const __m128i bytes = _mm256_cvtepi32_epi8(averageTwoPixels(sums, sums));
    const uint32_t packed = uint32_t(_mm_cvtsi128_si32(bytes));
    std::memcpy(d, &packed, 4);
  }
}

__attribute__((target_clones("default", "arch=x86-64-v3"))) void averageUnorm8RowPortable(const uint8_t* s,
                                                                                          uint32_t samples,
                                                                                          uint8_t* d,
                                                                                          uint32_t count) {
  if (samples == 4)
    averageUnorm8Pixels<4>(s, samples, d, count);
  else
    averageUnorm8Pixels<0>(s, samples, d, count);
}

void averageUnorm8Row(const uint8_t* s, uint32_t samples, uint8_t* d, uint32_t count) {
  if (samples == 4 && hostCpu().avx512) return averageUnorm8Row4Avx512(s, d, count);
  averageUnorm8RowPortable(s, samples, d, count);
}

}  // namespace

void resolveRegion(const SubresourceView& src, const SubresourceView& dst, VkOffset3D srcOffset,
                   VkOffset3D dstOffset, VkExtent3D extent) {
  if (!src.data || !dst.data || !src.format || !dst.format) return;
  const FormatInfo& sf = *src.format;
  const size_t srcTexel = aspectTexelSize(sf, src.aspect);
  const size_t dstTexel = aspectTexelSize(*dst.format, dst.aspect);
  const uint32_t samples = std::max(src.samples, 1u);

  // Tessera's choice for float and normalized formats: the average of the samples, computed on
  // the decoded values (linear for sRGB), then encoded with the usual rounding. Integer formats,
  // depth and stencil take sample 0.
  const FormatInfo& df = *dst.format;
  const bool average = src.aspect == VK_IMAGE_ASPECT_COLOR_BIT &&
                       dst.aspect == VK_IMAGE_ASPECT_COLOR_BIT && hasColorCodec(sf) &&
                       hasColorCodec(df) && texelKind(sf) == TexelKind::Float &&
                       texelKind(df) == TexelKind::Float && (samples > 1 || &sf != &df);

  const bool inlineUnorm8 = average && &sf == &df && bytewiseUnorm8(sf.format) && std::max(dst.samples, 1u) == 1;

  // Clip the region to both images (invalid regions must not write outside memory).
  auto span = [](int32_t srcOff, int32_t dstOff, uint32_t count, uint32_t srcSize, uint32_t dstSize,
                 int32_t& first, int32_t& last) {
    first = std::max({0, -srcOff, -dstOff});
    last = int32_t(
        std::min<int64_t>({int64_t(count), int64_t(srcSize) - srcOff, int64_t(dstSize) - dstOff}));
    return first < last;
  };
  int32_t x0, x1, y0, y1, z0, z1;
  if (!span(srcOffset.x, dstOffset.x, extent.width, src.extent.width, dst.extent.width, x0, x1) ||
      !span(srcOffset.y, dstOffset.y, extent.height, src.extent.height, dst.extent.height, y0,
            y1) ||
      !span(srcOffset.z, dstOffset.z, extent.depth, src.extent.depth, dst.extent.depth, z0, z1))
    return;

  for (int32_t z = z0; z < z1; ++z) {
    for (int32_t y = y0; y < y1; ++y) {
      if (inlineUnorm8) {
        const uint8_t* s = src.data + size_t(z + srcOffset.z) * src.slicePitch +
                           size_t(y + srcOffset.y) * src.rowPitch + size_t(x0 + srcOffset.x) * samples * srcTexel;
        uint8_t* d = dst.data + size_t(z + dstOffset.z) * dst.slicePitch + size_t(y + dstOffset.y) * dst.rowPitch +
                     size_t(x0 + dstOffset.x) * dstTexel;
        averageUnorm8Row(s, samples, d, uint32_t(x1 - x0));
        continue;
      }
      for (int32_t x = x0; x < x1; ++x) {
        const uint8_t* s = src.data + size_t(z + srcOffset.z) * src.slicePitch +
                           size_t(y + srcOffset.y) * src.rowPitch +
                           size_t(x + srcOffset.x) * samples * srcTexel;
        uint8_t* d = dst.data + size_t(z + dstOffset.z) * dst.slicePitch +
                     size_t(y + dstOffset.y) * dst.rowPitch +
                     size_t(x + dstOffset.x) * std::max(dst.samples, 1u) * dstTexel;
        if (!average) {
          std::memcpy(d, s, std::min(srcTexel, dstTexel));  // sample 0
          continue;
        }
        double sum[4] = {0, 0, 0, 0};
        for (uint32_t i = 0; i < samples; ++i) {
          TexelValue t;
          decodeTexel(sf, s + size_t(i) * srcTexel, t);
          for (int c = 0; c < 4; ++c) sum[c] += double(t.f[c]);
        }
        TexelValue out;
        for (int c = 0; c < 4; ++c) out.f[c] = float(sum[c] / double(samples));
        encodeTexel(df, out, d);
      }
    }
  }
}

}  // namespace tessera
