#include "translator.h"

#include "tessera/shader_abi.h"
#include "cancel_polls.h"
#include "full_mask_blocks.h"
#include "lane_affine.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <unordered_set>

namespace tessera::jit {

using spv::Op;

namespace {
struct TranslationError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
}  // namespace

// Storage for a pointer that crosses blocks: one slot per non-null LLVM component.
struct PointerSlots {
  Ptr shape;
  llvm::AllocaInst* base = nullptr;
  llvm::AllocaInst* offset = nullptr;
  llvm::AllocaInst* limit = nullptr;
  llvm::AllocaInst* floor = nullptr;
  llvm::AllocaInst* component = nullptr;
  llvm::AllocaInst* choice = nullptr;
};

struct Translator::FunctionState {
  const Function* f = nullptr;
  const StructuredCfg* cfg = nullptr;
  llvm::Function* fn = nullptr;
  llvm::BasicBlock* allocaBlock = nullptr;
  std::vector<llvm::AllocaInst*> blockMask;                       // by block index (masked blocks)
  // Blocks that run with all the function's lanes or none (full_mask_blocks.h): their mask is
  // incomingMask and a scalar flag says whether they run; blockMask is null for them.
  std::vector<uint8_t> full;
  std::vector<llvm::AllocaInst*> blockReached;                    // by block index (full blocks)
  std::unordered_map<uint32_t, std::vector<llvm::AllocaInst*>> phiSlots;
  std::unordered_map<uint32_t, int> defBlock;                     // id -> block index (-1: params)
  std::unordered_set<uint32_t> crossBlock;
  // Cross-block id -> the header (block index) of the innermost loop holding its definition and
  // every use, for ids that have one: see iterationLocalSlot().
  std::unordered_map<uint32_t, uint32_t> iterationLoop;
  // Loop header (block index) -> the header of the loop around it; -1 where none (and for
  // blocks that are not headers).
  std::vector<int> outerLoop;
  std::unordered_map<uint32_t, std::vector<llvm::AllocaInst*>> valueSlots;
  // Per value slot leaf: the constant lane offsets of a leaf kept as lane 0's scalar (its lanes
  // are that plus the offsets, lane_affine.h), or null for a leaf kept whole.
  std::unordered_map<uint32_t, std::vector<llvm::Constant*>> slotOffsets;
  // Loop-header phis that step by a uniform amount each iteration from a lane pattern (a
  // grid-stride loop's index): kept as lane 0's scalar while the lanes follow the pattern.
  struct SteppingPhi {
    uint32_t backValue = 0;
    llvm::AllocaInst* first = nullptr;  // lane 0's value
    bool decided = false;               // the edge into the loop was seen
    llvm::Constant* offsets = nullptr;  // the pattern, null when the entry value showed none
  };
  std::unordered_map<uint32_t, SteppingPhi> steppingPhis;
  std::unordered_map<uint32_t, PointerSlots> pointerSlots;
  std::unordered_map<uint32_t, Val> values;
  std::unordered_map<uint32_t, Ptr> pointers;
  int currentBlock = -1;
  bool isEntry = false;
  llvm::Value* incomingMask = nullptr;   // lanes that entered the function
  llvm::AllocaInst* killedMask = nullptr;
  std::vector<llvm::AllocaInst*> returnSlots;
  std::vector<llvm::BasicBlock*> checkBlocks;  // by position
  llvm::BasicBlock* exitBlock = nullptr;
  llvm::Value* maskOut = nullptr;        // callee: where to store the surviving lanes
  llvm::Value* cancelWord = nullptr;     // BoundResources::cancel (or a word that stays 0)
};

Translator::Translator(const Module& module, const ShaderInterface& interface, llvm::LLVMContext& context,
                       llvm::Module& out)
    : module_(module),
      interface_(interface),
      context_(context),
      out_(out),
      builder_(std::make_unique<llvm::IRBuilder<>>(context)),
      uniformity_(std::make_unique<Uniformity>(module)),
      naturalLayout_(module, false),
      explicitLayout_(module, true) {}

Translator::~Translator() = default;

void Translator::fail(const std::string& message) { throw TranslationError(message); }

// ---- types ----------------------------------------------------------------------------------

bool Translator::isPhysicalPointerType(uint32_t id) const {
  const Type* t = module_.type(id);
  return t && t->kind == TypeKind::Pointer && t->storage == spv::StorageClass::PhysicalStorageBuffer;
}

llvm::Type* Translator::scalarType(uint32_t id) {
  const Type* t = module_.type(id);
  if (!t) fail("unknown type %" + std::to_string(id));
  switch (t->kind) {
    case TypeKind::Bool:
      return b().getInt1Ty();
    case TypeKind::Int:
      return b().getIntNTy(t->width);
    case TypeKind::Float:
      if (t->width == 16) return b().getHalfTy();
      if (t->width == 32) return b().getFloatTy();
      if (t->width == 64) return b().getDoubleTy();
      break;
    case TypeKind::Pointer:
      return b().getInt64Ty();
    default:
      break;
  }
  fail("type %" + std::to_string(id) + " is not a scalar");
}

bool Translator::isPointerType(uint32_t type) const {
  const Type* t = module_.type(type);
  return t && t->kind == TypeKind::Pointer;
}

llvm::Type* Translator::laneType(llvm::Type* scalar) const {
  return llvm::FixedVectorType::get(scalar, interface_.simdWidth);
}

uint32_t Translator::componentType(uint32_t type) const {
  const Type* t = module_.type(type);
  return t && t->kind == TypeKind::Vector ? t->element : type;
}

uint32_t Translator::componentCount(uint32_t type) const {
  const Type* t = module_.type(type);
  return t && t->kind == TypeKind::Vector ? t->count : 1;
}

// Scalars in a value of `type`, saturating at 2^40 (array lengths multiply). type_layout's
// flatComponentCount counts the same leaves in 32 bits, which a huge array type wraps; this
// count is what limits are checked against before any leaf is made.
static uint64_t scalarCount(const Module& module, uint32_t typeId, uint32_t depth = 0) {
  const Type* t = module.type(typeId);
  if (!t || depth > 64) return 0;
  constexpr uint64_t kSaturated = uint64_t(1) << 40;
  switch (t->kind) {
    case TypeKind::Bool:
    case TypeKind::Int:
    case TypeKind::Float:
    case TypeKind::Pointer:
      return 1;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      return std::min(kSaturated, uint64_t(t->count) * scalarCount(module, t->element, depth + 1));
    case TypeKind::Struct: {
      uint64_t n = 0;
      for (uint32_t m : t->members) n = std::min(kSaturated, n + scalarCount(module, m, depth + 1));
      return n;
    }
    default:
      return 0;
  }
}

void Translator::checkValueSize(uint32_t type) const {
  const uint64_t n = scalarCount(module_, type);
  if (n > kMaxValueScalars)
    throw TranslationError("a composite value of " + std::to_string(n) + " scalars (type %" + std::to_string(type) +
         ") is larger than this driver translates (" + std::to_string(kMaxValueScalars) +
         "); access such arrays element by element");
}

void Translator::countValue(uint32_t type) {
  const uint64_t n = scalarCount(module_, type);
  if (n <= kCountedValueScalars) return;
  checkValueSize(type);
  moduleValueScalars_ += n;
  if (moduleValueScalars_ > kMaxModuleValueScalars)
    fail("the module's whole-composite values (loads, stores, constants and operations on arrays and structs of more "
         "than " + std::to_string(kCountedValueScalars) + " scalars) exceed " + std::to_string(kMaxModuleValueScalars) +
         " scalars in all, more than this driver translates; access such arrays element by element");
}

bool Translator::holdsPointer(uint32_t typeId) const {
  const Type* t = module_.type(typeId);
  if (!t) return false;
  switch (t->kind) {
    case TypeKind::Pointer:
      return true;
    case TypeKind::Vector:
    case TypeKind::Matrix:
    case TypeKind::Array:
      return holdsPointer(t->element);
    case TypeKind::Struct:
      for (uint32_t m : t->members)
        if (holdsPointer(m)) return true;
      return false;
    default:
      return false;
  }
}

std::vector<uint32_t> Translator::leafTypes(uint32_t type) const {
  checkValueSize(type);
  std::vector<uint32_t> out;
  std::vector<Leaf> leaves;
  naturalLayout_.leaves(type, {}, 0, leaves);
  out.reserve(leaves.size());
  for (const Leaf& l : leaves) out.push_back(l.type);
  return out;
}

// ---- SIMD helpers ---------------------------------------------------------------------------

llvm::Value* Translator::splat(llvm::Value* v) {
  if (v->getType()->isVectorTy()) return v;
  return b().CreateVectorSplat(interface_.simdWidth, v);
}

llvm::Value* Translator::laneIndex() {
  std::vector<llvm::Constant*> lanes;
  for (uint32_t i = 0; i < interface_.simdWidth; ++i) lanes.push_back(b().getInt32(i));
  return llvm::ConstantVector::get(lanes);
}

llvm::Value* Translator::allOnes() { return llvm::Constant::getAllOnesValue(laneType(b().getInt1Ty())); }

llvm::Value* Translator::any(llvm::Value* m) {
  if (!m->getType()->isVectorTy()) return m;
  llvm::Value* bits = b().CreateBitCast(m, b().getIntNTy(interface_.simdWidth));
  return b().CreateICmpNE(bits, llvm::ConstantInt::get(bits->getType(), 0));
}

llvm::Value* Translator::all(llvm::Value* m) {
  if (!m->getType()->isVectorTy()) return m;
  llvm::Value* bits = b().CreateBitCast(m, b().getIntNTy(interface_.simdWidth));
  return b().CreateICmpEQ(bits, llvm::Constant::getAllOnesValue(bits->getType()));
}

void Translator::unify(llvm::Value*& a, llvm::Value*& c) {
  if (isVector(a) != isVector(c)) {
    a = splat(a);
    c = splat(c);
  }
}

void Translator::unify(llvm::Value*& a, llvm::Value*& c, llvm::Value*& d) {
  if (isVector(a) || isVector(c) || isVector(d)) {
    a = splat(a);
    c = splat(c);
    d = splat(d);
  }
}

llvm::Value* Translator::select(llvm::Value* cond, llvm::Value* t, llvm::Value* f) {
  if (isVector(cond) || isVector(t) || isVector(f)) {
    cond = splat(cond);
    t = splat(t);
    f = splat(f);
  }
  return b().CreateSelect(cond, t, f);
}

llvm::Value* Translator::uniformize(llvm::Value* v, llvm::Value* activeMask) {
  if (!isVector(v)) return v;
  // Lanes that are not active may hold anything: take the first active one.
  llvm::Type* intTy = b().getIntNTy(interface_.simdWidth);
  llvm::Value* bits = b().CreateBitCast(splat(activeMask ? activeMask : mask_), intTy);
  llvm::Value* lane = b().CreateIntrinsic(llvm::Intrinsic::cttz, {intTy}, {bits, b().getFalse()});
  // The mask is an iW integer: narrower than i32 for W < 32, so widen (a trunc is invalid IR).
  lane = b().CreateAnd(b().CreateZExtOrTrunc(lane, b().getInt32Ty()), b().getInt32(interface_.simdWidth - 1));
  return b().CreateExtractElement(v, lane);
}

llvm::Value* Translator::extractLane(llvm::Value* v, llvm::Value* lane) {
  return isVector(v) ? b().CreateExtractElement(v, lane) : v;
}

llvm::Value* Translator::constInt(llvm::Type* t, uint64_t v) {
  if (auto* vt = llvm::dyn_cast<llvm::VectorType>(t))
    return llvm::ConstantVector::getSplat(vt->getElementCount(), llvm::ConstantInt::get(vt->getElementType(), v));
  return llvm::ConstantInt::get(t, v);
}

void Translator::forEachActiveLane(llvm::Value* laneMask, const std::function<void(llvm::Value*)>& body) {
  // while (bits) { lane = cttz(bits); body(lane); bits &= bits - 1; }
  llvm::Type* intTy = b().getIntNTy(interface_.simdWidth);
  llvm::Value* bits = b().CreateBitCast(splat(laneMask), intTy);
  llvm::BasicBlock* pre = b().GetInsertBlock();
  llvm::Function* fn = pre->getParent();
  auto* loop = llvm::BasicBlock::Create(context_, "lane.loop", fn);
  auto* done = llvm::BasicBlock::Create(context_, "lane.done", fn);
  b().CreateCondBr(b().CreateICmpNE(bits, llvm::ConstantInt::get(intTy, 0)), loop, done);
  b().SetInsertPoint(loop);
  llvm::PHINode* cur = b().CreatePHI(intTy, 2);
  cur->addIncoming(bits, pre);
  llvm::Value* lane = b().CreateIntrinsic(llvm::Intrinsic::cttz, {intTy}, {cur, b().getTrue()});
  lane = b().CreateZExtOrTrunc(lane, b().getInt32Ty());  // iW -> i32: W may be below 32
  body(lane);
  llvm::Value* rest = b().CreateAnd(cur, b().CreateSub(cur, llvm::ConstantInt::get(intTy, 1)));
  cur->addIncoming(rest, b().GetInsertBlock());
  b().CreateCondBr(b().CreateICmpNE(rest, llvm::ConstantInt::get(intTy, 0)), loop, done);
  b().SetInsertPoint(done);
}

llvm::FunctionCallee Translator::runtime(const char* name, llvm::FunctionType* type) {
  return out_.getOrInsertFunction(name, type);
}

// The word BoundResources::cancel points to; where the resources or that pointer are null, the
// runtime's tessera_rt_never_cancelled (always 0). Computed once per function, in its entry.
llvm::Value* Translator::cancelWord() {
  auto& B = b();
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Constant* nullResources = out_.getOrInsertGlobal("tessera_rt_null_resources", llvm::ArrayType::get(B.getInt8Ty(), sizeof(abi::BoundResources)));
  llvm::Constant* never = out_.getOrInsertGlobal("tessera_rt_never_cancelled", B.getInt32Ty());
  llvm::Value* nullPtr = llvm::ConstantPointerNull::get(llvm::PointerType::get(context_, 0));
  llvm::Value* resources = B.CreateSelect(B.CreateICmpEQ(resources_, nullPtr), nullResources, resources_);
  llvm::Value* p = B.CreateLoad(ptrTy, B.CreateConstGEP1_32(B.getInt8Ty(), resources, uint32_t(offsetof(abi::BoundResources, cancel))));
  return B.CreateSelect(B.CreateICmpEQ(p, nullPtr), never, p);
}

// ---- values ---------------------------------------------------------------------------------

Val Translator::constant(uint32_t id) {
  auto it = constants_.find(id);
  if (it != constants_.end()) return it->second;
  const Constant* c = module_.constant(id);
  if (!c) fail("id %" + std::to_string(id) + " is not a constant");
  Val v;
  switch (c->kind) {
    case ConstantKind::Scalar: {
      llvm::Type* t = scalarType(c->type);
      if (t->isIntegerTy()) v.leaves.push_back(llvm::ConstantInt::get(t, c->bits));
      else if (t->isHalfTy()) v.leaves.push_back(llvm::ConstantFP::get(context_, llvm::APFloat(llvm::APFloat::IEEEhalf(), llvm::APInt(16, c->bits))));
      else if (t->isFloatTy()) v.leaves.push_back(llvm::ConstantFP::get(context_, llvm::APFloat(llvm::APFloat::IEEEsingle(), llvm::APInt(32, c->bits))));
      else v.leaves.push_back(llvm::ConstantFP::get(context_, llvm::APFloat(llvm::APFloat::IEEEdouble(), llvm::APInt(64, c->bits))));
      break;
    }
    case ConstantKind::Bool:
      v.leaves.push_back(b().getInt1(c->bits != 0));
      break;
    case ConstantKind::Composite:
      // Counted before the leaves are made (constituents may repeat one big id), once: the
      // constituents' leaves are this value's, not values of their own.
      if (constantNesting_ == 0) countValue(c->type);
      else checkValueSize(c->type);
      ++constantNesting_;
      for (uint32_t part : c->constituents) {
        Val p = constant(part);
        v.leaves.insert(v.leaves.end(), p.leaves.begin(), p.leaves.end());
      }
      --constantNesting_;
      break;
    case ConstantKind::Null:
    case ConstantKind::Undef:
      if (constantNesting_ == 0) countValue(c->type);
      // Undefined values are zero: deterministic, and never poison.
      for (uint32_t t : leafTypes(c->type)) v.leaves.push_back(llvm::Constant::getNullValue(scalarType(t)));
      break;
    default:
      fail("unsupported constant %" + std::to_string(id));
  }
  constants_[id] = v;
  return v;
}

Val Translator::specConstantOp(uint32_t id, const Constant& c) {
  if (!fn_) fail("OpSpecConstantOp outside a function");
  auto it = fn_->values.find(id);
  if (it != fn_->values.end()) return it->second;
  // Evaluate the operation in the function's prologue (its operands are constants, so it
  // dominates every use and folds to a constant).
  Instruction inst = c.operation;
  inst.op = spv::Op(c.operation.operand(0));
  inst.operands = c.operation.operands + 1;
  inst.operandCount = c.operation.operandCount - 1;
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  b().SetInsertPoint(fn_->allocaBlock->getTerminator());
  llvm::Value* savedMask = mask_;
  mask_ = allOnes();
  int savedBlock = fn_->currentBlock;
  fn_->currentBlock = -1;
  if (!translateArithmetic(inst) && !translateComposite(inst))
    fail("unsupported OpSpecConstantOp operation " + std::to_string(uint32_t(inst.op)));
  fn_->currentBlock = savedBlock;
  mask_ = savedMask;
  return fn_->values.at(id);
}

llvm::Value* Translator::loadSlot(llvm::AllocaInst* slot) {
  return b().CreateLoad(slot->getAllocatedType(), slot);
}

// Slots start as zero: lanes that never write one (inactive ones) then hold a defined value,
// as undefined values are zero everywhere else (and valgrind sees no uninitialised reads).
static llvm::AllocaInst* makeSlot(llvm::IRBuilder<>& builder, llvm::BasicBlock* allocaBlock, llvm::Type* t) {
  llvm::IRBuilder<> entry(allocaBlock, allocaBlock->getFirstInsertionPt());
  llvm::AllocaInst* slot = entry.CreateAlloca(t);
  entry.CreateStore(llvm::Constant::getNullValue(t), slot);
  return slot;
}

// A value whose definition and uses all lie in one loop is only ever read in the iteration
// that defined it (the definition dominates the uses, and a path from the loop's header to a
// use that skipped the definition would, taken on the loop's first entry, skip it from the
// function's entry). The skip-when-no-lane-is-active edges of the masked CFG hide that from
// LLVM, which would otherwise carry the slot round the loop in a phi: one live range across the
// whole loop per such value, which makes register allocation quadratic in the loop's size
// (1000 if-statements in a loop took 14 s to compile). Zeroing the slot where each iteration
// starts ends every such live range there.
void Translator::iterationLocalSlot(uint32_t id, llvm::AllocaInst* slot) {
  auto loop = fn_->iterationLoop.find(id);
  if (loop == fn_->iterationLoop.end()) return;
  llvm::BasicBlock* check = fn_->checkBlocks[fn_->cfg->position[loop->second]];
  llvm::IRBuilder<> start(check, check->getFirstInsertionPt());
  start.CreateStore(llvm::Constant::getNullValue(slot->getAllocatedType()), slot);
}

llvm::AllocaInst* Translator::entryAlloca(llvm::Type* type, uint32_t align) {
  allocaBytes_ += out_.getDataLayout().getTypeAllocSize(type) + align;
  llvm::IRBuilder<> entry(fn_->allocaBlock, fn_->allocaBlock->getFirstInsertionPt());
  auto* a = entry.CreateAlloca(type);
  a->setAlignment(llvm::Align(align));
  return a;
}

void Translator::materializeGlobal(uint32_t id) {
  const GlobalVariable* g = module_.global(id);
  if (!g) return;
  // Built in the function's prologue so it dominates every use; while the prologue is still
  // being built (a Private variable's initializer naming another variable), right here.
  llvm::IRBuilderBase::InsertPointGuard guard(b());
  if (llvm::Instruction* end = fn_->allocaBlock->getTerminator()) b().SetInsertPoint(end);
  globalPointers_[id] = makeGlobalPointer(*g);
}

Val Translator::value(uint32_t id) {
  if (const Constant* c = module_.constant(id)) {
    if (c->kind == ConstantKind::SpecOp) return specConstantOp(id, *c);
    return constant(id);
  }
  if (fn_) {
    auto def = fn_->defBlock.find(id);
    if (def != fn_->defBlock.end() && def->second != fn_->currentBlock && fn_->crossBlock.count(id)) {
      auto slots = fn_->valueSlots.find(id);
      if (slots == fn_->valueSlots.end()) fail("value %" + std::to_string(id) + " used before its definition");
      Val v;
      auto pattern = fn_->slotOffsets.find(id);  // a lookup: reading must not add entries
      for (size_t i = 0; i < slots->second.size(); ++i) {
        llvm::Value* leaf = loadSlot(slots->second[i]);
        if (pattern != fn_->slotOffsets.end() && i < pattern->second.size() && pattern->second[i])
          leaf = b().CreateAdd(splat(leaf), pattern->second[i]);
        v.leaves.push_back(leaf);
      }
      return v;
    }
    auto it = fn_->values.find(id);
    if (it != fn_->values.end()) return it->second;
  }
  fail("no value for id %" + std::to_string(id));
}

// Whether every use of cross-block value `id` lies in the innermost loop around its definition
// (or it is defined outside every loop): then the lanes active at a use were active at the
// definition in the same iteration, and no lane's value from an earlier one is ever read.
bool Translator::staysInItsLoop(uint32_t id) const {
  auto def = fn_->defBlock.find(id);
  if (def == fn_->defBlock.end() || def->second < 0) return false;
  const int loop = fn_->cfg->innermostLoop[uint32_t(def->second)];
  if (loop < 0) return true;
  auto it = fn_->iterationLoop.find(id);
  return it != fn_->iterationLoop.end() && int(it->second) == loop;
}

// The constant lane offsets of an integer leaf whose lanes provably follow them without any
// run-time condition (lane_affine.h), as a constant vector of its type; null otherwise.
llvm::Constant* Translator::laneOffsets(llvm::Value* leaf) {
  llvm::Type* scalar = leaf->getType()->getScalarType();
  if (!scalar->isIntegerTy() || scalar->isIntegerTy(1)) return nullptr;
  auto pattern = lanePattern(b(), leaf, width());
  if (!pattern || !pattern->conditions.empty()) return nullptr;
  std::vector<llvm::Constant*> lanes;
  for (int64_t o : pattern->offsets) lanes.push_back(llvm::ConstantInt::get(scalar, uint64_t(o), true));
  return llvm::ConstantVector::get(lanes);
}

void Translator::define(uint32_t id, Val v) {
  if (fn_->crossBlock.count(id) && fn_->defBlock[id] > 0) {
    // A value the analysis calls varying gets a vector slot even when this definition is a
    // scalar (batch-uniform built-ins): in a loop with divergent exits, lanes that left in
    // earlier iterations must keep the value they saw.
    const bool varying = isVarying(id);
    auto& slots = fn_->valueSlots[id];
    auto& offsets = fn_->slotOffsets[id];
    if (slots.empty())
      for (llvm::Value* leaf : v.leaves) {
        // An integer whose lanes follow a constant pattern keeps only lane 0, so that its uses
        // in other blocks still see the pattern (contiguous memory accesses, lane_affine.h).
        // Only where no lane's older value can be read: the value never leaves its loop.
        llvm::Constant* pattern = varying && staysInItsLoop(id) ? laneOffsets(leaf) : nullptr;
        offsets.push_back(pattern);
        llvm::Type* scalar = leaf->getType()->getScalarType();
        llvm::Type* slotType = pattern ? scalar : varying ? laneType(scalar) : leaf->getType();
        slots.push_back(makeSlot(b(), fn_->allocaBlock, slotType));
        iterationLocalSlot(id, slots.back());
      }
    for (size_t i = 0; i < v.leaves.size(); ++i) {
      llvm::Value* leaf = v.leaves[i];
      if (i < offsets.size() && offsets[i]) {
        b().CreateStore(isVector(leaf) ? b().CreateExtractElement(leaf, uint64_t(0)) : leaf, slots[i]);
        continue;
      }
      if (slots[i]->getAllocatedType() != leaf->getType()) {
        if (slots[i]->getAllocatedType()->isVectorTy()) leaf = splat(leaf);
        else leaf = uniformize(leaf);
      }
      // Varying values keep the lanes that are not active (a loop with divergent exits
      // redefines a value for the remaining lanes only). In a full block every lane of the
      // function is active: the others never run, so their values do not matter.
      const bool fullBlock = fn_->currentBlock >= 0 && fn_->full[uint32_t(fn_->currentBlock)];
      if (isVector(leaf) && mask_ && !fullBlock) leaf = b().CreateSelect(mask_, leaf, loadSlot(slots[i]));
      b().CreateStore(leaf, slots[i]);
    }
  }
  fn_->values[id] = std::move(v);
}

Ptr Translator::pointer(uint32_t id) {
  auto g = globalPointers_.find(id);
  if (g != globalPointers_.end()) return g->second;
  if (fn_ && module_.global(id)) {
    materializeGlobal(id);
    return globalPointers_[id];
  }
  if (fn_) {
    auto def = fn_->defBlock.find(id);
    if (def != fn_->defBlock.end() && def->second != fn_->currentBlock && fn_->crossBlock.count(id)) {
      auto s = fn_->pointerSlots.find(id);
      if (s == fn_->pointerSlots.end()) fail("pointer %" + std::to_string(id) + " used before its definition");
      Ptr p = s->second.shape;
      if (s->second.base) p.base = loadSlot(s->second.base);
      if (s->second.offset) p.offset = loadSlot(s->second.offset);
      if (s->second.limit) p.limit = loadSlot(s->second.limit);
      if (s->second.floor) p.floor = loadSlot(s->second.floor);
      if (s->second.component) p.component = loadSlot(s->second.component);
      if (s->second.choice) p.choice = loadSlot(s->second.choice);
      return p;
    }
    auto it = fn_->pointers.find(id);
    if (it != fn_->pointers.end()) return it->second;
  }
  // A null pointer, or an undefined one (spirv-opt makes OpUndef pointers for phis on paths
  // that never use them): address 0.
  if (const Constant* c = module_.constant(id); c && (c->kind == ConstantKind::Null || c->kind == ConstantKind::Undef))
    return nullPointer(c->type);
  fail("no pointer for id %" + std::to_string(id));
}

Ptr Translator::nullPointer(uint32_t pointerType) {
  Ptr p;
  p.kind = Ptr::Kind::Memory;
  const Type* pt = module_.type(pointerType);
  p.storage = pt ? pt->storage : spv::StorageClass::PhysicalStorageBuffer;
  p.pointee = pt ? pt->element : 0;
  p.offset = b().getInt64(0);
  // A logical one (a variable pointer's OpConstantNull) reaches nothing: its empty range makes
  // every access through it read zero and drop its stores, rather than touch address 0.
  if (isVariablePointerType(pt)) p.floor = p.limit = b().getInt64(0);
  return p;
}

void Translator::definePointer(uint32_t id, Ptr p) {
  if (fn_->crossBlock.count(id) && fn_->defBlock[id] > 0) {
    PointerSlots& s = fn_->pointerSlots[id];
    const bool varying = isVarying(id);
    auto keep = [&](llvm::Value*& v, llvm::AllocaInst*& slot) {
      if (!v || llvm::isa<llvm::Constant>(v) || llvm::isa<llvm::Argument>(v)) return;
      if (auto* inst = llvm::dyn_cast<llvm::Instruction>(v); inst && inst->getParent() == fn_->allocaBlock) return;
      if (varying && !v->getType()->isPointerTy()) v = splat(v);  // see define()
      if (!slot) {
        slot = makeSlot(b(), fn_->allocaBlock, v->getType());
        iterationLocalSlot(id, slot);
      }
      llvm::Value* stored = v;
      if (isVector(v) && mask_) stored = b().CreateSelect(mask_, v, loadSlot(slot));
      b().CreateStore(stored, slot);
    };
    keep(p.base, s.base);
    keep(p.offset, s.offset);
    keep(p.limit, s.limit);
    keep(p.floor, s.floor);
    keep(p.component, s.component);
    keep(p.choice, s.choice);
    s.shape = p;
  }
  fn_->pointers[id] = std::move(p);
}

// ---- functions and control flow -------------------------------------------------------------

llvm::Function* Translator::declareFunction(const Function& f) {
  auto it = functions_.find(f.id);
  if (it != functions_.end()) return it->second;
  // Callee signature: (env, mask in/out, parameters...) -> struct of return leaves.
  // Every parameter and result is varying; pointer parameters pass (base, offset, limit, floor).
  std::vector<llvm::Type*> params{b().getPtrTy(), b().getPtrTy()};
  for (const Instruction& p : f.parameters) {
    const Type* t = module_.type(p.type);
    if (t && t->kind == TypeKind::Pointer) {
      params.push_back(b().getPtrTy());
      params.push_back(laneType(b().getInt64Ty()));
      params.push_back(laneType(b().getInt64Ty()));
      params.push_back(laneType(b().getInt64Ty()));
    } else {
      for (uint32_t leaf : leafTypes(p.type)) params.push_back(laneType(scalarType(leaf)));
    }
  }
  std::vector<llvm::Type*> results;
  for (uint32_t leaf : leafTypes(f.resultType)) results.push_back(laneType(scalarType(leaf)));
  llvm::Type* ret = results.empty() ? b().getVoidTy() : static_cast<llvm::Type*>(llvm::StructType::get(context_, results));
  auto* type = llvm::FunctionType::get(ret, params, false);
  auto* fn = llvm::Function::Create(type, llvm::Function::InternalLinkage, "spirv_fn_" + std::to_string(f.id), out_);
  functions_[f.id] = fn;
  return fn;
}

void Translator::translateFunctionBody(const Function& f, llvm::Function* fn, bool isEntry) {
  auto saved = std::move(fn_);
  llvm::Value* savedMask = mask_;
  llvm::Value* savedEnv[5] = {env_, wgState_, batch_, resources_, privateBase_};
  auto savedGlobals = std::move(globalPointers_);
  globalPointers_.clear();
  env_ = nullptr;
  auto savedInsert = b().saveIP();
  fn_ = std::make_unique<FunctionState>();
  FunctionState& st = *fn_;
  st.f = &f;
  st.fn = fn;
  st.isEntry = isEntry;
  auto cfgIt = cfgs_.find(f.id);
  if (cfgIt == cfgs_.end()) cfgIt = cfgs_.emplace(f.id, buildStructuredCfg(f)).first;
  st.cfg = &cfgIt->second;
  const StructuredCfg& cfg = *st.cfg;
  if (cfg.order.empty()) fail("function without blocks");

  // Where every id is defined, and which are used in another block than their own.
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& blk = f.blocks[bi];
    for (const Instruction& i : blk.phis) st.defBlock[i.result] = int(bi);
    for (const Instruction& i : blk.body)
      if (i.result) st.defBlock[i.result] = int(bi);
  }
  for (const Instruction& p : f.parameters) st.defBlock[p.result] = -1;
  auto label = [&](uint32_t l) -> int {
    auto it = f.blockIndex.find(l);
    return it == f.blockIndex.end() ? -1 : int(it->second);
  };
  auto use = [&](uint32_t id, int inBlock) {
    auto d = st.defBlock.find(id);
    if (d != st.defBlock.end() && d->second > 0 && d->second != inBlock) st.crossBlock.insert(id);
  };
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& blk = f.blocks[bi];
    for (const Instruction& phi : blk.phis) {
      st.crossBlock.insert(phi.result);  // read from its slot; may be used anywhere below
      for (uint32_t k = 0; k + 1 < phi.operandCount; k += 2) use(phi.operand(k), label(phi.operand(k + 1)));
    }
    for (const Instruction& i : blk.body)
      for (uint32_t k = 0; k < i.operandCount; ++k) use(i.operand(k), int(bi));
    for (uint32_t k = 0; k < blk.terminator.operandCount; ++k) use(blk.terminator.operand(k), int(bi));
  }
  // A phi is defined at the start of its own block; its value slot is only needed elsewhere.
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi)
    for (const Instruction& phi : f.blocks[bi].phis) {
      bool usedElsewhere = false;
      for (uint32_t bj = 0; bj < f.blocks.size() && !usedElsewhere; ++bj) {
        if (bj == bi) continue;
        for (const Instruction& i : f.blocks[bj].body)
          for (uint32_t k = 0; k < i.operandCount && !usedElsewhere; ++k) usedElsewhere = i.operand(k) == phi.result;
        for (uint32_t k = 0; k < f.blocks[bj].terminator.operandCount; ++k)
          usedElsewhere |= f.blocks[bj].terminator.operand(k) == phi.result;
        for (const Instruction& p2 : f.blocks[bj].phis)
          for (uint32_t k = 0; k + 1 < p2.operandCount; k += 2) usedElsewhere |= p2.operand(k) == phi.result;
      }
      // Phis used by a phi of their own block (loop-carried) also need the slot.
      for (const Instruction& p2 : f.blocks[bi].phis)
        for (uint32_t k = 0; k + 1 < p2.operandCount; k += 2) usedElsewhere |= p2.operand(k) == phi.result;
      if (!usedElsewhere) st.crossBlock.erase(phi.result);
    }
  findIterationLoops(st);
  st.full = findFullMaskBlocks(f, cfg, *uniformity_, stage_ == Stage::Fragment);
  findSteppingPhis(st);

  st.allocaBlock = llvm::BasicBlock::Create(context_, "allocas", fn);
  b().SetInsertPoint(st.allocaBlock);
  llvm::Type* maskTy = laneType(b().getInt1Ty());
  st.blockMask.assign(f.blocks.size(), nullptr);
  st.blockReached.assign(f.blocks.size(), nullptr);

  // Entry environment.
  if (isEntry) {
    if (stage_ == Stage::Compute) setupComputeEnvironment(*entry_);
    else setupGraphicsEnvironment();
    if (resumable_) beginCoroutine();
    st.incomingMask = mask_;
    st.cancelWord = cancelWord();
  } else {
    llvm::Argument* env = fn->getArg(0);
    env_ = env;
    llvm::Type* ptrTy = b().getPtrTy();
    wgState_ = b().CreateLoad(ptrTy, b().CreateConstGEP1_32(ptrTy, env, 0));
    batch_ = b().CreateLoad(b().getInt32Ty(), b().CreateConstGEP1_32(ptrTy, env, 1));
    resources_ = b().CreateLoad(ptrTy, b().CreateConstGEP1_32(ptrTy, env, 2));
    privateBase_ = b().CreateLoad(ptrTy, b().CreateConstGEP1_32(ptrTy, env, 3));
    st.cancelWord = cancelWord();
    st.maskOut = fn->getArg(1);
    st.incomingMask = b().CreateLoad(maskTy, fn->getArg(1));
    // Parameters.
    uint32_t arg = 2;
    for (const Instruction& p : f.parameters) {
      const Type* t = module_.type(p.type);
      if (t && t->kind == TypeKind::Pointer) {
        Ptr ptr;
        ptr.storage = t->storage;
        ptr.pointee = t->element;
        // A control stage's outputs are patch memory, not lane memory (translate_tessellation.cpp).
        bool lane = ptr.storage == spv::StorageClass::Function || ptr.storage == spv::StorageClass::Private ||
                    (ptr.storage == spv::StorageClass::Output && stage_ != Stage::TessControl);
        ptr.kind = lane ? Ptr::Kind::LaneMemory : Ptr::Kind::Memory;
        ptr.base = fn->getArg(arg++);
        ptr.offset = fn->getArg(arg++);
        llvm::Value* limit = fn->getArg(arg++);
        llvm::Value* floor = fn->getArg(arg++);
        ptr.limit = lane ? nullptr : limit;
        ptr.floor = lane ? nullptr : floor;
        fn_->pointers[p.result] = ptr;
      } else {
        Val v;
        for (size_t i = 0, n = leafTypes(p.type).size(); i < n; ++i) v.leaves.push_back(fn->getArg(arg++));
        fn_->values[p.result] = v;
      }
    }
  }
  mask_ = st.incomingMask;

  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    if (cfg.position[bi] < 0) continue;
    if (st.full[bi]) {
      st.blockReached[bi] = b().CreateAlloca(b().getInt1Ty());
      b().CreateStore(b().getFalse(), st.blockReached[bi]);
    } else {
      st.blockMask[bi] = b().CreateAlloca(maskTy);
      b().CreateStore(llvm::Constant::getNullValue(maskTy), st.blockMask[bi]);
    }
    for (const Instruction& phi : f.blocks[bi].phis) {
      // Physical storage buffer pointers are one 64-bit address (a linked-list walk makes such
      // phis), logical ones (variable pointers) their three leaves (pointerValue): leafTypes
      // gives either.
      if (auto stepping = st.steppingPhis.find(phi.result); stepping != st.steppingPhis.end()) {
        stepping->second.first = b().CreateAlloca(scalarType(phi.type));
        b().CreateStore(llvm::Constant::getNullValue(scalarType(phi.type)), stepping->second.first);
      }
      auto& slots = st.phiSlots[phi.result];
      for (uint32_t leaf : leafTypes(phi.type)) {
        llvm::Type* t = scalarType(leaf);
        if (isVarying(phi.result)) t = laneType(t);
        slots.push_back(b().CreateAlloca(t));
        b().CreateStore(llvm::Constant::getNullValue(t), slots.back());  // see makeSlot
      }
    }
  }
  st.killedMask = b().CreateAlloca(maskTy);
  b().CreateStore(llvm::Constant::getNullValue(maskTy), st.killedMask);
  if (!isEntry)
    for (uint32_t leaf : leafTypes(f.resultType)) {
      llvm::Type* t = laneType(scalarType(leaf));
      st.returnSlots.push_back(b().CreateAlloca(t));
      b().CreateStore(llvm::Constant::getNullValue(t), st.returnSlots.back());  // see makeSlot
    }

  st.checkBlocks.resize(cfg.order.size());
  for (uint32_t p = 0; p < cfg.order.size(); ++p)
    st.checkBlocks[p] = llvm::BasicBlock::Create(context_, "b" + std::to_string(f.blocks[cfg.order[p]].label), fn);
  st.exitBlock = llvm::BasicBlock::Create(context_, "exit", fn);
  b().CreateBr(st.checkBlocks[0]);
  // A phi's slot is written on the edges into its block and read where the block starts, so
  // inside a loop whose header is not that block it lives within one iteration, as the values
  // of iterationLocalSlot() do: zero it where each iteration starts.
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    if (cfg.position[bi] < 0 || f.blocks[bi].phis.empty()) continue;
    const int loop = cfg.loopLast[bi] >= 0 ? st.outerLoop[bi] : cfg.innermostLoop[bi];
    if (loop < 0) continue;
    llvm::BasicBlock* check = st.checkBlocks[cfg.position[uint32_t(loop)]];
    llvm::IRBuilder<> start(check, check->getFirstInsertionPt());
    for (const Instruction& phi : f.blocks[bi].phis)
      for (llvm::AllocaInst* slot : st.phiSlots[phi.result])
        start.CreateStore(llvm::Constant::getNullValue(slot->getAllocatedType()), slot);
  }

  for (uint32_t p = 0; p < cfg.order.size(); ++p) emitBlock(cfg.order[p]);

  b().SetInsertPoint(st.exitBlock);
  if (isEntry) {
    // A geometry stage's outputs leave at each OpEmitVertex, not at the end.
    if (stage_ == Stage::Vertex || stage_ == Stage::Fragment || stage_ == Stage::TessEval) emitGraphicsEpilogue();
    if (stage_ == Stage::TessControl) emitTessControlEpilogue();
    if (stage_ == Stage::Fragment) {
      // Discarded lanes are not alive: alive &= ~killed.
      llvm::Value* killedBits = b().CreateZExt(b().CreateBitCast(b().CreateLoad(maskTy, st.killedMask),
                                                                 b().getIntNTy(width())), b().getInt32Ty());
      llvm::Value* at = b().CreateConstGEP1_32(b().getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, alive));
      b().CreateStore(b().CreateAnd(b().CreateLoad(b().getInt32Ty(), at), b().CreateNot(killedBits)), at);
      emitDirectColorWrites();
    }
    if (resumable_) finishCoroutine();
    else b().CreateRetVoid();
  } else {
    llvm::Value* killed = b().CreateLoad(maskTy, st.killedMask);
    b().CreateStore(b().CreateAnd(st.incomingMask, b().CreateNot(killed)), st.maskOut);
    if (st.returnSlots.empty()) {
      b().CreateRetVoid();
    } else {
      llvm::Value* agg = llvm::UndefValue::get(fn->getReturnType());
      for (uint32_t i = 0; i < st.returnSlots.size(); ++i)
        agg = b().CreateInsertValue(agg, loadSlot(st.returnSlots[i]), {i});
      b().CreateRet(agg);
    }
  }

  fn_ = std::move(saved);
  mask_ = savedMask;
  globalPointers_ = std::move(savedGlobals);
  env_ = savedEnv[0];
  wgState_ = savedEnv[1];
  batch_ = savedEnv[2];
  resources_ = savedEnv[3];
  privateBase_ = savedEnv[4];
  b().restoreIP(savedInsert);
}

