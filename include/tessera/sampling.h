// Texel sampling: what OpImageSample*, OpImageGather and OpImageDrefGather compute for one
// invocation, and the baked sampler state image descriptors point at. The implementation in
// sampler/reference_sampler.cpp is the scalar reference written from the specification's
// "Image Operations" chapter (section names are cited at each step there); the batched SIMD
// routines (sampling_batch.h, sampler/batch_sampler*.cpp) are tested against it.
//
// Division of labour with the caller (spirv_jit's runtime): the caller unpacks the shader's
// operands into a SampleRequest (projective division by q already done, for coordinates and
// Dref alike), and the reference does everything from "Texel Coordinate Systems" on: LOD,
// level selection, cube face selection, (s,t,r) -> (u,v,w), offsets, wrapping, border,
// texel decode, depth compare, filtering/reduction, anisotropic filtering, gather and the
// view's component swizzle.
#pragma once

#include <cstdint>
#include <type_traits>
#include <vulkan/vulkan_core.h>

#include "tessera/shader_abi.h"
#include "tessera/texel_codec.h"

namespace tessera::abi {

// A VkSampler as image instructions read it (an ImageDescriptor's `sampler` points at one).
struct SamplerState {
  uint32_t magFilter;        // VkFilter
  uint32_t minFilter;        // VkFilter
  uint32_t mipmapMode;       // VkSamplerMipmapMode
  uint32_t addressMode[3];   // VkSamplerAddressMode for u, v, w
  float mipLodBias;          // VkSamplerCreateInfo::mipLodBias
  uint32_t compareEnable;    // VkBool32
  uint32_t compareOp;        // VkCompareOp
  float minLod, maxLod;      // VkSamplerCreateInfo::minLod/maxLod
  uint32_t borderColor;      // VkBorderColor
  // VK_BORDER_COLOR_*_CUSTOM_EXT: VkSamplerCustomBorderColorCreateInfoEXT::customBorderColor as
  // its four raw 32-bit words, read as float32, int32 or uint32 by the view's kind when a border
  // texel is made (sampler_texel.cpp). Zero for the predefined colours. Anything specialized on
  // a SamplerState (a cache of compiled sampling code) must key on these words too.
  uint32_t customBorderColor[4];
  uint32_t unnormalizedCoordinates;  // VkBool32
  uint32_t reductionMode;    // VkSamplerReductionMode
  // VK_SAMPLER_CREATE_NON_SEAMLESS_CUBE_MAP_BIT_EXT: cube faces are sampled like 2D images with
  // the address modes above, texels beyond a face border texels ("Texel Replacement"), instead
  // of "Cube Map Edge Handling". Only cube views read it, and the batched routines serve 2D and
  // 2D-array views only (findSampleRoutine), so it plays no part in classifying the sampler.
  uint32_t nonSeamlessCube;  // VkBool32
  // "Texel Anisotropic Filtering": VkSamplerCreateInfo::anisotropyEnable, and max_Aniso of the
  // "Scale Factor Operation", min(maxAnisotropy, maxSamplerAnisotropy), which the spec sets to 1
  // when anisotropyEnable is VK_FALSE. Sampling is anisotropic only where maxAnisotropy > 1.
  uint32_t anisotropyEnable;  // VkBool32
  float maxAnisotropy;
  // Derived from the fields above by makeSamplerState (classifySamplerForRoutines,
  // sampling_batch.h): which batched sampling routine, if any, can use this sampler. 0: none.
  uint32_t fastSampling;
};
static_assert(std::is_trivially_copyable_v<SamplerState>);

// One plane of an image sampled through a Y'CbCr conversion: texels of a single-plane format
// (the plane's compatible format; for a single-plane image, the image's own format).
struct YcbcrPlaneState {
  const uint8_t* base;  // texel (0, 0) of the view's level and first layer
  uint64_t rowPitch;    // bytes per row of texel blocks
  uint64_t layerPitch;  // bytes per array layer (VK_EXT_ycbcr_image_arrays)
  uint32_t width, height;  // in texels
  uint32_t format;      // VkFormat
};

// A view with a sampler Y'CbCr conversion (ImageViewState::ycbcr): the conversion's parameters
// (VkSamplerYcbcrConversionCreateInfo, the view and its sampler must name the same one) and
// where the planes are. Sampling with it is "Chroma Reconstruction", the component swizzle,
// "Sampler Y'CbCr Range Expansion" and "Sampler Y'CbCr Model Conversion".
struct YcbcrSamplingState {
  uint32_t format;          // VkFormat of the image (and of the conversion)
  uint32_t model;           // VkSamplerYcbcrModelConversion
  uint32_t range;           // VkSamplerYcbcrRange
  uint32_t swizzle[4];      // VkComponentSwizzle for r, g, b, a, IDENTITY resolved
  uint32_t xChromaOffset;   // VkChromaLocation
  uint32_t yChromaOffset;
  uint32_t chromaFilter;    // VkFilter
  uint32_t forceExplicitReconstruction;  // VkBool32
  uint32_t chromaDivisorX, chromaDivisorY;  // 2 where the chroma is subsampled, else 1
  uint32_t planeCount;      // 1 (a single-plane format, packed 422 included), 2 or 3
  YcbcrPlaneState planes[3];
  // Filled by prepareYcbcrSources from the formats above, once per view, so that a sample reads
  // each component with a load, a shift and a mask: where the conversion's R, G, B and A come
  // from (the format's component of that name).
  struct ComponentSource {
    uint8_t present;      // the format has the component (else R, G, B read 0 and A 1)
    uint8_t plane;        // planes[plane] holds it
    uint8_t bits;         // its width; also n of "Sampler Y'CbCr Range Expansion"
    uint8_t blockBytes;   // the plane format's texel block size (at most 8)
    uint8_t bitOffset[2];  // first bit in the block's little-endian bits; [1]: a packed 4:2:2 block's second G
    uint8_t codecRounding;  // decode as the texel codec does (to float), else in double (packed 4:2:2)
    uint8_t reserved;
  };
  ComponentSource sources[4];
  uint32_t packed422;  // a 2x1-block 4:2:2 format: luma texel i is G number i % 2 of block i / 2
};

}  // namespace tessera::abi

