// vkCmdBlitImage arithmetic, the scalar reference implementation, written from the spec section
// "Image Copies With Scaling" (quoted where each step is implemented).
#include "tessera/blit.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <vector>

#include <immintrin.h>

#include "decoded_block.h"
#include "tessera/compressed.h"
#include "tessera/cpu_info.h"
#include "tessera/texel_codec.h"

namespace tessera {
namespace {

uint8_t* texelAddress(const SubresourceView& v, size_t texelSize, int32_t x, int32_t y, int32_t z,
                      uint32_t sample = 0) {
  return v.data + size_t(z) * v.slicePitch + size_t(y) * v.rowPitch +
         (size_t(x) * v.samples + sample) * texelSize;
}

// One axis of a blit region.
struct Axis {
  int32_t src0, src1, dst0, dst1;
  int32_t srcSize;  // extent of the source image along this axis

  // "For each destination texel, the integer coordinate of that texel is converted to an
  // unnormalized texture coordinate": u_base = i + 1/2; u_offset = u_base - x_dst0;
  // scale_u = (x_src1 - x_src0) / (x_dst1 - x_dst0); u_scaled = u_offset * scale_u;
  // u = u_scaled + x_src0. Evaluated as ((2i + 1 - 2 x_dst0) (x_src1 - x_src0)) / (2 (x_dst1 -
  // x_dst0)) + x_src0: the numerator and denominator are exact integers in double, so the
  // coordinate is correctly rounded and lands exactly on texel centres/edges where it should.
  double sourceCoord(int32_t i) const {
    const double num =
        double(2 * int64_t(i) + 1 - 2 * int64_t(dst0)) * double(int64_t(src1) - src0);
    const double den = 2.0 * double(int64_t(dst1) - dst0);
    return num / den + double(src0);
  }

  // "an address mode of VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE": clamp(i, 0, size - 1).
  int32_t clampToEdge(int64_t i) const {
    return int32_t(std::clamp<int64_t>(i, 0, int64_t(srcSize) - 1));
  }

  // NEAREST (spec "Texel Coordinate Systems", unnormalized to integer: i = floor(u)); for the
  // z axis "the single nearest slice, with an implementation-dependent arithmetic rounding mode"
  // is the same floor.
  int32_t nearest(int32_t i) const { return clampToEdge(int64_t(std::floor(sourceCoord(i)))); }

