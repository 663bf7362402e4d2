// Tessellation kernels ("Tessellation Control Shaders", "Tessellation Evaluation Shaders";
// shader_abi.h TessControlBatch, VertexBatch's tessellation fields, TessPatch).
//
// Both stages read one patch per call, so their inputs are the same for every lane: the
// prologue loads each input leaf's word once from the TessPatch and stores it into every
// lane's copy of the variable (inputs are arrays per control point, or per-patch values).
// A control kernel runs one lane per output vertex (InvocationId = batch * W + lane). Its
// Output variables live in the patch memory the caller hands it (the same addressing as a
// compute workgroup's shared memory), so an invocation reads what another wrote before a
// barrier; at the end of each batch the epilogue copies the batch's own per-vertex elements
// and every per-patch output into the output TessPatch (the patch values of the batch that
// ends last are the final ones: batches end in order after the last barrier).
// An evaluation kernel is a vertex kernel (VertexBatch) whose lanes are tessellated vertices:
// TessCoord per lane, the patch's values uniform.
#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {

void Translator::readTessellationModes(const EntryPoint& entry) {
  GraphicsFacts::Tessellation& t = facts_->tessellation;
  for (const Instruction& mode : entry.executionModes) {
    if (mode.operandCount < 2) continue;
    const uint32_t literal = mode.operandCount > 2 ? mode.operand(2) : 0;
    switch (spv::ExecutionMode(mode.operand(1))) {
      case spv::ExecutionMode::Triangles: t.domain = 1; break;
      case spv::ExecutionMode::Quads: t.domain = 2; break;
      case spv::ExecutionMode::Isolines: t.domain = 3; break;
      case spv::ExecutionMode::SpacingEqual: t.spacing = 1; break;
      case spv::ExecutionMode::SpacingFractionalEven: t.spacing = 2; break;
      case spv::ExecutionMode::SpacingFractionalOdd: t.spacing = 3; break;
      case spv::ExecutionMode::VertexOrderCw: t.order = 1; break;
      case spv::ExecutionMode::VertexOrderCcw: t.order = 2; break;
      case spv::ExecutionMode::PointMode: t.pointMode = true; break;
      case spv::ExecutionMode::OutputVertices: t.outputVertices = literal; break;
      default: break;
    }
  }
  if (t.outputVertices > abi::kMaxPatchVertices)
    fail("tessellation OutputVertices " + std::to_string(t.outputVertices) + " above 32 (maxTessellationPatchSize)");
  if (stage_ == Stage::TessControl && t.outputVertices == 0)
    fail("a tessellation control shader without OutputVertices");
}

namespace {

// Byte offset in a TessPatch of a leaf's word.
int64_t patchWordOffset(const InterfaceLeaf& l) {
  switch (l.builtIn) {
    case -1:
      if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) return -1;
      return l.patch ? int64_t(offsetof(abi::TessPatch, patch)) + 4 * (l.location * 4 + l.component)
                     : int64_t(offsetof(abi::TessPatch, vertex)) +
                           4 * (int64_t(l.vertex) * abi::kMaxInterfaceLocations * 4 + l.location * 4 + l.component);
    case int32_t(spv::BuiltIn::Position):
      if (l.builtInElement >= 4) return -1;
      return int64_t(offsetof(abi::TessPatch, position)) + 4 * (l.vertex * 4 + l.builtInElement);
    case int32_t(spv::BuiltIn::PointSize): return int64_t(offsetof(abi::TessPatch, pointSize)) + 4 * l.vertex;
    case int32_t(spv::BuiltIn::TessLevelOuter):
      return l.builtInElement < 4 ? int64_t(offsetof(abi::TessPatch, tessLevelOuter)) + 4 * l.builtInElement : -1;
    case int32_t(spv::BuiltIn::TessLevelInner):
      return l.builtInElement < 2 ? int64_t(offsetof(abi::TessPatch, tessLevelInner)) + 4 * l.builtInElement : -1;
    case int32_t(spv::BuiltIn::ClipDistance):
    case int32_t(spv::BuiltIn::CullDistance): {
      if (l.builtInElement >= abi::kMaxClipDistances) return -1;
      const uint32_t d = l.builtInElement + (l.builtIn == int32_t(spv::BuiltIn::CullDistance) ? abi::kMaxClipDistances : 0);
      return int64_t(offsetof(abi::TessPatch, distances)) + 4 * (int64_t(l.vertex) * 2 * abi::kMaxClipDistances + d);
    }
    default:
      return -1;  // other built-ins: not carried (read as 0, writes dropped)
  }
}

}  // namespace

