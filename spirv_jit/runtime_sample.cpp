// The runtime half of OpImageSample*ExplicitLod / OpImageGather / OpImageDrefGather: unpacks
// one invocation's operand words (sample_words.h) into a SampleRequest and runs the sampler
// module's reference. The projective division happens here, as the spec orders it ("Projection
// operation": coordinates and Dref are divided by q before any other step).
#include <cstring>

#include "sample_words.h"
#include "tessera/sampling.h"
#include "tessera/shader_abi.h"

using tessera::abi::ImageDescriptor;
using namespace tessera::jit::sample_word;
using namespace tessera::jit::sample_flag;

namespace {

float wordAsFloat(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

}  // namespace

extern "C" void tessera_rt_image_sample(const ImageDescriptor* image, const ImageDescriptor* sampler, uint32_t flags,
                                        const uint32_t* words, uint32_t* out) {
  std::memset(out, 0, 16);
  // A null descriptor (or a sampler descriptor without a sampler) reads as zero.
  if (!image || !image->view || !sampler || !sampler->sampler) return;
  tessera::SampleRequest r;
  r.kind = (flags & kFlagGather) ? tessera::SampleKind::Gather : tessera::SampleKind::Sample;
  const uint32_t coordCount = (flags >> kCoordCountShift) & 3;
  float c[4];
  for (uint32_t i = 0; i < 4; ++i) c[i] = wordAsFloat(words[kCoord + i]);
  r.compare = flags & kFlagCompare;
  r.dref = wordAsFloat(words[kDref]);
  if (flags & kFlagProjective) {
    // Proj forms are never arrayed; q follows the coordinates the Dim needs.
    const float q = c[coordCount];
    for (uint32_t i = 0; i < coordCount; ++i) c[i] /= q;
    r.dref /= q;
  }
  r.s = c[0];
  r.t = coordCount > 1 ? c[1] : 0.0f;
  r.r = coordCount > 2 ? c[2] : 0.0f;
  if (flags & kFlagArrayed) r.layer = c[coordCount];
  r.hasLod = flags & kFlagLod;
  r.lod = wordAsFloat(words[kLod]);
  r.hasGrad = flags & kFlagGrad;
  for (uint32_t i = 0; i < 3; ++i) {
    r.dPdx[i] = wordAsFloat(words[kGradX + i]);
    r.dPdy[i] = wordAsFloat(words[kGradY + i]);
    r.offset[i] = int32_t(words[kOffset + i]);
  }
  r.bias = wordAsFloat(words[kBias]);
  r.hasMinLod = flags & kFlagMinLod;
  r.minLod = wordAsFloat(words[kMinLod]);
  r.gatherComponent = words[kGatherComponent] & 3;
  r.hasGatherOffsets = flags & kFlagGatherOffsets;
  for (uint32_t i = 0; i < 4; ++i) {
    r.gatherOffsets[i][0] = int32_t(words[kGatherOffsets + 2 * i]);
    r.gatherOffsets[i][1] = int32_t(words[kGatherOffsets + 2 * i + 1]);
  }
  tessera::TexelValue v = tessera::sampleImage(*image->view, *sampler->sampler, r);
  std::memcpy(out, v.u, 16);
}