  // LINEAR (spec "Texel Filtering" / unnormalized to integer): i0 = floor(u - 1/2), i1 = i0 + 1,
  // alpha = frac(u - 1/2), both texels clamped to the edge.
  void linear(int32_t i, int32_t& i0, int32_t& i1, double& alpha) const {
    const double t = sourceCoord(i) - 0.5;
    const double fl = std::floor(t);
    alpha = t - fl;
    i0 = clampToEdge(int64_t(fl));
    i1 = clampToEdge(int64_t(fl) + 1);
  }
};

// The destination texels of one axis: [min(d0,d1), max(d0,d1)), clipped to the image.
bool dstRange(int32_t d0, int32_t d1, uint32_t size, int32_t& begin, int32_t& end) {
  begin = std::max(std::min(d0, d1), 0);
  end = std::min<int64_t>(std::max(d0, d1), size);
  return begin < end;
}

// Conversions between value kinds. Valid blits never mix kinds ("Integer formats can only be
// converted to other integer formats with the same signedness"); the mixed cases convert
// numerically so that invalid input still gives defined output.
TexelValue convertKind(const TexelValue& v, TexelKind from, TexelKind to) {
  if (from == to) return v;
  TexelValue out;
  for (int c = 0; c < 4; ++c) {
    if (to == TexelKind::Float) {
      out.f[c] = from == TexelKind::UInt ? float(v.u[c]) : float(v.i[c]);
    } else {
      double d;
      if (from == TexelKind::Float)
        d = std::isnan(v.f[c]) ? 0.0 : std::round(double(v.f[c]));
      else
        d = from == TexelKind::UInt ? double(v.u[c]) : double(v.i[c]);
      if (to == TexelKind::UInt)
        out.u[c] = uint32_t(std::clamp(d, 0.0, 4294967295.0));
      else
        out.i[c] = int32_t(std::clamp(d, -2147483648.0, 2147483647.0));
    }
  }
  return out;
}

void blitDepthStencil(const SubresourceView& src, const SubresourceView& dst, const Axis ax[3],
                      const int32_t begin[3], const int32_t end[3]) {
  // "No format conversion is supported between depth/stencil images. The formats must match."
  // and depth/stencil blits use NEAREST. The texel is copied as stored; a (invalid) mismatch of
  // depth formats goes through decodeDepth/encodeDepth.
  const size_t srcSize = aspectTexelSize(*src.format, src.aspect);
  const size_t dstSize = aspectTexelSize(*dst.format, dst.aspect);
  const bool copyBytes =
      src.aspect == VK_IMAGE_ASPECT_STENCIL_BIT || (src.format == dst.format && srcSize == dstSize);
  for (int32_t z = begin[2]; z < end[2]; ++z) {
    const int32_t k = ax[2].nearest(z);
    for (int32_t y = begin[1]; y < end[1]; ++y) {
      const int32_t j = ax[1].nearest(y);
      for (int32_t x = begin[0]; x < end[0]; ++x) {
        const int32_t i = ax[0].nearest(x);
        const uint8_t* s = texelAddress(src, srcSize, i, j, k);
        uint8_t* d = texelAddress(dst, dstSize, x, y, z);
        if (copyBytes)
          std::memcpy(d, s, std::min(srcSize, dstSize));
        else
          encodeDepth(*dst.format, decodeDepth(*src.format, s), d);
      }
    }
  }
}

// Decoded source texels of the generic path. Uncompressed formats go through the texel codec;
// block-compressed ones (ETC2/EAC: BLIT_SRC is mandatory for them) decode the block holding the
// texel, keeping the last block so a row of texels decodes each block once. A compressed
// level's extent counts texels while rowPitch/slicePitch step over rows of blocks
// (icd/image.cpp computeImageLayout).
class SourceTexels {
 public:
  explicit SourceTexels(const SubresourceView& v) : v_(v), texelSize_(aspectTexelSize(*v.format, v.aspect)) {}

  void read(int32_t i, int32_t j, int32_t k, TexelValue& out) {
    const FormatInfo& f = *v_.format;
    if (!f.isCompressed()) {
      decodeTexel(f, texelAddress(v_, texelSize_, i, j, k), out);
      return;
    }
    const uint32_t bx = uint32_t(i) / f.blockWidth, by = uint32_t(j) / f.blockHeight;
    const uint8_t* block = v_.data + size_t(k) * v_.slicePitch + size_t(by) * v_.rowPitch + size_t(bx) * f.blockSize;
    out = block_.texel(f, block, uint32_t(i) % f.blockWidth, uint32_t(j) % f.blockHeight);
  }