// Per-vertex inputs are arrays of gl_MaxPatchVertices (32) elements whatever the patch's size
// (GLSL's gl_in, and arrays declared so), and each element a copy per lane: copying all 32 of
// a 3-vertex patch was most of a small control shader's time. Only the patch's own vertices
// (PatchVertices of them) are copied; the others are undefined to read ("Tessellation Control
// Shaders": the input arrays hold the patch's vertices), as the stale words copied before were.
// The copy has branches, so it is a function of its own, inlined by the optimizer: the
// translator keeps the prologue one block (translator.cpp's allocaBlock dominates all).
void Translator::loadTessellationInputs() {
  auto& B = b();
  const bool control = stage_ == Stage::TessControl;
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Value* patch = batchField(control ? offsetof(abi::TessControlBatch, in) : offsetof(abi::VertexBatch, patch), ptrTy);
  llvm::Value* count = batchField(
      control ? offsetof(abi::TessControlBatch, patchVertices) : offsetof(abi::VertexBatch, patchVertices), B.getInt32Ty());
  llvm::Type* vi = laneType(B.getInt32Ty());
  llvm::Function* kernel = B.GetInsertBlock()->getParent();
  auto* type = llvm::FunctionType::get(B.getVoidTy(), {ptrTy, ptrTy, B.getInt32Ty()}, false);
  auto* copy = llvm::Function::Create(type, llvm::GlobalValue::InternalLinkage, kernel->getName() + ".inputs",
                                      kernel->getParent());
  copy->addFnAttr(llvm::Attribute::AlwaysInline);
  copy->addFnAttr(llvm::Attribute::NoUnwind);
  {
    llvm::IRBuilderBase::InsertPointGuard guard(B);
    B.SetInsertPoint(llvm::BasicBlock::Create(context_, "entry", copy));
    llvm::Value* const kernelPrivate = privateBase_;
    privateBase_ = copy->getArg(1);
    llvm::Value* copyPatch = copy->getArg(0);
    storeInputLeaves(
        [&](const InterfaceLeaf& l) -> llvm::Value* {
          const int64_t at = patchWordOffset(l);
          if (at < 0) return llvm::Constant::getNullValue(vi);
          return splat(B.CreateAlignedLoad(B.getInt32Ty(), B.CreateConstGEP1_64(B.getInt8Ty(), copyPatch, at), llvm::Align(4)));
        },
        copy->getArg(2));
    B.CreateRetVoid();
    privateBase_ = kernelPrivate;
  }
  B.CreateCall(copy, {patch, privateBase_, count});
}

