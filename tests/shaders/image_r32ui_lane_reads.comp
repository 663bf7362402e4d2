// image_r32_lane_reads.comp on an R32_UINT image: out-of-range texels read as (0, 0, 0, 1)
// with an integer 1 (image_compute_test.cpp).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform readonly uimage2D img;
layout(set = 0, binding = 1, r32f) uniform imageBuffer unused;
layout(std430, set = 0, binding = 2) writeonly buffer Out { uvec4 o[]; };
void main() {
  int i = int(gl_GlobalInvocationID.x);
  o[i] = imageLoad(img, ivec2(i % 8 - 2, (i / 8) % 3 - 1));
}
