// The comparison and stencil-update rules of the per-sample tests ("Stencil Test", "Depth
// Test"), shared by the reference's one-lane sampleTests (draw_fragments.cpp) and the binned
// path's lane loops (depth_stencil_lanes.cpp), so that both apply the one implementation.
#pragma once

#include <vulkan/vulkan_core.h>

#include <cstdint>

namespace tessera::raster {

// "Depth Test" and "Stencil Test" comparisons: `reference` op `stored` (NaN compares false
// except for NOT_EQUAL and ALWAYS, as the C++ operators do).
template <typename T>
inline bool compare(VkCompareOp op, T reference, T stored) {
  switch (op) {
    case VK_COMPARE_OP_NEVER: return false;
    case VK_COMPARE_OP_LESS: return reference < stored;
    case VK_COMPARE_OP_EQUAL: return reference == stored;
    case VK_COMPARE_OP_LESS_OR_EQUAL: return reference <= stored;
    case VK_COMPARE_OP_GREATER: return reference > stored;
    case VK_COMPARE_OP_NOT_EQUAL: return reference != stored;
    case VK_COMPARE_OP_GREATER_OR_EQUAL: return reference >= stored;
    default: return true;  // ALWAYS
  }
}

// "Stencil Test": the new stencil value for `op`.
inline uint8_t stencilOp(VkStencilOp op, uint8_t current, uint8_t reference) {
  switch (op) {
    case VK_STENCIL_OP_ZERO: return 0;
    case VK_STENCIL_OP_REPLACE: return reference;
    case VK_STENCIL_OP_INCREMENT_AND_CLAMP: return current == 0xFF ? current : uint8_t(current + 1);
    case VK_STENCIL_OP_DECREMENT_AND_CLAMP: return current == 0 ? current : uint8_t(current - 1);
    case VK_STENCIL_OP_INVERT: return uint8_t(~current);
    case VK_STENCIL_OP_INCREMENT_AND_WRAP: return uint8_t(current + 1);
    case VK_STENCIL_OP_DECREMENT_AND_WRAP: return uint8_t(current - 1);
    default: return current;  // KEEP
  }
}

// "Stencil Test": the value written back for `op`: the operation's result in the bits of
// writeMask, the stored value's bits elsewhere.
inline uint8_t maskedStencilUpdate(VkStencilOp op, uint8_t stored, uint8_t reference, uint8_t writeMask) {
  return uint8_t((stored & ~writeMask) | (stencilOp(op, stored, reference) & writeMask));
}

}  // namespace tessera::raster
