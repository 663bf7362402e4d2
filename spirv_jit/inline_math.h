// 32-bit float exp, exp2, sin and cos as straight-line IR in the shader itself, for scalars and
// for vectors of any width (each lane computed by the same operations, so a value does not
// depend on W or on whether it is uniform).
//
// Why not libmvec (vector_math.h), which the other transcendental functions call: a call
// clobbers every vector register (the x86-64 vector function ABI saves none), so a loop that
// calls sin() spills and reloads all its live vectors around each call; callgrind counted ~190
// instructions per iteration of alu_fs's 16-FMA loop, against ~40 for the arithmetic itself.
// lavapipe inlines these functions too.
//
// Precision ("Precision and Operation of SPIR-V Instructions", Vulkan 1.3 appendix A): exp and
// exp2 within (3 + 2|x|) ULP (these are within ~2 ULP: Cody-Waite reduction and a degree-6
// polynomial), sin and cos within 2^-11 absolute in [-pi, pi] (these are within a few ULP there);
// outside that range sin and cos stay in [-1, 1]. NaN in, NaN out; exp(+inf) = +inf,
// exp(-inf) = 0; results that underflow go to denormals or 0 as float multiplication does.
#pragma once

#include <llvm/IR/IRBuilder.h>

namespace tessera::jit {

llvm::Value* emitExpF32(llvm::IRBuilderBase& B, llvm::Value* x);
llvm::Value* emitExp2F32(llvm::IRBuilderBase& B, llvm::Value* x);
llvm::Value* emitSinF32(llvm::IRBuilderBase& B, llvm::Value* x);
llvm::Value* emitCosF32(llvm::IRBuilderBase& B, llvm::Value* x);
// sinh and cosh as the spec defines their precision: inherited from (e^x -+ e^-x) / 2 with the
// exp above, so they overflow to inf where e^x does (the CTS derives its accepted range from
// that formula and wants inf for sinh(89.4), whose true value is just below FLT_MAX).
llvm::Value* emitSinhF32(llvm::IRBuilderBase& B, llvm::Value* x);
llvm::Value* emitCoshF32(llvm::IRBuilderBase& B, llvm::Value* x);

}  // namespace tessera::jit
