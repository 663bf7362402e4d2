// Arithmetic, comparisons, logic, bit operations and conversions: component-wise operations
// on scalars and vectors. Every operation avoids LLVM poison and traps where SPIR-V only says
// "undefined value": divisors of zero, oversized shifts and out-of-range float-to-int
// conversions give some value, never a crash.
#include <llvm/IR/Intrinsics.h>

#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

llvm::Type* elementTypeOf(llvm::Value* v) { return v->getType()->getScalarType(); }

// Converts an integer operand (any width, scalar or vector) to the width of `like`.
llvm::Value* toWidthOf(llvm::IRBuilder<>& b, llvm::Value* v, llvm::Value* like, bool isSigned = false) {
  llvm::Type* target = elementTypeOf(like);
  if (elementTypeOf(v) == target) return v;
  llvm::Type* t = v->getType()->isVectorTy()
                      ? static_cast<llvm::Type*>(llvm::VectorType::get(target, llvm::cast<llvm::VectorType>(v->getType())->getElementCount()))
                      : target;
  return isSigned ? b.CreateSExtOrTrunc(v, t) : b.CreateZExtOrTrunc(v, t);
}

// llvm.fpto[us]i.sat from f32 to i32 written as selects around the plain conversion: x86
// lowers the intrinsic on vectors lane by lane (a scalar convert and two cmovs each; uvec2(
// gl_FragCoord.xy) cost ~200 instructions per batch), the plain conversions are one
// vcvttps2[u]dq. Same results: NaN gives 0, values below the range its minimum, values at or
// above 2^32 (2^31 signed) its maximum, the rest truncated toward zero.
llvm::Value* saturatingFloatToInt32(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Type* resultType, bool toUnsigned) {
  llvm::Type* ft = x->getType();
  auto constant = [&](double v) { return llvm::ConstantFP::get(ft, v); };
  auto intConstant = [&](uint64_t v) { return llvm::ConstantInt::get(resultType, v); };
  if (toUnsigned) {
    llvm::Value* nonNegative = b.CreateSelect(b.CreateFCmpOGT(x, constant(0.0)), x, constant(0.0));  // NaN: 0
    llvm::Value* tooLarge = b.CreateFCmpOGE(nonNegative, constant(4294967296.0));
    llvm::Value* inRange = b.CreateSelect(tooLarge, constant(0.0), nonNegative);
    return b.CreateSelect(tooLarge, intConstant(0xFFFFFFFFu), b.CreateFPToUI(inRange, resultType));
  }
  llvm::Value* isNan = b.CreateFCmpUNO(x, x);
  llvm::Value* tooLarge = b.CreateFCmpOGE(x, constant(2147483648.0));
  llvm::Value* tooSmall = b.CreateFCmpOLT(x, constant(-2147483648.0));
  llvm::Value* inRange = b.CreateSelect(b.CreateOr(b.CreateOr(isNan, tooLarge), tooSmall), constant(0.0), x);
  llvm::Value* r = b.CreateFPToSI(inRange, resultType);
  r = b.CreateSelect(tooLarge, intConstant(0x7FFFFFFFu), r);
  r = b.CreateSelect(tooSmall, intConstant(0x80000000u), r);
  return r;
}

}  // namespace

struct ArithmeticTranslation {
  Translator& t;
  const Instruction& inst;
  llvm::IRBuilder<>& b;

  // Calls fn(component values...) for every component of the result.
  template <typename F>
  void componentWise(std::initializer_list<uint32_t> operandIds, F fn) {
    std::vector<Val> ops;
    for (uint32_t id : operandIds) ops.push_back(t.value(id));
    size_t n = ops[0].leaves.size();
    Val out;
    for (size_t i = 0; i < n; ++i) {
      std::vector<llvm::Value*> args;
      bool anyVector = false;
      for (const Val& v : ops) {
        llvm::Value* leaf = v.leaves.size() == 1 ? v.leaves[0] : v.leaves[i];
        anyVector |= leaf->getType()->isVectorTy();
        args.push_back(leaf);
      }
      if (anyVector)
        for (llvm::Value*& a : args) a = t.splat(a);
      out.leaves.push_back(fn(args));
    }
    t.define(inst.result, out);
  }

