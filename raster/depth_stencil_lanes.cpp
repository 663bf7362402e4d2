// The binned path's per-sample tests when the stencil test is on ("Stencil Test", then "Depth
// Test", with their writes): what FragmentStage::sampleTests does for one lane and one sample,
// done for all lanes of a batch at once, sample by sample. The texel addresses and stored
// values are gathered once, the depth comparison is depthPassLanes' vector loop, the stencil
// comparison a loop over byte lanes with the operator chosen outside it, and each stencil
// operation is applied to the lanes that take it with the operation chosen once. The lanes of
// a batch are distinct pixels, so reading every lane's values before writing any is the
// reference's lane-by-lane order. The reference path keeps sampleTests;
// BinnedDraw.MatchesReferenceOnRandomScenes compares the two on random depth/stencil states.
#include <algorithm>
#include <cstring>

#include "draw_internal.h"
#include "stencil_rules.h"

namespace tessera::raster {
namespace {

template <typename Compare>
uint32_t stencilPassLanes(uint32_t w, const uint8_t* reference, const uint8_t* stored, uint8_t mask, Compare compareMasked) {
  uint32_t pass = 0;
  for (uint32_t lane = 0; lane < w; ++lane)
    pass |= uint32_t(compareMasked(uint8_t(reference[lane] & mask), uint8_t(stored[lane] & mask))) << lane;
  return pass;
}

// The lanes whose (reference & mask) op (stored & mask) holds.
uint32_t stencilPassLanes(VkCompareOp op, uint32_t w, const uint8_t* reference, const uint8_t* stored, uint8_t mask) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return 0;
    case VK_COMPARE_OP_LESS: return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a < b; });
    case VK_COMPARE_OP_EQUAL: return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a == b; });
    case VK_COMPARE_OP_LESS_OR_EQUAL:
      return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a <= b; });
    case VK_COMPARE_OP_GREATER: return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a > b; });
    case VK_COMPARE_OP_NOT_EQUAL:
      return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a != b; });
    case VK_COMPARE_OP_GREATER_OR_EQUAL:
      return stencilPassLanes(w, reference, stored, mask, [](uint8_t a, uint8_t b) { return a >= b; });
    default: return ~0u;  // ALWAYS
  }
}

// Writes stencilOp(op) of the stored value into the texels of `laneMask`, through the write mask.
void applyStencilOp(VkStencilOp op, uint32_t laneMask, uint8_t* const* texel, const uint8_t* stored,
                    const uint8_t* reference, uint8_t writeMask) {
  if (op == VK_STENCIL_OP_KEEP || !writeMask) return;
  for (uint32_t m = laneMask; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    const uint8_t updated = stencilOp(op, stored[lane], reference[lane]);
    *texel[lane] = uint8_t((stored[lane] & ~writeMask) | (updated & writeMask));
  }
}

}  // namespace

void FragmentStage::runDepthStencilLanes(LaneState& lanes, uint32_t laneMask, const float* fragDepth,
                                         const int32_t* stencilRef) {
  const uint32_t W = s_->simdWidth;
  const uint32_t samples = std::max(s_->raster.samples, 1u);
  const StencilFace& face = frontFacing_ ? s_->stencilFront : s_->stencilBack;
  const bool depthTest = s_->depthTest && s_->depth.base;
  const bool depthWrite = depthTest && s_->depthWrite;
  const bool float32 = depthKind_ == DepthKind::Float32;
  // The reference is FragStencilRefEXT where the shader writes it (its low 8 bits).
  alignas(64) uint8_t reference[abi::kMaxSimdWidth];
  for (uint32_t lane = 0; lane < W; ++lane) reference[lane] = uint8_t(stencilRef ? uint32_t(stencilRef[lane]) : face.reference);
  // Local copies: the stores into the planes below could alias *s_ as far as the compiler knows.
  const AttachmentView stencil = s_->stencil, depth = s_->depth;
  for (uint32_t k = 0; k < samples; ++k) {
    uint32_t live = 0;
    for (uint32_t m = laneMask; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      live |= (lanes.sampleBits[lane] >> k & 1) << lane;
    }
    if (!live) continue;
    const float* z = fragDepth ? fragDepth : lanes.sampleZ[k];
    alignas(64) float quantized[abi::kMaxSimdWidth] = {}, storedDepth[abi::kMaxSimdWidth] = {};
    alignas(64) uint8_t storedStencil[abi::kMaxSimdWidth] = {};
    uint8_t* stencilTexel[abi::kMaxSimdWidth];
    uint8_t* depthTexel[abi::kMaxSimdWidth];
    for (uint32_t m = live; m; m &= m - 1) {
      const uint32_t lane = uint32_t(__builtin_ctz(m));
      stencilTexel[lane] = texelAt(stencil, lanes.px[lane], lanes.py[lane], k);
      storedStencil[lane] = *stencilTexel[lane];
      if (depthTest) {
        // "Depth Test": z_f is converted to the attachment's format first.
        depthTexel[lane] = texelAt(depth, lanes.px[lane], lanes.py[lane], k);
        if (float32) {  // loadDepth and quantizeDepth of D32: the float itself
          std::memcpy(&storedDepth[lane], depthTexel[lane], 4);
          quantized[lane] = z[lane];
        } else {
          storedDepth[lane] = loadDepth(depthTexel[lane]);
          quantized[lane] = quantizeDepth(z[lane]);
        }
      }
    }
    const uint32_t depthPass = depthTest ? depthPassLanes(W, s_->depthCompare, quantized, storedDepth, live) : live;
    const uint32_t stencilPass = stencilPassLanes(face.compareOp, W, reference, storedStencil, uint8_t(face.compareMask)) & live;
    const uint8_t writeMask = uint8_t(face.writeMask);
    applyStencilOp(face.failOp, live & ~stencilPass, stencilTexel, storedStencil, reference, writeMask);
    applyStencilOp(face.depthFailOp, stencilPass & ~depthPass, stencilTexel, storedStencil, reference, writeMask);
    applyStencilOp(face.passOp, stencilPass & depthPass, stencilTexel, storedStencil, reference, writeMask);
    const uint32_t passed = stencilPass & depthPass;
    for (uint32_t failed = live & ~passed; failed; failed &= failed - 1)
      lanes.sampleBits[__builtin_ctz(failed)] &= ~(1u << k);
    if (depthWrite)
      for (uint32_t m = passed; m; m &= m - 1) {
        const uint32_t lane = uint32_t(__builtin_ctz(m));
        if (float32) std::memcpy(depthTexel[lane], &quantized[lane], 4);
        else storeDepth(quantized[lane], depthTexel[lane]);
      }
  }
}

}  // namespace tessera::raster