// Loop-header phis of a grid-stride loop: two incoming values, the back-edge one the phi plus a
// uniform value (OpIAdd), varying, and never used outside the loop (staysInItsLoop: lanes that
// left the loop early need no value of their own). Whether the value entering the loop has a
// lane pattern is only known when its edge is translated (propagateEdge).
void Translator::findSteppingPhis(FunctionState& st) {
  const Function& f = *st.f;
  const StructuredCfg& cfg = *st.cfg;
  std::unordered_map<uint32_t, const Instruction*> definitions;
  for (const Block& blk : f.blocks)
    for (const Instruction& i : blk.body)
      if (i.result) definitions[i.result] = &i;
  for (uint32_t h = 0; h < f.blocks.size(); ++h) {
    if (cfg.position[h] < 0 || cfg.loopLast[h] < 0) continue;
    for (const Instruction& phi : f.blocks[h].phis) {
      if (phi.operandCount != 4 || !isVarying(phi.result)) continue;
      const Type* type = module_.type(phi.type);
      if (!type || type->kind != TypeKind::Int) continue;
      uint32_t back = 0;
      int backEdges = 0;
      for (uint32_t k = 0; k < 4; k += 2) {
        auto pred = f.blockIndex.find(phi.operand(k + 1));
        if (pred != f.blockIndex.end() && cfg.position[pred->second] >= 0 && cfg.isBackEdge(pred->second, h))
          back = phi.operand(k), ++backEdges;
      }
      if (backEdges != 1) continue;
      auto def = definitions.find(back);
      if (def == definitions.end() || def->second->op != spv::Op::OpIAdd) continue;
      const Instruction& add = *def->second;
      const uint32_t other = add.operand(0) == phi.result ? add.operand(1) : add.operand(1) == phi.result ? add.operand(0) : 0;
      if (!other || isVarying(other)) continue;
      auto loop = st.iterationLoop.find(phi.result);
      if (loop == st.iterationLoop.end() || loop->second != h) continue;
      st.steppingPhis[phi.result].backValue = back;
    }
  }
}

