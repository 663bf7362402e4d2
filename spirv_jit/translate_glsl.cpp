// GLSL.std.450 extended instructions. Basic operations map to LLVM intrinsics; 32-bit exp, exp2,
// sin, cos, sinh and cosh are inline IR (inline_math.h: a call would spill every live vector); the other
// transcendental functions call libmvec's vector variants, or the C library per lane.
#include <cmath>

#include <spirv/unified1/GLSL.std.450.h>

#include <llvm/IR/Intrinsics.h>

#include "inline_math.h"
#include "tessera/cpu_info.h"
#include "translator.h"
#include "vector_math.h"

namespace tessera::jit {

namespace {

struct Glsl {
  Translator& t;
  const Instruction& inst;
  llvm::IRBuilder<>& B;

  llvm::Value* fconst(llvm::Value* like, double v) { return llvm::ConstantFP::get(like->getType(), v); }

  llvm::Value* intrinsic(llvm::Intrinsic::ID id, std::vector<llvm::Value*> args) {
    if (args.size() > 1) {
      bool vec = false;
      for (auto* a : args) vec |= a->getType()->isVectorTy();
      if (vec)
        for (auto*& a : args) a = t.splat(a);
    }
    return B.CreateIntrinsic(id, {args[0]->getType()}, args);
  }

  // Calls a C library function (float or double flavour) once per lane. Half values go
  // through float.
  llvm::Value* libm(const char* floatName, const char* doubleName, std::vector<llvm::Value*> args) {
    bool vec = false;
    for (auto* a : args) vec |= a->getType()->isVectorTy();
    if (vec)
      for (auto*& a : args) a = t.splat(a);
    llvm::Type* orig = args[0]->getType();
    llvm::Type* elem = orig->getScalarType();
    bool isHalf = elem->isHalfTy();
    llvm::Type* ct = isHalf ? B.getFloatTy() : elem;
    if (isHalf)
      for (auto*& a : args) a = B.CreateFPExt(a, vec ? t.laneType(B.getFloatTy()) : static_cast<llvm::Type*>(B.getFloatTy()));
    std::vector<llvm::Type*> params(args.size(), ct);
    auto callee = t.llvmModule().getOrInsertFunction(ct->isDoubleTy() ? doubleName : floatName,
                                                    llvm::FunctionType::get(ct, params, false));
    llvm::Value* result;
    // Through libmvec whenever it has the function (vector_math.h): always its widest variant
    // for this CPU, whatever W and for uniform values too, so that results do not depend on W
    // (narrower and wider variants round differently) and one shader uses one sin().
    const VectorMathFunction vm = ct->isFloatTy() ? vectorMathFunction(floatName) : VectorMathFunction{};
    if (vm.lanes) {
      const uint32_t lanes = vm.lanes;
      auto* pieceType = llvm::FixedVectorType::get(ct, lanes);
      std::vector<llvm::Type*> pieceParams(args.size(), pieceType);
      auto vcallee = t.llvmModule().getOrInsertFunction(vm.symbol, llvm::FunctionType::get(pieceType, pieceParams, false));
      const uint32_t width = vec ? t.width() : 1;
      // Lanes [first, first + lanes) of each argument; lanes past the value repeat its lane 0.
      auto piece = [&](llvm::Value* a, uint32_t first) -> llvm::Value* {
        if (!vec) return B.CreateVectorSplat(lanes, a);
        if (width == lanes) return a;
        llvm::SmallVector<int, 16> take;
        for (uint32_t l = 0; l < lanes; ++l) take.push_back(first + l < width ? int(first + l) : 0);
        return B.CreateShuffleVector(a, take);
      };
      std::vector<llvm::Value*> pieces;
      for (uint32_t first = 0; first < width; first += lanes) {
        std::vector<llvm::Value*> pa;
        for (auto* a : args) pa.push_back(piece(a, first));
        pieces.push_back(B.CreateCall(vcallee, pa));
      }
      if (!vec) {
        result = B.CreateExtractElement(pieces[0], uint64_t(0));
      } else if (width < lanes) {
        llvm::SmallVector<int, 16> keep;
        for (uint32_t l = 0; l < width; ++l) keep.push_back(int(l));
        result = B.CreateShuffleVector(pieces[0], keep);
      } else {
        // Concatenate the pieces back into W lanes.
        while (pieces.size() > 1) {
          std::vector<llvm::Value*> joined;
          for (size_t i = 0; i + 1 < pieces.size(); i += 2) {
            const uint32_t n = llvm::cast<llvm::FixedVectorType>(pieces[i]->getType())->getNumElements();
            llvm::SmallVector<int, 32> both;
            for (uint32_t l = 0; l < 2 * n; ++l) both.push_back(int(l));
            joined.push_back(B.CreateShuffleVector(pieces[i], pieces[i + 1], both));
          }
          pieces = std::move(joined);
        }
        result = pieces[0];
      }
    } else if (!vec) {
      result = B.CreateCall(callee, args);
    } else {
      result = llvm::UndefValue::get(t.laneType(ct));
      for (uint32_t l = 0; l < t.width(); ++l) {
        std::vector<llvm::Value*> la;
        for (auto* a : args) la.push_back(B.CreateExtractElement(a, uint64_t(l)));
        result = B.CreateInsertElement(result, B.CreateCall(callee, la), uint64_t(l));
      }
    }
    if (isHalf) result = B.CreateFPTrunc(result, orig);
    return result;
  }

