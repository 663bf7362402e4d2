// Vertex and fragment kernels: the batch state they are handed (shader_abi.h VertexBatch /
// FragmentBatch), how interface variables travel, graphics built-ins, derivatives and helper
// invocations.
//
// Interface variables live in the kernel's per-lane (private) block like Private variables:
// the prologue copies each input scalar from the batch's SoA words into its slot, the
// epilogue copies each output scalar out, so that everything in between (access chains,
// dynamic indexing of arrays, partial writes) is ordinary lane memory that LLVM's SROA turns
// back into registers. Locations follow the spec's "Location Assignment" rules: a 32-bit
// scalar or vector takes one location (starting at its Component), matrix columns and array
// elements one location each, struct members consecutive unless they carry a Location.
#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {
namespace {

// Locations a value of `type` occupies (32-bit components; 64-bit types are not supported).
uint32_t locationCount(const Module& m, uint32_t type) {
  const Type* t = m.type(type);
  if (!t) return 1;
  switch (t->kind) {
    case TypeKind::Matrix: return t->count;
    case TypeKind::Array: return t->count * locationCount(m, t->element);
    case TypeKind::Struct: {
      uint32_t n = 0;
      for (uint32_t member : t->members) n += locationCount(m, member);
      return n;
    }
    default: return 1;
  }
}

struct InterfaceWalker {
  Translator& t;
  const Module& m;
  const TypeLayout& layout;
  std::vector<InterfaceLeaf>& out;

  void scalar(uint32_t type, uint32_t offset, uint32_t loc, uint32_t comp, bool flat, bool noPersp, bool centroid,
              int32_t builtIn, uint32_t element) {
    const Type* st = m.type(type);
    if (!st || (st->kind != TypeKind::Float && st->kind != TypeKind::Int && st->kind != TypeKind::Bool))
      t.fail("unsupported interface variable type");
    if (st->width > 32) t.fail("64-bit interface variables are not supported yet");
    InterfaceLeaf l;
    l.type = type;
    l.offset = offset;
    l.location = loc;
    l.component = comp;
    l.flat = flat || st->kind != TypeKind::Float;  // integers are always flat
    l.noPerspective = noPersp;
    l.centroid = centroid;
    l.builtIn = builtIn;
    l.builtInElement = element;
    out.push_back(l);
  }

  void value(uint32_t type, uint32_t offset, uint32_t loc, uint32_t comp, bool flat, bool noPersp, bool centroid,
             int32_t builtIn) {
    const Type* tt = m.type(type);
    if (!tt) t.fail("unknown interface type");
    switch (tt->kind) {
      case TypeKind::Vector: {
        LayoutStep step = layout.elementStep(type, {});
        for (uint32_t i = 0; i < tt->count; ++i)
          scalar(tt->element, offset + i * step.stride, loc, comp + i, flat, noPersp, centroid, builtIn, i);
        return;
      }
      case TypeKind::Matrix: {
        LayoutStep step = layout.elementStep(type, {});
        for (uint32_t c = 0; c < tt->count; ++c) value(tt->element, offset + c * step.stride, loc + c, 0, flat, noPersp, centroid, builtIn);
        return;
      }
      case TypeKind::Array: {
        LayoutStep step = layout.elementStep(type, {});
        uint32_t per = locationCount(m, tt->element);
        for (uint32_t i = 0; i < tt->count; ++i) {
          if (builtIn >= 0) {  // ClipDistance[i], SampleMask[i]: element i of the built-in
            scalar(tt->element, offset + i * step.stride, 0, 0, flat, noPersp, centroid, builtIn, i);
            continue;
          }
          value(tt->element, offset + i * step.stride, loc + i * per, comp, flat, noPersp, centroid, builtIn);
        }
        return;
      }
      case TypeKind::Struct: {
        uint32_t next = loc;
        for (uint32_t i = 0; i < tt->members.size(); ++i) {
          const Decorations& md = m.memberDecorations(type, i);
          LayoutStep step = layout.memberStep(type, i);
          uint32_t memberType = tt->members[i];
          if (md.builtIn) {
            value(memberType, offset + step.offset, 0, 0, flat, noPersp, centroid, int32_t(*md.builtIn));
            continue;
          }
          uint32_t at = md.location ? *md.location : next;
          value(memberType, offset + step.offset, at, md.component.value_or(0), flat || md.flat,
                noPersp || md.noPerspective, centroid || md.centroid, -1);
          next = at + locationCount(m, memberType);
        }
        return;
      }
      default:
        scalar(type, offset, loc, comp, flat, noPersp, centroid, builtIn, 0);
    }
  }
};

}  // namespace

