// Which format features Tessera implements, derived from what the code can do with each
// format rather than listed by hand: copies work on any single-plane format (they move bytes),
// blits and clears need the texel codec, linear blits a float-decoded format; sampling, storage
// and texel buffers whatever the codec and the reference sampler read (ETC2/EAC and BC: sampling
// and blit sources through their block decoders). Attachments wait for the rasterizer.
#include <bit>
#include <cmath>
#include <cstring>

#include "entrypoints.h"
#include "external_memory.h"
#include "physical_device.h"
#include "tessera/compressed.h"
#include "tessera/format.h"
#include "tessera/texel_codec.h"

namespace tessera {

VkFormatFeatureFlags2 storageFeatures(VkFormat format);
VkFormatFeatureFlags2 attachmentFeatures(const FormatInfo& info);

// Sampling goes through the sampler module's reference (sampler/reference_sampler.cpp), which
// reads any format the texel codec decodes and depth/stencil aspects. Linear filtering and
// min/max reduction need a value that can be weighted: float-decoded colour formats and depth
// (the same bit also allows linear blits). Depth comparison is for depth formats.
VkFormatFeatureFlags2 sampledFeatures(const FormatInfo& info) {
  VkFormatFeatureFlags2 f = VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT;
  const bool filterable = info.hasDepth() || (!info.isDepthStencil() && texelKind(info) == TexelKind::Float);
  if (filterable)
    f |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_MINMAX_BIT;
  if (info.hasDepth()) f |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_DEPTH_COMPARISON_BIT;
  // A sampler Y'CbCr conversion may also read a single-plane UNORM colour format (RGB stored
  // as Y'CbCr, R = Cr, G = Y', B = Cb): sampler/ycbcr_sampling.cpp decodes it with the texel
  // codec and converts it like a Y'CbCr format's texels.
  bool unorm = !info.isDepthStencil() && !info.isCompressed() && info.componentCount > 0;
  for (uint32_t c = 0; c < info.componentCount; ++c) unorm = unorm && info.components[c].numeric == NumericFormat::UNorm;
  if (unorm)
    f |= VK_FORMAT_FEATURE_2_MIDPOINT_CHROMA_SAMPLES_BIT | VK_FORMAT_FEATURE_2_COSITED_CHROMA_SAMPLES_BIT |
         VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT |
         VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_SEPARATE_RECONSTRUCTION_FILTER_BIT;
  return f;
}

// Formats that need a sampler Y'CbCr conversion to be sampled (multi-planar, packed 4:2:2):
// copies move their planes' bytes (icd/cmd_image_copy.cpp), and sampling through a conversion
// (sampler/ycbcr_sampling.cpp) reconstructs chroma at either location with either chroma filter,
// independently of the sampler's own filter (SEPARATE_RECONSTRUCTION_FILTER), implicitly only
// (no CHROMA_RECONSTRUCTION_EXPLICIT). Multi-planar images may bind each plane's memory apart.
VkFormatFeatureFlags2 ycbcrFeatures(const FormatInfo& info) {
  VkFormatFeatureFlags2 f = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT |
                            VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                            VK_FORMAT_FEATURE_2_MIDPOINT_CHROMA_SAMPLES_BIT |
                            VK_FORMAT_FEATURE_2_COSITED_CHROMA_SAMPLES_BIT |
                            VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_LINEAR_FILTER_BIT |
                            VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_YCBCR_CONVERSION_SEPARATE_RECONSTRUCTION_FILTER_BIT;
  if (info.planeCount > 1) f |= VK_FORMAT_FEATURE_2_DISJOINT_BIT;
  return f;
}

VkFormatFeatureFlags2 formatFeatures(VkFormat format, VkImageTiling tiling) {
  const FormatInfo* info = formatInfo(format);
  if (!info) return 0;
  if (info->planeCount > 1 || info->needsYcbcrConversion)
    return tiling == VK_IMAGE_TILING_LINEAR || tiling == VK_IMAGE_TILING_OPTIMAL ? ycbcrFeatures(*info) : 0;
  const bool depthStencil = info->isDepthStencil();
  // Every image is laid out linearly (icd/image.cpp), so linear tiling is the same memory as
  // optimal; compressed formats get it when their blocks can be decoded (rows of blocks are
  // what vkGetImageSubresourceLayout's rowPitch describes for them).
  if (tiling == VK_IMAGE_TILING_LINEAR && (depthStencil || (info->isCompressed() && !hasBlockDecoder(*info))))
    return 0;
  if (tiling != VK_IMAGE_TILING_LINEAR && tiling != VK_IMAGE_TILING_OPTIMAL) return 0;

  VkFormatFeatureFlags2 features = VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT;
  if (depthStencil) {
    features |= VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
    features |= sampledFeatures(*info);
    features |= VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT;  // raster/draw_fragments.cpp
  } else if (hasColorCodec(*info)) {
    // No blits for USCALED/SSCALED: they hold integers, and the CTS (with lavapipe) treats a
    // blit between them and float/normalized formats as invalid; blitting them to each
    // other has no use an application would notice. Copies still work.
    //
    // No sampling either. The reference sampler reads them as the spec says ("Interpretation
    // of Numeric Format": integers converted to float, through an OpTypeFloat Sampled Type),
    // but the conformance tests cannot check that: pipeline.*.image/sampler/image_view sample
    // them through usampler/isampler (a Sampled Type that does not match the format, so the
    // values are undefined), and texture.swizzle's scaled cases make deqp-vk itself crash
    // (it asks for a float shader program it never built). lavapipe does not offer sampling
    // them either; their use is vertex attributes, which work (VERTEX_BUFFER below).
    const NumericFormat numeric = info->components[0].numeric;
    const bool scaled = numeric == NumericFormat::UScaled || numeric == NumericFormat::SScaled;
    if (!scaled) features |= VK_FORMAT_FEATURE_2_BLIT_SRC_BIT | VK_FORMAT_FEATURE_2_BLIT_DST_BIT;
    if (!scaled) features |= sampledFeatures(*info);
    // No storage images of them either: SPIR-V has no image format for a scaled format, so a
    // shader could reach one only without a format, and no program does (lavapipe offers none).
    // Offering it made the CTS's texel_view_compatible cases for R16G16B16A16_[US]SCALED go on to
    // create such an image with SAMPLED usage, which no query allowed, and fail (96 cases).
    if (!scaled) features |= storageFeatures(format);
    features |= attachmentFeatures(*info);
  } else if (hasBlockDecoder(*info)) {
    // ETC2/EAC (sampler/etc2_decode.cpp) and BC1-BC7 (sampler/bc_decode.cpp,
    // bptc_decode.cpp): the reference sampler, texelFetch and the blit's generic path decode
    // their blocks, giving floats that can be filtered. These are the bits the spec's
    // "Mandatory format support" tables for ETC2/EAC and for BC compressed formats require with
    // textureCompressionETC2 and textureCompressionBC. ASTC has no decoder and stays
    // transfer-only.
    features |= VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT | VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_FILTER_LINEAR_BIT |
                VK_FORMAT_FEATURE_2_BLIT_SRC_BIT;
  }
  return features;
}

// Storage images and texel buffers go through the texel codec (spirv_jit/runtime_image.cpp),
// which reads and writes the view's own format, so shaders may leave the format unknown.
// Atomics need a 32-bit integer texel.
// Colour attachments are written through the texel codec (raster/draw_fragments.cpp);
// blending needs float-decoded values.
VkFormatFeatureFlags2 attachmentFeatures(const FormatInfo& info) {
  const NumericFormat numeric = info.components[0].numeric;
  if (numeric == NumericFormat::UScaled || numeric == NumericFormat::SScaled) return 0;
  VkFormatFeatureFlags2 f = VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT;
  if (texelKind(info) == TexelKind::Float) f |= VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BLEND_BIT;
  return f;
}

VkFormatFeatureFlags2 storageFeatures(VkFormat format) {
  VkFormatFeatureFlags2 f = VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT | VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                            VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
  // R32_SFLOAT for VK_EXT_shader_atomic_float's image atomics (translate_atomic.cpp works on
  // the texel's address whatever its type).
  if (format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT || format == VK_FORMAT_R32_SFLOAT)
    f |= VK_FORMAT_FEATURE_2_STORAGE_IMAGE_ATOMIC_BIT;
  return f;
}

VkFormatFeatureFlags2 bufferFormatFeatures(VkFormat format) {
  const FormatInfo* info = formatInfo(format);
  if (!info || info->planeCount > 1 || info->needsYcbcrConversion || info->isDepthStencil() || !hasColorCodec(*info))
    return 0;
  // Vertex attributes are decoded with the texel codec too (raster/draw_vertices.cpp), but not
  // sRGB ones. The codec applies the sRGB EOTF, as today's spec says implementations should
  // ("Vertex Input Extraction", clarified in 2025); the CTS this project runs (1.3.10.0)
  // checks them as UNORM values instead, and lavapipe and RADV do not offer them. The spec
  // says an implementation that does not convert should not offer them; offering them with
  // a conversion the conformance tests reject helps nobody, so they are not offered.
  const FormatComponent* red = info->component('R');  // A8B8G8R8_SRGB_PACK32 lists alpha first
  const bool srgb = red && red->numeric == NumericFormat::Srgb;
  VkFormatFeatureFlags2 f = (srgb ? 0 : VK_FORMAT_FEATURE_2_VERTEX_BUFFER_BIT) | VK_FORMAT_FEATURE_2_UNIFORM_TEXEL_BUFFER_BIT |
                            VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_BIT |
                            VK_FORMAT_FEATURE_2_STORAGE_READ_WITHOUT_FORMAT_BIT |
                            VK_FORMAT_FEATURE_2_STORAGE_WRITE_WITHOUT_FORMAT_BIT;
  if (format == VK_FORMAT_R32_UINT || format == VK_FORMAT_R32_SINT || format == VK_FORMAT_R32_SFLOAT)
    f |= VK_FORMAT_FEATURE_2_STORAGE_TEXEL_BUFFER_ATOMIC_BIT;
  return f;
}

namespace {

// "Supported Sample Counts" (VkImageFormatProperties::sampleCounts): 1 for linear tiling,
// non-2D images, cube-compatible images and formats that cannot be attachments; else every
// count the limits offer for the usage, which for Tessera is always 1, 2, 4, 8 and 16 (storage
// usage included: storageImageSampleCounts, shaderStorageImageMultisample).
VkSampleCountFlags supportedSampleCounts(const FormatInfo& info, VkImageType type, VkImageTiling tiling,
                                         VkImageCreateFlags flags,
                                         VkFormatFeatureFlags2 optimalFeatures) {
  const bool attachment = (optimalFeatures & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT |
                                              VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)) != 0;
  if (tiling != VK_IMAGE_TILING_OPTIMAL || type != VK_IMAGE_TYPE_2D || (flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) ||
      !attachment || info.isCompressed() || info.planeCount > 1)
    return VK_SAMPLE_COUNT_1_BIT;
  return kSupportedSampleCounts;
}

VkImageFormatProperties maxProperties(const FormatInfo& info, VkImageType type, VkImageTiling tiling,
                                      VkImageCreateFlags flags, VkDeviceSize heap) {
  VkImageFormatProperties p{};
  uint32_t maxDim = type == VK_IMAGE_TYPE_3D ? 2048 : 16384;
  p.maxExtent = {maxDim, type == VK_IMAGE_TYPE_1D ? 1u : maxDim, type == VK_IMAGE_TYPE_3D ? maxDim : 1u};
  p.maxMipLevels = uint32_t(std::bit_width(maxDim));
  p.maxArrayLayers = type == VK_IMAGE_TYPE_3D ? 1 : 2048;
  p.sampleCounts = VK_SAMPLE_COUNT_1_BIT;
  p.maxResourceSize = heap;
  (void)info;
  (void)flags;
  return p;
}

bool usageSupported(VkImageUsageFlags usage, VkFormatFeatureFlags2 features) {
  struct Need { VkImageUsageFlags usage; VkFormatFeatureFlags2 feature; };
  const Need needs[] = {
      {VK_IMAGE_USAGE_TRANSFER_SRC_BIT, VK_FORMAT_FEATURE_2_TRANSFER_SRC_BIT},
      {VK_IMAGE_USAGE_TRANSFER_DST_BIT, VK_FORMAT_FEATURE_2_TRANSFER_DST_BIT},
      {VK_IMAGE_USAGE_SAMPLED_BIT, VK_FORMAT_FEATURE_2_SAMPLED_IMAGE_BIT},
      {VK_IMAGE_USAGE_STORAGE_BIT, VK_FORMAT_FEATURE_2_STORAGE_IMAGE_BIT},
      {VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT},
      {VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT, VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT},
  };
  for (const Need& n : needs)
    if ((usage & n.usage) && !(features & n.feature)) return false;
  const VkImageUsageFlags attachmentOnly = VK_IMAGE_USAGE_INPUT_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT |
                                           VK_IMAGE_USAGE_ATTACHMENT_FEEDBACK_LOOP_BIT_EXT;
  if ((usage & attachmentOnly) &&
      !(features & (VK_FORMAT_FEATURE_2_COLOR_ATTACHMENT_BIT | VK_FORMAT_FEATURE_2_DEPTH_STENCIL_ATTACHMENT_BIT)))
    return false;
  return true;
}

}  // namespace

