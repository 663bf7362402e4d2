// The runtime half of OpImageSample* / OpImageGather / OpImageDrefGather: unpacks one
// invocation's operand words (sample_words.h) into a SampleRequest and runs the sampler
// module's reference; or, for a batch whose descriptors are uniform, hands the W lanes' words
// (one array of W per word) to a batched sampling routine of the sampler module
// (sampling_batch.h), or to the reference lane by lane where the state has no routine. The
// projective division happens here, as the spec orders it ("Projection operation":
// coordinates and Dref are divided by q before any other step).
#include <cstring>

#include "sample_words.h"
#include "tessera/sampling.h"
#include "tessera/sampling_batch.h"
#include "tessera/sampling_cube.h"
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
  r.kind = (flags & kFlagGather)     ? tessera::SampleKind::Gather
           : (flags & kFlagQueryLod) ? tessera::SampleKind::QueryLod
                                     : tessera::SampleKind::Sample;
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
    r.offset[i] = (flags & kFlagOffset) ? int32_t(words[kOffset + i]) : 0;
  }
  r.bias = (flags & kFlagBias) ? wordAsFloat(words[kBias]) : 0.0f;
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

// W lanes at once: words[w * width + l] is word w of lane l (sample_words.h), out[c * width + l]
// component c of lane l's result; lanes outside `active` get zeros. Only the words
// batchWordPresent names are read.
extern "C" void tessera_rt_image_sample_batch(const ImageDescriptor* image, const ImageDescriptor* sampler,
                                              uint32_t flags, uint32_t width, uint32_t active, const uint32_t* words,
                                              uint32_t* out) {
  if (!image || !image->view || !sampler || !sampler->sampler || width > tessera::abi::kMaxSimdWidth) {
    std::memset(out, 0, size_t(16) * width);
    return;
  }
  const uint32_t coordCount = (flags >> kCoordCountShift) & 3;
  tessera::SampleShape shape;
  shape.sample = !(flags & kFlagGather);
  shape.compare = flags & kFlagCompare;
  shape.coordCount = coordCount;
  shape.width = width;
  // No routine (TESSERA_SAMPLING_ROUTINES=0 among the reasons: findSampleRoutine reads it) runs
  // the reference lane by lane below.
  // LOD queries have no routine: the reference answers them.
  // A BC1 view kept decoded: its copy, where the fixed-point routine samples it (viewToSample).
  const tessera::abi::ImageViewState& view =
      (flags & kFlagQueryLod) ? *image->view : tessera::viewToSample(*image->view, *sampler->sampler, shape);
  tessera::SampleRoutine routine = (flags & kFlagQueryLod) ? nullptr : findSampleRoutine(view, *sampler->sampler, shape);
  const bool cube = !routine && coordCount == 3 && image->view->viewType == VK_IMAGE_VIEW_TYPE_CUBE &&
                    !(flags & (kFlagQueryLod | kFlagGather | kFlagCompare | kFlagProjective | kFlagArrayed | kFlagOffset));
  if (routine || cube) {
    // The lanes' operand arrays, as the batched routines (and the cube batches) read them.
    auto word = [&](uint32_t w) { return reinterpret_cast<const float*>(words + size_t(w) * width); };
    tessera::CubeSampleLanes operands;
    tessera::SampleLanes& lanes = operands.lanes;
    lanes.width = width;
    lanes.active = active;
    lanes.s = word(kCoord);
    lanes.t = word(kCoord + 1);
    float projected[2][tessera::abi::kMaxSimdWidth];
    if (flags & kFlagProjective) {
      // q follows the coordinates; the same float division as the per-lane path.
      const float* q = word(kCoord + coordCount);
      for (uint32_t l = 0; l < width; ++l) projected[0][l] = lanes.s[l] / q[l], projected[1][l] = lanes.t[l] / q[l];
      lanes.s = projected[0], lanes.t = projected[1];
    }
    if (flags & kFlagArrayed) lanes.layer = word(kCoord + coordCount);
    if (flags & kFlagLod) {
      lanes.lod = word(kLod);
    } else if (flags & kFlagGrad) {
      for (uint32_t c = 0; c < 2; ++c) lanes.dPdx[c] = word(kGradX + c), lanes.dPdy[c] = word(kGradY + c);
      if (cube) operands.dPdxR = word(kGradX + 2), operands.dPdyR = word(kGradY + 2);
    }
    if (flags & kFlagBias) lanes.bias = word(kBias);
    if (flags & kFlagMinLod) lanes.minLod = word(kMinLod);
    if (flags & kFlagOffset)
      for (uint32_t c = 0; c < 2; ++c) lanes.offset[c] = reinterpret_cast<const int32_t*>(words + size_t(kOffset + c) * width);
    if (routine) {
      routine(view, *sampler->sampler, lanes, out);
      return;
    }
    // A cube map (sampling_cube.h): the faces' routines where the filter stays inside a face.
    operands.r = word(kCoord + 2);
    if (tessera::sampleCubeBatch(tessera::cubeViewToSample(*image->view), *sampler->sampler, operands, out)) return;
  }
  // No routine for this state: the reference, lane by lane (a routine writes every lane itself,
  // inactive ones as zeros: sampling_batch.h).
  std::memset(out, 0, size_t(16) * width);
  uint32_t laneWords[kSampleWordCount], texel[4];
  for (uint32_t l = 0; l < width; ++l) {
    if (!(active >> l & 1)) continue;
    for (uint32_t w = 0; w < kSampleWordCount; ++w) laneWords[w] = tessera::jit::batchWordPresent(flags, w) ? words[size_t(w) * width + l] : 0;
    tessera_rt_image_sample(image, sampler, flags, laneWords, texel);
    for (uint32_t c = 0; c < 4; ++c) out[c * width + l] = texel[c];
  }
}

// A fragment kernel's inline sampling entry (shader_abi.h InlineSampleState) for the pair the
// descriptors name, at the level of the lane whose quad derivatives are given: called by the
// kernel when the entry's key or the level's range missed (the kernel then samples that batch
// through tessera_rt_image_sample_batch, and the next batches through the entry).
extern "C" void tessera_rt_inline_sample_refresh(const ImageDescriptor* image, const ImageDescriptor* sampler,
                                                 tessera::abi::InlineSampleState* entry, uint32_t width, float dsdx,
                                                 float dtdx, float dsdy, float dtdy) {
  if (!image || !image->view || !sampler || !sampler->sampler) {
    entry->view = nullptr;
    entry->usable = 0;
    return;
  }
  const float gradients[4] = {dsdx, dtdx, dsdy, dtdy};
  tessera::refreshInlineSampleState(*image->view, *sampler->sampler, width, gradients, *entry);
}
