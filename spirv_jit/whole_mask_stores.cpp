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

unsigned storeWholeMasksPlainly(llvm::Module& module) {
  std::vector<llvm::IntrinsicInst*> work;
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
          call && call->getIntrinsicID() == llvm::Intrinsic::masked_store && !llvm::isa<llvm::Constant>(call->getArgOperand(3)))
        work.push_back(call);
  for (llvm::IntrinsicInst* store : work) {
    llvm::Value* value = store->getArgOperand(0);
    llvm::Value* pointer = store->getArgOperand(1);
    const auto align = llvm::cast<llvm::ConstantInt>(store->getArgOperand(2))->getZExtValue();
    llvm::Value* mask = store->getArgOperand(3);
    const uint32_t lanes = llvm::cast<llvm::FixedVectorType>(mask->getType())->getNumElements();
    llvm::IRBuilder<> b(store);
    llvm::Value* whole =
        b.CreateICmpEQ(b.CreateBitCast(mask, b.getIntNTy(lanes)), b.getInt(llvm::APInt::getAllOnes(lanes)), "whole_mask");
    llvm::Instruction* plainAt = nullptr;
    llvm::Instruction* maskedAt = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(whole, store, &plainAt, &maskedAt);
    b.SetInsertPoint(plainAt);
    llvm::StoreInst* plain = b.CreateAlignedStore(value, pointer, llvm::Align(align));
    plain->copyMetadata(*store, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                                 llvm::LLVMContext::MD_noalias, llvm::LLVMContext::MD_nontemporal});
    store->moveBefore(maskedAt);
  }
  return unsigned(work.size());
}

unsigned loadWholeMasksPlainly(llvm::Module& module) {
  std::vector<llvm::IntrinsicInst*> work;
  for (llvm::Function& f : module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst);
          call && call->getIntrinsicID() == llvm::Intrinsic::masked_load && !llvm::isa<llvm::Constant>(call->getArgOperand(2)))
        work.push_back(call);
  for (llvm::IntrinsicInst* load : work) {
    llvm::Value* pointer = load->getArgOperand(0);
    const auto align = llvm::cast<llvm::ConstantInt>(load->getArgOperand(1))->getZExtValue();
    llvm::Value* mask = load->getArgOperand(2);
    const uint32_t lanes = llvm::cast<llvm::FixedVectorType>(mask->getType())->getNumElements();
    llvm::IRBuilder<> b(load);
    llvm::Value* whole =
        b.CreateICmpEQ(b.CreateBitCast(mask, b.getIntNTy(lanes)), b.getInt(llvm::APInt::getAllOnes(lanes)), "whole_mask");
    llvm::Instruction* plainAt = nullptr;
    llvm::Instruction* maskedAt = nullptr;
    llvm::SplitBlockAndInsertIfThenElse(whole, load, &plainAt, &maskedAt);
    b.SetInsertPoint(plainAt);
    llvm::LoadInst* plain = b.CreateAlignedLoad(load->getType(), pointer, llvm::Align(align));
    plain->copyMetadata(*load, {llvm::LLVMContext::MD_tbaa, llvm::LLVMContext::MD_alias_scope,
                                llvm::LLVMContext::MD_noalias, llvm::LLVMContext::MD_nontemporal});
    load->moveBefore(maskedAt);
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