// For each cross-block id defined in a loop: the innermost loop that also holds every use
// (iterationLocalSlot). A phi operand is used where its edge leaves, in the predecessor.
void Translator::findIterationLoops(FunctionState& st) {
  const Function& f = *st.f;
  const StructuredCfg& cfg = *st.cfg;
  std::vector<int>& outerLoop = st.outerLoop;
  outerLoop.assign(f.blocks.size(), -1);
  for (uint32_t h = 0; h < f.blocks.size(); ++h) {
    if (cfg.position[h] < 0 || cfg.loopLast[h] < 0) continue;
    for (uint32_t g = 0; g < f.blocks.size(); ++g)
      if (g != h && cfg.position[g] >= 0 && cfg.loopLast[g] >= 0 && cfg.inLoop(g, h) &&
          (outerLoop[h] < 0 || cfg.position[g] > cfg.position[uint32_t(outerLoop[h])]))
        outerLoop[h] = int(g);
  }
  std::unordered_map<uint32_t, int> loopOf;  // id -> candidate header, -1 once none is left
  for (uint32_t id : st.crossBlock) {
    const int def = st.defBlock[id];
    if (def > 0 && cfg.position[uint32_t(def)] >= 0) loopOf[id] = cfg.innermostLoop[uint32_t(def)];
  }
  auto use = [&](uint32_t id, int inBlock) {
    auto it = loopOf.find(id);
    if (it == loopOf.end() || it->second < 0) return;
    if (inBlock < 0 || cfg.position[uint32_t(inBlock)] < 0) return;  // unreachable uses never run
    while (it->second >= 0 && !cfg.inLoop(uint32_t(it->second), uint32_t(inBlock))) it->second = outerLoop[uint32_t(it->second)];
  };
  for (uint32_t bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& blk = f.blocks[bi];
    for (const Instruction& phi : blk.phis)
      for (uint32_t k = 0; k + 1 < phi.operandCount; k += 2) {
        auto pred = f.blockIndex.find(phi.operand(k + 1));
        use(phi.operand(k), pred == f.blockIndex.end() ? -1 : int(pred->second));
      }
    for (const Instruction& i : blk.body)
      for (uint32_t k = 0; k < i.operandCount; ++k) use(i.operand(k), int(bi));
    for (uint32_t k = 0; k < blk.terminator.operandCount; ++k) use(blk.terminator.operand(k), int(bi));
  }
  for (auto [id, header] : loopOf)
    if (header >= 0) st.iterationLoop[id] = uint32_t(header);
}

