// Folds OpSpecConstantOp QuantizeToF16 here instead of in SPIRV-Tools.
//
// SPIRV-Tools 2023.1 (Debian 12)'s FoldSpecConstantOpAndCompositePass crashes (a null
// instruction cloned in FoldWithInstructionFolder) on OpSpecConstantOp QuantizeToF16 of an
// infinity or a NaN, and folds a value too small for a normal half to a denormal where the
// SPIR-V specification makes it a zero: valid shaders (the CTS's
// spirv_assembly.instruction.graphics.opquantize.spec_const_* cases) killed the process inside
// vkCreateGraphicsPipelines or drew wrong values. After specialization has frozen the spec
// constants, each such operation of a 32-bit OpConstant becomes an OpConstant of the result
// computed as the translator computes OpQuantizeToF16 (translate_arith.cpp).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <spirv/unified1/spirv.hpp11>

#include "spirv_tools_stage.h"

namespace tessera::jit {
namespace {

using spv::Op;

// OpQuantizeToF16 ("3.42.11 Conversion Instructions"): rounded to a half's precision (to
// nearest even), an infinity or a magnitude too large becomes an infinity, a NaN stays a NaN,
// a magnitude too small for a normal half becomes a zero of the value's sign.
// Without a half type (Clang 14 has no _Float16 on x86): magnitudes from 65520 (halfway past
// the largest half, 65504, rounding to even) are infinities; from 2^-14 the float's 13 low
// mantissa bits are rounded off to nearest even (a carry moves into the exponent correctly);
// below, the half's subnormal grid is 2^-24. Equal to float(_Float16(value)) followed by the
// zero rule for every one of the 2^32 floats (checked exhaustively when this was written).
float quantizeToHalf(float value) {
  if (std::isnan(value)) return value;
  const float magnitude = std::fabs(value);
  if (magnitude >= 65520.0f) return std::copysign(INFINITY, value);
  float h;
  if (magnitude >= 0x1p-14f) {
    uint32_t bits;
    std::memcpy(&bits, &value, 4);
    bits = (bits + 0x0FFFu + ((bits >> 13) & 1u)) & ~0x1FFFu;
    std::memcpy(&h, &bits, 4);
  } else {
    h = std::nearbyint(value * 0x1p24f) * 0x1p-24f;
  }
  if (std::fabs(h) < 0x1p-14f) return std::copysign(0.0f, value);
  return h;
}

}  // namespace

bool hasSpecConstantQuantize(const std::vector<uint32_t>& words) {
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return false;
    if (Op(words[pos] & 0xffff) == Op::OpSpecConstantOp && count >= 5 && words[pos + 3] == uint32_t(Op::OpQuantizeToF16))
      return true;
    pos += count;
  }
  return false;
}

void foldSpecConstantQuantize(std::vector<uint32_t>& words) {
  if (words.size() < 5) return;
  std::map<uint32_t, uint32_t> floatConstants;  // OpConstant id -> value bits, of 32-bit float type
  std::set<uint32_t> float32Types;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return;  // validated before; leave it alone
    const uint32_t* w = &words[pos];
    const Op op = Op(w[0] & 0xffff);
    if (op == Op::OpTypeFloat && count >= 3 && w[2] == 32) float32Types.insert(w[1]);
    if (op == Op::OpConstant && count == 4 && float32Types.count(w[1])) floatConstants[w[2]] = w[3];
    if (op == Op::OpSpecConstantOp && count == 5 && w[3] == uint32_t(Op::OpQuantizeToF16) && float32Types.count(w[1])) {
      if (auto operand = floatConstants.find(w[4]); operand != floatConstants.end()) {
        float value;
        std::memcpy(&value, &operand->second, 4);
        const float quantized = quantizeToHalf(value);
        uint32_t bits;
        std::memcpy(&bits, &quantized, 4);
        out.insert(out.end(), {4u << 16 | uint32_t(Op::OpConstant), w[1], w[2], bits});
        floatConstants[w[2]] = bits;
        pos += count;
        continue;
      }
    }
    out.insert(out.end(), w, w + count);
    pos += count;
  }
  words.swap(out);
}

}  // namespace tessera::jit