llvm::Value* Translator::batchField(size_t offset, llvm::Type* type) {
  return b().CreateLoad(type, b().CreateConstGEP1_32(b().getInt8Ty(), wgState_, uint32_t(offset)));
}

llvm::Value* Translator::aliveMask() {
  auto& B = b();
  llvm::Value* bits = batchField(offsetof(abi::FragmentBatch, alive), B.getInt32Ty());
  llvm::Type* vi = laneType(B.getInt32Ty());
  llvm::Value* lanesBits = B.CreateShl(constInt(vi, 1), laneIndex());
  return B.CreateICmpNE(B.CreateAnd(splat(bits), lanesBits), llvm::Constant::getNullValue(vi));
}

llvm::Value* Translator::sideEffectMask() {
  if (stage_ != Stage::Fragment) return mask_;
  if (facts_) facts_->hasSideEffects = true;
  return b().CreateAnd(mask_, aliveMask());
}

llvm::Value* Translator::quadDerivative(llvm::Value* v, bool yDirection, bool coarse) {
  auto& B = b();
  if (!v->getType()->isVectorTy()) return llvm::Constant::getNullValue(v->getType());  // uniform
  // Lane l of quad q = l & ~3, pixel p = l & 3 ((x,y), (x+1,y), (x,y+1), (x+1,y+1)).
  // Fine: dx = v[l | 1] - v[l & ~1], dy = v[l | 2] - v[l & ~2]; coarse uses the quad's first
  // row (dx) or column (dy) for all four pixels.
  std::vector<int> hi, lo;
  for (uint32_t l = 0; l < width(); ++l) {
    uint32_t base = coarse ? (l & ~3u) : l;
    uint32_t bit = yDirection ? 2u : 1u;
    hi.push_back(int(base | bit));
    lo.push_back(int(base & ~bit));
  }
  return B.CreateFSub(B.CreateShuffleVector(v, hi), B.CreateShuffleVector(v, lo));
}

void Translator::collectInterface() {
  const TypeLayout& layout = naturalLayout_;
  for (const GlobalVariable& g : module_.globals()) {
    if (g.storage != spv::StorageClass::Input && g.storage != spv::StorageClass::Output) continue;
    const Decorations& d = module_.decorations(g.id);
    bool listed = false;
    for (uint32_t id : entry_->interface) listed |= id == g.id;
    if (!listed) continue;
    const Type* pt = module_.type(g.type);
    if (!pt) continue;
    bool input = g.storage == spv::StorageClass::Input;
    if (input && d.builtIn) continue;  // read through builtInValue
    std::vector<InterfaceLeaf>& leaves = input ? inputLeaves_ : outputLeaves_;
    InterfaceWalker walker{*this, module_, layout, leaves};
    walker.value(pt->element, privateOffsets_[g.id], d.location.value_or(0), d.component.value_or(0), d.flat,
                 d.noPerspective, d.centroid, d.builtIn ? int32_t(*d.builtIn) : -1);
  }
  for (const InterfaceLeaf& l : inputLeaves_) {
    if (l.builtIn >= 0) fail("built-in members of input blocks are not supported in this stage");
    if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) fail("input location out of range");
    facts_->inputComponents[l.location] |= uint8_t(1u << l.component);
    facts_->inputInterpolation[l.location] =
        l.flat ? Interpolation::Flat : l.noPerspective ? Interpolation::NoPerspective : Interpolation::Smooth;
    if (l.centroid && !l.flat) facts_->centroidInputs |= 1u << l.location;
  }
  for (const InterfaceLeaf& l : outputLeaves_) {
    switch (l.builtIn) {
      case -1:
        if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) fail("output location out of range");
        facts_->outputComponents[l.location] |= uint8_t(1u << l.component);
        break;
      case int32_t(spv::BuiltIn::PointSize): facts_->writesPointSize = true; break;
      case int32_t(spv::BuiltIn::ClipDistance):
        facts_->clipDistances = std::max(facts_->clipDistances, l.builtInElement + 1);
        break;
      case int32_t(spv::BuiltIn::CullDistance):
        facts_->cullDistances = std::max(facts_->cullDistances, l.builtInElement + 1);
        break;
      case int32_t(spv::BuiltIn::FragDepth): facts_->writesFragDepth = true; break;
      case int32_t(spv::BuiltIn::SampleMask): facts_->writesSampleMask = true; break;
      default: break;
    }
  }
}

