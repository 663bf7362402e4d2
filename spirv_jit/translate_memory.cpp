// Variables, access chains, loads and stores, descriptors and bounds checks.
//
// Three kinds of memory:
//  - Memory: buffers (explicit layout), push constants, workgroup memory and physical storage
//    buffers, shared by all lanes. Lane l accesses base + offset[l]. Accesses through a
//    descriptor are bounds-checked against the descriptor's range (limit): an out-of-range
//    load gives zero and an out-of-range store is dropped, whatever the robustness features,
//    so no access ever leaves the bound memory.
//  - LaneMemory: Function and Private variables, one copy per lane, lane-interleaved (see Ptr).
//    Indices into them are clamped to the variable, so no lane can reach another's memory.
//  - BuiltIn: input built-ins, computed rather than stored.
#include <llvm/IR/Intrinsics.h>

#include <functional>

#include "lane_affine.h"
#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {

using spv::Op;

namespace {

bool isExplicitStorage(spv::StorageClass sc) {
  return sc == spv::StorageClass::Uniform || sc == spv::StorageClass::StorageBuffer ||
         sc == spv::StorageClass::PushConstant || sc == spv::StorageClass::PhysicalStorageBuffer;
}

constexpr uint32_t kVkUniformBufferDynamic = 8;   // VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER_DYNAMIC
constexpr uint32_t kVkStorageBufferDynamic = 9;   // VK_DESCRIPTOR_TYPE_STORAGE_BUFFER_DYNAMIC
constexpr uint32_t kVkInlineUniformBlock = 1000138000;
// Largest range a bounded pointer checks against (maxStorageBufferRange). 2^30 rather than
// 2^31 - 1 so that a saturated offset (kMaxRange, always out of range) plus one more dynamic
// term (also at most kMaxRange plus a stride) still fits an unsigned i32: see dynamicStep.
constexpr uint32_t kMaxRange = 1u << 30;

}  // namespace

class MemoryTranslation {
 public:
  explicit MemoryTranslation(Translator& t) : t(t), B(t.b()) {}

  // 64 zero bytes that out-of-range loads read instead (constant), and 64 bytes that
  // out-of-range uniform stores write instead (never read; races on it are harmless).
  llvm::GlobalVariable* zeroBlock() { return scratchBlock("tessera.zero", true); }
  llvm::GlobalVariable* sinkBlock() { return scratchBlock("tessera.sink", false); }
  llvm::GlobalVariable* scratchBlock(const char* name, bool isConstant) {
    if (auto* g = t.llvmModule().getGlobalVariable(name, true)) return g;
    auto* ty = llvm::ArrayType::get(B.getInt8Ty(), 64);
    auto* g = new llvm::GlobalVariable(t.llvmModule(), ty, isConstant, llvm::GlobalValue::InternalLinkage,
                                       llvm::Constant::getNullValue(ty), name);
    g->setAlignment(llvm::Align(64));
    return g;
  }

  const TypeLayout& layoutFor(const Ptr& p) {
    return t.explicitLayoutStorage(p.storage) ? explicitLayout() : naturalLayout();
  }
  const TypeLayout& explicitLayout() { return t.explicitLayout_; }
  const TypeLayout& naturalLayout() { return t.naturalLayout_; }