  llvm::FastMathFlags floatFlags() {
    llvm::FastMathFlags f;
    if (!t.spirv().decorations(inst.result).noContraction) f.setAllowContract(true);
    return f;
  }

  llvm::Value* intrinsic(llvm::Intrinsic::ID id, std::vector<llvm::Value*> args) {
    return b.CreateIntrinsic(id, {args[0]->getType()}, args);
  }

  llvm::Value* safeDivisor(llvm::Value* num, llvm::Value* den, bool isSigned) {
    llvm::Value* zero = llvm::Constant::getNullValue(den->getType());
    llvm::Value* one = t.constInt(den->getType(), 1);
    llvm::Value* bad = b.CreateICmpEQ(den, zero);
    if (isSigned) {
      unsigned bits = elementTypeOf(den)->getIntegerBitWidth();
      llvm::Value* minusOne = llvm::Constant::getAllOnesValue(den->getType());
      llvm::Value* minValue = t.constInt(den->getType(), uint64_t(1) << (bits - 1));
      bad = b.CreateOr(bad, b.CreateAnd(b.CreateICmpEQ(den, minusOne), b.CreateICmpEQ(num, minValue)));
    }
    return b.CreateSelect(bad, one, den);
  }

  // a / d and a % d (d made safe). A lane vector divided by a divisor that is still not a
  // constant after optimization divides in double (vector_division.h, after the pipeline).
  llvm::Value* divide(llvm::Value* a, llvm::Value* d, bool isSigned) {
    return isSigned ? b.CreateSDiv(a, d) : b.CreateUDiv(a, d);
  }
  llvm::Value* remainder(llvm::Value* a, llvm::Value* d, bool isSigned) {
    return isSigned ? b.CreateSRem(a, d) : b.CreateURem(a, d);
  }

  llvm::Value* bitMask(llvm::Value* count, llvm::Value* like) {
    // (1 << count) - 1, with count == width giving all ones.
    unsigned bits = elementTypeOf(like)->getIntegerBitWidth();
    llvm::Type* ty = like->getType();
    llvm::Value* c = toWidthOf(b, count, like);
    llvm::Value* full = b.CreateICmpUGE(c, t.constInt(ty, bits));
    llvm::Value* safe = b.CreateAnd(c, t.constInt(ty, bits - 1));
    llvm::Value* m = b.CreateSub(b.CreateShl(t.constInt(ty, 1), safe), t.constInt(ty, 1));
    return b.CreateSelect(full, llvm::Constant::getAllOnesValue(ty), m);
  }

  llvm::Value* shiftAmount(llvm::Value* amount, llvm::Value* like) {
    unsigned bits = elementTypeOf(like)->getIntegerBitWidth();
    return b.CreateAnd(toWidthOf(b, amount, like), t.constInt(like->getType(), bits - 1));
  }

  llvm::Type* convertType(llvm::Value* v, llvm::Type* scalarTarget) {
    return v->getType()->isVectorTy() ? t.laneType(scalarTarget) : scalarTarget;
  }

  bool run();
  void bitcast();
  void extendedArithmetic();
};

