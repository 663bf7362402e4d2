#include "spirv_tools_stage.h"

#include <cstring>
#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <spirv-tools/libspirv.hpp>
#include <spirv-tools/optimizer.hpp>
#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

namespace tessera::jit {
namespace {

spvtools::MessageConsumer collectInto(std::string* out) {
  return [out](spv_message_level_t level, const char*, const spv_position_t& position, const char* text) {
    if (level > SPV_MSG_WARNING) return;
    if (!out->empty()) *out += "; ";
    *out += text;
    if (position.index) *out += " (at word " + std::to_string(position.index) + ")";
  };
}

// Whether the module still calls a function (inlining leaves a call whose callee returns from
// inside a loop, for one).
bool callsAFunction(const std::vector<uint32_t>& words) {
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16, op = words[pos] & 0xffff;
    if (count == 0 || pos + count > words.size()) break;
    if (op == uint32_t(spv::Op::OpFunctionCall)) return true;
    pos += count;
  }
  return false;
}

// Whether a variable of the module holds a logical pointer (variable pointers: OpVariable of a
// pointer to a pointer into StorageBuffer or Workgroup memory, or to a composite containing one).
// SPIRV-Tools 2023.1's (Debian 12) SSA rewrite replaces a load through a pointer loaded from such
// a variable with the loaded pointer itself (an OpStore of a pointer into a uint was seen:
// tests/shaders/var_ptr_mux.spvasm), so modules with one keep their variables in memory; the
// translator handles them there (lane memory, three leaves per pointer). A function returning a
// logical pointer counts too: inlining it may make such a variable for its return value.
bool variablesHoldLogicalPointers(const std::vector<uint32_t>& words) {
  std::unordered_map<uint32_t, std::vector<uint32_t>> contained;  // composite type -> member / element types
  std::unordered_map<uint32_t, uint32_t> pointee;                 // pointer type -> pointee
  std::unordered_set<uint32_t> logicalPointers;
  std::vector<uint32_t> variableTypes;
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    const auto op = spv::Op(words[pos] & 0xffff);
    if (count == 0 || pos + count > words.size()) break;
    if (op == spv::Op::OpTypePointer && count >= 4) {
      pointee[words[pos + 1]] = words[pos + 3];
      if (spv::StorageClass(words[pos + 2]) != spv::StorageClass::PhysicalStorageBuffer) logicalPointers.insert(words[pos + 1]);
    }
    if ((op == spv::Op::OpTypeArray || op == spv::Op::OpTypeRuntimeArray) && count >= 3) contained[words[pos + 1]] = {words[pos + 2]};
    if (op == spv::Op::OpTypeStruct && count >= 2) contained[words[pos + 1]].assign(words.begin() + pos + 2, words.begin() + pos + count);
    if (op == spv::Op::OpVariable && count >= 3) variableTypes.push_back(words[pos + 1]);
    if (op == spv::Op::OpFunction && count >= 2 && logicalPointers.count(words[pos + 1])) return true;
    pos += count;
  }
  // Types are declared before use, so a depth-limited walk ends.
  std::function<bool(uint32_t, int)> holds = [&](uint32_t type, int depth) {
    if (depth > 64) return false;
    if (logicalPointers.count(type)) return true;
    auto c = contained.find(type);
    if (c == contained.end()) return false;
    for (uint32_t m : c->second)
      if (holds(m, depth + 1)) return true;
    return false;
  };
  for (uint32_t v : variableTypes) {
    auto p = pointee.find(v);
    if (p != pointee.end() && holds(p->second, 0)) return true;
  }
  return false;
}