// VK_IMAGE_CREATE_EXTENDED_USAGE_BIT: "the image can be created with usage flags that are not
// supported for the format the image is created with but are supported for at least one format a
// VkImageView created from the image can have". With MUTABLE_FORMAT_BIT those are the formats of
// the image's compatibility class and, with BLOCK_TEXEL_VIEW_COMPATIBLE_BIT on a compressed
// format, the uncompressed formats whose texel block has the compressed block's size
// (VkImageViewCreateInfo's format rules). A VkImageFormatListCreateInfo does not narrow this:
// image.extended_usage_bit_compatibility.image_format_list expects the class's formats to count
// when the list names only the image's own format (lavapipe answers so too), and a usage no
// listed view supports only lets the image exist. Without MUTABLE_FORMAT_BIT a view has the
// image's format.
VkFormatFeatureFlags2 viewFormatFeatures(const FormatInfo& info, VkImageTiling tiling, VkImageCreateFlags flags) {
  VkFormatFeatureFlags2 features = formatFeatures(info.format, tiling);
  if (!(flags & VK_IMAGE_CREATE_EXTENDED_USAGE_BIT) || !(flags & VK_IMAGE_CREATE_MUTABLE_FORMAT_BIT)) return features;
  // A multi-planar image's views of one plane have a format of that plane's class.
  for (uint32_t p = 0; info.planeCount > 1 && p < info.planeCount; ++p)
    for (const FormatInfo& other : allFormats())
      if (std::strcmp(other.className, formatInfo(info.planes[p].compatible)->className) == 0)
        features |= formatFeatures(other.format, tiling);
  const bool blockTexelViews = (flags & VK_IMAGE_CREATE_BLOCK_TEXEL_VIEW_COMPATIBLE_BIT) && info.isCompressed();
  for (const FormatInfo& other : allFormats()) {
    const bool sameClass = std::strcmp(other.className, info.className) == 0;
    const bool blockSized = blockTexelViews && !other.isCompressed() && other.planeCount == 1 &&
                            !other.isDepthStencil() && other.blockSize == info.blockSize;
    if (sameClass || blockSized) features |= formatFeatures(other.format, tiling);
  }
  return features;
}

