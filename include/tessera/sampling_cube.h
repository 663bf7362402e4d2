// Cube maps in batches (sampler/cube_batch.cpp): a batch of implicit-LOD, gradient or
// explicit-LOD samples of a cube view (VK_IMAGE_VIEW_TYPE_CUBE) whose format the fixed-point
// UNORM8 routines take (RGBA8, BGRA8, R8, RG8, BC1 UNORM) and whose sampler is isotropic and
// seamless. Each lane's face, face coordinates and face derivatives come from the reference's
// own "Cube Map Face Selection and Transformations" (selectCubeFace); the lanes whose filter
// footprint lies inside their face then take the face's 2D fixed-point routine, the others
// (LINEAR footprints that reach an edge or a corner, which "Cube Map Edge Handling" completes
// from the neighbouring faces) the reference. Results are within the fixed-point routines'
// bound of the reference (sampling_batch.h).
#pragma once

#include <cstdint>

#include "tessera/sampling_batch.h"

namespace tessera {

struct CubeSampleLanes {
  SampleLanes lanes;              // s, t: the direction's x and y; dPdx, dPdy: their derivatives
  const float* r = nullptr;       // the direction's z
  const float* dPdxR = nullptr;   // ∂z/∂x and ∂z/∂y (with lanes.dPdx / dPdy; null: none)
  const float* dPdyR = nullptr;
};

// Samples every lane (inactive ones: zeros) and returns true; or returns false, having written
// nothing, where the view, the sampler or the operands are not of that case (the caller then
// samples lane by lane). Offsets, arrays, gathers and depth compares are never of it.
bool sampleCubeBatch(const abi::ImageViewState& view, const abi::SamplerState& sampler, const CubeSampleLanes& lanes,
                     uint32_t* out);

// What the cube batches sample a seamless cube's faces with, shared with the fragment kernels'
// inline cube sampling (sampler/inline_sample_state.cpp), which must sample what they sample:
// the sampler with CLAMP_TO_EDGE (what "Wrapping Operation" gives cube maps under NEAREST; a
// LINEAR footprint that would reach an edge is the reference's), false where the sampler is
// non-seamless or that face sampler has no isotropic routine class (an anisotropic footprint's
// samples may lie on other faces); and a face as a 2D view of one layer, its routine class
// computed as for a 2D view, holding the view's first `levelCount` levels (the rest unset:
// never read), layer 0's bases (face f lies f layerPitch on).
bool cubeFaceSampler(const abi::SamplerState& sampler, abi::SamplerState& faceSampler);
void cubeFaceView(const abi::ImageViewState& view, uint32_t levelCount, abi::ImageViewState& face);

}  // namespace tessera
