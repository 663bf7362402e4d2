// 32-bit float exp, exp2, sin, cos (and, on AVX-512 hosts, inversesqrt) as straight-line IR in the shader itself, for scalars and
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
// inversesqrt on an AVX-512 host (the caller checks; x a float or a 4-, 8- or 16-lane vector):
// the VRSQRT14 estimate and one Newton step with fused multiply-adds, instead of a square root
// and a division (both on the divider: the bench's n-body loop waited for them). The spec
// allows 2 ULP; checked against 1 / sqrt in double on every positive float (denormals too) on
// an Intel host, the largest error is 1.04 ULP, and the bound holds for any estimate within
// the instruction's documented 2^-14. +-0, +inf, negatives and NaN give IEEE 1 / sqrt(x)'s
// result. (Without the estimate, three Newton steps from a guess from the bits measured
// slower than the divider on n-body.)
llvm::Value* emitInverseSqrtF32(llvm::IRBuilderBase& B, llvm::Value* x);

}  // namespace tessera::jit
