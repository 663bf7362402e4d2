// imageStore to a 2D storage image declared rgba8, each invocation to its own texel (x = i mod 19
// - 3, y = i / 19 - 3: inside the image and outside it on every side), the value given for it, in
// the lanes whose fourth operand word is not zero (inline_texel_read_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;
layout(std430, set = 0, binding = 1) readonly buffer In { ivec4 q[]; };
layout(std430, set = 0, binding = 2) readonly buffer Values { vec4 v[]; };
void main() {
  const int i = int(gl_GlobalInvocationID.x);
  if (q[i].w != 0) imageStore(img, ivec2(i % 19 - 3, i / 19 - 3), v[i]);
}
