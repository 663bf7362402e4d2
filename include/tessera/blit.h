// vkCmdBlitImage and vkCmdResolveImage arithmetic on host memory: the scalar reference
// implementation (spec: "Image Copies With Scaling", "Resolving Multisample Images").
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstddef>
#include <climits>
#include <cstdint>

#include "tessera/format.h"

namespace tessera {

// One mip level of one array layer (or the whole depth range of a 3D image) in host memory.
// Texel (x,y,z), sample s lives at data + z*slicePitch + y*rowPitch + (x*samples + s)*texelSize,
// where texelSize is aspectTexelSize(*format, aspect) (see format.h).
struct SubresourceView {
  uint8_t* data;
  const FormatInfo* format;
  VkImageAspectFlagBits aspect;  // COLOR, DEPTH or STENCIL (one plane)
  VkExtent3D extent;             // of this mip level
  uint32_t samples;              // 1 unless multisampled
  size_t rowPitch;
  size_t slicePitch;
};

// vkCmdBlitImage for one region and one layer pair: offsets as in VkImageBlit2 (may be
// mirrored: offsets[0] > offsets[1]), filter NEAREST or LINEAR (LINEAR only for float-decoded
// formats; 3D images filter in z too). Does format conversion (float<->float incl. sRGB,
// uint->uint, sint->sint). The source may be block-compressed where compressed.h decodes the
// format (ETC2/EAC; extent in texels, rowPitch/slicePitch over rows of blocks). Depth/stencil
// only with NEAREST between the same format.
// Sampling clamps to the edge of the source image (not of the source region, which the spec
// allows but does not require). Destination texels outside the destination image are skipped.
// rowBegin/rowEnd restrict the work to destination rows [rowBegin, rowEnd) (the mapping from
// destination to source is that of the whole region), so one region can be split over threads.
void blitRegion(const SubresourceView& src, const SubresourceView& dst,
                const VkOffset3D srcOffsets[2], const VkOffset3D dstOffsets[2], VkFilter filter,
                int32_t rowBegin = INT32_MIN, int32_t rowEnd = INT32_MAX);

// vkCmdResolveImage for one region and one layer: src multisampled, dst single-sampled, same
// format. Float-decoded formats average the samples (decode -> average -> encode; sRGB formats
// average in linear space), integer formats take sample 0. Depth and stencil views take sample
// 0 (VK_RESOLVE_MODE_SAMPLE_ZERO_BIT, the one mode every implementation supports).
void resolveRegion(const SubresourceView& src, const SubresourceView& dst, VkOffset3D srcOffset,
                   VkOffset3D dstOffset, VkExtent3D extent);

}  // namespace tessera
