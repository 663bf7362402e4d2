// The batched sampling routines (sampling_batch.h) against the reference (sampleImage), lane by
// lane, bit for bit (the fixed-point RGBA8/BGRA8/R8/RG8 UNORM routines: against the spec's formulas
// with their snapped weights, see snappedUnorm8, and within the snapping's bound of the
// reference): randomized coordinates (inside [0,1], far outside it, on texel edges,
// NaN and ±Inf), random texels (for float formats: NaN, ±Inf and subnormals too), LOD operands (Lod, gradients shared by a quad or not, bias, MinLod), offsets,
// array layers, over every format x filter x mipmap mode x address mode the routines take, at
// W = 4, 8 and 16 with random active lanes, on images whose sizes are not powers of two. The
// reference is the oracle: it is the spec's "Image Operations" chapter step by step
// (reference_sampler_test.cpp checks it against hand-computed values), and the routines must
// give exactly its numbers wherever they run.
#include "tessera/sampling_batch.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "batch_lanes.h"
#include "block_decoders.h"
#include "sampler_internal.h"
#include "tessera/format.h"
#include "sampling_test_view.h"

namespace tessera {
namespace {

using test::SamplingTestView;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

abi::SamplerState makeSampler(VkFilter mag, VkFilter min, VkSamplerMipmapMode mip, VkSamplerAddressMode u,
                              VkSamplerAddressMode v, float bias = 0, float minLod = 0, float maxLod = VK_LOD_CLAMP_NONE,
                              float maxAnisotropy = 0) {
  VkSamplerCreateInfo info{VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO};
  info.magFilter = mag;
  info.minFilter = min;
  info.mipmapMode = mip;
  info.addressModeU = u;
  info.addressModeV = v;
  info.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER;  // not read for 2D views
  info.mipLodBias = bias;
  info.minLod = minLod;
  info.maxLod = maxLod;
  info.borderColor = VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE;
  info.anisotropyEnable = maxAnisotropy > 0;
  info.maxAnisotropy = maxAnisotropy;
  return makeSamplerState(info, VK_SAMPLER_REDUCTION_MODE_WEIGHTED_AVERAGE, 16.0f, 16.0f);
}

// A view with random texels whose fastSampling code is filled as an image view's is.
struct RandomView {
  SamplingTestView view;
  RandomView(VkFormat format, VkImageViewType type, uint32_t width, uint32_t height, uint32_t layers,
             uint32_t levels, std::mt19937& rng)
      : view(format, type, width, height, 1, layers, levels,
             formatInfo(format)->component('D') ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT) {
    for (uint32_t l = 0; l < levels; ++l)
      view.forEachTexel(l, [&](uint8_t* p, uint32_t, uint32_t, uint32_t, uint32_t) {
        for (uint32_t c = 0; c < view.state.texelSize; ++c) p[c] = uint8_t(rng());
      });
    view.state.fastSampling = classifyViewForRoutines(view.state);
  }
};

// Operands of one batch, structure of arrays, and the same lanes as SampleRequests.
struct Batch {
  uint32_t width = 0, active = 0;
  std::vector<float> s, t, layer, lod, dx0, dx1, dy0, dy1, bias, minLod;
  std::vector<int32_t> off0, off1;
  bool hasLayer = false, hasLod = false, hasGrad = false, hasBias = false, hasMinLod = false, hasOffset = false;

  SampleLanes lanes() const {
    SampleLanes l;
    l.width = width;
    l.active = active;
    l.s = s.data(), l.t = t.data();
    if (hasLayer) l.layer = layer.data();
    if (hasLod) l.lod = lod.data();
    else if (hasGrad) l.dPdx[0] = dx0.data(), l.dPdx[1] = dx1.data(), l.dPdy[0] = dy0.data(), l.dPdy[1] = dy1.data();
    if (hasBias) l.bias = bias.data();
    if (hasMinLod) l.minLod = minLod.data();
    if (hasOffset) l.offset[0] = off0.data(), l.offset[1] = off1.data();
    return l;
  }
  SampleRequest request(uint32_t k) const {
    SampleRequest r;
    r.s = s[k], r.t = t[k];
    if (hasLayer) r.layer = layer[k];
    r.hasLod = hasLod;
    if (hasLod) r.lod = lod[k];
    r.hasGrad = hasGrad;
    if (hasGrad) r.dPdx[0] = dx0[k], r.dPdx[1] = dx1[k], r.dPdy[0] = dy0[k], r.dPdy[1] = dy1[k];
    if (hasBias) r.bias = bias[k];
    r.hasMinLod = hasMinLod;
    if (hasMinLod) r.minLod = minLod[k];
    if (hasOffset) r.offset[0] = off0[k], r.offset[1] = off1[k];
    return r;
  }
};

class Generator {
 public:
  explicit Generator(uint32_t seed) : rng_(seed) {}
  std::mt19937& rng() { return rng_; }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  uint32_t below(uint32_t n) { return rng_() % n; }

