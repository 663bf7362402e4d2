// lane_affine.h on IR built here: which forms show a constant lane stride, and which clamps
// add run-time conditions.
#include <gtest/gtest.h>
#include <functional>

#include <llvm/Analysis/ConstantFolding.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "lane_affine.h"

namespace tessera::jit {
namespace {

class LaneAffine : public ::testing::Test {
 protected:
  static constexpr uint32_t kW = 8;
  LaneAffine() : module("m", context), B(context) {
    auto* type = llvm::FunctionType::get(B.getVoidTy(), {B.getInt32Ty()}, false);
    fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "f", module);
    B.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
    scalar = fn->getArg(0);
  }
  llvm::Value* splat(llvm::Value* v) { return B.CreateVectorSplat(kW, v); }
  llvm::Value* splat(uint32_t c) { return splat(B.getInt32(c)); }
  llvm::Value* lanes(uint32_t step) {  // <0, step, 2 step, ...>
    std::vector<llvm::Constant*> c;
    for (uint32_t i = 0; i < kW; ++i) c.push_back(B.getInt32(i * step));
    return llvm::ConstantVector::get(c);
  }

  llvm::LLVMContext context;
  llvm::Module module;
  llvm::IRBuilder<> B;
  llvm::Function* fn = nullptr;
  llvm::Value* scalar = nullptr;
};

TEST_F(LaneAffine, ScalarsSplatsAndLaneSequencesAddUp) {
  auto s = lanePattern(B, scalar, kW);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stride(), 0);
  // (splat(x) + lane) * 4 + splat(16), then << 1: stride 8.
  llvm::Value* x = B.CreateAdd(splat(scalar), lanes(1));
  llvm::Value* v = B.CreateShl(B.CreateAdd(B.CreateMul(x, splat(4u)), splat(16u)), splat(1u));
  s = lanePattern(B, v, kW);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stride(), 8);
  EXPECT_TRUE(s->conditions.empty());
  // splat - lane: stride -1.
  s = lanePattern(B, B.CreateSub(splat(scalar), lanes(1)), kW);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stride(), -1);
  EXPECT_EQ(s->minOffset(), -int64_t(kW - 1));
  // Constant lanes of no single step: their offsets from lane 0.
  std::vector<llvm::Constant*> c;
  for (uint32_t i = 0; i < kW; ++i) c.push_back(B.getInt32(5 + i * i));
  s = lanePattern(B, llvm::ConstantVector::get(c), kW);
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->stride());
  for (uint32_t i = 0; i < kW; ++i) EXPECT_EQ(s->offsets[i], int64_t(i * i));
}

TEST_F(LaneAffine, ClampsAndShiftsBecomeConditionsAndOtherFormsAreRefused) {
  llvm::Value* x = B.CreateAdd(splat(scalar), lanes(4));
  llvm::Value* clamped = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, splat(1000u));
  auto s = lanePattern(B, clamped, kW);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->stride(), 4);
  ASSERT_EQ(s->conditions.size(), 1u);  // x[0] <= 1000 - 7*4
  auto* cmp = llvm::dyn_cast<llvm::ICmpInst>(s->conditions[0]);
  ASSERT_TRUE(cmp);
  EXPECT_EQ(cmp->getPredicate(), llvm::ICmpInst::ICMP_ULE);
  EXPECT_EQ(llvm::cast<llvm::ConstantInt>(cmp->getOperand(1))->getZExtValue(), 1000u - 7 * 4);
  // A clamp below the span of the lanes can never leave them as they are.
  EXPECT_FALSE(lanePattern(B, B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, x, splat(20u)), kW));
  // (splat(y) + lane) / 4: offsets lane / 4, if y's low two bits are zero and nothing wrapped.
  llvm::Value* y = B.CreateAdd(splat(scalar), lanes(1));
  s = lanePattern(B, B.CreateUDiv(y, splat(4u)), kW);
  ASSERT_TRUE(s);
  for (uint32_t i = 0; i < kW; ++i) EXPECT_EQ(s->offsets[i], int64_t(i / 4));
  EXPECT_EQ(s->conditions.size(), 2u);
  // A remainder, a product of two lane-varying values, a division of descending lanes.
  EXPECT_FALSE(lanePattern(B, B.CreateURem(x, splat(16u)), kW));
  EXPECT_FALSE(lanePattern(B, B.CreateMul(x, x), kW));
  EXPECT_FALSE(lanePattern(B, B.CreateLShr(B.CreateSub(splat(scalar), lanes(1)), splat(1u)), kW));
}