// A batch word vector (<W x i32>) as a leaf of type `type`, and back.
static llvm::Value* wordsToLeaf(Translator& t, llvm::Value* words, uint32_t type) {
  auto& B = t.b();
  llvm::Type* lt = t.laneType(t.scalarType(type));
  const Type* st = t.spirv().type(type);
  if (st->kind == TypeKind::Float) {
    llvm::Value* f = B.CreateBitCast(words, t.laneType(B.getFloatTy()));
    return st->width == 32 ? f : B.CreateFPTrunc(f, lt);
  }
  if (st->kind == TypeKind::Bool) return B.CreateICmpNE(words, llvm::Constant::getNullValue(words->getType()));
  return B.CreateTrunc(words, lt);
}

static llvm::Value* leafToWords(Translator& t, llvm::Value* v, uint32_t type) {
  auto& B = t.b();
  v = t.splat(v);
  llvm::Type* wt = t.laneType(B.getInt32Ty());
  const Type* st = t.spirv().type(type);
  if (st->kind == TypeKind::Float) {
    if (st->width != 32) v = B.CreateFPExt(v, t.laneType(B.getFloatTy()));
    return B.CreateBitCast(v, wt);
  }
  return st->isSigned ? B.CreateSExt(v, wt) : B.CreateZExt(v, wt);
}

void Translator::setupGraphicsEnvironment() {
  auto& B = b();
  llvm::Function* fn = B.GetInsertBlock()->getParent();
  wgState_ = fn->getArg(0);  // the batch: VertexBatch or FragmentBatch
  batch_ = B.getInt32(0);
  llvm::Type* ptrTy = B.getPtrTy();
  const bool vertex = stage_ == Stage::Vertex;
  resources_ = batchField(vertex ? offsetof(abi::VertexBatch, resources) : offsetof(abi::FragmentBatch, resources), ptrTy);
  if (privateBytes_) {
    auto* storage = B.CreateAlloca(llvm::ArrayType::get(B.getInt8Ty(), uint64_t(privateBytes_) * width()));
    storage->setAlignment(llvm::Align(64));
    privateBase_ = storage;
  } else {
    privateBase_ = llvm::ConstantPointerNull::get(B.getPtrTy());
  }
  llvm::Type* vi = laneType(B.getInt32Ty());
  if (vertex) {
    llvm::Value* count = batchField(offsetof(abi::VertexBatch, count), B.getInt32Ty());
    mask_ = B.CreateICmpULT(laneIndex(), splat(count));
  } else {
    // Every lane of a quad with a covered pixel runs (the others as helpers, for derivatives).
    llvm::Value* coverage = batchField(offsetof(abi::FragmentBatch, coverage), B.getInt32Ty());
    B.CreateStore(coverage, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, alive)));
    std::vector<llvm::Constant*> quadBits;
    for (uint32_t l = 0; l < width(); ++l) quadBits.push_back(B.getInt32(0xFu << (l & ~3u)));
    llvm::Value* inQuad = B.CreateAnd(splat(coverage), llvm::ConstantVector::get(quadBits));
    mask_ = B.CreateICmpNE(inQuad, llvm::Constant::getNullValue(vi));
  }
  // Inputs: batch words -> per-lane slots.
  if (!inputLeaves_.empty()) {
    llvm::Value* inputs = batchField(vertex ? offsetof(abi::VertexBatch, inputs) : offsetof(abi::FragmentBatch, inputs), ptrTy);
    for (const InterfaceLeaf& l : inputLeaves_) {
      llvm::Value* src = B.CreateConstGEP1_32(B.getInt32Ty(), inputs, (l.location * 4 + l.component) * width());
      llvm::Value* words = B.CreateAlignedLoad(vi, src, llvm::Align(4));
      llvm::Value* v = wordsToLeaf(*this, words, l.type);
      if (v->getType()->getScalarType()->isIntegerTy(1)) v = B.CreateZExt(v, laneType(B.getInt8Ty()));
      B.CreateAlignedStore(v, B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()), llvm::Align(1));
    }
  }
  // PointSize reads as 1 unless the shader writes it.
  for (const InterfaceLeaf& l : outputLeaves_)
    if (l.builtIn == int32_t(spv::BuiltIn::PointSize))
      B.CreateAlignedStore(llvm::ConstantFP::get(laneType(B.getFloatTy()), 1.0),
                           B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()), llvm::Align(4));
  initializePrivateVariables();
}

