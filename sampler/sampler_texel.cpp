// One texel through the "Texel Input Operations" that act on single texels, in the order the
// specification lists them: "Integer Texel Coordinate Validation" (out of range -> border
// texel), "Format Conversion" (tessera::decodeTexel / decodeDepth), "Texel Replacement"
// (border colour), "Depth Compare Operation", "Conversion to RGBA", "Component Swizzle".
// Filtering then combines such texels (reference_sampler.cpp).
#include <cstring>

#include "sampler_internal.h"

namespace tessera::sampler_detail {
namespace {

bool isUnorm(const FormatComponent* c) { return c && c->numeric == NumericFormat::UNorm; }

// "Border Replacement", table "Border Color B": [Br, Bg, Bb, Ba]. The FLOAT_ and INT_ forms
// of the predefined colours have the same numbers (0 and 1); they become floats or integers
// with the view's kind. A custom colour U (VkSamplerCustomBorderColorCreateInfoEXT) is a
// VkClearColorValue: its words are float32 for a float view (depth included), int32 for an SINT
// view and uint32 for a UINT or stencil view, which is what the valid pairings of borderColor
// and view format ("Instruction/Format/Sampler/Image View Validation") mean; the other
// pairings are poison, and reading the words by the view's kind still gives a plain number.
void borderColor(const TexelSource& src, double b[4]) {
  switch (VkBorderColor(src.borderColor)) {
    case VK_BORDER_COLOR_FLOAT_OPAQUE_BLACK:
    case VK_BORDER_COLOR_INT_OPAQUE_BLACK:
      b[0] = b[1] = b[2] = 0, b[3] = 1;
      break;
    case VK_BORDER_COLOR_FLOAT_OPAQUE_WHITE:
    case VK_BORDER_COLOR_INT_OPAQUE_WHITE:
      b[0] = b[1] = b[2] = b[3] = 1;
      break;
    case VK_BORDER_COLOR_FLOAT_CUSTOM_EXT:
    case VK_BORDER_COLOR_INT_CUSTOM_EXT:
      for (int c = 0; c < 4; ++c) {
        const uint32_t w = src.customBorderColor[c];
        if (src.kind == TexelKind::SInt) b[c] = double(int32_t(w));
        else if (src.kind == TexelKind::UInt) b[c] = double(w);
        else {
          float f;
          std::memcpy(&f, &w, 4);
          b[c] = f;
        }
      }
      break;
    default:  // *_TRANSPARENT_BLACK
      b[0] = b[1] = b[2] = b[3] = 0;
      break;
  }
}

// The VkCompareOp with D_ref as the reference and D_tex as the test value ("reference OP
// test", as the VkCompareOp descriptions define them).
bool compare(uint32_t op, double reference, double test) {
  switch (VkCompareOp(op)) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < test;
    case VK_COMPARE_OP_EQUAL: return reference == test;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= test;
    case VK_COMPARE_OP_GREATER: return reference > test;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != test;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= test;
    case VK_COMPARE_OP_ALWAYS:
    default: return true;
  }
}

// "Conversion From Normalized Fixed-Point to Floating-Point" and the sRGB EOTF of every 8-bit
// value, as the texel codec computes them (its own results, so a table read is the codec's
// answer bit for bit).
struct ByteTables {
  float unorm[256], srgb[256];
  ByteTables() {
    const FormatInfo* unormFormat = formatInfo(VK_FORMAT_R8G8B8A8_UNORM);
    const FormatInfo* srgbFormat = formatInfo(VK_FORMAT_R8G8B8A8_SRGB);
    for (uint32_t c = 0; c < 256; ++c) {
      const uint8_t texel[4] = {uint8_t(c), uint8_t(c), uint8_t(c), uint8_t(c)};
      TexelValue u{}, v{};
      decodeTexel(*unormFormat, texel, u);
      decodeTexel(*srgbFormat, texel, v);
      unorm[c] = u.f[0];
      srgb[c] = v.f[0];
    }
  }
};

const ByteTables& byteTables() {
  static const ByteTables tables;
  return tables;
}

}  // namespace