  llvm::Value* i64(llvm::Value* v, bool isSigned = true) {
    llvm::Type* target = v->getType()->isVectorTy() ? t.laneType(B.getInt64Ty()) : B.getInt64Ty();
    return isSigned ? B.CreateSExtOrTrunc(v, target) : B.CreateZExtOrTrunc(v, target);
  }
  // Offsets are 32-bit for memory reached through descriptors, workgroup and lane memory
  // (ranges are capped below 2^31, so an in-range offset is a non-negative i32 and gathers can
  // use 32-bit indices); 64-bit for absolute addresses (physical storage buffers, per-lane
  // descriptors).
  llvm::IntegerType* offsetType(const Ptr& p) { return p.offset32 ? B.getInt32Ty() : B.getInt64Ty(); }
  llvm::Value* offsetConst(const Ptr& p, uint64_t v) { return llvm::ConstantInt::get(offsetType(p), v); }
  llvm::Value* toOffset(const Ptr& p, llvm::Value* v, bool isSigned = true) {
    llvm::Type* target = v->getType()->isVectorTy() ? t.laneType(offsetType(p)) : static_cast<llvm::Type*>(offsetType(p));
    return isSigned ? B.CreateSExtOrTrunc(v, target) : B.CreateZExtOrTrunc(v, target);
  }
  // GEP index for an in-range offset (sign extension is exact for non-negative i32).
  llvm::Value* gepIndex(const Ptr& p, llvm::Value* offset) { return p.offset32 ? i64(offset, true) : offset; }
  // offset + index * stride for a dynamic index. With a bounds check ahead (p.limit), the
  // arithmetic must never wrap around into the range: an out-of-range index (negative, 64-bit,
  // or just huge: 0x40000000 * 4 is 0 in i32) has to stay out of range. So the index is capped
  // (unsigned, in its own width) at the first count whose product reaches kMaxRange, and the sum
  // saturates at kMaxRange, which no in-range offset reaches (limit <= kMaxRange). Constant
  // steps (struct members) may add to a saturated offset; layouts are smaller than 2^30, so
  // the next dynamic step still cannot wrap.
  llvm::Value* dynamicStep(const Ptr& p, llvm::Value* offset, llvm::Value* index, uint64_t stride) {
    if (!p.limit || stride == 0) {
      llvm::Value* idx = toOffset(p, index);
      return addOffsets(offset, B.CreateMul(idx, t.constInt(idx->getType(), stride)));
    }
    if (index->getType()->getScalarSizeInBits() < offsetType(p)->getBitWidth()) index = toOffset(p, index);
    const uint64_t cap = (uint64_t(kMaxRange) + stride - 1) / stride;
    index = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, index, t.constInt(index->getType(), cap));
    llvm::Value* idx = toOffset(p, index, false);
    llvm::Value* sum = addOffsets(offset, B.CreateMul(idx, t.constInt(idx->getType(), stride)));
    if (!p.offset32) return sum;  // absolute addresses: far below 2^64, the limit check suffices
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, sum, t.constInt(sum->getType(), kMaxRange));
  }
  llvm::Value* addOffsets(llvm::Value* a, llvm::Value* c) {
    if (!a) return c;
    if (!c) return a;
    t.unify(a, c);
    return B.CreateAdd(a, c);
  }

  // Memory scalar type for a leaf: booleans are bytes.
  llvm::Type* memoryType(uint32_t leafType) {
    llvm::Type* s = t.scalarType(leafType);
    return s->isIntegerTy(1) ? B.getInt8Ty() : s;
  }
  llvm::Value* toMemory(llvm::Value* v) {
    if (v->getType()->getScalarType()->isIntegerTy(1))
      return B.CreateZExt(v, v->getType()->isVectorTy() ? t.laneType(B.getInt8Ty()) : static_cast<llvm::Type*>(B.getInt8Ty()));
    return v;
  }
  llvm::Value* fromMemory(llvm::Value* v, uint32_t leafType) {
    if (t.scalarType(leafType)->isIntegerTy(1)) return B.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return v;
  }

  // Address of lane-shared memory at offset (scalar -> ptr, vector -> <W x ptr>).
  llvm::Value* sharedAddress(const Ptr& p, llvm::Value* offset) {
    if (p.base) return B.CreateGEP(B.getInt8Ty(), p.base, gepIndex(p, offset));  // splats the base
    llvm::Value* abs = i64(offset, false);
    return B.CreateIntToPtr(abs, abs->getType()->isVectorTy() ? static_cast<llvm::Type*>(t.laneType(B.getPtrTy())) : B.getPtrTy());
  }

  // Whether [offset + leafOffset, offset + leafOffset + size) lies within [floor, limit), written
  // so that nothing can overflow: limit >= leafOffset + size and offset <= limit - (leafOffset +
  // size). A negative index wraps a relative offset around to a huge one, which fails the second
  // test; with absolute offsets (per-lane descriptors, floor = the buffer's address) it goes
  // below the buffer instead, which offset >= floor catches.
  llvm::Value* inBounds(const Ptr& p, llvm::Value* chainOffset, uint32_t leafEnd) {
    if (!p.limit) return nullptr;
    llvm::Value* limit = p.limit;
    llvm::Value* end = llvm::ConstantInt::get(limit->getType()->getScalarType(), leafEnd);
    if (limit->getType()->isVectorTy()) end = t.splat(end);
    llvm::Value* room = B.CreateSub(limit, end);
    llvm::Value* fits = B.CreateICmpUGE(limit, end);
    llvm::Value* off = chainOffset;
    t.unify(off, room);
    t.unify(off, fits);
    t.unify(room, fits);
    llvm::Value* inside = B.CreateAnd(fits, B.CreateICmpULE(off, room));
    if (!p.floor) return inside;
    llvm::Value* floor = p.floor;
    llvm::Value* start = chainOffset;
    t.unify(start, floor);
    llvm::Value* above = B.CreateICmpUGE(start, floor);
    t.unify(inside, above);
    return B.CreateAnd(inside, above);
  }

  // Lanes whose elements lie at constant offsets from lane 0's (lane_affine.h), all of them
  // element-aligned, none before lane 0's and all within W elements of it: the condition that
  // the pattern holds and [offset[0], offset[0] + span) lies within [floor, limit), with
  // *first = offset[0] and *pattern the offsets. Null when the IR shows no such pattern. Then
  // one masked vector access (contiguous lanes), or one load and a shuffle, does what the
  // gather or scatter would.
  llvm::Value* patternInBounds(const Ptr& p, llvm::Value* chain, llvm::Value* offset, uint32_t size, llvm::Value** first,
                               LanePattern* pattern) {
    if (!offset->getType()->isVectorTy() || !chain->getType()->isVectorTy()) return nullptr;
    if ((p.limit && p.limit->getType()->isVectorTy()) || (p.floor && p.floor->getType()->isVectorTy())) return nullptr;
    if (!p.limit && p.offset32) return nullptr;  // nothing bounds the lanes: keep the per-lane path
    auto found = lanePattern(B, offset, t.width());
    if (!found || found->minOffset() < 0 || found->maxOffset() >= int64_t(t.width()) * size) return nullptr;
    for (int64_t o : found->offsets)
      if (o % size) return nullptr;
    *pattern = *found;
    llvm::Value* ok = B.getTrue();
    for (llvm::Value* c : found->conditions) ok = B.CreateAnd(ok, c);
    *first = laneZeroScalar(B, offset);
    if (p.limit) {
      // limit >= span and first <= limit - span: every lane's element ends by the limit, and
      // (limit <= 2^30) no lane's offset wrapped around.
      llvm::Value* span = llvm::ConstantInt::get(p.limit->getType(), uint64_t(found->maxOffset()) + size);
      llvm::Value* room = B.CreateSub(p.limit, span);
      llvm::Value* f = *first;
      t.unify(f, room);
      ok = B.CreateAnd(ok, B.CreateAnd(B.CreateICmpUGE(p.limit, span), B.CreateICmpULE(f, room)));
    }
    if (p.floor) {
      llvm::Value* c0 = laneZeroScalar(B, chain);
      llvm::Value* floor = p.floor;
      t.unify(c0, floor);
      ok = B.CreateAnd(ok, B.CreateICmpUGE(c0, floor));
    }
    return ok;
  }

  // The elements of a lane pattern (patternInBounds): a masked load of the contiguous lanes, or
  // a load of the span's elements shuffled into the lanes.
  llvm::Value* loadPattern(const Ptr& p, llvm::Type* vt, llvm::Value* first, const LanePattern& pattern, uint32_t size) {
    llvm::Align align(size);
    llvm::Value* zero = llvm::Constant::getNullValue(vt);
    if (pattern.stride() == int64_t(size))
      return B.CreateMaskedLoad(vt, sharedAddress(p, first), align, t.mask(), zero);
    // Only the elements up to the last one a lane needs: the rest may lie past the range.
    const uint64_t needed = uint64_t(pattern.maxOffset()) / size + 1;
    std::vector<llvm::Constant*> loadLanes;
    std::vector<int> shuffle;
    for (uint32_t i = 0; i < t.width(); ++i) {
      loadLanes.push_back(B.getInt1(i < needed));
      shuffle.push_back(int(pattern.offsets[i] / size));
    }
    llvm::Value* block = B.CreateMaskedLoad(vt, sharedAddress(p, first), align, llvm::ConstantVector::get(loadLanes), zero);
    return B.CreateShuffleVector(block, shuffle);
  }

  // Runs `fast` when `condition` holds, `slow` otherwise, and joins their values (null: none).
  llvm::Value* branchOn(llvm::Value* condition, const char* name, const std::function<llvm::Value*()>& fast,
                        const std::function<llvm::Value*()>& slow) {
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    auto* fastBlock = llvm::BasicBlock::Create(t.context(), std::string(name) + ".lanes", fn);
    auto* slowBlock = llvm::BasicBlock::Create(t.context(), std::string(name) + ".each", fn);
    auto* done = llvm::BasicBlock::Create(t.context(), std::string(name) + ".joined", fn);
    B.CreateCondBr(condition, fastBlock, slowBlock);
    B.SetInsertPoint(fastBlock);
    llvm::Value* fv = fast();
    llvm::BasicBlock* fastEnd = B.GetInsertBlock();
    B.CreateBr(done);
    B.SetInsertPoint(slowBlock);
    llvm::Value* sv = slow();
    llvm::BasicBlock* slowEnd = B.GetInsertBlock();
    B.CreateBr(done);
    B.SetInsertPoint(done);
    if (!fv) return nullptr;
    llvm::PHINode* phi = B.CreatePHI(fv->getType(), 2);
    phi->addIncoming(fv, fastEnd);
    phi->addIncoming(sv, slowEnd);
    return phi;
  }

  llvm::Value* loadShared(const Ptr& p, uint32_t leafType, uint32_t leafOffset, bool isVolatile) {
    llvm::Type* mt = memoryType(leafType);
    uint32_t size = uint32_t(mt->getPrimitiveSizeInBits() / 8);
    llvm::Value* chain = p.offset ? p.offset : offsetConst(p, 0);
    llvm::Value* inb = inBounds(p, chain, leafOffset + size);
    llvm::Value* offset = addOffsets(chain, offsetConst(p, leafOffset));
    llvm::Align align(size);
    if (!offset->getType()->isVectorTy() && !(inb && inb->getType()->isVectorTy())) {
      llvm::Value* addr = sharedAddress(p, offset);
      if (inb) addr = B.CreateSelect(inb, addr, zeroBlock());
      llvm::Value* v = B.CreateAlignedLoad(mt, addr, llvm::Align(1), isVolatile);
      return fromMemory(v, leafType);
    }
    llvm::Value* first = nullptr;
    LanePattern pattern;
    if (llvm::Value* fits = isVolatile ? nullptr : patternInBounds(p, chain, offset, size, &first, &pattern)) {
      llvm::Type* vt = t.laneType(mt);
      llvm::Value* v = branchOn(
          fits, "ld", [&] { return loadPattern(p, vt, first, pattern, size); },
          [&] { return loadEachLane(p, mt, size, offset, inb, isVolatile); });
      return fromMemory(v, leafType);
    }
    return fromMemory(loadEachLane(p, mt, size, offset, inb, isVolatile), leafType);
  }

  // Per-lane offsets: a vector load when they turn out contiguous and all lanes are active and
  // in bounds, else a gather of the in-bounds active lanes (the others read 0).
  llvm::Value* loadEachLane(const Ptr& p, llvm::Type* mt, uint32_t size, llvm::Value* offset, llvm::Value* inb,
                            bool isVolatile) {
    llvm::Align align(size);
    offset = t.splat(offset);
    llvm::Value* laneMask = t.mask();
    if (inb) laneMask = B.CreateAnd(laneMask, t.splat(inb));
    llvm::Type* vt = t.laneType(mt);
    llvm::Value* passthru = llvm::Constant::getNullValue(vt);
    // Contiguous, fully active lanes: one vector load instead of a gather.
    llvm::Value* first = laneZeroScalar(B, offset);
    llvm::Value* contiguous = B.CreateAnd(t.all(B.CreateICmpEQ(offset, laneSequence(p, first, size))), t.all(laneMask));
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    auto* fast = llvm::BasicBlock::Create(t.context(), "ld.vec", fn);
    auto* slow = llvm::BasicBlock::Create(t.context(), "ld.gather", fn);
    auto* done = llvm::BasicBlock::Create(t.context(), "ld.done", fn);
    B.CreateCondBr(contiguous, fast, slow);
    B.SetInsertPoint(fast);
    llvm::Value* fv = B.CreateAlignedLoad(vt, sharedAddress(p, first), llvm::Align(1), isVolatile);
    B.CreateBr(done);
    B.SetInsertPoint(slow);
    llvm::Value* sv = B.CreateMaskedGather(vt, sharedAddress(p, offset), align, laneMask, passthru);
    B.CreateBr(done);
    B.SetInsertPoint(done);
    llvm::PHINode* phi = B.CreatePHI(vt, 2);
    phi->addIncoming(fv, fast);
    phi->addIncoming(sv, slow);
    return phi;
  }

  void storeShared(const Ptr& p, uint32_t leafType, uint32_t leafOffset, llvm::Value* v, bool isVolatile) {
    llvm::Type* mt = memoryType(leafType);
    uint32_t size = uint32_t(mt->getPrimitiveSizeInBits() / 8);
    v = toMemory(v);
    llvm::Value* chain = p.offset ? p.offset : offsetConst(p, 0);
    llvm::Value* inb = inBounds(p, chain, leafOffset + size);
    llvm::Value* offset = addOffsets(chain, offsetConst(p, leafOffset));
    llvm::Align align(size);
    const bool helpers = t.stage() == Translator::Stage::Fragment && p.storage != spv::StorageClass::Workgroup;
    if (!offset->getType()->isVectorTy() && !(inb && inb->getType()->isVectorTy())) {
      // One address for every lane: any active lane's value may win; take the first's.
      llvm::Value* addr = sharedAddress(p, offset);
      if (inb) addr = B.CreateSelect(inb, addr, sinkBlock());
      // Fragment helper invocations write nothing: only if some writing lane is active.
      if (helpers) addr = B.CreateSelect(t.any(t.sideEffectMask()), addr, sinkBlock());
      llvm::Value* scalar = t.uniformize(v);
      B.CreateAlignedStore(scalar, addr, llvm::Align(1), isVolatile);
      return;
    }
    v = t.splat(v);
    llvm::Value* first = nullptr;
    LanePattern pattern;
    llvm::Value* fits = isVolatile ? nullptr : patternInBounds(p, chain, offset, size, &first, &pattern);
    if (fits && pattern.stride() == int64_t(size)) {
      llvm::Value* contiguous = fits;
      branchOn(
          contiguous, "st",
          [&]() -> llvm::Value* {
            B.CreateMaskedStore(v, sharedAddress(p, first), align, helpers ? t.sideEffectMask() : t.mask());
            return nullptr;
          },
          [&]() -> llvm::Value* {
            storeEachLane(p, size, offset, inb, v, helpers, isVolatile);
            return nullptr;
          });
      return;
    }
    storeEachLane(p, size, offset, inb, v, helpers, isVolatile);
  }

  // Per-lane offsets: a vector store when they turn out contiguous and all lanes are active and
  // in bounds, else a scatter of the in-bounds active lanes.
  void storeEachLane(const Ptr& p, uint32_t size, llvm::Value* offset, llvm::Value* inb, llvm::Value* v, bool helpers,
                     bool isVolatile) {
    llvm::Align align(size);
    offset = t.splat(offset);
    llvm::Value* laneMask = helpers ? t.sideEffectMask() : t.mask();
    if (inb) laneMask = B.CreateAnd(laneMask, t.splat(inb));
    llvm::Value* first = laneZeroScalar(B, offset);
    llvm::Value* contiguous = B.CreateAnd(t.all(B.CreateICmpEQ(offset, laneSequence(p, first, size))), t.all(laneMask));
    llvm::Function* fn = B.GetInsertBlock()->getParent();
    auto* fast = llvm::BasicBlock::Create(t.context(), "st.vec", fn);
    auto* slow = llvm::BasicBlock::Create(t.context(), "st.scatter", fn);
    auto* done = llvm::BasicBlock::Create(t.context(), "st.done", fn);
    B.CreateCondBr(contiguous, fast, slow);
    B.SetInsertPoint(fast);
    B.CreateAlignedStore(v, sharedAddress(p, first), llvm::Align(1), isVolatile);
    B.CreateBr(done);
    B.SetInsertPoint(slow);
    B.CreateMaskedScatter(v, sharedAddress(p, offset), align, laneMask);
    B.CreateBr(done);
    B.SetInsertPoint(done);
  }

  // first + lane * size, in the offset's type: what contiguous lanes' offsets look like.
  llvm::Value* laneSequence(const Ptr& p, llvm::Value* first, uint32_t size) {
    llvm::Type* vt = t.laneType(offsetType(p));
    return B.CreateAdd(B.CreateVectorSplat(t.width(), first),
                       B.CreateMul(B.CreateZExtOrTrunc(t.laneIndex(), vt), t.constInt(vt, size)));
  }

  // Lane memory: scalar at natural offset o of lane l is at base + W*o + l*size.
  llvm::Value* laneAddressVector(const Ptr& p, llvm::Value* offset, uint32_t size) {
    llvm::Type* vt = t.laneType(offsetType(p));
    llvm::Value* scaled = B.CreateMul(t.splat(offset), t.constInt(vt, t.width()));
    llvm::Value* lane = B.CreateMul(B.CreateZExtOrTrunc(t.laneIndex(), vt), t.constInt(vt, size));
    return B.CreateGEP(B.getInt8Ty(), p.base, gepIndex(p, B.CreateAdd(scaled, lane)));
  }

  llvm::Value* loadLane(const Ptr& p, uint32_t leafType, uint32_t leafOffset) {
    llvm::Type* mt = memoryType(leafType);
    uint32_t size = uint32_t(mt->getPrimitiveSizeInBits() / 8);
    llvm::Type* vt = t.laneType(mt);
    llvm::Value* offset = addOffsets(p.offset ? p.offset : offsetConst(p, 0), offsetConst(p, leafOffset));
    if (!offset->getType()->isVectorTy()) {
      llvm::Value* addr = B.CreateGEP(B.getInt8Ty(), p.base, gepIndex(p, B.CreateMul(offset, offsetConst(p, t.width()))));
      return fromMemory(B.CreateAlignedLoad(vt, addr, llvm::Align(size)), leafType);
    }
    llvm::Value* v = B.CreateMaskedGather(vt, laneAddressVector(p, offset, size), llvm::Align(size), t.mask(),
                                          llvm::Constant::getNullValue(vt));
    return fromMemory(v, leafType);
  }

  void storeLane(const Ptr& p, uint32_t leafType, uint32_t leafOffset, llvm::Value* v) {
    llvm::Type* mt = memoryType(leafType);
    uint32_t size = uint32_t(mt->getPrimitiveSizeInBits() / 8);
    llvm::Type* vt = t.laneType(mt);
    v = t.splat(toMemory(v));
    llvm::Value* offset = addOffsets(p.offset ? p.offset : offsetConst(p, 0), offsetConst(p, leafOffset));
    if (!offset->getType()->isVectorTy()) {
      llvm::Value* addr = B.CreateGEP(B.getInt8Ty(), p.base, gepIndex(p, B.CreateMul(offset, offsetConst(p, t.width()))));
      // Private to this batch: blend with the inactive lanes' values and store whole.
      llvm::Value* old = B.CreateAlignedLoad(vt, addr, llvm::Align(size));
      B.CreateAlignedStore(B.CreateSelect(t.mask(), v, old), addr, llvm::Align(size));
      return;
    }
    B.CreateMaskedScatter(v, laneAddressVector(p, offset, size), llvm::Align(size), t.mask());
  }

  Val load(const Ptr& p, uint32_t type, bool isVolatile) {
    Val out;
    if (p.kind == Ptr::Kind::BuiltIn) {
      const Decorations& d = t.spirv().decorations(p.variable);
      const GlobalVariable* g = t.spirv().global(p.variable);
      const Type* pt = t.spirv().type(g->type);
      Val whole = t.builtInValue(spv::BuiltIn(*d.builtIn), pt->element);
      if (!p.component) return whole;
      if (auto* c = llvm::dyn_cast<llvm::ConstantInt>(p.component)) {
        // A constant component keeps its own shape (y and z can be batch-uniform scalars).
        out.leaves.push_back(whole.leaf(std::min<size_t>(c->getZExtValue(), whole.leaves.size() - 1)));
        return out;
      }
      llvm::Value* r = whole.leaf(0);
      for (size_t i = 1; i < whole.leaves.size(); ++i)
        r = t.select(B.CreateICmpEQ(p.component, t.constInt(p.component->getType(), i)), whole.leaves[i], r);
      out.leaves.push_back(r);
      return out;
    }
    if (p.kind == Ptr::Kind::Image) {
      out.leaves.push_back(p.offset);  // the descriptor's address stands for the image
      return out;
    }
    if (p.kind == Ptr::Kind::Null) {
      for (uint32_t lt : t.leafTypes(type)) out.leaves.push_back(llvm::Constant::getNullValue(t.scalarType(lt)));
      return out;
    }
    t.checkValueSize(type);
    std::vector<Leaf> leaves;
    layoutFor(p).leaves(type, p.context, 0, leaves);
    for (const Leaf& l : leaves) {
      if (p.kind == Ptr::Kind::LaneMemory) out.leaves.push_back(loadLane(p, l.type, l.offset));
      else out.leaves.push_back(loadShared(p, l.type, l.offset, isVolatile));
    }
    return out;
  }

  void store(const Ptr& p, const Val& v, uint32_t type, bool isVolatile) {
    if (p.kind == Ptr::Kind::Null || p.kind == Ptr::Kind::BuiltIn || p.kind == Ptr::Kind::Image) return;
    t.countValue(type);
    std::vector<Leaf> leaves;
    layoutFor(p).leaves(type, p.context, 0, leaves);
    for (size_t i = 0; i < leaves.size() && i < v.leaves.size(); ++i) {
      if (p.kind == Ptr::Kind::LaneMemory) storeLane(p, leaves[i].type, leaves[i].offset, v.leaves[i]);
      else storeShared(p, leaves[i].type, leaves[i].offset, v.leaves[i], isVolatile);
    }
  }

  // ---- descriptors ----

  // Address of descriptor `index` (i64 scalar or vector) of a binding.
  llvm::Value* descriptorAddress(const DescriptorBinding& binding, llvm::Value* index) {
    llvm::Type* ptrTy = B.getPtrTy();
    llvm::Value* setSlot = B.CreateConstGEP1_32(ptrTy, t.resources(), binding.set);
    llvm::Value* set = B.CreateLoad(ptrTy, setSlot);
    llvm::Value* isNull = B.CreateICmpEQ(set, llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(ptrTy)));
    llvm::Value* idx = index ? index : B.getInt64(0);
    llvm::Value* off = B.CreateAdd(t.constInt(idx->getType(), binding.offset),
                                   B.CreateMul(idx, t.constInt(idx->getType(), abi::kDescriptorSize)));
    llvm::Value* addr = B.CreateGEP(B.getInt8Ty(), set, off);
    // An unbound set reads as null descriptors.
    if (addr->getType()->isVectorTy()) return B.CreateSelect(t.splat(isNull), t.splat(zeroBlock()), addr);
    return B.CreateSelect(isNull, zeroBlock(), addr);
  }

  llvm::Value* clampIndex(llvm::Value* index, uint32_t count) {
    index = i64(index, false);
    if (count == 0) return index;
    llvm::Value* max = t.constInt(index->getType(), count - 1);
    return B.CreateSelect(B.CreateICmpUGT(index, max), max, index);
  }

  // A buffer binding's element `index` as a Memory pointer to `pointee`.
  Ptr bufferPointer(const DescriptorBinding& binding, llvm::Value* index, uint32_t pointee, spv::StorageClass sc) {
    Ptr p;
    p.kind = Ptr::Kind::Memory;
    p.storage = sc;
    p.pointee = pointee;
    if (binding.type == kVkInlineUniformBlock) {
      llvm::Value* set = B.CreateLoad(B.getPtrTy(), B.CreateConstGEP1_32(B.getPtrTy(), t.resources(), binding.set));
      llvm::Value* isNull = B.CreateICmpEQ(set, llvm::ConstantPointerNull::get(B.getPtrTy()));
      p.base = B.CreateSelect(isNull, zeroBlock(), B.CreateConstGEP1_64(B.getInt8Ty(), set, binding.offset));
      p.offset32 = true;
      p.offset = B.getInt32(0);
      p.limit = B.CreateSelect(isNull, B.getInt32(0), B.getInt32(std::min<uint32_t>(binding.count, kMaxRange)));
      return p;
    }
    llvm::Value* idx = index ? clampIndex(index, binding.count) : B.getInt64(0);
    llvm::Value* desc = descriptorAddress(binding, idx);
    llvm::Type* ptrTy = B.getPtrTy();
    bool dynamic = binding.dynamicIndex >= 0 &&
                   (binding.type == kVkUniformBufferDynamic || binding.type == kVkStorageBufferDynamic);
    auto loadField = [&](llvm::Type* ty, uint32_t fieldOffset) -> llvm::Value* {
      if (!desc->getType()->isVectorTy()) {
        auto* l = B.CreateLoad(ty, B.CreateConstGEP1_32(B.getInt8Ty(), desc, fieldOffset));
        l->setMetadata(llvm::LLVMContext::MD_invariant_load, llvm::MDNode::get(t.context(), {}));
        return l;
      }
      llvm::Value* addrs = B.CreateGEP(B.getInt8Ty(), desc, B.getInt64(fieldOffset));
      return B.CreateMaskedGather(t.laneType(ty), addrs, llvm::Align(8), t.allOnes(), llvm::Constant::getNullValue(t.laneType(ty)));
    };
    llvm::Value* rawAddress = loadField(ptrTy, 0);
    llvm::Value* address = B.CreatePtrToInt(rawAddress, rawAddress->getType()->isVectorTy() ? t.laneType(B.getInt64Ty()) : B.getInt64Ty());
    llvm::Value* range = loadField(B.getInt64Ty(), 8);
    if (dynamic) {
      // dynamicOffsets[dynamicIndex + arrayIndex]
      llvm::Value* dynBase = B.CreateConstGEP1_32(B.getInt8Ty(), t.resources(), offsetof(abi::BoundResources, dynamicOffsets));
      llvm::Value* di = addOffsets(B.getInt64(binding.dynamicIndex), idx);
      llvm::Value* dyn;
      if (di->getType()->isVectorTy()) {
        llvm::Value* addrs = B.CreateGEP(B.getInt32Ty(), dynBase, di);
        dyn = B.CreateMaskedGather(t.laneType(B.getInt32Ty()), addrs, llvm::Align(4), t.allOnes(),
                                   llvm::Constant::getNullValue(t.laneType(B.getInt32Ty())));
      } else {
        dyn = B.CreateLoad(B.getInt32Ty(), B.CreateGEP(B.getInt32Ty(), dynBase, di));
      }
      address = addOffsets(address, i64(dyn, false));
    }
    if (!address->getType()->isVectorTy()) {
      p.base = B.CreateIntToPtr(address, ptrTy);
      p.offset32 = true;
      p.offset = B.getInt32(0);
      // Ranges are capped below 2^31 (maxStorageBufferRange): in-range offsets fit an i32.
      llvm::Value* capped = B.CreateSelect(B.CreateICmpUGT(range, B.getInt64(kMaxRange)), B.getInt64(kMaxRange), range);
      p.limit = B.CreateTrunc(capped, B.getInt32Ty());
    } else {
      // Per-lane descriptors: offsets are absolute addresses; [floor, limit) is the range.
      p.base = nullptr;
      p.offset = address;
      p.limit = addOffsets(address, range);
      p.floor = address;
    }
    return p;
  }

  Ptr descriptorElement(const Ptr& arrayPtr, llvm::Value* index) {
    const DescriptorBinding& binding = *arrayPtr.binding;
    const Type* at = t.spirv().type(arrayPtr.pointee);
    uint32_t element = at->element;
    if (arrayPtr.storage == spv::StorageClass::UniformConstant) {
      Ptr p;
      p.kind = Ptr::Kind::Image;
      p.storage = arrayPtr.storage;
      p.pointee = element;
      p.binding = arrayPtr.binding;
      p.offset = B.CreatePtrToInt(descriptorAddress(binding, clampIndex(index, binding.count)),
                                  index->getType()->isVectorTy() ? t.laneType(B.getInt64Ty()) : B.getInt64Ty());
      return p;
    }
    if (!arrayPtr.otherBinding) return bufferPointer(binding, index, element, arrayPtr.storage);
    // Chosen per lane between two bindings' arrays: each binding's element as an absolute
    // address with its own bound range, then per lane the chosen one's (as OpSelect does for
    // variable pointers into buffers).
    const Val first = t.pointerValue(bufferPointer(binding, index, element, arrayPtr.storage));
    const Val second = t.pointerValue(bufferPointer(*arrayPtr.otherBinding, index, element, arrayPtr.storage));
    Val chosen;
    for (size_t i = 0; i < first.leaves.size(); ++i) chosen.leaves.push_back(t.select(arrayPtr.choice, first.leaves[i], second.leaves[i]));
    Ptr p = t.pointerFromValue(chosen, 0);
    p.storage = arrayPtr.storage;
    p.pointee = element;
    return p;
  }

  // ---- globals ----

  Ptr globalPointer(const GlobalVariable& g) {
    const Module& m = t.spirv();
    const Type* pt = m.type(g.type);
    const Decorations& d = m.decorations(g.id);
    Ptr p;
    p.storage = g.storage;
    p.pointee = pt->element;
    switch (g.storage) {
      case spv::StorageClass::StorageBuffer:
      case spv::StorageClass::Uniform:
      case spv::StorageClass::UniformConstant: {
        const DescriptorBinding* binding = t.interface_.find(d.descriptorSet.value_or(0), d.binding.value_or(0));
        if (!binding) {
          p.kind = Ptr::Kind::Null;  // not in the pipeline layout: reads zero, writes vanish
          return p;
        }
        const Type* pointee = m.type(pt->element);
        bool isArray = pointee && (pointee->kind == TypeKind::Array || pointee->kind == TypeKind::RuntimeArray) &&
                       binding->type != kVkInlineUniformBlock;
        if (isArray) {
          p.kind = Ptr::Kind::DescriptorArray;
          p.binding = binding;
          return p;
        }
        if (g.storage == spv::StorageClass::UniformConstant) {
          p.kind = Ptr::Kind::Image;
          p.binding = binding;
          p.offset = B.CreatePtrToInt(descriptorAddress(*binding, nullptr), B.getInt64Ty());
          return p;
        }
        return bufferPointer(*binding, nullptr, pt->element, g.storage);
      }
      case spv::StorageClass::PushConstant:
        p.kind = Ptr::Kind::Memory;
        p.base = B.CreateConstGEP1_32(B.getInt8Ty(), t.resources(), offsetof(abi::BoundResources, pushConstants));
        p.offset32 = true;
        p.offset = B.getInt32(0);
        p.limit = B.getInt32(abi::kMaxPushConstantBytes);
        return p;
      case spv::StorageClass::Output:
        if (t.stage() != Translator::Stage::TessControl) {
          p.kind = Ptr::Kind::LaneMemory;
          p.base = t.privateBase_;
          p.offset32 = true;
          p.offset = B.getInt32(t.privateOffsets_[g.id]);
          return p;
        }
        [[fallthrough]];  // a control stage's outputs: patch memory, in the workgroup's place
      case spv::StorageClass::Workgroup: {
        p.kind = Ptr::Kind::Memory;
        llvm::Value* shared = B.CreateLoad(B.getPtrTy(), B.CreateConstGEP1_32(B.getInt8Ty(), t.workgroupState(),
                                                                               offsetof(abi::WorkgroupState, sharedMemory)));
        auto it = t.sharedOffsets_.find(g.id);
        p.base = B.CreateConstGEP1_32(B.getInt8Ty(), shared, it == t.sharedOffsets_.end() ? 0 : it->second);
        p.offset32 = true;
        p.offset = B.getInt32(0);
        p.limit = B.getInt32(layoutFor(p).size(pt->element));
        return p;
      }
      case spv::StorageClass::Private: {
        p.kind = Ptr::Kind::LaneMemory;
        p.base = t.privateBase_;
        p.offset32 = true;
        p.offset = B.getInt32(t.privateOffsets_[g.id]);
        return p;
      }
      case spv::StorageClass::Input:
        if (!d.builtIn && t.stage() != Translator::Stage::Compute) {
          // Graphics inputs: per-lane slots filled by the prologue (translate_graphics.cpp).
          p.kind = Ptr::Kind::LaneMemory;
          p.base = t.privateBase_;
          p.offset32 = true;
          p.offset = B.getInt32(t.privateOffsets_[g.id]);
          return p;
        }
        p.kind = Ptr::Kind::BuiltIn;
        p.variable = g.id;
        if (!d.builtIn) t.fail("input variables other than built-ins are not supported in this stage");
        return p;
      default:
        t.fail("unsupported storage class " + std::to_string(uint32_t(g.storage)));
    }
  }

  // ---- access chains ----

  // The distance between consecutive objects of p's pointee type, in bytes: what
  // OpPtrAccessChain's Element steps over and what OpPtrDiff counts in.
  uint32_t objectStride(const Ptr& p, uint32_t arrayStride) {
    if (t.explicitLayoutStorage(p.storage)) {
      // ArrayStride on the pointer type (required for buffers); fall back to the pointee's
      // size. The two differ when the pointee's alignment pads it (a { vec3; int; } with
      // 16-byte alignment ends at 16 but may have a stride of 32).
      return arrayStride ? arrayStride : explicitLayout().size(p.pointee, p.context);
    }
    const uint32_t a = naturalLayout().alignment(p.pointee);
    return (naturalLayout().size(p.pointee) + a - 1) / a * a;
  }

  Ptr chain(Ptr p, const uint32_t* indices, uint32_t count, bool ptrChain, uint32_t elementStride) {
    const Module& m = t.spirv();
    uint32_t k = 0;
    if (ptrChain && count > 0) {
      // The "Element" operand steps over whole objects of the pointee type.
      const uint32_t stride = objectStride(p, elementStride);
      llvm::Value* element = t.scalarValue(indices[0]);
      if (p.kind == Ptr::Kind::Memory && p.limit) {
        // A bounded logical pointer (variable pointers: into a buffer or workgroup array, maybe
        // at an element past its start): the Element may be negative and step back. Taken in the
        // absolute form (pointerValue), sign-extended and clamped to +-2^31 so that the product
        // cannot wrap; [floor, limit) then decides, so no step leaves the bound range.
        Ptr absolute = t.pointerFromValue(t.pointerValue(p), 0);
        absolute.storage = p.storage;
        absolute.pointee = p.pointee;
        absolute.context = p.context;
        p = absolute;
        llvm::Type* i64t = element->getType()->isVectorTy() ? t.laneType(B.getInt64Ty()) : B.getInt64Ty();
        llvm::Value* e = B.CreateSExtOrTrunc(element, i64t);
        if (element->getType()->getScalarSizeInBits() > 32) {
          e = B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, e, t.constInt(i64t, uint64_t(1) << 31));
          e = B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, e, t.constInt(i64t, uint64_t(-(int64_t(1) << 31))));
        }
        p.offset = addOffsets(p.offset, B.CreateMul(e, t.constInt(i64t, stride)));
      } else {
        p.offset = dynamicStep(p, p.offset ? p.offset : offsetConst(p, 0), element, stride);
      }
      k = 1;
    }
    for (; k < count; ++k) {
      uint32_t indexId = indices[k];
      const Type* pointee = m.type(p.pointee);
      if (!pointee) t.fail("access chain through an unknown type");
      if (p.kind == Ptr::Kind::DescriptorArray) {
        p = descriptorElement(p, t.scalarValue(indexId));
        continue;
      }
      if (p.kind == Ptr::Kind::BuiltIn) {
        llvm::Value* idx = t.scalarValue(indexId);
        p.component = B.CreateZExtOrTrunc(idx, idx->getType()->isVectorTy() ? t.laneType(B.getInt32Ty()) : B.getInt32Ty());
        p.pointee = pointee->element;
        continue;
      }
      const TypeLayout& layout = layoutFor(p);
      if (pointee->kind == TypeKind::Struct) {
        auto member = m.constantValue(indexId);
        if (!member) t.fail("struct index is not a constant");
        LayoutStep s = layout.memberStep(p.pointee, uint32_t(*member));
        p.offset = addOffsets(p.offset ? p.offset : offsetConst(p, 0), offsetConst(p, s.offset));
        p.pointee = s.type;
        p.context = s.context;
        continue;
      }
      LayoutStep s = layout.elementStep(p.pointee, p.context);
      llvm::Value* idx = t.scalarValue(indexId);
      if (p.kind == Ptr::Kind::LaneMemory) {
        // No bounds check on lane memory: keep every index inside the composite instead
        // (unsigned, in the index's own width, so negative and 64-bit ones clamp too).
        uint32_t n = pointee->kind == TypeKind::RuntimeArray ? 0 : pointee->count;
        if (idx->getType()->getScalarSizeInBits() < offsetType(p)->getBitWidth()) idx = toOffset(p, idx);
        if (n) idx = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, idx, t.constInt(idx->getType(), n - 1));
      }
      p.offset = dynamicStep(p, p.offset ? p.offset : offsetConst(p, 0), idx, s.stride);
      p.pointee = s.type;
      p.context = s.context;
    }
    return p;
  }

  Translator& t;
  llvm::IRBuilder<>& B;
};