bool ArithmeticTranslation::run() {
  const auto& o = inst;
  auto op2 = [&](auto fn) { componentWise({o.operand(0), o.operand(1)}, [&](std::vector<llvm::Value*>& a) { return fn(a[0], a[1]); }); };
  auto op1 = [&](auto fn) { componentWise({o.operand(0)}, [&](std::vector<llvm::Value*>& a) { return fn(a[0]); }); };
  auto fop2 = [&](auto fn) {
    llvm::IRBuilder<>::FastMathFlagGuard guard(b);
    b.setFastMathFlags(floatFlags());
    op2(fn);
  };
  llvm::Type* resultScalar = nullptr;
  auto resultElem = [&]() {
    if (!resultScalar) resultScalar = t.scalarType(t.componentType(o.type));
    return resultScalar;
  };
  switch (o.op) {
    // ---- float arithmetic
    case Op::OpFNegate: op1([&](llvm::Value* a) { return b.CreateFNeg(a); }); return true;
    case Op::OpFAdd: fop2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFAdd(a, c); }); return true;
    case Op::OpFSub: fop2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFSub(a, c); }); return true;
    case Op::OpFMul: fop2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFMul(a, c); }); return true;
    case Op::OpFDiv: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFDiv(a, c); }); return true;
    case Op::OpFRem: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFRem(a, c); }); return true;
    case Op::OpFMod:
      // x - y * floor(x / y): the result takes the sign of y.
      op2([&](llvm::Value* a, llvm::Value* c) {
        llvm::Value* q = intrinsic(llvm::Intrinsic::floor, {b.CreateFDiv(a, c)});
        return b.CreateFSub(a, b.CreateFMul(c, q));
      });
      return true;
    // ---- integer arithmetic
    case Op::OpSNegate: op1([&](llvm::Value* a) { return b.CreateNeg(a); }); return true;
    case Op::OpIAdd: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateAdd(a, c); }); return true;
    case Op::OpISub: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateSub(a, c); }); return true;
    case Op::OpIMul: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateMul(a, c); }); return true;
    case Op::OpUDiv: op2([&](llvm::Value* a, llvm::Value* c) { return divide(a, safeDivisor(a, c, false), false); }); return true;
    case Op::OpSDiv: op2([&](llvm::Value* a, llvm::Value* c) { return divide(a, safeDivisor(a, c, true), true); }); return true;
    case Op::OpUMod: op2([&](llvm::Value* a, llvm::Value* c) { return remainder(a, safeDivisor(a, c, false), false); }); return true;
    case Op::OpSRem: op2([&](llvm::Value* a, llvm::Value* c) { return remainder(a, safeDivisor(a, c, true), true); }); return true;
    case Op::OpSMod:
      // Sign of the divisor: adjust a remainder whose sign differs from it.
      op2([&](llvm::Value* a, llvm::Value* c) {
        llvm::Value* d = safeDivisor(a, c, true);
        llvm::Value* r = remainder(a, d, true);
        llvm::Value* zero = llvm::Constant::getNullValue(r->getType());
        llvm::Value* fix = b.CreateAnd(b.CreateICmpNE(r, zero), b.CreateICmpSLT(b.CreateXor(r, d), zero));
        return b.CreateSelect(fix, b.CreateAdd(r, d), r);
      });
      return true;
    // ---- bits
    case Op::OpShiftLeftLogical: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateShl(a, shiftAmount(c, a)); }); return true;
    case Op::OpShiftRightLogical: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateLShr(a, shiftAmount(c, a)); }); return true;
    case Op::OpShiftRightArithmetic: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateAShr(a, shiftAmount(c, a)); }); return true;
    case Op::OpBitwiseOr: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateOr(a, c); }); return true;
    case Op::OpBitwiseXor: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateXor(a, c); }); return true;
    case Op::OpBitwiseAnd: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateAnd(a, c); }); return true;
    case Op::OpNot: op1([&](llvm::Value* a) { return b.CreateNot(a); }); return true;
    case Op::OpBitReverse: op1([&](llvm::Value* a) { return intrinsic(llvm::Intrinsic::bitreverse, {a}); }); return true;
    case Op::OpBitCount:
      op1([&](llvm::Value* a) {
        llvm::Value* c = intrinsic(llvm::Intrinsic::ctpop, {a});
        return b.CreateZExtOrTrunc(c, convertType(c, resultElem()));
      });
      return true;
    case Op::OpBitFieldInsert: {
      Val offset = t.value(o.operand(2)), count = t.value(o.operand(3));
      componentWise({o.operand(0), o.operand(1)}, [&](std::vector<llvm::Value*>& a) {
        llvm::Value* base = a[0];
        llvm::Value* ins = a[1];
        llvm::Value* off = offset.leaf(0), *cnt = count.leaf(0);
        if (base->getType()->isVectorTy()) off = t.splat(off), cnt = t.splat(cnt);
        if (off->getType()->isVectorTy() || cnt->getType()->isVectorTy()) {
          base = t.splat(base), ins = t.splat(ins), off = t.splat(off), cnt = t.splat(cnt);
        }
        llvm::Value* sh = shiftAmount(off, base);
        llvm::Value* m = b.CreateShl(bitMask(cnt, base), sh);
        llvm::Value* zeroCount = b.CreateICmpEQ(toWidthOf(b, cnt, base), llvm::Constant::getNullValue(base->getType()));
        m = b.CreateSelect(zeroCount, llvm::Constant::getNullValue(base->getType()), m);
        return b.CreateOr(b.CreateAnd(base, b.CreateNot(m)), b.CreateAnd(b.CreateShl(ins, sh), m));
      });
      return true;
    }
    case Op::OpBitFieldUExtract:
    case Op::OpBitFieldSExtract: {
      Val offset = t.value(o.operand(1)), count = t.value(o.operand(2));
      bool isSigned = o.op == Op::OpBitFieldSExtract;
      componentWise({o.operand(0)}, [&](std::vector<llvm::Value*>& a) {
        llvm::Value* base = a[0];
        llvm::Value* off = offset.leaf(0), *cnt = count.leaf(0);
        if (base->getType()->isVectorTy() || off->getType()->isVectorTy() || cnt->getType()->isVectorTy())
          base = t.splat(base), off = t.splat(off), cnt = t.splat(cnt);
        unsigned bits = elementTypeOf(base)->getIntegerBitWidth();
        llvm::Type* ty = base->getType();
        llvm::Value* c = toWidthOf(b, cnt, base);
        llvm::Value* zero = llvm::Constant::getNullValue(ty);
        llvm::Value* result;
        if (isSigned) {
          // shl by (bits - off - count), then ashr by (bits - count).
          llvm::Value* offW = toWidthOf(b, off, base);
          llvm::Value* left = b.CreateAnd(b.CreateSub(b.CreateSub(t.constInt(ty, bits), offW), c), t.constInt(ty, bits - 1));
          llvm::Value* right = b.CreateAnd(b.CreateSub(t.constInt(ty, bits), c), t.constInt(ty, bits - 1));
          result = b.CreateAShr(b.CreateShl(base, left), right);
        } else {
          result = b.CreateAnd(b.CreateLShr(base, shiftAmount(off, base)), bitMask(cnt, base));
        }
        return b.CreateSelect(b.CreateICmpEQ(c, zero), zero, result);
      });
      return true;
    }
    // ---- logic and comparisons
    case Op::OpLogicalEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpEQ(a, c); }); return true;
    case Op::OpLogicalNotEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpNE(a, c); }); return true;
    case Op::OpLogicalOr: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateOr(a, c); }); return true;
    case Op::OpLogicalAnd: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateAnd(a, c); }); return true;
    case Op::OpLogicalNot: op1([&](llvm::Value* a) { return b.CreateNot(a); }); return true;
    case Op::OpIEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpEQ(a, c); }); return true;
    case Op::OpINotEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpNE(a, c); }); return true;
    case Op::OpUGreaterThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpUGT(a, c); }); return true;
    case Op::OpSGreaterThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpSGT(a, c); }); return true;
    case Op::OpUGreaterThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpUGE(a, c); }); return true;
    case Op::OpSGreaterThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpSGE(a, c); }); return true;
    case Op::OpULessThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpULT(a, c); }); return true;
    case Op::OpSLessThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpSLT(a, c); }); return true;
    case Op::OpULessThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpULE(a, c); }); return true;
    case Op::OpSLessThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateICmpSLE(a, c); }); return true;
    case Op::OpFOrdEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpOEQ(a, c); }); return true;
    case Op::OpFUnordEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpUEQ(a, c); }); return true;
    case Op::OpFOrdNotEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpONE(a, c); }); return true;
    case Op::OpFUnordNotEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpUNE(a, c); }); return true;
    case Op::OpFOrdLessThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpOLT(a, c); }); return true;
    case Op::OpFUnordLessThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpULT(a, c); }); return true;
    case Op::OpFOrdGreaterThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpOGT(a, c); }); return true;
    case Op::OpFUnordGreaterThan: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpUGT(a, c); }); return true;
    case Op::OpFOrdLessThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpOLE(a, c); }); return true;
    case Op::OpFUnordLessThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpULE(a, c); }); return true;
    case Op::OpFOrdGreaterThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpOGE(a, c); }); return true;
    case Op::OpFUnordGreaterThanEqual: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpUGE(a, c); }); return true;
    case Op::OpLessOrGreater: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpONE(a, c); }); return true;
    case Op::OpOrdered: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpORD(a, c); }); return true;
    case Op::OpUnordered: op2([&](llvm::Value* a, llvm::Value* c) { return b.CreateFCmpUNO(a, c); }); return true;
    case Op::OpIsNan: op1([&](llvm::Value* a) { return b.CreateFCmpUNO(a, a); }); return true;
    case Op::OpIsInf:
      op1([&](llvm::Value* a) {
        llvm::Value* abs = intrinsic(llvm::Intrinsic::fabs, {a});
        return b.CreateFCmpOEQ(abs, llvm::ConstantFP::getInfinity(a->getType()));
      });
      return true;
    case Op::OpSignBitSet:
      op1([&](llvm::Value* a) {
        llvm::Type* it = convertType(a, b.getIntNTy(elementTypeOf(a)->getPrimitiveSizeInBits()));
        return b.CreateICmpSLT(b.CreateBitCast(a, it), llvm::Constant::getNullValue(it));
      });
      return true;
    case Op::OpAny:
    case Op::OpAll: {
      Val v = t.value(o.operand(0));
      llvm::Value* acc = v.leaf(0);
      for (size_t i = 1; i < v.leaves.size(); ++i) {
        llvm::Value* l = v.leaves[i];
        t.unify(acc, l);
        acc = o.op == Op::OpAny ? b.CreateOr(acc, l) : b.CreateAnd(acc, l);
      }
      t.define(o.result, Val{{acc}});
      return true;
    }
    case Op::OpSelect: {
      if (const Type* rt = t.spirv().type(o.type); rt && rt->kind == TypeKind::Pointer) {
        if (t.isVariablePointer(o.type)) {
          const Ptr a = t.pointer(o.operand(1)), other = t.pointer(o.operand(2));
          if (a.kind == Ptr::Kind::DescriptorArray || other.kind == Ptr::Kind::DescriptorArray) {
            // Between two bindings' descriptor arrays (of buffers): which one is decided per lane
            // when an access chain picks an element (descriptorElement).
            if (a.kind != other.kind || a.otherBinding || other.otherBinding || a.storage == spv::StorageClass::UniformConstant)
              t.fail("a variable pointer choosing among descriptor arrays is supported only as one OpSelect between "
                     "two buffer bindings' arrays");
            Ptr chosen = a;
            chosen.otherBinding = other.binding;
            chosen.choice = t.scalarValue(o.operand(0));
            t.definePointer(o.result, chosen);
            return true;
          }
          // Variable pointers: each lane takes its pointer's address and bounds, so lanes that
          // chose different buffers keep their own buffer's range.
          Val x = t.pointerValue(t.pointer(o.operand(1))), y = t.pointerValue(t.pointer(o.operand(2)));
          llvm::Value* c = t.scalarValue(o.operand(0));
          Val out;
          for (size_t i = 0; i < x.leaves.size(); ++i) out.leaves.push_back(t.select(c, x.leaves[i], y.leaves[i]));
          t.definePointer(o.result, t.pointerFromValue(out, o.type));
          return true;
        }
        // Choosing between physical storage buffer pointers is choosing between addresses.
        llvm::Value* sel = t.select(t.scalarValue(o.operand(0)), t.pointerToAddress(t.pointer(o.operand(1))),
                                    t.pointerToAddress(t.pointer(o.operand(2))));
        t.definePointer(o.result, t.addressToPointer(sel, o.type));
        return true;
      }
      Val cond = t.value(o.operand(0));
      Val x = t.value(o.operand(1)), y = t.value(o.operand(2));
      Val out;
      for (size_t i = 0; i < x.leaves.size(); ++i) {
        llvm::Value* c = cond.leaves.size() == x.leaves.size() ? cond.leaves[i] : cond.leaf(0);
        out.leaves.push_back(t.select(c, x.leaves[i], y.leaves[i]));
      }
      t.define(o.result, out);
      return true;
    }
    // ---- conversions
    case Op::OpConvertFToU:
    case Op::OpConvertFToS: {
      const bool toUnsigned = o.op == Op::OpConvertFToU;
      auto id = toUnsigned ? llvm::Intrinsic::fptoui_sat : llvm::Intrinsic::fptosi_sat;
      op1([&](llvm::Value* a) -> llvm::Value* {
        llvm::Type* rt = convertType(a, resultElem());
        if (a->getType()->getScalarType()->isFloatTy() && rt->getScalarSizeInBits() == 32)
          return saturatingFloatToInt32(b, a, rt, toUnsigned);
        return b.CreateIntrinsic(id, {rt, a->getType()}, {a});
      });
      return true;
    }
    case Op::OpConvertSToF: op1([&](llvm::Value* a) { return b.CreateSIToFP(a, convertType(a, resultElem())); }); return true;
    case Op::OpConvertUToF: op1([&](llvm::Value* a) { return b.CreateUIToFP(a, convertType(a, resultElem())); }); return true;
    case Op::OpUConvert: op1([&](llvm::Value* a) { return b.CreateZExtOrTrunc(a, convertType(a, resultElem())); }); return true;
    case Op::OpSConvert: op1([&](llvm::Value* a) { return b.CreateSExtOrTrunc(a, convertType(a, resultElem())); }); return true;
    case Op::OpFConvert: {
      auto mode = t.spirv().decorations(o.result).roundingMode;
      op1([&](llvm::Value* a) -> llvm::Value* {
        llvm::Type* rt = convertType(a, resultElem());
        if (rt->getScalarSizeInBits() > a->getType()->getScalarSizeInBits()) return b.CreateFPExt(a, rt);
        if (!mode || *mode == spv::FPRoundingMode::RTE) return b.CreateFPTrunc(a, rt);
        // Directed rounding: round to nearest, then step one ulp toward the requested
        // direction when the nearest value went the wrong way.
        llvm::Value* near = b.CreateFPTrunc(a, rt);
        llvm::Value* back = b.CreateFPExt(near, a->getType());
        llvm::Value* zero = llvm::ConstantFP::get(a->getType(), 0.0);
        llvm::Type* it = convertType(a, b.getIntNTy(rt->getScalarSizeInBits()));
        auto stepToward = [&](llvm::Value* v, bool towardPositive) {
          // nextafter on the integer representation: +1 ulp in magnitude when moving away
          // from zero, -1 when moving toward it.
          llvm::Value* bits = b.CreateBitCast(v, it);
          llvm::Value* neg = b.CreateICmpSLT(bits, llvm::Constant::getNullValue(it));
          llvm::Value* away = towardPositive ? b.CreateNot(neg) : neg;
          llvm::Value* isZero = b.CreateFCmpOEQ(v, llvm::ConstantFP::get(v->getType(), 0.0));
          llvm::Value* inc = b.CreateAdd(bits, t.constInt(it, 1));
          llvm::Value* dec = b.CreateSub(bits, t.constInt(it, 1));
          llvm::Value* smallest = b.CreateBitCast(t.constInt(it, towardPositive ? 1 : (uint64_t(1) << (rt->getScalarSizeInBits() - 1)) | 1), v->getType());
          llvm::Value* stepped = b.CreateBitCast(b.CreateSelect(away, inc, dec), v->getType());
          return b.CreateSelect(isZero, smallest, stepped);
        };
        llvm::Value* tooHigh = b.CreateFCmpOGT(back, a);
        llvm::Value* tooLow = b.CreateFCmpOLT(back, a);
        llvm::Value* down = stepToward(near, false);
        llvm::Value* upv = stepToward(near, true);
        switch (*mode) {
          case spv::FPRoundingMode::RTZ: {
            llvm::Value* pos = b.CreateFCmpOGT(a, zero);
            llvm::Value* fix = b.CreateSelect(pos, tooHigh, tooLow);
            llvm::Value* towardZero = b.CreateSelect(pos, down, upv);
            // Infinity from overflow rounds back to the largest finite value.
            return b.CreateSelect(fix, towardZero, near);
          }
          case spv::FPRoundingMode::RTP:
            return b.CreateSelect(tooLow, upv, near);
          case spv::FPRoundingMode::RTN:
            return b.CreateSelect(tooHigh, down, near);
          default:
            return near;
        }
      });
      return true;
    }
    case Op::OpQuantizeToF16:
      op1([&](llvm::Value* a) {
        llvm::Type* ht = convertType(a, b.getHalfTy());
        llvm::Value* h = b.CreateFPExt(b.CreateFPTrunc(a, ht), a->getType());
        // Values too small for a normal half become a zero of the same sign.
        llvm::Value* tiny = b.CreateFCmpOLT(intrinsic(llvm::Intrinsic::fabs, {h}), llvm::ConstantFP::get(a->getType(), 6.103515625e-05));
        llvm::Value* signedZero = intrinsic(llvm::Intrinsic::copysign, {llvm::ConstantFP::get(a->getType(), 0.0), a});
        return b.CreateSelect(tiny, signedZero, h);
      });
      return true;
    case Op::OpSatConvertSToU:
    case Op::OpSatConvertUToS: {
      bool fromSigned = o.op == Op::OpSatConvertSToU;
      op1([&](llvm::Value* a) {
        llvm::Type* rt = convertType(a, resultElem());
        unsigned rb = rt->getScalarSizeInBits(), ab = a->getType()->getScalarSizeInBits();
        unsigned wide = std::max(rb, ab) + 1;
        llvm::Type* wt = convertType(a, b.getIntNTy(wide));
        llvm::Value* w = fromSigned ? b.CreateSExt(a, wt) : b.CreateZExt(a, wt);
        llvm::APInt hi = fromSigned ? llvm::APInt::getMaxValue(rb).zext(wide) : llvm::APInt::getSignedMaxValue(rb).zext(wide);
        llvm::Value* hiV = t.constInt(wt, hi.getZExtValue());
        w = b.CreateSelect(b.CreateICmpSGT(w, hiV), hiV, w);
        if (fromSigned) w = b.CreateSelect(b.CreateICmpSLT(w, llvm::Constant::getNullValue(wt)), llvm::Constant::getNullValue(wt), w);
        return b.CreateTrunc(w, rt);
      });
      return true;
    }
    case Op::OpBitcast:
      bitcast();
      return true;
    case Op::OpIAddCarry:
    case Op::OpISubBorrow:
    case Op::OpUMulExtended:
    case Op::OpSMulExtended:
      extendedArithmetic();
      return true;
    default:
      return false;
  }
}