 private:
  const SubresourceView& v_;
  size_t texelSize_;
  DecodedBlock block_;
};

// The destination-to-source mapping of one destination x.
struct XMap {
  int32_t nearest, i0, i1;
  double alpha;
};

// Four 8-bit UNORM components, no sRGB (RGBA8, BGRA8, ABGR8 packed): the common case, blitted
// without the generic codec. NEAREST copies texels; 2D LINEAR runs in single precision on
// whole texels (blitUnorm8x4LinearRow); 3D LINEAR uses the generic path's arithmetic: the same decoded floats (taken from decodeTexel), the
// same double-precision weights and sums, and the same encoding (clamp, then round half to
// even, as encodeTexel's UNORM conversion).
bool isUnorm8x4(const FormatInfo& f) {
  if (f.blockSize != 4 || f.componentCount != 4 || f.isCompressed() || f.isDepthStencil()) return false;
  for (uint32_t c = 0; c < 4; ++c)
    if (f.components[c].bits != 8 || f.components[c].numeric != NumericFormat::UNorm) return false;
  return true;
}

uint8_t encodeUnorm8(float f) {
  const double clamped = std::isnan(f) ? 0.0 : std::clamp(double(f), 0.0, 1.0);
  // Round half to even, written out as texel_codec.cpp does (independent of MXCSR); r is in
  // [0, 255], so its parity is an integer test (fmod was a third of the blit's time).
  const double x = clamped * 255.0, r = std::floor(x + 0.5);
  const int ri = int(r);
  return uint8_t((r - x == 0.5 && (ri & 1)) ? ri - 1 : ri);
}

// One destination row of a 2D LINEAR RGBA8 blit: source rows row0 and row1 with weights wy0
// and wy1. In single precision on whole texels (four channels per vector op): the weighted sum
// of the raw bytes is the UNORM result times 255, so decode (/255) and encode (*255) cancel,
// and the rounding to nearest, ties to even, is the float trick (x + 2^23) - 2^23 (exact for
// 0 <= x < 2^22 in the default rounding mode). Weights keep 24 bits, far above the
// subTexelPrecisionBits the device reports: every result is a correct rounding of the exact
// filtered value, as the generic path's are, though at exact ties (weights of 1/2 and 1/4 on
// bytes make many) the two may round different ways (ImageCopiesWithScaling test). 3.7x faster
// than the double-precision row on bench image_blit.
using Float4 = float __attribute__((vector_size(16)));
using Int4 = int32_t __attribute__((vector_size(16)));

inline Float4 texelBytes(const uint8_t* p) {
  const Int4 i = {p[0], p[1], p[2], p[3]};
  return __builtin_convertvector(i, Float4);
}

void blitUnorm8x4LinearRow(const uint8_t* row0, const uint8_t* row1, double wy0, double wy1, const XMap* xmap,
                           int32_t count, uint8_t* out) {
  const float fy0 = float(wy0), fy1 = float(wy1);
  const Float4 zero = {0, 0, 0, 0}, top = {255, 255, 255, 255};
  const Float4 magic = {8388608.0f, 8388608.0f, 8388608.0f, 8388608.0f};  // 2^23
  for (int32_t n = 0; n < count; ++n, out += 4) {
    const XMap& m = xmap[n];
    const float fx1 = float(m.alpha), fx0 = 1.0f - fx1;
    Float4 sum = texelBytes(row0 + 4 * size_t(m.i0)) * (fx0 * fy0) + texelBytes(row0 + 4 * size_t(m.i1)) * (fx1 * fy0) +
                 texelBytes(row1 + 4 * size_t(m.i0)) * (fx0 * fy1) + texelBytes(row1 + 4 * size_t(m.i1)) * (fx1 * fy1);
    sum = sum < zero ? zero : sum;
    sum = sum > top ? top : sum;
    const Int4 r = __builtin_convertvector((sum + magic) - magic, Int4);
    out[0] = uint8_t(r[0]), out[1] = uint8_t(r[1]), out[2] = uint8_t(r[2]), out[3] = uint8_t(r[3]);
  }
}

void blitUnorm8x4(const SubresourceView& src, const SubresourceView& dst, const Axis ax[3], const int32_t begin[3],
                  const int32_t end[3], const XMap* xmap, bool linear) {
  static const auto table = [] {
    std::array<float, 256> t{};
    const FormatInfo* f = formatInfo(VK_FORMAT_R8G8B8A8_UNORM);
    for (uint32_t b = 0; b < 256; ++b) {
      const uint8_t texel[4] = {uint8_t(b), uint8_t(b), uint8_t(b), uint8_t(b)};
      TexelValue v;
      decodeTexel(*f, texel, v);
      t[b] = v.f[0];
    }
    return t;
  }();
  for (int32_t z = begin[2]; z < end[2]; ++z) {
    for (int32_t y = begin[1]; y < end[1]; ++y) {
      uint8_t* out = texelAddress(dst, 4, begin[0], y, z);
      if (!linear) {
        const int32_t j = ax[1].nearest(y), k = ax[2].nearest(z);
        for (int32_t x = begin[0]; x < end[0]; ++x, out += 4)
          std::memcpy(out, texelAddress(src, 4, xmap[x - begin[0]].nearest, j, k), 4);
        continue;
      }
      int32_t j[2], k[2];
      double b, g;
      ax[1].linear(y, j[0], j[1], b);
      ax[2].linear(z, k[0], k[1], g);
      const double wy[2] = {1.0 - b, b}, wz[2] = {1.0 - g, g};
      if (wz[0] == 1.0 && wz[1] == 0.0) {  // 2D (or a 3D blit landing exactly on a slice)
        blitUnorm8x4LinearRow(texelAddress(src, 4, 0, j[0], k[0]), texelAddress(src, 4, 0, j[1], k[0]), wy[0], wy[1],
                              xmap, end[0] - begin[0], out);
        continue;
      }
      // The (up to) four source rows this destination row reads, in the generic path's
      // (dz, dy) order; rows whose weight is 0 are left out (a 2D blit never reads slice k1).
      const uint8_t* rows[4];
      int rowCount = 0;
      int rowIndex[4][2];
      for (int dz = 0; dz < 2; ++dz)
        for (int dy = 0; dy < 2; ++dy) {
          if (wy[dy] == 0.0 || wz[dz] == 0.0) continue;
          rows[rowCount] = texelAddress(src, 4, 0, j[dy], k[dz]);
          rowIndex[rowCount][0] = dz, rowIndex[rowCount][1] = dy;
          ++rowCount;
        }
      for (int32_t x = begin[0]; x < end[0]; ++x, out += 4) {
        const XMap& m = xmap[x - begin[0]];
        const int32_t i[2] = {m.i0, m.i1};
        const double wx[2] = {1.0 - m.alpha, m.alpha};
        double sum[4] = {0, 0, 0, 0};
        for (int r = 0; r < rowCount; ++r) {
          const int dz = rowIndex[r][0], dy = rowIndex[r][1];
          for (int dx = 0; dx < 2; ++dx) {
            // Same product order as the generic path: bit-exact results.
            const double w = wx[dx] * wy[dy] * wz[dz];
            if (w == 0.0) continue;
            const uint8_t* t = rows[r] + size_t(i[dx]) * 4;
            for (int c = 0; c < 4; ++c) sum[c] += w * double(table[t[c]]);
          }
        }
        for (int c = 0; c < 4; ++c) out[c] = encodeUnorm8(float(sum[c]));
      }
    }
  }
}

// ---- Exact 2:1 LINEAR minification of 8-bit UNORM x4 (mip-level generation) -----------------
// When x maps exactly 2:1 (x_src1 - x_src0 = 2 (x_dst1 - x_dst0), neither mirrored), u - 1/2 =
// x_src0 + 2 (i - x_dst0) + 1/2 for every destination texel i: alpha = 1/2 on source texels
// i0 = x_src0 + 2 (i - x_dst0) and i0 + 1. A destination row whose v - 1/2 has fraction 1/2 (2:1
// in y) weighs source rows j0 and j1 by 1/2 each (clamped at the edge to j1 = j0: the same
// average); one with fraction 0 (1:1 in y, e.g. the 2x1 -> 1x1 tail of a mip chain) weighs row j0
// by 1, the same sum with j1 = j0. Either way each destination byte is s / 4 with s the sum of
// four source bytes (0..1020; the weights 1/4, 1/2 are exact), and its UNORM encoding ("clamped
// and then cast", round to nearest) is s / 4 rounded to nearest, ties to even, as the float row
// (blitUnorm8x4LinearRow) rounds it: with q = s >> 2, (s + 1 + (q & 1)) >> 2 (remainders 0, 1
// round down, 3 up, 2 is the tie and goes up exactly when q is odd; checked against the float
// rounding for every s by the QuarterSumRounding test). Integer sums of bytes, 8 or 4 texels per
// vector operation, no per-texel mapping: the float row spent ~90 instructions per destination
// texel moving single bytes between integer and vector registers (perf, bench image_blit).
// sRGB formats never come here (isUnorm8x4): they must be filtered in linear space.

inline uint8_t roundQuarter(uint32_t s) { return uint8_t((s + 1 + ((s >> 2) & 1)) >> 2); }

// n destination texels from source rows r0 and r1 (each at the first texel's i0), any alignment.
void halveRowScalar(const uint8_t* r0, const uint8_t* r1, int32_t n, uint8_t* out) {
  for (int32_t t = 0; t < n; ++t, r0 += 8, r1 += 8, out += 4)
    for (int c = 0; c < 4; ++c) out[c] = roundQuarter(uint32_t(r0[c]) + r0[c + 4] + r1[c] + r1[c + 4]);
}

// Destination rows are written with non-temporal stores when the region is large (the source
// read is far larger than any cache, so the destination would only evict it, and a streamed
// store skips the read-for-ownership of the destination line: 20% of the traffic of a 2:1
// minification). Small regions stay in the cache for whoever reads them next (the next mip level).
constexpr size_t kStreamingBlitBytes = size_t(4) << 20;

// The two source rows are two streams the hardware prefetcher follows, but asking 512 bytes
// ahead as well measured 5-10% faster on bench image_blit (a busy 2-core Zen 4 VM, 1 and 2
// threads; best of 5 processes each).
inline void prefetchAhead(const uint8_t* p0, const uint8_t* p1) {
  _mm_prefetch(reinterpret_cast<const char*>(p0 + 512), _MM_HINT_T0);
  _mm_prefetch(reinterpret_cast<const char*>(p1 + 512), _MM_HINT_T0);
}

inline __m128i roundQuarter16(__m128i s) {  // 16-bit lanes, roundQuarter
  const __m128i one = _mm_set1_epi16(1);
  const __m128i odd = _mm_and_si128(_mm_srli_epi16(s, 2), one);
  return _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(s, one), odd), 2);
}

