// cancel_polls.h on IR written here, through the JIT's optimizer pipeline (optimizeModule): the
// watchdog's poll leaves innermost loops that run at most kMaxUnpolledIterations times and
// call no function of the module, and stays everywhere else (a loop that may run long, an
// outer loop, a loop calling a defined function). Cancel.* (cancel_test.cpp) checks that a
// never-ending loop around a short one is still stopped.
#include <gtest/gtest.h>
#include <llvm/AsmParser/Parser.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/SourceMgr.h>

#include <string>

#include "cancel_polls.h"
#include "llvm_engine.h"

namespace tessera::jit {
namespace {

// A function @f(ptr %out, i32 %n) whose loop stores i to out[i] for i < `bound` (an IR operand:
// a constant or %n), polling @word at its back-edge as the translator does; `body` goes in
// the loop body.
std::string loopFunction(const std::string& bound, const std::string& body = "") {
  return R"(
@word = external global i32
define void @f(ptr %out, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %i, ptr %p
)" + body + R"(
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, )" + bound + R"(
  %w = load volatile i32, ptr @word, align 4, !tessera.cancel_poll !0
  %live = icmp eq i32 %w, 0
  %again = and i1 %more, %live
  br i1 %again, label %loop, label %exit
exit:
  ret void
}
!0 = !{}
)";
}

// Polls left after the JIT's optimizer pipeline (-1: the IR did not parse or the result does
// not verify).
int pollsAfterOptimizing(const std::string& ir) {
  llvm::LLVMContext context;
  llvm::SMDiagnostic diagnostic;
  std::unique_ptr<llvm::Module> module = llvm::parseAssemblyString(ir, diagnostic, context);
  if (!module) {
    ADD_FAILURE() << diagnostic.getMessage().str();
    return -1;
  }
  optimizeModule(*module);
  if (llvm::verifyModule(*module, &llvm::errs())) return -1;
  int polls = 0;
  for (llvm::Function& f : *module)
    for (llvm::Instruction& inst : llvm::instructions(f))
      if (auto* load = llvm::dyn_cast<llvm::LoadInst>(&inst); load && load->isVolatile()) ++polls;
  return polls;
}

TEST(CancelPolls, AShortLoopLosesItsPoll) {
  EXPECT_EQ(pollsAfterOptimizing(loopFunction("16")), 0);
  EXPECT_EQ(pollsAfterOptimizing(loopFunction("3")), 0);
}

TEST(CancelPolls, TheBoundIsKMaxUnpolledIterations) {
  const std::string most = std::to_string(kMaxUnpolledIterations);
  const std::string oneMore = std::to_string(kMaxUnpolledIterations + 1);
  EXPECT_EQ(pollsAfterOptimizing(loopFunction(most)), 0);
  EXPECT_GE(pollsAfterOptimizing(loopFunction(oneMore)), 1);
  EXPECT_GE(pollsAfterOptimizing(loopFunction("100000")), 1);
}

TEST(CancelPolls, ALoopOfUnknownLengthKeepsItsPoll) {
  EXPECT_GE(pollsAfterOptimizing(loopFunction("%n")), 1);
}

TEST(CancelPolls, ALoopCallingAFunctionOfTheModuleKeepsItsPoll) {
  // The callee's own short loops would have no poll: nested through calls, bounds multiply.
  const std::string callee = R"(
define void @g(ptr %q) noinline {
  store i32 1, ptr %q
  ret void
}
)";
  const std::string ir = loopFunction("16", "  call void @g(ptr %p)\n") + callee;
  EXPECT_GE(pollsAfterOptimizing(ir), 1);
  // A declaration (the runtime's helpers, intrinsics) does not count as such a call.
  const std::string declared = loopFunction("16", "  call void @h(ptr %p)\n") + "declare void @h(ptr)\n";
  EXPECT_EQ(pollsAfterOptimizing(declared), 0);
}

// Two nested loops, the inner one of `innerBound` rounds, the outer one of `outerBound`.
std::string nestedLoops(const std::string& outerBound, const std::string& innerBound) {
  return R"(
@word = external global i32
define void @f(ptr %out, i32 %n) {
entry:
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %nextJ, %outerLatch ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %next, %inner ]
  %k = add i32 %i, %j
  %p = getelementptr i32, ptr %out, i32 %k
  %v = load i32, ptr %p
  %v1 = mul i32 %v, 3
  store i32 %v1, ptr %p
  %next = add i32 %i, 1
  %more = icmp ult i32 %next, )" + innerBound + R"(
  %w = load volatile i32, ptr @word, align 4, !tessera.cancel_poll !0
  %live = icmp eq i32 %w, 0
  %again = and i1 %more, %live
  br i1 %again, label %inner, label %outerLatch
outerLatch:
  %nextJ = add i32 %j, 1
  %moreJ = icmp ult i32 %nextJ, )" + outerBound + R"(
  %w2 = load volatile i32, ptr @word, align 4, !tessera.cancel_poll !0
  %live2 = icmp eq i32 %w2, 0
  %again2 = and i1 %moreJ, %live2
  br i1 %again2, label %outer, label %exit
exit:
  ret void
}
!0 = !{}
)";
}

TEST(CancelPolls, AnOuterLoopKeepsItsPollAroundAShortOne) {
  // The outer loop of unknown length polls; the short inner one does not.
  EXPECT_EQ(pollsAfterOptimizing(nestedLoops("%n", "16")), 1);
  // Each loop short by itself, but 4096 x 4096 rounds together: the outer one polls.
  const std::string most = std::to_string(kMaxUnpolledIterations);
  EXPECT_EQ(pollsAfterOptimizing(nestedLoops(most, most)), 1);
}

}  // namespace
}  // namespace tessera::jit
