// Subgroup operations. A subgroup is one SIMD batch (SubgroupSize = W), so every operation is
// a cross-lane operation on the batch's vectors, over the lanes active in the current block:
// inactive lanes contribute the operation's identity. Ballots fit in the first component of
// the uvec4 because W <= 32.
#include <algorithm>

#include <llvm/IR/Intrinsics.h>

#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

enum class Reduction { Add, Mul, Min, Max, And, Or, Xor };

struct Subgroup {
  Translator& t;
  const Instruction& inst;
  llvm::IRBuilder<>& B;

  uint32_t W() const { return t.width(); }

  llvm::Value* bits(llvm::Value* mask) {  // <W x i1> -> i32 ballot word
    llvm::Value* m = B.CreateBitCast(t.splat(mask), B.getIntNTy(W()));
    return B.CreateZExt(m, B.getInt32Ty());
  }

  // Lane-permuted copy: result lane l = v[index[l]] (index clamped into the subgroup).
  llvm::Value* permute(llvm::Value* v, llvm::Value* index) {
    if (!v->getType()->isVectorTy()) return v;
    llvm::Type* elem = v->getType()->getScalarType();
    llvm::Type* memElem = elem->isIntegerTy(1) ? B.getInt8Ty() : elem;
    llvm::Value* stored = elem->isIntegerTy(1) ? B.CreateZExt(v, t.laneType(B.getInt8Ty())) : v;
    llvm::AllocaInst* slot = t.entryAlloca(t.laneType(memElem), 64);
    B.CreateStore(stored, slot);
    llvm::Value* idx = B.CreateAnd(t.splat(B.CreateZExtOrTrunc(index, index->getType()->isVectorTy()
                                                                         ? t.laneType(B.getInt32Ty())
                                                                         : static_cast<llvm::Type*>(B.getInt32Ty()))),
                                   t.splat(B.getInt32(W() - 1)));
    llvm::Value* ptrs = B.CreateGEP(memElem, slot, idx);
    llvm::Value* r = B.CreateMaskedGather(t.laneType(memElem), ptrs, llvm::Align(1), t.allOnes(),
                                          llvm::Constant::getNullValue(t.laneType(memElem)));
    return elem->isIntegerTy(1) ? B.CreateICmpNE(r, llvm::Constant::getNullValue(r->getType())) : r;
  }

  // Constant lane shuffle: lane l takes source lane map(l), or `fill` when map(l) < 0.
  template <typename F>
  llvm::Value* shuffle(llvm::Value* v, llvm::Value* fill, F map) {
    v = t.splat(v);
    std::vector<int> m;
    for (uint32_t l = 0; l < W(); ++l) {
      int s = map(int(l));
      m.push_back(s < 0 || s >= int(W()) ? int(W() + l) : s);
    }
    return B.CreateShuffleVector(v, t.splat(fill), m);
  }

  Reduction reductionOf(Op op, bool* isFloat, bool* isSigned) {
    *isFloat = false;
    *isSigned = false;
    switch (op) {
      case Op::OpGroupNonUniformIAdd: return Reduction::Add;
      case Op::OpGroupNonUniformFAdd: *isFloat = true; return Reduction::Add;
      case Op::OpGroupNonUniformIMul: return Reduction::Mul;
      case Op::OpGroupNonUniformFMul: *isFloat = true; return Reduction::Mul;
      case Op::OpGroupNonUniformSMin: *isSigned = true; return Reduction::Min;
      case Op::OpGroupNonUniformUMin: return Reduction::Min;
      case Op::OpGroupNonUniformFMin: *isFloat = true; return Reduction::Min;
      case Op::OpGroupNonUniformSMax: *isSigned = true; return Reduction::Max;
      case Op::OpGroupNonUniformUMax: return Reduction::Max;
      case Op::OpGroupNonUniformFMax: *isFloat = true; return Reduction::Max;
      case Op::OpGroupNonUniformBitwiseAnd:
      case Op::OpGroupNonUniformLogicalAnd: return Reduction::And;
      case Op::OpGroupNonUniformBitwiseOr:
      case Op::OpGroupNonUniformLogicalOr: return Reduction::Or;
      default: return Reduction::Xor;
    }
  }