void Translator::emitGraphicsEpilogue() {
  auto& B = b();
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Type* vf = laneType(B.getFloatTy());
  const bool vertex = stage_ == Stage::Vertex;
  auto slot = [&](const InterfaceLeaf& l) {
    llvm::Type* mt = scalarType(l.type);
    if (mt->isIntegerTy(1)) mt = B.getInt8Ty();
    llvm::Value* v = B.CreateAlignedLoad(laneType(mt), B.CreateConstGEP1_32(B.getInt8Ty(), privateBase_, l.offset * width()),
                                         llvm::Align(1));
    if (scalarType(l.type)->isIntegerTy(1)) v = B.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    return leafToWords(*this, v, l.type);
  };
  auto storeWords = [&](llvm::Value* base, uint32_t index, llvm::Value* words) {
    B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt32Ty(), base, index * width()), llvm::Align(4));
  };
  llvm::Value* outputs =
      batchField(vertex ? offsetof(abi::VertexBatch, outputs) : offsetof(abi::FragmentBatch, outputs), ptrTy);
  bool wrotePointSize = false;
  for (const InterfaceLeaf& l : outputLeaves_) {
    llvm::Value* words = slot(l);
    switch (l.builtIn) {
      case -1:
        storeWords(outputs, l.location * 4 + l.component, words);
        break;
      case int32_t(spv::BuiltIn::Position):
        storeWords(batchField(offsetof(abi::VertexBatch, position), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::PointSize):
        storeWords(batchField(offsetof(abi::VertexBatch, pointSize), ptrTy), 0, words);
        wrotePointSize = true;
        break;
      case int32_t(spv::BuiltIn::ClipDistance):
        if (l.builtInElement < abi::kMaxClipDistances)
          storeWords(batchField(offsetof(abi::VertexBatch, clipDistance), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::CullDistance):
        if (l.builtInElement < abi::kMaxClipDistances)
          storeWords(batchField(offsetof(abi::VertexBatch, cullDistance), ptrTy), l.builtInElement, words);
        break;
      case int32_t(spv::BuiltIn::FragDepth):
        B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, fragDepth)),
                             llvm::Align(4));
        break;
      case int32_t(spv::BuiltIn::SampleMask):
        if (l.builtInElement == 0)
          B.CreateAlignedStore(words, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, sampleMask)),
                               llvm::Align(4));
        break;
      default:
        break;  // other built-in outputs (Layer, ViewportIndex, ...) are not consumed
    }
  }
  if (vertex && !wrotePointSize)
    B.CreateAlignedStore(llvm::ConstantFP::get(vf, 1.0), batchField(offsetof(abi::VertexBatch, pointSize), ptrTy),
                         llvm::Align(4));
}

