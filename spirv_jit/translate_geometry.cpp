// Geometry kernels ("Geometry Shading"): one lane per geometry shader invocation (an input
// primitive and an invocation number), the abi::GeometryBatch interface.
//
// Inputs are arrays with one element per input vertex: each element's leaves are copied from
// the batch's per-vertex words into the kernel's per-lane storage in the prologue, gl_in[]'s
// built-in members (Position, PointSize) from the per-vertex position and point size.
// OpEmitVertex copies the current values of every output into the lane's next vertex record
// (a masked scatter: lanes emit different numbers of vertices); OpEndPrimitive ends the lane's
// strip, so that its next vertex starts a new one. OpEmitStreamVertex / OpEndStreamPrimitive
// do the same for vertex stream 0..3 (GeometryStreams): the record carries its stream, and
// each stream has its own open strip (stripOpen bit s), so that one stream's EndPrimitive does
// not cut another's strip. The draw loop builds the output primitives from the records
// (raster/draw_geometry.cpp).
#include "tessera/shader_abi.h"
#include "translator.h"

namespace tessera::jit {

void Translator::readGeometryModes(const EntryPoint& entry) {
  GraphicsFacts::Geometry& g = facts_->geometry;
  g.invocations = 1;
  bool outputSet = false;
  for (const Instruction& mode : entry.executionModes) {
    if (mode.operandCount < 2) continue;
    const uint32_t literal = mode.operandCount > 2 ? mode.operand(2) : 0;
    switch (spv::ExecutionMode(mode.operand(1))) {
      case spv::ExecutionMode::InputPoints: g.inputVertices = 1; break;
      case spv::ExecutionMode::InputLines: g.inputVertices = 2; break;
      case spv::ExecutionMode::InputLinesAdjacency: g.inputVertices = 4; break;
      case spv::ExecutionMode::Triangles: g.inputVertices = 3; break;
      case spv::ExecutionMode::InputTrianglesAdjacency: g.inputVertices = 6; break;
      case spv::ExecutionMode::OutputPoints: g.outputTopology = 0, outputSet = true; break;
      case spv::ExecutionMode::OutputLineStrip: g.outputTopology = 1, outputSet = true; break;
      case spv::ExecutionMode::OutputTriangleStrip: g.outputTopology = 2, outputSet = true; break;
      case spv::ExecutionMode::OutputVertices: g.maxVertices = literal; break;
      case spv::ExecutionMode::Invocations: g.invocations = literal; break;
      default: break;
    }
  }
  if (g.inputVertices == 0) fail("geometry shader without an input primitive execution mode");
  if (!outputSet) fail("geometry shader without an output primitive execution mode");
  if (g.maxVertices == 0 || g.maxVertices > kMaxGeometryOutputVertices)
    fail("geometry shader OutputVertices " + std::to_string(g.maxVertices) + " outside 1.." +
         std::to_string(kMaxGeometryOutputVertices) + " (maxGeometryOutputVertices)");
  if (g.invocations == 0 || g.invocations > kMaxGeometryInvocations)
    fail("geometry shader Invocations " + std::to_string(g.invocations) + " outside 1.." +
         std::to_string(kMaxGeometryInvocations) + " (maxGeometryShaderInvocations)");
}

// Output locations in increasing order after the record's header (abi::GeometryBatch).
void Translator::finishGeometryInterface() {
  GraphicsFacts::Geometry& g = facts_->geometry;
  uint32_t words = abi::kGeometryRecordHeader;
  for (uint32_t l = 0; l < abi::kMaxInterfaceLocations; ++l) {
    geometryLocationWord_[l] = -1;
    if (!facts_->outputComponents[l]) continue;
    geometryLocationWord_[l] = int32_t(words);
    words += 4;
  }
  // Then ClipDistance[0, clipDistances) and CullDistance[0, cullDistances).
  g.vertexWords = words + facts_->clipDistances + facts_->cullDistances;
  for (const InterfaceLeaf& l : outputLeaves_) {
    g.writesPrimitiveId |= l.builtIn == int32_t(spv::BuiltIn::PrimitiveId);
    g.writesLayer |= l.builtIn == int32_t(spv::BuiltIn::Layer);
    g.writesViewportIndex |= l.builtIn == int32_t(spv::BuiltIn::ViewportIndex);
  }
}

void Translator::loadGeometryInputs() {
  auto& B = b();
  llvm::Type* ptrTy = B.getPtrTy();
  llvm::Type* vi = laneType(B.getInt32Ty());
  const uint32_t W = width();
  llvm::Value* inputs = batchField(offsetof(abi::GeometryBatch, inputs), ptrTy);
  llvm::Value* position = batchField(offsetof(abi::GeometryBatch, inPosition), ptrTy);
  llvm::Value* pointSize = batchField(offsetof(abi::GeometryBatch, inPointSize), ptrTy);
  llvm::Value* distances = batchField(offsetof(abi::GeometryBatch, inDistances), ptrTy);
  storeInputLeaves([&](const InterfaceLeaf& l) -> llvm::Value* {
    llvm::Value* src = nullptr;
    switch (l.builtIn) {
      case -1:
        if (l.location >= abi::kMaxInterfaceLocations || l.component >= 4) fail("input location out of range");
        src = B.CreateConstGEP1_32(B.getInt32Ty(), inputs,
                                   ((l.vertex * abi::kMaxInterfaceLocations + l.location) * 4 + l.component) * W);
        break;
      case int32_t(spv::BuiltIn::Position):
        src = B.CreateConstGEP1_32(B.getInt32Ty(), position, (l.vertex * 4 + l.builtInElement) * W);
        break;
      case int32_t(spv::BuiltIn::PointSize):
        src = B.CreateConstGEP1_32(B.getInt32Ty(), pointSize, l.vertex * W);
        break;
      case int32_t(spv::BuiltIn::ClipDistance):
      case int32_t(spv::BuiltIn::CullDistance): {
        if (l.builtInElement >= abi::kMaxClipDistances) break;  // beyond maxClipDistances: 0
        const uint32_t d = l.builtInElement + (l.builtIn == int32_t(spv::BuiltIn::CullDistance) ? abi::kMaxClipDistances : 0);
        src = B.CreateConstGEP1_32(B.getInt32Ty(), distances, (l.vertex * 2 * abi::kMaxClipDistances + d) * W);
        break;
      }
      default:
        fail("unsupported built-in " + std::to_string(l.builtIn) + " in a geometry shader's per-vertex input");
    }
    if (!src) return llvm::Constant::getNullValue(vi);
    return B.CreateAlignedLoad(vi, src, llvm::Align(4));
  });
}

Val Translator::geometryBuiltInValue(spv::BuiltIn builtIn) {
  auto& B = b();
  llvm::Type* vi = laneType(B.getInt32Ty());
  auto lanes = [&](size_t offset) {
    return B.CreateAlignedLoad(vi, B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offset)), llvm::Align(4));
  };
  switch (builtIn) {
    case spv::BuiltIn::PrimitiveId: return Val{{lanes(offsetof(abi::GeometryBatch, primitiveIdIn))}};
    case spv::BuiltIn::InvocationId: return Val{{lanes(offsetof(abi::GeometryBatch, invocationId))}};
    case spv::BuiltIn::ViewIndex: return Val{{viewIndex()}};
    case spv::BuiltIn::DeviceIndex: return Val{{B.getInt32(0)}};
    default: fail("unsupported built-in " + std::to_string(uint32_t(builtIn)) + " in a geometry shader");
  }
}