  llvm::Value* identity(Reduction r, llvm::Type* elem, bool isFloat, bool isSigned) {
    if (isFloat) {
      switch (r) {
        case Reduction::Add: return llvm::ConstantFP::get(elem, 0.0);
        case Reduction::Mul: return llvm::ConstantFP::get(elem, 1.0);
        case Reduction::Min: return llvm::ConstantFP::getInfinity(elem, false);
        default: return llvm::ConstantFP::getInfinity(elem, true);
      }
    }
    unsigned bits = elem->getIntegerBitWidth();
    switch (r) {
      case Reduction::Add:
      case Reduction::Or:
      case Reduction::Xor: return llvm::ConstantInt::get(elem, 0);
      case Reduction::Mul: return llvm::ConstantInt::get(elem, 1);
      case Reduction::And: return llvm::Constant::getAllOnesValue(elem);
      case Reduction::Min:
        return llvm::ConstantInt::get(elem, isSigned ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits));
      default:
        return llvm::ConstantInt::get(elem, isSigned ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits));
    }
  }

  llvm::Value* combine(Reduction r, llvm::Value* a, llvm::Value* c, bool isFloat, bool isSigned) {
    switch (r) {
      case Reduction::Add: return isFloat ? B.CreateFAdd(a, c) : B.CreateAdd(a, c);
      case Reduction::Mul: return isFloat ? B.CreateFMul(a, c) : B.CreateMul(a, c);
      case Reduction::Min:
        if (isFloat) return B.CreateIntrinsic(llvm::Intrinsic::minnum, {a->getType()}, {a, c});
        return B.CreateIntrinsic(isSigned ? llvm::Intrinsic::smin : llvm::Intrinsic::umin, {a->getType()}, {a, c});
      case Reduction::Max:
        if (isFloat) return B.CreateIntrinsic(llvm::Intrinsic::maxnum, {a->getType()}, {a, c});
        return B.CreateIntrinsic(isSigned ? llvm::Intrinsic::smax : llvm::Intrinsic::umax, {a->getType()}, {a, c});
      case Reduction::And: return B.CreateAnd(a, c);
      case Reduction::Or: return B.CreateOr(a, c);
      default: return B.CreateXor(a, c);
    }
  }

  // One leaf of an arithmetic group operation.
  llvm::Value* groupArithmetic(Reduction r, spv::GroupOperation gop, llvm::Value* v, bool isFloat, bool isSigned,
                               uint32_t clusterSize) {
    llvm::Type* elem = v->getType()->getScalarType();
    llvm::Value* id = identity(r, elem, isFloat, isSigned);
    llvm::Value* x = B.CreateSelect(t.mask(), t.splat(v), t.splat(id));
    switch (gop) {
      case spv::GroupOperation::Reduce: {
        llvm::Value* acc = x;
        for (uint32_t d = W() / 2; d >= 1; d /= 2)
          acc = combine(r, acc, shuffle(acc, id, [&](int l) { return l ^ int(d); }), isFloat, isSigned);
        return B.CreateExtractElement(acc, uint64_t(0));
      }
      case spv::GroupOperation::InclusiveScan:
      case spv::GroupOperation::ExclusiveScan: {
        llvm::Value* acc = x;
        for (uint32_t d = 1; d < W(); d *= 2)
          acc = combine(r, acc, shuffle(acc, id, [&](int l) { return l - int(d); }), isFloat, isSigned);
        if (gop == spv::GroupOperation::ExclusiveScan) acc = shuffle(acc, id, [&](int l) { return l - 1; });
        return acc;
      }
      case spv::GroupOperation::ClusteredReduce: {
        llvm::Value* acc = x;
        for (uint32_t d = 1; d < clusterSize && d < W(); d *= 2)
          acc = combine(r, acc, shuffle(acc, id, [&](int l) { return l ^ int(d); }), isFloat, isSigned);
        return acc;
      }
      default:
        t.fail("unsupported subgroup group operation " + std::to_string(uint32_t(gop)));
    }
  }

  Val leafwise(const Val& v, const std::function<llvm::Value*(llvm::Value*)>& f) {
    Val out;
    for (llvm::Value* l : v.leaves) out.leaves.push_back(f(l));
    return out;
  }

  bool run();
};

