// readWidthUse (tessera/spirv_jit.h): one pass over a module's instructions for what decides
// whether its fragment or compute kernel may run wider than the device's subgroup size.
#include <array>
#include <cstring>
#include <string_view>
#include <unordered_map>

#include <spirv/unified1/spirv.hpp11>

#include "tessera/spirv_width_use.h"

namespace tessera::jit {
namespace {

// The capabilities through which a module can see its subgroup: every group operation and the
// SubgroupSize / SubgroupLocalInvocationId / Subgroup*Mask built-ins need one of them.
bool reachesSubgroups(spv::Capability c) {
  switch (c) {
    case spv::Capability::Groups:
    case spv::Capability::SubgroupDispatch:
    case spv::Capability::GroupNonUniform:
    case spv::Capability::GroupNonUniformVote:
    case spv::Capability::GroupNonUniformArithmetic:
    case spv::Capability::GroupNonUniformBallot:
    case spv::Capability::GroupNonUniformShuffle:
    case spv::Capability::GroupNonUniformShuffleRelative:
    case spv::Capability::GroupNonUniformClustered:
    case spv::Capability::GroupNonUniformQuad:
    case spv::Capability::GroupNonUniformPartitionedNV:
    case spv::Capability::GroupNonUniformRotateKHR:
    case spv::Capability::SubgroupBallotKHR:
    case spv::Capability::SubgroupVoteKHR:
      return true;
    default:
      return false;
  }
}

bool samplesOrFetches(spv::Op op) {
  switch (op) {
    case spv::Op::OpImageSampleImplicitLod:
    case spv::Op::OpImageSampleExplicitLod:
    case spv::Op::OpImageSampleDrefImplicitLod:
    case spv::Op::OpImageSampleDrefExplicitLod:
    case spv::Op::OpImageSampleProjImplicitLod:
    case spv::Op::OpImageSampleProjExplicitLod:
    case spv::Op::OpImageSampleProjDrefImplicitLod:
    case spv::Op::OpImageSampleProjDrefExplicitLod:
    case spv::Op::OpImageFetch:
    case spv::Op::OpImageGather:
    case spv::Op::OpImageDrefGather:
    case spv::Op::OpImageSparseSampleImplicitLod:
    case spv::Op::OpImageSparseSampleExplicitLod:
    case spv::Op::OpImageSparseSampleDrefImplicitLod:
    case spv::Op::OpImageSparseSampleDrefExplicitLod:
    case spv::Op::OpImageSparseFetch:
    case spv::Op::OpImageSparseGather:
    case spv::Op::OpImageSparseDrefGather:
      return true;
    default:
      return false;
  }
}

// OpSNegate .. OpDot (the arithmetic section of the instruction set) and OpExtInst.
bool isArithmetic(spv::Op op) {
  return (op >= spv::Op::OpSNegate && op <= spv::Op::OpDot) || op == spv::Op::OpExtInst;
}

}  // namespace

WidthUse readWidthUse(std::span<const uint32_t> words) {
  constexpr size_t kHeaderWords = 5;
  constexpr uint32_t kGlslSqrt = 31, kGlslInverseSqrt = 32;  // GLSL.std.450's instruction numbers
  WidthUse use;
  uint32_t glslSet = 0;  // the GLSL.std.450 import's id
  uint64_t literalSize = 0;
  uint32_t localSizes = 0;
  bool sizeNotLiteral = false;
  std::array<uint32_t, 3> sizeIds = {};  // LocalSizeId's operands
  uint32_t workgroupSizeId = 0;  // the id decorated BuiltIn WorkgroupSize
  uint64_t builtInSize = 0;      // its constant value's product
  std::unordered_map<uint32_t, uint32_t> constants;  // 32-bit OpConstant values by id
  if (words.size() <= kHeaderWords) {
    use.reachesSubgroups = true;  // unreadable: nothing may be assumed
    return use;
  }
  for (size_t at = kHeaderWords; at < words.size();) {
    const uint32_t count = words[at] >> 16;
    const auto op = spv::Op(words[at] & 0xFFFF);
    if (count == 0 || at + count > words.size()) {
      use.reachesSubgroups = true;
      break;
    }
    if (op == spv::Op::OpCapability && count >= 2 && reachesSubgroups(spv::Capability(words[at + 1])))
      use.reachesSubgroups = true;
    if (samplesOrFetches(op)) use.samplesImages = true;
    if (isArithmetic(op)) ++use.arithmetic;
    if (op == spv::Op::OpExtInstImport && count >= 3) {
      const char* name = reinterpret_cast<const char*>(&words[at + 2]);
      if (std::string_view(name, strnlen(name, (count - 2) * 4)) == "GLSL.std.450") glslSet = words[at + 1];
    }
    // OpExtInst: result type, result, set, instruction number.
    const bool glslDivides = op == spv::Op::OpExtInst && count >= 5 && glslSet && words[at + 3] == glslSet &&
                             (words[at + 4] == kGlslSqrt || words[at + 4] == kGlslInverseSqrt);
    if (op == spv::Op::OpFDiv || glslDivides) ++use.divisions;
    if (op == spv::Op::OpExecutionMode && count >= 6 && spv::ExecutionMode(words[at + 2]) == spv::ExecutionMode::LocalSize)
      literalSize = uint64_t(words[at + 3]) * words[at + 4] * words[at + 5], ++localSizes;
    // LocalSizeId names constants (defined further on): literal when they are OpConstants, not
    // when they are specialization constants. glslang writes it for SPIR-V 1.6.
    if (op == spv::Op::OpExecutionModeId && count >= 3 && spv::ExecutionMode(words[at + 2]) == spv::ExecutionMode::LocalSizeId) {
      ++localSizes;
      if (count == 6) sizeIds = {words[at + 3], words[at + 4], words[at + 5]};
      else sizeNotLiteral = true;
    }
    // A WorkgroupSize built-in (glslang declares one for gl_WorkGroupSize) overrides LocalSize:
    // literal when it is a constant composite of constants, not when specialized.
    if (op == spv::Op::OpDecorate && count >= 4 && spv::Decoration(words[at + 2]) == spv::Decoration::BuiltIn &&
        spv::BuiltIn(words[at + 3]) == spv::BuiltIn::WorkgroupSize)
      workgroupSizeId = words[at + 1];
    if (op == spv::Op::OpConstant && count == 4) constants[words[at + 2]] = words[at + 3];
    if (op == spv::Op::OpConstantComposite && count == 6 && words[at + 2] == workgroupSizeId && workgroupSizeId) {
      const auto x = constants.find(words[at + 3]), y = constants.find(words[at + 4]), z = constants.find(words[at + 5]);
      if (x != constants.end() && y != constants.end() && z != constants.end())
        builtInSize = uint64_t(x->second) * y->second * z->second;
    }
    at += count;
  }
  if (sizeIds[0]) {
    uint64_t product = 1;
    for (uint32_t id : sizeIds) {
      const auto c = constants.find(id);
      if (c == constants.end()) sizeNotLiteral = true;
      else product *= c->second;
    }
    literalSize = product;
  }
  if (workgroupSizeId) {
    if (!builtInSize) sizeNotLiteral = true;  // specialized, or not found
    literalSize = builtInSize, localSizes = 1;
  }
  // One entry point's literal size (a module with several may give each its own).
  if (localSizes == 1 && !sizeNotLiteral && literalSize <= UINT32_MAX) use.localInvocations = uint32_t(literalSize);
  return use;
}

}  // namespace tessera::jit
