// Inline exp, exp2, sin and cos for 32-bit floats (inline_math.h says why and how precise).
// The reductions and polynomials are the classic single-precision ones: Cody-Waite reduction
// by ln 2 or pi in three parts, then minimax polynomials on the reduced range (exp and exp2:
// Moshier's Cephes coefficients; sin: the degree-9 odd polynomial SLEEF's 3.5-ULP sinf uses on
// [-pi/2, pi/2]). Every step is an explicit multiply-add: no fast-math flag reaches this code,
// so the rounding is the same for every lane and every W.
#include "inline_math.h"

#include <cmath>
#include <initializer_list>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

namespace tessera::jit {
namespace {

struct MathEmitter {
  llvm::IRBuilderBase& B;
  llvm::Type* floatType;  // float or <N x float>
  llvm::Type* intType;    // i32 or <N x i32>

  MathEmitter(llvm::IRBuilderBase& builder, llvm::Value* x) : B(builder), floatType(x->getType()) {
    intType = B.getInt32Ty();
    if (auto* v = llvm::dyn_cast<llvm::VectorType>(floatType)) intType = llvm::VectorType::get(intType, v->getElementCount());
  }

  llvm::Value* f(double v) { return llvm::ConstantFP::get(floatType, v); }
  llvm::Value* i(int32_t v) { return llvm::ConstantInt::get(intType, uint64_t(int64_t(v)), true); }
  // a * b + c, fused where the target fuses (the same choice for every lane of one compile).
  llvm::Value* mulAdd(llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return B.CreateIntrinsic(llvm::Intrinsic::fmuladd, {floatType}, {a, b, c});
  }
  llvm::Value* roundEven(llvm::Value* x) { return B.CreateIntrinsic(llvm::Intrinsic::roundeven, {floatType}, {x}); }
  // Horner's rule, highest coefficient first.
  llvm::Value* polynomial(llvm::Value* x, std::initializer_list<double> coefficients) {
    llvm::Value* acc = nullptr;
    for (double c : coefficients) acc = acc ? mulAdd(acc, x, f(c)) : f(c);
    return acc;
  }
  // x if lo <= x <= hi, else the bound it passes; NaN stays NaN (ordered comparisons fail).
  llvm::Value* clamp(llvm::Value* x, double lo, double hi) {
    x = B.CreateSelect(B.CreateFCmpOGT(x, f(hi)), f(hi), x);
    return B.CreateSelect(B.CreateFCmpOLT(x, f(lo)), f(lo), x);
  }
  llvm::Value* isNan(llvm::Value* x) { return B.CreateFCmpUNO(x, x); }
  // p * 2^n for n in [-252, 254]: two factors 2^(n/2) and 2^(n - n/2), each a normal float, so
  // that results near the overflow and underflow limits round once, as a multiplication would.
  llvm::Value* scaleByPowerOfTwo(llvm::Value* p, llvm::Value* n) {
    llvm::Value* half = B.CreateAShr(n, i(1));
    auto powerOfTwo = [&](llvm::Value* e) { return B.CreateBitCast(B.CreateShl(B.CreateAdd(e, i(127)), i(23)), floatType); };
    return B.CreateFMul(B.CreateFMul(p, powerOfTwo(half)), powerOfTwo(B.CreateSub(n, half)));
  }
  // An integral float as i32 when |q| < 2^24, else 0: a float that large is even, and fptosi of
  // an out-of-range value would be poison.
  llvm::Value* smallIntegerOf(llvm::Value* q) {
    llvm::Value* small = B.CreateFCmpOLT(B.CreateIntrinsic(llvm::Intrinsic::fabs, {floatType}, {q}), f(16777216.0));
    return B.CreateFPToSI(B.CreateSelect(small, q, f(0.0)), intType);
  }
  // sin(r) for r in about [-pi/2, pi/2].
  llvm::Value* sinReduced(llvm::Value* r) {
    llvm::Value* s = B.CreateFMul(r, r);
    llvm::Value* u = polynomial(s, {2.6083159809786593541503e-06, -0.0001981069071916863322258, 0.00833307858556509017944336,
                                    -0.166666597127914428710938});
    return mulAdd(s, B.CreateFMul(u, r), r);
  }
  // x - m * pi in three parts (Cephes' DP1..DP3 times 4: the first two exact in a few bits).
  llvm::Value* reduceByPi(llvm::Value* x, llvm::Value* m) {
    llvm::Value* r = mulAdd(m, f(-3.140625), x);
    r = mulAdd(m, f(-9.67502593994140625e-4), r);
    return mulAdd(m, f(-1.509957990978376432e-7), r);
  }
  // Negates v where `negate` (an i1 per lane) holds, by its sign bit, and keeps the result in
  // [-1, 1] (the polynomial can pass 1 by an ulp near +-pi/2; outside [-pi, pi], where the
  // reduction loses accuracy, it keeps sin and cos bounded).
  llvm::Value* signedUnit(llvm::Value* v, llvm::Value* negate) {
    llvm::Value* bits = B.CreateBitCast(v, intType);
    bits = B.CreateXor(bits, B.CreateSelect(negate, i(int32_t(0x80000000u)), i(0)));
    return clamp(B.CreateBitCast(bits, floatType), -1.0, 1.0);
  }
};

}  // namespace

llvm::Value* emitExpF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  MathEmitter m(B, x);
  // exp(89) and exp(-104) are past the float range (inf, 0): the clamp keeps n in range. NaN
  // lanes compute with 0 (no poison from fptosi) and return x.
  llvm::Value* xc = B.CreateSelect(m.isNan(x), m.f(0.0), m.clamp(x, -104.0, 89.0));
  llvm::Value* n = m.roundEven(B.CreateFMul(xc, m.f(1.44269504088896341)));
  llvm::Value* r = m.mulAdd(n, m.f(-0.693359375), xc);  // ln 2 in two parts
  r = m.mulAdd(n, m.f(2.12194440e-4), r);
  // e^r on [-ln2/2, ln2/2]: 1 + r + r^2 P(r).
  llvm::Value* p = m.polynomial(r, {1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1,
                                    5.0000001201e-1});
  p = B.CreateFAdd(m.mulAdd(p, B.CreateFMul(r, r), r), m.f(1.0));
  llvm::Value* result = m.scaleByPowerOfTwo(p, B.CreateFPToSI(n, m.intType));
  return B.CreateSelect(m.isNan(x), x, result);
}

