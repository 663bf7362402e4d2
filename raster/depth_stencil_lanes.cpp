// The binned path's per-sample tests when the stencil test is on ("Stencil Test", then "Depth
// Test", with their writes): what FragmentStage::sampleTests does for one lane and one sample,
// done for all lanes of a batch at once, sample by sample. The texel addresses and stored
// values are gathered once, the depth comparison is depthPassLanes' vector loop, the stencil
// comparison a loop over byte lanes with the operator chosen outside it, and each stencil
// operation is applied to the lanes that take it with the operation chosen once; with one
// sample, lanes 2p and 2p + 1 are read and written as one pair of adjacent texels. The lanes of
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

// The lanes among laneMask that hold sample k (a loop without a dependency from lane to lane,
// which the compiler vectorizes for a fixed width).
template <uint32_t W>
uint32_t lanesWithSample(const uint32_t* bits, uint32_t k) {
  uint32_t m = 0;
  for (uint32_t lane = 0; lane < W; ++lane) m |= (bits[lane] >> k & 1) << lane;
  return m;
}

uint32_t lanesWithSample(uint32_t w, const uint32_t* bits, uint32_t k, uint32_t laneMask) {
  if (w == 16) return lanesWithSample<16>(bits, k) & laneMask;
  if (w == 8) return lanesWithSample<8>(bits, k) & laneMask;
  return lanesWithSample<4>(bits, k) & laneMask;
}

// updated[lane] = stencilOp(op) of the stored value through the write mask, for the lanes of
// `laneMask` (the others keep what updated holds).
void applyStencilOp(VkStencilOp op, uint32_t laneMask, const uint8_t* stored, const uint8_t* reference,
                    uint8_t writeMask, uint8_t* updated) {
  if (op == VK_STENCIL_OP_KEEP || !writeMask) return;
  for (uint32_t m = laneMask; m; m &= m - 1) {
    const uint32_t lane = uint32_t(__builtin_ctz(m));
    updated[lane] = maskedStencilUpdate(op, stored[lane], reference[lane], writeMask);
  }
}

// Stores the 1-byte (stencil) or 4-byte (D32) values of `laneMask` to the texels of a pairs
// layout (lanes 2p and 2p + 1 adjacent): a pair with both lanes as one store.
template <uint32_t Bytes>
void storePairs(uint32_t w, uint32_t laneMask, uint8_t* const* texel, const uint8_t* values) {
  for (uint32_t p = 0; p < w / 2; ++p) {
    const uint32_t pair = laneMask >> (2 * p) & 3;
    if (pair == 3) std::memcpy(texel[2 * p], values + 2 * p * Bytes, 2 * Bytes);
    else if (pair == 1) std::memcpy(texel[2 * p], values + 2 * p * Bytes, Bytes);
    else if (pair == 2) std::memcpy(texel[2 * p + 1], values + (2 * p + 1) * Bytes, Bytes);
  }
}

}  // namespace

void FragmentStage::runDepthStencilLanes(LaneState& lanes, uint32_t laneMask, const float* fragDepth,
                                         const int32_t* stencilRef) {
  const uint32_t W = simdWidth_;
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
  // With one sample, 8-bit stencil texels and no depth or D32 depth, lanes 2p and 2p + 1 (the
  // two pixels of a quad's row, as runDepthTestD32 reads them) are adjacent texels: one address
  // per pair, and a pair whose lanes are both live one 2-byte and one 8-byte load.
  const bool pairs = samples == 1 && stencil.texelSize == 1 && std::max(stencil.samples, 1u) == 1 &&
                     (!depthTest || (float32 && depth.texelSize == 4 && std::max(depth.samples, 1u) == 1));
  for (uint32_t k = 0; k < samples; ++k) {
    const uint32_t live = lanesWithSample(W, lanes.sampleBits, k, laneMask);
    if (!live) continue;
    const float* z = fragDepth ? fragDepth : lanes.sampleZ[k];
    alignas(64) float quantized[abi::kMaxSimdWidth] = {}, storedDepth[abi::kMaxSimdWidth] = {};
    alignas(64) uint8_t storedStencil[abi::kMaxSimdWidth] = {};
    uint8_t* stencilTexel[abi::kMaxSimdWidth];
    uint8_t* depthTexel[abi::kMaxSimdWidth];
    if (pairs) {
      for (uint32_t p = 0; p < W / 2; ++p) {
        const uint32_t pair = live >> (2 * p) & 3;
        if (!pair) continue;
        const int32_t x = lanes.px[2 * p], y = lanes.py[2 * p];
        uint8_t* s = stencil.base + uint64_t(y) * stencil.rowPitch + uint64_t(x);
        stencilTexel[2 * p] = s;
        stencilTexel[2 * p + 1] = s + 1;
        if (pair == 3) std::memcpy(&storedStencil[2 * p], s, 2);
        else if (pair == 1) storedStencil[2 * p] = s[0];
        else storedStencil[2 * p + 1] = s[1];
        if (!depthTest) continue;
        uint8_t* d = depth.base + uint64_t(y) * depth.rowPitch + uint64_t(x) * 4;
        depthTexel[2 * p] = d;
        depthTexel[2 * p + 1] = d + 4;
        if (pair == 3) std::memcpy(&storedDepth[2 * p], d, 8);
        else if (pair == 1) std::memcpy(&storedDepth[2 * p], d, 4);
        else std::memcpy(&storedDepth[2 * p + 1], d + 4, 4);
      }
      if (depthTest) std::memcpy(quantized, z, W * sizeof(float));  // D32: the depth itself
    }
    for (uint32_t m = pairs ? 0u : live; m; m &= m - 1) {
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
    const uint32_t passed = stencilPass & depthPass;
    // The lanes whose stencil texel an operation other than KEEP writes.
    uint32_t written = 0;
    if (writeMask) {
      written |= face.failOp != VK_STENCIL_OP_KEEP ? live & ~stencilPass : 0u;
      written |= face.depthFailOp != VK_STENCIL_OP_KEEP ? stencilPass & ~depthPass : 0u;
      written |= face.passOp != VK_STENCIL_OP_KEEP ? passed : 0u;
    }
    if (written) {
      alignas(64) uint8_t updated[abi::kMaxSimdWidth];
      std::memcpy(updated, storedStencil, sizeof updated);
      applyStencilOp(face.failOp, live & ~stencilPass, storedStencil, reference, writeMask, updated);
      applyStencilOp(face.depthFailOp, stencilPass & ~depthPass, storedStencil, reference, writeMask, updated);
      applyStencilOp(face.passOp, passed, storedStencil, reference, writeMask, updated);
      if (pairs) {
        storePairs<1>(W, written, stencilTexel, updated);
      } else {
        for (uint32_t m = written; m; m &= m - 1) {
          const uint32_t lane = uint32_t(__builtin_ctz(m));
          *stencilTexel[lane] = updated[lane];
        }
      }
    }
    for (uint32_t failed = live & ~passed; failed; failed &= failed - 1)
      lanes.sampleBits[__builtin_ctz(failed)] &= ~(1u << k);
    if (!depthWrite || !passed) continue;
    if (pairs) {
      storePairs<4>(W, passed, depthTexel, reinterpret_cast<const uint8_t*>(quantized));
    } else {
      for (uint32_t m = passed; m; m &= m - 1) {
        const uint32_t lane = uint32_t(__builtin_ctz(m));
        if (float32) std::memcpy(depthTexel[lane], &quantized[lane], 4);
        else storeDepth(quantized[lane], depthTexel[lane]);
      }
    }
  }
}

}  // namespace tessera::raster
