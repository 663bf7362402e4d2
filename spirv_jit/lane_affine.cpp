#include "lane_affine.h"

#include <llvm/Analysis/VectorUtils.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Operator.h>

namespace tessera::jit {

namespace {

constexpr int kMaxDepth = 16;

// The constant that every lane of `v` holds, if it is one.
std::optional<uint64_t> splatConstant(llvm::Value* v) {
  auto* c = llvm::dyn_cast<llvm::Constant>(v);
  if (!c) return std::nullopt;
  if (auto* s = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getSplatValue())) return s->getZExtValue();
  return std::nullopt;
}

std::optional<LaneSteps> steps(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width, int depth) {
  if (!v->getType()->isVectorTy()) return LaneSteps{};
  if (depth > kMaxDepth) return std::nullopt;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) {
    if (c->getSplatValue()) return LaneSteps{};
    // An arithmetic progression of constants (the lane index times a size, ...).
    auto element = [&](uint32_t i) -> std::optional<uint64_t> {
      auto* e = llvm::dyn_cast_or_null<llvm::ConstantInt>(c->getAggregateElement(i));
      if (!e) return std::nullopt;
      return e->getZExtValue();
    };
    auto e0 = element(0), e1 = element(1);
    if (!e0 || !e1) return std::nullopt;
    const uint64_t mask = llvm::APInt::getAllOnes(v->getType()->getScalarSizeInBits()).getZExtValue();
    const uint64_t d = (*e1 - *e0) & mask;
    for (uint32_t i = 2; i < width; ++i) {
      auto e = element(i);
      if (!e || *e != ((*e0 + i * d) & mask)) return std::nullopt;
    }
    // As a signed step in the element's width.
    const unsigned bits = v->getType()->getScalarSizeInBits();
    const int64_t signedStep = bits >= 64 ? int64_t(d) : (int64_t(d << (64 - bits)) >> (64 - bits));
    return LaneSteps{signedStep, {}};
  }
  if (llvm::getSplatValue(v)) return LaneSteps{};
  auto* inst = llvm::dyn_cast<llvm::Instruction>(v);
  if (!inst) return std::nullopt;
  auto both = [&](int64_t (*combine)(int64_t, int64_t)) -> std::optional<LaneSteps> {
    auto a = steps(B, inst->getOperand(0), width, depth + 1);
    if (!a) return std::nullopt;
    auto b = steps(B, inst->getOperand(1), width, depth + 1);
    if (!b) return std::nullopt;
    a->stride = combine(a->stride, b->stride);
    a->conditions.insert(a->conditions.end(), b->conditions.begin(), b->conditions.end());
    return a;
  };
  switch (inst->getOpcode()) {
    case llvm::Instruction::Add:
      return both([](int64_t x, int64_t y) { return x + y; });
    case llvm::Instruction::Sub:
      return both([](int64_t x, int64_t y) { return x - y; });
    case llvm::Instruction::Or:
      // Disjoint bits add without carries.
      if (!llvm::cast<llvm::PossiblyDisjointInst>(inst)->isDisjoint()) break;
      return both([](int64_t x, int64_t y) { return x + y; });
    case llvm::Instruction::Mul:
      for (int k = 0; k < 2; ++k)
        if (auto c = splatConstant(inst->getOperand(k))) {
          auto a = steps(B, inst->getOperand(1 - k), width, depth + 1);
          if (a) a->stride *= int64_t(*c);
          return a;
        }
      if (auto a = both([](int64_t x, int64_t y) { return x | y; }); a && a->stride == 0) return a;
      return std::nullopt;
    case llvm::Instruction::Shl:
      if (auto c = splatConstant(inst->getOperand(1)); c && *c < 32) {
        auto a = steps(B, inst->getOperand(0), width, depth + 1);
        if (a) a->stride *= int64_t(1) << *c;
        return a;
      }
      break;
    case llvm::Instruction::Call:
      // umin(a, C) with a stepping up by s: a itself when a[0] <= C - (W-1)s, so that no lane
      // (and no wrap-around on the way) goes past C.
      if (auto* ii = llvm::dyn_cast<llvm::IntrinsicInst>(inst); ii && ii->getIntrinsicID() == llvm::Intrinsic::umin) {
        auto c = splatConstant(ii->getArgOperand(1));
        if (!c) break;
        auto a = steps(B, ii->getArgOperand(0), width, depth + 1);
        if (!a || a->stride < 0) return std::nullopt;
        if (a->stride == 0) return a;
        const uint64_t span = uint64_t(a->stride) * (width - 1);
        if (*c < span) return std::nullopt;
        llvm::Value* first = B.CreateExtractElement(ii->getArgOperand(0), uint64_t(0));
        a->conditions.push_back(B.CreateICmpULE(first, llvm::ConstantInt::get(first->getType(), *c - span)));
        return a;
      }
      break;
    default:
      break;
  }
  return std::nullopt;
}

}  // namespace

std::optional<LaneSteps> laneSteps(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width) {
  return steps(B, v, width, 0);
}

}  // namespace tessera::jit
