#version 450
// Barriers inside a function: inlined by the SPIR-V optimizer the kernel is a coroutine that
// suspends at them (translate_barrier_coroutine.cpp); kept as a call (unoptimized) they switch
// fibers. Each exchange swaps values between lane l and lane 63 - l through shared memory.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
shared uint s[64];
uint exchange(uint v, uint l) {
  s[l] = v;
  barrier();
  uint r = s[63u - l];
  barrier();
  return r;
}
void main() {
  uint l = gl_LocalInvocationIndex;
  uint a = exchange(l * 3u, l);      // (63 - l) * 3
  uint b = exchange(a + 1u, l);      // 3 l + 1
  o[gl_GlobalInvocationID.x] = b + gl_WorkGroupID.x;
}
