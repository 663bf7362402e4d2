// distanceOutputUse (distance_use.h): one pass over the functions' instructions.
#include "distance_use.h"

#include <unordered_map>

namespace tessera::jit {

namespace {

// What one interface variable holds: which member index (at which access chain index) is
// which distance, or that the variable itself is one.
struct DistanceVariable {
  bool wholeIsClip = false, wholeIsCull = false;  // the variable is decorated ClipDistance/CullDistance
  uint32_t memberIndexAt = 0;                     // index position of the block member (0, or 1 when arrayed)
  int64_t clipMember = -1, cullMember = -1;
};

bool isAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain;
}

}  // namespace

DistanceOutputUse distanceOutputUse(const Module& module, const EntryPoint& entry) {
  std::unordered_map<uint32_t, DistanceVariable> variables;
  for (uint32_t id : entry.interface) {
    const GlobalVariable* g = module.global(id);
    if (!g || g->storage != spv::StorageClass::Output) continue;
    DistanceVariable v;
    const Decorations& d = module.decorations(id);
    if (d.builtIn) {
      v.wholeIsClip = spv::BuiltIn(*d.builtIn) == spv::BuiltIn::ClipDistance;
      v.wholeIsCull = spv::BuiltIn(*d.builtIn) == spv::BuiltIn::CullDistance;
    }
    const Type* pointer = module.type(g->type);
    uint32_t blockType = pointer ? pointer->element : 0;
    const Type* block = module.type(blockType);
    if (block && block->kind == TypeKind::Array) {  // gl_out[] of a tessellation control stage
      v.memberIndexAt = 1;
      blockType = block->element;
      block = module.type(blockType);
    }
    if (block && block->kind == TypeKind::Struct)
      for (uint32_t m = 0; m < block->members.size(); ++m) {
        const auto& builtIn = module.memberDecorations(blockType, m).builtIn;
        if (builtIn && spv::BuiltIn(*builtIn) == spv::BuiltIn::ClipDistance) v.clipMember = m;
        if (builtIn && spv::BuiltIn(*builtIn) == spv::BuiltIn::CullDistance) v.cullMember = m;
      }
    if (v.wholeIsClip || v.wholeIsCull || v.clipMember >= 0 || v.cullMember >= 0) variables[id] = v;
  }
  DistanceOutputUse use;
  if (variables.empty()) return use;
  auto useWhole = [&](const DistanceVariable& v) {
    use.clip |= v.wholeIsClip || v.clipMember >= 0;
    use.cull |= v.wholeIsCull || v.cullMember >= 0;
  };
  for (const Function& f : module.functions())
    for (const Block& b : f.blocks)
      for (const Instruction& inst : b.body) {
        if (isAccessChain(inst.op)) {
          const auto it = variables.find(inst.operand(0));
          if (it == variables.end()) continue;
          const DistanceVariable& v = it->second;
          // Operands: base, then indices. Too few indices to pick a member: the whole block.
          if (v.wholeIsClip || v.wholeIsCull || inst.operandCount < 2 + v.memberIndexAt) {
            useWhole(v);
            continue;
          }
          const std::optional<uint64_t> member = module.constantValue(inst.operand(1 + v.memberIndexAt));
          if (!member) {
            useWhole(v);
            continue;
          }
          use.clip |= int64_t(*member) == v.clipMember;
          use.cull |= int64_t(*member) == v.cullMember;
          continue;
        }
        // Any other instruction naming the variable (a store, a copy, a call) may write all of it.
        for (uint32_t k = 0; k < inst.operandCount; ++k) {
          const auto it = variables.find(inst.operands[k]);
          if (it != variables.end()) useWhole(it->second);
        }
      }
  return use;
}

}  // namespace tessera::jit