  // A coordinate of every kind the routines must agree on.
  float coordinate(uint32_t size) {
    switch (below(12)) {
      case 0: return kNaN;
      case 1: return below(2) ? kInf : -kInf;
      case 2: return uniform(-1e4f, 1e4f);                        // far outside [0,1]
      case 3: return below(2) ? 3e9f : -3e9f;                     // beyond the ±2^30 clamp
      case 4: return float(int(below(4 * size)) - int(size)) / float(size);  // texel edges
      case 5: return (float(int(below(4 * size)) - int(size)) + 0.5f) / float(size);  // centres
      case 6: return uniform(-3.0f, 3.0f);
      default: return uniform(-0.1f, 1.1f);
    }
  }
  float lod() {
    switch (below(10)) {
      case 0: return kNaN;
      case 1: return below(2) ? kInf : -kInf;
      case 2: return float(int(below(16)) - 4) * 0.5f;  // level boundaries and ties
      default: return uniform(-3.0f, 9.0f);
    }
  }
  float gradient() {
    switch (below(14)) {
      case 0: return 0.0f;
      case 1: return kNaN;
      case 2: return kInf;
      case 3: return -0.0f;
      default: return uniform(-1.0f, 1.0f) * std::ldexp(1.0f, int(below(12)) - 10);
    }
  }

  Batch batch(uint32_t width, bool arrayed) {
    Batch b;
    b.width = width;
    b.active = rng_() & ((1u << width) - 1);
    if (below(4) == 0) b.active = (1u << width) - 1;
    const uint32_t lodKind = below(4);  // Lod, Grad, quad-shared Grad, none
    b.hasLod = lodKind == 0;
    b.hasGrad = lodKind == 1 || lodKind == 2;
    b.hasLayer = arrayed;
    b.hasBias = below(2);
    b.hasMinLod = below(3) == 0;
    b.hasOffset = below(2);
    auto sized = [&](std::vector<float>& v) { v.assign(width, 0.0f); };
    sized(b.s), sized(b.t), sized(b.layer), sized(b.lod), sized(b.dx0), sized(b.dx1), sized(b.dy0), sized(b.dy1);
    sized(b.bias), sized(b.minLod);
    b.off0.assign(width, 0), b.off1.assign(width, 0);
    const uint32_t size = 5 + below(60);
    for (uint32_t k = 0; k < width; ++k) {
      b.s[k] = coordinate(size);
      b.t[k] = coordinate(size);
      b.layer[k] = below(8) == 0 ? kNaN : uniform(-2.0f, 5.0f);
      b.lod[k] = lod();
      if (lodKind == 2 && (k & 3)) {
        // The quad's lanes share their derivatives (as coarse derivatives give).
        b.dx0[k] = b.dx0[k & ~3u], b.dx1[k] = b.dx1[k & ~3u], b.dy0[k] = b.dy0[k & ~3u], b.dy1[k] = b.dy1[k & ~3u];
      } else {
        b.dx0[k] = gradient(), b.dx1[k] = gradient(), b.dy0[k] = gradient(), b.dy1[k] = gradient();
      }
      b.bias[k] = below(6) == 0 ? kNaN : uniform(-20.0f, 20.0f);
      b.minLod[k] = below(6) == 0 ? kNaN : uniform(-1.0f, 6.0f);
      b.off0[k] = int32_t(below(16)) - 8;
      b.off1[k] = int32_t(below(16)) - 8;
    }
    return b;
  }

