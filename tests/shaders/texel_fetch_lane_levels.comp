// texelFetch with a level that differs per lane (the third word): always the per-lane helper
// (inline_texel_read_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(std430, set = 0, binding = 1) readonly buffer In { ivec4 q[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const ivec4 c = q[i];
  o[i] = texelFetch(tex, c.xy, c.z);
}
