// Which blocks of a structured function run with every lane that entered the function.
//
// The translator runs control flow under lane masks (structured_cfg.h): each block ORs the
// masks of its incoming edges into a <W x i1> slot and runs when that is not empty. Most of
// that work is wasted where the flow is uniform: a block reached only through branches on
// batch-uniform conditions (uniformity.h) from such blocks runs with all the function's lanes
// or with none, so a scalar "reached" flag says everything its mask would, and a loop of such
// blocks is an ordinary scalar loop LLVM can unroll and simplify. Those are "full" blocks:
//  - the entry block is full;
//  - a block is full when every (reachable) predecessor is full and reaches it through an
//    uniform edge (OpBranch, or a conditional branch or switch on a uniform value), and, where
//    calls may terminate lanes (fragment shaders: OpKill in a callee), the predecessor makes
//    no call;
//  - the merge block of a closed construct entered with all lanes is full: every lane that
//    enters a selection or loop construct leaves it through its merge when no block of the
//    construct returns, terminates lanes or branches out of it (break to an outer loop,
//    continue), whatever the branches inside do. A construct is entered with all lanes when
//    its header is full or, for a loop, when every edge into the header from outside the loop
//    is (a loop with a varying exit has a masked header, but all lanes leave it at its merge).
// The greatest fixed point of those rules is computed (loops start optimistic: a uniform loop
// is full because every iteration keeps every lane).
#pragma once

#include <cstdint>
#include <vector>

#include "spirv_module.h"
#include "structured_cfg.h"
#include "uniformity.h"

namespace tessera::jit {

// Block index -> 1 when the block is full (see above). `callsMayTerminate`: whether an
// OpFunctionCall may drop lanes (fragment shaders); such a call ends a full region.
std::vector<uint8_t> findFullMaskBlocks(const Function& f, const StructuredCfg& cfg, const Uniformity& uniformity,
                                        bool callsMayTerminate);

// Whether block `b`'s terminator sends every lane the same way (OpBranch, a conditional branch
// on a uniform value or with both targets the same, a switch on a uniform selector).
bool terminatorIsUniform(const Block& b, const Uniformity& uniformity);
// Whether a full block hands all its lanes on as its terminator says: the terminator is uniform
// and, where calls may terminate lanes, the block makes none.
bool exitsWithAllLanes(const Block& b, const Uniformity& uniformity, bool callsMayTerminate);

}  // namespace tessera::jit