Val Translator::loadFrom(const Ptr& p, uint32_t type) { return MemoryTranslation(*this).load(p, type, false); }

void Translator::storeTo(const Ptr& p, const Val& v, uint32_t type) { MemoryTranslation(*this).store(p, v, type, false); }

// The bytes of every scalar in a type when they are all one size (what zeroStorage's rows
// are), else 0.
static uint32_t uniformScalarBytes(const Module& module, const TypeLayout& layout, uint32_t typeId, uint32_t depth = 0) {
  const Type* t = module.type(typeId);
  if (!t || depth > 64) return 0;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
      return layout.scalarSize(typeId);
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      return uniformScalarBytes(module, layout, t->element, depth + 1);
    case TypeKind::Struct: {
      uint32_t bytes = 0;
      for (uint32_t m : t->members) {
        const uint32_t b = uniformScalarBytes(module, layout, m, depth + 1);
        if (b == 0 || (bytes != 0 && b != bytes)) return 0;
        bytes = b;
      }
      return bytes;
    }
    default:
      return 0;
  }
}

// Function and Private memory keeps W interleaved copies of a variable: its scalar at natural
// offset o is a row of W scalars at o * W. A pointee whose scalars are all one size (and hold
// no pointer) is `rows` such rows from its start. Fills rows/scalarBytes/start; false where
// the layout is not that (other memory, per-lane addresses, mixed scalar sizes).
bool Translator::laneRows(const Ptr& p, uint64_t* rows, uint32_t* scalarBytes, llvm::Value** start) {
  if (p.kind != Ptr::Kind::LaneMemory || !p.offset || p.offset->getType()->isVectorTy() || holdsPointer(p.pointee))
    return false;
  const uint32_t bytes = uniformScalarBytes(module_, naturalLayout_, p.pointee);
  const uint64_t size = naturalLayout_.size(p.pointee);
  if (bytes == 0 || size % bytes != 0) return false;
  auto& B = b();
  llvm::Value* offset = p.offset32 ? B.CreateSExt(p.offset, B.getInt64Ty()) : p.offset;
  *start = B.CreateGEP(B.getInt8Ty(), p.base, B.CreateMul(offset, B.getInt64(width())));
  *rows = size / bytes;
  *scalarBytes = bytes;
  return true;
}

