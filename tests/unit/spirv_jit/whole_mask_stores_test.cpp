// whole_mask_stores.h: after the optimizer, a masked store (load) whose mask is a run-time
// value becomes a plain store (load) when the mask is whole and stays masked otherwise; those
// with constant masks are left to LLVM. Checked on IR built here, and by running the rewritten code:
// a whole mask writes every element, a partial one only its elements (what users would notice:
// pixels or buffer elements outside a batch's live lanes overwritten).
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "llvm_engine.h"
#include "tessera/cpu_info.h"
#include "whole_mask_stores.h"

namespace tessera::jit {
namespace {

// void f(ptr out, ptr in, i32 bits): the 8 words at `in` stored to `out` under the mask of the
// low 8 bits of `bits`; with `constantStore`, a second masked store under a constant mask.
llvm::Function* buildMaskedCopy(llvm::Module& module, bool constantStore) {
  llvm::LLVMContext& context = module.getContext();
  llvm::IRBuilder<> B(context);
  auto* v8 = llvm::FixedVectorType::get(B.getInt32Ty(), 8);
  auto* type = llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getPtrTy(), B.getInt32Ty()}, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "masked_copy", module);
  B.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  llvm::Value* value = B.CreateAlignedLoad(v8, fn->getArg(1), llvm::Align(4));
  llvm::Value* mask = B.CreateBitCast(B.CreateTrunc(fn->getArg(2), B.getInt8Ty()),
                                      llvm::FixedVectorType::get(B.getInt1Ty(), 8));
  B.CreateMaskedStore(value, fn->getArg(0), llvm::Align(4), mask);
  if (constantStore) {
    std::vector<llvm::Constant*> half;
    for (int i = 0; i < 8; ++i) half.push_back(B.getInt1(i < 4));
    B.CreateMaskedStore(value, B.CreateConstGEP1_32(B.getInt8Ty(), fn->getArg(0), 64), llvm::Align(4),
                        llvm::ConstantVector::get(half));
  }
  B.CreateRetVoid();
  return fn;
}

TEST(WholeMaskStores, RunTimeMasksBranchToAPlainStoreAndConstantMasksStay) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  llvm::Function* fn = buildMaskedCopy(module, /*constantStore=*/true);
  EXPECT_EQ(storeWholeMasksPlainly(module), 1u);
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  int masked = 0, plain = 0, branches = 0;
  for (llvm::Instruction& inst : llvm::instructions(*fn)) {
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst); call && call->getIntrinsicID() == llvm::Intrinsic::masked_store)
      ++masked;
    if (auto* store = llvm::dyn_cast<llvm::StoreInst>(&inst)) {
      ++plain;
      EXPECT_EQ(store->getAlign(), llvm::Align(4));
    }
    if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(&inst); branch && branch->isConditional()) ++branches;
  }
  EXPECT_EQ(masked, 2);    // the run-time one on the partial path, the constant one
  EXPECT_EQ(plain, 1);     // the whole path
  EXPECT_EQ(branches, 1);
}

// Compiles `module`'s function `symbol` (void(ptr out, ptr in, i32 bits)) as emitObject does,
// which applies `rewrite` itself on hosts without AVX-512 (elsewhere it is applied here, so the
// rewritten code is checked all the same), and runs it with whole, empty and partial masks over
// an `out` filled with 0xDEADBEEF: element e must be in[e] where bit e is set, `masked` elsewhere.
void expectExactlyTheMaskedElements(std::unique_ptr<llvm::Module> module, const char* symbol,
                                    unsigned (*rewrite)(llvm::Module&), uint32_t masked) {
  if (hostCpu().avx512) {
    ASSERT_EQ(rewrite(*module), 1u);
  }
  std::vector<char> object;
  std::string error;
  ASSERT_TRUE(emitObject(*module, EngineOptions{}, &object, &error)) << error;
  auto code = loadObject(object, symbol, &error);
  ASSERT_TRUE(code) << error;
  auto* run = reinterpret_cast<void (*)(uint32_t*, const uint32_t*, uint32_t)>(code->symbol(symbol));
  ASSERT_NE(run, nullptr);
  const std::array<uint32_t, 8> in = {10, 11, 12, 13, 14, 15, 16, 17};
  for (const uint32_t bits : {0xFFu, 0x00u, 0x5Au, 0x80u, 0x7Fu, 0x01u}) {
    std::array<uint32_t, 8> out;
    out.fill(0xDEADBEEF);
    run(out.data(), in.data(), bits);
    for (uint32_t e = 0; e < 8; ++e)
      EXPECT_EQ(out[e], (bits >> e & 1) ? in[e] : masked) << "mask " << bits << " element " << e;
  }
}