// The current outputs of the active lanes as their next vertex record, on vertex stream
// `stream`. Outputs decorated with another Stream are in the record as well (the record has
// one layout); transform feedback reads of stream s's records only what its buffers capture.
void Translator::emitGeometryVertex(uint32_t stream) {
  auto& B = b();
  const GraphicsFacts::Geometry& g = facts_->geometry;
  const uint32_t W = width();
  llvm::Type* i32 = B.getInt32Ty();
  llvm::Type* vi = laneType(i32);
  auto field = [&](size_t offset) { return B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, uint32_t(offset)); };
  llvm::Value* emittedAt = field(offsetof(abi::GeometryBatch, emitted));
  llvm::Value* openAt = field(offsetof(abi::GeometryBatch, stripOpen));
  llvm::Value* emitted = B.CreateAlignedLoad(vi, emittedAt, llvm::Align(4));
  llvm::Value* open = B.CreateAlignedLoad(vi, openAt, llvm::Align(4));
  // Vertices past OutputVertices are dropped ("the results are undefined" if more are emitted);
  // the count covers every stream ("OutputVertices ... the maximum number of vertices the
  // shader will ever emit").
  llvm::Value* emitting = B.CreateAnd(mask_, B.CreateICmpULT(emitted, splat(B.getInt32(g.maxVertices))));

  std::vector<llvm::Value*> words(g.vertexWords, nullptr);
  llvm::Value* zero = llvm::Constant::getNullValue(vi);
  // Flags: the strip-start bit when this stream's strip is not open, and the stream number.
  llvm::Value* streamBit = splat(B.getInt32(1u << stream));
  llvm::Value* starts = B.CreateZExt(B.CreateICmpEQ(B.CreateAnd(open, streamBit), zero), vi);
  words[abi::kGeometryFlags] = B.CreateOr(starts, splat(B.getInt32(stream << abi::kGeometryStreamShift)));
  words[abi::kGeometryPointSize] = B.CreateBitCast(llvm::ConstantFP::get(laneType(B.getFloatTy()), 1.0), vi);
  words[abi::kGeometryPrimitiveId] =
      B.CreateAlignedLoad(vi, field(offsetof(abi::GeometryBatch, primitiveIdIn)), llvm::Align(4));
  for (const InterfaceLeaf& l : outputLeaves_) {
    int32_t at = -1;
    switch (l.builtIn) {
      case -1: at = geometryLocationWord_[l.location] + int32_t(l.component); break;
      case int32_t(spv::BuiltIn::Position): at = l.builtInElement < 4 ? int32_t(abi::kGeometryPosition + l.builtInElement) : -1; break;
      case int32_t(spv::BuiltIn::PointSize): at = abi::kGeometryPointSize; break;
      case int32_t(spv::BuiltIn::PrimitiveId): at = abi::kGeometryPrimitiveId; break;
      case int32_t(spv::BuiltIn::Layer): at = abi::kGeometryLayer; break;
      case int32_t(spv::BuiltIn::ViewportIndex): at = abi::kGeometryViewportIndex; break;
      case int32_t(spv::BuiltIn::ClipDistance):
        if (l.builtInElement < facts_->clipDistances) at = int32_t(g.vertexWords - facts_->clipDistances - facts_->cullDistances + l.builtInElement);
        break;
      case int32_t(spv::BuiltIn::CullDistance):
        if (l.builtInElement < facts_->cullDistances) at = int32_t(g.vertexWords - facts_->cullDistances + l.builtInElement);
        break;
      default: break;
    }
    if (at >= 0 && uint32_t(at) < g.vertexWords) words[at] = outputLeafWords(l);
  }
  llvm::Value* vertices = batchField(offsetof(abi::GeometryBatch, vertices), B.getPtrTy());
  // Word w of the lane's record k: vertices[(k * vertexWords + w) * W + lane].
  llvm::Value* recordBase = B.CreateAdd(B.CreateMul(emitted, splat(B.getInt32(g.vertexWords * W))), laneIndex());
  for (uint32_t w = 0; w < g.vertexWords; ++w) {
    llvm::Value* value = words[w] ? words[w] : zero;
    llvm::Value* index = B.CreateAdd(recordBase, splat(B.getInt32(w * W)));
    llvm::Value* addresses = B.CreateGEP(i32, vertices, {index});
    B.CreateMaskedScatter(value, addresses, llvm::Align(4), emitting);
  }
  B.CreateAlignedStore(B.CreateSelect(emitting, B.CreateAdd(emitted, splat(B.getInt32(1))), emitted), emittedAt,
                       llvm::Align(4));
  B.CreateAlignedStore(B.CreateSelect(emitting, B.CreateOr(open, streamBit), open), openAt, llvm::Align(4));
}