// The active lanes as bits for the runtime helpers.
llvm::Value* Translator::laneBits() {
  auto& B = b();
  return mask_->getType()->isVectorTy() ? B.CreateZExt(B.CreateBitCast(mask_, B.getIntNTy(width())), B.getInt32Ty())
                                        : B.CreateSelect(mask_, B.getInt32(~0u), B.getInt32(0));
}

// Stores the null value of p's pointee (all zero bits in the natural layout when it holds no
// pointer) into the active lanes' copies without making a value of it: tessera_rt_zero_lanes
// over the rows (one memset when every lane is active). A runtime call rather than
// llvm.memset: under AddressSanitizer the helper first unpoisons the kernel's stack memory
// (stale poison of instrumented frames that used the same stack before), which a memset
// called from JIT code would trip over. False, doing nothing, where laneRows does not apply:
// the caller then stores the value leaf by leaf.
bool Translator::zeroStorage(const Ptr& p) {
  uint64_t rows;
  uint32_t scalarBytes;
  llvm::Value* start;
  if (!laneRows(p, &rows, &scalarBytes, &start)) return false;
  auto& B = b();
  auto fn = runtime("tessera_rt_zero_lanes", llvm::FunctionType::get(B.getVoidTy(),
                                                                      {B.getPtrTy(), B.getInt64Ty(), B.getInt32Ty(),
                                                                       B.getInt32Ty(), B.getInt32Ty()},
                                                                      false));
  B.CreateCall(fn, {start, B.getInt64(rows), B.getInt32(scalarBytes), B.getInt32(width()), laneBits()});
  return true;
}