// SSE2 (the x86-64 baseline): 4 destination texels per step from 32 bytes of each row.
void halveRowSse2(const uint8_t* r0, const uint8_t* r1, int32_t n, uint8_t* out, bool stream) {
  int32_t t = 0;
  if (stream)
    for (; t < n && (reinterpret_cast<uintptr_t>(out + 4 * size_t(t)) & 15); ++t)
      halveRowScalar(r0 + 8 * size_t(t), r1 + 8 * size_t(t), 1, out + 4 * size_t(t));
  const __m128i z = _mm_setzero_si128();
  for (; t + 4 <= n; t += 4) {
    const uint8_t* p0 = r0 + 8 * size_t(t);
    const uint8_t* p1 = r1 + 8 * size_t(t);
    prefetchAhead(p0, p1);
    const __m128i a0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p0));
    const __m128i a1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p0 + 16));
    const __m128i b0 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p1));
    const __m128i b1 = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p1 + 16));
    // Vertical sums, 16 bits per channel: texels (0, 1), (2, 3), (4, 5), (6, 7).
    const __m128i v01 = _mm_add_epi16(_mm_unpacklo_epi8(a0, z), _mm_unpacklo_epi8(b0, z));
    const __m128i v23 = _mm_add_epi16(_mm_unpackhi_epi8(a0, z), _mm_unpackhi_epi8(b0, z));
    const __m128i v45 = _mm_add_epi16(_mm_unpacklo_epi8(a1, z), _mm_unpacklo_epi8(b1, z));
    const __m128i v67 = _mm_add_epi16(_mm_unpackhi_epi8(a1, z), _mm_unpackhi_epi8(b1, z));
    // Horizontal pairs: destination texels (0, 1) and (2, 3).
    const __m128i d01 = _mm_add_epi16(_mm_unpacklo_epi64(v01, v23), _mm_unpackhi_epi64(v01, v23));
    const __m128i d23 = _mm_add_epi16(_mm_unpacklo_epi64(v45, v67), _mm_unpackhi_epi64(v45, v67));
    const __m128i r = _mm_packus_epi16(roundQuarter16(d01), roundQuarter16(d23));
    __m128i* o = reinterpret_cast<__m128i*>(out + 4 * size_t(t));
    if (stream)
      _mm_stream_si128(o, r);
    else
      _mm_storeu_si128(o, r);
  }
  halveRowScalar(r0 + 8 * size_t(t), r1 + 8 * size_t(t), n - t, out + 4 * size_t(t));
}

