// Sampling through a sampler Y'CbCr conversion (ImageViewState::ycbcr), in the order of the
// specification's "Texel Input Operations" for such samplers:
//  1. the texels of each plane are read and converted to [0,1] ("Format Conversion");
//  2. "Chroma Reconstruction", implicit (VkSamplerYcbcrConversionCreateInfo without
//     forceExplicitReconstruction, which Tessera does not offer): the luma components (G, A)
//     are filtered with the sampler's filter at (u, v) of the luma plane, the chroma components
//     (R = Cr, B = Cb) of a subsampled format with chromaFilter at the chroma plane's coordinates
//     u_chroma = (u + 0.5) / 2 for VK_CHROMA_LOCATION_COSITED_EVEN, u / 2 for
//     VK_CHROMA_LOCATION_MIDPOINT (likewise v for 4:2:0), where the chroma sample sits
//     relative to the luma samples it serves;
//  3. the conversion's component swizzle;
//  4. "Sampler Y'CbCr Range Expansion" (ITU full or narrow range, n the component's bits) and
//  5. "Sampler Y'CbCr Model Conversion" (identity, BT.601, BT.709, BT.2020).
// Range expansion and model conversion are affine, so filtering before them (as here) gives
// what filtering the converted texels gives. Computed in double, like the rest of the reference.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sampler_internal.h"
#include "tessera/texel_codec.h"

namespace tessera::sampler_detail {
namespace {

// Where one of the format's R, G, B, A components is read from.
struct ComponentSource {
  bool present = false;
  uint32_t plane = 0;
  uint32_t channel = 0;  // index in the plane's decoded RGBA (the plane format's component order)
};

// A packed 4:2:2 format (G8B8G8R8_422_UNORM and its relatives): 2x1 blocks holding two luma
// samples and one Cb/Cr pair.
bool isPacked422(const FormatInfo& f) { return f.planeCount == 1 && f.blockWidth == 2 && f.needsYcbcrConversion; }

// Component `bits` at `bitOffset` of a block of up to 8 bytes, as UNORM in [0,1].
double unormBits(const uint8_t* block, uint32_t blockSize, uint32_t bitOffset, uint32_t bits) {
  uint64_t word = 0;
  std::memcpy(&word, block, std::min<uint32_t>(blockSize, 8));
  const uint64_t value = (word >> bitOffset) & ((uint64_t(1) << bits) - 1);
  return double(value) / double((uint64_t(1) << bits) - 1);
}

class YcbcrImage {
 public:
  YcbcrImage(const abi::YcbcrSamplingState& y, uint32_t layer)
      : y_(y), format_(*formatInfo(VkFormat(y.format))), layer_(layer) {
    packed422_ = isPacked422(format_);
    if (format_.planeCount > 1) {
      // Each plane's components in the order the registry lists them are that plane format's
      // R, G, ... (G8_B8R8_2PLANE: plane 1 holds B in its R and R in its G).
      uint32_t perPlane[3] = {};
      for (uint32_t c = 0; c < format_.componentCount; ++c) {
        const FormatComponent& comp = format_.components[c];
        ComponentSource& s = sources_[slotOf(comp.name)];
        s.present = true, s.plane = comp.plane, s.channel = perPlane[comp.plane]++;
      }
    } else {
      for (uint32_t c = 0; c < format_.componentCount; ++c) {
        ComponentSource& s = sources_[slotOf(format_.components[c].name)];
        s.present = true, s.plane = 0, s.channel = slotOf(format_.components[c].name);
      }
    }
  }