// A composite copied whole (OpLoad then OpStore, as front ends write an array or struct
// assignment) by tessera_rt_copy_lanes (one memmove when every lane is active) instead of a
// load and a store per scalar: LLVM's scheduler costs about the square of those. The load's
// leaves, if nothing else uses them, are dead code LLVM drops early.
bool Translator::copyStorage(const Ptr& dst, const Ptr& src) {
  if (dst.pointee != src.pointee) return false;
  uint64_t rows, srcRows;
  uint32_t scalarBytes, srcBytes;
  llvm::Value *to, *from;
  if (!laneRows(src, &srcRows, &srcBytes, &from) || !laneRows(dst, &rows, &scalarBytes, &to)) return false;
  auto& B = b();
  auto fn = runtime("tessera_rt_copy_lanes", llvm::FunctionType::get(B.getVoidTy(),
                                                                      {B.getPtrTy(), B.getPtrTy(), B.getInt64Ty(),
                                                                       B.getInt32Ty(), B.getInt32Ty(), B.getInt32Ty()},
                                                                      false));
  B.CreateCall(fn, {to, from, B.getInt64(rows), B.getInt32(scalarBytes), B.getInt32(width()), laneBits()});
  return true;
}

// A variable's initializer, stored into its storage p: a null constant by zeroStorage (an
// array of any length zero-initialized is no value of kMaxValueScalars leaves), anything else
// leaf by leaf.
void Translator::initializeVariable(const Ptr& p, uint32_t initializer) {
  const Constant* c = module_.constant(initializer);
  if (c && (c->kind == ConstantKind::Null || c->kind == ConstantKind::Undef) && zeroStorage(p)) return;
  storeTo(p, pointerOrValue(initializer, p.pointee), p.pointee);
}

