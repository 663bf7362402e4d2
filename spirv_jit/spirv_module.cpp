#include "spirv_module.h"

#include <algorithm>
#include <cstdio>

namespace tessera::jit {
namespace {

constexpr uint32_t kMagic = 0x07230203;

std::string format(const char* fmt, uint32_t a, uint32_t b = 0) {
  char text[160];
  std::snprintf(text, sizeof(text), fmt, a, b);
  return text;
}

bool isTerminator(spv::Op op) {
  switch (op) {
    case spv::Op::OpBranch:
    case spv::Op::OpBranchConditional:
    case spv::Op::OpSwitch:
    case spv::Op::OpReturn:
    case spv::Op::OpReturnValue:
    case spv::Op::OpKill:
    case spv::Op::OpUnreachable:
    case spv::Op::OpTerminateInvocation:
      return true;
    default:
      return false;
  }
}

uint64_t maskToWidth(uint64_t v, uint32_t width) {
  return width >= 64 ? v : (v & ((uint64_t(1) << width) - 1));
}

}  // namespace

std::string_view Instruction::string(uint32_t i, uint32_t* next) const {
  if (i >= operandCount) {
    if (next) *next = operandCount;
    return {};
  }
  const char* begin = reinterpret_cast<const char*>(operands + i);
  size_t maxBytes = size_t(operandCount - i) * 4;
  size_t len = 0;
  while (len < maxBytes && begin[len]) ++len;
  if (next) *next = i + uint32_t(len / 4 + 1);
  return std::string_view(begin, len);
}

bool Module::parse(std::span<const uint32_t> words, std::string* error) {
  if (words.size() < 5 || words[0] != kMagic) {
    *error = "not a SPIR-V module (bad magic number or fewer than 5 words)";
    return false;
  }
  words_.assign(words.begin(), words.end());
  version_ = words_[1];
  bound_ = words_[3];
  if (bound_ == 0 || bound_ > (1u << 22)) {
    *error = format("SPIR-V id bound %u is out of range", bound_);
    return false;
  }
  types_.assign(bound_, std::nullopt);
  resultTypes_.assign(bound_, 0);
  size_t pos = 5;
  while (pos < words_.size()) {
    uint32_t first = words_[pos];
    uint32_t count = first >> 16;
    auto op = spv::Op(first & 0xffff);
    if (count == 0 || pos + count > words_.size()) {
      *error = format("SPIR-V instruction at word %u has a bad word count %u", uint32_t(pos), count);
      return false;
    }
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(op, &hasResult, &hasType);
    Instruction inst;
    inst.op = op;
    uint32_t k = 1;
    if (hasType) inst.type = k < count ? words_[pos + k++] : 0;
    if (hasResult) inst.result = k < count ? words_[pos + k++] : 0;
    if (k > count || (hasResult && inst.result >= bound_) || (hasType && inst.type >= bound_)) {
      *error = format("SPIR-V instruction (opcode %u) has an id out of bounds", uint32_t(op));
      return false;
    }
    inst.operands = words_.data() + pos + k;
    inst.operandCount = count - k;
    if (hasResult && hasType) resultTypes_[inst.result] = inst.type;
    if (!parseInstruction(inst, error)) return false;
    pos += count;
  }
  if (current_) {
    *error = "SPIR-V function without OpFunctionEnd";
    return false;
  }
  // Resolve LocalSizeId operands now that constants are known.
  for (EntryPoint& ep : entryPoints_) {
    for (int i = 0; i < 3; ++i) {
      if (ep.localSizeIds[i]) {
        auto v = constantValue(ep.localSizeIds[i]);
        if (!v) {
          *error = "LocalSizeId operand is not a constant";
          return false;
        }
        ep.localSize[i] = uint32_t(*v);
      }
    }
  }
  return true;
}

bool Module::parseInstruction(const Instruction& inst, std::string* error) {
  using spv::Op;
  if (current_ && inst.op != Op::OpFunctionEnd) return addFunctionInstruction(inst, error);
  switch (inst.op) {
    case Op::OpCapability:
      capabilities_.push_back(spv::Capability(inst.operand(0)));
      return true;
    case Op::OpExtInstImport:
      extInstSets_[inst.result] = std::string(inst.string(0));
      return true;
    case Op::OpName:
      names_[inst.operand(0)] = std::string(inst.string(1));
      return true;
    case Op::OpEntryPoint: {
      EntryPoint ep;
      ep.model = spv::ExecutionModel(inst.operand(0));
      ep.function = inst.operand(1);
      uint32_t next = 0;
      ep.name = std::string(inst.string(2, &next));
      for (uint32_t i = next; i < inst.operandCount; ++i) ep.interface.push_back(inst.operand(i));
      entryPoints_.push_back(std::move(ep));
      return true;
    }
    case Op::OpExecutionMode:
    case Op::OpExecutionModeId: {
      for (EntryPoint& ep : entryPoints_) {
        if (ep.function != inst.operand(0)) continue;
        ep.executionModes.push_back(inst);
        auto mode = spv::ExecutionMode(inst.operand(1));
        if (mode == spv::ExecutionMode::LocalSize)
          for (int i = 0; i < 3; ++i) ep.localSize[i] = inst.operand(2 + i);
        if (mode == spv::ExecutionMode::LocalSizeId)
          for (int i = 0; i < 3; ++i) ep.localSizeIds[i] = inst.operand(2 + i);
      }
      return true;
    }
    case Op::OpDecorate:
    case Op::OpDecorateId:
    case Op::OpMemberDecorate: {
      bool member = inst.op == Op::OpMemberDecorate;
      uint32_t target = inst.operand(0);
      Decorations& d = member ? memberDecorations_[(uint64_t(target) << 32) | inst.operand(1)]
                              : decorations_[target];
      uint32_t at = member ? 2 : 1;
      auto dec = spv::Decoration(inst.operand(at));
      uint32_t lit = inst.operand(at + 1);
      switch (dec) {
        case spv::Decoration::BuiltIn: d.builtIn = lit; break;
        case spv::Decoration::Location: d.location = lit; break;
        case spv::Decoration::Component: d.component = lit; break;
        case spv::Decoration::Binding: d.binding = lit; break;
        case spv::Decoration::DescriptorSet: d.descriptorSet = lit; break;
        case spv::Decoration::Offset: d.offset = lit; break;
        case spv::Decoration::ArrayStride: d.arrayStride = lit; break;
        case spv::Decoration::MatrixStride: d.matrixStride = lit; break;
        case spv::Decoration::SpecId: d.specId = lit; break;
        case spv::Decoration::Index: d.index = lit; break;
        case spv::Decoration::InputAttachmentIndex: d.inputAttachmentIndex = lit; break;
        case spv::Decoration::RowMajor: d.rowMajor = true; break;
        case spv::Decoration::ColMajor: d.rowMajor = false; break;
        case spv::Decoration::Block: d.block = true; break;
        case spv::Decoration::BufferBlock: d.bufferBlock = true; break;
        case spv::Decoration::NoContraction: d.noContraction = true; break;
        case spv::Decoration::Flat: d.flat = true; break;
        case spv::Decoration::NoPerspective: d.noPerspective = true; break;
        case spv::Decoration::Centroid: d.centroid = true; break;
        case spv::Decoration::Sample: d.sample = true; break;
        case spv::Decoration::Patch: d.patch = true; break;
        case spv::Decoration::NonWritable: d.nonWritable = true; break;
        case spv::Decoration::NonReadable: d.nonReadable = true; break;
        case spv::Decoration::Volatile: d.volatile_ = true; break;
        case spv::Decoration::Coherent: d.coherent = true; break;
        case spv::Decoration::Restrict: d.restrict_ = true; break;
        case spv::Decoration::Aliased: d.aliased = true; break;
        case spv::Decoration::NonUniform: d.nonUniform = true; break;
        case spv::Decoration::RelaxedPrecision: d.relaxedPrecision = true; break;
        case spv::Decoration::FPRoundingMode: d.roundingMode = spv::FPRoundingMode(lit); break;
        default: break;
      }
      return true;
    }
    case Op::OpDecorateString:
    case Op::OpMemberDecorateString:
      // UserSemantic (HlslSemanticGOOGLE) and other string decorations, like CounterBuffer
      // (HlslCounterBufferGOOGLE, an OpDecorateId above), are reflection data without semantic
      // effect (VK_GOOGLE_decorate_string, VK_GOOGLE_hlsl_functionality1): accepted, ignored.
      return true;
    case Op::OpDecorationGroup:
    case Op::OpGroupDecorate:
    case Op::OpGroupMemberDecorate:
      // The optimizer's flatten-decorations pass removes these before parsing.
      *error = "decoration groups must be flattened before translation";
      return false;
    case Op::OpTypeVoid: types_[inst.result] = Type{TypeKind::Void}; return true;
    case Op::OpTypeBool: types_[inst.result] = Type{TypeKind::Bool}; return true;
    case Op::OpTypeInt: {
      Type t{TypeKind::Int};
      t.width = inst.operand(0);
      t.isSigned = inst.operand(1) != 0;
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeFloat: {
      Type t{TypeKind::Float};
      t.width = inst.operand(0);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeVector:
    case Op::OpTypeMatrix: {
      Type t{inst.op == Op::OpTypeVector ? TypeKind::Vector : TypeKind::Matrix};
      t.element = inst.operand(0);
      t.count = inst.operand(1);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeArray: {
      Type t{TypeKind::Array};
      t.element = inst.operand(0);
      auto len = constantValue(inst.operand(1));
      if (!len) {
        *error = format("array type %%%u has a length that is not a constant", inst.result);
        return false;
      }
      t.count = uint32_t(*len);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeRuntimeArray: {
      Type t{TypeKind::RuntimeArray};
      t.element = inst.operand(0);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeStruct: {
      Type t{TypeKind::Struct};
      t.members.assign(inst.operands, inst.operands + inst.operandCount);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypePointer: {
      Type t{TypeKind::Pointer};
      t.storage = spv::StorageClass(inst.operand(0));
      t.element = inst.operand(1);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeForwardPointer:
      return true;
    case Op::OpTypeFunction: {
      Type t{TypeKind::Function};
      t.members.assign(inst.operands, inst.operands + inst.operandCount);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeImage: {
      Type t{TypeKind::Image};
      t.element = inst.operand(0);
      t.image.dim = spv::Dim(inst.operand(1));
      t.image.depth = inst.operand(2);
      t.image.arrayed = inst.operand(3);
      t.image.multisampled = inst.operand(4);
      t.image.sampled = inst.operand(5);
      t.image.format = spv::ImageFormat(inst.operand(6));
      types_[inst.result] = t;
      return true;
    }
    case Op::OpTypeSampler: types_[inst.result] = Type{TypeKind::Sampler}; return true;
    case Op::OpTypeSampledImage: {
      Type t{TypeKind::SampledImage};
      t.element = inst.operand(0);
      types_[inst.result] = t;
      return true;
    }
    case Op::OpConstantTrue:
    case Op::OpConstantFalse:
    case Op::OpSpecConstantTrue:
    case Op::OpSpecConstantFalse: {
      Constant c{ConstantKind::Bool, inst.type};
      c.bits = (inst.op == Op::OpConstantTrue || inst.op == Op::OpSpecConstantTrue) ? 1 : 0;
      constants_[inst.result] = c;
      globalDefs_[inst.result] = inst;
      return true;
    }
    case Op::OpConstant:
    case Op::OpSpecConstant: {
      Constant c{ConstantKind::Scalar, inst.type};
      uint64_t v = inst.operand(0);
      if (inst.operandCount > 1) v |= uint64_t(inst.operand(1)) << 32;
      const Type* t = type(inst.type);
      c.bits = maskToWidth(v, t ? t->width : 32);
      constants_[inst.result] = c;
      globalDefs_[inst.result] = inst;
      return true;
    }
    case Op::OpConstantComposite:
    case Op::OpSpecConstantComposite: {
      Constant c{ConstantKind::Composite, inst.type};
      c.constituents.assign(inst.operands, inst.operands + inst.operandCount);
      constants_[inst.result] = c;
      globalDefs_[inst.result] = inst;
      return true;
    }
    case Op::OpConstantNull:
      constants_[inst.result] = Constant{ConstantKind::Null, inst.type};
      globalDefs_[inst.result] = inst;
      return true;
    case Op::OpUndef:
      constants_[inst.result] = Constant{ConstantKind::Undef, inst.type};
      globalDefs_[inst.result] = inst;
      return true;
    case Op::OpSpecConstantOp: {
      // SPIRV-Tools' folder (2023.1) folds 32-bit integer operations only; scalar integer
      // ones of other widths are folded here, and the rest (vectors, floating-point
      // conversions, composites) are evaluated by the translator (Translator::specConstantOp).
      if (std::optional<Constant> folded = evaluateSpecConstantOp(inst)) {
        constants_[inst.result] = *folded;
      } else {
        Constant c{ConstantKind::SpecOp, inst.type};
        c.operation = inst;
        constants_[inst.result] = c;
      }
      globalDefs_[inst.result] = inst;
      return true;
    }
    case Op::OpVariable: {
      GlobalVariable g;
      g.id = inst.result;
      g.type = inst.type;
      g.storage = spv::StorageClass(inst.operand(0));
      g.initializer = inst.operand(1);
      globalIndex_[g.id] = uint32_t(globals_.size());
      globals_.push_back(g);
      globalDefs_[inst.result] = inst;
      return true;
    }
    case Op::OpFunction: {
      Function f;
      f.id = inst.result;
      f.resultType = inst.type;
      f.functionType = inst.operand(1);
      functionIndex_[f.id] = uint32_t(functions_.size());
      functions_.push_back(std::move(f));
      current_ = &functions_.back();
      currentBlock_ = nullptr;
      return true;
    }
    case Op::OpFunctionEnd:
      if (!current_) {
        *error = "OpFunctionEnd outside a function";
        return false;
      }
      if (currentBlock_) {
        *error = "SPIR-V block without a terminator";
        return false;
      }
      for (uint32_t i = 0; i < current_->blocks.size(); ++i) current_->blockIndex[current_->blocks[i].label] = i;
      current_ = nullptr;
      return true;
    default:
      // OpSource, OpString, OpLine, OpExtension, OpMemoryModel, OpModuleProcessed,
      // non-semantic OpExtInst at module scope, ...: nothing to translate.
      return true;
  }
}

bool Module::addFunctionInstruction(const Instruction& inst, std::string* error) {
  using spv::Op;
  Function& f = *current_;
  if (inst.op == Op::OpFunctionParameter) {
    f.parameters.push_back(inst);
    return true;
  }
  if (inst.op == Op::OpLabel) {
    if (currentBlock_) {
      *error = "OpLabel inside a block";
      return false;
    }
    f.blocks.emplace_back();
    currentBlock_ = &f.blocks.back();
    currentBlock_->label = inst.result;
    return true;
  }
  if (inst.op == Op::OpLine || inst.op == Op::OpNoLine || inst.op == Op::OpNop) return true;
  // Non-semantic instructions (debug info) need no translation, and may sit between blocks:
  // SPIRV-Tools puts a DebugNoScope after a function's last terminator.
  if (inst.op == Op::OpExtInst) {
    auto set = extInstSets_.find(inst.operand(0));
    if (set != extInstSets_.end() && set->second.rfind("NonSemantic.", 0) == 0) return true;
  }
  if (!currentBlock_) {
    *error = format("instruction (opcode %u) outside a block", uint32_t(inst.op));
    return false;
  }
  Block& b = *currentBlock_;
  switch (inst.op) {
    case Op::OpPhi:
      b.phis.push_back(inst);
      return true;
    case Op::OpSelectionMerge:
      b.mergeKind = inst.op;
      b.mergeBlock = inst.operand(0);
      return true;
    case Op::OpLoopMerge:
      b.mergeKind = inst.op;
      b.mergeBlock = inst.operand(0);
      b.continueTarget = inst.operand(1);
      return true;
    default:
      break;
  }
  if (isTerminator(inst.op)) {
    b.terminator = inst;
    auto add = [&](uint32_t label) {
      if (std::find(b.successors.begin(), b.successors.end(), label) == b.successors.end())
        b.successors.push_back(label);
    };
    if (inst.op == Op::OpBranch) add(inst.operand(0));
    if (inst.op == Op::OpBranchConditional) {
      add(inst.operand(1));
      add(inst.operand(2));
    }
    if (inst.op == Op::OpSwitch) {
      add(inst.operand(1));
      // Case literals are as wide as the selector: one word up to 32 bits, two for 64.
      uint32_t step = switchLiteralWords(inst) + 1;
      for (uint32_t i = 2; i + step - 1 < inst.operandCount; i += step) add(inst.operand(i + step - 1));
    }
    currentBlock_ = nullptr;
    return true;
  }
  b.body.push_back(inst);
  return true;
}

uint32_t Module::switchLiteralWords(const Instruction& sw) const {
  const Type* t = type(resultTypeOf(sw.operand(0)));
  return t && t->width > 32 ? 2 : 1;
}

const Constant* Module::constant(uint32_t id) const {
  auto it = constants_.find(id);
  return it == constants_.end() ? nullptr : &it->second;
}

const Decorations& Module::decorations(uint32_t id) const {
  static const Decorations none;
  auto it = decorations_.find(id);
  return it == decorations_.end() ? none : it->second;
}

const Decorations& Module::memberDecorations(uint32_t structId, uint32_t member) const {
  static const Decorations none;
  auto it = memberDecorations_.find((uint64_t(structId) << 32) | member);
  return it == memberDecorations_.end() ? none : it->second;
}

const GlobalVariable* Module::global(uint32_t id) const {
  auto it = globalIndex_.find(id);
  return it == globalIndex_.end() ? nullptr : &globals_[it->second];
}

const Function* Module::function(uint32_t id) const {
  auto it = functionIndex_.find(id);
  return it == functionIndex_.end() ? nullptr : &functions_[it->second];
}

const EntryPoint* Module::findEntryPoint(std::string_view name, spv::ExecutionModel model) const {
  for (const EntryPoint& ep : entryPoints_)
    if (ep.name == name && ep.model == model) return &ep;
  return nullptr;
}

bool Module::isExtInstSet(uint32_t id, std::string_view name) const {
  auto it = extInstSets_.find(id);
  return it != extInstSets_.end() && it->second == name;
}

bool Module::hasCapability(spv::Capability c) const {
  return std::find(capabilities_.begin(), capabilities_.end(), c) != capabilities_.end();
}

const std::string* Module::name(uint32_t id) const {
  auto it = names_.find(id);
  return it == names_.end() ? nullptr : &it->second;
}

const Instruction* Module::globalDefinition(uint32_t id) const {
  auto it = globalDefs_.find(id);
  return it == globalDefs_.end() ? nullptr : &it->second;
}

std::optional<Constant> Module::evaluateSpecConstantOp(const Instruction& inst) const {
  using spv::Op;
  const Type* rt = type(inst.type);
  if (!rt || (rt->kind != TypeKind::Int && rt->kind != TypeKind::Bool)) return std::nullopt;
  const uint32_t rw = rt->kind == TypeKind::Bool ? 1 : rt->width;
  // Operands: scalar integer or boolean constants, as (bits masked to their width, width).
  uint64_t v[3] = {};
  uint32_t w[3] = {};
  const uint32_t n = inst.operandCount - 1;
  if (n < 1 || n > 3) return std::nullopt;
  for (uint32_t k = 0; k < n; ++k) {
    const Constant* c = constant(inst.operand(k + 1));
    const Type* t = c ? type(c->type) : nullptr;
    if (!c || !t || (t->kind != TypeKind::Int && t->kind != TypeKind::Bool)) return std::nullopt;
    if (c->kind != ConstantKind::Scalar && c->kind != ConstantKind::Bool && c->kind != ConstantKind::Null) return std::nullopt;
    w[k] = t->kind == TypeKind::Bool ? 1 : t->width;
    v[k] = c->kind == ConstantKind::Null ? 0 : maskToWidth(c->bits, w[k]);
  }
  // width 0: the operand a unary operation does not have (its value is 0).
  auto sext = [](uint64_t x, uint32_t width) -> int64_t {
    return width == 0 || width >= 64 ? int64_t(x) : int64_t(x << (64 - width)) >> (64 - width);
  };
  const uint64_t a = v[0], b = v[1];
  const int64_t sa = sext(a, w[0]), sb = sext(b, w[1]);
  uint64_t r = 0;
  // Undefined results (division by zero, INT_MIN / -1, oversized shifts) are some value,
  // computed without trapping.
  switch (Op(inst.operand(0))) {
    case Op::OpIAdd: r = a + b; break;
    case Op::OpISub: r = a - b; break;
    case Op::OpIMul: r = a * b; break;
    case Op::OpUDiv: r = b ? a / b : 0; break;
    case Op::OpUMod: r = b ? a % b : 0; break;
    case Op::OpSDiv: r = sb == 0 ? 0 : sb == -1 ? 0 - uint64_t(sa) : uint64_t(sa / sb); break;
    case Op::OpSRem: r = sb == 0 || sb == -1 ? 0 : uint64_t(sa % sb); break;
    case Op::OpSMod: {
      int64_t m = sb == 0 || sb == -1 ? 0 : sa % sb;
      if (m != 0 && (m < 0) != (sb < 0)) m += sb;
      r = uint64_t(m);
      break;
    }
    case Op::OpShiftLeftLogical: r = b >= rw ? 0 : a << b; break;
    case Op::OpShiftRightLogical: r = b >= rw ? 0 : a >> b; break;
    case Op::OpShiftRightArithmetic: r = uint64_t(sa >> (b >= w[0] ? w[0] - 1 : b)); break;
    case Op::OpBitwiseOr: r = a | b; break;
    case Op::OpBitwiseXor: r = a ^ b; break;
    case Op::OpBitwiseAnd: r = a & b; break;
    case Op::OpNot: r = ~a; break;
    case Op::OpSNegate: r = 0 - a; break;
    case Op::OpUConvert: r = a; break;
    case Op::OpSConvert: r = uint64_t(sa); break;
    case Op::OpIEqual: case Op::OpLogicalEqual: r = a == b; break;
    case Op::OpINotEqual: case Op::OpLogicalNotEqual: r = a != b; break;
    case Op::OpULessThan: r = a < b; break;
    case Op::OpUGreaterThan: r = a > b; break;
    case Op::OpULessThanEqual: r = a <= b; break;
    case Op::OpUGreaterThanEqual: r = a >= b; break;
    case Op::OpSLessThan: r = sa < sb; break;
    case Op::OpSGreaterThan: r = sa > sb; break;
    case Op::OpSLessThanEqual: r = sa <= sb; break;
    case Op::OpSGreaterThanEqual: r = sa >= sb; break;
    case Op::OpLogicalOr: r = a | b; break;
    case Op::OpLogicalAnd: r = a & b; break;
    case Op::OpLogicalNot: r = !a; break;
    case Op::OpSelect: r = n == 3 && a ? b : v[2]; break;
    default: return std::nullopt;
  }
  Constant c{rt->kind == TypeKind::Bool ? ConstantKind::Bool : ConstantKind::Scalar, inst.type};
  c.bits = maskToWidth(r, rw);
  return c;
}

std::optional<uint64_t> Module::constantValue(uint32_t id) const {
  const Constant* c = constant(id);
  if (!c) return std::nullopt;
  if (c->kind == ConstantKind::Scalar || c->kind == ConstantKind::Bool) return c->bits;
  if (c->kind == ConstantKind::Null) return 0;
  return std::nullopt;
}

}  // namespace tessera::jit
