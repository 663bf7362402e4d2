// The AVX-512 common case of the fixed-point RGBA8/BGRA8 routines
// (batch_sampler_unorm8_uniform.cpp): 16 lanes, quad-uniform LOD operands, one level (or pair
// of levels) for the whole batch, the same filter for magnification and minification.
#pragma once

#include <cstdint>

#include "tessera/sampling_batch.h"

namespace tessera::sampler_detail::batch {

// Whether the host runs the routine below (AVX-512 F, DQ, BW and VL).
bool hostRunsUniform16();

// How the routine loads a batch's texels: one scalar load per lane, or AVX-512 gathers. Which
// is faster depends on the processor (on the AMD hosts measured the gather was slower than its
// loads, on an Intel Xeon it was faster), so the first use measures both on cached data and
// keeps the faster (texelLoads). The bytes loaded are the same either way; the tests run both.
enum class TexelLoads { Scalar, Gather };
TexelLoads texelLoads();
void setTexelLoads(TexelLoads loads);

// Samples the batch as the general routine sampleUnorm8<16, 4, f, f, kMipLinear> would (the view's
// component swizzle applied), bit for
// bit, and returns true with *fallback = the active lanes whose coordinates the fixed point
// cannot hold (the caller runs the reference for them); or returns false, having written
// nothing, when the batch is not of that common case. kLinear: both filters LINEAR (else both
// NEAREST). Only for hosts where hostRunsUniform16().
template <bool kLinear, bool kMipLinear>
bool sampleRgba8Uniform16(const abi::ImageViewState& view, const abi::SamplerState& sampler, const SampleLanes& lanes,
                          uint32_t* out, uint32_t* fallback);

}  // namespace tessera::sampler_detail::batch
