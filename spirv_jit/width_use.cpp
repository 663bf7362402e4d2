// readWidthUse (tessera/spirv_jit.h): one pass over a module's instructions for what decides
// whether its fragment kernel may run wider than the device's subgroup size.
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
  WidthUse use;
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
    at += count;
  }
  return use;
}

}  // namespace tessera::jit
