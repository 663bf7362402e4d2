// Keeps SPIRV-Tools' constant folder away from INT_MIN / -1.
//
// SPIRV-Tools 2023.1 (Debian 12) folds OpSDiv, OpSRem and OpSMod with constant operands by
// doing the division on the host, where INT_MIN / -1 traps (SIGFPE): a valid shader (the
// result is merely undefined) or an unlucky specialization would kill the process inside
// vkCreateComputePipelines. Before the optimizer runs, each such division gets its divisor
// replaced by select(a == MIN && b == -1, 1, b): the same result wherever it is defined,
// and nothing left for the folder to trap on. Specialization-constant operations get the same
// guard as OpSpecConstantOp instructions (IEqual, LogicalAnd and Select are allowed there).
#include <map>
#include <spirv/unified1/spirv.hpp11>

#include "spirv_tools_stage.h"

namespace tessera::jit {
namespace {

using spv::Op;

uint32_t word0(Op op, size_t count) { return uint32_t(count) << 16 | uint32_t(op); }

bool isSignedDivision(uint32_t op) {
  return op == uint32_t(Op::OpSDiv) || op == uint32_t(Op::OpSRem) || op == uint32_t(Op::OpSMod);
}

bool isTypeOrConstant(Op op) {
  switch (op) {
    case Op::OpTypeVoid: case Op::OpTypeBool: case Op::OpTypeInt: case Op::OpTypeFloat: case Op::OpTypeVector:
    case Op::OpTypeMatrix: case Op::OpTypeImage: case Op::OpTypeSampler: case Op::OpTypeSampledImage:
    case Op::OpTypeArray: case Op::OpTypeRuntimeArray: case Op::OpTypeStruct: case Op::OpTypePointer:
    case Op::OpTypeFunction: case Op::OpTypeForwardPointer: case Op::OpConstantTrue: case Op::OpConstantFalse:
    case Op::OpConstant: case Op::OpConstantComposite: case Op::OpConstantNull: case Op::OpSpecConstantTrue:
    case Op::OpSpecConstantFalse: case Op::OpSpecConstant: case Op::OpSpecConstantComposite: case Op::OpSpecConstantOp:
    case Op::OpVariable: case Op::OpUndef:
      return true;
    default:
      return false;
  }
}

}  // namespace

void guardSignedDivision(std::vector<uint32_t>& words, bool instructionsToo) {
  if (words.size() < 5) return;
  // Split into instructions.
  std::vector<std::vector<uint32_t>> insts;
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    if (count == 0 || pos + count > words.size()) return;  // validated before; be safe anyway
    insts.emplace_back(words.begin() + pos, words.begin() + pos + count);
    pos += count;
  }
  struct IntType { uint32_t width = 0; size_t index = 0; };
  std::map<uint32_t, IntType> ints;                          // OpTypeInt id -> width, position
  std::map<uint32_t, std::pair<uint32_t, uint32_t>> vectors;  // OpTypeVector id -> (component, count)
  std::map<uint32_t, size_t> vectorIndex;
  uint32_t boolType = 0;
  size_t boolIndex = 0;
  std::map<uint32_t, uint32_t> boolVectors;  // count -> id
  size_t firstType = 0;
  bool anyDivision = false;
  for (size_t i = 0; i < insts.size(); ++i) {
    const auto& w = insts[i];
    const Op op = Op(w[0] & 0xffff);
    if (!firstType && isTypeOrConstant(op)) firstType = i;
    if (op == Op::OpTypeInt && w.size() >= 3) ints[w[1]] = {w[2], i};
    if (op == Op::OpTypeBool && w.size() >= 2) boolType = w[1], boolIndex = i;
    if (op == Op::OpTypeVector && w.size() >= 4) vectors[w[1]] = {w[2], w[3]}, vectorIndex[w[1]] = i;
    if (isSignedDivision(w[0] & 0xffff) && instructionsToo) anyDivision = true;
    if (op == Op::OpSpecConstantOp && w.size() >= 6 && isSignedDivision(w[3])) anyDivision = true;
  }
  if (!anyDivision) return;
  for (auto& [id, v] : vectors)
    if (v.first == boolType && boolType) boolVectors[v.second] = id;

