#include "uniformity.h"

#include <spirv/unified1/GLSL.std.450.h>

#include <algorithm>
#include <set>

namespace tessera::jit {
namespace {

using spv::Op;

bool isSubgroupUniformResult(const Instruction& inst) {
  switch (inst.op) {
    case Op::OpGroupNonUniformAll:
    case Op::OpGroupNonUniformAny:
    case Op::OpGroupNonUniformAllEqual:
    case Op::OpGroupNonUniformBroadcast:
    case Op::OpGroupNonUniformBroadcastFirst:
    case Op::OpGroupNonUniformBallot:
    case Op::OpSubgroupAllKHR:
    case Op::OpSubgroupAnyKHR:
    case Op::OpSubgroupAllEqualKHR:
    case Op::OpSubgroupBallotKHR:
    case Op::OpSubgroupFirstInvocationKHR:
      return true;
    case Op::OpGroupNonUniformBallotBitCount:
    case Op::OpGroupNonUniformIAdd:
    case Op::OpGroupNonUniformFAdd:
    case Op::OpGroupNonUniformIMul:
    case Op::OpGroupNonUniformFMul:
    case Op::OpGroupNonUniformSMin:
    case Op::OpGroupNonUniformUMin:
    case Op::OpGroupNonUniformFMin:
    case Op::OpGroupNonUniformSMax:
    case Op::OpGroupNonUniformUMax:
    case Op::OpGroupNonUniformFMax:
    case Op::OpGroupNonUniformBitwiseAnd:
    case Op::OpGroupNonUniformBitwiseOr:
    case Op::OpGroupNonUniformBitwiseXor:
    case Op::OpGroupNonUniformLogicalAnd:
    case Op::OpGroupNonUniformLogicalOr:
    case Op::OpGroupNonUniformLogicalXor:
      // operands: scope, group operation, value [, cluster size]
      return spv::GroupOperation(inst.operand(1)) == spv::GroupOperation::Reduce;
    default:
      return false;
  }
}

bool isAlwaysVarying(Op op) {
  switch (op) {
    case Op::OpAtomicLoad:
    case Op::OpAtomicExchange:
    case Op::OpAtomicCompareExchange:
    case Op::OpAtomicCompareExchangeWeak:
    case Op::OpAtomicIIncrement:
    case Op::OpAtomicIDecrement:
    case Op::OpAtomicIAdd:
    case Op::OpAtomicISub:
    case Op::OpAtomicSMin:
    case Op::OpAtomicUMin:
    case Op::OpAtomicSMax:
    case Op::OpAtomicUMax:
    case Op::OpAtomicAnd:
    case Op::OpAtomicOr:
    case Op::OpAtomicXor:
    case Op::OpAtomicFAddEXT:
    case Op::OpAtomicFMinEXT:
    case Op::OpAtomicFMaxEXT:
    case Op::OpFunctionCall:
    case Op::OpGroupNonUniformElect:
    case Op::OpGroupNonUniformInverseBallot:
    case Op::OpGroupNonUniformShuffle:
    case Op::OpGroupNonUniformShuffleXor:
    case Op::OpGroupNonUniformShuffleUp:
    case Op::OpGroupNonUniformShuffleDown:
    case Op::OpGroupNonUniformRotateKHR:
    case Op::OpGroupNonUniformQuadBroadcast:
    case Op::OpGroupNonUniformQuadSwap:
    case Op::OpSubgroupReadInvocationKHR:
    case Op::OpImageRead:
    case Op::OpImageSparseRead:
    case Op::OpImageFetch:
    case Op::OpImageSampleImplicitLod:
    case Op::OpImageSampleExplicitLod:
    case Op::OpImageSampleDrefImplicitLod:
    case Op::OpImageSampleDrefExplicitLod:
    case Op::OpImageSampleProjImplicitLod:
    case Op::OpImageSampleProjExplicitLod:
    case Op::OpImageSampleProjDrefImplicitLod:
    case Op::OpImageSampleProjDrefExplicitLod:
    case Op::OpImageGather:
    case Op::OpImageDrefGather:
    case Op::OpImageQueryLod:
    case Op::OpDPdx:
    case Op::OpDPdy:
    case Op::OpFwidth:
    case Op::OpDPdxFine:
    case Op::OpDPdyFine:
    case Op::OpFwidthFine:
    case Op::OpDPdxCoarse:
    case Op::OpDPdyCoarse:
    case Op::OpFwidthCoarse:
    case Op::OpIsHelperInvocationEXT:
    case Op::OpReadClockKHR:
      return true;
    default:
      return false;
  }
}

bool isPerInvocationStorage(spv::StorageClass sc) {
  return sc == spv::StorageClass::Function || sc == spv::StorageClass::Private ||
         sc == spv::StorageClass::Input || sc == spv::StorageClass::Output;
}

}  // namespace

bool isUniformBuiltIn(spv::BuiltIn b, bool geometry) {
  if (geometry && b == spv::BuiltIn::PrimitiveId) return false;
  switch (b) {
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::SubgroupSize:
    case spv::BuiltIn::NumSubgroups:
    case spv::BuiltIn::SubgroupId:
    case spv::BuiltIn::ViewIndex:
    case spv::BuiltIn::DrawIndex:
    case spv::BuiltIn::BaseVertex:
    case spv::BuiltIn::BaseInstance:
    case spv::BuiltIn::DeviceIndex:
    // One draw's vertex batch shares its instance; a fragment batch is one primitive.
    case spv::BuiltIn::InstanceIndex:
    case spv::BuiltIn::FrontFacing:
    case spv::BuiltIn::PrimitiveId:
    // A fragment batch shades one sample (abi::FragmentBatch::sampleId, samplePosition).
    case spv::BuiltIn::SampleId:
    case spv::BuiltIn::SamplePosition:
      return true;
    default:
      return false;
  }
}

bool Uniformity::markVarying(uint32_t id) {
  if (id >= varying_.size() || varying_[id]) return false;
  varying_[id] = 1;
  return true;
}

uint32_t Uniformity::rootVariable(uint32_t pointer) const {
  for (int guard = 0; guard < 64 && pointer < pointerRoot_.size() && pointerRoot_[pointer] &&
                      pointerRoot_[pointer] != pointer;
       ++guard)
    pointer = pointerRoot_[pointer];
  return pointer;
}

bool Uniformity::anyOperandVarying(const Instruction& inst) const {
  uint32_t first = 0, last = inst.operandCount;
  switch (inst.op) {
    case Op::OpCompositeExtract: last = 1; break;                  // composite, then literals
    case Op::OpCompositeInsert: last = 2; break;                   // object, composite, literals
    case Op::OpVectorShuffle: last = 2; break;                     // two vectors, then literals
    case Op::OpExtInst: first = 2; break;                          // set, instruction, ids...
    case Op::OpLoad: last = 1; break;                              // pointer, memory operands
    default: break;
  }
  for (uint32_t i = first; i < last; ++i)
    if (isVarying(inst.operand(i))) return true;
  return false;
}

bool Uniformity::instructionVarying(const Instruction& inst) const {
  if (isAlwaysVarying(inst.op)) return true;
  if (isSubgroupUniformResult(inst)) return false;
  switch (inst.op) {
    case Op::OpVariable:
      return false;  // the pointer itself is the same for all lanes; loads decide
    case Op::OpExtInst: {
      // InterpolateAt*: a per-lane value even when the interpolant's pointer and the sample or
      // offset operand are uniform.
      const uint32_t ext = inst.operand(1);
      if (module_.isExtInstSet(inst.operand(0), "GLSL.std.450") &&
          (ext == GLSLstd450InterpolateAtCentroid || ext == GLSLstd450InterpolateAtSample ||
           ext == GLSLstd450InterpolateAtOffset))
        return true;
      return anyOperandVarying(inst);
    }
    case Op::OpLoad: {
      uint32_t ptr = inst.operand(0);
      if (isVarying(ptr)) return true;
      const Type* pt = module_.type(module_.resultTypeOf(ptr));
      if (pt && isPerInvocationStorage(pt->storage)) {
        // Built-ins that are the same for the whole batch read as uniform.
        uint32_t root = rootVariable(ptr);
        auto bi = module_.decorations(root).builtIn;
        if (pt->storage == spv::StorageClass::Input && bi && isUniformBuiltIn(spv::BuiltIn(*bi), geometry_)) return false;
        if (pt->storage == spv::StorageClass::Input && !bi) {
          // A block of built-ins (gl_PerVertex): members carry the decoration; be conservative.
          return true;
        }
        return true;
      }
      return false;
    }
    default:
      return anyOperandVarying(inst);
  }
}

void Uniformity::analyze(const Function& f, const StructuredCfg& cfg) {
  if (pointerRoot_.size() < module_.bound()) pointerRoot_.resize(module_.bound(), 0);
  const uint32_t n = uint32_t(f.blocks.size());
  for (const Instruction& p : f.parameters) markVarying(p.result);

  // Definition block of every id defined in this function.
  std::vector<int> defBlock(module_.bound(), -1);
  for (uint32_t b = 0; b < n; ++b) {
    for (const Instruction& i : f.blocks[b].phis) defBlock[i.result] = int(b);
    for (const Instruction& i : f.blocks[b].body) {
      if (i.result) defBlock[i.result] = int(b);
      switch (i.op) {
        case Op::OpAccessChain:
        case Op::OpInBoundsAccessChain:
        case Op::OpPtrAccessChain:
        case Op::OpInBoundsPtrAccessChain:
        case Op::OpCopyObject:
          pointerRoot_[i.result] = i.operand(0);
          break;
        default:
          break;
      }
    }
  }
  auto label = [&](uint32_t l) -> int {
    auto it = f.blockIndex.find(l);
    return it == f.blockIndex.end() ? -1 : int(it->second);
  };
  // Forward reachability (excluding back-edges) from a block, including the block itself.
  auto forwardReach = [&](uint32_t start) {
    std::vector<uint8_t> seen(n, 0);
    std::vector<uint32_t> work{start};
    seen[start] = 1;
    while (!work.empty()) {
      uint32_t b = work.back();
      work.pop_back();
      for (uint32_t s : f.blocks[b].successors) {
        int si = label(s);
        if (si < 0 || cfg.position[si] < 0 || cfg.isBackEdge(b, uint32_t(si)) || seen[si]) continue;
        seen[si] = 1;
        work.push_back(uint32_t(si));
      }
    }
    return seen;
  };
  auto branchVarying = [&](const Block& blk) {
    const Instruction& t = blk.terminator;
    if (t.op == Op::OpBranchConditional || t.op == Op::OpSwitch) return isVarying(t.operand(0));
    return false;
  };

  std::vector<uint8_t> join(n, 0);
  std::vector<uint8_t> divergentLoop(n, 0);  // by header block index
  for (bool changed = true; changed;) {
    changed = false;
    // Joins and loop exits of the varying branches known so far.
    for (uint32_t d = 0; d < n; ++d) {
      if (cfg.position[d] < 0 || !branchVarying(f.blocks[d])) continue;
      const auto& succ = f.blocks[d].successors;
      std::vector<std::vector<uint8_t>> reach;
      for (uint32_t s : succ) {
        int si = label(s);
        if (si < 0 || cfg.position[si] < 0 || cfg.isBackEdge(d, uint32_t(si))) reach.emplace_back(n, 0);
        else reach.push_back(forwardReach(uint32_t(si)));
      }
      for (size_t i = 0; i < reach.size(); ++i)
        for (size_t j = i + 1; j < reach.size(); ++j)
          for (uint32_t b = 0; b < n; ++b)
            if (reach[i][b] && reach[j][b] && !join[b]) join[b] = 1, changed = true;
      // Loops containing d: do the successors lead to different exits (or back-edge)?
      for (uint32_t h = 0; h < n; ++h) {
        if (cfg.loopLast[h] < 0 || divergentLoop[h] || !cfg.inLoop(h, d)) continue;
        std::vector<std::set<int>> exits;
        for (size_t k = 0; k < succ.size(); ++k) {
          std::set<int> e;
          int si = label(succ[k]);
          auto classify = [&](uint32_t from, int to) {
            if (to < 0 || cfg.position[to] < 0) return;
            if (uint32_t(to) == h && cfg.isBackEdge(from, uint32_t(to))) e.insert(-1);
            else if (!cfg.inLoop(h, uint32_t(to))) e.insert(to);
          };
          classify(d, si);
          if (si >= 0 && cfg.position[si] >= 0 && !cfg.isBackEdge(d, uint32_t(si)) && cfg.inLoop(h, uint32_t(si))) {
            for (uint32_t b = 0; b < n; ++b)
              if (reach[k][b] && cfg.inLoop(h, b))
                for (uint32_t s : f.blocks[b].successors) classify(b, label(s));
          }
          exits.push_back(std::move(e));
        }
        for (size_t k = 1; k < exits.size(); ++k)
          if (exits[k] != exits[0]) {
            divergentLoop[h] = 1;
            changed = true;
            break;
          }
      }
    }
    // Values.
    for (uint32_t p = 0; p < cfg.order.size(); ++p) {
      uint32_t b = cfg.order[p];
      const Block& blk = f.blocks[b];
      for (const Instruction& phi : blk.phis) {
        if (isVarying(phi.result)) continue;
        bool v = join[b];
        for (uint32_t i = 0; !v && i + 1 < phi.operandCount; i += 2) v = isVarying(phi.operand(i));
        if (v) changed |= markVarying(phi.result);
      }
      for (const Instruction& inst : blk.body)
        if (inst.result && !isVarying(inst.result) && instructionVarying(inst)) changed |= markVarying(inst.result);
    }
    // Temporal divergence: exit phis and values used outside a loop with divergent exits.
    for (uint32_t h = 0; h < n; ++h) {
      if (!divergentLoop[h]) continue;
      for (uint32_t b = 0; b < n; ++b) {
        if (cfg.position[b] < 0 || cfg.inLoop(h, b)) continue;
        const Block& blk = f.blocks[b];
        for (const Instruction& phi : blk.phis)
          for (uint32_t i = 0; i + 1 < phi.operandCount; i += 2) {
            int from = label(phi.operand(i + 1));
            if (from >= 0 && cfg.position[from] >= 0 && cfg.inLoop(h, uint32_t(from)))
              changed |= markVarying(phi.result);
          }
        auto useOutside = [&](uint32_t id) {
          if (id < defBlock.size() && defBlock[id] >= 0 && cfg.position[defBlock[id]] >= 0 &&
              cfg.inLoop(h, uint32_t(defBlock[id])))
            changed |= markVarying(id);
        };
        for (const Instruction& inst : blk.body)
          for (uint32_t i = 0; i < inst.operandCount; ++i) useOutside(inst.operand(i));
        for (uint32_t i = 0; i < blk.terminator.operandCount; ++i) useOutside(blk.terminator.operand(i));
        for (const Instruction& phi : blk.phis)
          for (uint32_t i = 0; i + 1 < phi.operandCount; i += 2) useOutside(phi.operand(i));
      }
    }
  }
}

}  // namespace tessera::jit