void Translator::emitBlock(uint32_t bi) {
  // A composite load of another block is no copy source here: the block may run again after
  // its source changed, and under another mask.
  lastCompositeLoad_ = {};
  FunctionState& st = *fn_;
  const StructuredCfg& cfg = *st.cfg;
  const Block& blk = st.f->blocks[bi];
  const int pos = cfg.position[bi];
  llvm::Type* maskTy = laneType(b().getInt1Ty());
  llvm::Function* fn = st.fn;
  llvm::BasicBlock* next = pos + 1 < int(cfg.order.size()) ? st.checkBlocks[pos + 1] : st.exitBlock;
  auto* body = llvm::BasicBlock::Create(context_, "body", fn);
  auto* after = llvm::BasicBlock::Create(context_, "after", fn);

  b().SetInsertPoint(st.checkBlocks[pos]);
  if (pos == 0) {
    // The entry block runs unconditionally: the function is only called for active lanes,
    // so its values dominate every later block and need no slots.
    mask_ = st.incomingMask;
    b().CreateBr(body);
  } else if (st.full[bi]) {
    llvm::Value* reached = b().CreateLoad(b().getInt1Ty(), st.blockReached[bi]);
    b().CreateStore(b().getFalse(), st.blockReached[bi]);
    mask_ = st.incomingMask;
    b().CreateCondBr(reached, body, after);
  } else {
    llvm::Value* m = b().CreateLoad(maskTy, st.blockMask[bi]);
    b().CreateStore(llvm::Constant::getNullValue(maskTy), st.blockMask[bi]);
    mask_ = m;
    b().CreateCondBr(any(m), body, after);
  }

  b().SetInsertPoint(body);
  st.currentBlock = int(bi);
  for (const Instruction& phi : blk.phis) {
    Val v;
    auto stepping = st.steppingPhis.find(phi.result);
    if (stepping != st.steppingPhis.end() && stepping->second.offsets) {
      v.leaves.push_back(b().CreateAdd(splat(loadSlot(stepping->second.first)), stepping->second.offsets));
      define(phi.result, v);
      continue;
    }
    for (llvm::AllocaInst* s : st.phiSlots[phi.result]) v.leaves.push_back(loadSlot(s));
    if (isPhysicalPointerType(phi.type)) definePointer(phi.result, addressToPointer(v.leaf(0), phi.type));
    else if (isVariablePointer(phi.type)) definePointer(phi.result, pointerFromValue(v, phi.type));
    else define(phi.result, v);
  }
  for (const Instruction& inst : blk.body) {
    if (!translateInstruction(inst))
      fail("unsupported SPIR-V instruction (opcode " + std::to_string(uint32_t(inst.op)) + ")");
  }
  emitTerminator(bi);
  b().CreateBr(after);

  b().SetInsertPoint(after);
  st.currentBlock = -2;
  for (uint32_t header : cfg.loopsEndingAt[pos]) {
    // Loop end: go round again while lanes took the back-edge, unless the device's work was
    // cancelled (the watchdog: a loop that never ends must not hold the device forever; the
    // lanes still in the loop are simply left behind).
    // The poll is a branch of its own after the loop's own test, so that the optimizer sees
    // the loop's exit apart from the watchdog's (short innermost loops lose the poll there:
    // cancel_polls.h).
    llvm::Value* taken = st.full[header] ? b().CreateLoad(b().getInt1Ty(), st.blockReached[header])
                                         : any(b().CreateLoad(maskTy, st.blockMask[header]));
    auto* poll = llvm::BasicBlock::Create(context_, "loop.poll", fn);
    auto* cont = llvm::BasicBlock::Create(context_, "loop.exit", fn);
    b().CreateCondBr(taken, poll, cont);
    b().SetInsertPoint(poll);
    llvm::LoadInst* word = b().CreateLoad(b().getInt32Ty(), st.cancelWord, /*isVolatile=*/true);
    markCancelPoll(word);
    b().CreateCondBr(b().CreateICmpEQ(word, b().getInt32(0)), st.checkBlocks[cfg.position[header]], cont);
    b().SetInsertPoint(cont);
  }
  b().CreateBr(next);
}

