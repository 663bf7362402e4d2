// "Logical Operations" (VkLogicOp): the bitwise operation between a fragment's colour, in the
// attachment's representation, and the attachment's texel. One implementation for both draw
// paths (FragmentStage::writeLogicOp); tests/unit/raster/logic_op_test.cpp checks it against
// the spec's table.
#pragma once

#include <cstdint>
#include <vulkan/vulkan_core.h>

#include "tessera/format.h"

namespace tessera::raster {

// Whether the operation applies to attachments of format f: "Logical operations are applied
// only for signed and unsigned integer and normalized integer framebuffers", not for float or
// sRGB ones (which take the fragment's value as it is).
bool logicOpApplies(const FormatInfo& f);

// The spec's table for one byte of source s and destination d (the operations are bitwise, so
// a texel's bytes are independent).
uint8_t logicOpByte(VkLogicOp op, uint8_t s, uint8_t d);

// The bits of a texel of f that belong to the components `writeMask` names (bit 0 R, 1 G, 2 B,
// 3 A: "Color Write Mask"), as `bytes` (f's texel size): the bits a masked write changes.
void writtenBits(const FormatInfo& f, uint32_t writeMask, uint8_t* bytes);

}  // namespace tessera::raster