TEST(WholeMaskStores, RewrittenStoresWriteExactlyTheMaskedElements) {
  llvm::LLVMContext context;
  auto module = std::make_unique<llvm::Module>("m", context);
  buildMaskedCopy(*module, /*constantStore=*/false);
  // Elements outside the mask are not written.
  expectExactlyTheMaskedElements(std::move(module), "masked_copy", storeWholeMasksPlainly, 0xDEADBEEF);
}

// void g(ptr out, ptr in, i32 bits): out = the 8 words at `in` loaded under the mask of the
// low 8 bits of `bits` (0 for the others), stored plainly; with `constantLoad`, a second
// masked load under a constant mask, added to it.
llvm::Function* buildMaskedLoad(llvm::Module& module, bool constantLoad) {
  llvm::LLVMContext& context = module.getContext();
  llvm::IRBuilder<> B(context);
  auto* v8 = llvm::FixedVectorType::get(B.getInt32Ty(), 8);
  auto* type = llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy(), B.getPtrTy(), B.getInt32Ty()}, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "masked_load", module);
  B.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
  llvm::Value* mask = B.CreateBitCast(B.CreateTrunc(fn->getArg(2), B.getInt8Ty()),
                                      llvm::FixedVectorType::get(B.getInt1Ty(), 8));
  llvm::Value* value = B.CreateMaskedLoad(v8, fn->getArg(1), llvm::Align(4), mask, llvm::Constant::getNullValue(v8));
  if (constantLoad) {
    std::vector<llvm::Constant*> half;
    for (int i = 0; i < 8; ++i) half.push_back(B.getInt1(i < 4));
    value = B.CreateAdd(value, B.CreateMaskedLoad(v8, fn->getArg(1), llvm::Align(4), llvm::ConstantVector::get(half),
                                                  llvm::Constant::getNullValue(v8)));
  }
  B.CreateAlignedStore(value, fn->getArg(0), llvm::Align(4));
  B.CreateRetVoid();
  return fn;
}

TEST(WholeMaskLoads, RunTimeMasksBranchToAPlainLoadAndConstantMasksStay) {
  llvm::LLVMContext context;
  llvm::Module module("m", context);
  llvm::Function* fn = buildMaskedLoad(module, /*constantLoad=*/true);
  EXPECT_EQ(loadWholeMasksPlainly(module), 1u);
  EXPECT_FALSE(llvm::verifyModule(module, &llvm::errs()));
  int masked = 0, plain = 0, branches = 0, joins = 0;
  for (llvm::Instruction& inst : llvm::instructions(*fn)) {
    if (auto* call = llvm::dyn_cast<llvm::IntrinsicInst>(&inst); call && call->getIntrinsicID() == llvm::Intrinsic::masked_load)
      ++masked;
    if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst)) {
      ++plain;
      EXPECT_EQ(load->getAlign(), llvm::Align(4));
    }
    if (auto* branch = llvm::dyn_cast<llvm::BranchInst>(&inst); branch && branch->isConditional()) ++branches;
    joins += llvm::isa<llvm::PHINode>(inst);
  }
  EXPECT_EQ(masked, 2);    // the run-time one on the partial path, the constant one
  EXPECT_EQ(plain, 1);     // the whole path
  EXPECT_EQ(branches, 1);
  EXPECT_EQ(joins, 1);     // the value the store reads comes from whichever path ran
}

TEST(WholeMaskLoads, RewrittenLoadsReadExactlyTheMaskedElements) {
  llvm::LLVMContext context;
  auto module = std::make_unique<llvm::Module>("m", context);
  buildMaskedLoad(*module, /*constantLoad=*/false);
  // Elements outside the mask read as the pass-through value, 0.
  expectExactlyTheMaskedElements(std::move(module), "masked_load", loadWholeMasksPlainly, 0u);
}

}  // namespace
}  // namespace tessera::jit
