// Vectors whose lanes differ from lane 0 by constants: v[i] = v[0] + offsets[i] for every lane
// i, as exact integers. A memory access whose byte offsets step by the element size is one
// vector load or store instead of a gather or scatter; one whose offsets stay within W
// elements of lane 0's (a block index i / 8, say) is one vector load and a shuffle. Proving it
// from the IR the translator builds (constant lane patterns such as LocalInvocationId.x =
// scalar + lane, splats of uniform values, add, sub, mul and shl by constants, shifts and
// divisions by powers of two, and the clamps of bounds-checked indexing) costs a few scalar
// compares at run time instead of a compare across every lane.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include <llvm/IR/IRBuilder.h>

namespace tessera::jit {

struct LanePattern {
  std::vector<int64_t> offsets;  // offsets[i] = v[i] - v[0] when every condition holds (offsets[0] = 0)
  // Scalar i1 values, emitted at the builder's insertion point: the pattern is exact only when
  // all are true (a clamp that no lane reaches, a low bit that is zero, for instance).
  std::vector<llvm::Value*> conditions;

  // The constant step between neighbouring lanes, if the offsets have one.
  std::optional<int64_t> stride() const;
  int64_t minOffset() const;
  int64_t maxOffset() const;
};

// The lane pattern of integer vector `v` (of `width` lanes), or nothing when the IR does not
// show one. Scalars have all offsets 0.
std::optional<LanePattern> lanePattern(llvm::IRBuilder<>& B, llvm::Value* v, uint32_t width);

// Lane 0 of integer vector `v` as scalar arithmetic, rebuilt from how the IR computes `v`
// (constants, splats, element 0 insertions, integer operations, min/max and casts), else as an
// extractelement. Scalar evolution follows the rebuilt form through a loop (lane 0 of the tile
// column k x 64 + x 4, say, is an add recurrence whose range it knows), where an
// extractelement of a vector with other users hides it: a bounds check on the first lane's
// offset then folds away, and the loop unrolls (sgemm's inner loop). Emitted at the builder's
// insertion point; the same value as extracting lane 0.
llvm::Value* laneZeroScalar(llvm::IRBuilder<>& B, llvm::Value* v);

}  // namespace tessera::jit