  template <typename F>
  void componentWise(uint32_t firstArg, uint32_t argCount, F fn) {
    std::vector<Val> ops;
    for (uint32_t i = 0; i < argCount; ++i) ops.push_back(t.value(inst.operand(firstArg + i)));
    size_t n = 0;
    for (auto& o : ops) n = std::max(n, o.leaves.size());
    Val out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<llvm::Value*> a;
      bool vec = false;
      for (auto& o : ops) {
        llvm::Value* v = o.leaves.size() == 1 ? o.leaves[0] : o.leaves[i];
        vec |= v->getType()->isVectorTy();
        a.push_back(v);
      }
      if (vec)
        for (auto*& v : a) v = t.splat(v);
      out.leaves.push_back(fn(a));
    }
    t.define(inst.result, out);
  }

  llvm::Value* dot(const Val& x, const Val& y) {
    llvm::Value* acc = nullptr;
    for (size_t i = 0; i < x.leaves.size(); ++i) {
      llvm::Value* a = x.leaves[i], *c = y.leaves[i];
      t.unify(a, c);
      llvm::Value* p = B.CreateFMul(a, c);
      if (acc) {
        t.unify(acc, p);
        acc = B.CreateFAdd(acc, p);
      } else {
        acc = p;
      }
    }
    return acc;
  }

  llvm::Value* packNorm(const Val& v, bool isSigned, unsigned bits) {
    llvm::Value* acc = nullptr;
    double scale = isSigned ? double((1u << (bits - 1)) - 1) : double((1u << bits) - 1);
    for (size_t i = 0; i < v.leaves.size(); ++i) {
      llvm::Value* x = v.leaves[i];
      x = intrinsic(llvm::Intrinsic::maxnum, {x, fconst(x, isSigned ? -1.0 : 0.0)});
      x = intrinsic(llvm::Intrinsic::minnum, {x, fconst(x, 1.0)});
      x = intrinsic(llvm::Intrinsic::round, {B.CreateFMul(x, fconst(x, scale))});
      llvm::Type* it = x->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
      llvm::Value* q = B.CreateFPToSI(x, it);
      q = B.CreateAnd(q, t.constInt(it, (1u << bits) - 1));
      q = B.CreateShl(q, t.constInt(it, bits * i));
      if (acc) {
        t.unify(acc, q);
        acc = B.CreateOr(acc, q);
      } else {
        acc = q;
      }
    }
    return acc;
  }

  Val unpackNorm(llvm::Value* w, bool isSigned, unsigned bits, unsigned count) {
    Val out;
    llvm::Type* ft = w->getType()->isVectorTy() ? t.laneType(B.getFloatTy()) : B.getFloatTy();
    double scale = isSigned ? double((1u << (bits - 1)) - 1) : double((1u << bits) - 1);
    for (unsigned i = 0; i < count; ++i) {
      llvm::Value* part = B.CreateLShr(w, t.constInt(w->getType(), bits * i));
      llvm::Type* nt = w->getType()->isVectorTy() ? t.laneType(B.getIntNTy(bits)) : B.getIntNTy(bits);
      part = B.CreateTrunc(part, nt);
      llvm::Value* f = isSigned ? B.CreateSIToFP(part, ft) : B.CreateUIToFP(part, ft);
      f = B.CreateFDiv(f, llvm::ConstantFP::get(ft, scale));
      if (isSigned) f = intrinsic(llvm::Intrinsic::maxnum, {f, llvm::ConstantFP::get(ft, -1.0)});
      out.leaves.push_back(f);
    }
    return out;
  }

