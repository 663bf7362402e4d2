// The compute kernel: its prologue (dispatch state, private memory, the batch's active lanes),
// where module-scope variables live, and compute built-ins.
//
// Invocations of a workgroup are numbered by LocalInvocationIndex and run W at a time: batch b
// holds indices [b*W, b*W + W). LocalInvocationId follows from the index and the workgroup size
// (x fastest), as the spec defines LocalInvocationIndex.
#include <algorithm>

#include <llvm/IR/Intrinsics.h>
#include <vector>

#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {

void Translator::assignGlobalStorage() {
  // WorkgroupMemoryExplicitLayoutKHR: Block-decorated Workgroup variables (SPIR-V then has
  // either all of a module's Workgroup variables decorated Block or none) take their explicit
  // layout and all start at offset 0, aliasing each other ("Workgroup" storage with explicit
  // layout: a shader may view the same memory through several blocks).
  if (module_.hasCapability(spv::Capability::WorkgroupMemoryExplicitLayoutKHR)) {
    for (const GlobalVariable& g : module_.globals()) {
      const Type* pt = module_.type(g.type);
      if (!pt || g.storage != spv::StorageClass::Workgroup || !module_.decorations(pt->element).block) continue;
      explicitWorkgroupLayout_ = true;
      sharedOffsets_[g.id] = 0;
      sharedBytes_ = std::max(sharedBytes_, explicitLayout_.size(pt->element));
      if (g.initializer) zeroInitShared_ = true;  // only OpConstantNull is allowed (1.3)
    }
  }
  // Workgroup variables share one block per workgroup; Private ones one block per batch.
  for (const GlobalVariable& g : module_.globals()) {
    const Type* pt = module_.type(g.type);
    if (!pt) continue;
    if (explicitWorkgroupLayout_ && g.storage == spv::StorageClass::Workgroup && sharedOffsets_.count(g.id)) continue;
    // A tessellation control stage's outputs are shared by the patch's invocations: patch
    // memory, addressed like a workgroup's (abi::TessControlBatch::patchMemory).
    if (g.storage == spv::StorageClass::Workgroup ||
        (g.storage == spv::StorageClass::Output && stage_ == Stage::TessControl)) {
      uint32_t align = std::max<uint32_t>(16, naturalLayout_.alignment(pt->element));
      sharedBytes_ = (sharedBytes_ + align - 1) / align * align;
      sharedOffsets_[g.id] = sharedBytes_;
      sharedBytes_ += naturalLayout_.size(pt->element);
      if (g.initializer) zeroInitShared_ = true;  // only OpConstantNull is allowed (1.3)
    } else if (g.storage == spv::StorageClass::Private || g.storage == spv::StorageClass::Output ||
               (g.storage == spv::StorageClass::Input && stage_ != Stage::Compute &&
                !module_.decorations(g.id).builtIn)) {
      // Graphics inputs are copied into per-lane slots like these (translate_graphics.cpp).
      uint32_t align = std::max<uint32_t>(4, naturalLayout_.alignment(pt->element));
      privateBytes_ = (privateBytes_ + align - 1) / align * align;
      privateOffsets_[g.id] = privateBytes_;
      privateBytes_ += naturalLayout_.size(pt->element);
    }
  }
  sharedBytes_ = (sharedBytes_ + 15) / 16 * 16;
  // The workgroup size: the WorkgroupSize built-in constant wins over LocalSize(Id).
  for (int i = 0; i < 3; ++i) localSize_[i] = std::max<uint32_t>(1, entry_->localSize[i]);
  for (const Function& f : module_.functions()) (void)f;
  for (uint32_t id = 1; id < module_.bound(); ++id) {
    const Decorations& d = module_.decorations(id);
    if (!d.builtIn || spv::BuiltIn(*d.builtIn) != spv::BuiltIn::WorkgroupSize) continue;
    const Constant* c = module_.constant(id);
    if (!c || c->kind != ConstantKind::Composite || c->constituents.size() != 3) continue;
    for (int i = 0; i < 3; ++i)
      if (auto v = module_.constantValue(c->constituents[i])) localSize_[i] = std::max<uint32_t>(1, uint32_t(*v));
  }
}

