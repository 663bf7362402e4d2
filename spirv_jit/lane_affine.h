// Vectors whose lanes step by a constant: v[i] = v[0] + i * stride for every lane i, as exact
// integers. A memory access whose byte offsets step by the element size is one vector load or
// store instead of a gather or scatter; proving it from the IR the translator builds (a
// constant per-lane pattern such as LocalInvocationId.x = scalar + lane, splats of uniform
// values, and add, sub, mul and shl by constants, and the clamps of bounds-checked indexing)
// costs a few scalar compares at run time instead of a compare across every lane.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <llvm/IR/IRBuilder.h>

namespace tessera::jit {

struct LaneSteps {
  int64_t stride = 0;  // v[i] - v[0], per lane, when every condition holds
  // Scalar i1 values, emitted at the builder's insertion point: the form is exact only when
  // all are true (a clamp that no lane reaches, for instance).
  std::vector<llvm::Value*> conditions;
};

// The constant lane stride of integer vector `v` (of `width` lanes), or nothing when the IR
// does not show one. Scalars have stride 0.
std::optional<LaneSteps> laneSteps(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width);

}  // namespace tessera::jit