  // Component `slot` (0 R, 1 G, 2 B, 3 A) of texel (i, j) of the grid it is sampled on (the
  // luma grid for G and A, the chroma grid for R and B), clamped to the grid's edge.
  double read(uint32_t slot, int32_t i, int32_t j) const {
    const ComponentSource& s = sources_[slot];
    if (!s.present) return slot == 3 ? 1.0 : 0.0;
    const abi::YcbcrPlaneState& p = y_.planes[s.plane];
    const int32_t w = gridWidth(slot), h = gridHeight(slot);
    i = std::clamp(i, 0, w - 1), j = std::clamp(j, 0, h - 1);
    if (packed422_) {
      // Luma sample i is the (i % 2)th G of block i / 2; chroma sample i is block i's B or R.
      const uint32_t block = luma(slot) ? uint32_t(i) / 2 : uint32_t(i);
      const uint8_t* texel = p.base + layer_ * p.layerPitch + uint64_t(j) * p.rowPitch + uint64_t(block) * format_.blockSize;
      const FormatComponent* comp = nullptr;
      uint32_t seen = 0;
      for (uint32_t c = 0; c < format_.componentCount; ++c) {
        if (slotOf(format_.components[c].name) != slot) continue;
        if (!luma(slot) || seen++ == uint32_t(i) % 2) {
          comp = &format_.components[c];
          break;
        }
      }
      return unormBits(texel, format_.blockSize, comp->bitOffset, comp->bits);
    }
    const FormatInfo& pf = *formatInfo(VkFormat(p.format));
    TexelValue v;
    decodeTexel(pf, p.base + layer_ * p.layerPitch + uint64_t(j) * p.rowPitch + uint64_t(i) * pf.blockSize, v);
    return v.f[s.channel];
  }

  static bool luma(uint32_t slot) { return slot == 1 || slot == 3; }

  int32_t gridWidth(uint32_t slot) const {
    const abi::YcbcrPlaneState& p = y_.planes[sources_[slot].plane];
    if (packed422_) return luma(slot) ? int32_t(p.width) : int32_t((p.width + 1) / 2);
    return int32_t(p.width);
  }
  int32_t gridHeight(uint32_t slot) const { return int32_t(y_.planes[sources_[slot].plane].height); }
  // Whether the chroma grid is smaller than the luma grid in x / y.
  bool subsampledX() const { return y_.chromaDivisorX > 1; }
  bool subsampledY() const { return y_.chromaDivisorY > 1; }
  // The component's bits, n of "Sampler Y'CbCr Range Expansion".
  uint32_t bits(uint32_t slot) const {
    for (uint32_t c = 0; c < format_.componentCount; ++c)
      if (slotOf(format_.components[c].name) == slot) return format_.components[c].bits;
    return 8;
  }

 private:
  static uint32_t slotOf(char name) { return name == 'R' ? 0 : name == 'G' ? 1 : name == 'B' ? 2 : 3; }