  llvm::Value* det2(llvm::Value* a, llvm::Value* b, llvm::Value* c, llvm::Value* d) {
    t.unify(a, b, c);
    t.unify(a, d);
    t.unify(b, c, d);
    return B.CreateFSub(B.CreateFMul(a, d), B.CreateFMul(b, c));
  }
  // Determinant of an n x n matrix given as column-major leaves m[c*n + r].
  llvm::Value* determinant(const std::vector<llvm::Value*>& m, unsigned n) {
    if (n == 1) return m[0];
    if (n == 2) return det2(m[0], m[2], m[1], m[3]);
    llvm::Value* acc = nullptr;
    for (unsigned c = 0; c < n; ++c) {
      std::vector<llvm::Value*> minor;
      for (unsigned cc = 0; cc < n; ++cc) {
        if (cc == c) continue;
        for (unsigned r = 1; r < n; ++r) minor.push_back(m[cc * n + r]);
      }
      llvm::Value* term = m[c * n];
      llvm::Value* sub = determinant(minor, n - 1);
      t.unify(term, sub);
      term = B.CreateFMul(term, sub);
      if (!acc) {
        acc = term;
        continue;
      }
      t.unify(acc, term);
      acc = (c % 2) ? B.CreateFSub(acc, term) : B.CreateFAdd(acc, term);
    }
    return acc;
  }

  // The exponent of pow when it is a constant integer n with 1 <= |n| <= 64 (glslang's pow(x,
  // 32.0), a specialization constant), else 0.
  static int smallIntegerExponent(llvm::Value* y) {
    auto* c = llvm::dyn_cast<llvm::Constant>(y);
    if (!c) return 0;
    if (c->getType()->isVectorTy()) c = c->getSplatValue();
    auto* f = llvm::dyn_cast_or_null<llvm::ConstantFP>(c);
    if (!f) return 0;
    const double v = f->getValueAPF().convertToDouble();
    if (v != std::floor(v) || std::fabs(v) < 1 || std::fabs(v) > 64) return 0;
    return int(v);
  }
  // pow(x, n) for such an n by squaring and multiplying: at most 6 squarings and 6 products
  // instead of a library call (a quarter of the demo scene's shader was powf's). "Precision and
  // Operation of SPIR-V Instructions" lets pow inherit exp2(y * log2(x))'s error, which for
  // |y| >= 1 is at least (3 + 2 |y log2 x|) ULP plus |y| times log2's 2^-21 absolute error
  // (about 2.8 |y| ULP of the result): more than the (|n| - 1) / 2 ULP the multiplications can
  // lose, and a negative n's one division adds 1/2 ULP. x < 0 is undefined for pow; NaN, 0 and
  // infinities come out as the multiplications give them (0^n = 0, inf^n = inf, 0^-n = inf).
  llvm::Value* powByMultiplication(llvm::Value* x, int n) {
    unsigned e = unsigned(n < 0 ? -n : n);
    llvm::Value* result = nullptr;
    llvm::Value* square = x;
    while (true) {
      if (e & 1) result = result ? B.CreateFMul(result, square) : square;
      e >>= 1;
      if (!e) break;
      square = B.CreateFMul(square, square);
    }
    return n < 0 ? B.CreateFDiv(fconst(result, 1.0), result) : result;
  }

