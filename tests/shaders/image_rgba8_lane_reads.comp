// imageLoad of a 2D storage image declared rgba8 at per-lane coordinates, in the lanes whose
// fourth word is not zero (the others write -1) (inline_texel_read_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8) uniform readonly image2D img;
layout(std430, set = 0, binding = 1) readonly buffer In { ivec4 q[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const ivec4 c = q[i];
  if (c.w != 0) o[i] = imageLoad(img, c.xy);
  else o[i] = vec4(-1.0);
}
