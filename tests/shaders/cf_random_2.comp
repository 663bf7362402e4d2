// Random structured control flow (random_cf/cf_random_2.inc) over per-lane inputs.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int inputs[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int outputs[]; };
layout(push_constant) uniform P { uint n; int u; };
#define FALLTHROUGH
#define INOUT(t) inout t
#include "random_cf/cf_random_2.inc"
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) outputs[i] = prog2(inputs[i], u);
}
