// Runtime helpers for image instructions on storage images and texel buffers: addressing with
// bounds checks and format conversion through the sampler module's texel codec (32-bit
// single-component formats directly: isPlainWordView; the common 8/16/32-bit formats by their
// own conversions: DirectFormat). Called once per active lane by the
// generated code. Coordinates arrive as the shader gave them; an out-of-range texel is never
// written and reads as robustImageAccess2 says (replaceInvalidTexel), whatever the features.
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime_image.h"
#include "tessera/compressed.h"
#include "tessera/format.h"
#include "tessera/shader_abi.h"
#include "tessera/texel_codec.h"

using tessera::abi::ImageDescriptor;
using tessera::abi::ImageViewState;
using tessera::abi::TexelBufferDescriptor;

namespace {

// Texel address for integer coordinates (x, y, z) where z is the layer for arrayed views (and
// cube faces), the depth slice for 3D views. Null when out of range. Block-compressed views
// (blockWidth x blockHeight texels per block) give the address of the block holding the texel:
// their levels' width/height count texels, rowPitch steps over a row of blocks and texelSize is
// the block's size (icd/image.cpp).
uint8_t* texelAddress(const ImageViewState* v, int32_t x, int32_t y, int32_t z, int32_t sample, int32_t lod,
                      uint32_t blockWidth = 1, uint32_t blockHeight = 1) {
  if (!v || lod < 0 || uint32_t(lod) >= v->levelCount) return nullptr;
  const tessera::abi::ImageLevel& l = v->levels[lod];
  if (!l.base || x < 0 || uint32_t(x) >= l.width || sample < 0 || uint32_t(sample) >= v->samples) return nullptr;
  uint32_t layer = 0, slice = 0;
  switch (VkImageViewType(v->viewType)) {
    case VK_IMAGE_VIEW_TYPE_1D:
      y = 0;
      break;
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY:
      if (y < 0 || uint32_t(y) >= v->layerCount) return nullptr;
      layer = uint32_t(y);
      y = 0;
      break;
    case VK_IMAGE_VIEW_TYPE_2D:
      break;
    case VK_IMAGE_VIEW_TYPE_3D:
      if (z < 0 || uint32_t(z) >= l.depth) return nullptr;
      slice = uint32_t(z);
      break;
    default:  // 2D_ARRAY, CUBE, CUBE_ARRAY: z selects the layer (face)
      if (z < 0 || uint32_t(z) >= v->layerCount) return nullptr;
      layer = uint32_t(z);
      break;
  }
  if (y < 0 || uint32_t(y) >= l.height) return nullptr;
  // Texels rather than blocks almost always: no division then (two of them cost more than the
  // rest of the addressing).
  const uint32_t row = blockHeight == 1 ? uint32_t(y) : uint32_t(y) / blockHeight;
  const uint32_t column = blockWidth == 1 ? uint32_t(x) : uint32_t(x) / blockWidth;
  return l.base + layer * l.layerPitch + slice * l.slicePitch + uint64_t(row) * l.rowPitch +
         (uint64_t(column) * v->samples + uint32_t(sample)) * v->texelSize;
}

const ImageViewState* viewOf(const ImageDescriptor* d) { return d ? d->view : nullptr; }

// "Texel Replacement" under robustImageAccess2 and robustBufferAccess2: an out-of-range texel
// reads as zero with the components its format lacks filled in as "Conversion to RGBA" does,
// (0, 0, 1) for G, B and A: only alpha can differ from zero, and is one where the format has
// none (depth and stencil aspects included). A null descriptor (nullDescriptor) is not out of
// range: it reads as all zeros and never comes here.
void replaceInvalidTexel(const tessera::FormatInfo& f, bool stencilAspect, tessera::TexelValue& t) {
  t = {};
  if (f.component('A') && !f.isDepthStencil()) return;
  const bool integer = stencilAspect || (!f.isDepthStencil() && tessera::texelKind(f) != tessera::TexelKind::Float);
  if (integer) t.u[3] = 1;
  else t.f[3] = 1.0f;
}

// Whether the view's swizzle (resolved: IDENTITY is already the component itself) keeps every
// component in its place.
bool identitySwizzle(const ImageViewState& v) {
  for (uint32_t c = 0; c < 4; ++c)
    if (v.swizzle[c] != VK_COMPONENT_SWIZZLE_R + c) return false;
  return true;
}

// "Component Swizzle" of the view on a texel read with OpImageFetch; storage images and input
// attachments have identity swizzles.
void swizzle(const ImageViewState& v, const tessera::FormatInfo& f, tessera::TexelValue& t) {
  if (identitySwizzle(v)) return;
  const bool integer = v.aspect == VK_IMAGE_ASPECT_STENCIL_BIT ||
                       (!f.isDepthStencil() && tessera::texelKind(f) != tessera::TexelKind::Float);
  const tessera::TexelValue in = t;
  for (uint32_t c = 0; c < 4; ++c) {
    switch (VkComponentSwizzle(v.swizzle[c])) {
      case VK_COMPONENT_SWIZZLE_ZERO: t.u[c] = 0; break;
      case VK_COMPONENT_SWIZZLE_ONE:
        if (integer) t.u[c] = 1;
        else t.f[c] = 1.0f;
        break;
      case VK_COMPONENT_SWIZZLE_R:
      case VK_COMPONENT_SWIZZLE_G:
      case VK_COMPONENT_SWIZZLE_B:
      case VK_COMPONENT_SWIZZLE_A: t.u[c] = in.u[v.swizzle[c] - VK_COMPONENT_SWIZZLE_R]; break;
      default: break;
    }
  }
}

// A texel of `size` bytes (at most 16) copied whole: with one load or store where the size
// has one, because other invocations (other threads) may write or read the texel meanwhile and
// must see the old or the new value, never half of each.
void loadWhole(const uint8_t* src, uint8_t* texel, uint32_t size) {
  if (size == 4) {
    const uint32_t w = __atomic_load_n(reinterpret_cast<const uint32_t*>(src), __ATOMIC_RELAXED);
    std::memcpy(texel, &w, 4);
  } else if (size == 8) {
    const uint64_t w = __atomic_load_n(reinterpret_cast<const uint64_t*>(src), __ATOMIC_RELAXED);
    std::memcpy(texel, &w, 8);
  } else if (size <= 16) {
    std::memcpy(texel, src, size);
  }
}
void storeWhole(const uint8_t* texel, uint8_t* dst, uint32_t size) {
  if (size == 4) {
    uint32_t w;
    std::memcpy(&w, texel, 4);
    __atomic_store_n(reinterpret_cast<uint32_t*>(dst), w, __ATOMIC_RELAXED);
  } else if (size == 8) {
    uint64_t w;
    std::memcpy(&w, texel, 8);
    __atomic_store_n(reinterpret_cast<uint64_t*>(dst), w, __ATOMIC_RELAXED);
  } else if (size <= 16) {
    std::memcpy(dst, texel, size);
  }
}

// Reads a texel whole (loadWhole) and decodes it.
void loadTexel(const tessera::FormatInfo& f, const uint8_t* src, uint32_t size, tessera::TexelValue& out) {
  alignas(16) uint8_t texel[16] = {};
  loadWhole(src, texel, size);
  tessera::decodeTexel(f, texel, out);
}

// Encodes in a local copy and then stores the whole texel with one copy: the codec builds a
// texel bit by bit, and other invocations (other threads) may read this texel meanwhile; they
// must see the old or the new value, never a half-written one.
void storeTexel(const tessera::FormatInfo& f, const uint32_t* in, uint8_t* dst, uint32_t size) {
  tessera::TexelValue t;
  std::memcpy(t.u, in, 16);
  alignas(16) uint8_t texel[16];
  if (size > sizeof(texel)) return;
  std::memcpy(texel, dst, size);  // bits the format leaves unused keep their value
  tessera::encodeTexel(f, t, texel);
  storeWhole(texel, dst, size);
}

// A 32-bit single-component colour view (R32_UINT, R32_SINT, R32_SFLOAT) with the identity
// swizzle: its texel is the component's word as it is ("Conversion to RGBA" fills G and B with
// 0 and A with 1, integer or float). Storage-image loops, atomics' neighbours and the memory
// model's message passing use these; they skip the codec's layout walk (an out-of-range texel
// still takes the general path, which replaces it).
bool isPlainWordView(const ImageViewState* v) {
  if (!v || v->aspect != VK_IMAGE_ASPECT_COLOR_BIT) return false;
  if (v->format != VK_FORMAT_R32_UINT && v->format != VK_FORMAT_R32_SINT && v->format != VK_FORMAT_R32_SFLOAT)
    return false;
  return identitySwizzle(*v);
}

// An 8-bit four-component UNORM or sRGB colour view, RGBA or BGRA order, with the identity
// swizzle (the textures texelFetch reads most): the R, G and B table its bytes decode through
// (the codec's own, texel_codec.h) and whether R and B trade places; null for other views. Such
// a texel skips the codec's walk over the format's layout (four fifths of a texelFetch's time).
const float* bytes4Table(const ImageViewState* v, bool& bgra) {
  if (!v || v->aspect != VK_IMAGE_ASPECT_COLOR_BIT || !identitySwizzle(*v)) return nullptr;
  bgra = v->format == VK_FORMAT_B8G8R8A8_UNORM || v->format == VK_FORMAT_B8G8R8A8_SRGB;
  switch (VkFormat(v->format)) {
    case VK_FORMAT_R8G8B8A8_UNORM:
    case VK_FORMAT_B8G8R8A8_UNORM: return tessera::unorm8Table();
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB: return tessera::srgb8Table();
    default: return nullptr;
  }
}

// Colour formats whose texels the helpers convert themselves, exactly as the codec does
// (tests/unit/spirv_jit/runtime_image_direct_test.cpp holds them to it on random values): each
// component a whole 8-, 16- or 32-bit word in R, G, B, A order (B8G8R8A8: B, G, R, A), UNORM
// (8-bit), UINT, SINT or, 32-bit, SFLOAT. The codec's walk over the format's layout, its
// per-component dispatch and the format lookup are most of a storage-image access otherwise
// (CTS timeline_semaphore.*.read_image_fragment: 80% of 1.4-5.9 s a case in encodeTexel).
struct DirectFormat {
  enum Kind : uint8_t { None, Unorm8, Uint, Sint, Float32 } kind = None;
  uint8_t components = 0;  // 1-4
  uint8_t bytes = 0;       // per component: 1, 2 or 4
  bool bgra = false;
};

DirectFormat directFormat(uint32_t format) {
  using D = DirectFormat;
  switch (VkFormat(format)) {
    case VK_FORMAT_R8_UNORM: return {D::Unorm8, 1, 1};
    case VK_FORMAT_R8G8_UNORM: return {D::Unorm8, 2, 1};
    case VK_FORMAT_R8G8B8A8_UNORM: return {D::Unorm8, 4, 1};
    case VK_FORMAT_B8G8R8A8_UNORM: return {D::Unorm8, 4, 1, true};
    case VK_FORMAT_R8_UINT: return {D::Uint, 1, 1};
    case VK_FORMAT_R8G8_UINT: return {D::Uint, 2, 1};
    case VK_FORMAT_R8G8B8A8_UINT: return {D::Uint, 4, 1};
    case VK_FORMAT_R8_SINT: return {D::Sint, 1, 1};
    case VK_FORMAT_R8G8_SINT: return {D::Sint, 2, 1};
    case VK_FORMAT_R8G8B8A8_SINT: return {D::Sint, 4, 1};
    case VK_FORMAT_R16_UINT: return {D::Uint, 1, 2};
    case VK_FORMAT_R16G16_UINT: return {D::Uint, 2, 2};
    case VK_FORMAT_R16G16B16A16_UINT: return {D::Uint, 4, 2};
    case VK_FORMAT_R16_SINT: return {D::Sint, 1, 2};
    case VK_FORMAT_R16G16_SINT: return {D::Sint, 2, 2};
    case VK_FORMAT_R16G16B16A16_SINT: return {D::Sint, 4, 2};
    case VK_FORMAT_R32G32_UINT: return {D::Uint, 2, 4};
    case VK_FORMAT_R32G32B32A32_UINT: return {D::Uint, 4, 4};
    case VK_FORMAT_R32G32_SINT: return {D::Sint, 2, 4};
    case VK_FORMAT_R32G32B32A32_SINT: return {D::Sint, 4, 4};
    case VK_FORMAT_R32G32_SFLOAT: return {D::Float32, 2, 4};
    case VK_FORMAT_R32G32B32A32_SFLOAT: return {D::Float32, 4, 4};
    default: return {};
  }
}

// The direct form of a colour view (identity swizzle), or kind None.
DirectFormat directView(const ImageViewState* v) {
  if (!v || v->aspect != VK_IMAGE_ASPECT_COLOR_BIT || !identitySwizzle(*v)) return {};
  return directFormat(v->format);
}

// "Conversion from Normalized Fixed-Point to Floating-Point" reversed as the codec does it:
// clamp to [0, 1] (NaN to 0), scale, round to nearest even (the default rounding mode).
uint32_t unorm8Of(uint32_t word) {
  float f;
  std::memcpy(&f, &word, 4);
  const double clamped = f != f ? 0.0 : std::clamp(double(f), 0.0, 1.0);
  return uint32_t(std::nearbyint(clamped * 255.0));
}

// Encodes `in` into the texel at p, stored whole (storeWhole).
void storeDirect(const DirectFormat& d, const uint32_t* in, uint8_t* p) {
  alignas(16) uint8_t texel[16];
  for (uint32_t c = 0; c < d.components; ++c) {
    const uint32_t source = d.bgra && c != 3 ? 2 - c : c;  // B8G8R8A8: memory holds B, G, R, A
    uint32_t w = in[source];
    switch (d.kind) {
      case DirectFormat::Unorm8: w = unorm8Of(w); break;
      case DirectFormat::Uint:  // clamped to the component's range, as encodeTexel does
        if (d.bytes < 4) w = std::min<uint32_t>(w, (1u << (8 * d.bytes)) - 1);
        break;
      case DirectFormat::Sint:
        if (d.bytes < 4) {
          const int32_t limit = int32_t(1u << (8 * d.bytes - 1));
          w = uint32_t(std::clamp(int32_t(w), -limit, limit - 1));
        }
        break;
      default: break;  // 32-bit words are stored as they are
    }
    std::memcpy(texel + c * d.bytes, &w, d.bytes);  // little-endian: the word's low bytes
  }
  storeWhole(texel, p, uint32_t(d.components) * d.bytes);
}

// Decodes the texel at p: the components it has, then (0, 0, 0, 1) for the rest ("Conversion
// to RGBA": 1 as an integer for UINT/SINT, 1.0 otherwise).
void loadDirect(const DirectFormat& d, const uint8_t* p, uint32_t* out) {
  alignas(16) uint8_t texel[16] = {};
  loadWhole(p, texel, uint32_t(d.components) * d.bytes);
  const bool integer = d.kind == DirectFormat::Uint || d.kind == DirectFormat::Sint;
  out[0] = out[1] = out[2] = 0;
  out[3] = integer ? 1u : 0x3F800000u;
  for (uint32_t c = 0; c < d.components; ++c) {
    const uint32_t target = d.bgra && c != 3 ? 2 - c : c;
    uint32_t w = 0;
    std::memcpy(&w, texel + c * d.bytes, d.bytes);
    switch (d.kind) {
      case DirectFormat::Unorm8: std::memcpy(&out[target], &tessera::unorm8Table()[w], 4); break;
      case DirectFormat::Sint:
        if (d.bytes < 4) w = uint32_t(int32_t(w << (32 - 8 * d.bytes)) >> (32 - 8 * d.bytes));  // sign-extend
        out[target] = w;
        break;
      default: out[target] = w; break;
    }
  }
}

}  // namespace

