// Which ClipDistance and CullDistance outputs a stage writes. glslang declares both, one
// element each, in every gl_PerVertex output block, whether the shader assigns them or not;
// the values of such a never-written distance are undefined, and treating them as written
// would make every primitive carry, clip and cull by them (and read garbage where nothing
// initializes them, as in a geometry stage's vertex records). A distance counts as written
// when a function of the module names it: an access chain into the block that selects its
// member, or any other use of the whole variable (a store of the block, a copy, a call).
#pragma once

#include "spirv_module.h"

namespace tessera::jit {

struct DistanceOutputUse {
  bool clip = false, cull = false;
};

// Over the Output variables in `entry`'s interface (gl_PerVertex blocks, arrays of them as a
// tessellation control stage's gl_out, or variables decorated ClipDistance/CullDistance).
DistanceOutputUse distanceOutputUse(const Module& module, const EntryPoint& entry);

}  // namespace tessera::jit
