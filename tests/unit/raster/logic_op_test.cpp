// "Logical Operations" (raster/logic_op.h) against the spec's table of VkLogicOp, written here
// from its boolean definitions bit by bit, and the bits a write mask covers in texels of
// unpacked and packed formats.
#include <gtest/gtest.h>

#include "logic_op.h"

namespace tessera::raster {
namespace {

// The spec's table ("Logical Operations"), one bit of source s and destination d.
bool specBit(VkLogicOp op, bool s, bool d) {
  switch (op) {
    case VK_LOGIC_OP_CLEAR: return false;
    case VK_LOGIC_OP_AND: return s && d;
    case VK_LOGIC_OP_AND_REVERSE: return s && !d;
    case VK_LOGIC_OP_COPY: return s;
    case VK_LOGIC_OP_AND_INVERTED: return !s && d;
    case VK_LOGIC_OP_NO_OP: return d;
    case VK_LOGIC_OP_XOR: return s != d;
    case VK_LOGIC_OP_OR: return s || d;
    case VK_LOGIC_OP_NOR: return !(s || d);
    case VK_LOGIC_OP_EQUIVALENT: return s == d;
    case VK_LOGIC_OP_INVERT: return !d;
    case VK_LOGIC_OP_OR_REVERSE: return s || !d;
    case VK_LOGIC_OP_COPY_INVERTED: return !s;
    case VK_LOGIC_OP_OR_INVERTED: return !s || d;
    case VK_LOGIC_OP_NAND: return !(s && d);
    case VK_LOGIC_OP_SET: return true;
    default: return false;
  }
}

TEST(LogicOp, LogicalOperations_EveryOpOnEveryBytePair) {
  for (int op = VK_LOGIC_OP_CLEAR; op <= VK_LOGIC_OP_SET; ++op)
    for (int s = 0; s < 256; ++s)
      for (int d = 0; d < 256; ++d) {
        uint8_t want = 0;
        for (int b = 0; b < 8; ++b) want |= uint8_t(specBit(VkLogicOp(op), s >> b & 1, d >> b & 1)) << b;
        ASSERT_EQ(logicOpByte(VkLogicOp(op), uint8_t(s), uint8_t(d)), want) << "op " << op << " s " << s << " d " << d;
      }
}

TEST(LogicOp, LogicalOperations_ApplyToIntegerAndNormalizedFormatsOnly) {
  EXPECT_TRUE(logicOpApplies(*formatInfo(VK_FORMAT_R8G8B8A8_UNORM)));
  EXPECT_TRUE(logicOpApplies(*formatInfo(VK_FORMAT_R16G16_SNORM)));
  EXPECT_TRUE(logicOpApplies(*formatInfo(VK_FORMAT_R32_UINT)));
  EXPECT_TRUE(logicOpApplies(*formatInfo(VK_FORMAT_A2B10G10R10_UNORM_PACK32)));
  EXPECT_FALSE(logicOpApplies(*formatInfo(VK_FORMAT_R8G8B8A8_SRGB)));
  EXPECT_FALSE(logicOpApplies(*formatInfo(VK_FORMAT_R32G32B32A32_SFLOAT)));
  EXPECT_FALSE(logicOpApplies(*formatInfo(VK_FORMAT_B10G11R11_UFLOAT_PACK32)));
  EXPECT_FALSE(logicOpApplies(*formatInfo(VK_FORMAT_D32_SFLOAT)));
}

// "Color Write Mask": R, G, B, A are mask bits 0-3 whatever their place in the texel.
TEST(LogicOp, ColorWriteMask_WrittenBitsFollowTheComponents) {
  uint8_t bytes[16];
  writtenBits(*formatInfo(VK_FORMAT_R8G8B8A8_UNORM), 0b0101, bytes);  // R and B
  EXPECT_EQ(bytes[0], 0xFF);
  EXPECT_EQ(bytes[1], 0x00);
  EXPECT_EQ(bytes[2], 0xFF);
  EXPECT_EQ(bytes[3], 0x00);
  writtenBits(*formatInfo(VK_FORMAT_B8G8R8A8_UNORM), 0b0001, bytes);  // R is the third byte
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[2], 0xFF);
  // A2B10G10R10: R in bits 0-9, G 10-19, B 20-29, A 30-31 of the word.
  writtenBits(*formatInfo(VK_FORMAT_A2B10G10R10_UNORM_PACK32), 0b1010, bytes);  // G and A
  uint32_t word = uint32_t(bytes[0]) | uint32_t(bytes[1]) << 8 | uint32_t(bytes[2]) << 16 | uint32_t(bytes[3]) << 24;
  EXPECT_EQ(word, (0x3FFu << 10) | (0x3u << 30));
  writtenBits(*formatInfo(VK_FORMAT_R16G16_UINT), 0b1111, bytes);
  EXPECT_EQ(bytes[0] & bytes[1] & bytes[2] & bytes[3], 0xFF);
}

}  // namespace
}  // namespace tessera::raster