// AVX2: 8 destination texels per step from 64 bytes of each row. A byte shuffle puts channel c
// of texels 2k and 2k + 1 side by side, so one multiply-add by 1 (pmaddubsw) sums each pair.
__attribute__((target("avx2"))) inline __m256i pairSumsAvx2(const uint8_t* p, __m256i shuffle, __m256i ones) {
  return _mm256_maddubs_epi16(_mm256_shuffle_epi8(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)), shuffle),
                              ones);
}

__attribute__((target("avx2"))) inline __m256i roundQuarter16Avx2(__m256i s) {
  const __m256i one = _mm256_set1_epi16(1);
  const __m256i odd = _mm256_and_si256(_mm256_srli_epi16(s, 2), one);
  return _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(s, one), odd), 2);
}

__attribute__((target("avx2"))) void halveRowAvx2(const uint8_t* r0, const uint8_t* r1, int32_t n, uint8_t* out,
                                                  bool stream) {
  int32_t t = 0;
  if (stream)
    for (; t < n && (reinterpret_cast<uintptr_t>(out + 4 * size_t(t)) & 31); ++t)
      halveRowScalar(r0 + 8 * size_t(t), r1 + 8 * size_t(t), 1, out + 4 * size_t(t));
  const __m256i shuffle = _mm256_setr_epi8(0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15,  //
                                           0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9, 13, 10, 14, 11, 15);
  const __m256i ones = _mm256_set1_epi8(1);
  for (; t + 8 <= n; t += 8) {
    const uint8_t* p0 = r0 + 8 * size_t(t);
    const uint8_t* p1 = r1 + 8 * size_t(t);
    prefetchAhead(p0, p1);
    // 16-bit sums of destination texels (0, 1 | 2, 3) and (4, 5 | 6, 7) (128-bit lanes).
    const __m256i lo = _mm256_add_epi16(pairSumsAvx2(p0, shuffle, ones), pairSumsAvx2(p1, shuffle, ones));
    const __m256i hi = _mm256_add_epi16(pairSumsAvx2(p0 + 32, shuffle, ones), pairSumsAvx2(p1 + 32, shuffle, ones));
    // packus works per lane: (0, 1, 4, 5 | 2, 3, 6, 7); the permute restores 0..7.
    const __m256i r = _mm256_permute4x64_epi64(
        _mm256_packus_epi16(roundQuarter16Avx2(lo), roundQuarter16Avx2(hi)), _MM_SHUFFLE(3, 1, 2, 0));
    __m256i* o = reinterpret_cast<__m256i*>(out + 4 * size_t(t));
    if (stream)
      _mm256_stream_si256(o, r);
    else
      _mm256_storeu_si256(o, r);
  }
  halveRowScalar(r0 + 8 * size_t(t), r1 + 8 * size_t(t), n - t, out + 4 * size_t(t));
}

