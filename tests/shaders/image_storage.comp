// Storage image stores and atomics, texel buffer loads and stores (image_test.cpp).
#version 450
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform writeonly image2D img;
layout(set = 0, binding = 1, r32ui) uniform uimage2D counter;
layout(set = 0, binding = 2, r32f) uniform readonly imageBuffer src;
layout(set = 0, binding = 3, rgba32ui) uniform writeonly uimageBuffer dst;
void main() {
  ivec2 p = ivec2(gl_GlobalInvocationID.xy);
  ivec2 size = imageSize(img);
  imageStore(img, p, vec4(float(p.x) / float(size.x), float(p.y) / float(size.y), 0.25, 1.0));
  imageAtomicAdd(counter, ivec2(p.x % 4, 0), uint(p.y + 1));
  int i = p.y * size.x + p.x;
  float v = imageLoad(src, i).x;
  imageStore(dst, i, uvec4(uint(v * 2.0), uint(i), uint(imageSize(src)), 7u));
  // Out of range: ignored, never a crash.
  imageStore(img, p + ivec2(1000, 0), vec4(1.0));
  imageStore(dst, i + 100000, uvec4(1u));
}