// Whether an OpBitcast turns a vector of 8- or 16-bit components into a scalar (v2half -> uint:
// GLSL's packFloat2x16 and friends). SPIRV-Tools 2023.1 (Debian 12) folds such a bitcast of a
// known value into a constant with one word per component instead of the packed value: invalid
// SPIR-V, and later folds in the same pass read its first word as the result (CTS
// spirv_assembly...float16.opcompositeconstruct.struct). Modules with one skip the folding
// passes; LLVM folds the bitcast correctly later.
bool bitcastsNarrowVectorToScalar(const std::vector<uint32_t>& words) {
  std::unordered_map<uint32_t, uint32_t> scalarWidth;    // int/float type -> bits
  std::unordered_map<uint32_t, uint32_t> vectorElement;  // vector type -> component type
  std::unordered_map<uint32_t, uint32_t> typeOf;         // result id -> result type
  std::vector<std::pair<uint32_t, uint32_t>> bitcasts;   // (result type, operand)
  for (size_t pos = 5; pos < words.size();) {
    const uint32_t count = words[pos] >> 16;
    const auto op = spv::Op(words[pos] & 0xffff);
    if (count == 0 || pos + count > words.size()) break;
    if ((op == spv::Op::OpTypeInt || op == spv::Op::OpTypeFloat) && count >= 3) scalarWidth[words[pos + 1]] = words[pos + 2];
    if (op == spv::Op::OpTypeVector && count >= 3) vectorElement[words[pos + 1]] = words[pos + 2];
    bool hasResult = false, hasType = false;
    spv::HasResultAndType(op, &hasResult, &hasType);
    if (hasResult && hasType && count >= 3) typeOf[words[pos + 2]] = words[pos + 1];
    if (op == spv::Op::OpBitcast && count >= 4) bitcasts.emplace_back(words[pos + 1], words[pos + 3]);
    pos += count;
  }
  for (auto [resultType, operand] : bitcasts) {
    auto operandType = typeOf.find(operand);
    if (operandType == typeOf.end() || !scalarWidth.count(resultType)) continue;
    auto element = vectorElement.find(operandType->second);
    if (element == vectorElement.end()) continue;
    auto width = scalarWidth.find(element->second);
    if (width != scalarWidth.end() && width->second < 32) return true;
  }
  return false;
}

}  // namespace

bool everyUsedIdIsDefined(const std::vector<uint32_t>& words) {
  struct Ids {
    std::vector<bool> defined, used;
  } ids;
  if (words.size() < 5 || words[3] > (1u << 22)) return false;  // the bound: ids are below it
  ids.defined.assign(words[3], false);
  ids.used.assign(words[3], false);
  auto onInstruction = [](void* user, const spv_parsed_instruction_t* inst) -> spv_result_t {
    Ids& ids = *static_cast<Ids*>(user);
    for (uint16_t i = 0; i < inst->num_operands; ++i) {
      const spv_parsed_operand_t& op = inst->operands[i];
      const bool result = op.type == SPV_OPERAND_TYPE_RESULT_ID;
      if (!result && op.type != SPV_OPERAND_TYPE_ID && op.type != SPV_OPERAND_TYPE_TYPE_ID &&
          op.type != SPV_OPERAND_TYPE_SCOPE_ID && op.type != SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID)
        continue;  // a literal or an enumerant
      const uint32_t id = inst->words[op.offset];
      if (id >= ids.defined.size()) return SPV_ERROR_INVALID_ID;
      (result ? ids.defined : ids.used)[id] = true;
    }
    return SPV_SUCCESS;
  };
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_3);
  const spv_result_t parsed = spvBinaryParse(context, &ids, words.data(), words.size(), nullptr, onInstruction, nullptr);
  spvContextDestroy(context);
  if (parsed != SPV_SUCCESS) return false;
  for (size_t id = 0; id < ids.used.size(); ++id)
    if (ids.used[id] && !ids.defined[id]) return false;
  return true;
}

bool validateSpirv(std::span<const uint32_t> words, const ValidationFeatures& features, std::string* message) {
  if (words.empty()) {
    *message = "empty SPIR-V module";
    return false;
  }
  spvtools::SpirvTools tools(SPV_ENV_VULKAN_1_3);
  std::string diagnostics;
  tools.SetMessageConsumer(collectInto(&diagnostics));
  spvtools::ValidatorOptions options;
  options.SetRelaxBlockLayout(true);  // VK_KHR_relaxed_block_layout is core since 1.1
  options.SetScalarBlockLayout(features.scalarBlockLayout);
  options.SetUniformBufferStandardLayout(features.uniformBufferStandardLayout);
  options.SetWorkgroupScalarBlockLayout(features.workgroupScalarBlockLayout);
  options.SetAllowLocalSizeId(true);  // maintenance4 (core 1.3)
  bool ok = tools.Validate(words.data(), words.size(), options);
  if (!ok) *message = diagnostics.empty() ? "invalid SPIR-V" : diagnostics;
  return ok;
}

SpecializationValues specializationValues(std::span<const SpecializationEntry> entries, const void* data,
                                          size_t dataSize) {
  SpecializationValues values;
  for (const SpecializationEntry& e : entries) {
    if (e.size == 0 || e.size > 8 || e.offset + e.size > dataSize) continue;  // invalid usage: ignore
    uint64_t bits = 0;
    std::memcpy(&bits, static_cast<const uint8_t*>(data) + e.offset, e.size);
    std::vector<uint32_t> w{uint32_t(bits)};
    if (e.size > 4) w.push_back(uint32_t(bits >> 32));
    values[e.constantId] = std::move(w);
  }
  return values;
}