// `edge`: the lanes taking the edge, as a <W x i1> mask, or as an i1 from a full block whose
// terminator is uniform: then true means all the function's lanes (incomingMask), which a full
// target records as a scalar flag and a masked one as that mask.
void Translator::propagateEdge(uint32_t from, uint32_t toLabel, llvm::Value* edge) {
  FunctionState& st = *fn_;
  auto it = st.f->blockIndex.find(toLabel);
  if (it == st.f->blockIndex.end()) fail("branch to an unknown block");
  uint32_t to = it->second;
  if (auto* c = llvm::dyn_cast<llvm::Constant>(edge); c && c->isNullValue()) return;
  if (!isVector(edge) && !st.full[to]) edge = b().CreateAnd(st.incomingMask, splat(edge));
  llvm::Value* taken = any(edge);
  const Block& target = st.f->blocks[to];
  const uint32_t fromLabel = st.f->blocks[from].label;
  for (const Instruction& phi : target.phis) {
    for (uint32_t k = 0; k + 1 < phi.operandCount; k += 2) {
      if (phi.operand(k + 1) != fromLabel) continue;
      Val v = pointerOrValue(phi.operand(k), phi.type);
      if (auto stepping = st.steppingPhis.find(phi.result); stepping != st.steppingPhis.end()) {
        FunctionState::SteppingPhi& sp = stepping->second;
        const bool entering = phi.operand(k) != sp.backValue;
        if (entering && !sp.decided) {
          // The edge into the loop comes first in structured order: its value decides.
          sp.decided = true;
          sp.offsets = laneOffsets(v.leaf(0));
        }
        if (sp.offsets) {
          // Lane 0 of the value less the pattern: on the entering edge the pattern itself; on
          // the back-edge (the phi plus a uniform step) any lane taking the edge gives it.
          llvm::Value* leaf = v.leaf(0);
          llvm::Value* first = entering ? (isVector(leaf) ? b().CreateExtractElement(leaf, uint64_t(0)) : leaf)
                                        : uniformize(b().CreateSub(splat(leaf), sp.offsets), isVector(edge) ? edge : mask_);
          b().CreateStore(b().CreateSelect(taken, first, loadSlot(sp.first)), sp.first);
          break;
        }
      }
      auto& slots = st.phiSlots[phi.result];
      for (size_t i = 0; i < slots.size() && i < v.leaves.size(); ++i) {
        llvm::Value* leaf = v.leaves[i];
        llvm::Value* old = loadSlot(slots[i]);
        llvm::Value* nv;
        if (slots[i]->getAllocatedType()->isVectorTy()) nv = b().CreateSelect(edge, splat(leaf), old);
        else {
          if (isVector(leaf)) leaf = uniformize(leaf, isVector(edge) ? edge : mask_);  // the analysis said uniform
          nv = b().CreateSelect(taken, leaf, old);
        }
        b().CreateStore(nv, slots[i]);
      }
      break;
    }
  }
  if (st.full[to]) {
    if (!st.blockReached[to]) return;  // unreachable target
    b().CreateStore(b().CreateOr(b().CreateLoad(b().getInt1Ty(), st.blockReached[to]), taken), st.blockReached[to]);
    return;
  }
  if (!st.blockMask[to]) return;  // unreachable target
  llvm::Type* maskTy = laneType(b().getInt1Ty());
  llvm::Value* old = b().CreateLoad(maskTy, st.blockMask[to]);
  b().CreateStore(b().CreateOr(old, edge), st.blockMask[to]);
}

