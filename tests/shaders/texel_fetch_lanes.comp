// texelFetch of a 2D sampled image at per-lane coordinates and a uniform level (push constant),
// in the lanes whose fourth word is not zero (the others write -1): the kernel's inline read of
// 8-bit RGBA and R32 views (translate_image.cpp) against the per-lane helper
// (inline_texel_read_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(std430, set = 0, binding = 1) readonly buffer In { ivec4 q[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
layout(push_constant) uniform P { int lod; };
void main() {
  const uint i = gl_GlobalInvocationID.x;
  const ivec4 c = q[i];
  if (c.w != 0) o[i] = texelFetch(tex, c.xy, lod);
  else o[i] = vec4(-1.0);
}
