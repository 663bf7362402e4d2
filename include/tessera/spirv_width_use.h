// What decides whether a fragment or compute stage may be compiled wider than the device's
// subgroup size (spirv_jit/width_use.cpp; icd/shader_stage.cpp decides): the module
// declares a capability through which it could see its subgroup (group operations,
// SubgroupSize, SubgroupLocalInvocationId; also set for words it cannot read), whether it
// samples, fetches or gathers from images, how much arithmetic and how many divisions it holds,
// and its workgroup size. Apart from
// spirv_jit.h, which most of the driver includes, so that this contract's changes rebuild three
// files, not seventy.
#pragma once

#include <cstdint>
#include <span>

namespace tessera::jit {

struct WidthUse {
  bool reachesSubgroups = false;
  bool samplesImages = false;
  // Arithmetic instructions in the module (negations, the four operations, remainders, the
  // vector and matrix products, extended instructions such as GLSL.std.450's), counted once
  // each however often they run.
  uint32_t arithmetic = 0;
  // Divisions and square roots (OpFDiv, GLSL.std.450 Sqrt and InverseSqrt): a loop of them is
  // bound by the divider, which wider batches do not feed faster.
  uint32_t divisions = 0;
  // A compute module's invocations per workgroup from its literal LocalSize (x y z), 0 when
  // they are not literal there (LocalSizeId, a WorkgroupSize built-in) or not given.
  uint32_t localInvocations = 0;
};
WidthUse readWidthUse(std::span<const uint32_t> spirv);

}  // namespace tessera::jit