void Translator::emitTerminator(uint32_t bi) {
  FunctionState& st = *fn_;
  const Block& blk = st.f->blocks[bi];
  const Instruction& t = blk.terminator;
  llvm::Type* maskTy = laneType(b().getInt1Ty());
  // A full block whose lanes all go the same way sends scalar edges (propagateEdge): the
  // branch condition itself, no mask arithmetic.
  const bool scalarEdges = st.full[bi] && exitsWithAllLanes(blk, *uniformity_, stage_ == Stage::Fragment);
  llvm::Value* m = scalarEdges ? static_cast<llvm::Value*>(b().getTrue()) : mask_;
  auto condition = [&](llvm::Value* c) { return scalarEdges ? uniformize(c, mask_) : splat(c); };
  switch (t.op) {
    case Op::OpBranch:
      propagateEdge(bi, t.operand(0), m);
      return;
    case Op::OpBranchConditional: {
      if (t.operand(1) == t.operand(2)) {
        propagateEdge(bi, t.operand(1), m);
        return;
      }
      llvm::Value* c = condition(scalarValue(t.operand(0)));
      propagateEdge(bi, t.operand(1), b().CreateAnd(m, c));
      propagateEdge(bi, t.operand(2), b().CreateAnd(m, b().CreateNot(c)));
      return;
    }
    case Op::OpSwitch: {
      llvm::Value* sel = scalarValue(t.operand(0));
      if (scalarEdges) sel = uniformize(sel, mask_);
      uint32_t step = module_.switchLiteralWords(t) + 1;
      llvm::Value* taken = llvm::Constant::getNullValue(m->getType());
      // Several literals may name the same target: OR their masks into one edge.
      std::vector<std::pair<uint32_t, llvm::Value*>> edges;
      for (uint32_t i = 2; i + step - 1 < t.operandCount; i += step) {
        uint64_t lit = t.operand(i);
        if (step == 3) lit |= uint64_t(t.operand(i + 1)) << 32;
        llvm::Value* hit = b().CreateICmpEQ(sel, constInt(sel->getType(), lit));
        if (!scalarEdges) hit = splat(hit);
        hit = b().CreateAnd(m, hit);
        taken = b().CreateOr(taken, hit);
        uint32_t target = t.operand(i + step - 1);
        bool merged = false;
        for (auto& e : edges)
          if (e.first == target) e.second = b().CreateOr(e.second, hit), merged = true;
        if (!merged) edges.push_back({target, hit});
      }
      llvm::Value* def = b().CreateAnd(m, b().CreateNot(taken));
      bool merged = false;
      for (auto& e : edges)
        if (e.first == t.operand(1)) e.second = b().CreateOr(e.second, def), merged = true;
      if (!merged) edges.push_back({t.operand(1), def});
      for (auto& e : edges) propagateEdge(bi, e.first, e.second);
      return;
    }
    case Op::OpReturn:
    case Op::OpReturnValue:
      if (t.op == Op::OpReturnValue && !st.isEntry) {
        Val v = pointerOrValue(t.operand(0), st.f->resultType);
        for (size_t i = 0; i < st.returnSlots.size() && i < v.leaves.size(); ++i) {
          llvm::Value* old = loadSlot(st.returnSlots[i]);
          b().CreateStore(b().CreateSelect(mask_, splat(v.leaves[i]), old), st.returnSlots[i]);
        }
      }
      return;  // lanes that return take no edge: they drop out of every later mask
    case Op::OpKill:
    case Op::OpTerminateInvocation: {
      if (facts_) facts_->canDiscard = true;
      llvm::Value* killed = b().CreateLoad(maskTy, st.killedMask);
      b().CreateStore(b().CreateOr(killed, mask_), st.killedMask);
      return;
    }
    case Op::OpUnreachable:
      return;
    default:
      fail("unsupported terminator");
  }
}