  bool run();
};

bool Glsl::run() {
  using namespace std;
  uint32_t op = inst.operand(1);
  auto un = [&](auto fn) { componentWise(2, 1, [&](vector<llvm::Value*>& a) { return fn(a[0]); }); };
  auto bin = [&](auto fn) { componentWise(2, 2, [&](vector<llvm::Value*>& a) { return fn(a[0], a[1]); }); };
  auto tri = [&](auto fn) { componentWise(2, 3, [&](vector<llvm::Value*>& a) { return fn(a[0], a[1], a[2]); }); };
  auto in = [&](llvm::Intrinsic::ID id) { un([&](llvm::Value* x) { return intrinsic(id, {x}); }); };
  auto in2 = [&](llvm::Intrinsic::ID id) { bin([&](llvm::Value* x, llvm::Value* y) { return intrinsic(id, {x, y}); }); };
  auto lib = [&](const char* f, const char* d) { un([&](llvm::Value* x) { return libm(f, d, {x}); }); };
  auto lib2 = [&](const char* f, const char* d) { bin([&](llvm::Value* x, llvm::Value* y) { return libm(f, d, {x, y}); }); };
  // 32-bit floats inline, other widths through the library.
  auto inlineOrLib = [&](llvm::Value* (*emit)(llvm::IRBuilderBase&, llvm::Value*), const char* f, const char* d) {
    un([&](llvm::Value* x) { return x->getType()->getScalarType()->isFloatTy() ? emit(B, x) : libm(f, d, {x}); });
  };
  switch (op) {
    case GLSLstd450Round: in(llvm::Intrinsic::round); return true;
    case GLSLstd450RoundEven: in(llvm::Intrinsic::roundeven); return true;
    case GLSLstd450Trunc: in(llvm::Intrinsic::trunc); return true;
    case GLSLstd450FAbs: in(llvm::Intrinsic::fabs); return true;
    case GLSLstd450SAbs: un([&](llvm::Value* x) { return B.CreateIntrinsic(llvm::Intrinsic::abs, {x->getType()}, {x, B.getFalse()}); }); return true;
    case GLSLstd450FSign:
      un([&](llvm::Value* x) {
        llvm::Value* pos = B.CreateSelect(B.CreateFCmpOGT(x, fconst(x, 0)), fconst(x, 1), x);
        return B.CreateSelect(B.CreateFCmpOLT(x, fconst(x, 0)), fconst(x, -1), pos);
      });
      return true;
    case GLSLstd450SSign:
      un([&](llvm::Value* x) {
        llvm::Value* one = t.constInt(x->getType(), 1);
        llvm::Value* minus = llvm::Constant::getAllOnesValue(x->getType());
        return intrinsic(llvm::Intrinsic::smax, {intrinsic(llvm::Intrinsic::smin, {x, one}), minus});
      });
      return true;
    case GLSLstd450Floor: in(llvm::Intrinsic::floor); return true;
    case GLSLstd450Ceil: in(llvm::Intrinsic::ceil); return true;
    case GLSLstd450Fract: un([&](llvm::Value* x) { return B.CreateFSub(x, intrinsic(llvm::Intrinsic::floor, {x})); }); return true;
    case GLSLstd450Radians: un([&](llvm::Value* x) { return B.CreateFMul(x, fconst(x, 0.017453292519943295)); }); return true;
    case GLSLstd450Degrees: un([&](llvm::Value* x) { return B.CreateFMul(x, fconst(x, 57.29577951308232)); }); return true;
    case GLSLstd450Sin: inlineOrLib(emitSinF32, "sinf", "sin"); return true;
    case GLSLstd450Cos: inlineOrLib(emitCosF32, "cosf", "cos"); return true;
    case GLSLstd450Tan: lib("tanf", "tan"); return true;
    case GLSLstd450Asin: lib("asinf", "asin"); return true;
    case GLSLstd450Acos: lib("acosf", "acos"); return true;
    case GLSLstd450Atan: lib("atanf", "atan"); return true;
    case GLSLstd450Sinh: inlineOrLib(emitSinhF32, "sinhf", "sinh"); return true;
    case GLSLstd450Cosh: inlineOrLib(emitCoshF32, "coshf", "cosh"); return true;
    case GLSLstd450Tanh: lib("tanhf", "tanh"); return true;
    case GLSLstd450Asinh: lib("asinhf", "asinh"); return true;
    case GLSLstd450Acosh: lib("acoshf", "acosh"); return true;
    case GLSLstd450Atanh: lib("atanhf", "atanh"); return true;
    case GLSLstd450Atan2: lib2("atan2f", "atan2"); return true;
    case GLSLstd450Pow:
      bin([&](llvm::Value* x, llvm::Value* y) {
        const int n = smallIntegerExponent(y);
        return n && x->getType()->getScalarType()->isFloatTy() ? powByMultiplication(x, n) : libm("powf", "pow", {x, y});
      });
      return true;
    case GLSLstd450Exp: inlineOrLib(emitExpF32, "expf", "exp"); return true;
    case GLSLstd450Log: lib("logf", "log"); return true;
    case GLSLstd450Exp2: inlineOrLib(emitExp2F32, "exp2f", "exp2"); return true;
    case GLSLstd450Log2: lib("log2f", "log2"); return true;
    case GLSLstd450Sqrt: in(llvm::Intrinsic::sqrt); return true;
    case GLSLstd450InverseSqrt:
      un([&](llvm::Value* x) {
        const auto* v = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
        const bool estimate = hostCpu().avx512 && x->getType()->getScalarType()->isFloatTy() &&
                              (!v || v->getNumElements() == 4 || v->getNumElements() == 8 || v->getNumElements() == 16);
        return estimate ? emitInverseSqrtF32(B, x) : B.CreateFDiv(fconst(x, 1.0), intrinsic(llvm::Intrinsic::sqrt, {x}));
      });
      return true;
    case GLSLstd450FMin: in2(llvm::Intrinsic::minnum); return true;
    case GLSLstd450FMax: in2(llvm::Intrinsic::maxnum); return true;
    case GLSLstd450NMin: in2(llvm::Intrinsic::minnum); return true;
    case GLSLstd450NMax: in2(llvm::Intrinsic::maxnum); return true;
    case GLSLstd450UMin: in2(llvm::Intrinsic::umin); return true;
    case GLSLstd450SMin: in2(llvm::Intrinsic::smin); return true;
    case GLSLstd450UMax: in2(llvm::Intrinsic::umax); return true;
    case GLSLstd450SMax: in2(llvm::Intrinsic::smax); return true;
    case GLSLstd450FClamp:
    case GLSLstd450NClamp:
      tri([&](llvm::Value* x, llvm::Value* lo, llvm::Value* hi) {
        return intrinsic(llvm::Intrinsic::minnum, {intrinsic(llvm::Intrinsic::maxnum, {x, lo}), hi});
      });
      return true;
    case GLSLstd450UClamp:
      tri([&](llvm::Value* x, llvm::Value* lo, llvm::Value* hi) {
        return intrinsic(llvm::Intrinsic::umin, {intrinsic(llvm::Intrinsic::umax, {x, lo}), hi});
      });
      return true;
    case GLSLstd450SClamp:
      tri([&](llvm::Value* x, llvm::Value* lo, llvm::Value* hi) {
        return intrinsic(llvm::Intrinsic::smin, {intrinsic(llvm::Intrinsic::smax, {x, lo}), hi});
      });
      return true;
    case GLSLstd450FMix:
      tri([&](llvm::Value* x, llvm::Value* y, llvm::Value* a) {
        return B.CreateFAdd(B.CreateFMul(x, B.CreateFSub(fconst(a, 1.0), a)), B.CreateFMul(y, a));
      });
      return true;
    case GLSLstd450Step:
      bin([&](llvm::Value* edge, llvm::Value* x) { return B.CreateSelect(B.CreateFCmpOLT(x, edge), fconst(x, 0), fconst(x, 1)); });
      return true;
    case GLSLstd450SmoothStep:
      tri([&](llvm::Value* e0, llvm::Value* e1, llvm::Value* x) {
        llvm::Value* tt = B.CreateFDiv(B.CreateFSub(x, e0), B.CreateFSub(e1, e0));
        tt = intrinsic(llvm::Intrinsic::minnum, {intrinsic(llvm::Intrinsic::maxnum, {tt, fconst(tt, 0)}), fconst(tt, 1)});
        return B.CreateFMul(B.CreateFMul(tt, tt), B.CreateFSub(fconst(tt, 3), B.CreateFMul(fconst(tt, 2), tt)));
      });
      return true;
    case GLSLstd450Fma: tri([&](llvm::Value* a, llvm::Value* b2, llvm::Value* c) { return intrinsic(llvm::Intrinsic::fma, {a, b2, c}); }); return true;
    case GLSLstd450Ldexp:
      bin([&](llvm::Value* x, llvm::Value* e) {
        llvm::Type* it = x->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
        e = B.CreateSExtOrTrunc(e, it);
        return B.CreateIntrinsic(llvm::Intrinsic::ldexp, {x->getType(), it}, {x, e});
      });
      return true;
    case GLSLstd450Modf:
    case GLSLstd450ModfStruct: {
      Val x = t.value(inst.operand(2));
      Val frac, whole;
      for (llvm::Value* v : x.leaves) {
        llvm::Value* w = intrinsic(llvm::Intrinsic::trunc, {v});
        llvm::Value* f = B.CreateFSub(v, w);
        // modf(+-inf) has a zero fractional part of the same sign.
        llvm::Value* isInf = B.CreateFCmpOEQ(intrinsic(llvm::Intrinsic::fabs, {v}), llvm::ConstantFP::getInfinity(v->getType()));
        f = B.CreateSelect(isInf, intrinsic(llvm::Intrinsic::copysign, {fconst(v, 0), v}), f);
        whole.leaves.push_back(w);
        frac.leaves.push_back(f);
      }
      if (op == GLSLstd450Modf) {
        Ptr p = t.pointer(inst.operand(3));
        t.storeTo(p, whole, p.pointee);
        t.define(inst.result, frac);
      } else {
        frac.leaves.insert(frac.leaves.end(), whole.leaves.begin(), whole.leaves.end());
        t.define(inst.result, frac);
      }
      return true;
    }
    case GLSLstd450Frexp:
    case GLSLstd450FrexpStruct: {
      Val x = t.value(inst.operand(2));
      Val mant, exps;
      for (llvm::Value* v : x.leaves) {
        llvm::Type* it = v->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
        // LLVM 19's x86 back end aborts on llvm.frexp.v4f16 ("Do not know how to widen"):
        // halves go through float, where mantissa and exponent are the same and exact.
        const bool half = v->getType()->getScalarType()->isHalfTy();
        llvm::Value* arg = half ? B.CreateFPExt(v, v->getType()->isVectorTy() ? t.laneType(B.getFloatTy()) : B.getFloatTy()) : v;
        llvm::Value* r = B.CreateIntrinsic(llvm::Intrinsic::frexp, {arg->getType(), it}, {arg});
        llvm::Value* m = B.CreateExtractValue(r, {0});
        mant.leaves.push_back(half ? B.CreateFPTrunc(m, v->getType()) : m);
        exps.leaves.push_back(B.CreateExtractValue(r, {1}));
      }
      if (op == GLSLstd450Frexp) {
        Ptr p = t.pointer(inst.operand(3));
        std::vector<uint32_t> types = t.leafTypes(p.pointee);
        for (size_t i = 0; i < exps.leaves.size() && i < types.size(); ++i) {
          llvm::Type* want = t.scalarType(types[i]);
          llvm::Value*& e = exps.leaves[i];
          e = B.CreateSExtOrTrunc(e, e->getType()->isVectorTy() ? t.laneType(want) : want);
        }
        t.storeTo(p, exps, p.pointee);
        t.define(inst.result, mant);
      } else {
        std::vector<uint32_t> types = t.leafTypes(inst.type);
        for (size_t i = 0; i < exps.leaves.size(); ++i) {
          llvm::Type* want = t.scalarType(types[mant.leaves.size() + i]);
          llvm::Value*& e = exps.leaves[i];
          e = B.CreateSExtOrTrunc(e, e->getType()->isVectorTy() ? t.laneType(want) : want);
        }
        mant.leaves.insert(mant.leaves.end(), exps.leaves.begin(), exps.leaves.end());
        t.define(inst.result, mant);
      }
      return true;
    }
    case GLSLstd450PackSnorm4x8: t.define(inst.result, Val{{packNorm(t.value(inst.operand(2)), true, 8)}}); return true;
    case GLSLstd450PackUnorm4x8: t.define(inst.result, Val{{packNorm(t.value(inst.operand(2)), false, 8)}}); return true;
    case GLSLstd450PackSnorm2x16: t.define(inst.result, Val{{packNorm(t.value(inst.operand(2)), true, 16)}}); return true;
    case GLSLstd450PackUnorm2x16: t.define(inst.result, Val{{packNorm(t.value(inst.operand(2)), false, 16)}}); return true;
    case GLSLstd450UnpackSnorm4x8: t.define(inst.result, unpackNorm(t.scalarValue(inst.operand(2)), true, 8, 4)); return true;
    case GLSLstd450UnpackUnorm4x8: t.define(inst.result, unpackNorm(t.scalarValue(inst.operand(2)), false, 8, 4)); return true;
    case GLSLstd450UnpackSnorm2x16: t.define(inst.result, unpackNorm(t.scalarValue(inst.operand(2)), true, 16, 2)); return true;
    case GLSLstd450UnpackUnorm2x16: t.define(inst.result, unpackNorm(t.scalarValue(inst.operand(2)), false, 16, 2)); return true;
    case GLSLstd450PackHalf2x16: {
      Val v = t.value(inst.operand(2));
      llvm::Value* x = v.leaves[0], *y = v.leaves[1];
      t.unify(x, y);
      bool vec = x->getType()->isVectorTy();
      llvm::Type* ht = vec ? t.laneType(B.getHalfTy()) : B.getHalfTy();
      llvm::Type* i16 = vec ? t.laneType(B.getInt16Ty()) : B.getInt16Ty();
      llvm::Type* i32 = vec ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
      llvm::Value* lo = B.CreateZExt(B.CreateBitCast(B.CreateFPTrunc(x, ht), i16), i32);
      llvm::Value* hi = B.CreateZExt(B.CreateBitCast(B.CreateFPTrunc(y, ht), i16), i32);
      t.define(inst.result, Val{{B.CreateOr(lo, B.CreateShl(hi, t.constInt(i32, 16)))}});
      return true;
    }
    case GLSLstd450UnpackHalf2x16: {
      llvm::Value* w = t.scalarValue(inst.operand(2));
      bool vec = w->getType()->isVectorTy();
      llvm::Type* i16 = vec ? t.laneType(B.getInt16Ty()) : B.getInt16Ty();
      llvm::Type* ht = vec ? t.laneType(B.getHalfTy()) : B.getHalfTy();
      llvm::Type* ft = vec ? t.laneType(B.getFloatTy()) : B.getFloatTy();
      Val out;
      for (int i = 0; i < 2; ++i) {
        llvm::Value* h = B.CreateTrunc(B.CreateLShr(w, t.constInt(w->getType(), 16 * i)), i16);
        out.leaves.push_back(B.CreateFPExt(B.CreateBitCast(h, ht), ft));
      }
      t.define(inst.result, out);
      return true;
    }
    case GLSLstd450PackDouble2x32: {
      Val v = t.value(inst.operand(2));
      llvm::Value* lo = v.leaves[0], *hi = v.leaves[1];
      t.unify(lo, hi);
      bool vec = lo->getType()->isVectorTy();
      llvm::Type* i64 = vec ? t.laneType(B.getInt64Ty()) : B.getInt64Ty();
      llvm::Type* dt = vec ? t.laneType(B.getDoubleTy()) : B.getDoubleTy();
      llvm::Value* bits = B.CreateOr(B.CreateZExt(lo, i64), B.CreateShl(B.CreateZExt(hi, i64), t.constInt(i64, 32)));
      t.define(inst.result, Val{{B.CreateBitCast(bits, dt)}});
      return true;
    }
    case GLSLstd450UnpackDouble2x32: {
      llvm::Value* d = t.scalarValue(inst.operand(2));
      bool vec = d->getType()->isVectorTy();
      llvm::Type* i64 = vec ? t.laneType(B.getInt64Ty()) : B.getInt64Ty();
      llvm::Type* i32 = vec ? t.laneType(B.getInt32Ty()) : B.getInt32Ty();
      llvm::Value* bits = B.CreateBitCast(d, i64);
      t.define(inst.result, Val{{B.CreateTrunc(bits, i32), B.CreateTrunc(B.CreateLShr(bits, t.constInt(i64, 32)), i32)}});
      return true;
    }
    case GLSLstd450Length: {
      Val x = t.value(inst.operand(2));
      llvm::Value* r = x.leaves.size() == 1 ? intrinsic(llvm::Intrinsic::fabs, {x.leaves[0]})
                                            : intrinsic(llvm::Intrinsic::sqrt, {dot(x, x)});
      t.define(inst.result, Val{{r}});
      return true;
    }
    case GLSLstd450Distance: {
      Val x = t.value(inst.operand(2)), y = t.value(inst.operand(3));
      Val d;
      for (size_t i = 0; i < x.leaves.size(); ++i) {
        llvm::Value* a = x.leaves[i], *c = y.leaves[i];
        t.unify(a, c);
        d.leaves.push_back(B.CreateFSub(a, c));
      }
      llvm::Value* r = d.leaves.size() == 1 ? intrinsic(llvm::Intrinsic::fabs, {d.leaves[0]})
                                            : intrinsic(llvm::Intrinsic::sqrt, {dot(d, d)});
      t.define(inst.result, Val{{r}});
      return true;
    }
    case GLSLstd450Cross: {
      Val x = t.value(inst.operand(2)), y = t.value(inst.operand(3));
      auto term = [&](int i, int j) {
        llvm::Value* a = x.leaves[i], *c = y.leaves[j], *d = x.leaves[j], *e = y.leaves[i];
        t.unify(a, c, d);
        t.unify(a, e);
        t.unify(c, d, e);
        return B.CreateFSub(B.CreateFMul(a, c), B.CreateFMul(d, e));
      };
      t.define(inst.result, Val{{term(1, 2), term(2, 0), term(0, 1)}});
      return true;
    }
    case GLSLstd450Normalize: {
      Val x = t.value(inst.operand(2));
      if (x.leaves.size() == 1) {
        // normalize(scalar) = sign(x) (x / |x|)
        llvm::Value* v = x.leaves[0];
        t.define(inst.result, Val{{B.CreateFDiv(v, intrinsic(llvm::Intrinsic::fabs, {v}))}});
        return true;
      }
      llvm::Value* len = intrinsic(llvm::Intrinsic::sqrt, {dot(x, x)});
      Val out;
      for (llvm::Value* v : x.leaves) {
        llvm::Value* l = len;
        t.unify(v, l);
        out.leaves.push_back(B.CreateFDiv(v, l));
      }
      t.define(inst.result, out);
      return true;
    }
    case GLSLstd450FaceForward: {
      Val n = t.value(inst.operand(2)), i = t.value(inst.operand(3)), nref = t.value(inst.operand(4));
      llvm::Value* d = dot(nref, i);
      llvm::Value* neg = B.CreateFCmpOLT(d, fconst(d, 0));
      Val out;
      for (llvm::Value* v : n.leaves) out.leaves.push_back(t.select(neg, v, B.CreateFNeg(v)));
      t.define(inst.result, out);
      return true;
    }
    case GLSLstd450Reflect: {
      Val i = t.value(inst.operand(2)), n = t.value(inst.operand(3));
      llvm::Value* d = dot(n, i);
      Val out;
      for (size_t k = 0; k < i.leaves.size(); ++k) {
        llvm::Value* iv = i.leaves[k], *nv = n.leaves[k], *dd = d;
        t.unify(iv, nv, dd);
        out.leaves.push_back(B.CreateFSub(iv, B.CreateFMul(B.CreateFMul(fconst(dd, 2.0), dd), nv)));
      }
      t.define(inst.result, out);
      return true;
    }
    case GLSLstd450Refract: {
      Val i = t.value(inst.operand(2)), n = t.value(inst.operand(3));
      llvm::Value* eta = t.scalarValue(inst.operand(4));
      llvm::Value* d = dot(n, i);
      if (eta->getType()->getScalarType() != d->getType()->getScalarType())
        eta = B.CreateFPCast(eta, eta->getType()->isVectorTy() ? t.laneType(d->getType()->getScalarType()) : d->getType()->getScalarType());
      t.unify(d, eta);
      llvm::Value* one = fconst(d, 1.0);
      llvm::Value* k = B.CreateFSub(one, B.CreateFMul(B.CreateFMul(eta, eta), B.CreateFSub(one, B.CreateFMul(d, d))));
      llvm::Value* tir = B.CreateFCmpOLT(k, fconst(k, 0));
      llvm::Value* s = B.CreateFAdd(B.CreateFMul(eta, d), intrinsic(llvm::Intrinsic::sqrt, {k}));
      Val out;
      for (size_t c = 0; c < i.leaves.size(); ++c) {
        llvm::Value* iv = i.leaves[c], *nv = n.leaves[c], *e = eta, *ss = s, *tt = tir;
        t.unify(iv, nv, e);
        t.unify(iv, ss);
        llvm::Value* r = B.CreateFSub(B.CreateFMul(e, iv), B.CreateFMul(ss, nv));
        out.leaves.push_back(t.select(tt, llvm::Constant::getNullValue(r->getType()), r));
      }
      t.define(inst.result, out);
      return true;
    }
    case GLSLstd450FindILsb:
      un([&](llvm::Value* x) {
        llvm::Value* tz = B.CreateIntrinsic(llvm::Intrinsic::cttz, {x->getType()}, {x, B.getFalse()});
        llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
        return B.CreateSelect(B.CreateICmpEQ(x, zero), llvm::Constant::getAllOnesValue(x->getType()), tz);
      });
      return true;
    case GLSLstd450FindUMsb:
    case GLSLstd450FindSMsb: {
      bool isSigned = op == GLSLstd450FindSMsb;
      un([&](llvm::Value* x) {
        unsigned bits = x->getType()->getScalarSizeInBits();
        llvm::Value* zero = llvm::Constant::getNullValue(x->getType());
        llvm::Value* v = x;
        if (isSigned) v = B.CreateSelect(B.CreateICmpSLT(x, zero), B.CreateNot(x), x);
        llvm::Value* lz = B.CreateIntrinsic(llvm::Intrinsic::ctlz, {x->getType()}, {v, B.getFalse()});
        // ctlz(0) = bits, so bits-1-bits = -1 as required for 0 (and -1 for signed).
        return B.CreateSub(t.constInt(x->getType(), bits - 1), lz);
      });
      return true;
    }
    case GLSLstd450InterpolateAtCentroid:
    case GLSLstd450InterpolateAtSample:
    case GLSLstd450InterpolateAtOffset:
      t.define(inst.result, t.interpolateAt(inst));
      return true;
    case GLSLstd450Determinant: {
      Val m = t.value(inst.operand(2));
      unsigned n = m.leaves.size() == 4 ? 2 : m.leaves.size() == 9 ? 3 : 4;
      t.define(inst.result, Val{{determinant(m.leaves, n)}});
      return true;
    }
    case GLSLstd450MatrixInverse: {
      Val m = t.value(inst.operand(2));
      unsigned n = m.leaves.size() == 4 ? 2 : m.leaves.size() == 9 ? 3 : 4;
      // A 16-bit matrix is inverted in 32-bit floats and rounded once at the end: the cofactor
      // expansion's many roundings in half precision leave results outside the precision the
      // spec derives for inverse (the CTS's fp16 inverse cases found 2 ulps of error); "Precision
      // and Operation of SPIR-V Instructions" allows more precision than asked for.
      const bool half = m.leaves[0]->getType()->getScalarType()->isHalfTy();
      if (half)
        for (llvm::Value*& v : m.leaves) v = B.CreateFPExt(v, v->getType()->getWithNewType(B.getFloatTy()));
      llvm::Value* det = determinant(m.leaves, n);
      Val out;
      out.leaves.resize(n * n);
      // inverse[c][r] = cofactor(r, c) / det (adjugate is the transposed cofactor matrix).
      for (unsigned c = 0; c < n; ++c)
        for (unsigned r = 0; r < n; ++r) {
          std::vector<llvm::Value*> minor;
          for (unsigned cc = 0; cc < n; ++cc) {
            if (cc == r) continue;
            for (unsigned rr = 0; rr < n; ++rr) {
              if (rr == c) continue;
              minor.push_back(m.leaves[cc * n + rr]);
            }
          }
          llvm::Value* cof = n == 2 ? minor[0] : determinant(minor, n - 1);
          if ((r + c) % 2) cof = B.CreateFNeg(cof);
          llvm::Value* d = det;
          t.unify(cof, d);
          out.leaves[c * n + r] = B.CreateFDiv(cof, d);
        }
      if (half)
        for (llvm::Value*& v : out.leaves) v = B.CreateFPTrunc(v, v->getType()->getWithNewType(B.getHalfTy()));
      t.define(inst.result, out);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool Translator::translateGlsl(const Instruction& inst) {
  if (inst.op != spv::Op::OpExtInst) return false;
  if (!module_.isExtInstSet(inst.operand(0), "GLSL.std.450")) fail("unsupported extended instruction set");
  Glsl g{*this, inst, b()};
  if (!g.run()) fail("unsupported GLSL.std.450 instruction " + std::to_string(inst.operand(1)));
  return true;
}

}  // namespace tessera::jit