VkResult imageFormatProperties(const PhysicalDevice& pd, VkFormat format, VkImageType type,
                               VkImageTiling tiling, VkImageUsageFlags usage, VkImageCreateFlags flags,
                               VkImageFormatProperties* out) {
  *out = {};
  const FormatInfo* info = formatInfo(format);
  const VkFormatFeatureFlags2 features = formatFeatures(format, tiling);
  if (!info || !features || !usageSupported(usage, viewFormatFeatures(*info, tiling, flags)))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  // Linear tiling is the memory optimal tiling has (every image is laid out linearly, each
  // level's layers and slices one after another: vkGetImageSubresourceLayout gives each
  // subresource's place), so it offers every image type, level and layer count optimal does.
  if (info->isCompressed() && type == VK_IMAGE_TYPE_1D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if ((flags & VK_IMAGE_CREATE_CUBE_COMPATIBLE_BIT) && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  if (flags & (VK_IMAGE_CREATE_SPARSE_BINDING_BIT | VK_IMAGE_CREATE_SPARSE_RESIDENCY_BIT |
               VK_IMAGE_CREATE_SPARSE_ALIASED_BIT | VK_IMAGE_CREATE_PROTECTED_BIT))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  // DISJOINT: a multi-planar format whose planes may be bound apart, or with ALIAS any format
  // (an image that aliases one plane of a disjoint image, VUID-VkImageCreateInfo-format-01577).
  if ((flags & VK_IMAGE_CREATE_DISJOINT_BIT) && !(features & VK_FORMAT_FEATURE_2_DISJOINT_BIT) &&
      !(flags & VK_IMAGE_CREATE_ALIAS_BIT))
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  // Formats that need a sampler Y'CbCr conversion: 2D images of one level and one sample
  // (VkImageCreateInfo's rules for them), of any number of layers (VK_EXT_ycbcr_image_arrays).
  const bool ycbcr = info->planeCount > 1 || info->needsYcbcrConversion;
  if (ycbcr && type != VK_IMAGE_TYPE_2D) return VK_ERROR_FORMAT_NOT_SUPPORTED;
  const VkSampleCountFlags sampleCounts =
      supportedSampleCounts(*info, type, tiling, flags, formatFeatures(format, VK_IMAGE_TILING_OPTIMAL));
  // VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT: a single-sampled image that
  // multisampled-render-to-single-sampled subpasses render through implicit multisampled images
  // of its format (icd/cmd_render_pass.cpp). Only images that could themselves be multisampled
  // attachments offer it; sampleCounts then names the rasterization sample counts it may be
  // rendered with ("a format that supports the sample count", VUID-VkFramebufferCreateInfo-samples-07009),
  // while the image itself must have one sample (VUID-VkImageCreateInfo-flags-06883).
  if ((flags & VK_IMAGE_CREATE_MULTISAMPLED_RENDER_TO_SINGLE_SAMPLED_BIT_EXT) && sampleCounts == VK_SAMPLE_COUNT_1_BIT)
    return VK_ERROR_FORMAT_NOT_SUPPORTED;
  *out = maxProperties(*info, type, tiling, flags, pd.memory.memoryHeaps[0].size);
  out->sampleCounts = sampleCounts;
  if (ycbcr) out->maxMipLevels = 1;
  return VK_SUCCESS;
}

}  // namespace tessera

using namespace tessera;

extern "C" {

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceImageFormatProperties(
    VkPhysicalDevice physicalDevice, VkFormat format, VkImageType type, VkImageTiling tiling,
    VkImageUsageFlags usage, VkImageCreateFlags flags, VkImageFormatProperties* pProps) {
  return imageFormatProperties(*fromHandle<PhysicalDevice>(physicalDevice), format, type, tiling, usage,
                               flags, pProps);
}

VKAPI_ATTR VkResult VKAPI_CALL tessera_vkGetPhysicalDeviceImageFormatProperties2(
    VkPhysicalDevice physicalDevice, const VkPhysicalDeviceImageFormatInfo2* pInfo,
    VkImageFormatProperties2* pProps) {
  // External memory: opaque fds and host allocations hold any image (external_memory.cpp);
  // another handle type is not supported, which the spec asks to be said with this error.
  VkExternalMemoryProperties external{};
  for (auto* s = static_cast<const VkBaseInStructure*>(pInfo->pNext); s; s = s->pNext) {
    if (s->sType != VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_EXTERNAL_IMAGE_FORMAT_INFO) continue;
    const VkExternalMemoryHandleTypeFlagBits type =
        reinterpret_cast<const VkPhysicalDeviceExternalImageFormatInfo*>(s)->handleType;
    if (!type) continue;
    external = externalMemoryProperties(type);
    if (!external.externalMemoryFeatures) {
      pProps->imageFormatProperties = {};
      return VK_ERROR_FORMAT_NOT_SUPPORTED;
    }
  }
  VkImageUsageFlags usage = pInfo->usage;
  for (auto* s = static_cast<const VkBaseInStructure*>(pInfo->pNext); s; s = s->pNext)
    if (s->sType == VK_STRUCTURE_TYPE_IMAGE_STENCIL_USAGE_CREATE_INFO)
      usage |= reinterpret_cast<const VkImageStencilUsageCreateInfo*>(s)->stencilUsage;
  VkResult r = imageFormatProperties(*fromHandle<PhysicalDevice>(physicalDevice), pInfo->format, pInfo->type,
                                     pInfo->tiling, usage, pInfo->flags, &pProps->imageFormatProperties);
  for (auto* s = static_cast<VkBaseOutStructure*>(pProps->pNext); s; s = s->pNext) {
    if (s->sType == VK_STRUCTURE_TYPE_EXTERNAL_IMAGE_FORMAT_PROPERTIES)
      reinterpret_cast<VkExternalImageFormatProperties*>(s)->externalMemoryProperties =
          r == VK_SUCCESS ? external : VkExternalMemoryProperties{};
    // A view with a conversion takes one combined image sampler descriptor, whatever its planes.
    if (s->sType == VK_STRUCTURE_TYPE_SAMPLER_YCBCR_CONVERSION_IMAGE_FORMAT_PROPERTIES)
      reinterpret_cast<VkSamplerYcbcrConversionImageFormatProperties*>(s)->combinedImageSamplerDescriptorCount = 1;
  }
  return r;
}

}  // extern "C"