void Translator::emitFunctionCall(const Instruction& inst) {
  const Function* callee = module_.function(inst.operand(0));
  if (!callee) fail("call to an unknown function");
  llvm::Function* fn = declareFunction(*callee);
  if (fn->empty()) {
    // Translate on first use; recursion is not allowed in Vulkan SPIR-V.
    uniformity_->analyze(*callee, cfgs_.emplace(callee->id, buildStructuredCfg(*callee)).first->second);
    translateFunctionBody(*callee, fn, false);
  }
  // Environment for the callee: the batch's state, built once per calling function.
  llvm::Type* ptrTy = b().getPtrTy();
  llvm::Value* env = env_;
  if (!env) {
    llvm::IRBuilder<> init(fn_->allocaBlock->getTerminator());
    env = init.CreateAlloca(ptrTy, init.getInt32(4));
    init.CreateStore(wgState_, init.CreateConstGEP1_32(ptrTy, env, 0));
    init.CreateStore(batch_, init.CreateConstGEP1_32(ptrTy, env, 1));
    init.CreateStore(resources_, init.CreateConstGEP1_32(ptrTy, env, 2));
    init.CreateStore(privateBase_, init.CreateConstGEP1_32(ptrTy, env, 3));
    env_ = env;
  }
  llvm::Type* maskTy = laneType(b().getInt1Ty());
  llvm::AllocaInst* maskSlot = makeSlot(b(), fn_->allocaBlock, maskTy);
  b().CreateStore(mask_, maskSlot);
  std::vector<llvm::Value*> args{env, maskSlot};
  for (uint32_t i = 1; i < inst.operandCount; ++i) {
    uint32_t argId = inst.operand(i);
    const Type* t = module_.type(module_.resultTypeOf(argId));
    if (!t && module_.global(argId)) t = module_.type(module_.global(argId)->type);
    if (t && t->kind == TypeKind::Pointer) {
      Ptr p = pointer(argId);
      // A buffer outside the pipeline layout, passed on: an empty range (pointerValue).
      if (p.kind == Ptr::Kind::Null) p = pointerFromValue(pointerValue(p), module_.resultTypeOf(argId));
      if (p.kind != Ptr::Kind::Memory && p.kind != Ptr::Kind::LaneMemory) fail("unsupported pointer argument");
      args.push_back(p.base ? p.base : llvm::ConstantPointerNull::get(b().getPtrTy()));
      // Callees take 64-bit offsets, limits and floors (pointer parameters are always varying).
      auto wide = [&](llvm::Value* v, uint64_t none) -> llvm::Value* {
        if (!v) return splat(b().getInt64(none));
        return splat(b().CreateZExtOrTrunc(v, isVector(v) ? laneType(b().getInt64Ty()) : b().getInt64Ty()));
      };
      args.push_back(wide(p.offset, 0));
      args.push_back(wide(p.limit, ~uint64_t(0)));
      args.push_back(wide(p.floor, 0));
    } else {
      for (llvm::Value* leaf : value(argId).leaves) args.push_back(splat(leaf));
    }
  }
  llvm::Value* ret = b().CreateCall(fn, args);
  llvm::Value* before = mask_;
  mask_ = b().CreateLoad(maskTy, maskSlot);
  // Lanes the callee terminated (OpKill) are gone for the caller too: they must not count as
  // having returned normally when the entry point finishes.
  llvm::Value* killedInCallee = b().CreateAnd(before, b().CreateNot(mask_));
  b().CreateStore(b().CreateOr(b().CreateLoad(maskTy, fn_->killedMask), killedInCallee), fn_->killedMask);
  if (inst.result && !fn->getReturnType()->isVoidTy()) {
    Val v;
    auto* st = llvm::cast<llvm::StructType>(fn->getReturnType());
    for (uint32_t i = 0; i < st->getNumElements(); ++i) v.leaves.push_back(b().CreateExtractValue(ret, {i}));
    if (isPhysicalPointerType(inst.type)) definePointer(inst.result, addressToPointer(v.leaf(0), inst.type));
    else if (isVariablePointer(inst.type)) definePointer(inst.result, pointerFromValue(v, inst.type));
    else define(inst.result, v);
  } else if (inst.result) {
    // A result without leaves (a function returning an empty struct; void): a value of nothing,
    // which OpCopyLogical, OpStore and composites of it may still name.
    define(inst.result, Val{});
  }
}

