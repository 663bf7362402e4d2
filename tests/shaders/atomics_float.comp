// Float atomics (VK_EXT_shader_atomic_float): atomicAdd, atomicExchange, atomicLoad and
// atomicStore on 32- and 64-bit floats in buffers and shared memory. Exchanges are checked
// for atomicity: the values they return plus the final value are each written value once.
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_KHR_memory_scope_semantics : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals { float f32sum; float f32swap; double f64sum; double f64swap; } t;
layout(set = 0, binding = 1) writeonly buffer Prev32 { float prev32[]; };
layout(set = 0, binding = 2) writeonly buffer Prev64 { double prev64[]; };
layout(set = 0, binding = 3) writeonly buffer Groups { double groups[]; };
shared float sF;
shared double sD;
void main() {
  uint l = gl_LocalInvocationIndex;
  uint i = gl_GlobalInvocationID.x;
  if (l == 0u) {
    atomicStore(sF, 0.0, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    sD = 0.0lf;
  }
  barrier();
  atomicAdd(t.f32sum, 0.5);                 // exact: multiples of 0.5 below 2^24
  atomicAdd(t.f64sum, 0.25lf);
  prev32[i] = atomicExchange(t.f32swap, float(i + 1u));
  prev64[i] = atomicExchange(t.f64swap, double(i + 1u) * 0.5lf);
  atomicAdd(sF, 1.5);
  atomicAdd(sD, 2.0lf);
  barrier();
  if (l == 0u) {
    groups[2u * gl_WorkGroupID.x] = double(atomicLoad(sF, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed));
    groups[2u * gl_WorkGroupID.x + 1u] = atomicExchange(sD, -1.0lf);
  }
}
