// tests/api/storage_image_multisample_test.cpp: one workgroup over a 4x4, 2-layer, 4-sample
// r32ui storage image. Each invocation stores the four samples of its texel, then (after a
// workgroup barrier) reads and atomically adds to the samples of the mirrored texel, and
// finally reads its own texel's samples again.
#version 450
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0, r32ui) uniform coherent uimage2DMSArray img;
layout(set = 0, binding = 1) buffer Out {
  uvec4 info;          // imageSamples, imageSize
  uvec4 mirrored[32];  // the mirrored texel's samples, read
  uvec4 old[32];       // what imageAtomicAdd returned for them
  uvec4 after[32];     // the texel's own samples at the end
} o;
uint value(ivec3 p, int s) { return uint(1 + p.x + 4 * p.y + 16 * p.z + 64 * s); }
void main() {
  ivec3 p = ivec3(gl_LocalInvocationID);
  uint id = gl_LocalInvocationIndex;
  for (int s = 0; s < 4; ++s) imageStore(img, p, s, uvec4(value(p, s)));
  memoryBarrierImage();
  barrier();
  ivec3 m = ivec3(3, 3, 1) - p;
  for (int s = 0; s < 4; ++s) o.mirrored[id][s] = imageLoad(img, m, s).x;
  for (int s = 0; s < 4; ++s) o.old[id][s] = imageAtomicAdd(img, m, s, 1000u);
  memoryBarrierImage();
  barrier();
  for (int s = 0; s < 4; ++s) o.after[id][s] = imageLoad(img, p, s).x;
  if (id == 0u) o.info = uvec4(imageSamples(img), imageSize(img));
}