void Translator::setupComputeEnvironment(const EntryPoint& entry) {
  auto& B = b();
  llvm::Function* fn = b().GetInsertBlock()->getParent();
  wgState_ = fn->getArg(0);
  batch_ = fn->getArg(1);
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Value* dispatch = B.CreateLoad(ptrTy, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::WorkgroupState, dispatch)));
  resources_ = B.CreateLoad(ptrTy, B.CreateConstGEP1_32(B.getInt8Ty(), dispatch, offsetof(abi::ComputeDispatchState, resources)));
  if (privateBytes_) {
    auto* storage = B.CreateAlloca(llvm::ArrayType::get(B.getInt8Ty(), uint64_t(privateBytes_) * width()));
    storage->setAlignment(llvm::Align(64));
    privateBase_ = storage;
  } else {
    privateBase_ = llvm::ConstantPointerNull::get(B.getPtrTy());
  }
  // Lanes past the end of the workgroup are never active.
  uint32_t total = localSize_[0] * localSize_[1] * localSize_[2];
  llvm::Value* index = B.CreateAdd(splat(B.CreateMul(batch_, B.getInt32(width()))), laneIndex());
  mask_ = B.CreateICmpULT(index, splat(B.getInt32(total)));
  initializePrivateVariables();
}

// Private (and Output) variables with initializers start from them in every invocation.
void Translator::initializePrivateVariables() {
  std::vector<const GlobalVariable*> patchOutputs;
  for (const GlobalVariable& g : module_.globals()) {
    if ((g.storage != spv::StorageClass::Private && g.storage != spv::StorageClass::Output) || !g.initializer) continue;
    if (g.storage == spv::StorageClass::Output && stage_ == Stage::TessControl) {
      patchOutputs.push_back(&g);  // patch memory, below
      continue;
    }
    Ptr p;
    p.kind = Ptr::Kind::LaneMemory;
    p.storage = g.storage;
    p.pointee = module_.type(g.type)->element;
    p.base = privateBase_;
    p.offset = b().getInt64(privateOffsets_[g.id]);
    llvm::Value* saved = mask_;
    mask_ = allOnes();
    // The initializer is a constant, or with variable pointers a global variable whose address
    // the pointer starts with (CTS variable_init.private.*_from_workgroup); a null one is a fill.
    initializeVariable(p, g.initializer);
    mask_ = saved;
  }
  if (patchOutputs.empty()) return;
  // A control stage's outputs are the patch's, shared by its invocations (patch memory): their
  // initializers (e.g. TessLevelOuter given by an initializer alone, as the CTS's
  // spirv1p4.entrypoint.tess_con_* shaders do) are stored once, by the first batch before any
  // of its code runs. Batches start in order, so no invocation has written an output yet; a
  // later batch storing them again would undo what earlier batches wrote before a barrier.
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  llvm::BasicBlock* store = llvm::BasicBlock::Create(context_, "patch.init", fn);
  llvm::BasicBlock* done = llvm::BasicBlock::Create(context_, "patch.init.done", fn);
  B.CreateCondBr(B.CreateICmpEQ(batch_, B.getInt32(0)), store, done);
  B.SetInsertPoint(store);
  llvm::Value* saved = mask_;
  mask_ = allOnes();
  for (const GlobalVariable* g : patchOutputs) initializeVariable(makeGlobalPointer(*g), g->initializer);
  mask_ = saved;
  B.CreateBr(done);
  B.SetInsertPoint(done);
}