namespace tessera {

// Fills YcbcrSamplingState::sources and packed422 from its format and its planes' formats (call
// after setting them).
void prepareYcbcrSources(abi::YcbcrSamplingState& ycbcr);

// Bakes a sampler's create info (the reduction mode comes from its pNext chain, read by the
// caller; a VkSamplerCustomBorderColorCreateInfoEXT in the chain is read here) into what image
// instructions read. maxSamplerLodBias and maxSamplerAnisotropy are the device limits the bias
// and the anisotropy are clamped to.
abi::SamplerState makeSamplerState(const VkSamplerCreateInfo& info, VkSamplerReductionMode reductionMode,
                                   float maxSamplerLodBias, float maxSamplerAnisotropy);

enum class SampleKind : uint32_t {
  Sample,  // OpImageSample*: filtered value (or the Dref comparison result in .f[0])
  Gather,  // OpImageGather / OpImageDrefGather: one component of the four texels of a 2x2 footprint
  // OpImageQueryLod ("Image Level of Detail Query"): f[0] the mipmap level that would be
  // accessed, f[1] the computed level of detail λ' relative to the base level.
  QueryLod,
};

// One invocation's image operation, coordinates already divided by q for projective forms.
struct SampleRequest {
  SampleKind kind = SampleKind::Sample;
  // Coordinates by view type: 1D: s; 2D: s, t; 3D: s, t, r; cube: the direction (x, y, z) in
  // s, t, r. Arrayed views take the layer (cube arrays: the cube index) in `layer`, unrounded.
  float s = 0, t = 0, r = 0, layer = 0;
  // LOD source: the Lod operand when hasLod; else gradients (the Grad operand, or for implicit
  // LOD the fragment quad's derivatives) when hasGrad, which also give an anisotropic sampler
  // its footprint. Gathers use level 0 of the view, as the spec says, and ignore both.
  bool hasLod = false;
  float lod = 0;
  bool hasGrad = false;
  float dPdx[3] = {}, dPdy[3] = {};
  float bias = 0;          // Bias operand (0 when absent)
  bool hasMinLod = false;  // MinLod operand
  float minLod = 0;
  int32_t offset[3] = {};  // Offset / ConstOffset operand (0 when absent)
  // ConstOffsets, in operand order: result component n is texel i0j0 of the footprint
  // moved by gatherOffsets[n] ("Texel Gathering").
  bool hasGatherOffsets = false;
  int32_t gatherOffsets[4][2] = {};
  uint32_t gatherComponent = 0;   // OpImageGather's Component operand (0-3)
  bool compare = false;    // Dref forms: compare against dref (the sampler's compareOp)
  float dref = 0;
};

// The result as the shader sees it: four floats, or four integers for UINT/SINT views (stencil
// views read as UInt). For Dref sampling, the filtered comparison result is in f[0]; for
// gathers, the chosen component of texels (i0,j1), (i1,j1), (i1,j0), (i0,j0) in that order.
TexelValue sampleImage(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleRequest& request);

}  // namespace tessera