Val Translator::graphicsBuiltInValue(spv::BuiltIn builtIn, uint32_t type) {
  auto& B = b();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Type* vi = laneType(i32);
  Val v;
  if (stage_ == Stage::Vertex) {
    switch (builtIn) {
      case spv::BuiltIn::VertexIndex:
        v.leaves = {B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::VertexBatch, vertexIndex)),
                                        llvm::Align(4))};
        break;
      case spv::BuiltIn::InstanceIndex: v.leaves = {batchField(offsetof(abi::VertexBatch, instanceIndex), i32)}; break;
      case spv::BuiltIn::BaseVertex: v.leaves = {batchField(offsetof(abi::VertexBatch, baseVertex), i32)}; break;
      case spv::BuiltIn::BaseInstance: v.leaves = {batchField(offsetof(abi::VertexBatch, baseInstance), i32)}; break;
      case spv::BuiltIn::DrawIndex: v.leaves = {batchField(offsetof(abi::VertexBatch, drawIndex), i32)}; break;
      case spv::BuiltIn::ViewIndex:
      case spv::BuiltIn::DeviceIndex: v.leaves = {B.getInt32(0)}; break;
      default: fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a vertex shader");
    }
    return v;
  }
  switch (builtIn) {
    case spv::BuiltIn::FragCoord:
      for (uint32_t c = 0; c < 4; ++c)
        v.leaves.push_back(B.CreateAlignedLoad(
            laneType(B.getFloatTy()),
            B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offsetof(abi::FragmentBatch, fragCoord) + c * 4 * abi::kMaxSimdWidth)),
            llvm::Align(4)));
      break;
    case spv::BuiltIn::FrontFacing:
      v.leaves = {B.CreateICmpNE(batchField(offsetof(abi::FragmentBatch, frontFacing), i32), B.getInt32(0))};
      break;
    case spv::BuiltIn::PrimitiveId: v.leaves = {batchField(offsetof(abi::FragmentBatch, primitiveId), i32)}; break;
    case spv::BuiltIn::HelperInvocation: v.leaves = {B.CreateNot(aliveMask())}; break;
    case spv::BuiltIn::PointCoord:
      for (uint32_t c = 0; c < 2; ++c)
        v.leaves.push_back(B.CreateAlignedLoad(
            laneType(B.getFloatTy()),
            B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offsetof(abi::FragmentBatch, pointCoord) + c * 4 * abi::kMaxSimdWidth)),
            llvm::Align(4)));
      break;
    case spv::BuiltIn::SampleId:
    case spv::BuiltIn::Layer:
    case spv::BuiltIn::ViewportIndex:
    case spv::BuiltIn::ViewIndex:
    case spv::BuiltIn::DeviceIndex:
      v.leaves = {B.getInt32(0)};
      break;
    case spv::BuiltIn::SampleMask: {
      // SampleMaskIn: the samples of the fragment the primitive covers (the draw loop fills
      // sampleMaskIn, before the sample mask test); helpers have none.
      llvm::Value* in = B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, sampleMaskIn)),
                                            llvm::Align(4));
      v.leaves = {B.CreateSelect(aliveMask(), in, llvm::Constant::getNullValue(vi))};
      break;
    }
    default:
      fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a fragment shader");
  }
  std::vector<uint32_t> types = leafTypes(type);
  for (size_t i = 0; i < v.leaves.size() && i < types.size(); ++i) {
    llvm::Type* want = scalarType(types[i]);
    llvm::Value*& l = v.leaves[i];
    if (l->getType()->getScalarType()->isIntegerTy() && want->isIntegerTy() && l->getType()->getScalarType() != want)
      l = B.CreateZExtOrTrunc(l, l->getType()->isVectorTy() ? laneType(want) : want);
  }
  return v;
}