TexelSource makeTexelSource(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                            const SampleRequest& request) {
  TexelSource src{};
  src.view = &view;
  src.format = formatInfo(VkFormat(view.format));
  src.depth = view.aspect == VK_IMAGE_ASPECT_DEPTH_BIT;
  src.stencil = view.aspect == VK_IMAGE_ASPECT_STENCIL_BIT;
  // Stencil is read as an unsigned integer ("one = 1 for ... stencil aspects"), depth as float.
  if (src.stencil) src.kind = TexelKind::UInt;
  else if (src.depth || !src.format) src.kind = TexelKind::Float;
  else src.kind = texelKind(*src.format);
  src.compare = request.compare;
  src.compareOp = sampler.compareOp;
  src.borderColor = sampler.borderColor;
  std::memcpy(src.customBorderColor, sampler.customBorderColor, sizeof(src.customBorderColor));
  // "Depth Compare Operation": "If the image being sampled has an unsigned normalized
  // fixed-point format, then D_ref is clamped to [0,1] before the compare operation."
  double dref = request.dref;
  const FormatComponent* compared =
      !src.format ? nullptr : src.depth ? src.format->component('D') : &src.format->components[0];
  if (isUnorm(compared)) dref = dref < 0 ? 0 : dref > 1 ? 1 : dref;
  src.dref = dref;
  switch (VkFormat(view.format)) {
    case VK_FORMAT_R8G8B8A8_UNORM: src.byteTable = byteTables().unorm; break;
    case VK_FORMAT_B8G8R8A8_UNORM: src.byteTable = byteTables().unorm, src.bgra = true; break;
    case VK_FORMAT_R8G8B8A8_SRGB: src.byteTable = byteTables().srgb; break;
    case VK_FORMAT_B8G8R8A8_SRGB: src.byteTable = byteTables().srgb, src.bgra = true; break;
    default: break;
  }
  if (src.depth || src.stencil) src.byteTable = nullptr;
  return src;
}

Texel readConverted(const TexelSource& src, uint32_t level, int32_t i, int32_t j, int32_t k, uint32_t layer) {
  const abi::ImageViewState& view = *src.view;
  const abi::ImageLevel& l = view.levels[level];
  // "Integer Texel Coordinate Validation" against the level's size, for the coordinates the
  // view type has (unused ones are 0). Layers are clamped before this and always pass.
  bool valid = i >= 0 && uint32_t(i) < l.width;
  switch (VkImageViewType(view.viewType)) {
    case VK_IMAGE_VIEW_TYPE_1D:
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      j = k = 0;
      break;
    case VK_IMAGE_VIEW_TYPE_3D:
      valid = valid && j >= 0 && uint32_t(j) < l.height && k >= 0 && uint32_t(k) < l.depth;
      break;
    default:  // 2D, 2D_ARRAY, CUBE, CUBE_ARRAY
      valid = valid && j >= 0 && uint32_t(j) < l.height;
      k = 0;
      break;
  }
  Texel t{};
  if (!valid) {
    // "Border Replacement": a border texel. "Border Texel Components After Replacement":
    // depth D = Br, stencil S = Br; a colour format takes the border components it has, and
    // "Conversion to RGBA" fills the others with 0 (alpha: one). The view's swizzle comes after
    // (finishTexel), for border and image texels alike.
    double b[4];
    borderColor(src, b);
    if (src.depth || src.stencil || !src.format) {
      t.c[0] = b[0];
      return t;
    }
    static constexpr char kNames[4] = {'R', 'G', 'B', 'A'};
    for (int c = 0; c < 4; ++c) t.c[c] = src.format->component(kNames[c]) ? b[c] : (c == 3 ? 1.0 : 0.0);
    return t;
  }
  if (!l.base || !src.format) return t;  // no memory behind the view: read zeros
  if (src.format->isCompressed()) {
    // A block-compressed view (ETC2/EAC): l.width/height count texels, but rows of memory are
    // rows of blocks (rowPitch = bytes per row of blocks, slicePitch per z slice of them,
    // view.texelSize = bytes per block; icd/image.cpp). Decode the block holding (i,j) and take
    // the texel; sRGB -> linear happens in the decoder, before any filtering.
    const FormatInfo& f = *src.format;
    const uint8_t* block = l.base + uint64_t(layer) * l.layerPitch + uint64_t(k) * l.slicePitch +
                           uint64_t(uint32_t(j) / f.blockHeight) * l.rowPitch +
                           uint64_t(uint32_t(i) / f.blockWidth) * view.texelSize;
    const TexelValue& v = src.block.texel(f, block, uint32_t(i) % f.blockWidth, uint32_t(j) % f.blockHeight);
    for (int c = 0; c < 4; ++c) t.c[c] = v.f[c];
    return t;
  }
  // Texel (i,j,k) of `layer`, sample 0 (sampled images are single-sample), laid out as
  // ImageLevel describes (the same addressing as the runtime's texelAddress).
  const uint8_t* p = l.base + uint64_t(layer) * l.layerPitch + uint64_t(k) * l.slicePitch + uint64_t(j) * l.rowPitch +
                     uint64_t(i) * view.samples * view.texelSize;
  // "Format Conversion".
  if (src.depth) {
    t.c[0] = decodeDepth(*src.format, p);
  } else if (src.stencil) {
    t.c[0] = p[0];  // stencil planes are one byte per texel
  } else if (src.byteTable) {
    const float* unorm = byteTables().unorm;
    t.c[0] = src.byteTable[p[src.bgra ? 2 : 0]];
    t.c[1] = src.byteTable[p[1]];
    t.c[2] = src.byteTable[p[src.bgra ? 0 : 2]];
    t.c[3] = unorm[p[3]];
  } else {
    TexelValue v;
    decodeTexel(*src.format, p, v);  // sRGB -> linear happens here, before any filtering
    for (int c = 0; c < 4; ++c)
      t.c[c] = src.kind == TexelKind::SInt ? double(v.i[c]) : src.kind == TexelKind::UInt ? double(v.u[c]) : v.f[c];
  }
  return t;
}