Val Translator::builtInValue(spv::BuiltIn builtIn, uint32_t type) {
  if (stage_ != Stage::Compute) return graphicsBuiltInValue(builtIn, type);
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Value* lane = laneIndex();
  llvm::Value* batch = batch_;
  llvm::Value* localIndex = B.CreateAdd(splat(B.CreateMul(batch, B.getInt32(width()))), lane);
  auto localId = [&](int axis) -> llvm::Value* {
    uint32_t sx = localSize_[0], sy = localSize_[1];
    // A batch holds W consecutive local indices: when a row (or a plane) is a multiple of W,
    // every lane of the batch shares y (and z), which then stay scalars (e.g. a 16x16 tile at
    // W=16 has one y per batch, and shared-memory rows indexed by it become scalar loads).
    llvm::Value* firstIndex = B.CreateMul(batch, B.getInt32(width()));
    // x then runs along the lanes: one scalar plus the lane index, a form memory accesses
    // recognize as contiguous (lane_affine.h).
    if (axis == 0 && sx % width() == 0) return B.CreateAdd(splat(B.CreateURem(firstIndex, B.getInt32(sx))), lane);
    if (axis == 1 && sx % width() == 0) return B.CreateURem(B.CreateUDiv(firstIndex, B.getInt32(sx)), B.getInt32(sy));
    if (axis == 2 && (sx * sy) % width() == 0) return B.CreateUDiv(firstIndex, B.getInt32(sx * sy));
    switch (axis) {
      case 0: return B.CreateURem(localIndex, splat(B.getInt32(sx)));
      case 1: return B.CreateURem(B.CreateUDiv(localIndex, splat(B.getInt32(sx))), splat(B.getInt32(sy)));
      default: return B.CreateUDiv(localIndex, splat(B.getInt32(sx * sy)));
    }
  };
  auto wgField = [&](size_t offset) -> llvm::Value* {
    auto* l = B.CreateLoad(i32, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offset)));
    return l;
  };
  auto dispatchField = [&](size_t offset) -> llvm::Value* {
    llvm::Value* dispatch = B.CreateLoad(B.getPtrTy(), B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::WorkgroupState, dispatch)));
    return B.CreateLoad(i32, B.CreateConstGEP1_32(B.getInt8Ty(), dispatch, uint32_t(offset)));
  };
  Val v;
  switch (builtIn) {
    case spv::BuiltIn::LocalInvocationIndex:
      v.leaves = {localIndex};
      break;
    case spv::BuiltIn::LocalInvocationId:
      v.leaves = {localId(0), localId(1), localId(2)};
      break;
    case spv::BuiltIn::WorkgroupId:
      for (int i = 0; i < 3; ++i) v.leaves.push_back(wgField(offsetof(abi::WorkgroupState, workgroupId) + 4 * i));
      break;
    case spv::BuiltIn::NumWorkgroups:
      for (int i = 0; i < 3; ++i) v.leaves.push_back(dispatchField(offsetof(abi::ComputeDispatchState, workgroupCount) + 4 * i));
      break;
    case spv::BuiltIn::GlobalInvocationId:
      for (int i = 0; i < 3; ++i) {
        llvm::Value* wg = wgField(offsetof(abi::WorkgroupState, workgroupId) + 4 * i);
        llvm::Value* base = B.CreateMul(wg, B.getInt32(localSize_[i]));
        llvm::Value* local = localId(i);
        unify(base, local);
        v.leaves.push_back(B.CreateAdd(base, local));
      }
      break;
    case spv::BuiltIn::WorkgroupSize:
      for (int i = 0; i < 3; ++i) v.leaves.push_back(B.getInt32(localSize_[i]));
      break;
    case spv::BuiltIn::SubgroupId:
      v.leaves = {batch};
      break;
    case spv::BuiltIn::NumSubgroups: {
      uint32_t total = localSize_[0] * localSize_[1] * localSize_[2];
      v.leaves = {B.getInt32((total + width() - 1) / width())};
      break;
    }
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::SubgroupLocalInvocationId:
    case spv::BuiltIn::SubgroupEqMask:
    case spv::BuiltIn::SubgroupGeMask:
    case spv::BuiltIn::SubgroupGtMask:
    case spv::BuiltIn::SubgroupLeMask:
    case spv::BuiltIn::SubgroupLtMask:
      v = subgroupBuiltInValue(builtIn);
      break;
    case spv::BuiltIn::DeviceIndex:
    case spv::BuiltIn::ViewIndex:
      v.leaves = {B.getInt32(0)};
      break;
    default:
      fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a compute shader");
  }
  // Built-ins may be declared with another integer width (e.g. 64-bit via casts are not
  // allowed, but be exact about the declared component type).
  std::vector<uint32_t> types = leafTypes(type);
  for (size_t i = 0; i < v.leaves.size() && i < types.size(); ++i) {
    llvm::Type* want = scalarType(types[i]);
    llvm::Value*& l = v.leaves[i];
    if (l->getType()->getScalarType() != want)
      l = B.CreateZExtOrTrunc(l, l->getType()->isVectorTy() ? laneType(want) : want);
  }
  return v;
}

}  // namespace tessera::jit