// laneZeroScalar: lane 0 of vectors built from splats, lane constants, integer operations,
// clamps and casts comes out as scalar arithmetic on the scalar (no extractelement, which scalar
// evolution cannot see through), with lane 0's value; other forms fall back to an extract.
TEST_F(LaneAffine, LaneZeroIsRebuiltAsScalarArithmetic) {
  auto build = [&](llvm::Value* s) {
    llvm::Value* x = B.CreateAdd(splat(s), lanes(4), "", /*HasNUW=*/true);
    llvm::Value* v = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, B.CreateAdd(B.CreateMul(x, splat(3u)), splat(16u)), splat(1000u));
    return B.CreateTrunc(B.CreateZExt(v, llvm::FixedVectorType::get(B.getInt64Ty(), kW)), llvm::FixedVectorType::get(B.getInt32Ty(), kW));
  };
  llvm::Value* lane0 = laneZeroScalar(B, build(scalar));
  EXPECT_FALSE(lane0->getType()->isVectorTy());
  std::vector<llvm::Value*> pending = {lane0};
  int visited = 0;
  while (!pending.empty()) {  // nothing between it and the argument extracts a lane
    llvm::Value* v = pending.back();
    pending.pop_back();
    ++visited;
    EXPECT_FALSE(llvm::isa<llvm::ExtractElementInst>(v));
    if (auto* i = llvm::dyn_cast<llvm::Instruction>(v))
      for (llvm::Value* op : i->operands()) pending.push_back(op);
  }
  EXPECT_GT(visited, 5);
  // The same expression on a constant folds to lane 0's value: min((5 + 0) 3 + 16, 1000).
  // (Folded bottom-up here: the builder leaves intrinsic calls on constants as they are.)
  std::function<llvm::Constant*(llvm::Value*)> fold = [&](llvm::Value* v) -> llvm::Constant* {
    if (auto* c = llvm::dyn_cast<llvm::Constant>(v)) return c;
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    if (!i) return nullptr;
    for (unsigned k = 0; k < i->getNumOperands(); ++k)
      if (!llvm::isa<llvm::Function>(i->getOperand(k)))
        if (llvm::Constant* c = fold(i->getOperand(k))) i->setOperand(k, c);
    return llvm::ConstantFoldInstruction(i, module.getDataLayout());
  };
  auto* folded = llvm::dyn_cast_or_null<llvm::ConstantInt>(fold(laneZeroScalar(B, build(B.getInt32(5)))));
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->getZExtValue(), 31u);
  // Lane 0 of an insertion at lane 0 is the inserted scalar; a lane reversal is extracted.
  llvm::Value* inserted = B.CreateInsertElement(llvm::PoisonValue::get(llvm::FixedVectorType::get(B.getInt32Ty(), kW)), scalar,
                                                uint64_t(0));
  EXPECT_EQ(laneZeroScalar(B, inserted), scalar);
  std::vector<int> reverse;
  for (int i = int(kW) - 1; i >= 0; --i) reverse.push_back(i);
  llvm::Value* reversed = B.CreateShuffleVector(B.CreateAdd(splat(scalar), lanes(1)), reverse);
  EXPECT_TRUE(llvm::isa<llvm::ExtractElementInst>(laneZeroScalar(B, reversed)));
}

}  // namespace
}  // namespace tessera::jit
