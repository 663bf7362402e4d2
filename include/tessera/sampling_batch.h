// Batched sampling: one image operation for the W lanes of a SIMD batch at once, when the image
// and sampler descriptors are the same for every lane (sampling.h's sampleImage is the
// one-lane reference). The caller (spirv_jit's runtime) asks for a sampling routine for the
// view, the sampler and the instruction's shape; a routine exists only for state whose every
// step it computes exactly as the reference does (same double arithmetic in the same order),
// so its results are bit-identical to sampleImage's lane by lane, with one exception: views of
// R8G8B8A8 / B8G8R8A8 / R8 / R8G8 UNORM get fixed-point routines that snap LINEAR filtering's sub-texel
// weights and δ to 8 bits (subTexelPrecisionBits = mipmapPrecisionBits = 8) and compute λ with
// a vectorized log2 (NEAREST texels are the reference's; TESSERA_SAMPLING_ROUTINES=exact gives
// these views the bit-identical routines instead). Anything else gets no routine and the
// caller runs the reference per lane.
//
// What has a routine today: 2D and 2D-array views of R8G8B8A8 / B8G8R8A8 UNORM and SRGB,
// R8 and R8G8 UNORM, R16 / R16G16 / R16G16B16 / R16G16B16A16 / R32 / R32G32 / R32G32B32A32 SFLOAT,
// and the depth aspect of D16 / X8_D24 / D32 (and of their stencil pairs), with any component
// swizzle (the exact routines swizzle each texel as the reference does; the fixed-point ones
// their filtered result, which gives the same numbers), one sample, every level in memory; samplers with NEAREST/LINEAR
// magnification and minification, NEAREST/LINEAR mipmap modes, REPEAT, MIRRORED_REPEAT or
// CLAMP_TO_EDGE on u and v, normalized coordinates, no depth compare, WEIGHTED_AVERAGE
// reduction, no anisotropic filtering (max_Aniso 1); instructions
// OpImageSample*{Implicit,Explicit}Lod (projective or not) with Lod or Grad (implicit: the
// quad's gradients), Bias, MinLod, Offset/ConstOffset; no gathers, no Dref.
#pragma once

#include <cstdint>

#include "tessera/sampling.h"
#include "tessera/shader_abi.h"

namespace tessera {

// The operands of one sampling instruction for `width` lanes, structure of arrays: each
// pointer is an array of `width` values (lane l at index l). Coordinates are already divided
// by q for projective forms. A null pointer is an absent operand.
struct SampleLanes {
  uint32_t width = 0;        // 4, 8 or 16
  uint32_t active = 0;       // bit l set: lane l runs; other lanes' results are 0
  const float* s = nullptr;  // coordinates
  const float* t = nullptr;
  const float* layer = nullptr;    // the array layer operand (arrayed instructions), unrounded
  const float* lod = nullptr;      // Lod operand; else the gradients below give the LOD
  const float* dPdx[2] = {};       // Grad operand or the quad's derivatives (null: none)
  const float* dPdy[2] = {};
  const float* bias = nullptr;     // Bias operand (null: 0)
  const float* minLod = nullptr;   // MinLod operand (null: absent)
  const int32_t* offset[2] = {};   // Offset / ConstOffset (null: 0)
};

// Writes the result of every lane: component c of lane l at out[c * width + l], as the bits of
// the float sampleImage returns (inactive lanes: 0).
using SampleRoutine = void (*)(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                               const SampleLanes& lanes, uint32_t* out);

// What a view's state allows (stored in ImageViewState::fastSampling when the view is made):
// 0 when no routine can sample it, else a small code of its format. Recomputed from the other
// fields, so a changed state needs a new call.
uint32_t classifyViewForRoutines(const abi::ImageViewState& view);
// The same for a sampler (SamplerState::fastSampling; makeSamplerState fills it): 1 + magFilter
// + 2 minFilter + 4 mipmapMode, plus 8 with anisotropy (max_Aniso > 1: only the exact routines
// take those, and only with equal filters).
uint32_t classifySamplerForRoutines(const abi::SamplerState& sampler);

// The instruction's shape as the routines need it.
struct SampleShape {
  bool sample = true;       // OpImageSample* (not a gather)
  bool compare = false;     // Dref forms
  uint32_t coordCount = 2;  // coordinates of the image's Dim (2 for 2D)
  uint32_t width = 0;       // lanes (SampleLanes::width): routines exist for 4, 8 and 16
};

// The routine for this view, sampler and instruction (from their precomputed classes: a few
// comparisons and a table look-up, no allocation, safe from any thread), or null: then run
// sampleImage per lane. TESSERA_SAMPLING_ROUTINES=0 makes it null always; =exact keeps the
// UNORM 8-bit views on the bit-identical routines.
SampleRoutine findSampleRoutine(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                const SampleShape& shape);

// The view a batch of `shape` samples: for a view whose texels are kept decoded (decoded_texture.h),
// the decoded copy, made current: for BC1 where findSampleRoutine would give the fixed-point
// routine of its texels, whose RGBA8 routine gives the same bits (lanes the routine hands to the
// reference, coordinates beyond ±2^22 texels, read the copy's bytes rather than the exact
// palette); for BC2-BC7 and ETC2's colour formats where findSampleRoutine has a routine for the
// copy (the fixed-point one for a copy rounded to bytes, decoded_texture.h). `view` otherwise.
const abi::ImageViewState& viewToSample(const abi::ImageViewState& view, const abi::SamplerState& sampler,
                                        const SampleShape& shape);

// The same for a CUBE view's cube batches (sampling_cube.h) and inline cube sampling: its decoded
// copy as a cube view, made current, when every routine is allowed and the copy's faces have a
// fixed-point routine (RGBA8 UNORM, R8, R8G8; not BC1, whose blocks' faces have one); `view`
// otherwise.
const abi::ImageViewState& cubeViewToSample(const abi::ImageViewState& view);

// Inline sampling (shader_abi.h InlineSampleState): whether a fragment kernel of `simdWidth`
// lanes may sample this view with this sampler itself (the pair takes the fixed-point
// RGBA8/BGRA8 routine, one filter, REPEAT or CLAMP_TO_EDGE, 2D, identity swizzle; a view kept
// decoded is taken as viewToSample gives it, the entry keyed by the view itself); and the
// entry for the pair with the level(s) of a lane whose quad derivatives are
// `gradients` (∂s/∂x, ∂t/∂x, ∂s/∂y, ∂t/∂y) and, for mipmapMode NEAREST, that level's ρ_max²
// range. A seamless CUBE view is taken as the cube batches sample it (its faces as 2D views of
// one layer, the sampler with CLAMP_TO_EDGE; `gradients` are the lane's face derivatives):
// its entry's `usable` is kInlineUsableCube and its levels carry the faces' layer pitch.
// Returns whether the entry is usable: false where the pair is not one the kernel samples, or a
// level's sides are not powers of two or its byte offsets could pass 2^31. The entry's ranges are kept across calls while the
// sampler's LOD parameters and the level count stay the same.
bool inlineSamplingPair(const abi::ImageViewState& view, const abi::SamplerState& sampler, uint32_t simdWidth);
bool refreshInlineSampleState(const abi::ImageViewState& view, const abi::SamplerState& sampler, uint32_t simdWidth,
                              const float gradients[4], abi::InlineSampleState& entry);

}  // namespace tessera
