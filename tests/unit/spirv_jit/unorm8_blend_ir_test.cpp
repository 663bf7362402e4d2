// spirv_jit/unorm8_blend.cpp's IR at every chunk width, whatever this host runs: the 16-bit
// blend is emitted with SSE4.1, AVX2 and AVX-512 BW intrinsics (chunks of 4, 8 and 16 lanes),
// and a host only executes its own (GraphicsStages.FragmentKernelBlendsUnorm8AsTheRuleSays checks
// those results bit for bit). Here every width's function must pass LLVM's verifier, which
// checks each intrinsic call against its declared types, and return W lanes.
#include <gtest/gtest.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>

#include "tessera/shader_abi.h"
#include "unorm8_blend.h"

namespace tessera::jit {
namespace {

TEST(Unorm8BlendIr, EveryChunkWidthVerifiesForEveryBatchWidth) {
  // ADD of SRC_ALPHA / ONE_MINUS_SRC_ALPHA; ONE + ONE (the sum's clamp); different colour and
  // alpha operations (SUBTRACT, MAX) with constant and saturate factors.
  const uint32_t plans[] = {abi::packBlend(6, 7, 0, 6, 7, 0), abi::packBlend(1, 1, 0, 1, 1, 0),
                            abi::packBlend(10, 14, 1, 12, 13, 4), abi::packBlend(2, 5, 2, 8, 9, 3)};
  int verified = 0;
  for (uint32_t w : {4u, 8u, 16u}) {
    for (uint32_t chunk : {4u, 8u, 16u}) {
      if (chunk > w) continue;
      llvm::LLVMContext context;
      llvm::Module module("m", context);
      llvm::IRBuilder<> B(context);
      llvm::Type* vf = llvm::FixedVectorType::get(B.getFloatTy(), w);
      llvm::Type* vi = llvm::FixedVectorType::get(B.getInt32Ty(), w);
      auto* type = llvm::FunctionType::get(vi, {vf, vf, vf, vf, vi, B.getInt1Ty(), B.getFloatTy(), B.getFloatTy(),
                                                B.getFloatTy(), B.getFloatTy()},
                                           false);
      for (uint32_t plan : plans) {
        auto* fn = llvm::Function::Create(type, llvm::Function::ExternalLinkage, "blend", module);
        B.SetInsertPoint(llvm::BasicBlock::Create(context, "entry", fn));
        llvm::Value* src[4] = {fn->getArg(0), fn->getArg(1), fn->getArg(2), fn->getArg(3)};
        llvm::Value* k[4] = {fn->getArg(6), fn->getArg(7), fn->getArg(8), fn->getArg(9)};
        llvm::Value* texels = emitUnorm8Blend(B, plan, src, fn->getArg(4), fn->getArg(5), k, chunk);
        ASSERT_EQ(texels->getType(), vi) << "W=" << w << " chunk " << chunk;
        B.CreateRet(texels);
        std::string problems;
        llvm::raw_string_ostream out(problems);
        EXPECT_FALSE(llvm::verifyFunction(*fn, &out)) << "W=" << w << " chunk " << chunk << ": " << problems;
        ++verified;
      }
    }
  }
  EXPECT_EQ(verified, 6 * 4);
}

}  // namespace
}  // namespace tessera::jit