void ArithmeticTranslation::bitcast() {
  const Type* rt = t.spirv().type(inst.type);
  if (rt && rt->kind == TypeKind::Pointer) {
    // Integer (u64 or uvec2) -> physical storage buffer pointer.
    Val v = t.value(inst.operand(0));
    llvm::Value* addr = v.leaf(0);
    if (v.leaves.size() == 2) {
      llvm::Value* lo = v.leaves[0], *hi = v.leaves[1];
      t.unify(lo, hi);
      llvm::Type* i64 = convertType(lo, b.getInt64Ty());
      addr = b.CreateOr(b.CreateZExt(lo, i64), b.CreateShl(b.CreateZExt(hi, i64), t.constInt(i64, 32)));
    }
    t.definePointer(inst.result, t.addressToPointer(addr, inst.type));
    return;
  }
  const Type* srcType = t.spirv().type(t.spirv().resultTypeOf(inst.operand(0)));
  Val src;
  if (srcType && srcType->kind == TypeKind::Pointer) src.leaves.push_back(t.pointerToAddress(t.pointer(inst.operand(0))));
  else src = t.value(inst.operand(0));
  std::vector<uint32_t> targets = t.leafTypes(inst.type);
  Val out;
  if (src.leaves.size() == targets.size()) {
    for (size_t i = 0; i < targets.size(); ++i) {
      llvm::Value* s = src.leaves[i];
      out.leaves.push_back(b.CreateBitCast(s, convertType(s, t.scalarType(targets[i]))));
    }
  } else {
    // Different component counts: concatenate the source bits (component 0 lowest) and cut
    // them into the result's components.
    bool vec = false;
    for (llvm::Value* s : src.leaves) vec |= s->getType()->isVectorTy();
    uint32_t total = 0;
    for (llvm::Value* s : src.leaves) total += s->getType()->getScalarSizeInBits();
    llvm::Type* bigTy = b.getIntNTy(total);
    if (vec) bigTy = t.laneType(bigTy);
    llvm::Value* big = llvm::Constant::getNullValue(bigTy);
    uint32_t shift = 0;
    for (llvm::Value* s : src.leaves) {
      if (vec) s = t.splat(s);
      unsigned bits = s->getType()->getScalarSizeInBits();
      llvm::Type* it = convertType(s, b.getIntNTy(bits));
      llvm::Value* asInt = b.CreateBitCast(s, it);
      big = b.CreateOr(big, b.CreateShl(b.CreateZExt(asInt, bigTy), t.constInt(bigTy, shift)));
      shift += bits;
    }
    shift = 0;
    for (uint32_t tt : targets) {
      llvm::Type* st = t.scalarType(tt);
      unsigned bits = st->getScalarSizeInBits();
      llvm::Type* it = b.getIntNTy(bits);
      if (vec) it = t.laneType(it), st = t.laneType(st);
      llvm::Value* part = b.CreateTrunc(b.CreateLShr(big, t.constInt(bigTy, shift)), it);
      out.leaves.push_back(b.CreateBitCast(part, st));
      shift += bits;
    }
  }
  t.define(inst.result, out);
}