bool Translator::explicitLayoutStorage(spv::StorageClass sc) const {
  return isExplicitStorage(sc) || (sc == spv::StorageClass::Workgroup && explicitWorkgroupLayout_);
}

Ptr Translator::accessChain(Ptr base, const uint32_t* indices, uint32_t count, bool ptrChain, uint32_t elementStride) {
  return MemoryTranslation(*this).chain(base, indices, count, ptrChain, elementStride);
}

llvm::Value* Translator::pointerToAddress(const Ptr& p) {
  llvm::Value* off = p.offset ? p.offset : b().getInt64(0);
  if (p.offset32) off = b().CreateZExt(off, off->getType()->isVectorTy() ? laneType(b().getInt64Ty()) : b().getInt64Ty());
  if (!p.base) return off;
  llvm::Value* base = b().CreatePtrToInt(p.base, b().getInt64Ty());
  unify(base, off);
  return b().CreateAdd(base, off);
}

Ptr Translator::addressToPointer(llvm::Value* address, uint32_t pointerType) {
  const Type* pt = module_.type(pointerType);
  Ptr p;
  p.kind = Ptr::Kind::Memory;
  p.storage = pt ? pt->storage : spv::StorageClass::PhysicalStorageBuffer;
  p.pointee = pt ? pt->element : 0;
  p.offset = address;  // absolute; physical storage buffer accesses are the application's to keep valid
  return p;
}

