#version 450
// Sum reduction through shared memory: each workgroup of 256 invocations adds 1024 values (4
// per invocation), then halves a shared array with a barrier per step, and writes its partial
// sum. Integer values, so every driver must give the same bits. 2D grid as in saxpy.comp.
layout(local_size_x = 256) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint partial[]; };
layout(push_constant) uniform Push { uint count; } pc;
shared uint s[256];

void main() {
  uint group = gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint l = gl_LocalInvocationID.x;
  uint base = group * 1024u + l;
  uint sum = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    uint i = base + k * 256u;
    if (i < pc.count) sum += v[i];
  }
  s[l] = sum;
  barrier();
  for (uint stride = 128u; stride > 0u; stride >>= 1u) {
    if (l < stride) s[l] += s[l + stride];
    barrier();
  }
  if (l == 0u) partial[group] = s[0];
}
