// imageLoad or imageStore (push constant `writing`) of a 2D storage image declared rgba8 by rows
// of lanes: invocation (gx, gy) of a 32 x 12 grid of 16-wide workgroups accesses texel
// (gx - 3, gy - 1), so a batch's lanes have consecutive x and one y (the kernel's masked vector
// load and store, translate_image.cpp) and reach past every side of the 13 x 9 image; every
// fifth invocation returns first (inline_texel_read_test.cpp).
#version 450
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, rgba8) uniform image2D img;
layout(std430, set = 0, binding = 1) readonly buffer In { vec4 v[]; };
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
layout(push_constant) uniform P { int writing; };
void main() {
  const ivec2 g = ivec2(gl_GlobalInvocationID.xy);
  const int i = g.y * 32 + g.x;
  if ((g.x * 7 + g.y) % 5 == 0) return;
  const ivec2 p = g - ivec2(3, 1);
  if (writing != 0) imageStore(img, p, v[i]);
  else o[i] = imageLoad(img, p);
}