// Ends the active lanes' strip of `stream`: their next vertex on that stream starts a new one.
void Translator::endGeometryPrimitive(uint32_t stream) {
  auto& B = b();
  llvm::Type* vi = laneType(B.getInt32Ty());
  llvm::Value* openAt = B.CreateConstGEP1_32(B.getInt8Ty(), wgState_, offsetof(abi::GeometryBatch, stripOpen));
  llvm::Value* open = B.CreateAlignedLoad(vi, openAt, llvm::Align(4));
  llvm::Value* closed = B.CreateAnd(open, splat(B.getInt32(~(1u << stream))));
  B.CreateAlignedStore(B.CreateSelect(mask_, closed, open), openAt, llvm::Align(4));
}

// The Stream operand of OpEmitStreamVertex / OpEndStreamPrimitive: "must be an <id> of a
// constant instruction with a scalar integer type" (SPIR-V), naming a stream below
// maxTransformFeedbackStreams (the Vulkan spec's runtime SPIR-V rules). Anything else is
// refused with a message rather than guessed.
uint32_t Translator::geometryStreamOperand(const Instruction& inst) {
  const char* name = inst.op == spv::Op::OpEmitStreamVertex ? "OpEmitStreamVertex" : "OpEndStreamPrimitive";
  if (inst.operandCount < 1) fail(std::string(name) + " without a Stream operand");
  const std::optional<uint64_t> stream = module_.constantValue(inst.operand(0));
  if (!stream) fail(std::string(name) + "'s Stream is not a constant");
  if (*stream >= abi::kMaxVertexStreams)
    fail(std::string(name) + " to stream " + std::to_string(*stream) + ", outside 0.." +
         std::to_string(abi::kMaxVertexStreams - 1) + " (maxTransformFeedbackStreams)");
  return uint32_t(*stream);
}

bool Translator::translateGeometryOp(const Instruction& inst) {
  using spv::Op;
  switch (inst.op) {
    case Op::OpEmitStreamVertex:
    case Op::OpEmitVertex: {
      if (stage_ != Stage::Geometry) fail("OpEmitVertex outside a geometry shader");
      emitGeometryVertex(inst.op == Op::OpEmitStreamVertex ? geometryStreamOperand(inst) : 0);
      return true;
    }
    case Op::OpEndStreamPrimitive:
    case Op::OpEndPrimitive: {
      if (stage_ != Stage::Geometry) fail("OpEndPrimitive outside a geometry shader");
      endGeometryPrimitive(inst.op == Op::OpEndStreamPrimitive ? geometryStreamOperand(inst) : 0);
      return true;
    }
    default:
      return false;
  }
}

}  // namespace tessera::jit