llvm::Value* emitExp2F32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  MathEmitter m(B, x);
  llvm::Value* xc = B.CreateSelect(m.isNan(x), m.f(0.0), m.clamp(x, -151.0, 129.0));
  llvm::Value* n = m.roundEven(xc);
  llvm::Value* r = B.CreateFSub(xc, n);  // exact, in [-0.5, 0.5]
  // 2^r = 1 + r P(r).
  llvm::Value* p = m.polynomial(r, {1.535336188319500e-4, 1.339887440266574e-3, 9.618437357674640e-3, 5.550332471162809e-2,
                                    2.402264791363012e-1, 6.931472028550421e-1});
  p = m.mulAdd(r, p, m.f(1.0));
  llvm::Value* result = m.scaleByPowerOfTwo(p, B.CreateFPToSI(n, m.intType));
  return B.CreateSelect(m.isNan(x), x, result);
}

llvm::Value* emitSinF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  MathEmitter m(B, x);
  // x = q pi + r, r in [-pi/2, pi/2]: sin x = (-1)^q sin r. Infinities give inf - inf = NaN.
  llvm::Value* q = m.roundEven(B.CreateFMul(x, m.f(0.318309886183790671538)));
  llvm::Value* s = m.sinReduced(m.reduceByPi(x, q));
  llvm::Value* odd = B.CreateICmpNE(B.CreateAnd(m.smallIntegerOf(q), m.i(1)), m.i(0));
  llvm::Value* result = m.signedUnit(s, odd);
  // sin(+-0) = +-0 exactly (the reduction may lose the sign of a zero).
  return B.CreateSelect(B.CreateFCmpOEQ(x, m.f(0.0)), x, result);
}