extern "C" {

void tessera_rt_image_read(const ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample, int32_t lod,
                           uint32_t* out) {
  const ImageViewState* v = viewOf(d);
  if (isPlainWordView(v))
    if (const uint8_t* p = texelAddress(v, x, y, z, sample, lod)) {
      out[0] = __atomic_load_n(reinterpret_cast<const uint32_t*>(p), __ATOMIC_RELAXED);
      out[1] = out[2] = 0;
      out[3] = v->format == VK_FORMAT_R32_SFLOAT ? 0x3F800000u : 1u;  // 1.0f or integer 1
      return;
    }
  bool bgra = false;
  if (const float* rgb = bytes4Table(v, bgra))
    if (const uint8_t* p = texelAddress(v, x, y, z, sample, lod)) {
      const uint32_t w = __atomic_load_n(reinterpret_cast<const uint32_t*>(p), __ATOMIC_RELAXED);
      const float values[4] = {rgb[w >> (bgra ? 16 : 0) & 0xFF], rgb[w >> 8 & 0xFF], rgb[w >> (bgra ? 0 : 16) & 0xFF],
                               tessera::unorm8Table()[w >> 24]};  // alpha is UNORM in sRGB formats too
      std::memcpy(out, values, 16);
      return;
    }
  if (const DirectFormat direct = directView(v); direct.kind != DirectFormat::None)
    if (const uint8_t* p = texelAddress(v, x, y, z, sample, lod)) {
      loadDirect(direct, p, out);
      return;
    }
  const tessera::FormatInfo* f = v ? tessera::formatInfo(VkFormat(v->format)) : nullptr;
  tessera::TexelValue t{};
  if (f && f->isCompressed()) {
    // OpImageFetch on an ETC2/EAC sampled image: decode the block, take texel (x, y) of it.
    // (Compressed images are never 1D, so y is a texel row here.)
    tessera::TexelValue texels[16];
    if (const uint8_t* p = texelAddress(v, x, y, z, sample, lod, f->blockWidth, f->blockHeight);
        p && tessera::decodeCompressedBlock(*f, p, texels))
      t = texels[uint32_t(y) % f->blockHeight * 4 + uint32_t(x) % f->blockWidth];
    else
      replaceInvalidTexel(*f, false, t);
  } else if (uint8_t* p = texelAddress(v, x, y, z, sample, lod); p && f && f->isDepthStencil()) {
    // A depth or stencil view read as an input attachment (subpassLoad) or with texelFetch:
    // the aspect's value in the first component, (x, 0, 0, 1) ("Depth and stencil formats":
    // depth as a float, stencil as an unsigned integer).
    if (v->aspect == VK_IMAGE_ASPECT_STENCIL_BIT) {
      t.u[0] = *p;
      t.u[3] = 1;
    } else {
      t.f[0] = tessera::decodeDepth(*f, p);
      t.f[3] = 1.0f;
    }
  } else if (p && f) {
    loadTexel(*f, p, v->texelSize, t);
  } else if (f) {
    replaceInvalidTexel(*f, v->aspect == VK_IMAGE_ASPECT_STENCIL_BIT, t);
  }
  if (f) swizzle(*v, *f, t);
  std::memcpy(out, t.u, 16);
}

void tessera_rt_image_write(const ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample, int32_t lod,
                            const uint32_t* in) {
  const ImageViewState* v = viewOf(d);
  uint8_t* p = texelAddress(v, x, y, z, sample, lod);
  if (!p) return;
  if (isPlainWordView(v)) {  // the codec stores the component's word as it is
    __atomic_store_n(reinterpret_cast<uint32_t*>(p), in[0], __ATOMIC_RELAXED);
    return;
  }
  if (const DirectFormat direct = directView(v); direct.kind != DirectFormat::None) {
    storeDirect(direct, in, p);
    return;
  }
  const tessera::FormatInfo* f = tessera::formatInfo(VkFormat(v->format));
  if (!f) return;
  storeTexel(*f, in, p, v->texelSize);
}

// Address of a texel for atomics (R32 formats), or null when out of range.
void* tessera_rt_image_texel(const ImageDescriptor* d, int32_t x, int32_t y, int32_t z, int32_t sample) {
  return texelAddress(viewOf(d), x, y, z, sample, 0);
}

// out = (width, height, depth or layers, levels) of `lod`, as OpImageQuerySize(Lod) reports:
// arrayed views give their layer count as the last size component.
void tessera_rt_image_query(const ImageDescriptor* d, int32_t lod, uint32_t* out) {
  std::memset(out, 0, 20);
  const ImageViewState* v = viewOf(d);
  if (!v || lod < 0 || uint32_t(lod) >= v->levelCount) return;
  const tessera::abi::ImageLevel& l = v->levels[lod];
  out[0] = l.width;
  switch (VkImageViewType(v->viewType)) {
    case VK_IMAGE_VIEW_TYPE_1D: break;
    case VK_IMAGE_VIEW_TYPE_1D_ARRAY: out[1] = v->layerCount; break;
    case VK_IMAGE_VIEW_TYPE_2D:
    case VK_IMAGE_VIEW_TYPE_CUBE: out[1] = l.height; break;
    case VK_IMAGE_VIEW_TYPE_3D: out[1] = l.height, out[2] = l.depth; break;
    case VK_IMAGE_VIEW_TYPE_CUBE_ARRAY: out[1] = l.height, out[2] = v->layerCount / 6; break;
    default: out[1] = l.height, out[2] = v->layerCount; break;
  }
  out[3] = v->levelCount;
  out[4] = v->samples;
}

void tessera_rt_texel_buffer_read(const TexelBufferDescriptor* d, int32_t index, uint32_t* out) {
  tessera::TexelValue t{};
  const tessera::FormatInfo* f = d && d->address ? tessera::formatInfo(VkFormat(d->format)) : nullptr;
  if (f && index >= 0 && uint32_t(index) < d->elementCount)
    loadTexel(*f, d->address + uint64_t(index) * d->texelSize, d->texelSize, t);
  else if (f)
    replaceInvalidTexel(*f, false, t);
  std::memcpy(out, t.u, 16);
}

void tessera_rt_texel_buffer_write(const TexelBufferDescriptor* d, int32_t index, const uint32_t* in) {
  if (!d || !d->address || index < 0 || uint32_t(index) >= d->elementCount) return;
  const tessera::FormatInfo* f = tessera::formatInfo(VkFormat(d->format));
  if (!f) return;
  storeTexel(*f, in, d->address + uint64_t(index) * d->texelSize, d->texelSize);
}

void* tessera_rt_texel_buffer_texel(const TexelBufferDescriptor* d, int32_t index) {
  if (!d || !d->address || index < 0 || uint32_t(index) >= d->elementCount) return nullptr;
  return d->address + uint64_t(index) * d->texelSize;
}

uint32_t tessera_rt_texel_buffer_size(const TexelBufferDescriptor* d) { return d ? d->elementCount : 0; }

}  // extern "C"
