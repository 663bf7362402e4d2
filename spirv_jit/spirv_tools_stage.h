// The SPIRV-Tools half of compilation: validation (before anything else touches a module),
// specialization (spec constants frozen to the pipeline's values) and the optimizer passes that
// pay for themselves before translation (see spirv_tools_stage.cpp for the measured list).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "tessera/spirv_jit.h"

namespace tessera::jit {

struct ValidationFeatures {
  bool scalarBlockLayout = true;             // VK_EXT_scalar_block_layout / 1.2
  bool uniformBufferStandardLayout = true;   // 1.2
  bool workgroupScalarBlockLayout = true;
};

// Returns true when the module is valid SPIR-V for Vulkan 1.3; otherwise false with the
// validator's diagnostic in *message.
bool validateSpirv(std::span<const uint32_t> words, const ValidationFeatures& features, std::string* message);

// Spec constant values by SpecId, as bit patterns (one word, or two for 64-bit constants).
using SpecializationValues = std::unordered_map<uint32_t, std::vector<uint32_t>>;

// Builds SpecializationValues from VkSpecializationInfo-style data (map entries give
// constantID, offset and size into data).
SpecializationValues specializationValues(std::span<const SpecializationEntry> entries, const void* data, size_t dataSize);

// Guards every OpSDiv/OpSRem/OpSMod (instructionsToo) and specialization-constant signed
// division against INT_MIN / -1, which SPIRV-Tools' constant folder would trap on
// (division_guard.cpp). Expects a validated module.
void guardSignedDivision(std::vector<uint32_t>& words, bool instructionsToo);

// OpSpecConstantOp QuantizeToF16, which SPIRV-Tools' folder crashes on or folds wrongly
// (quantize_fold.cpp): whether the module has one, and, once the spec constants are frozen,
// each such operation of a 32-bit float OpConstant replaced by an OpConstant of its result.
bool hasSpecConstantQuantize(const std::vector<uint32_t>& words);
void foldSpecConstantQuantize(std::vector<uint32_t>& words);

// Whether every id an instruction of `words` uses (operands, result types, scope and
// semantics ids) is the result of some instruction. A validated module always is; SPIRV-Tools
// 2023.1's passes have produced modules that are not (the fuzzer found one in CI whose
// aggressive DCE then dereferenced the missing definition in AddOperandsToWorkList), so
// specializeAndOptimize checks their output before DCE and translation see it. False also for
// words that do not parse.
bool everyUsedIdIsDefined(const std::vector<uint32_t>& words);

enum class OptimizationLevel { None, Full };

// Specializes and (for Full) optimizes words in place. None still flattens decoration groups
// and folds spec constants, which translation relies on. Returns false with *message set when
// a pass fails.
bool specializeAndOptimize(std::vector<uint32_t>& words, const SpecializationValues& specialization,
                           OptimizationLevel level, std::string* message);

}  // namespace tessera::jit