Val Translator::pointerValue(const Ptr& p) {
  auto& B = b();
  llvm::Type* i64 = B.getInt64Ty();
  auto wide = [&](llvm::Value* v) -> llvm::Value* {
    return B.CreateZExtOrTrunc(v, isVector(v) ? laneType(i64) : i64);
  };
  if (p.kind == Ptr::Kind::Null) {
    // A buffer the pipeline layout does not name: every access through it is out of range.
    return Val{{B.getInt64(0), B.getInt64(0), B.getInt64(0)}};
  }
  if (p.kind == Ptr::Kind::DescriptorArray)
    fail("a variable pointer choosing among a binding's descriptor array is not supported: variable pointers "
         "point into one buffer (VariablePointersStorageBuffer: \"confined to a single Block-decorated struct\")");
  if (p.kind != Ptr::Kind::Memory)
    fail("a variable pointer must point into StorageBuffer or Workgroup memory (SPIR-V \"Variable pointer\")");
  llvm::Value* address = pointerToAddress(p);
  if (!p.limit) return Val{{address, B.getInt64(0), B.getInt64(~uint64_t(0))}};
  // Relative floor and limit (descriptors bound for the whole batch, workgroup variables, callee
  // parameters) become absolute: base + limit, saturating, since a callee's "no limit" is ~0.
  llvm::Value* base = p.base ? B.CreatePtrToInt(p.base, i64) : B.getInt64(0);
  llvm::Value* floor = p.floor ? wide(p.floor) : B.getInt64(0);
  llvm::Value* limit = wide(p.limit);
  if (p.base) {
    llvm::Value* bf = base;
    unify(bf, floor);
    floor = B.CreateBinaryIntrinsic(llvm::Intrinsic::uadd_sat, bf, floor);
    llvm::Value* bl = base;
    unify(bl, limit);
    limit = B.CreateBinaryIntrinsic(llvm::Intrinsic::uadd_sat, bl, limit);
  }
  return Val{{address, floor, limit}};
}

Ptr Translator::pointerFromValue(const Val& v, uint32_t pointerType) {
  const Type* pt = module_.type(pointerType);
  if (v.leaves.size() != kVariablePointerLeaves) fail("a variable pointer value without its bounds");
  Ptr p;
  p.kind = Ptr::Kind::Memory;
  p.storage = pt ? pt->storage : spv::StorageClass::StorageBuffer;
  p.pointee = pt ? pt->element : 0;
  p.offset = v.leaves[0];
  p.floor = v.leaves[1];
  p.limit = v.leaves[2];
  return p;
}

Ptr Translator::makeGlobalPointer(const GlobalVariable& g) { return MemoryTranslation(*this).globalPointer(g); }