Texel finishTexel(const TexelSource& src, Texel t) {
  if (src.compare) {
    // "Depth Compare Operation": 1.0 if D_ref OP D_tex holds, else 0.0; the result replaces D,
    // and "Conversion to RGBA" gives [D, 0, 0, one]. (Views without a depth aspect can only
    // be compared with the SAMPLED_IMAGE_DEPTH_COMPARISON format feature; their R component
    // is compared and the result is expanded the same way.)
    const double result = compare(src.compareOp, src.dref, t.c[0]) ? 1.0 : 0.0;
    t = Texel{{result, 0, 0, 1}};
  } else if (src.depth || src.stencil) {
    // "Conversion to RGBA": depth [D, 0, 0, 1.0], stencil [S, 0, 0, 1].
    t = Texel{{t.c[0], 0, 0, 1}};
  }
  // "Component Swizzle": RED..ALPHA pick a component, ZERO and ONE substitute 0 and one
  // (1.0 or integer 1, both the double 1 here); IDENTITY keeps the component.
  Texel out;
  for (int c = 0; c < 4; ++c) {
    switch (VkComponentSwizzle(src.view->swizzle[c])) {
      case VK_COMPONENT_SWIZZLE_ZERO: out.c[c] = 0; break;
      case VK_COMPONENT_SWIZZLE_ONE: out.c[c] = 1; break;
      case VK_COMPONENT_SWIZZLE_R: out.c[c] = t.c[0]; break;
      case VK_COMPONENT_SWIZZLE_G: out.c[c] = t.c[1]; break;
      case VK_COMPONENT_SWIZZLE_B: out.c[c] = t.c[2]; break;
      case VK_COMPONENT_SWIZZLE_A: out.c[c] = t.c[3]; break;
      default: out.c[c] = t.c[c]; break;  // IDENTITY (callers resolve it, but be tolerant)
    }
  }
  return out;
}

}  // namespace tessera::sampler_detail

namespace tessera {

const float* unorm8Table() { return sampler_detail::byteTables().unorm; }
const float* srgb8Table() { return sampler_detail::byteTables().srgb; }

}  // namespace tessera
