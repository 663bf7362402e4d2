// vector_division.h on IR built here: after the optimizer, 32-bit lane-vector divisions and
// remainders by divisors that are not constants become double arithmetic; those by constants,
// scalar ones and 64-bit ones stay for the code generator. (Results at every W and for every
// divisor kind: Types.Int32ArithmeticAndBitOperations for run-time divisors,
// Types.Int32DivisionByConstantsAndSpecializationConstants for constant ones.)
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>

#include <map>

#include "vector_division.h"

namespace tessera::jit {
namespace {

TEST(VectorDivision, RunTimeDivisorsOfLaneVectorsDivideInDoubleAndConstantOnesStay) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  llvm::IRBuilder<> B(context);
  auto* v16 = llvm::FixedVectorType::get(B.getInt32Ty(), 16);
  auto* v16x64 = llvm::FixedVectorType::get(B.getInt64Ty(), 16);
  auto* type = llvm::FunctionType::get(B.getVoidTy(), {v16, v16, B.getInt32Ty(), v16x64, B.getPtrTy()}, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "f", module);
  B.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  llvm::Value* a = fn->getArg(0);
  llvm::Value* d = fn->getArg(1);
  llvm::Value* out = fn->getArg(4);
  llvm::Value* thirtyOne = llvm::ConstantVector::getSplat(llvm::ElementCount::getFixed(16), B.getInt32(31));
  std::vector<llvm::Value*> results = {
      B.CreateSDiv(a, d), B.CreateUDiv(a, d), B.CreateSRem(a, d), B.CreateURem(a, d),  // rewritten
      B.CreateSDiv(a, thirtyOne), B.CreateURem(a, thirtyOne),                         // constant divisors
      B.CreateSDiv(fn->getArg(2), fn->getArg(2)),                                     // scalar
      B.CreateSDiv(fn->getArg(3), fn->getArg(3)),                                     // 64-bit lanes
  };
  for (size_t i = 0; i < results.size(); ++i) B.CreateStore(results[i], B.CreateConstGEP1_32(B.getInt8Ty(), out, 128 * i));
  B.CreateRetVoid();

  EXPECT_EQ(divideVectorsInDouble(module), 4u);
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  std::map<unsigned, int> divisions, fdivs;
  for (llvm::Instruction& inst : llvm::instructions(*fn)) {
    if (inst.getOpcode() == llvm::Instruction::FDiv) {
      ++fdivs[0];
      EXPECT_FALSE(inst.getFastMathFlags().any()) << "a reciprocal would not be exact";
    }
    if (inst.isIntDivRem()) {
      ++divisions[inst.getOpcode()];
      // What is left divides by a constant, or is not a vector of 32-bit integers.
      auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(inst.getType());
      EXPECT_TRUE(llvm::isa<llvm::Constant>(inst.getOperand(1)) || !vt || !vt->getElementType()->isIntegerTy(32));
    }
  }
  EXPECT_EQ(fdivs[0], 4);
  EXPECT_EQ(divisions[llvm::Instruction::SDiv], 3);  // by 31, scalar, 64-bit
  EXPECT_EQ(divisions[llvm::Instruction::URem], 1);  // by 31
  EXPECT_EQ(divisions[llvm::Instruction::UDiv] + divisions[llvm::Instruction::SRem], 0);
}

}  // namespace
}  // namespace tessera::jit