bool specializeAndOptimize(std::vector<uint32_t>& words, const SpecializationValues& specialization,
                           OptimizationLevel level, std::string* message) {
  const std::vector<uint32_t> original = level == OptimizationLevel::Full ? words : std::vector<uint32_t>{};
  guardSignedDivision(words, level == OptimizationLevel::Full);
  std::string diagnostics;
  bool specialized = false;
  if (hasSpecConstantQuantize(words)) {
    // Specialize and freeze first, then fold QuantizeToF16 here (quantize_fold.cpp), so that
    // FoldSpecConstantOpAndComposite below never sees one with a constant operand.
    spvtools::Optimizer freeze(SPV_ENV_VULKAN_1_3);
    freeze.SetMessageConsumer(collectInto(&diagnostics));
    if (!specialization.empty()) freeze.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(specialization));
    freeze.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
    spvtools::OptimizerOptions freezeOptions;
    freezeOptions.set_run_validator(false);
    std::vector<uint32_t> frozen;
    if (!freeze.Run(words.data(), words.size(), &frozen, freezeOptions)) {
      *message = diagnostics.empty() ? "SPIR-V optimizer failed" : diagnostics;
      return false;
    }
    foldSpecConstantQuantize(frozen);
    words.swap(frozen);
    specialized = true;
  }
  spvtools::Optimizer opt(SPV_ENV_VULKAN_1_3);
  opt.SetMessageConsumer(collectInto(&diagnostics));
  opt.RegisterPass(spvtools::CreateFlattenDecorationPass());
  if (!specialization.empty() && !specialized)
    opt.RegisterPass(spvtools::CreateSetSpecConstantDefaultValuePass(specialization));
  opt.RegisterPass(spvtools::CreateFreezeSpecConstantValuePass());
  opt.RegisterPass(spvtools::CreateFoldSpecConstantOpAndCompositePass());
  if (level == OptimizationLevel::Full) {
    // Inlining puts every barrier in the entry function and removes call overhead; the memory
    // passes turn function variables into SSA values, which the uniformity analysis can then
    // keep scalar (a load from a per-lane variable is always varying). LLVM does the rest.
    opt.RegisterPass(spvtools::CreateInlineExhaustivePass());
    opt.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass());
    opt.RegisterPass(spvtools::CreatePrivateToLocalPass());
    if (!variablesHoldLogicalPointers(words)) {
      opt.RegisterPass(spvtools::CreateScalarReplacementPass(100));
      opt.RegisterPass(spvtools::CreateLocalSingleBlockLoadStoreElimPass());
      opt.RegisterPass(spvtools::CreateLocalSingleStoreElimPass());
      opt.RegisterPass(spvtools::CreateSSARewritePass());
    }
    if (!bitcastsNarrowVectorToScalar(words)) {
      opt.RegisterPass(spvtools::CreateCCPPass());
      opt.RegisterPass(spvtools::CreateSimplificationPass());
    }
    opt.RegisterPass(spvtools::CreateDeadBranchElimPass());
  }
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // validated before, by validateSpirv
  std::vector<uint32_t> out;
  if (!opt.Run(words.data(), words.size(), &out, options)) {
    *message = diagnostics.empty() ? "SPIR-V optimizer failed" : diagnostics;
    return false;
  }
  if (!everyUsedIdIsDefined(out)) {
    // The passes broke the module. Without the optimizing passes it is still correct, only
    // slower (LLVM optimizes it); the minimal passes breaking it too is an internal error.
    if (level == OptimizationLevel::Full) {
      words = original;
      return specializeAndOptimize(words, specialization, OptimizationLevel::None, message);
    }
    *message = "SPIR-V optimizer produced a module using an undefined id";
    return false;
  }
  words.swap(out);
  // Aggressive DCE of SPIRV-Tools 2023.1 (Debian 12) dereferences a null pointer on a call to a
  // function that returns a pointer (it takes the callee's id for a pointer operand; upstream
  // SPIRV-Tools issue 5270), and its handling of calls is where its other known crashes lie.
  // Calls survive inlining only when a callee returns from inside a loop (a GLSL function
  // returning a buffer reference can), so DCE runs only on modules without any call; LLVM
  // removes dead code after translation anyway.
  if (level == OptimizationLevel::Full && !callsAFunction(words)) {
    spvtools::Optimizer dce(SPV_ENV_VULKAN_1_3);
    dce.SetMessageConsumer(collectInto(&diagnostics));
    dce.RegisterPass(spvtools::CreateAggressiveDCEPass());
    if (!dce.Run(words.data(), words.size(), &out, options)) {
      *message = diagnostics.empty() ? "SPIR-V optimizer failed" : diagnostics;
      return false;
    }
    if (everyUsedIdIsDefined(out)) words.swap(out);  // else the module before DCE, which was whole
  }
  return true;
}

}  // namespace tessera::jit