bool Translator::translateMemory(const Instruction& inst) {
  MemoryTranslation mt(*this);
  auto& B = b();
  switch (inst.op) {
    case Op::OpVariable: {
      // Function-storage variable: W interleaved copies in the function's frame.
      const Type* pt = module_.type(inst.type);
      uint32_t size = std::max<uint32_t>(naturalLayout_.size(pt->element), 1);
      auto* storage = entryAlloca(llvm::ArrayType::get(B.getInt8Ty(), uint64_t(size) * width()), 64);
      Ptr p;
      p.kind = Ptr::Kind::LaneMemory;
      p.storage = spv::StorageClass::Function;
      p.pointee = pt->element;
      p.base = storage;
      p.offset32 = true;
      p.offset = B.getInt32(0);
      definePointer(inst.result, p);
      if (uint32_t init = inst.operand(1)) initializeVariable(p, init);
      return true;
    }
    case Op::OpAccessChain:
    case Op::OpInBoundsAccessChain:
    case Op::OpPtrAccessChain:
    case Op::OpInBoundsPtrAccessChain: {
      bool ptrChain = inst.op == Op::OpPtrAccessChain || inst.op == Op::OpInBoundsPtrAccessChain;
      uint32_t stride = 0;
      if (ptrChain) stride = module_.decorations(module_.resultTypeOf(inst.operand(0))).arrayStride.value_or(0);
      definePointer(inst.result,
                    accessChain(pointer(inst.operand(0)), inst.operands + 1, inst.operandCount - 1, ptrChain, stride));
      return true;
    }
    case Op::OpLoad: {
      const Type* rt = module_.type(inst.type);
      Ptr p = pointer(inst.operand(0));
      bool isVolatile = (inst.operandCount > 1 && (inst.operand(1) & uint32_t(spv::MemoryAccessMask::Volatile))) ||
                        module_.decorations(inst.operand(0)).volatile_;
      if (rt && rt->kind == TypeKind::Pointer) {
        // A physical storage buffer pointer stored in memory, or a variable pointer kept in a
        // Function or Private variable (its three leaves).
        Val v = mt.load(p, inst.type, isVolatile);
        definePointer(inst.result,
                      isVariablePointer(inst.type) ? pointerFromValue(v, inst.type) : addressToPointer(v.leaf(0), inst.type));
        return true;
      }
      define(inst.result, mt.load(p, inst.type, isVolatile));
      if (const Type* t = module_.type(inst.type);
          !isVolatile && t && (t->kind == TypeKind::Array || t->kind == TypeKind::Struct) && p.kind == Ptr::Kind::LaneMemory)
        lastCompositeLoad_ = {inst.result, p};
      return true;
    }
    case Op::OpStore: {
      Ptr p = pointer(inst.operand(0));
      uint32_t valueId = inst.operand(1);
      uint32_t type = p.pointee;
      const Type* vt = module_.type(type);
      bool isVolatile = (inst.operandCount > 2 && (inst.operand(2) & uint32_t(spv::MemoryAccessMask::Volatile)));
      // A null constant (what inlining makes of a callee's variable initializer) is zeroed
      // without a value of its leaves.
      if (const Constant* c = module_.constant(valueId);
          !isVolatile && c && (c->kind == ConstantKind::Null || c->kind == ConstantKind::Undef) && zeroStorage(p))
        return true;
      // The composite loaded by the instruction just before, copied memory to memory.
      if (!isVolatile && lastCompositeLoad_.result == valueId && copyStorage(p, lastCompositeLoad_.source)) {
        lastCompositeLoad_ = {};
        return true;
      }
      lastCompositeLoad_ = {};
      Val v;
      if (vt && vt->kind == TypeKind::Pointer)
        v = isVariablePointer(type) ? pointerValue(pointer(valueId)) : Val{{pointerToAddress(pointer(valueId))}};
      else v = value(valueId);
      mt.store(p, v, type, isVolatile);
      return true;
    }
    case Op::OpCopyMemory: {
      Ptr dst = pointer(inst.operand(0)), src = pointer(inst.operand(1));
      mt.store(dst, mt.load(src, src.pointee, false), dst.pointee, false);
      return true;
    }
    case Op::OpArrayLength: {
      Ptr p = pointer(inst.operand(0));
      uint32_t member = inst.operand(1);
      llvm::Value* result = B.getInt32(0);
      if (p.kind == Ptr::Kind::Memory && p.limit) {
        LayoutStep s = explicitLayout_.memberStep(p.pointee, member);
        LayoutStep e = explicitLayout_.elementStep(s.type, s.context);
        llvm::Value* start = mt.addOffsets(p.offset ? p.offset : mt.offsetConst(p, 0), mt.offsetConst(p, s.offset));
        llvm::Value* limit = p.limit;
        unify(start, limit);
        llvm::Value* avail = B.CreateSub(limit, start);
        // A range shorter than the array's start has no elements.
        avail = B.CreateSelect(B.CreateICmpUGT(start, limit), llvm::Constant::getNullValue(avail->getType()), avail);
        llvm::Value* n = e.stride ? B.CreateUDiv(avail, constInt(avail->getType(), e.stride)) : avail;
        result = B.CreateZExtOrTrunc(n, n->getType()->isVectorTy() ? laneType(B.getInt32Ty()) : B.getInt32Ty());
      }
      define(inst.result, Val{{result}});
      return true;
    }
    case Op::OpConvertPtrToU: {
      llvm::Value* addr = pointerToAddress(pointer(inst.operand(0)));
      llvm::Type* rt = scalarType(inst.type);
      define(inst.result, Val{{B.CreateZExtOrTrunc(addr, addr->getType()->isVectorTy() ? laneType(rt) : rt)}});
      return true;
    }
    case Op::OpConvertUToPtr: {
      llvm::Value* v = scalarValue(inst.operand(0));
      definePointer(inst.result, addressToPointer(mt.i64(v, false), inst.type));
      return true;
    }
    case Op::OpPtrDiff: {
      // "Element-number subtraction of two pointers to the same array", in objects of their
      // pointee type (the stride OpPtrAccessChain steps by), signed; exact for pointers the
      // rule allows, and never a trap for others (a stride of 0 or 1 divides nothing).
      const Ptr p = pointer(inst.operand(0));
      llvm::Value* a = pointerToAddress(p);
      llvm::Value* c = pointerToAddress(pointer(inst.operand(1)));
      unify(a, c);
      llvm::Value* bytes = B.CreateSub(a, c);
      const uint32_t stride =
          mt.objectStride(p, module_.decorations(module_.resultTypeOf(inst.operand(0))).arrayStride.value_or(0));
      llvm::Value* elements = stride > 1 ? B.CreateSDiv(bytes, constInt(bytes->getType(), stride)) : bytes;
      llvm::Type* rt = scalarType(inst.type);
      define(inst.result, Val{{B.CreateSExtOrTrunc(elements, elements->getType()->isVectorTy() ? laneType(rt) : rt)}});
      return true;
    }
    case Op::OpPtrEqual:
    case Op::OpPtrNotEqual: {
      llvm::Value* a = pointerToAddress(pointer(inst.operand(0)));
      llvm::Value* c = pointerToAddress(pointer(inst.operand(1)));
      unify(a, c);
      define(inst.result, Val{{inst.op == Op::OpPtrEqual ? B.CreateICmpEQ(a, c) : B.CreateICmpNE(a, c)}});
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tessera::jit
