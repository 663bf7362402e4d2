// Inline uniform block, dynamic storage buffer offsets and a non-uniformly indexed array of
// storage buffers (descriptor_kinds_test.cpp).
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) uniform Inline { uvec4 p; } params;   // inline block: scale, 3 biases
layout(set = 0, binding = 1) buffer Dyn { uint v[]; } dyn;                          // dynamic offset
layout(set = 0, binding = 2) buffer Arr { uint v[]; } arr[3];                       // array
layout(set = 0, binding = 3) buffer Out { uint o[]; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint which = i % 3;
  o[i] = params.p.x * dyn.v[i] + params.p[1 + which] + arr[nonuniformEXT(which)].v[i];
}
