// Composites (vectors, matrices, arrays, structs as flattened leaves), shuffles, dynamic
// vector indexing, matrix arithmetic and dot products.
#include <llvm/IR/Intrinsics.h>

#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

// Leaves [start, start + count) of a composite of `type` selected by literal indices.
struct LeafRange {
  size_t start = 0;
  size_t count = 0;
  uint32_t type = 0;
};

LeafRange leafRange(const Module& m, uint32_t type, const uint32_t* indices, uint32_t n) {
  LeafRange r{0, flatComponentCount(m, type), type};
  for (uint32_t k = 0; k < n; ++k) {
    const Type* t = m.type(r.type);
    if (!t) break;
    uint32_t idx = indices[k];
    if (t->kind == TypeKind::Struct) {
      for (uint32_t i = 0; i < idx && i < t->members.size(); ++i) r.start += flatComponentCount(m, t->members[i]);
      r.type = idx < t->members.size() ? t->members[idx] : 0;
    } else {
      uint32_t elemCount = flatComponentCount(m, t->element);
      r.start += size_t(idx) * elemCount;
      r.type = t->element;
    }
    r.count = flatComponentCount(m, r.type);
  }
  return r;
}

}  // namespace

bool Translator::translateComposite(const Instruction& inst) {
  auto& B = b();
  switch (inst.op) {
    case Op::OpCompositeConstruct: {
      Val out;
      for (uint32_t i = 0; i < inst.operandCount; ++i) {
        Val part = value(inst.operand(i));
        out.leaves.insert(out.leaves.end(), part.leaves.begin(), part.leaves.end());
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpCompositeExtract: {
      uint32_t srcType = module_.resultTypeOf(inst.operand(0));
      if (!srcType) srcType = module_.constant(inst.operand(0)) ? module_.constant(inst.operand(0))->type : 0;
      Val src = value(inst.operand(0));
      LeafRange r = leafRange(module_, srcType, inst.operands + 1, inst.operandCount - 1);
      // spirv-val does not check the indices of OpSpecConstantOp CompositeExtract (found by
      // fuzz/spirv_jit_fuzzer: an index of 1280 into a 2-vector read freed memory).
      if (r.start + r.count > src.leaves.size()) fail("OpCompositeExtract: an index beyond its composite");
      const Type* rt = module_.type(inst.type);
      if (rt && rt->kind == TypeKind::Pointer) {
        definePointer(inst.result, addressToPointer(src.leaves.at(r.start), inst.type));
        return true;
      }
      Val out;
      out.leaves.assign(src.leaves.begin() + r.start, src.leaves.begin() + r.start + r.count);
      define(inst.result, out);
      return true;
    }
    case Op::OpCompositeInsert: {
      Val object = value(inst.operand(0));
      Val out = value(inst.operand(1));
      LeafRange r = leafRange(module_, inst.type, inst.operands + 2, inst.operandCount - 2);
      if (r.start + r.count > out.leaves.size()) fail("OpCompositeInsert: an index beyond its composite");
      for (size_t i = 0; i < r.count && i < object.leaves.size(); ++i) out.leaves[r.start + i] = object.leaves[i];
      define(inst.result, out);
      return true;
    }
    case Op::OpCopyObject:
    case Op::OpCopyLogical: {
      const Type* rt = module_.type(inst.type);
      if (rt && rt->kind == TypeKind::Pointer) definePointer(inst.result, pointer(inst.operand(0)));
      else define(inst.result, value(inst.operand(0)));
      return true;
    }
    case Op::OpVectorShuffle: {
      Val a = value(inst.operand(0)), c = value(inst.operand(1));
      Val all = a;
      all.leaves.insert(all.leaves.end(), c.leaves.begin(), c.leaves.end());
      Val out;
      llvm::Type* et = scalarType(componentType(inst.type));
      for (uint32_t i = 2; i < inst.operandCount; ++i) {
        uint32_t k = inst.operand(i);
        out.leaves.push_back(k < all.leaves.size() ? all.leaves[k] : llvm::Constant::getNullValue(et));
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpVectorExtractDynamic: {
      Val v = value(inst.operand(0));
      llvm::Value* index = scalarValue(inst.operand(1));
      llvm::Value* result = v.leaf(0);
      for (size_t i = 1; i < v.leaves.size(); ++i) {
        llvm::Value* hit = B.CreateICmpEQ(index, constInt(index->getType(), i));
        result = select(hit, v.leaves[i], result);
      }
      define(inst.result, Val{{result}});
      return true;
    }
    case Op::OpVectorInsertDynamic: {
      Val v = value(inst.operand(0));
      llvm::Value* comp = scalarValue(inst.operand(1));
      llvm::Value* index = scalarValue(inst.operand(2));
      for (size_t i = 0; i < v.leaves.size(); ++i) {
        llvm::Value* hit = B.CreateICmpEQ(index, constInt(index->getType(), i));
        v.leaves[i] = select(hit, comp, v.leaves[i]);
      }
      define(inst.result, v);
      return true;
    }
    case Op::OpTranspose: {
      Val m = value(inst.operand(0));
      const Type* src = module_.type(module_.resultTypeOf(inst.operand(0)));
      if (!src && module_.constant(inst.operand(0))) src = module_.type(module_.constant(inst.operand(0))->type);
      uint32_t cols = src->count, rows = componentCount(src->element);
      Val out;
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c) out.leaves.push_back(m.leaves[c * rows + r]);
      define(inst.result, out);
      return true;
    }
    default:
      break;
  }

  // Float products: contraction (FMA) allowed unless NoContraction.
  llvm::IRBuilder<>::FastMathFlagGuard guard(B);
  llvm::FastMathFlags fmf;
  if (!module_.decorations(inst.result).noContraction) fmf.setAllowContract(true);
  B.setFastMathFlags(fmf);
  auto mul = [&](llvm::Value* x, llvm::Value* y) {
    unify(x, y);
    return B.CreateFMul(x, y);
  };
  auto add = [&](llvm::Value* x, llvm::Value* y) {
    unify(x, y);
    return B.CreateFAdd(x, y);
  };
  auto typeOf = [&](uint32_t id) {
    uint32_t t = module_.resultTypeOf(id);
    if (!t && module_.constant(id)) t = module_.constant(id)->type;
    return module_.type(t);
  };
  switch (inst.op) {
    case Op::OpVectorTimesScalar:
    case Op::OpMatrixTimesScalar: {
      Val v = value(inst.operand(0));
      llvm::Value* s = scalarValue(inst.operand(1));
      for (llvm::Value*& l : v.leaves) l = mul(l, s);
      define(inst.result, v);
      return true;
    }
    case Op::OpDot: {
      Val x = value(inst.operand(0)), y = value(inst.operand(1));
      llvm::Value* acc = mul(x.leaves[0], y.leaves[0]);
      for (size_t i = 1; i < x.leaves.size(); ++i) acc = add(acc, mul(x.leaves[i], y.leaves[i]));
      define(inst.result, Val{{acc}});
      return true;
    }
    case Op::OpVectorTimesMatrix: {
      Val v = value(inst.operand(0)), m = value(inst.operand(1));
      const Type* mt = typeOf(inst.operand(1));
      uint32_t cols = mt->count, rows = componentCount(mt->element);
      Val out;
      for (uint32_t c = 0; c < cols; ++c) {
        llvm::Value* acc = mul(v.leaves[0], m.leaves[c * rows]);
        for (uint32_t r = 1; r < rows; ++r) acc = add(acc, mul(v.leaves[r], m.leaves[c * rows + r]));
        out.leaves.push_back(acc);
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpMatrixTimesVector: {
      Val m = value(inst.operand(0)), v = value(inst.operand(1));
      const Type* mt = typeOf(inst.operand(0));
      uint32_t cols = mt->count, rows = componentCount(mt->element);
      Val out;
      for (uint32_t r = 0; r < rows; ++r) {
        llvm::Value* acc = mul(m.leaves[r], v.leaves[0]);
        for (uint32_t c = 1; c < cols; ++c) acc = add(acc, mul(m.leaves[c * rows + r], v.leaves[c]));
        out.leaves.push_back(acc);
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpMatrixTimesMatrix: {
      Val a = value(inst.operand(0)), c = value(inst.operand(1));
      const Type* at = typeOf(inst.operand(0));
      const Type* ct = typeOf(inst.operand(1));
      uint32_t k = at->count, rows = componentCount(at->element), cols = ct->count;
      Val out;
      for (uint32_t col = 0; col < cols; ++col)
        for (uint32_t r = 0; r < rows; ++r) {
          llvm::Value* acc = mul(a.leaves[r], c.leaves[col * k]);
          for (uint32_t i = 1; i < k; ++i) acc = add(acc, mul(a.leaves[i * rows + r], c.leaves[col * k + i]));
          out.leaves.push_back(acc);
        }
      define(inst.result, out);
      return true;
    }
    case Op::OpOuterProduct: {
      Val x = value(inst.operand(0)), y = value(inst.operand(1));
      Val out;
      for (size_t c = 0; c < y.leaves.size(); ++c)
        for (size_t r = 0; r < x.leaves.size(); ++r) out.leaves.push_back(mul(x.leaves[r], y.leaves[c]));
      define(inst.result, out);
      return true;
    }
    case Op::OpSDot:
    case Op::OpUDot:
    case Op::OpSUDot:
    case Op::OpSDotAccSat:
    case Op::OpUDotAccSat:
    case Op::OpSUDotAccSat: {
      bool acc = inst.op == Op::OpSDotAccSat || inst.op == Op::OpUDotAccSat || inst.op == Op::OpSUDotAccSat;
      bool signedA = inst.op == Op::OpSDot || inst.op == Op::OpSDotAccSat || inst.op == Op::OpSUDot || inst.op == Op::OpSUDotAccSat;
      bool signedB = inst.op == Op::OpSDot || inst.op == Op::OpSDotAccSat;
      Val x = value(inst.operand(0)), y = value(inst.operand(1));
      uint32_t nextOperand = 2;
      llvm::Value* accumulator = nullptr;
      if (acc) accumulator = scalarValue(inst.operand(nextOperand++));
      bool packed = nextOperand < inst.operandCount;  // PackedVectorFormat4x8Bit
      auto unpack = [&](const Val& v) {
        if (!packed) return v.leaves;
        std::vector<llvm::Value*> bytes;
        llvm::Value* w = v.leaf(0);
        llvm::Type* i8 = w->getType()->isVectorTy() ? laneType(B.getInt8Ty()) : B.getInt8Ty();
        for (int i = 0; i < 4; ++i) bytes.push_back(B.CreateTrunc(B.CreateLShr(w, constInt(w->getType(), 8 * i)), i8));
        return bytes;
      };
      // spirv-val (SPIRV-Tools 2023.1, Debian 12) does not check the integer dot product's
      // operand shapes, so a module can pair vectors of different sizes or non-integer components;
      // refuse it here rather than read past a vector's leaves (fuzz finding
      // spirv_jit-crash-a1051be5, docs/fuzzing.md).
      llvm::Type* rt = scalarType(inst.type);
      auto isInt = [](llvm::Value* v, unsigned bits = 0) {
        llvm::Type* t = v->getType()->getScalarType();
        return t->isIntegerTy() && (bits == 0 || t->getIntegerBitWidth() == bits);
      };
      if (!rt->isIntegerTy()) fail("integer dot product: the result type is not an integer");
      if (packed && (x.leaves.size() != 1 || y.leaves.size() != 1 || !isInt(x.leaf(0), 32) || !isInt(y.leaf(0), 32)))
        fail("integer dot product: PackedVectorFormat4x8Bit operands are not 32-bit integer scalars");
      if (!packed && (x.leaves.empty() || x.leaves.size() != y.leaves.size()))
        fail("integer dot product: the operands are not vectors of the same size");
      for (auto* v : x.leaves)
        if (!isInt(v)) fail("integer dot product: an operand is not an integer vector");
      for (auto* v : y.leaves)
        if (!isInt(v)) fail("integer dot product: an operand is not an integer vector");
      if (accumulator && !isInt(accumulator, rt->getIntegerBitWidth()))
        fail("integer dot product: the accumulator's type is not the result type");
      std::vector<llvm::Value*> xa = unpack(x), ya = unpack(y);
      unsigned compBits = std::max(xa[0]->getType()->getScalarSizeInBits(), ya[0]->getType()->getScalarSizeInBits());
      // Exact intermediate: products of n-bit values need 2n bits, plus a few for the sum.
      unsigned wideBits = std::max<unsigned>(compBits <= 16 ? 64 : 128, rt->getIntegerBitWidth() * 2);
      bool vec = false;
      for (auto* v : xa) vec |= v->getType()->isVectorTy();
      for (auto* v : ya) vec |= v->getType()->isVectorTy();
      if (accumulator) vec |= accumulator->getType()->isVectorTy();
      llvm::Type* wt = vec ? laneType(B.getIntNTy(wideBits)) : static_cast<llvm::Type*>(B.getIntNTy(wideBits));
      auto ext = [&](llvm::Value* v, bool s) {
        if (vec) v = splat(v);
        return s ? B.CreateSExt(v, wt) : B.CreateZExt(v, wt);
      };
      llvm::Value* sum = llvm::Constant::getNullValue(wt);
      for (size_t i = 0; i < xa.size(); ++i) sum = B.CreateAdd(sum, B.CreateMul(ext(xa[i], signedA), ext(ya[i], signedB)));
      llvm::Type* rtv = vec ? laneType(rt) : rt;
      llvm::Value* result;
      if (!acc) {
        result = B.CreateTrunc(sum, rtv);
      } else {
        bool signedResult = signedA;  // SDot and SUDot saturate as signed, UDot as unsigned
        sum = B.CreateAdd(sum, ext(accumulator, signedResult));
        unsigned rb = rt->getIntegerBitWidth();
        if (signedResult) {
          llvm::Value* hi = constInt(wt, llvm::APInt::getSignedMaxValue(rb).getZExtValue());
          llvm::Value* lo = B.CreateSExt(constInt(rtv, llvm::APInt::getSignedMinValue(rb).getZExtValue()), wt);
          sum = B.CreateSelect(B.CreateICmpSGT(sum, hi), hi, sum);
          sum = B.CreateSelect(B.CreateICmpSLT(sum, lo), lo, sum);
        } else {
          llvm::Value* hi = B.CreateZExt(llvm::Constant::getAllOnesValue(rtv), wt);
          sum = B.CreateSelect(B.CreateICmpUGT(sum, hi), hi, sum);
        }
        result = B.CreateTrunc(sum, rtv);
      }
      define(inst.result, Val{{result}});
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tessera::jit
