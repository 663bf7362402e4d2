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
#include <cstring>
#include <map>
#include <spirv/unified1/spirv.hpp11>

#include "spirv_tools_stage.h"

namespace tessera::jit {
namespace {

using spv::Op;

// OpQuantizeToF16 ("3.42.11 Conversion Instructions"): rounded to a half's precision (to
// nearest even), an infinity or a magnitude too large becomes an infinity, a NaN stays a NaN,
// a magnitude too small for a normal half becomes a zero of the value's sign.
float quantizeToHalf(float value) {
  if (std::isnan(value)) return value;
  const float h = static_cast<float>(static_cast<_Float16>(value));
  if (std::fabs(h) < 6.103515625e-05f) return std::copysign(0.0f, value);
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
  std::map<uint32_t, bool> float32Types;
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return;  // validated before; leave it alone
    const uint32_t* w = &words[pos];
    const Op op = Op(w[0] & 0xffff);
    if (op == Op::OpTypeFloat && count >= 3 && w[2] == 32) float32Types[w[1]] = true;
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
