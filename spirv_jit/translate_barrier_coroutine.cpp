// Workgroup barriers of compute kernels as coroutine suspend points.
//
// A workgroup's batches run one after the other on one thread, and every batch must reach a
// barrier before any passes it. The general way is a fiber per batch that switches at the
// barrier (compute_dispatch.cpp), which costs a context switch plus every live vector register
// spilled and reloaded, per batch and barrier: in a shared-memory tree reduction more than the
// arithmetic. When every barrier is in the entry function (SPIRV-Tools inlines calls), the
// kernel is an LLVM switched-resume coroutine instead: a barrier is `llvm.coro.suspend`, and
// LLVM's coroutine passes split the kernel at those points, keeping only the values live
// across a barrier in a frame. The runtime (compute_dispatch.cpp) calls the ramp function
// once per batch, which runs to the first barrier and returns the frame, then resumes each
// unfinished batch in turn until every frame stands at its final suspend point.
//
// The frame's memory comes from the runtime (tessera_rt_coroutine_frame: per worker thread and
// batch, reused across workgroups) and is never freed by the kernel; the switched-resume ABI
// keeps the resume function's address at the start of the frame and clears it at the final
// suspend point, which is how the runtime resumes a batch and sees it finished.
#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include "translator.h"

namespace tessera::jit {

bool Translator::barriersOnlyInEntry(const Module& module, uint32_t entryFunction) {
  bool entryHasBarrier = false;
  for (const Function& f : module.functions())
    for (const Block& blk : f.blocks)
      for (const Instruction& i : blk.body) {
        if (i.op != spv::Op::OpControlBarrier) continue;
        if (f.id != entryFunction) return false;
        entryHasBarrier = true;
      }
  return entryHasBarrier;
}

// In the entry function's first block, after the environment: the frame and the handle, and
// the blocks that suspend points branch to.
void Translator::beginCoroutine() {
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  fn->addFnAttr(llvm::Attribute::PresplitCoroutine);
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Value* null = llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy));
  // 64-byte frames: W-lane vectors live there.
  coroId_ = B.CreateIntrinsic(llvm::Intrinsic::coro_id, {}, {B.getInt32(64), null, null, null});
  llvm::Value* size = B.CreateIntrinsic(llvm::Intrinsic::coro_size, {B.getInt64Ty()}, {});
  auto frameFn = runtime("tessera_rt_coroutine_frame",
                         llvm::FunctionType::get(ptrTy, {ptrTy, B.getInt64Ty(), B.getInt32Ty()}, false));
  llvm::Value* memory = B.CreateCall(frameFn, {workgroupState(), size, batch_});
  coroHandle_ = B.CreateIntrinsic(llvm::Intrinsic::coro_begin, {}, {coroId_, memory});

  llvm::IRBuilderBase::InsertPointGuard guard(B);
  coroSuspend_ = llvm::BasicBlock::Create(context_, "coro.suspend", fn);
  coroCleanup_ = llvm::BasicBlock::Create(context_, "coro.cleanup", fn);
  B.SetInsertPoint(coroCleanup_);
  B.CreateIntrinsic(llvm::Intrinsic::coro_free, {}, {coroId_, coroHandle_});  // the runtime owns the memory
  B.CreateBr(coroSuspend_);
  B.SetInsertPoint(coroSuspend_);
  B.CreateIntrinsic(llvm::Intrinsic::coro_end, {}, {coroHandle_, B.getFalse(), llvm::ConstantTokenNone::get(context_)});
  B.CreateRet(coroHandle_);
}

// A barrier: suspend; the runtime resumes this batch after every other batch got here.
void Translator::suspendAtBarrier() {
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  llvm::Value* s = B.CreateIntrinsic(llvm::Intrinsic::coro_suspend, {},
                                     {llvm::ConstantTokenNone::get(context_), B.getFalse()});
  auto* resumed = llvm::BasicBlock::Create(context_, "barrier.passed", fn);
  llvm::SwitchInst* sw = B.CreateSwitch(s, coroSuspend_, 2);
  sw->addCase(B.getInt8(0), resumed);
  sw->addCase(B.getInt8(1), coroCleanup_);
  B.SetInsertPoint(resumed);
}

// The end of the entry function: the final suspend point (never resumed).
void Translator::finishCoroutine() {
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  llvm::Value* s = B.CreateIntrinsic(llvm::Intrinsic::coro_suspend, {},
                                     {llvm::ConstantTokenNone::get(context_), B.getTrue()});
  auto* never = llvm::BasicBlock::Create(context_, "coro.resumed.after.end", fn);
  llvm::SwitchInst* sw = B.CreateSwitch(s, coroSuspend_, 2);
  sw->addCase(B.getInt8(0), never);
  sw->addCase(B.getInt8(1), coroCleanup_);
  B.SetInsertPoint(never);
  B.CreateUnreachable();
}

}  // namespace tessera::jit
