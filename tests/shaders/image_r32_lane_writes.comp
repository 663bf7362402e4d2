// imageStore to an R32_SFLOAT storage image (4 x 1 texels) at coordinates that differ per lane:
// invocations 1-4 write texel (i - 1, 0), the others coordinates outside the image in x, in y or
// both, which are dropped (image_compute_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform writeonly image2D img;
layout(set = 0, binding = 1, r32f) uniform imageBuffer unused;
layout(std430, set = 0, binding = 2) buffer Unused { float u[]; };
void main() {
  int i = int(gl_GlobalInvocationID.x);
  ivec2 p;
  if (i >= 1 && i <= 4) p = ivec2(i - 1, 0);
  else if (i % 3 == 0) p = ivec2(i % 2 == 0 ? -i : i + 3, 0);  // x outside
  else if (i % 3 == 1) p = ivec2(i % 4, -i);                    // y outside
  else p = ivec2(-1, 1);                                         // both
  imageStore(img, p, vec4(float(i) * 1.5 + 100.0, 7.0, 7.0, 7.0));
}