// The 2:1 path for a LINEAR blit between the same 8-bit UNORM x4 format, when every destination
// texel of this call fits it (see above); returns false, having written nothing, otherwise.
bool blitUnorm8x4Halve(const SubresourceView& src, const SubresourceView& dst, const Axis ax[3],
                       const int32_t begin[3], const int32_t end[3]) {
  const Axis& x = ax[0];
  if (x.src0 >= x.src1 || x.dst0 >= x.dst1 || int64_t(x.src1) - x.src0 != 2 * (int64_t(x.dst1) - x.dst0)) return false;
  const int64_t first = int64_t(x.src0) + 2 * (int64_t(begin[0]) - x.dst0);  // i0 of the first destination texel
  const int32_t n = end[0] - begin[0];
  if (first < 0 || first + 2 * int64_t(n) > x.srcSize) return false;  // would clamp: a region outside the image
  // Every row and slice must fit before anything is written: v - 1/2 with fraction 1/2 or 0, and
  // w - 1/2 on a slice (2D images, or 3D ones at 1:1 in z).
  int32_t j0, j1, k0, k1;
  double f;
  for (int32_t z = begin[2]; z < end[2]; ++z)
    if (ax[2].linear(z, k0, k1, f), f != 0.0) return false;
  for (int32_t y = begin[1]; y < end[1]; ++y)
    if (ax[1].linear(y, j0, j1, f), f != 0.5 && f != 0.0) return false;

  const bool avx2 = hostCpu().avx2 && kernelSimdWidth() >= 8;
  const size_t regionBytes = 4 * size_t(n) * size_t(std::abs(int64_t(ax[1].dst1) - ax[1].dst0)) * size_t(end[2] - begin[2]);
  const bool stream = regionBytes >= kStreamingBlitBytes;
  for (int32_t z = begin[2]; z < end[2]; ++z) {
    ax[2].linear(z, k0, k1, f);
    for (int32_t y = begin[1]; y < end[1]; ++y) {
      ax[1].linear(y, j0, j1, f);
      if (f == 0.0) j1 = j0;
      const uint8_t* r0 = texelAddress(src, 4, int32_t(first), j0, k0);
      const uint8_t* r1 = texelAddress(src, 4, int32_t(first), j1, k0);
      uint8_t* out = texelAddress(dst, 4, begin[0], y, z);
      if (avx2)
        halveRowAvx2(r0, r1, n, out, stream);
      else
        halveRowSse2(r0, r1, n, out, stream);
    }
  }
  if (stream) _mm_sfence();  // streamed stores are weakly ordered: visible before we return
  return true;
}

}  // namespace