  uint32_t bound = words[3];
  std::vector<std::vector<std::vector<uint32_t>>> before(insts.size() + 1), after(insts.size());
  std::vector<bool> drop(insts.size(), false);
  // The bool type goes to the start of the type section (it depends on nothing), so that the
  // guards of specialization-constant operations declared before it can use it.
  if (!boolType) boolType = bound++;
  else drop[boolIndex] = true;
  before[firstType].push_back({word0(Op::OpTypeBool, 2), boolType});
  auto boolOf = [&](uint32_t count) -> uint32_t {
    if (count == 1) return boolType;
    auto it = boolVectors.find(count);
    if (it != boolVectors.end()) return it->second;
    uint32_t id = bound++;
    before[firstType].push_back({word0(Op::OpTypeVector, 4), id, boolType, count});
    boolVectors[count] = id;
    return id;
  };
  // A constant of type `type` (an int, or a vector of them) with every component `value`.
  auto constantOf = [&](uint32_t type, uint64_t value) -> uint32_t {
    uint32_t scalar = type, count = 1;
    if (vectors.count(type)) scalar = vectors[type].first, count = vectors[type].second;
    const IntType& it = ints[scalar];
    uint32_t c = bound++;
    std::vector<uint32_t> decl{0, scalar, c, uint32_t(value)};
    if (it.width > 32) decl.push_back(uint32_t(value >> 32));
    decl[0] = word0(Op::OpConstant, decl.size());
    after[it.index].push_back(decl);
    if (count == 1) return c;
    uint32_t composite = bound++;
    std::vector<uint32_t> comp{word0(Op::OpConstantComposite, 3 + count), type, composite};
    for (uint32_t k = 0; k < count; ++k) comp.push_back(c);
    after[vectorIndex[type]].push_back(comp);
    return composite;
  };
  for (size_t i = 0; i < insts.size(); ++i) {
    auto& w = insts[i];
    const Op op = Op(w[0] & 0xffff);
    const bool spec = op == Op::OpSpecConstantOp && w.size() >= 6 && isSignedDivision(w[3]);
    if (!spec && !(instructionsToo && isSignedDivision(uint32_t(op)) && w.size() >= 5)) continue;
    const uint32_t type = w[1];
    uint32_t scalar = type, count = 1;
    if (vectors.count(type)) scalar = vectors[type].first, count = vectors[type].second;
    if (!ints.count(scalar) || (spec && count != 1)) continue;  // (vector spec-constant divisions: left alone)
    const uint32_t width = ints[scalar].width;
    const uint64_t minValue = uint64_t(1) << (width - 1);
    const uint64_t allOnes = width >= 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    const uint32_t bt = boolOf(count);
    const uint32_t cMin = constantOf(type, minValue), cM1 = constantOf(type, allOnes), cOne = constantOf(type, 1);
    const size_t a = spec ? 4 : 3, b = a + 1;
    const uint32_t isMin = bound++, isM1 = bound++, both = bound++, safe = bound++;
    auto emit = [&](Op o, uint32_t resultType, uint32_t result, std::initializer_list<uint32_t> operands) {
      std::vector<uint32_t> in;
      if (spec) in = {word0(Op::OpSpecConstantOp, 4 + operands.size()), resultType, result, uint32_t(o)};
      else in = {word0(o, 3 + operands.size()), resultType, result};
      in.insert(in.end(), operands);
      before[i].push_back(in);
    };
    emit(Op::OpIEqual, bt, isMin, {w[a], cMin});
    emit(Op::OpIEqual, bt, isM1, {w[b], cM1});
    emit(Op::OpLogicalAnd, bt, both, {isMin, isM1});
    emit(Op::OpSelect, type, safe, {both, cOne, w[b]});
    w[b] = safe;
  }
  std::vector<uint32_t> out(words.begin(), words.begin() + 5);
  out[3] = bound;
  for (size_t i = 0; i < insts.size(); ++i) {
    for (auto& in : before[i]) out.insert(out.end(), in.begin(), in.end());
    if (!drop[i]) out.insert(out.end(), insts[i].begin(), insts[i].end());
    for (auto& in : after[i]) out.insert(out.end(), in.begin(), in.end());
  }
  words.swap(out);
}

}  // namespace tessera::jit