Val Translator::pointerOrValue(uint32_t id, uint32_t type) {
  if (isPhysicalPointerType(type)) return Val{{pointerToAddress(pointer(id))}};
  if (isVariablePointer(type)) return pointerValue(pointer(id));
  return value(id);
}

bool Translator::translateInstruction(const Instruction& inst) {
  if (inst.op != Op::OpStore) lastCompositeLoad_ = {};  // only the next instruction may use it
  if (inst.type && !isPointerType(inst.type)) {
    // What counts toward the module's total is the leaves an instruction makes code for.
    // Extracting, copying and undef reuse or name leaves without code, and inserting makes only
    // the object's: a chain of insertions into one large struct (the CTS's composite_insert
    // cases) is not a chain of large values. Every value still has the per-value limit.
    switch (inst.op) {
      case Op::OpCompositeInsert:
        checkValueSize(inst.type);
        countValue(module_.resultTypeOf(inst.operand(0)));
        break;
      case Op::OpCompositeExtract:
      case Op::OpCopyObject:
      case Op::OpCopyLogical:
      case Op::OpUndef:
        checkValueSize(inst.type);
        break;
      default:
        countValue(inst.type);
    }
  }
  switch (inst.op) {
    case Op::OpFunctionCall:
      emitFunctionCall(inst);
      return true;
    case Op::OpUndef: {
      if (const Type* t = module_.type(inst.type); t && t->kind == TypeKind::Pointer) {
        definePointer(inst.result, nullPointer(inst.type));  // an undefined pointer: like a null one
        return true;
      }
      Val v;
      for (uint32_t t : leafTypes(inst.type)) v.leaves.push_back(llvm::Constant::getNullValue(scalarType(t)));
      define(inst.result, v);
      return true;
    }
    case Op::OpNop:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpSourceContinued:
      return true;
    case Op::OpReadClockKHR:
      emitReadClock(inst);
      return true;
    // SPV_KHR_expect_assume: OpExpectKHR is its Value (the expected value a hint), and
    // OpAssumeTrueKHR a promise about a per-lane condition, which the code here does not use.
    case Op::OpExpectKHR:
      define(inst.result, value(inst.operand(0)));
      return true;
    case Op::OpAssumeTrueKHR:
      return true;
    default:
      break;
  }
  return translateArithmetic(inst) || translateComposite(inst) || translateMemory(inst) || translateGlsl(inst) ||
         translateAtomicOrBarrier(inst) || translateSubgroup(inst) || translateImage(inst) || translateFragmentOp(inst) ||
         translateGeometryOp(inst);
}

bool Translator::translateCompute(const EntryPoint& entry, const std::string& kernelName, std::string* error) {
  try {
    entry_ = &entry;
    const Function* f = module_.function(entry.function);
    if (!f) fail("entry point function not found");
    assignGlobalStorage();
    auto& cfg = cfgs_.emplace(f->id, buildStructuredCfg(*f)).first->second;
    uniformity_->analyze(*f, cfg);
    llvm::Type* ptrTy = b().getPtrTy();
    // Barriers only in the entry function: a coroutine kernel (translate_barrier_coroutine.cpp)
    // that returns its frame; TESSERA_BARRIER_FIBERS=1 keeps fibers (a measurement knob).
    static const bool forceFibers = [] {
      const char* v = std::getenv("TESSERA_BARRIER_FIBERS");
      return v && std::string(v) == "1";
    }();
    resumable_ = !forceFibers && barriersOnlyInEntry(module_, f->id);
    auto* type = llvm::FunctionType::get(resumable_ ? static_cast<llvm::Type*>(ptrTy) : b().getVoidTy(),
                                         {ptrTy, b().getInt32Ty()}, false);
    auto* kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage, kernelName, out_);
    functions_[f->id] = kernel;
    translateFunctionBody(*f, kernel, true);
    return true;
  } catch (const TranslationError& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace tessera::jit
