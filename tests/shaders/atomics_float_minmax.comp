// Float atomic minimum and maximum (VK_EXT_shader_atomic_float2, SPV_EXT_shader_atomic_float_min_max:
// OpAtomicFMinEXT / OpAtomicFMaxEXT) on 32- and 64-bit floats in a storage buffer and in
// workgroup memory. Each invocation offers a value of its own, negative ones included; the
// values returned are kept so the test can check each against the order of updates.
#version 450
#extension GL_EXT_shader_atomic_float2 : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Totals { float min32; float max32; double min64; double max64; } t;
layout(set = 0, binding = 1) readonly buffer Values { float values[]; };
layout(set = 0, binding = 2) writeonly buffer Old32 { float old32[]; };   // 2 per invocation: min, max
layout(set = 0, binding = 3) writeonly buffer Old64 { double old64[]; };  // 2 per invocation
layout(set = 0, binding = 4) writeonly buffer Groups { float groups32[]; };  // 2 per group (shared min, max)
layout(set = 0, binding = 5) writeonly buffer Groups64 { double groups64[]; };
shared float sMin, sMax;
shared double sMin64, sMax64;
void main() {
  uint l = gl_LocalInvocationIndex;
  uint i = gl_GlobalInvocationID.x;
  if (l == 0u) {
    sMin = 1e30;
    sMax = -1e30;
    sMin64 = 1e300lf;
    sMax64 = -1e300lf;
  }
  barrier();
  float v = values[i];
  double d = double(v) * 3.0lf;
  old32[2u * i] = atomicMin(t.min32, v);
  old32[2u * i + 1u] = atomicMax(t.max32, v);
  old64[2u * i] = atomicMin(t.min64, d);
  old64[2u * i + 1u] = atomicMax(t.max64, d);
  atomicMin(sMin, v);
  atomicMax(sMax, v);
  atomicMin(sMin64, d);
  atomicMax(sMax64, d);
  barrier();
  if (l == 0u) {
    groups32[2u * gl_WorkGroupID.x] = sMin;
    groups32[2u * gl_WorkGroupID.x + 1u] = sMax;
    groups64[2u * gl_WorkGroupID.x] = sMin64;
    groups64[2u * gl_WorkGroupID.x + 1u] = sMax64;
  }
}