  const abi::YcbcrSamplingState& y_;
  const FormatInfo& format_;
  uint64_t layer_;
  bool packed422_ = false;
  ComponentSource sources_[4];
};

// One component filtered on its grid at unnormalized (u, v): NEAREST takes texel
// (floor(u), floor(v)); LINEAR weights the four around (u - 0.5, v - 0.5) ("Texel Filtering").
double filtered(const YcbcrImage& image, uint32_t slot, double u, double v, uint32_t filter) {
  if (filter == VK_FILTER_NEAREST)
    return image.read(slot, int32_t(std::floor(u)), int32_t(std::floor(v)));
  const double x = u - 0.5, y = v - 0.5;
  const int32_t i0 = int32_t(std::floor(x)), j0 = int32_t(std::floor(y));
  const double a = x - std::floor(x), b = y - std::floor(y);
  return (1 - a) * (1 - b) * image.read(slot, i0, j0) + a * (1 - b) * image.read(slot, i0 + 1, j0) +
         (1 - a) * b * image.read(slot, i0, j0 + 1) + a * b * image.read(slot, i0 + 1, j0 + 1);
}

// "Chroma Reconstruction" (implicit): the coordinate on the chroma grid of luma coordinate u.
double chromaCoordinate(double u, bool subsampled, uint32_t location) {
  if (!subsampled) return u;
  return location == VK_CHROMA_LOCATION_COSITED_EVEN ? 0.5 * (u + 0.5) : 0.5 * u;
}

double swizzled(const double raw[4], uint32_t swizzle, uint32_t identity) {
  switch (swizzle) {
    case VK_COMPONENT_SWIZZLE_ZERO: return 0.0;
    case VK_COMPONENT_SWIZZLE_ONE: return 1.0;
    case VK_COMPONENT_SWIZZLE_R: return raw[0];
    case VK_COMPONENT_SWIZZLE_G: return raw[1];
    case VK_COMPONENT_SWIZZLE_B: return raw[2];
    case VK_COMPONENT_SWIZZLE_A: return raw[3];
    default: return raw[identity];
  }
}

// "Sampler Y'CbCr Range Expansion": luma (Y') and chroma (Cb, Cr) of n bits.
// 2^(n-8) as the formulas write it; fractional for the 4-, 5- and 6-bit components a
// conversion of a packed RGB format may see.
double narrowScale(uint32_t n) { return std::ldexp(1.0, int(n) - 8); }

double expandLuma(double value, uint32_t range, uint32_t n) {
  if (range == VK_SAMPLER_YCBCR_RANGE_ITU_FULL) return value;
  const double scale = narrowScale(n);
  return (value * (std::ldexp(1.0, int(n)) - 1) - 16.0 * scale) / (219.0 * scale);
}
double expandChroma(double value, uint32_t range, uint32_t n) {
  if (range == VK_SAMPLER_YCBCR_RANGE_ITU_FULL) return value - std::ldexp(1.0, int(n) - 1) / (std::ldexp(1.0, int(n)) - 1);
  const double scale = narrowScale(n);
  return (value * (std::ldexp(1.0, int(n)) - 1) - 128.0 * scale) / (224.0 * scale);
}

}  // namespace

Texel sampleYcbcr(const abi::YcbcrSamplingState& y, double s, double t, const int32_t offset[2], uint32_t layer,
                  uint32_t filter) {
  const YcbcrImage image(y, layer);
  // "(s,t,r,q,a) to (u,v,w,a) Transformation" on the luma grid.
  const double u = s * image.gridWidth(1) + offset[0], v = t * image.gridHeight(1) + offset[1];
  const double uc = chromaCoordinate(u, image.subsampledX(), y.xChromaOffset);
  const double vc = chromaCoordinate(v, image.subsampledY(), y.yChromaOffset);
  double raw[4];
  raw[0] = filtered(image, 0, uc, vc, y.chromaFilter);
  raw[1] = filtered(image, 1, u, v, filter);
  raw[2] = filtered(image, 2, uc, vc, y.chromaFilter);
  raw[3] = filtered(image, 3, u, v, filter);
  double c[4];
  for (uint32_t k = 0; k < 4; ++k) c[k] = swizzled(raw, y.swizzle[k], k);

  Texel out;
  out.c[3] = c[3];
  if (y.model == VK_SAMPLER_YCBCR_MODEL_CONVERSION_RGB_IDENTITY) {
    for (int k = 0; k < 3; ++k) out.c[k] = c[k];
    return out;
  }
  // The components as Y'CbCr: G is Y', B is Cb, R is Cr (after the swizzle).
  const double cr = expandChroma(c[0], y.range, image.bits(0));
  const double luma = expandLuma(c[1], y.range, image.bits(1));
  const double cb = expandChroma(c[2], y.range, image.bits(2));
  switch (y.model) {
    case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_IDENTITY:
      out.c[0] = cr, out.c[1] = luma, out.c[2] = cb;
      break;
    case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_601:
      out.c[0] = luma + 1.402 * cr;
      out.c[1] = luma - (0.202008 / 0.587) * cb - (0.419198 / 0.587) * cr;
      out.c[2] = luma + 1.772 * cb;
      break;
    case VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_709:
      out.c[0] = luma + 1.5748 * cr;
      out.c[1] = luma - (0.13397432 / 0.7152) * cb - (0.33480248 / 0.7152) * cr;
      out.c[2] = luma + 1.8556 * cb;
      break;
    default:  // VK_SAMPLER_YCBCR_MODEL_CONVERSION_YCBCR_2020
      out.c[0] = luma + 1.4746 * cr;
      out.c[1] = luma - (0.11156702 / 0.6780) * cb - (0.38737742 / 0.6780) * cr;
      out.c[2] = luma + 1.8814 * cb;
      break;
  }
  return out;
}

}  // namespace tessera::sampler_detail
