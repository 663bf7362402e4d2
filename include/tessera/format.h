// The format table: one entry per VkFormat that exists in core Vulkan 1.0-1.3, generated at
// build time from the registry's <formats> element (tools/gen_formats.py), so block sizes,
// component layouts and numeric formats are never typed in by hand.
#pragma once

#include <cstdint>
#include <span>
#include <vulkan/vulkan_core.h>

namespace tessera {

enum class NumericFormat : uint8_t {
  None, UNorm, SNorm, UScaled, SScaled, UInt, SInt, UFloat, SFloat, Srgb,
};

enum class Compression : uint8_t { None, BC, ETC2, EAC, ASTC_LDR, ASTC_HDR };

struct FormatComponent {
  char name;              // 'R', 'G', 'B', 'A', 'D' or 'S'
  uint8_t bits;           // 0 for compressed formats
  uint8_t bitOffset;      // from bit 0 of the block: packed formats count from the word's LSB,
                          // unpacked ones from the first byte in memory
  NumericFormat numeric;
  uint8_t plane;          // multi-planar formats: the plane holding the component (else 0)
};

// One plane of a multi-planar format (spec: "Multi-planar Format Image Aspect" and the
// "Plane Format Compatibility" table): the single-plane format its texels have, and how much
// smaller than the image it is in x and y.
struct FormatPlane {
  VkFormat compatible;
  uint8_t widthDivisor, heightDivisor;
};

struct FormatInfo {
  VkFormat format;
  const char* name;       // "VK_FORMAT_R8G8B8A8_UNORM"
  const char* className;  // compatibility class ("32-bit", "BC1_RGB", ...): copies between
                          // formats of one class are allowed (spec: Format Compatibility Classes)
  uint8_t blockSize;      // bytes per texel block (depth/stencil: as the registry says)
  uint8_t blockWidth, blockHeight, blockDepth;
  uint8_t packedBits;     // 0 unless the format is packed into one 8/16/32-bit word
  Compression compression;
  uint8_t componentCount;
  FormatComponent components[4];
  uint8_t planeCount;     // >1 for multi-planar Y'CbCr formats
  bool sharedExponent;    // E5B9G9R9
  bool needsYcbcrConversion;  // the registry gives it a chroma subsampling (422/420/444)
  VkImageAspectFlags aspects;
  FormatPlane planes[3];  // planeCount entries in use
  // Chroma subsampling of a Y'CbCr format (_420: 2, 2; _422: 2, 1; otherwise 1, 1): how many
  // luma texels share one chroma sample in x and y, whether the chroma is in its own plane or
  // (the packed _422 formats) in a 2x1 block.
  uint8_t chromaDivisorX, chromaDivisorY;

  bool isCompressed() const { return compression != Compression::None; }
  bool hasDepth() const { return aspects & VK_IMAGE_ASPECT_DEPTH_BIT; }
  bool hasStencil() const { return aspects & VK_IMAGE_ASPECT_STENCIL_BIT; }
  bool isDepthStencil() const { return hasDepth() || hasStencil(); }
  const FormatComponent* component(char name) const {
    for (uint8_t i = 0; i < componentCount; ++i)
      if (components[i].name == name) return &components[i];
    return nullptr;
  }
};

// nullptr for VK_FORMAT_UNDEFINED and formats outside core 1.0-1.3.
const FormatInfo* formatInfo(VkFormat format);

// Every format of the table, in VkFormat order.
std::span<const FormatInfo> allFormats();

// The format of one plane of a multi-planar format (aspect VK_IMAGE_ASPECT_PLANE_n_BIT), or
// the format itself for any other aspect of any other format.
const FormatInfo& aspectFormat(const FormatInfo& info, VkImageAspectFlagBits aspect);

// 0, 1 or 2 for VK_IMAGE_ASPECT_PLANE_0/1/2_BIT, -1 for any other aspect.
int planeOfAspect(VkImageAspectFlagBits aspect);

// Size in bytes of one texel of one aspect as stored by Tessera and as copied to and from
// buffers (spec: "Copying Data Between Buffers and Images", depth/stencil aspect sizes).
// Depth/stencil images keep each aspect in its own plane: D16 -> 2, D24/X8_D24 -> 4 (depth in
// the low 24 bits), D32 -> 4, S8 -> 1. A plane of a multi-planar format: its plane format's.
uint32_t aspectTexelSize(const FormatInfo& info, VkImageAspectFlagBits aspect);

}  // namespace tessera
