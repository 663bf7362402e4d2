// The watchdog's polls in loops (BoundResources::cancel): the translator reads the cancel word
// at every loop's back-edge, so that a shader that never ends can be stopped. A poll is a
// volatile load and an extra exit, and both keep LLVM from unrolling the loop and from keeping
// its values in registers across the exit (measured: the bench's SGEMM, whose inner loop runs
// 16 rounds, took 1.4-1.5x the time with its poll, on 1 and 2 threads).
//
// A loop that cannot run long needs no poll of its own: the loop around it, or the dispatch,
// still polls. The pass (cancel_polls.cpp) runs twice in the optimizer's pipeline: as a function
// pass at the peephole extension point, before the loop passes rotate and unswitch loops around
// the poll, and as a loop pass just before full unrolling. It removes the poll of an innermost
// loop that scalar evolution proves runs at most kMaxUnpolledIterations times and that calls no
// function defined in the module (a called function's own bounded loops have no poll either,
// so nesting through calls could multiply the bounds). What such a loop runs between two polls
// is then bounded by kMaxUnpolledIterations times its straight-line body. A loop whose inner
// loops were fully unrolled becomes innermost when the loop pass visits it (inner loops
// first), and its body is the unrolled code, itself bounded by the unroller's size limit.
// Before the early pass looks at a function with polls, it runs jump threading, value
// propagation and instcombine on it (cancel_polls.cpp says why: loops after a barrier).
#pragma once

#include <cstdint>

namespace llvm {
class LoadInst;
class PassBuilder;
}  // namespace llvm

namespace tessera::jit {

// More iterations than this keep the poll.
constexpr uint64_t kMaxUnpolledIterations = 4096;

// Marks `load` (the volatile load of the cancel word at a loop's back-edge) as a poll the pass
// may remove.
void markCancelPoll(llvm::LoadInst* load);

// Adds the pass to the pipeline `pb` builds, at both points (header comment).
void registerCancelPollPass(llvm::PassBuilder& pb);

}  // namespace tessera::jit
