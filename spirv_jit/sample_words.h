// How a sampling instruction's operands travel from generated code to the runtime
// (translate_image.cpp packs them, runtime_sample.cpp unpacks them): an array of 32-bit words
// per invocation plus flags known at compile time.
#pragma once

#include <cstdint>

namespace tessera::jit {

// The words tessera_rt_image_sample reads.
namespace sample_word {

constexpr uint32_t kCoord = 0;          // 4 coordinate components as the shader gave them (q included)
constexpr uint32_t kDref = 4;
constexpr uint32_t kLod = 5;
constexpr uint32_t kBias = 6;
constexpr uint32_t kMinLod = 7;
constexpr uint32_t kGradX = 8;          // 3 words
constexpr uint32_t kGradY = 11;         // 3 words
constexpr uint32_t kOffset = 14;        // 3 words, integers
constexpr uint32_t kGatherComponent = 17;
constexpr uint32_t kGatherOffsets = 18; // 8 words, integers
constexpr uint32_t kSampleWordCount = 26;
}  // namespace sample_word
// Flags: what the instruction is, known when the shader is compiled.
namespace sample_flag {

constexpr uint32_t kFlagGather = 1u << 0;
constexpr uint32_t kFlagLod = 1u << 2;
constexpr uint32_t kFlagGrad = 1u << 3;
constexpr uint32_t kFlagCompare = 1u << 4;
constexpr uint32_t kFlagProjective = 1u << 5;
constexpr uint32_t kFlagGatherOffsets = 1u << 6;
constexpr uint32_t kFlagArrayed = 1u << 7;
constexpr uint32_t kFlagMinLod = 1u << 10;
constexpr uint32_t kFlagBias = 1u << 11;    // the Bias image operand (else the bias is 0)
constexpr uint32_t kFlagOffset = 1u << 12;  // Offset or ConstOffset (else the offsets are 0)
constexpr uint32_t kFlagQueryLod = 1u << 13;  // OpImageQueryLod: the LOD, not a texel
constexpr uint32_t kCoordCountShift = 8;  // bits 8-9: coordinates the image's Dim needs (1-3)
}  // namespace sample_flag

// Whether the words of a batch call (tessera_rt_image_sample_batch) hold word w for an
// instruction with `flags`: the generated code writes only the words the instruction has, and
// the runtime reads no other (they hold whatever the stack held). Writing all 26 W-lane words
// for every sample cost more stores than the sampling routine's own work.
constexpr bool batchWordPresent(uint32_t flags, uint32_t w) {
  using namespace sample_word;
  using namespace sample_flag;
  const uint32_t coordCount = (flags >> kCoordCountShift) & 3;
  const uint32_t coords = coordCount + ((flags & (kFlagProjective | kFlagArrayed)) ? 1u : 0u);
  if (w < kCoord + 4) return w - kCoord < coords;
  if (w == kDref) return flags & kFlagCompare;
  if (w == kLod) return flags & kFlagLod;
  if (w == kBias) return flags & kFlagBias;
  if (w == kMinLod) return flags & kFlagMinLod;
  if (w >= kGradX && w < kGradY + 3) return flags & kFlagGrad;
  if (w >= kOffset && w < kOffset + 3) return flags & kFlagOffset;
  if (w == kGatherComponent) return (flags & kFlagGather) && !(flags & kFlagCompare);
  if (w >= kGatherOffsets && w < kGatherOffsets + 8) return flags & kFlagGatherOffsets;
  return false;
}

}  // namespace tessera::jit