llvm::Value* emitCosF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  MathEmitter m(B, x);
  // x = (k + 1/2) pi + r, r in [-pi/2, pi/2]: cos x = -sin(r + k pi) = (-1)^(k+1) sin r.
  llvm::Value* k = m.roundEven(m.mulAdd(x, m.f(0.318309886183790671538), m.f(-0.5)));
  llvm::Value* s = m.sinReduced(m.reduceByPi(x, B.CreateFAdd(k, m.f(0.5))));
  llvm::Value* even = B.CreateICmpEQ(B.CreateAnd(m.smallIntegerOf(k), m.i(1)), m.i(0));
  return m.signedUnit(s, even);
}

llvm::Value* emitSinhF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  llvm::Value* half = llvm::ConstantFP::get(x->getType(), 0.5);
  return B.CreateFMul(B.CreateFSub(emitExpF32(B, x), emitExpF32(B, B.CreateFNeg(x))), half);
}

llvm::Value* emitCoshF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  llvm::Value* half = llvm::ConstantFP::get(x->getType(), 0.5);
  return B.CreateFMul(B.CreateFAdd(emitExpF32(B, x), emitExpF32(B, B.CreateFNeg(x))), half);
}

}  // namespace tessera::jit

namespace tessera::jit {

llvm::Value* emitInverseSqrtF32(llvm::IRBuilderBase& B, llvm::Value* x) {
  llvm::IRBuilderBase::FastMathFlagGuard guard(B);
  B.clearFastMathFlags();
  MathEmitter m(B, x);
  // The estimate: VRSQRT14 (relative error below 2^-14) on a scalar or a 4-, 8- or 16-lane vector.
  llvm::Module* module = B.GetInsertBlock()->getModule();
  llvm::Type* f32 = B.getFloatTy();
  auto* v4 = llvm::FixedVectorType::get(f32, 4);
  llvm::Value* estimate = nullptr;
  if (!x->getType()->isVectorTy()) {
    llvm::Value* lane = B.CreateInsertElement(llvm::PoisonValue::get(v4), x, uint64_t(0));
    llvm::Function* ss = llvm::Intrinsic::getDeclaration(module, llvm::Intrinsic::x86_avx512_rsqrt14_ss);
    estimate = B.CreateExtractElement(B.CreateCall(ss, {lane, lane, llvm::Constant::getNullValue(v4), B.getInt8(0xFF)}), uint64_t(0));
  } else {
    const unsigned lanes = llvm::cast<llvm::FixedVectorType>(x->getType())->getNumElements();
    const llvm::Intrinsic::ID id = lanes == 4    ? llvm::Intrinsic::x86_avx512_rsqrt14_ps_128
                                   : lanes == 8  ? llvm::Intrinsic::x86_avx512_rsqrt14_ps_256
                                                 : llvm::Intrinsic::x86_avx512_rsqrt14_ps_512;
    llvm::Value* mask = lanes == 16 ? static_cast<llvm::Value*>(B.getInt16(0xFFFF)) : B.getInt8(0xFF);
    estimate = B.CreateCall(llvm::Intrinsic::getDeclaration(module, id), {x, llvm::Constant::getNullValue(x->getType()), mask});
  }
  // One Newton step, y += y (1/2 - (x y / 2) y), fused: the error of the estimate squared
  // (below 2^-27) and the roundings of the correction and the sum.
  llvm::Value* halfXy = B.CreateFMul(m.f(0.5), B.CreateFMul(x, estimate));
  llvm::Value* correction = B.CreateIntrinsic(llvm::Intrinsic::fma, {m.floatType}, {B.CreateFNeg(halfXy), estimate, m.f(0.5)});
  llvm::Value* y = B.CreateIntrinsic(llvm::Intrinsic::fma, {m.floatType}, {estimate, correction, estimate});
  // IEEE 1 / sqrt(x) where the step gives NaN: +-0 -> +-inf, +inf -> 0 (negatives and NaN are
  // NaN already).
  llvm::Value* infinity = m.f(HUGE_VAL);
  y = B.CreateSelect(B.CreateFCmpOEQ(x, m.f(0.0)), B.CreateIntrinsic(llvm::Intrinsic::copysign, {m.floatType}, {infinity, x}), y);
  return B.CreateSelect(B.CreateFCmpOEQ(x, infinity), m.f(0.0), y);
}

}  // namespace tessera::jit
