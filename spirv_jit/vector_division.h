// Lane-vector integer division after the optimizer: x86 has no vector integer division, so
// LLVM's code generator divides a <W x i32> by a divisor that is not a constant one lane at a
// time (a scalar div of ~10-20 cycles each). divideVectorsInDouble rewrites each such
// division and remainder into double arithmetic: both operands convert exactly, and the
// truncated, correctly rounded double quotient is the exact integer quotient (the quotient's
// fraction is at least 1/d from the next integer, more than half an ulp of a quotient below
// 2^32). It runs after the optimization pipeline, so that divisors that only became constants
// there (specialization constants, guarded divisors, values folded through vectors) keep the
// code generator's multiply-by-reciprocal sequences.
#pragma once

namespace llvm {
class Module;
}

namespace tessera::jit {

// Returns how many instructions were rewritten.
unsigned divideVectorsInDouble(llvm::Module& module);

}  // namespace tessera::jit
