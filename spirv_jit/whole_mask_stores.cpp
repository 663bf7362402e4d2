// storeWholeMasksPlainly and loadWholeMasksPlainly (whole_mask_stores.h).
#include "whole_mask_stores.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <vector>

namespace tessera::jit {

namespace {

// The module's calls of intrinsic `id` whose mask (operand `maskOperand`) is not a constant.
std::vector<llvm::IntrinsicInst*> runTimeMaskedCalls(llvm::Module& module, llvm::Intrinsic::ID id, unsigned maskOperand) {
  std::vector<llvm::IntrinsicInst*> calls;
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
          call && call->getIntrinsicID() == id && !llvm::isa<llvm::Constant>(call->getArgOperand(maskOperand)))
        calls.push_back(call);
  return calls;
}

// Splits `call`'s block on its mask being whole: `call` moves to the partial path; returns the
// insertion point of the whole path, where the plain access goes.
llvm::Instruction* branchOnWholeMask(llvm::IntrinsicInst* call, llvm::Value* mask) {
  const uint32_t lanes = llvm::cast<llvm::FixedVectorType>(mask->getType())->getNumElements();
  llvm::IRBuilder<> b(call);
  llvm::Value* whole =
      b.CreateICmpEQ(b.CreateBitCast(mask, b.getIntNTy(lanes)), b.getInt(llvm::APInt::getAllOnes(lanes)), "whole_mask");
  llvm::Instruction* plainAt = nullptr;
  llvm::Instruction* maskedAt = nullptr;
  llvm::SplitBlockAndInsertIfThenElse(whole, call, &plainAt, &maskedAt);
  call->moveBefore(maskedAt);
  return plainAt;
}

void copyAliasMetadata(llvm::Instruction& to, const llvm::Instruction& from) {
  to.copyMetadata(from, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope, llvm::LLVMContext::MD_noalias,
                         llvm::LLVMContext::MD_nontemporal});
}

}  // namespace

unsigned storeWholeMasksPlainly(llvm::Module& module) {
  const std::vector<llvm::IntrinsicInst*> work = runTimeMaskedCalls(module, llvm::Intrinsic::masked_store, 3);
  for (llvm::IntrinsicInst* store : work) {
    const auto align = llvm::cast<llvm::ConstantInt>(store->getArgOperand(2))->getZExtValue();
    llvm::IRBuilder<> b(branchOnWholeMask(store, store->getArgOperand(3)));
    copyAliasMetadata(*b.CreateAlignedStore(store->getArgOperand(0), store->getArgOperand(1), llvm::Align(align)), *store);
  }
  return unsigned(work.size());
}

unsigned loadWholeMasksPlainly(llvm::Module& module) {
  const std::vector<llvm::IntrinsicInst*> work = runTimeMaskedCalls(module, llvm::Intrinsic::masked_load, 2);
  for (llvm::IntrinsicInst* load : work) {
    const auto align = llvm::cast<llvm::ConstantInt>(load->getArgOperand(1))->getZExtValue();
    llvm::IRBuilder<> b(branchOnWholeMask(load, load->getArgOperand(2)));
    llvm::LoadInst* plain = b.CreateAlignedLoad(load->getType(), load->getArgOperand(0), llvm::Align(align));
    copyAliasMetadata(*plain, *load);
    // Both paths meet where the load was: its users take whichever ran.
    b.SetInsertPoint(load->getParent()->getSingleSuccessor()->getFirstNonPHI());
    llvm::PHINode* value = b.CreatePHI(load->getType(), 2);
    load->replaceAllUsesWith(value);
    value->addIncoming(plain, plain->getParent());
    value->addIncoming(load, load->getParent());
  }
  return unsigned(work.size());
}

}  // namespace tessera::jit