Val Translator::tessellationBuiltInValue(spv::BuiltIn builtIn) {
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  const bool control = stage_ == Stage::TessControl;
  switch (builtIn) {
    case spv::BuiltIn::InvocationId:
      if (!control) break;
      return Val{{B.CreateAdd(splat(B.CreateMul(batch_, B.getInt32(width()))), laneIndex())}};
    case spv::BuiltIn::PrimitiveId:
      return Val{{batchField(control ? offsetof(abi::TessControlBatch, primitiveId) : offsetof(abi::VertexBatch, primitiveId), i32)}};
    case spv::BuiltIn::PatchVertices:
      return Val{{batchField(control ? offsetof(abi::TessControlBatch, patchVertices) : offsetof(abi::VertexBatch, patchVertices), i32)}};
    case spv::BuiltIn::TessCoord: {
      if (control) break;
      llvm::Value* coords = batchField(offsetof(abi::VertexBatch, tessCoord), B.getPtrTy());
      Val v;
      for (uint32_t c = 0; c < 3; ++c)
        v.leaves.push_back(B.CreateAlignedLoad(laneType(B.getFloatTy()), B.CreateConstGEP1_32(B.getFloatTy(), coords, c * width()),
                                               llvm::Align(4)));
      return v;
    }
    case spv::BuiltIn::TessLevelOuter:
    case spv::BuiltIn::TessLevelInner: {
      if (control) break;  // the control stage's levels are outputs
      llvm::Value* patch = batchField(offsetof(abi::VertexBatch, patch), B.getPtrTy());
      const bool outer = builtIn == spv::BuiltIn::TessLevelOuter;
      const size_t first = outer ? offsetof(abi::TessPatch, tessLevelOuter) : offsetof(abi::TessPatch, tessLevelInner);
      Val v;
      for (uint32_t i = 0; i < (outer ? 4u : 2u); ++i)
        v.leaves.push_back(B.CreateAlignedLoad(B.getFloatTy(), B.CreateConstGEP1_32(B.getInt8Ty(), patch, uint32_t(first + 4 * i)),
                                               llvm::Align(4)));
      return v;
    }
    case spv::BuiltIn::ViewIndex: return Val{{viewIndex()}};
    case spv::BuiltIn::DeviceIndex: return Val{{B.getInt32(0)}};
    default: break;
  }
  fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a tessellation shader");
}

// Each lane's per-vertex output elements (InvocationId's) and the per-patch outputs, from patch
// memory into the output TessPatch.
void Translator::emitTessControlEpilogue() {
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Type* vi = laneType(i32);
  llvm::Value* memory = batchField(offsetof(abi::TessControlBatch, patchMemory), B.getPtrTy());
  llvm::Value* out = batchField(offsetof(abi::TessControlBatch, out), B.getPtrTy());
  llvm::Value* invocation = B.CreateAdd(splat(B.CreateMul(batch_, B.getInt32(width()))), laneIndex());
  llvm::Value* active = tessControlActive_;
  const llvm::Value* savedMask = mask_;
  mask_ = active;
  for (const InterfaceLeaf& l : outputLeaves_) {
    InterfaceLeaf at = l;
    at.vertex = 0;
    const int64_t word = patchWordOffset(at);
    if (word < 0) continue;
    Ptr p;
    p.kind = Ptr::Kind::Memory;
    p.storage = spv::StorageClass::Workgroup;
    p.pointee = l.type;
    p.base = B.CreateConstGEP1_32(B.getInt8Ty(), memory, l.offset);
    p.offset32 = true;
    if (l.patch) {
      p.offset = B.getInt32(0);
      llvm::Value* words = leafToWords(*this, loadFrom(p, l.type).leaf(0), l.type, l.half);
      llvm::Value* first = B.CreateExtractElement(words, uint64_t(0));
      B.CreateAlignedStore(first, B.CreateConstGEP1_64(B.getInt8Ty(), out, word), llvm::Align(4));
      continue;
    }
    // Element `invocation` of the lane's own vertex: TessPatch words are one vertex apart by
    // the vertex's stride in the TessPatch arrays.
    p.offset = B.CreateMul(invocation, splat(B.getInt32(l.vertexStride)));
    llvm::Value* words = leafToWords(*this, loadFrom(p, l.type).leaf(0), l.type, l.half);
    const bool distance = l.builtIn == int32_t(spv::BuiltIn::ClipDistance) || l.builtIn == int32_t(spv::BuiltIn::CullDistance);
    const int64_t perVertex = l.builtIn == int32_t(spv::BuiltIn::Position)    ? 16
                              : l.builtIn == int32_t(spv::BuiltIn::PointSize) ? 4
                              : distance                                      ? 4 * 2 * abi::kMaxClipDistances
                                                                              : 4 * abi::kMaxInterfaceLocations * 4;
    llvm::Value* index = B.CreateAdd(B.CreateMul(invocation, splat(B.getInt32(uint32_t(perVertex / 4)))),
                                     splat(B.getInt32(uint32_t(word / 4))));
    B.CreateMaskedScatter(words, B.CreateGEP(i32, out, {index}), llvm::Align(4), active);
  }
  mask_ = const_cast<llvm::Value*>(savedMask);
  (void)vi;
}

}  // namespace tessera::jit
