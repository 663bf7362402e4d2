// tests/api/update_after_bind_robustness_test.cpp: 32 invocations read word i of four
// update-after-bind descriptors whose ranges hold 16 words, and store to word i of the two
// storage ones: invocations 16..31 are out of range.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) buffer Out { uvec4 sizes; uvec4 read[32]; } o;
layout(set = 0, binding = 1) buffer Ssbo { uint s[]; };
layout(set = 0, binding = 2) uniform Ubo { uvec4 u[8]; };
layout(set = 0, binding = 3) uniform usamplerBuffer ut;
layout(set = 0, binding = 4, r32ui) uniform uimageBuffer st;
void main() {
  uint i = gl_LocalInvocationID.x;
  o.read[i] = uvec4(s[i], u[i / 4u][i % 4u], texelFetch(ut, int(i)).x, imageLoad(st, int(i)).x);
  s[i] = 0x5000u + i;
  imageStore(st, int(i), uvec4(0x6000u + i));
  if (i == 0u) o.sizes = uvec4(s.length(), textureSize(ut), imageSize(st), 0u);
}
