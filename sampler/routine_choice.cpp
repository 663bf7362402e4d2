// Which batched sampling routine serves a view and a sampler (sampling_batch.h): the view's and
// the sampler's classes, computed when their states are made, and the choice per batch shape
// among the exact routines (batch_sampler_exact.h), their anisotropic instances and the fixed-point
// UNORM8 / BC1 ones (batch_sampler_unorm8.cpp). Kept apart from the routines so that a change of
// the choice does not recompile them (the exact ones take a quarter of an hour).
#include <vulkan/vulkan_core.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "batch_lanes.h"
#include "tessera/decoded_texture.h"
#include "tessera/sampling_batch.h"

namespace tessera {

using namespace sampler_detail::batch;

namespace {

bool routineAddressMode(uint32_t mode) {
  return mode == VK_SAMPLER_ADDRESS_MODE_REPEAT || mode == VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT ||
         mode == VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
}

}  // namespace

uint32_t classifyViewForRoutines(const abi::ImageViewState& view) {
  uint32_t code;
  switch (VkFormat(view.format)) {
    case VK_FORMAT_R8G8B8A8_UNORM: code = kRgba8Unorm; break;
    case VK_FORMAT_B8G8R8A8_UNORM: code = kBgra8Unorm; break;
    case VK_FORMAT_R8G8B8A8_SRGB: code = kRgba8Srgb; break;
    case VK_FORMAT_B8G8R8A8_SRGB: code = kBgra8Srgb; break;
    case VK_FORMAT_R8_UNORM: code = kR8Unorm; break;
    case VK_FORMAT_R8G8_UNORM: code = kRg8Unorm; break;
    case VK_FORMAT_R16G16B16A16_SFLOAT: code = kRgba16Sfloat; break;
    case VK_FORMAT_R16_SFLOAT: code = kR16Sfloat; break;
    case VK_FORMAT_R32G32B32A32_SFLOAT: code = kRgba32Sfloat; break;
    case VK_FORMAT_R32_SFLOAT: code = kR32Sfloat; break;
    case VK_FORMAT_R16G16_SFLOAT: code = kRg16Sfloat; break;
    case VK_FORMAT_R16G16B16_SFLOAT: code = kRgb16Sfloat; break;
    case VK_FORMAT_R32G32_SFLOAT: code = kRg32Sfloat; break;
    case VK_FORMAT_D16_UNORM:
    case VK_FORMAT_D16_UNORM_S8_UINT: code = kDepth16Unorm; break;
    case VK_FORMAT_X8_D24_UNORM_PACK32:
    case VK_FORMAT_D24_UNORM_S8_UINT: code = kDepth24Unorm; break;
    case VK_FORMAT_D32_SFLOAT:
    case VK_FORMAT_D32_SFLOAT_S8_UINT: code = kDepth32Sfloat; break;
    case VK_FORMAT_BC1_RGB_UNORM_BLOCK: code = kBc1RgbUnorm; break;
    case VK_FORMAT_BC1_RGBA_UNORM_BLOCK: code = kBc1RgbaUnorm; break;
    default: return 0;
  }
  const bool depth = code == kDepth16Unorm || code == kDepth24Unorm || code == kDepth32Sfloat;
  if (view.viewType != VK_IMAGE_VIEW_TYPE_2D && view.viewType != VK_IMAGE_VIEW_TYPE_2D_ARRAY) return 0;
  if (view.aspect != (depth ? VK_IMAGE_ASPECT_DEPTH_BIT : VK_IMAGE_ASPECT_COLOR_BIT) || view.samples != 1 ||
      view.texelSize != exactTexelSize(code))
    return 0;
  if (view.levelCount == 0 || view.layerCount == 0) return 0;
  // Any swizzle: the exact routines swizzle each texel as the reference does (swizzleTexels), the
  // fixed-point UNORM8 ones their filtered result (batch_sampler_unorm8.cpp's swizzleResult).
  // OpenGL on Vulkan (zink) asks for one on every RGB (alpha ONE), luminance, alpha and depth
  // texture.
  for (uint32_t c = 0; c < 4; ++c)
    if (view.swizzle[c] > VK_COMPONENT_SWIZZLE_A) return 0;
  // Every level in memory and of a size the wrap's double arithmetic is exact for.
  for (uint32_t l = 0; l < std::min(view.levelCount, abi::kMaxImageLevels); ++l) {
    const abi::ImageLevel& level = view.levels[l];
    if (!level.base || level.width == 0 || level.height == 0 || level.width > 65536 || level.height > 65536) return 0;
  }
  return code;
}

uint32_t classifySamplerForRoutines(const abi::SamplerState& s) {
  auto filter = [](uint32_t f) { return f == VK_FILTER_NEAREST || f == VK_FILTER_LINEAR; };
  if (!filter(s.magFilter) || !filter(s.minFilter)) return 0;
  if (s.mipmapMode != VK_SAMPLER_MIPMAP_MODE_NEAREST && s.mipmapMode != VK_SAMPLER_MIPMAP_MODE_LINEAR) return 0;
  if (!routineAddressMode(s.addressMode[0]) || !routineAddressMode(s.addressMode[1])) return 0;
  if (s.unnormalizedCoordinates) return 0;
  if (s.reductionMode == VK_SAMPLER_REDUCTION_MODE_MIN || s.reductionMode == VK_SAMPLER_REDUCTION_MODE_MAX) return 0;
  // NaN LOD clamps (invalid usage) could make d' NaN, whose conversion to a level is not defined.
  if (s.minLod != s.minLod || s.maxLod != s.maxLod) return 0;
  // "Texel Anisotropic Filtering" takes N samples at a λ of its own: classes 9-16, which only
  // the exact routines' anisotropic instances take (anisotropicAndStore). max_Aniso = 1 is
  // isotropic and keeps its class.
  const bool anisotropic = s.anisotropyEnable && s.maxAnisotropy > 1.0f;
  return 1 + s.magFilter + 2 * s.minFilter + 4 * s.mipmapMode + (anisotropic ? 8 : 0);
}

SampleRoutine findSampleRoutine(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                const SampleShape& shape) {
  if (!view.fastSampling || !sampler.fastSampling || sampler.fastSampling > 16) return nullptr;
  if (!shape.sample || shape.compare || shape.coordCount != 2) return nullptr;
  const int row = shape.width == 4 ? 0 : shape.width == 8 ? 1 : shape.width == 16 ? 2 : -1;
  if (row < 0) return nullptr;
  // TESSERA_SAMPLING_ROUTINES (batch_lanes.h samplingRoutines).
  const SamplingRoutines mode = sampler_detail::batch::samplingRoutines();
  if (mode == SamplingRoutines::None) return nullptr;
  if (mode != SamplingRoutines::Exact)
    if (SampleRoutine fixedPoint = unorm8Routine(view.fastSampling, uint32_t(row), sampler.fastSampling)) return fixedPoint;
  if (sampler.fastSampling > 8) return anisotropicRoutine(uint32_t(row), sampler.fastSampling);
  return exactRoutine(uint32_t(row), sampler.fastSampling);
}

const abi::ImageViewState& viewToSample(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                        const SampleShape& shape) {
  if (!view.decoded) return view;
  if (view.viewType != VK_IMAGE_VIEW_TYPE_2D && view.viewType != VK_IMAGE_VIEW_TYPE_2D_ARRAY) return view;
  // findSampleRoutine's conditions for a routine.
  if (!sampler.fastSampling || sampler.fastSampling > 16) return view;
  if (!shape.sample || shape.compare || shape.coordCount != 2) return view;
  const int row = shape.width == 4 ? 0 : shape.width == 8 ? 1 : shape.width == 16 ? 2 : -1;
  const SamplingRoutines mode = sampler_detail::batch::samplingRoutines();
  if (row < 0 || mode == SamplingRoutines::None) return view;
  const bool bc1 = view.fastSampling == kBc1RgbUnorm || view.fastSampling == kBc1RgbaUnorm;
  if (bc1) {
    // Only where the fixed-point routine reads the blocks (the copy is its bytes).
    if (mode != SamplingRoutines::All || !unorm8Routine(view.fastSampling, uint32_t(row), sampler.fastSampling)) return view;
  } else if (view.fastSampling != 0) {
    return view;
  }
  // A copy rounded to bytes only for the fixed-point routines (=exact asks for the reference's
  // bits, which the blocks give).
  if (!view.decoded->texture().exact() && mode != SamplingRoutines::All) return view;
  const abi::ImageViewState* decoded = view.decoded->current(view);
  if (!decoded) return view;
  // BC2-BC7, ETC2 (the blocks have no routine): where the copy has one; elsewhere the reference
  // reads the blocks (with the same texels where the copy is exact).
  if (!bc1 && !findSampleRoutine(*decoded, sampler, shape)) return view;
  return *decoded;
}

const abi::ImageViewState& cubeViewToSample(const abi::ImageViewState& view) {
  if (!view.decoded || view.viewType != VK_IMAGE_VIEW_TYPE_CUBE) return view;
  // BC1 keeps its blocks: its faces have the fixed-point routine already, and the lanes the
  // batches hand to the reference (footprints at face edges) read its exact palette there.
  if (view.format == VK_FORMAT_BC1_RGB_UNORM_BLOCK || view.format == VK_FORMAT_BC1_RGBA_UNORM_BLOCK) return view;
  // The others' cubes were the reference's alone; their copies' faces take the fixed-point
  // routines (every routine allowed, as the cube batches require), edge lanes the reference on
  // the copy: the same texels for exact copies, rounded ones within 1/510.
  if (sampler_detail::batch::samplingRoutines() != SamplingRoutines::All) return view;
  // Only copies whose faces the batches have routines for (the fixed-point ones): the others'
  // cubes are the reference's, on the blocks.
  const uint32_t copy = view.decoded->texture().copyFormat();
  if (copy != VK_FORMAT_R8G8B8A8_UNORM && copy != VK_FORMAT_R8_UNORM && copy != VK_FORMAT_R8G8_UNORM) return view;
  const abi::ImageViewState* decoded = view.decoded->current(view);
  return decoded ? *decoded : view;
}

namespace sampler_detail::batch {

SamplingRoutines samplingRoutines() {
  static const SamplingRoutines mode = [] {
    const char* v = std::getenv("TESSERA_SAMPLING_ROUTINES");
    return !v                             ? SamplingRoutines::All
           : std::strcmp(v, "0") == 0     ? SamplingRoutines::None
           : std::strcmp(v, "exact") == 0 ? SamplingRoutines::Exact
                                          : SamplingRoutines::All;
  }();
  return mode;
}

}  // namespace sampler_detail::batch

}  // namespace tessera
