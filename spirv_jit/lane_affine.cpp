#include "lane_affine.h"

#include <algorithm>

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace tessera::jit {

std::optional<int64_t> LanePattern::stride() const {
  if (offsets.size() < 2) return 0;
  const int64_t d = offsets[1];
  for (size_t i = 2; i < offsets.size(); ++i)
    if (offsets[i] != int64_t(i) * d) return std::nullopt;
  return d;
}
int64_t LanePattern::minOffset() const { return offsets.empty() ? 0 : *std::min_element(offsets.begin(), offsets.end()); }
int64_t LanePattern::maxOffset() const { return offsets.empty() ? 0 : *std::max_element(offsets.begin(), offsets.end()); }

namespace {

constexpr int kMaxDepth = 16;

llvm::Value* laneZero(llvm::IRBuilder<>& B, llvm::Value* v, int depth);  // laneZeroScalar
// Offsets beyond this are refused: no access pattern worth a vector load has them, and the
// arithmetic on them stays far from overflowing.
constexpr int64_t kMaxOffset = int64_t(1) << 32;

std::optional<uint64_t> splatConstant(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::Constant>(v);
  if (!c) return std::nullopt;
  if (auto* s = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getSplatValue())) return s->getZExtValue();
  return std::nullopt;
}

LanePattern uniformPattern(uint32_t width) { return LanePattern{std::vector<int64_t>(width, 0), {}}; }

bool bounded(const LanePattern& p) {
  for (int64_t o : p.offsets)
    if (o > kMaxOffset || o < -kMaxOffset) return false;
  return true;
}

std::optional<LanePattern> pattern(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width, int depth) {
  if (!v->getType()->isVectorTy()) return uniformPattern(width);
  if (depth > kMaxDepth) return std::nullopt;
  const unsigned bits = v->getType()->getScalarSizeInBits();
  if (bits > 64) return std::nullopt;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
    if (c->getSplatValue()) return uniformPattern(width);
    // Constant lanes (the lane index times a size, ...), as signed values of their width.
    LanePattern p;
    int64_t first = 0;
    for (uint32_t i = 0; i < width; ++i) {
      auto* e = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getAggregateElement(i));
      if (!e) return std::nullopt;
      const int64_t x = e->getSExtValue();
      if (i == 0) first = x;
      p.offsets.push_back(x - first);
    }
    if (!bounded(p)) return std::nullopt;
    return p;
  }
  if (llvm::getSplatValue(v)) return uniformPattern(width);
  auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
  if (!inst) return std::nullopt;
  auto operand = [&](unsigned k) { return pattern(B, inst->getOperand(k), width, depth + 1); };
  auto combine = [&](int64_t sign) -> std::optional<LanePattern> {
    auto a = operand(0);
    if (!a) return std::nullopt;
    auto b = operand(1);
    if (!b) return std::nullopt;
    for (uint32_t i = 0; i < width; ++i) a->offsets[i] += sign * b->offsets[i];
    a->conditions.insert(a->conditions.end(), b->conditions.begin(), b->conditions.end());
    if (!bounded(*a)) return std::nullopt;
    return a;
  };
  auto scaled = [&](std::optional<LanePattern> a, int64_t factor) -> std::optional<LanePattern> {
    if (!a) return std::nullopt;
    for (int64_t& o : a->offsets) o *= factor;
    if (!bounded(*a)) return std::nullopt;
    return a;
  };
  // lane 0's value as a scalar of v's type, for run-time conditions (as arithmetic scalar
  // evolution can follow: laneZeroScalar).
  auto first = [&](llvm::Value* x) { return laneZero(B, x, 0); };
  switch (inst->getOpcode()) {
    case llvm::Instruction::Add:
      return combine(1);
    case llvm::Instruction::Sub:
      return combine(-1);
    case llvm::Instruction::Or:
      // Disjoint bits add without carries.
      if (!llvm::cast<llvm::PossiblyDisjointInst>(inst)->isDisjoint()) break;
      return combine(1);
    case llvm::Instruction::Mul:
      for (unsigned k = 0; k < 2; ++k)
        if (auto c = splatConstant(inst->getOperand(k)); c && *c < (uint64_t(1) << 31))
          return scaled(operand(1 - k), int64_t(*c));
      break;
    case llvm::Instruction::Shl:
      if (auto c = splatConstant(inst->getOperand(1)); c && *c < 31) return scaled(operand(0), int64_t(1) << *c);
      break;
    case llvm::Instruction::LShr:
    case llvm::Instruction::UDiv: {
      // (v0 + o) >> k = (v0 >> k) + (o >> k) when v0's low k bits are zero and no offset is
      // negative: a condition on v0, checked at run time.
      auto c = splatConstant(inst->getOperand(1));
      if (!c) break;
      unsigned k = 0;
      if (inst->getOpcode() == llvm::Instruction::LShr) {
        if (*c >= bits) break;
        k = unsigned(*c);
      } else {
        if (*c == 0 || (*c & (*c - 1)) != 0) break;
        k = unsigned(llvm::Log2_64(*c));
      }
      auto a = operand(0);
      if (!a || a->minOffset() < 0) return std::nullopt;
      if (k == 0) return a;
      // No lane may have wrapped round either: v0 <= max - max offset.
      const uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
      const uint64_t span = uint64_t(a->maxOffset());
      llvm::Value* v0 = first(inst->getOperand(0));
      llvm::Type* t = v0->getType();
      a->conditions.push_back(B.CreateICmpEQ(B.CreateAnd(v0, llvm::ConstantInt::get(t, (uint64_t(1) << k) - 1)),
                                             llvm::ConstantInt::get(t, 0)));
      if (span) a->conditions.push_back(B.CreateICmpULE(v0, llvm::ConstantInt::get(t, all - span)));
      for (int64_t& o : a->offsets) o >>= k;
      return a;
    }
    case llvm::Instruction::Call:
      // umin(a, C): a itself when every lane's a lies in [0, C] without wrapping: a[0] <=
      // C - max offset, with no negative offset.
      if (auto* ii = llvm::dyn_cast<llvm::IntrinsicInst>(inst); ii && ii->getIntrinsicID() == llvm::Intrinsic::umin) {
        auto c = splatConstant(ii->getArgOperand(1));
        if (!c) break;
        auto a = pattern(B, ii->getArgOperand(0), width, depth + 1);
        if (!a || a->minOffset() < 0) return std::nullopt;
        const uint64_t span = uint64_t(a->maxOffset());
        if (span == 0) return a;
        if (*c < span) return std::nullopt;
        llvm::Value* v0 = first(ii->getArgOperand(0));
        a->conditions.push_back(B.CreateICmpULE(v0, llvm::ConstantInt::get(v0->getType(), *c - span)));
        return a;
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LanePattern> lanePattern(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width) {
  return pattern(B, v, width, 0);
}

namespace {

llvm::Value* laneZero(llvm::IRBuilder<>& B, llvm::Value* v, int depth) {
  if (!v->getType()->isVectorTy()) return v;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v))
    if (llvm::Constant* e = c->getAggregateElement(0u)) return e;
  if (llvm::Value* s = llvm::getSplatValue(v)) return s;
  if (depth < kMaxDepth) {
    if (auto* ie = llvm::dyn_cast<llvm::InsertElementInst>(v))
      if (auto* at = llvm::dyn_cast<llvm::ConstantInt>(ie->getOperand(2)))
        return at->isZero() ? ie->getOperand(1) : laneZero(B, ie->getOperand(0), depth + 1);
    if (auto* bo = llvm::dyn_cast<llvm::BinaryOperator>(v); bo && bo->getType()->isIntOrIntVectorTy()) {
      llvm::Value* a = laneZero(B, bo->getOperand(0), depth + 1);
      llvm::Value* b = laneZero(B, bo->getOperand(1), depth + 1);
      llvm::Value* r = B.CreateBinOp(bo->getOpcode(), a, b);
      // Lane 0's operation is one of the vector's lanes: its no-wrap and exact flags hold.
      if (auto* ri = llvm::dyn_cast<llvm::Instruction>(r)) ri->copyIRFlags(bo);
      return r;
    }
    if (auto* ii = llvm::dyn_cast<llvm::IntrinsicInst>(v)) {
      switch (ii->getIntrinsicID()) {
        case llvm::Intrinsic::umin:
        case llvm::Intrinsic::umax:
        case llvm::Intrinsic::smin:
        case llvm::Intrinsic::smax:
          return B.CreateBinaryIntrinsic(ii->getIntrinsicID(), laneZero(B, ii->getArgOperand(0), depth + 1),
                                         laneZero(B, ii->getArgOperand(1), depth + 1));
        default: break;
      }
    }
    if (auto* cast = llvm::dyn_cast<llvm::CastInst>(v);
        cast && (cast->getOpcode() == llvm::Instruction::ZExt || cast->getOpcode() == llvm::Instruction::SExt ||
                 cast->getOpcode() == llvm::Instruction::Trunc))
      return B.CreateCast(cast->getOpcode(), laneZero(B, cast->getOperand(0), depth + 1), cast->getType()->getScalarType());
  }
  return B.CreateExtractElement(v, uint64_t(0));
}

}  // namespace

llvm::Value* laneZeroScalar(llvm::IRBuilder<>& B, llvm::Value* v) { return laneZero(B, v, 0); }

}  // namespace tessera::jit
