// logic_op.h
#include "logic_op.h"

#include <cstring>

namespace tessera::raster {

bool logicOpApplies(const FormatInfo& f) {
  if (f.componentCount == 0 || f.isDepthStencil() || f.isCompressed()) return false;
  for (uint8_t i = 0; i < f.componentCount; ++i) {
    const NumericFormat n = f.components[i].numeric;
    if (n != NumericFormat::UNorm && n != NumericFormat::SNorm && n != NumericFormat::UInt && n != NumericFormat::SInt)
      return false;
  }
  return true;
}

uint8_t logicOpByte(VkLogicOp op, uint8_t s, uint8_t d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return 0;
    case VK_LOGIC_OP_AND: return s & d;
    case VK_LOGIC_OP_AND_REVERSE: return s & uint8_t(~d);
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return uint8_t(~s) & d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s ^ d;
    case VK_LOGIC_OP_OR: return s | d;
    case VK_LOGIC_OP_NOR: return uint8_t(~(s | d));
    case VK_LOGIC_OP_EQUIVALENT: return uint8_t(~(s ^ d));
    case VK_LOGIC_OP_INVERT: return uint8_t(~d);
    case VK_LOGIC_OP_OR_REVERSE: return s | uint8_t(~d);
    case VK_LOGIC_OP_COPY_INVERTED: return uint8_t(~s);
    case VK_LOGIC_OP_OR_INVERTED: return uint8_t(~s) | d;
    case VK_LOGIC_OP_NAND: return uint8_t(~(s & d));
    case VK_LOGIC_OP_SET: return 0xFF;
    default: return s;
  }
}

void writtenBits(const FormatInfo& f, uint32_t writeMask, uint8_t* bytes) {
  std::memset(bytes, 0, f.blockSize);
  for (uint8_t i = 0; i < f.componentCount; ++i) {
    const FormatComponent& c = f.components[i];
    const uint32_t bit = c.name == 'R' ? 0 : c.name == 'G' ? 1 : c.name == 'B' ? 2 : c.name == 'A' ? 3 : 4;
    if (bit > 3 || !(writeMask >> bit & 1)) continue;
    // Bit offsets count from the first byte (unpacked) or from the packed word's least
    // significant bit, which is the first byte's on this little-endian host.
    for (uint32_t b = c.bitOffset; b < uint32_t(c.bitOffset) + c.bits && b / 8 < f.blockSize; ++b)
      bytes[b / 8] |= uint8_t(1u << (b % 8));
  }
}

}  // namespace tessera::raster
