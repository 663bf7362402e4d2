// Removes the watchdog's poll from short innermost loops (cancel_polls.h says when and why).
#include "cancel_polls.h"

#include <llvm/Analysis/InstructionSimplify.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/InstrTypes.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/JumpThreading.h>
#include <llvm/Transforms/Scalar/CorrelatedValuePropagation.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>

namespace tessera::jit {

namespace {

constexpr const char* kPollMetadata = "tessera.cancel_poll";

bool isPoll(const llvm::Instruction& inst) {
  const auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst);
  return load && load->isVolatile() && load->getMetadata(kPollMetadata);
}

// Whether the loop calls only declarations (intrinsics, the runtime's helpers: none of them
// loops for long), not a function of the module or an unknown callee.
bool callsOnlyDeclarations(const llvm::Loop& loop) {
  for (const llvm::BasicBlock* block : loop.blocks())
    for (const llvm::Instruction& inst : *block)
      if (const auto* call = llvm::dyn_cast<llvm::CallBase>(&inst)) {
        const llvm::Function* callee = call->getCalledFunction();
        if (!callee || !callee->isDeclaration()) return false;
      }
  return true;
}

// Removes the polls of `loop` when it is innermost, runs at most kMaxUnpolledIterations times
// and calls only declarations; true when it removed one.
bool dropPollsOf(llvm::Loop& loop, llvm::ScalarEvolution& se) {
  if (!loop.isInnermost()) return false;
  llvm::SmallVector<llvm::LoadInst*, 2> polls;
  for (llvm::BasicBlock* block : loop.blocks())
    for (llvm::Instruction& inst : *block)
      if (isPoll(inst)) polls.push_back(llvm::cast<llvm::LoadInst>(&inst));
  if (polls.empty()) return false;
  // The poll's own exit leaves the bound alone: scalar evolution takes the smallest bound of
  // the exits it can count.
  const auto* bound = llvm::dyn_cast<llvm::SCEVConstant>(se.getConstantMaxBackedgeTakenCount(&loop));
  if (!bound || !bound->getAPInt().ult(kMaxUnpolledIterations) || !callsOnlyDeclarations(loop)) return false;
  se.forgetLoop(&loop);
  for (llvm::LoadInst* poll : polls) {
    // The word reads as 0 (not cancelled): the exit test folds away, and the loop's own
    // condition is left for the unroller to count.
    llvm::replaceAndRecursivelySimplify(poll, llvm::ConstantInt::get(poll->getType(), 0));
    poll->eraseFromParent();
  }
  return true;
}

// Early, before the loop passes rotate and unswitch the loops (a poll still there shapes them:
// measured on the bench's SGEMM, removing it only just before unrolling left the loop peeled
// and not unrolled, 1.3x slower than without the poll from the start).
// A function with a poll in an innermost loop is first cleaned up by jump threading, value
// propagation and instcombine: the translator's flag-driven lowering of structured control
// flow (translator.cpp, blockReached) leaves a loop entered from a block that may be skipped
// with its counter and exit behind selects on the header's "reached" flag, which scalar
// evolution cannot count, and only jump threading sees that the flag is true on the back-edge.
// (Found on the bench's SGEMM after a barrier: its 16-round inner loop kept the poll, its
// values went to the coroutine frame every round, 2x slower.) Functions without such a loop
// skip the cleanup (the textured fragment kernel's compile stayed 8% cheaper).
constexpr const char* kPollCleanupDone = "tessera-poll-cleanup-done";

struct DropBoundedLoopPollsEarly : llvm::PassInfoMixin<DropBoundedLoopPollsEarly> {
  static bool hasPolls(const llvm::Function& f) {
    for (const llvm::BasicBlock& block : f)
      for (const llvm::Instruction& inst : block)
        if (isPoll(inst)) return true;
    return false;
  }
  llvm::PreservedAnalyses run(llvm::Function& f, llvm::FunctionAnalysisManager& fam) {
    // The peephole extension point comes after every instcombine of the pipeline, several
    // times per function: the first, before the loop passes, is the one this pass is for (see
    // above). Polls of outer loops or of loops without a small bound stay, and running the
    // cleanup again at each later point was a tenth of a cold compute pipeline's compile
    // (callgrind, bench pipeline_create_cold); the late loop pass still takes what unrolling
    // makes innermost.
    if (f.hasFnAttribute(kPollCleanupDone) || !hasPolls(f)) return llvm::PreservedAnalyses::all();
    f.addFnAttr(kPollCleanupDone);
    llvm::FunctionPassManager cleanup;
    cleanup.addPass(llvm::JumpThreadingPass());
    cleanup.addPass(llvm::CorrelatedValuePropagationPass());
    cleanup.addPass(llvm::InstCombinePass());
    llvm::PreservedAnalyses kept = cleanup.run(f, fam);  // invalidates what each pass changed
    auto& loops = fam.getResult<llvm::LoopAnalysis>(f);
    auto& se = fam.getResult<llvm::ScalarEvolutionAnalysis>(f);
    bool dropped = false;
    for (llvm::Loop* loop : loops.getLoopsInPreorder()) dropped |= dropPollsOf(*loop, se);
    if (!dropped) return kept;
    kept.intersect([] {
      llvm::PreservedAnalyses cfg;
      cfg.preserveSet<llvm::CFGAnalyses>();
      return cfg;
    }());
    return kept;
  }
};

// In the loop pipeline, before full unrolling: a loop whose inner loops were unrolled away is
// innermost now.
struct DropBoundedLoopPolls : llvm::PassInfoMixin<DropBoundedLoopPolls> {
  llvm::PreservedAnalyses run(llvm::Loop& loop, llvm::LoopAnalysisManager&, llvm::LoopStandardAnalysisResults& ar,
                              llvm::LPMUpdater&) {
    if (!dropPollsOf(loop, ar.SE)) return llvm::PreservedAnalyses::all();
    return llvm::getLoopPassPreservedAnalyses();
  }
};

}  // namespace

void markCancelPoll(llvm::LoadInst* load) {
  load->setMetadata(kPollMetadata, llvm::MDNode::get(load->getContext(), {}));
}

void registerCancelPollPass(llvm::PassBuilder& pb) {
  pb.registerPeepholeEPCallback(
      [](llvm::FunctionPassManager& fpm, llvm::OptimizationLevel) { fpm.addPass(DropBoundedLoopPollsEarly()); });
  pb.registerLateLoopOptimizationsEPCallback(
      [](llvm::LoopPassManager& lpm, llvm::OptimizationLevel) { lpm.addPass(DropBoundedLoopPolls()); });
}

}  // namespace tessera::jit
