// A workgroup-shared array whose length is a specialization constant (memory limit tests):
// every invocation fills part of it, then reads one element another invocation wrote.
#version 450
layout(local_size_x = 64) in;
layout(constant_id = 0) const uint N = 8;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
shared uint s[N];
void main() {
  uint l = gl_LocalInvocationIndex;
  for (uint k = l; k < N; k += 64u) s[k] = k * 3u;
  barrier();
  o[gl_GlobalInvocationID.x] = s[(l * 131u) % N];
}
