// Atomics and barriers. Atomics run lane by lane over the active lanes (each lane's operation
// is a separate atomic, in lane order), so every invocation gets its own result. A workgroup
// control barrier calls the runtime, which switches to the workgroup's other batches.
#include <llvm/IR/Intrinsics.h>

#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

llvm::AtomicOrdering orderingFor(uint32_t semantics) {
  using M = spv::MemorySemanticsMask;
  uint32_t order = semantics & (uint32_t(M::Acquire) | uint32_t(M::Release) | uint32_t(M::AcquireRelease) |
                                uint32_t(M::SequentiallyConsistent));
  if (!order) return llvm::AtomicOrdering::Monotonic;
  if (order & uint32_t(M::SequentiallyConsistent)) return llvm::AtomicOrdering::SequentiallyConsistent;
  if (order & uint32_t(M::AcquireRelease)) return llvm::AtomicOrdering::AcquireRelease;
  if ((order & uint32_t(M::Acquire)) && (order & uint32_t(M::Release))) return llvm::AtomicOrdering::AcquireRelease;
  if (order & uint32_t(M::Acquire)) return llvm::AtomicOrdering::Acquire;
  return llvm::AtomicOrdering::Release;
}

}  // namespace

bool Translator::translateAtomicOrBarrier(const Instruction& inst) {
  auto& B = b();
  switch (inst.op) {
    case Op::OpControlBarrier: {
      auto exec = module_.constantValue(inst.operand(0)).value_or(uint32_t(spv::Scope::Workgroup));
      auto sem = module_.constantValue(inst.operand(2)).value_or(0);
      if (sem) B.CreateFence(llvm::AtomicOrdering::AcquireRelease);
      if (exec == uint32_t(spv::Scope::Workgroup) || exec == uint32_t(spv::Scope::Device) ||
          exec == uint32_t(spv::Scope::QueueFamily)) {
        usesBarrier_ = true;
        if (resumable_) {
          suspendAtBarrier();
        } else {
          auto fn = runtime("tessera_rt_barrier", llvm::FunctionType::get(B.getVoidTy(), {B.getPtrTy()}, false));
          B.CreateCall(fn, {workgroupState()});
        }
      }
      return true;
    }
    case Op::OpMemoryBarrier: {
      auto sem = module_.constantValue(inst.operand(1)).value_or(0);
      if (sem & uint32_t(spv::MemorySemanticsMask::SequentiallyConsistent))
        B.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
      else if (sem)
        B.CreateFence(llvm::AtomicOrdering::AcquireRelease);
      return true;
    }
    default:
      break;
  }

  llvm::AtomicRMWInst::BinOp rmw = llvm::AtomicRMWInst::BAD_BINOP;
  bool hasValue = true;
  switch (inst.op) {
    case Op::OpAtomicExchange: rmw = llvm::AtomicRMWInst::Xchg; break;
    case Op::OpAtomicIAdd: rmw = llvm::AtomicRMWInst::Add; break;
    case Op::OpAtomicISub: rmw = llvm::AtomicRMWInst::Sub; break;
    case Op::OpAtomicSMin: rmw = llvm::AtomicRMWInst::Min; break;
    case Op::OpAtomicUMin: rmw = llvm::AtomicRMWInst::UMin; break;
    case Op::OpAtomicSMax: rmw = llvm::AtomicRMWInst::Max; break;
    case Op::OpAtomicUMax: rmw = llvm::AtomicRMWInst::UMax; break;
    case Op::OpAtomicAnd: rmw = llvm::AtomicRMWInst::And; break;
    case Op::OpAtomicOr: rmw = llvm::AtomicRMWInst::Or; break;
    case Op::OpAtomicXor: rmw = llvm::AtomicRMWInst::Xor; break;
    case Op::OpAtomicFAddEXT: rmw = llvm::AtomicRMWInst::FAdd; break;
    case Op::OpAtomicFMinEXT: rmw = llvm::AtomicRMWInst::FMin; break;
    case Op::OpAtomicFMaxEXT: rmw = llvm::AtomicRMWInst::FMax; break;
    case Op::OpAtomicIIncrement: rmw = llvm::AtomicRMWInst::Add; hasValue = false; break;
    case Op::OpAtomicIDecrement: rmw = llvm::AtomicRMWInst::Sub; hasValue = false; break;
    case Op::OpAtomicLoad:
    case Op::OpAtomicStore:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
      break;
    default:
      return false;
  }

  Ptr p = pointer(inst.operand(0));
  uint32_t valueType = inst.op == Op::OpAtomicStore ? p.pointee : inst.type;
  llvm::Type* vt = scalarType(valueType);
  uint32_t size = uint32_t(vt->getPrimitiveSizeInBits() / 8);
  llvm::Value* addresses = nullptr;   // i64 per lane (or scalar)
  llvm::Value* inb = nullptr;
  if (p.kind == Ptr::Kind::Memory) {
    addresses = pointerToAddress(p);
    if (p.limit) {
      // offset <= limit - size (and limit >= size): no overflow whatever the offset; with
      // absolute offsets also offset >= floor (see MemoryTranslation::inBounds).
      llvm::Value* off = p.offset ? p.offset : constInt(p.limit->getType()->getScalarType(), 0);
      llvm::Value* lim = p.limit;
      unify(off, lim);
      llvm::Value* sz = constInt(lim->getType(), size);
      inb = B.CreateAnd(B.CreateICmpUGE(lim, sz), B.CreateICmpULE(off, B.CreateSub(lim, sz)));
      if (p.floor) {
        llvm::Value* floor = p.floor;
        unify(off, floor);
        llvm::Value* above = B.CreateICmpUGE(off, floor);
        unify(inb, above);
        inb = B.CreateAnd(inb, above);
      }
    }
  } else if (p.kind == Ptr::Kind::LaneMemory) {
    // Atomics on per-invocation memory: each lane owns its slot.
    llvm::Type* v64 = laneType(B.getInt64Ty());
    llvm::Value* off = p.offset ? p.offset : B.getInt64(0);
    off = splat(B.CreateSExtOrTrunc(off, off->getType()->isVectorTy() ? v64 : B.getInt64Ty()));
    llvm::Value* laneOff = B.CreateAdd(B.CreateMul(off, constInt(v64, width())),
                                       B.CreateMul(B.CreateZExt(laneIndex(), v64), constInt(v64, size)));
    addresses = B.CreateAdd(splat(B.CreatePtrToInt(p.base, B.getInt64Ty())), laneOff);
  } else {
    if (inst.result) define(inst.result, Val{{llvm::Constant::getNullValue(vt)}});
    return true;
  }

  uint32_t semOperand = 2;
  auto semantics = module_.constantValue(inst.operand(semOperand)).value_or(0);
  llvm::AtomicOrdering order = orderingFor(uint32_t(semantics));
  llvm::Value* value = nullptr;
  llvm::Value* comparator = nullptr;
  switch (inst.op) {
    case Op::OpAtomicStore: value = scalarValue(inst.operand(3)); break;
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
      value = scalarValue(inst.operand(4));
      comparator = scalarValue(inst.operand(5));
      break;
    case Op::OpAtomicLoad:
      break;
    default:
      value = hasValue ? scalarValue(inst.operand(3)) : constInt(vt, 1);
      break;
  }
  // Helper invocations perform no atomics (their results are undefined: 0 here).
  llvm::Value* laneMask = p.kind == Ptr::Kind::LaneMemory ? mask_ : sideEffectMask();
  if (inb) laneMask = B.CreateAnd(laneMask, splat(inb));
  if (p.validLanes) laneMask = B.CreateAnd(laneMask, splat(p.validLanes));
  llvm::Type* resultTy = laneType(vt);
  // The lane loop reads each lane's address and operands from memory and writes each result
  // there: an extractelement or insertelement with a variable lane index is, in LLVM's x86
  // code, a spill of the whole vector and a reload in every iteration (and the inserts a
  // dependency chain through the result vector), several times the atomic's own cost.
  llvm::IRBuilder<> entry(&*B.GetInsertBlock()->getParent()->getEntryBlock().getFirstInsertionPt());
  auto spill = [&](llvm::Value* v) -> llvm::AllocaInst* {
    if (!v || !isVector(v)) return nullptr;
    llvm::AllocaInst* slot = entry.CreateAlloca(v->getType());
    B.CreateStore(v, slot);
    return slot;
  };
  auto laneValue = [&](llvm::Value* v, llvm::AllocaInst* slot, llvm::Value* lane) -> llvm::Value* {
    if (!slot) return v;  // the same for every lane
    llvm::Type* element = v->getType()->getScalarType();
    return B.CreateLoad(element, B.CreateGEP(element, slot, lane));
  };
  llvm::AllocaInst* addressSlot = spill(addresses);
  llvm::AllocaInst* valueSlot = spill(value);
  llvm::AllocaInst* comparatorSlot = spill(comparator);
  llvm::AllocaInst* result = nullptr;
  if (inst.result) {
    result = entry.CreateAlloca(resultTy);
    B.CreateStore(llvm::Constant::getNullValue(resultTy), result);
  }
  forEachActiveLane(laneMask, [&](llvm::Value* lane) {
    llvm::Value* addr = B.CreateIntToPtr(laneValue(addresses, addressSlot, lane), B.getPtrTy());
    llvm::Value* old = nullptr;
    llvm::MaybeAlign align(size);
    switch (inst.op) {
      case Op::OpAtomicLoad: {
        auto* l = B.CreateAlignedLoad(vt, addr, align);
        l->setAtomic(order == llvm::AtomicOrdering::Release || order == llvm::AtomicOrdering::AcquireRelease
                         ? llvm::AtomicOrdering::Acquire : order);
        old = l;
        break;
      }
      case Op::OpAtomicStore: {
        auto* s = B.CreateAlignedStore(laneValue(value, valueSlot, lane), addr, align);
        s->setAtomic(order == llvm::AtomicOrdering::Acquire || order == llvm::AtomicOrdering::AcquireRelease
                         ? llvm::AtomicOrdering::Release : order);
        break;
      }
      case Op::OpAtomicCompareExchange:
      case Op::OpAtomicCompareExchangeWeak: {
        llvm::AtomicOrdering success = order == llvm::AtomicOrdering::Monotonic ? llvm::AtomicOrdering::Monotonic
                                                                                  : llvm::AtomicOrdering::SequentiallyConsistent;
        auto* x = B.CreateAtomicCmpXchg(addr, laneValue(comparator, comparatorSlot, lane),
                                        laneValue(value, valueSlot, lane), align, success, llvm::AtomicOrdering::Monotonic);
        old = B.CreateExtractValue(x, {0});
        break;
      }
      default:
        old = B.CreateAtomicRMW(rmw, addr, laneValue(value, valueSlot, lane), align,
                                order == llvm::AtomicOrdering::Monotonic ? order : llvm::AtomicOrdering::SequentiallyConsistent);
        break;
    }
    if (result && old) B.CreateStore(old, B.CreateGEP(vt, result, lane));
  });
  if (inst.result) define(inst.result, Val{{B.CreateLoad(resultTy, result)}});
  return true;
}

}  // namespace tessera::jit