void blitRegion(const SubresourceView& src, const SubresourceView& dst,
                const VkOffset3D srcOffsets[2], const VkOffset3D dstOffsets[2], VkFilter filter,
                int32_t rowBegin, int32_t rowEnd) {
  if (!src.data || !dst.data || !src.format || !dst.format) return;
  if (src.extent.width == 0 || src.extent.height == 0 || src.extent.depth == 0) return;
  const Axis ax[3] = {
      {srcOffsets[0].x, srcOffsets[1].x, dstOffsets[0].x, dstOffsets[1].x,
       int32_t(src.extent.width)},
      {srcOffsets[0].y, srcOffsets[1].y, dstOffsets[0].y, dstOffsets[1].y,
       int32_t(src.extent.height)},
      {srcOffsets[0].z, srcOffsets[1].z, dstOffsets[0].z, dstOffsets[1].z,
       int32_t(src.extent.depth)},
  };
  int32_t begin[3], end[3];
  if (!dstRange(dstOffsets[0].x, dstOffsets[1].x, dst.extent.width, begin[0], end[0]) ||
      !dstRange(dstOffsets[0].y, dstOffsets[1].y, dst.extent.height, begin[1], end[1]) ||
      !dstRange(dstOffsets[0].z, dstOffsets[1].z, dst.extent.depth, begin[2], end[2]))
    return;
  begin[1] = std::max(begin[1], rowBegin);
  end[1] = std::min(end[1], rowEnd);
  if (begin[1] >= end[1]) return;

  if (src.aspect != VK_IMAGE_ASPECT_COLOR_BIT || dst.aspect != VK_IMAGE_ASPECT_COLOR_BIT) {
    if (src.aspect == dst.aspect) blitDepthStencil(src, dst, ax, begin, end);
    return;
  }
  const bool srcReadable = hasColorCodec(*src.format) || hasBlockDecoder(*src.format);
  if (!srcReadable || !hasColorCodec(*dst.format)) return;

  const FormatInfo& sf = *src.format;
  const FormatInfo& df = *dst.format;
  const size_t dstTexel = aspectTexelSize(df, dst.aspect);
  const TexelKind srcKind = texelKind(sf);
  const TexelKind dstKind = texelKind(df);
  // LINEAR needs float values; integer formats do not support linear filtering, so a LINEAR
  // request on them is treated as NEAREST.
  const bool linear = filter == VK_FILTER_LINEAR && srcKind == TexelKind::Float;

  if (linear && &sf == &df && isUnorm8x4(sf) && blitUnorm8x4Halve(src, dst, ax, begin, end)) return;

  // The x mapping is the same on every row: work it out once (it is a division per texel).
  std::vector<XMap> xmap(size_t(end[0] - begin[0]));
  for (int32_t x = begin[0]; x < end[0]; ++x) {
    XMap& m = xmap[size_t(x - begin[0])];
    m.nearest = ax[0].nearest(x);
    ax[0].linear(x, m.i0, m.i1, m.alpha);
  }

  if (&sf == &df && isUnorm8x4(sf)) {
    blitUnorm8x4(src, dst, ax, begin, end, xmap.data(), linear);
    return;
  }

  SourceTexels source(src);
  for (int32_t z = begin[2]; z < end[2]; ++z) {
    for (int32_t y = begin[1]; y < end[1]; ++y) {
      for (int32_t x = begin[0]; x < end[0]; ++x) {
        TexelValue value;
        if (!linear) {
          source.read(xmap[size_t(x - begin[0])].nearest, ax[1].nearest(y), ax[2].nearest(z), value);
        } else {
          // "Format conversions on unorm, snorm, scaled and packed float formats of the copied
          // aspect of the image are performed by first converting the pixels to float values.
          // For sRGB source formats, nonlinear RGB values are converted to linear representation
          // prior to filtering." Then the weighted average of the 8 (3D) / 4 (2D) / 2 (1D)
          // texels (spec "Texel Filtering"); a texel whose weight is 0 is not read, so a 1:1
          // LINEAR blit is an exact copy and 2D images never look at a second slice.
          int32_t i[2], j[2], k[2];
          double wx[2], wy[2], wz[2];
          double a, b, g;
          const XMap& m = xmap[size_t(x - begin[0])];
          i[0] = m.i0, i[1] = m.i1, a = m.alpha;
          ax[1].linear(y, j[0], j[1], b);
          ax[2].linear(z, k[0], k[1], g);
          wx[0] = 1.0 - a, wx[1] = a;
          wy[0] = 1.0 - b, wy[1] = b;
          wz[0] = 1.0 - g, wz[1] = g;
          double sum[4] = {0, 0, 0, 0};
          for (int dz = 0; dz < 2; ++dz)
            for (int dy = 0; dy < 2; ++dy)
              for (int dx = 0; dx < 2; ++dx) {
                const double w = wx[dx] * wy[dy] * wz[dz];
                if (w == 0.0) continue;
                TexelValue t;
                source.read(i[dx], j[dy], k[dz], t);
                for (int c = 0; c < 4; ++c) sum[c] += w * double(t.f[c]);
              }
          for (int c = 0; c < 4; ++c) value.f[c] = float(sum[c]);
        }
        // "After filtering, the float values are first clamped and then cast to the destination
        // image format. In case of sRGB destination format, linear RGB values are converted to
        // nonlinear representation before writing the pixel to the image." / "Signed and
        // unsigned integers are converted by first clamping to the representable range of the
        // destination format, then casting the value." Both are encodeTexel's conversions.
        encodeTexel(df, convertKind(value, srcKind, dstKind), texelAddress(dst, dstTexel, x, y, z));
      }
    }
  }
}

}  // namespace tessera