void ArithmeticTranslation::extendedArithmetic() {
  // Results are structs of two members of the operand type: (low/result, high/carry).
  Val x = t.value(inst.operand(0)), y = t.value(inst.operand(1));
  size_t n = x.leaves.size();
  std::vector<llvm::Value*> first, second;
  for (size_t i = 0; i < n; ++i) {
    llvm::Value* a = x.leaves[i], *c = y.leaves[i];
    t.unify(a, c);
    switch (inst.op) {
      case Op::OpIAddCarry: {
        llvm::Value* sum = b.CreateAdd(a, c);
        first.push_back(sum);
        second.push_back(b.CreateZExt(b.CreateICmpULT(sum, a), a->getType()));
        break;
      }
      case Op::OpISubBorrow:
        first.push_back(b.CreateSub(a, c));
        second.push_back(b.CreateZExt(b.CreateICmpULT(a, c), a->getType()));
        break;
      default: {
        bool isSigned = inst.op == Op::OpSMulExtended;
        unsigned bits = a->getType()->getScalarSizeInBits();
        llvm::Type* wide = convertType(a, b.getIntNTy(bits * 2));
        llvm::Value* wa = isSigned ? b.CreateSExt(a, wide) : b.CreateZExt(a, wide);
        llvm::Value* wc = isSigned ? b.CreateSExt(c, wide) : b.CreateZExt(c, wide);
        llvm::Value* p = b.CreateMul(wa, wc);
        first.push_back(b.CreateTrunc(p, a->getType()));
        second.push_back(b.CreateTrunc(b.CreateLShr(p, t.constInt(wide, bits)), a->getType()));
        break;
      }
    }
  }
  Val out;
  out.leaves = first;
  out.leaves.insert(out.leaves.end(), second.begin(), second.end());
  t.define(inst.result, out);
}

bool Translator::translateArithmetic(const Instruction& inst) {
  ArithmeticTranslation a{*this, inst, b()};
  return a.run();
}

}  // namespace tessera::jit