 private:
  std::mt19937 rng_;
};

std::string describe(const Batch& b, uint32_t k) {
  char text[256];
  std::snprintf(text, sizeof text, "lane %u: s=%a t=%a layer=%a lod=%a grad=(%a,%a)(%a,%a) bias=%a minLod=%a off=(%d,%d)",
                k, b.s[k], b.t[k], b.layer[k], b.lod[k], b.dx0[k], b.dx1[k], b.dy0[k], b.dy1[k], b.bias[k],
                b.minLod[k], b.off0[k], b.off1[k]);
  return text + std::string(b.hasLod ? " [Lod]" : b.hasGrad ? " [Grad]" : " [no LOD operand]") +
         (b.hasBias ? " [Bias]" : "") + (b.hasMinLod ? " [MinLod]" : "") + (b.hasOffset ? " [Offset]" : "");
}

// "Texel Filtering" and "Texel Mipmap Filtering" for R8G8B8A8 / B8G8R8A8 / R8 / R8G8 UNORM as the spec
// writes them, with the snapping subTexelPrecisionBits = mipmapPrecisionBits = 8 permits and
// the fixed-point routines choose (sub-texel coordinate u - 1/2 and δ rounded to the nearest
// multiple of 2^-8): the reference's own λ and level selection (sampler_lod.cpp, checked by hand
// in reference_sampler_test.cpp) and wrap (sampler_wrap.cpp), the texels' bytes read here, every
// UNORM byte c standing for c / 255, the weighted sum in integers. Returns false where a
// coordinate is NaN or beyond the ±2^22 texels the routines hold in fixed point (there they run
// the reference).
// `lambdaNudge` is added to λ_base computed from gradients (the routines' log2 is not glibc's).
bool snappedUnorm8(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleRequest& r,
                   double lambdaNudge, float result[4]) {
  using namespace sampler_detail;
  const uint32_t levelCount = std::min(view.levelCount, abi::kMaxImageLevels);
  // "Texel Anisotropic Filtering": N = ceil(η) samples along the footprint's major axis at
  // λ_base = log2(ρ_max / η), at P + (i / (N + 1) - 1/2) ∂P (the reference's placement,
  // reference_sampler.cpp); an explicit LOD samples isotropically.
  const bool anisotropic = sampler.anisotropyEnable && sampler.maxAnisotropy > 1.0f && !r.hasLod;
  double lambdaBase, axis[2] = {0, 0};
  uint32_t samples = 1;
  if (r.hasLod) {
    lambdaBase = r.lod;
  } else {
    const double dx[3] = {r.hasGrad ? r.dPdx[0] : 0.0, r.hasGrad ? r.dPdx[1] : 0.0, 0.0};
    const double dy[3] = {r.hasGrad ? r.dPdy[0] : 0.0, r.hasGrad ? r.dPdy[1] : 0.0, 0.0};
    const uint32_t size[3] = {view.levels[0].width, view.levels[0].height, 1};
    if (anisotropic) {
      const AnisotropicFootprint footprint = anisotropicFootprint(scaleFactors(dx, dy, size), sampler.maxAnisotropy);
      lambdaBase = footprint.lambdaBase + lambdaNudge;
      samples = footprint.samples;
      axis[0] = (footprint.alongX ? dx : dy)[0];
      axis[1] = (footprint.alongX ? dx : dy)[1];
    } else {
      lambdaBase = lambdaFromGradients(dx, dy, size) + lambdaNudge;
    }
  }
  const LevelSelection sel = selectLevels(sampler, r, lambdaBase, levelCount);
  const uint32_t layer = view.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? selectLayer(r.layer, view.layerCount) : 0;
  const bool bgra = view.format == VK_FORMAT_B8G8R8A8_UNORM;
  const FormatInfo& format = *formatInfo(VkFormat(view.format));
  const bool bc1 = format.isCompressed();
  // 1 (R8), 2 (R8G8) or 4 (and BC1's four): one UNORM byte per component
  const uint32_t bytes = bc1 ? 4 : view.texelSize;
  // One level's value per component times 255 x 2^16, at (s, t).
  auto level = [&](uint32_t d, double s, double t, uint64_t sum[4]) {
    const abi::ImageLevel& l = view.levels[d];
    const double u = s * l.width + r.offset[0], v = t * l.height + r.offset[1];
    const bool linear = sel.filter == VK_FILTER_LINEAR;
    const double x = linear ? std::floor((u - 0.5) * 256 + 0.5) : std::floor(u) * 256;
    const double y = linear ? std::floor((v - 0.5) * 256 + 0.5) : std::floor(v) * 256;
    if (!(std::fabs(x) < 0x1p30 && std::fabs(y) < 0x1p30)) return false;
    const int64_t i0 = int64_t(std::floor(x / 256)), j0 = int64_t(std::floor(y / 256));
    const int64_t alpha = int64_t(x) - 256 * i0, beta = int64_t(y) - 256 * j0;  // in [0, 255]
    auto byte = [&](int64_t i, int64_t j, uint32_t c) -> uint64_t {
      const int32_t wi = wrapCoordinate(int32_t(i), int32_t(l.width), sampler.addressMode[0]);
      const int32_t wj = wrapCoordinate(int32_t(j), int32_t(l.height), sampler.addressMode[1]);
      if (bc1) {
        // The block's texel as the reference decodes it (decodeBcBlock: the exact rational
        // n / d, d = den (2^b - 1), rounded to float), rounded to the nearest UNORM byte, halves
        // up, as the routines' BC1 texels are. 255 n / d is a half (5/6 of 255 is 212.5) or at
        // least 1/(2 d) >= 1/378 from one, and the float moved it by at most 2^-15: a half
        // shows as within 2^-12 of one, whichever way the float rounded.
        const uint8_t* block =
            l.base + uint64_t(layer) * l.layerPitch + uint64_t(wj / 4) * l.rowPitch + uint64_t(wi / 4) * 8;
        TexelValue texels[16];
        decodeBcBlock(format, block, texels);
        return uint64_t(std::floor(double(texels[(wj % 4) * 4 + wi % 4].f[c]) * 255.0 + 0.5 + 0x1p-12));
      }
      const uint8_t* texel = l.base + uint64_t(layer) * l.layerPitch + uint64_t(wj) * l.rowPitch + uint64_t(wi) * bytes;
      return texel[bgra && c != 1 && c != 3 ? 2 - c : c];
    };
    // "Conversion to RGBA" (missing components 0, alpha 1, here 255), then "Component Swizzle",
    // on each texel before it is filtered, in the spec's order.
    auto rgba = [&](int64_t i, int64_t j, uint32_t c) -> uint64_t { return c < bytes ? byte(i, j, c) : c == 3 ? 255 : 0; };
    auto swizzled = [&](int64_t i, int64_t j, uint32_t c) -> uint64_t {
      switch (VkComponentSwizzle(view.swizzle[c])) {
        case VK_COMPONENT_SWIZZLE_ZERO: return 0;
        case VK_COMPONENT_SWIZZLE_ONE: return 255;
        case VK_COMPONENT_SWIZZLE_IDENTITY: return rgba(i, j, c);
        default: return rgba(i, j, view.swizzle[c] - VK_COMPONENT_SWIZZLE_R);
      }
    };
    for (uint32_t c = 0; c < 4; ++c)
      sum[c] = swizzled(i0, j0, c) * (256 - alpha) * (256 - beta) + swizzled(i0 + 1, j0, c) * alpha * (256 - beta) +
               swizzled(i0, j0 + 1, c) * (256 - alpha) * beta + swizzled(i0 + 1, j0 + 1, c) * alpha * beta;
    return true;
  };
  // Each sample's value times 255 x 2^24, added over the samples, then divided by 255 x 2^24 x N.
  const uint64_t delta = uint64_t(std::floor(sel.delta * 256 + 0.5));  // the weight of level dLo, x 256
  uint64_t total[4] = {};
  for (uint32_t i = 1; i <= samples; ++i) {
    const double offset = samples == 1 ? 0.0 : double(i) / double(samples + 1) - 0.5;
    const double s = samples == 1 ? double(r.s) : double(r.s) + offset * axis[0];
    const double t = samples == 1 ? double(r.t) : double(r.t) + offset * axis[1];
    uint64_t hi[4], lo[4];
    if (!level(sel.mipLinear ? sel.dHi : sel.d, s, t, hi)) return false;
    if (sel.mipLinear && !level(sel.dLo, s, t, lo)) return false;
    for (uint32_t c = 0; c < 4; ++c) total[c] += sel.mipLinear ? hi[c] * (256 - delta) + lo[c] * delta : hi[c] * 256;
  }
  for (uint32_t c = 0; c < 4; ++c) result[c] = float(double(total[c]) / (255.0 * 16777216.0 * samples));
  return true;
}

// Floats' distance in units in the last place (both finite and of the same sign here).
int64_t ulpDistance(float a, float b) {
  return std::abs(int64_t(std::bit_cast<int32_t>(a)) - int64_t(std::bit_cast<int32_t>(b)));
}

bool isBc1(const abi::ImageViewState& view) {
  return view.format == VK_FORMAT_BC1_RGB_UNORM_BLOCK || view.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
}

bool isFixedPointUnorm8(const abi::ImageViewState& view) {
  return view.format == VK_FORMAT_R8G8B8A8_UNORM || view.format == VK_FORMAT_B8G8R8A8_UNORM ||
         view.format == VK_FORMAT_R8_UNORM || view.format == VK_FORMAT_R8G8_UNORM ||
         view.format == VK_FORMAT_BC1_RGB_UNORM_BLOCK || view.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK;
}

// Whether (view, sampler) takes a fixed-point routine (routine_choice.cpp): anisotropic samplers
// only on RGBA/BGRA and BC1 views.
bool takesFixedPoint(const abi::ImageViewState& view, const abi::SamplerState& sampler) {
  if (!isFixedPointUnorm8(view)) return false;
  return sampler.fastSampling <= 8 || (view.format != VK_FORMAT_R8_UNORM && view.format != VK_FORMAT_R8G8_UNORM);
}

// Runs `batches` random batches through the routine of (view, sampler) at every W and compares
// each active lane with sampleImage, bit for bit; inactive lanes must be 0.
void expectSameAsReference(const abi::ImageViewState& view, const abi::SamplerState& sampler, Generator& gen,
                           uint32_t batches, const std::string& what) {
  const bool arrayed = view.viewType == VK_IMAGE_VIEW_TYPE_2D_ARRAY;
  for (uint32_t width : {4u, 8u, 16u}) {
    SampleShape shape;
    shape.width = width;
    const SampleRoutine routine = findSampleRoutine(view, sampler, shape);
    ASSERT_NE(routine, nullptr) << what << " W=" << width;
    for (uint32_t n = 0; n < batches; ++n) {
      const Batch b = gen.batch(width, arrayed);
      const SampleLanes lanes = b.lanes();
      std::vector<uint32_t> out(4 * width, 0xDEADBEEFu);
      routine(view, sampler, lanes, out.data());
      for (uint32_t k = 0; k < width; ++k) {
        if (!(b.active >> k & 1)) {
          for (uint32_t c = 0; c < 4; ++c) ASSERT_EQ(out[c * width + k], 0u) << what << " inactive " << k;
          continue;
        }
        const TexelValue want = sampleImage(view, sampler, b.request(k));
        float snapped[4];
        const SampleRequest request = b.request(k);
        if (takesFixedPoint(view, sampler) && snappedUnorm8(view, sampler, request, 0.0, snapped)) {
          // The spec's value with these weights, up to the last rounding (the oracle divides in
          // double, then rounds to float), with λ as the reference computes it or, where λ
          // comes from gradients, nudged by ±2^-24 (the routines' log2 is within 2^-40 of
          // glibc's, so where the reference's λ sits on a level or δ boundary they may fall
          // on either side).
          auto matches = [&](const float want[4]) {
            for (uint32_t c = 0; c < 4; ++c)
              if (ulpDistance(std::bit_cast<float>(out[c * width + k]), want[c]) > 1) return false;
            return true;
          };
          bool matched = matches(snapped);
          if (matched) {
            // ... and within what snapping may move it from the reference's exact weights: the
            // coordinate by 2^-9 texel per axis (bilinear interpolation of values in [0,1]
            // changes by at most that much per texel moved), δ by 2^-9; BC1 texels by their
            // rounding to bytes, 1/510 at most.
            const double texelRounding = isBc1(view) ? 1.0 / 510.0 : 0.0;
            for (uint32_t c = 0; c < 4; ++c) {
              const float got = std::bit_cast<float>(out[c * width + k]);
              ASSERT_LE(std::fabs(double(got) - want.f[c]), 0x1p-8 + 0x1p-9 + texelRounding + 0x1p-20)
                  << what << " W=" << width << " component " << c << ": routine " << got << ", reference "
                  << want.f[c] << "; " << describe(b, k);
            }
          }
          for (double nudge : {-0x1p-24, 0x1p-24})
            if (!matched && !request.hasLod) {
              float nudged[4];
              matched = snappedUnorm8(view, sampler, request, nudge, nudged) && matches(nudged);
            }
          ASSERT_TRUE(matched) << what << " W=" << width << ": routine (" << std::bit_cast<float>(out[k]) << ", "
                               << std::bit_cast<float>(out[width + k]) << ", " << std::bit_cast<float>(out[2 * width + k])
                               << ", " << std::bit_cast<float>(out[3 * width + k]) << "), snapped spec (" << snapped[0]
                               << ", " << snapped[1] << ", " << snapped[2] << ", " << snapped[3] << "); "
                               << describe(b, k);
          continue;
        }
        for (uint32_t c = 0; c < 4; ++c)
          ASSERT_EQ(out[c * width + k], want.u[c])
              << what << " W=" << width << " component " << c << ": routine " << std::bit_cast<float>(out[c * width + k])
              << ", reference " << want.f[c] << "; " << describe(b, k);
      }
    }
  }
}

// Random bytes make every kind of float texel too: NaN, ±Inf, subnormal halves and floats.
const VkFormat kFormats[] = {VK_FORMAT_R8G8B8A8_UNORM,      VK_FORMAT_B8G8R8A8_UNORM,      VK_FORMAT_R8G8B8A8_SRGB,
                             VK_FORMAT_B8G8R8A8_SRGB,       VK_FORMAT_R8_UNORM,            VK_FORMAT_R8G8_UNORM,
                             VK_FORMAT_R16_SFLOAT,          VK_FORMAT_R16G16B16A16_SFLOAT, VK_FORMAT_R32_SFLOAT,
                             VK_FORMAT_R32G32B32A32_SFLOAT, VK_FORMAT_R16G16_SFLOAT,       VK_FORMAT_R16G16B16_SFLOAT,
                             VK_FORMAT_R32G32_SFLOAT,
                             // The depth aspect of the depth formats (random X8 bits of D24 too).
                             VK_FORMAT_D16_UNORM,           VK_FORMAT_X8_D24_UNORM_PACK32, VK_FORMAT_D32_SFLOAT,
                             VK_FORMAT_D16_UNORM_S8_UINT,   VK_FORMAT_D24_UNORM_S8_UINT,   VK_FORMAT_D32_SFLOAT_S8_UINT,
                             // Random blocks: both of BC1's palette modes (colour_0 > colour_1 or not).
                             VK_FORMAT_BC1_RGB_UNORM_BLOCK, VK_FORMAT_BC1_RGBA_UNORM_BLOCK};
const VkSamplerAddressMode kModes[] = {VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT,
                                       VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE};

// Every filter pair x mipmap mode x address-mode pair, on each format and view type, with the
// sampler's own bias and LOD clamps varied too.
TEST(BatchSampler, MatchesReference) {
  Generator gen(20261124);
  uint32_t combination = 0;
  for (VkFormat format : kFormats)
    for (VkImageViewType type : {VK_IMAGE_VIEW_TYPE_2D, VK_IMAGE_VIEW_TYPE_2D_ARRAY}) {
      const uint32_t width = 7 + gen.below(40), height = 3 + gen.below(40);
      const uint32_t layers = type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? 3 : 1;
      const uint32_t levels = 1 + gen.below(6);
      RandomView rv(format, type, width, height, layers, levels, gen.rng());
      ASSERT_NE(rv.view.state.fastSampling, 0u);
      for (VkFilter mag : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
        for (VkFilter min : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
          for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
            for (VkSamplerAddressMode u : kModes)
              for (VkSamplerAddressMode v : kModes) {
                const float bias = gen.below(3) == 0 ? gen.uniform(-4.0f, 4.0f) : 0.0f;
                const float minLod = gen.below(3) == 0 ? gen.uniform(0.0f, 2.0f) : 0.0f;
                const float maxLod = gen.below(3) == 0 ? gen.uniform(0.0f, 4.0f) : VK_LOD_CLAMP_NONE;
                const abi::SamplerState sampler = makeSampler(mag, min, mip, u, v, bias, minLod, maxLod);
                const std::string what = "format " + std::to_string(format) + " view type " + std::to_string(type) +
                                         " " + std::to_string(width) + "x" + std::to_string(height) + " levels " +
                                         std::to_string(levels) + " mag " + std::to_string(mag) + " min " +
                                         std::to_string(min) + " mip " + std::to_string(mip) + " address " +
                                         std::to_string(u) + "/" + std::to_string(v);
                expectSameAsReference(rv.view.state, sampler, gen, 6, what);
                ++combination;
              }
    }
  EXPECT_EQ(combination, uint32_t(std::size(kFormats)) * 2 * 2 * 2 * 2 * 3 * 3);
}

// "Texel Anisotropic Filtering": samplers with max_Aniso 2, 3.5 and 16 (the device's limit),
// both filters (equal for magnification and minification) and mipmap modes, every address mode
// pair, on every format, against the reference bit for bit (RGBA/BGRA UNORM and BC1: their
// fixed-point routines, against the snapped oracle and within its bound of the reference). The generator's derivatives are
// random per lane or per quad, so footprints of every ratio (N = 1 to 16, lines and points
// among them) meet in one batch; Lod operands sample isotropically.
TEST(BatchSampler, AnisotropicSamplersMatchReference) {
  Generator gen(20261201);
  uint32_t combination = 0;
  for (VkFormat format : kFormats) {
    const VkImageViewType type = combination % 2 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D;
    RandomView rv(format, type, 5 + gen.below(40), 3 + gen.below(40), type == VK_IMAGE_VIEW_TYPE_2D_ARRAY ? 3 : 1,
                  1 + gen.below(6), gen.rng());
    ASSERT_NE(rv.view.state.fastSampling, 0u);
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
      for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR})
        for (float maxAnisotropy : {2.0f, 3.5f, 16.0f}) {
          const abi::SamplerState sampler = makeSampler(filter, filter, mip, kModes[gen.below(3)], kModes[gen.below(3)],
                                                        gen.below(3) == 0 ? gen.uniform(-2.0f, 2.0f) : 0.0f, 0.0f,
                                                        VK_LOD_CLAMP_NONE, maxAnisotropy);
          ASSERT_GT(sampler.fastSampling, 8u);
          const std::string what = "format " + std::to_string(format) + " filter " + std::to_string(filter) + " mip " +
                                   std::to_string(mip) + " max_Aniso " + std::to_string(maxAnisotropy);
          expectSameAsReference(rv.view.state, sampler, gen, 8, what);
          ++combination;
        }
  }
  EXPECT_EQ(combination, uint32_t(std::size(kFormats)) * 2 * 2 * 3);
  // Different filters for magnification and minification keep the reference.
  const RandomView rv(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, gen.rng());
  SampleShape shape;
  shape.width = 8;
  EXPECT_EQ(findSampleRoutine(rv.view.state,
                              makeSampler(VK_FILTER_LINEAR, VK_FILTER_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                          kModes[0], kModes[0], 0, 0, VK_LOD_CLAMP_NONE, 16.0f),
                              shape),
            nullptr);
}

// "Component Swizzle" (the spec swizzles each texel before filtering; the exact routines do too and
// must give the reference's bits, the fixed-point UNORM8 ones swizzle their filtered result and
// must give the snapped oracle's, which swizzles texels first): random swizzles of R, G, B, A,
// ZERO and ONE, the ones OpenGL on Vulkan asks for (RGB: alpha ONE; luminance and depth: R R R
// ONE; alpha: ZERO ZERO ZERO R) among them, on every format, filter and mip mode, at every W
// (the 16-lane AVX-512 routine included: RGBA8 with equal filters).
TEST(BatchSampler, SwizzledViewsMatchReference) {
  Generator gen(20261130);
  constexpr VkComponentSwizzle R = VK_COMPONENT_SWIZZLE_R, Z = VK_COMPONENT_SWIZZLE_ZERO, O = VK_COMPONENT_SWIZZLE_ONE;
  const VkComponentSwizzle named[][4] = {{R, VK_COMPONENT_SWIZZLE_G, VK_COMPONENT_SWIZZLE_B, O}, {R, R, R, O}, {Z, Z, Z, R}};
  uint32_t combination = 0;
  for (VkFormat format : kFormats)
    for (uint32_t n = 0; n < 6; ++n) {
      RandomView rv(format, n & 1 ? VK_IMAGE_VIEW_TYPE_2D_ARRAY : VK_IMAGE_VIEW_TYPE_2D, 9 + gen.below(30),
                    5 + gen.below(30), n & 1 ? 3 : 1, 1 + gen.below(5), gen.rng());
      VkComponentSwizzle swizzle[4];
      for (uint32_t c = 0; c < 4; ++c)
        swizzle[c] = n < 3 ? named[n][c] : VkComponentSwizzle(VK_COMPONENT_SWIZZLE_ZERO + gen.below(6));
      rv.view.setSwizzle(swizzle[0], swizzle[1], swizzle[2], swizzle[3]);
      rv.view.state.fastSampling = classifyViewForRoutines(rv.view.state);
      ASSERT_NE(rv.view.state.fastSampling, 0u);
      for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
        for (VkSamplerMipmapMode mip : {VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_MIPMAP_MODE_LINEAR}) {
          const abi::SamplerState sampler = makeSampler(filter, filter, mip, kModes[gen.below(3)], kModes[gen.below(3)]);
          const std::string what = "format " + std::to_string(format) + " swizzle " + std::to_string(swizzle[0]) +
                                   std::to_string(swizzle[1]) + std::to_string(swizzle[2]) + std::to_string(swizzle[3]) +
                                   " filter " + std::to_string(filter) + " mip " + std::to_string(mip);
          expectSameAsReference(rv.view.state, sampler, gen, 40, what);
          ++combination;
        }
    }
  EXPECT_EQ(combination, uint32_t(std::size(kFormats)) * 6 * 2 * 2);
}

// The fixed-point routines' log2 (batch_lanes.h) against glibc's: within 2^-40 over the whole
// range of normal doubles, and the same special values.
TEST(BatchSampler, VectorLog2IsWithinItsBound) {
  std::mt19937_64 rng(5);
  for (int n = 0; n < 200000; ++n) {
    double x;
    do x = std::bit_cast<double>(rng() & 0x7FFFFFFFFFFFFFFFull);
    while (!std::isnormal(x));
    if (n < 1000) x = std::ldexp(1.0, n % 2000 - 1000) * (n % 3 == 0 ? 1.0 : 1.4142135623730951);
    ASSERT_LE(std::fabs(sampler_detail::batch::vectorLog2(x) - std::log2(x)), 0x1p-40) << std::hexfloat << x;
  }
  EXPECT_EQ(sampler_detail::batch::vectorLog2(0.0), -HUGE_VAL);
  EXPECT_EQ(sampler_detail::batch::vectorLog2(HUGE_VAL), HUGE_VAL);
  EXPECT_TRUE(std::isnan(sampler_detail::batch::vectorLog2(std::nan(""))));
}

// Many batches on one common state (trilinear, REPEAT), to reach rare coordinate and LOD cases:
// sRGB (exact routines) and UNORM (fixed point).
TEST(BatchSampler, TrilinearRepeatManyBatchesUnorm) {
  Generator gen(11);
  RandomView rv(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 45, 29, 1, 6, gen.rng());
  const abi::SamplerState sampler =
      makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                  VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT);
  expectSameAsReference(rv.view.state, sampler, gen, 3000, "trilinear repeat unorm");
}

TEST(BatchSampler, TrilinearRepeatManyBatches) {
  Generator gen(7);
  RandomView rv(VK_FORMAT_R8G8B8A8_SRGB, VK_IMAGE_VIEW_TYPE_2D, 45, 29, 1, 6, gen.rng());
  const abi::SamplerState sampler =
      makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                  VK_SAMPLER_ADDRESS_MODE_REPEAT);
  expectSameAsReference(rv.view.state, sampler, gen, 3000, "trilinear repeat");
}

