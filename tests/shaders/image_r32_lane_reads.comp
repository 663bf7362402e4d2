// imageLoad of an R32_SFLOAT storage image (4 x 1 texels, every one cleared to the same value)
// at coordinates that differ per lane, inside and outside the image in x and y; each lane
// writes the four components it read (image_compute_test.cpp: out-of-range texels read as
// (0, 0, 0, 1), "Texel Replacement").
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32f) uniform readonly image2D img;
layout(set = 0, binding = 1, r32f) uniform imageBuffer unused;
layout(std430, set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
void main() {
  int i = int(gl_GlobalInvocationID.x);
  o[i] = imageLoad(img, ivec2(i % 8 - 2, (i / 8) % 3 - 1));
}
