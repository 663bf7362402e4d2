// divideVectorsInDouble (vector_division.h).
#include "vector_division.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <vector>

namespace tessera::jit {

unsigned divideVectorsInDouble(llvm::Module& module) {
  std::vector<llvm::BinaryOperator*> work;
  for (llvm::Function& f : module) {
    for (llvm::Instruction& inst : llvm::instructions(f)) {
      auto* op = llvm::dyn_cast<llvm::BinaryOperator>(&inst);
      if (!op) continue;
      const auto code = op->getOpcode();
      if (code != llvm::Instruction::SDiv && code != llvm::Instruction::UDiv && code != llvm::Instruction::SRem &&
          code != llvm::Instruction::URem)
        continue;
      auto* type = llvm::dyn_cast<llvm::FixedVectorType>(op->getType());
      if (!type || type->getNumElements() < 4 || !type->getElementType()->isIntegerTy(32)) continue;
      if (llvm::isa<llvm::Constant>(op->getOperand(1))) continue;  // the code generator's multiply
      work.push_back(op);
    }
  }
  for (llvm::BinaryOperator* op : work) {
    llvm::IRBuilder<> b(op);  // no fast-math flags: a reciprocal would not be exact
    const auto code = op->getOpcode();
    const bool isSigned = code == llvm::Instruction::SDiv || code == llvm::Instruction::SRem;
    auto* type = llvm::cast<llvm::FixedVectorType>(op->getType());
    llvm::Type* doubles = llvm::FixedVectorType::get(b.getDoubleTy(), type->getNumElements());
    llvm::Value* a = op->getOperand(0);
    llvm::Value* d = op->getOperand(1);
    llvm::Value* quotient =
        isSigned ? b.CreateFPToSI(b.CreateFDiv(b.CreateSIToFP(a, doubles), b.CreateSIToFP(d, doubles)), type)
                 : b.CreateFPToUI(b.CreateFDiv(b.CreateUIToFP(a, doubles), b.CreateUIToFP(d, doubles)), type);
    llvm::Value* result = quotient;
    if (code == llvm::Instruction::SRem || code == llvm::Instruction::URem) result = b.CreateSub(a, b.CreateMul(quotient, d));
    result->takeName(op);
    op->replaceAllUsesWith(result);
    op->eraseFromParent();
  }
  return unsigned(work.size());
}

}  // namespace tessera::jit