// Derivatives, demotion and helper queries (fragment shaders only; validation rejects them
// elsewhere).
bool Translator::translateFragmentOp(const Instruction& inst) {
  using spv::Op;
  auto& B = b();
  switch (inst.op) {
    case Op::OpDPdx:
    case Op::OpDPdy:
    case Op::OpFwidth:
    case Op::OpDPdxFine:
    case Op::OpDPdyFine:
    case Op::OpFwidthFine:
    case Op::OpDPdxCoarse:
    case Op::OpDPdyCoarse:
    case Op::OpFwidthCoarse: {
      if (stage_ != Stage::Fragment) fail("derivatives outside a fragment shader");
      const bool coarse = inst.op == Op::OpDPdxCoarse || inst.op == Op::OpDPdyCoarse || inst.op == Op::OpFwidthCoarse;
      const bool fwidth = inst.op == Op::OpFwidth || inst.op == Op::OpFwidthFine || inst.op == Op::OpFwidthCoarse;
      const bool y = inst.op == Op::OpDPdy || inst.op == Op::OpDPdyFine || inst.op == Op::OpDPdyCoarse;
      Val in = value(inst.operand(0)), out;
      for (llvm::Value* leaf : in.leaves) {
        if (!fwidth) {
          out.leaves.push_back(quadDerivative(leaf, y, coarse));
          continue;
        }
        llvm::Value* dx = quadDerivative(leaf, false, coarse);
        llvm::Value* dy = quadDerivative(leaf, true, coarse);
        llvm::Function* fabs = llvm::Intrinsic::getDeclaration(&out_, llvm::Intrinsic::fabs, {dx->getType()});
        out.leaves.push_back(B.CreateFAdd(B.CreateCall(fabs, {dx}), B.CreateCall(fabs, {dy})));
      }
      define(inst.result, out);
      return true;
    }
    case Op::OpDemoteToHelperInvocation: {
      if (stage_ != Stage::Fragment) fail("OpDemoteToHelperInvocation outside a fragment shader");
      facts_->canDiscard = true;
      // alive &= ~(bits of the active lanes)
      llvm::Value* activeBits = B.CreateZExt(B.CreateBitCast(mask_, B.getIntNTy(width())), B.getInt32Ty());
      llvm::Value* at = B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::FragmentBatch, alive));
      B.CreateStore(B.CreateAnd(B.CreateLoad(B.getInt32Ty(), at), B.CreateNot(activeBits)), at);
      return true;
    }
    case Op::OpIsHelperInvocationEXT:
      if (stage_ != Stage::Fragment) fail("OpIsHelperInvocationEXT outside a fragment shader");
      define(inst.result, Val{{B.CreateNot(aliveMask())}});
      return true;
    default:
      return false;
  }
}

bool Translator::translateGraphics(const EntryPoint& entry, const std::string& kernelName, GraphicsFacts* facts,
                                   std::string* error) {
  try {
    entry_ = &entry;
    facts_ = facts;
    stage_ = entry.model == spv::ExecutionModel::Vertex ? Stage::Vertex : Stage::Fragment;
    const Function* f = module_.function(entry.function);
    if (!f) fail("entry point function not found");
    for (const Instruction& mode : entry.executionModes)
      if (mode.operandCount > 1 && spv::ExecutionMode(mode.operand(1)) == spv::ExecutionMode::EarlyFragmentTests)
        facts_->earlyFragmentTests = true;
    assignGlobalStorage();
    collectInterface();
    auto& cfg = cfgs_.emplace(f->id, buildStructuredCfg(*f)).first->second;
    uniformity_->analyze(*f, cfg);
    auto* type = llvm::FunctionType::get(b().getVoidTy(), {b().getPtrTy()}, false);
    auto* kernel = llvm::Function::Create(type, llvm::Function::ExternalLinkage, kernelName, out_);
    functions_[f->id] = kernel;
    translateFunctionBody(*f, kernel, true);
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace tessera::jit
