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

// A packed 4:2:2 format (G8B8G8R8_422_UNORM and its relatives): 2x1 blocks holding two luma
// samples and one Cb/Cr pair.
bool isPacked422(const FormatInfo& f) { return f.planeCount == 1 && f.blockWidth == 2 && f.needsYcbcrConversion; }

uint32_t slotOf(char name) { return name == 'R' ? 0 : name == 'G' ? 1 : name == 'B' ? 2 : 3; }

// The block's first `bytes` bytes (at most 8) as a little-endian word: constant-size loads for
// the sizes the conversion formats have.
uint64_t loadBlock(const uint8_t* block, uint32_t bytes) {
  switch (bytes) {
    case 1: return block[0];
    case 2: { uint16_t v; std::memcpy(&v, block, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, block, 4); return v; }
    case 8: { uint64_t v; std::memcpy(&v, block, 8); return v; }
    default: { uint64_t v = 0; std::memcpy(&v, block, std::min(bytes, 8u)); return v; }
  }
}

class YcbcrImage {
 public:
  YcbcrImage(const abi::YcbcrSamplingState& y, uint32_t layer) : y_(y), layer_(layer) {}

  // Component `slot` (0 R, 1 G, 2 B, 3 A) of texel (i, j) of the grid it is sampled on (the
  // luma grid for G and A, the chroma grid for R and B), clamped to the grid's edge, as
  // "Conversion From Normalized Fixed-Point to Floating-Point" gives it (c / (2^b - 1)).
  double read(uint32_t slot, int32_t i, int32_t j) const {
    const abi::YcbcrSamplingState::ComponentSource& s = y_.sources[slot];
    if (!s.present) return slot == 3 ? 1.0 : 0.0;
    const abi::YcbcrPlaneState& p = y_.planes[s.plane];
    const int32_t w = gridWidth(slot), h = gridHeight(slot);
    i = std::clamp(i, 0, w - 1), j = std::clamp(j, 0, h - 1);
    // Packed 4:2:2: luma sample i is the (i % 2)th G of block i / 2; chroma sample i is block i's.
    const bool pairedLuma = y_.packed422 && luma(slot);
    const uint32_t block = pairedLuma ? uint32_t(i) / 2 : uint32_t(i);
    const uint8_t* texel = p.base + layer_ * p.layerPitch + uint64_t(j) * p.rowPitch + uint64_t(block) * s.blockBytes;
    const uint64_t mask = (uint64_t(1) << s.bits) - 1;
    const uint64_t value = (loadBlock(texel, s.blockBytes) >> s.bitOffset[pairedLuma ? uint32_t(i) % 2 : 0]) & mask;
    const double unorm = double(value) / double(mask);
    return s.codecRounding ? double(float(unorm)) : unorm;
  }

  static bool luma(uint32_t slot) { return slot == 1 || slot == 3; }

  int32_t gridWidth(uint32_t slot) const {
    const abi::YcbcrPlaneState& p = y_.planes[y_.sources[slot].plane];
    if (y_.packed422) return luma(slot) ? int32_t(p.width) : int32_t((p.width + 1) / 2);
    return int32_t(p.width);
  }
  int32_t gridHeight(uint32_t slot) const { return int32_t(y_.planes[y_.sources[slot].plane].height); }
  // Whether the chroma grid is smaller than the luma grid in x / y.
  bool subsampledX() const { return y_.chromaDivisorX > 1; }
  bool subsampledY() const { return y_.chromaDivisorY > 1; }
  // The component's bits, n of "Sampler Y'CbCr Range Expansion".
  uint32_t bits(uint32_t slot) const { return y_.sources[slot].present ? y_.sources[slot].bits : 8; }

 private:
  const abi::YcbcrSamplingState& y_;
  uint64_t layer_;
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

namespace tessera {

void prepareYcbcrSources(abi::YcbcrSamplingState& y) {
  using sampler_detail::isPacked422;
  using sampler_detail::slotOf;
  for (auto& s : y.sources) s = {};
  const FormatInfo* format = formatInfo(VkFormat(y.format));
  if (!format) return;
  y.packed422 = isPacked422(*format);
  // Each plane's components in the order the registry lists them are that plane format's R,
  // G, ... (G8_B8R8_2PLANE: plane 1 holds B in its R and R in its G); a single-plane format
  // holds each component under its own name.
  uint32_t perPlane[3] = {};
  uint32_t greens = 0;  // packed 4:2:2: the G components seen
  for (uint32_t c = 0; c < format->componentCount; ++c) {
    const FormatComponent& comp = format->components[c];
    abi::YcbcrSamplingState::ComponentSource& s = y.sources[slotOf(comp.name)];
    const uint32_t plane = format->planeCount > 1 ? comp.plane : 0;
    const FormatInfo* pf = formatInfo(VkFormat(y.planes[plane].format));
    if (!pf || pf->blockSize > 8) continue;
    s.plane = uint8_t(plane);
    s.bits = comp.bits;
    s.blockBytes = uint8_t(pf->blockSize);
    if (y.packed422) {
      // The 2x1 blocks: offsets as the format table gives them, both G's of a block.
      s.bitOffset[comp.name == 'G' ? std::min(greens++, 1u) : 0] = comp.bitOffset;
      s.present = 1;
      continue;
    }
    // The plane format's own component, where the texel codec finds it.
    ComponentField field;
    const uint32_t channel = format->planeCount > 1 ? perPlane[plane]++ : slotOf(comp.name);
    if (!componentField(*pf, channel, &field) || field.numeric != NumericFormat::UNorm) continue;
    s.bitOffset[0] = uint8_t(field.pos);
    s.bits = uint8_t(field.bits);
    s.codecRounding = 1;
    s.present = 1;
  }
}

}  // namespace tessera