bool Subgroup::run() {
  const auto& o = inst;
  auto scopeIsSubgroup = [&](uint32_t operand) {
    auto scope = t.spirv().constantValue(o.operand(operand));
    return !scope || *scope == uint32_t(spv::Scope::Subgroup);
  };
  llvm::Value* lane = t.laneIndex();
  switch (o.op) {
    case Op::OpGroupNonUniformElect: {
      llvm::Value* first = B.CreateIntrinsic(llvm::Intrinsic::cttz, {B.getIntNTy(W())},
                                             {B.CreateBitCast(t.mask(), B.getIntNTy(W())), B.getTrue()});
      first = B.CreateZExtOrTrunc(first, B.getInt32Ty());
      t.define(o.result, Val{{B.CreateICmpEQ(lane, t.splat(first))}});
      return true;
    }
    case Op::OpGroupNonUniformAll:
    case Op::OpSubgroupAllKHR:
    case Op::OpGroupNonUniformAny:
    case Op::OpSubgroupAnyKHR: {
      bool isAll = o.op == Op::OpGroupNonUniformAll || o.op == Op::OpSubgroupAllKHR;
      llvm::Value* pred = t.splat(t.scalarValue(o.operand(o.op == Op::OpGroupNonUniformAll || o.op == Op::OpGroupNonUniformAny ? 1 : 0)));
      llvm::Value* r = isAll ? t.all(B.CreateOr(pred, B.CreateNot(t.mask()))) : t.any(B.CreateAnd(pred, t.mask()));
      t.define(o.result, Val{{r}});
      return true;
    }
    case Op::OpGroupNonUniformAllEqual:
    case Op::OpSubgroupAllEqualKHR: {
      Val v = t.value(o.operand(o.op == Op::OpGroupNonUniformAllEqual ? 1 : 0));
      llvm::Value* equal = B.getTrue();
      for (llvm::Value* leaf : v.leaves) {
        if (!leaf->getType()->isVectorTy()) continue;
        llvm::Value* first = t.uniformize(leaf);
        llvm::Value* same = leaf->getType()->isFPOrFPVectorTy() ? B.CreateFCmpOEQ(leaf, t.splat(first))
                                                               : B.CreateICmpEQ(leaf, t.splat(first));
        equal = B.CreateAnd(equal, t.all(B.CreateOr(same, B.CreateNot(t.mask()))));
      }
      t.define(o.result, Val{{equal}});
      return true;
    }
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpSubgroupReadInvocationKHR: {
      bool khr = o.op == Op::OpSubgroupReadInvocationKHR;
      Val v = t.value(o.operand(khr ? 0 : 1));
      llvm::Value* id = t.uniformize(t.scalarValue(o.operand(khr ? 1 : 2)));
      id = B.CreateAnd(B.CreateZExtOrTrunc(id, B.getInt32Ty()), B.getInt32(W() - 1));
      t.define(o.result, leafwise(v, [&](llvm::Value* l) { return t.extractLane(l, id); }));
      return true;
    }
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpSubgroupFirstInvocationKHR: {
      Val v = t.value(o.operand(o.op == Op::OpGroupNonUniformBroadcastFirst ? 1 : 0));
      t.define(o.result, leafwise(v, [&](llvm::Value* l) { return t.uniformize(l); }));
      return true;
    }
    case Op::OpGroupNonUniformBallot:
    case Op::OpSubgroupBallotKHR: {
      llvm::Value* pred = t.scalarValue(o.operand(o.op == Op::OpGroupNonUniformBallot ? 1 : 0));
      llvm::Value* word = bits(B.CreateAnd(t.splat(pred), t.mask()));
      t.define(o.result, Val{{word, B.getInt32(0), B.getInt32(0), B.getInt32(0)}});
      return true;
    }
    case Op::OpGroupNonUniformInverseBallot: {
      llvm::Value* word = t.value(o.operand(1)).leaf(0);
      llvm::Value* bit = B.CreateAnd(B.CreateLShr(t.splat(word), lane), t.splat(B.getInt32(1)));
      t.define(o.result, Val{{B.CreateICmpNE(bit, t.splat(B.getInt32(0)))}});
      return true;
    }
    case Op::OpGroupNonUniformBallotBitExtract: {
      Val v = t.value(o.operand(1));
      llvm::Value* index = t.scalarValue(o.operand(2));
      index = B.CreateZExtOrTrunc(index, index->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty());
      llvm::Value* word = v.leaf(0);
      for (uint32_t c = 1; c < 4; ++c) {
        llvm::Value* inWord = B.CreateICmpEQ(B.CreateLShr(index, t.constInt(index->getType(), 5)), t.constInt(index->getType(), c));
        word = t.select(inWord, v.leaf(c), word);
      }
      llvm::Value* shift = B.CreateAnd(index, t.constInt(index->getType(), 31));
      llvm::Value* w = word, *s = shift;
      t.unify(w, s);
      llvm::Value* bit = B.CreateAnd(B.CreateLShr(w, s), t.constInt(w->getType(), 1));
      t.define(o.result, Val{{B.CreateICmpNE(bit, llvm::Constant::getNullValue(bit->getType()))}});
      return true;
    }
    case Op::OpGroupNonUniformBallotBitCount: {
      auto gop = spv::GroupOperation(o.operand(1));
      llvm::Value* word = t.value(o.operand(2)).leaf(0);
      llvm::Value* r;
      if (gop == spv::GroupOperation::Reduce) {
        // The ballot may differ per lane (any uvec4 is allowed): keep whatever shape it has.
        llvm::Value* bitsOf = t.constInt(word->getType(), W() >= 32 ? ~0u : (1u << W()) - 1);
        r = B.CreateIntrinsic(llvm::Intrinsic::ctpop, {word->getType()}, {B.CreateAnd(word, bitsOf)});
      } else {
        llvm::Value* one = t.splat(B.getInt32(1));
        llvm::Value* upto = gop == spv::GroupOperation::InclusiveScan ? B.CreateSub(B.CreateShl(B.CreateShl(one, lane), one), one)
                                                                      : B.CreateSub(B.CreateShl(one, lane), one);
        llvm::Value* m = B.CreateAnd(t.splat(word), upto);
        r = B.CreateIntrinsic(llvm::Intrinsic::ctpop, {m->getType()}, {m});
      }
      t.define(o.result, Val{{r}});
      return true;
    }
    case Op::OpGroupNonUniformBallotFindLSB:
    case Op::OpGroupNonUniformBallotFindMSB: {
      // Only the bits of the subgroup's own invocations count (the first W bits of word 0).
      llvm::Value* w = t.value(o.operand(1)).leaf(0);
      llvm::Value* subgroupBits = t.constInt(w->getType(), W() >= 32 ? ~0u : (1u << W()) - 1);
      w = B.CreateAnd(w, subgroupBits);
      llvm::Value* r = o.op == Op::OpGroupNonUniformBallotFindLSB
                           ? B.CreateIntrinsic(llvm::Intrinsic::cttz, {w->getType()}, {w, B.getFalse()})
                           : B.CreateSub(t.constInt(w->getType(), 31),
                                         B.CreateIntrinsic(llvm::Intrinsic::ctlz, {w->getType()}, {w, B.getFalse()}));
      t.define(o.result, Val{{r}});
      return true;
    }
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown: {
      Val v = t.value(o.operand(1));
      llvm::Value* arg = t.splat(B.CreateZExtOrTrunc(t.scalarValue(o.operand(2)), B.getInt32Ty()));
      if (arg->getType()->getScalarType() != B.getInt32Ty()) arg = B.CreateZExtOrTrunc(arg, t.laneType(B.getInt32Ty()));
      llvm::Value* index = arg;
      if (o.op == Op::OpGroupNonUniformShuffleXor) index = B.CreateXor(lane, arg);
      if (o.op == Op::OpGroupNonUniformShuffleUp) index = B.CreateSub(lane, arg);
      if (o.op == Op::OpGroupNonUniformShuffleDown) index = B.CreateAdd(lane, arg);
      t.define(o.result, leafwise(v, [&](llvm::Value* l) { return permute(l, index); }));
      return true;
    }
    case Op::OpGroupNonUniformRotateKHR: {
      // SPV_KHR_subgroup_rotate: lane l reads lane (l - l % C) + (l % C + Delta) % C, C the
      // ClusterSize operand (a power of two, at most the subgroup's) or the subgroup size.
      Val v = t.value(o.operand(1));
      llvm::Value* delta = t.splat(B.CreateZExtOrTrunc(t.scalarValue(o.operand(2)), B.getInt32Ty()));
      if (delta->getType()->getScalarType() != B.getInt32Ty()) delta = B.CreateZExtOrTrunc(delta, t.laneType(B.getInt32Ty()));
      uint32_t cluster = W();
      if (o.operandCount > 3) {
        const auto size = t.spirv().constantValue(o.operand(3));
        if (!size || *size == 0 || (*size & (*size - 1)) != 0) t.fail("OpGroupNonUniformRotateKHR: ClusterSize must be a constant power of two");
        cluster = std::min<uint32_t>(uint32_t(size.value_or(W())), W());
      }
      llvm::Value* within = t.splat(B.getInt32(cluster - 1));
      llvm::Value* index = B.CreateOr(B.CreateAnd(lane, t.splat(B.getInt32(~(cluster - 1)))), B.CreateAnd(B.CreateAdd(lane, delta), within));
      t.define(o.result, leafwise(v, [&](llvm::Value* l) { return permute(l, index); }));
      return true;
    }
    case Op::OpGroupNonUniformQuadBroadcast: {
      Val v = t.value(o.operand(1));
      llvm::Value* idx = t.scalarValue(o.operand(2));
      auto constIdx = t.spirv().constantValue(o.operand(2));
      if (constIdx) {
        int q = int(*constIdx & 3);
        t.define(o.result, leafwise(v, [&](llvm::Value* l) {
          return shuffle(l, llvm::UndefValue::get(l->getType()->getScalarType()), [&](int ln) { return (ln & ~3) | q; });
        }));
      } else {
        llvm::Value* index = B.CreateOr(B.CreateAnd(lane, t.splat(B.getInt32(~3u))),
                                        B.CreateAnd(t.splat(B.CreateZExtOrTrunc(idx, idx->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty())),
                                                    t.splat(B.getInt32(3))));
        t.define(o.result, leafwise(v, [&](llvm::Value* l) { return permute(l, index); }));
      }
      return true;
    }
    case Op::OpGroupNonUniformQuadSwap: {
      Val v = t.value(o.operand(1));
      int x = int(t.spirv().constantValue(o.operand(2)).value_or(0)) + 1;  // 0: ^1, 1: ^2, 2: ^3
      t.define(o.result, leafwise(v, [&](llvm::Value* l) {
        return shuffle(l, llvm::UndefValue::get(l->getType()->getScalarType()), [&](int ln) { return ln ^ x; });
      }));
      return true;
    }
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformFMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
    case Op::OpGroupNonUniformLogicalAnd:
    case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor: {
      if (!scopeIsSubgroup(0)) t.fail("group operations are only supported at subgroup scope");
      bool isFloat, isSigned;
      Reduction r = reductionOf(o.op, &isFloat, &isSigned);
      auto gop = spv::GroupOperation(o.operand(1));
      uint32_t cluster = 0;
      if (gop == spv::GroupOperation::ClusteredReduce) cluster = uint32_t(t.spirv().constantValue(o.operand(3)).value_or(1));
      Val v = t.value(o.operand(2));
      t.define(o.result, leafwise(v, [&](llvm::Value* l) { return groupArithmetic(r, gop, l, isFloat, isSigned, cluster); }));
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

bool Translator::translateSubgroup(const Instruction& inst) {
  Subgroup s{*this, inst, b()};
  return s.run();
}

// The subgroup built-ins every stage with subgroups shares: a subgroup is one batch, so the
// invocation's index in it is its lane and the masks are bits of the lane.
Val Translator::subgroupBuiltInValue(spv::BuiltIn builtIn) {
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Value* lane = laneIndex();
  Val v;
  switch (builtIn) {
    case spv::BuiltIn::SubgroupSize:
      v.leaves = {B.getInt32(width())};
      break;
    case spv::BuiltIn::SubgroupLocalInvocationId:
      v.leaves = {lane};
      break;
    default: {
      llvm::Type* vi = laneType(i32);
      llvm::Value* one = constInt(vi, 1);
      llvm::Value* bit = B.CreateShl(one, lane);
      llvm::Value* subgroup = constInt(vi, width() >= 32 ? ~0u : ((1u << width()) - 1));
      llvm::Value* m = nullptr;
      switch (builtIn) {
        case spv::BuiltIn::SubgroupEqMask: m = bit; break;
        case spv::BuiltIn::SubgroupGeMask: m = B.CreateAnd(B.CreateNeg(bit), subgroup); break;
        case spv::BuiltIn::SubgroupGtMask: m = B.CreateAnd(B.CreateShl(B.CreateNeg(bit), one), subgroup); break;
        case spv::BuiltIn::SubgroupLeMask: m = B.CreateSub(B.CreateShl(bit, one), one); break;
        case spv::BuiltIn::SubgroupLtMask: m = B.CreateSub(bit, one); break;
        default: fail("not a subgroup built-in: " + std::to_string(uint32_t(builtIn)));
      }
      v.leaves = {m, B.getInt32(0), B.getInt32(0), B.getInt32(0)};
      break;
    }
  }
  return v;
}

}  // namespace tessera::jit