// A view of one level with equal filters: its level is 0 and its filter the one filter whatever λ
// is, so the 16-lane routine computes no LOD for it; every kind of LOD operand (NaN, ±Inf,
// quads that disagree) must still give the reference's texels.
TEST(BatchSampler, SingleLevelViewsIgnoreTheLod) {
  Generator gen(1130);
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_B8G8R8A8_UNORM})
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR}) {
      RandomView rv(format, VK_IMAGE_VIEW_TYPE_2D, 37, 23, 1, 1, gen.rng());
      const abi::SamplerState sampler =
          makeSampler(filter, filter, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                      VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE, gen.uniform(-4.0f, 4.0f), 0.0f, gen.uniform(0.0f, 3.0f));
      expectSameAsReference(rv.view.state, sampler, gen, 500,
                            "one level, format " + std::to_string(format) + " filter " + std::to_string(filter));
    }
}

// State outside what the routines compute gets no routine (the caller then runs the reference).
TEST(BatchSampler, NoRoutineOutsideTheCommonState) {
  Generator gen(3);
  RandomView rv(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, gen.rng());
  const abi::SamplerState common = makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                               VK_SAMPLER_ADDRESS_MODE_REPEAT, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  SampleShape shape;
  shape.width = 8;
  ASSERT_NE(findSampleRoutine(rv.view.state, common, shape), nullptr);

  // Sampler state: a border, unnormalized coordinates, a min/max reduction, anisotropy.
  abi::SamplerState border = makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                         VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_BORDER, VK_SAMPLER_ADDRESS_MODE_REPEAT);
  EXPECT_EQ(findSampleRoutine(rv.view.state, border, shape), nullptr);
  abi::SamplerState mirrorClamp = makeSampler(VK_FILTER_LINEAR, VK_FILTER_LINEAR, VK_SAMPLER_MIPMAP_MODE_LINEAR,
                                              VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                              VK_SAMPLER_ADDRESS_MODE_MIRROR_CLAMP_TO_EDGE);
  EXPECT_EQ(findSampleRoutine(rv.view.state, mirrorClamp, shape), nullptr);
  abi::SamplerState unnormalized = common;
  unnormalized.unnormalizedCoordinates = VK_TRUE;
  EXPECT_EQ(classifySamplerForRoutines(unnormalized), 0u);
  abi::SamplerState reduction = common;
  reduction.reductionMode = VK_SAMPLER_REDUCTION_MODE_MAX;
  EXPECT_EQ(classifySamplerForRoutines(reduction), 0u);
  // Anisotropy: its own classes (8 above the isotropic one), for the routines' anisotropic
  // instances only (AnisotropicSamplersMatchReference).
  abi::SamplerState anisotropic = common;
  anisotropic.anisotropyEnable = VK_TRUE;
  anisotropic.maxAnisotropy = 16.0f;
  EXPECT_EQ(classifySamplerForRoutines(anisotropic), classifySamplerForRoutines(common) + 8);

  // Instruction shape: gathers, Dref, other dimensionalities, other widths.
  for (int i = 0; i < 4; ++i) {
    SampleShape other = shape;
    if (i == 0) other.sample = false;
    if (i == 1) other.compare = true;
    if (i == 2) other.coordCount = 3;
    if (i == 3) other.width = 2;
    EXPECT_EQ(findSampleRoutine(rv.view.state, common, other), nullptr) << i;
  }

  // View state: other formats and aspects (stencil), other view types, several samples, no
  // memory. (Any swizzle is taken: SwizzledViewsMatchReference.)
  SamplingTestView stencil(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 1, VK_IMAGE_ASPECT_STENCIL_BIT);
  EXPECT_EQ(classifyViewForRoutines(stencil.state), 0u);
  SamplingTestView depth(VK_FORMAT_D24_UNORM_S8_UINT, VK_IMAGE_VIEW_TYPE_2D, 8, 8, 1, 1, 1, VK_IMAGE_ASPECT_DEPTH_BIT);
  EXPECT_NE(classifyViewForRoutines(depth.state), 0u);
  for (VkFormat other : {VK_FORMAT_R8G8B8A8_SNORM, VK_FORMAT_R32G32B32A32_UINT, VK_FORMAT_R16G16B16A16_UNORM,
                         VK_FORMAT_B10G11R11_UFLOAT_PACK32, VK_FORMAT_R8_SRGB})
    EXPECT_EQ(classifyViewForRoutines(SamplingTestView(other, VK_IMAGE_VIEW_TYPE_2D, 8, 8).state), 0u) << other;
  EXPECT_EQ(classifyViewForRoutines(SamplingTestView(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_3D, 8, 8, 8).state),
            0u);
  EXPECT_EQ(classifyViewForRoutines(
                SamplingTestView(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_CUBE, 8, 8, 1, 6).state),
            0u);
  SamplingTestView multisampled(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8);
  multisampled.state.samples = 4;
  EXPECT_EQ(classifyViewForRoutines(multisampled.state), 0u);
  SamplingTestView unbound(VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_VIEW_TYPE_2D, 8, 8);
  unbound.state.levels[0].base = nullptr;
  EXPECT_EQ(classifyViewForRoutines(unbound.state), 0u);
  // A view never classified (fastSampling 0) has no routine either.
  abi::ImageViewState unclassified = rv.view.state;
  unclassified.fastSampling = 0;
  EXPECT_EQ(findSampleRoutine(unclassified, common, shape), nullptr);
}

