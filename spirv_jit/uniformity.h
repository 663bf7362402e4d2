// Which SPIR-V values are the same for every active lane of a SIMD batch ("uniform") and which
// may differ ("varying"). Uniform values are kept as scalars in the generated code: one
// instruction instead of W, a scalar load instead of a gather, a real branch instead of masks.
//
// Rules (structured control flow only):
//  - Sources of variation: per-invocation built-ins (LocalInvocationId, ...), loads through a
//    varying pointer or from per-invocation memory (Function, Private, Input, Output), atomics,
//    function parameters and call results, per-lane subgroup results.
//  - An instruction with a varying operand is varying.
//  - A phi is varying at a join of a varying branch: a block reachable, along forward edges,
//    from two different successors of that branch.
//  - Temporal divergence: when lanes may leave a loop in different iterations (a varying
//    branch inside the loop whose successors lead to different exits), the phis of the exit
//    blocks and every value defined in the loop and used outside it are varying.
#pragma once

#include <cstdint>
#include <vector>

#include "spirv_module.h"
#include "structured_cfg.h"

namespace tessera::jit {

// Whether a built-in read through an Input variable is uniform across a batch. A geometry
// batch's lanes are different primitives (abi::GeometryBatch::primitiveIdIn per lane), so
// PrimitiveId is not uniform there (`geometry`).
bool isUniformBuiltIn(spv::BuiltIn builtIn, bool geometry = false);

class Uniformity {
 public:
  explicit Uniformity(const Module& module) : module_(module), varying_(module.bound(), 0) {}

  // Analyses one function (the entry point, or a callee whose parameters are all varying).
  void analyze(const Function& function, const StructuredCfg& cfg);

  // The module is a geometry shader's (isUniformBuiltIn); set before analyze.
  void setGeometryStage(bool geometry) { geometry_ = geometry; }

  bool isVarying(uint32_t id) const { return id < varying_.size() && varying_[id]; }
  // Marks a value varying (e.g. a function parameter); returns true if that changed anything.
  bool markVarying(uint32_t id);

 private:
  bool instructionVarying(const Instruction& inst) const;
  bool anyOperandVarying(const Instruction& inst) const;
  uint32_t rootVariable(uint32_t pointer) const;

  const Module& module_;
  std::vector<uint8_t> varying_;
  std::vector<uint32_t> pointerRoot_;  // pointer id -> root variable id (built during analysis)
  bool geometry_ = false;
};

}  // namespace tessera::jit
