// vkCmdResolveImage arithmetic, the scalar reference implementation (spec: "Resolving Multisample
// Images": "If the source format is a floating-point or normalized type, the sample values for
// each pixel are resolved in an implementation-dependent manner. If the source format is an
// integer type, a single sample's value is selected for each pixel.").
#include <immintrin.h>

#include <algorithm>
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

// The same for 4 samples with AVX-512, a pixel's 16 bytes as one vector: one conversion and one
// division for all of them, the samples summed pairwise ((s0 + s2) + (s1 + s3)) instead of in
// order. The sum is exact either way, so the order cannot change it: every term is a float in
// [0, 1] that is 0 or at least 1/255 > 2^-8, so a multiple of 2^-31, and four of them add up to
// less than 4 with at most 33 significant bits, which a double holds. The rest is the scalar
// version's operations (no contraction: intrinsics multiply and add separately). A render
// pass's 4x resolve spent ~10% of the demo scene's frame in the per-sample version (GCC's
// vector code for it converts bytes with scalar shifts and inserts).
__attribute__((target("avx512f,avx512vl,avx512dq,avx512bw"))) void averageUnorm8Row4Avx512(const uint8_t* s, uint8_t* d,
                                                                                          uint32_t count) {
  const __m512 scale = _mm512_set1_ps(255.0f);
  const __m256d quarter = _mm256_set1_pd(0.25), zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
  const __m256d times = _mm256_set1_pd(255.0), round = _mm256_set1_pd(4503599627370496.0);  // 2^52
  for (uint32_t x = 0; x < count; ++x, s += 16, d += 4) {
    const __m128i texels = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s));
    const __m512 f = _mm512_div_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(texels)), scale);
    const __m512d pairs = _mm512_add_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(f)), _mm512_cvtps_pd(_mm512_extractf32x8_ps(f, 1)));
    const __m256d sum = _mm256_add_pd(_mm512_castpd512_pd256(pairs), _mm512_extractf64x4_pd(pairs, 1));
    __m256d v = _mm256_cvtps_pd(_mm256_cvtpd_ps(_mm256_mul_pd(sum, quarter)));  // sum / 4, rounded to float
    v = _mm256_min_pd(_mm256_max_pd(v, zero), one);  // (no NaN here)
    v = _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(v, times), round), round);
    const __m128i bytes = _mm_cvtepi32_epi8(_mm256_cvttpd_epi32(v));
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