// The general fixed-point routine's predicted levels (batch_sampler_unorm8.cpp
// predictedNearestLevels: mipmapMode NEAREST, one filter, implicit LOD) against its full level
// selection, bit for bit: each batch sampled on a new thread (no prediction: selectLaneLevels)
// and on this thread right after a batch of one of its lanes' footprint (which predicts that
// lane's level). The footprints put λ_base next to the levels' thresholds (d' = k + 1/2 minus
// the bias, the clamps aside), up to 2^-12 away, where the ranges' margins decide; the views are
// RGBA8 at W = 4 and 8 (W = 16 may take the AVX-512 routine), R8 and BC1 at every W.
TEST(BatchSampler, PredictedLevelsAreTheFullSelections) {
  Generator gen(20261202);
  uint32_t predictedBatches = 0;
  for (VkFormat format : {VK_FORMAT_R8G8B8A8_UNORM, VK_FORMAT_R8_UNORM, VK_FORMAT_BC1_RGB_UNORM_BLOCK})
    for (VkFilter filter : {VK_FILTER_NEAREST, VK_FILTER_LINEAR})
      for (int variant = 0; variant < 6; ++variant) {
        const uint32_t size = 8u << gen.below(5);
        RandomView rv(format, VK_IMAGE_VIEW_TYPE_2D, size, size, 1, 1 + gen.below(7), gen.rng());
        const float bias = variant % 3 == 1 ? gen.uniform(-2.0f, 2.0f) : 0.0f;
        const float minLod = variant % 3 == 2 ? gen.uniform(0.0f, 1.5f) : 0.0f;
        const float maxLod = variant % 2 ? gen.uniform(1.0f, 4.0f) : VK_LOD_CLAMP_NONE;
        const abi::SamplerState sampler = makeSampler(filter, filter, VK_SAMPLER_MIPMAP_MODE_NEAREST, VK_SAMPLER_ADDRESS_MODE_REPEAT,
                                                      VK_SAMPLER_ADDRESS_MODE_REPEAT, bias, minLod, maxLod);
        for (uint32_t width : {4u, 8u, 16u}) {
          if (width == 16 && format == VK_FORMAT_R8G8B8A8_UNORM) continue;
          SampleShape shape;
          shape.width = width;
          const SampleRoutine routine = findSampleRoutine(rv.view.state, sampler, shape);
          ASSERT_NE(routine, nullptr);
          for (int n = 0; n < 40; ++n) {
            // Every lane's ρ = 2^(k + 1/2 - bias + e) for one threshold k and tiny e, along a
            // random direction of the x derivative (the y one smaller).
            Batch b;
            b.width = width;
            b.hasGrad = true;
            const int k = int(gen.below(7)) - 1;
            for (uint32_t l = 0; l < width; ++l) {
              const float e = std::ldexp(gen.uniform(-1.0f, 1.0f), -int(12 + gen.below(12)));
              const double rho = std::exp2(double(k) + 0.5 - double(bias) + double(e));
              const double angle = gen.uniform(0.0f, 6.2831853f);
              b.s.push_back(gen.uniform(-1.0f, 2.0f));
              b.t.push_back(gen.uniform(-1.0f, 2.0f));
              b.dx0.push_back(float(rho * std::cos(angle) / size));
              b.dx1.push_back(float(rho * std::sin(angle) / size));
              b.dy0.push_back(float(0.5 * rho * -std::sin(angle) / size));
              b.dy1.push_back(float(0.5 * rho * std::cos(angle) / size));
            }
            const uint32_t all = (1u << width) - 1;
            b.active = gen.below(4) == 0 ? (uint32_t(gen.rng()()) & all) | 1u : all;
            std::vector<uint32_t> full(4 * width), predicted(4 * width), primed(4 * width);
            std::thread([&] { routine(rv.view.state, sampler, b.lanes(), full.data()); }).join();
            // A batch of lane 0's footprint alone predicts lane 0's level on this thread.
            Batch prime = b;
            for (uint32_t l = 0; l < width; ++l)
              prime.dx0[l] = b.dx0[0], prime.dx1[l] = b.dx1[0], prime.dy0[l] = b.dy0[0], prime.dy1[l] = b.dy1[0];
            prime.active = all;
            routine(rv.view.state, sampler, prime.lanes(), primed.data());
            routine(rv.view.state, sampler, b.lanes(), predicted.data());
            ASSERT_EQ(predicted, full) << "format " << format << " filter " << filter << " W=" << width << " threshold " << k
                                       << " bias " << bias << " minLod " << minLod << " maxLod " << maxLod;
            ++predictedBatches;
          }
        }
      }
  EXPECT_GT(predictedBatches, 1000u);
}

}  // namespace
}  // namespace tessera
