// Descriptor arrays indexed uniformly and per lane (nonuniformEXT), .length() through a
// per-lane descriptor, a dynamic storage buffer, and out-of-range element indices through
// per-lane descriptors (negative and past the end: nothing outside a range may change).
#version 450
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Bufs { uint v[]; } bufs[4];
layout(set = 0, binding = 1) readonly buffer Dyn { uint d[]; } dyn;
layout(set = 0, binding = 2) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 3) readonly buffer Idx { int idx[]; };
layout(push_constant) uniform P { uint n; int uniformBuf; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint b = i % 4u;
  int k = idx[i];
  o[6u * i + 0u] = bufs[nonuniformEXT(b)].v[(i / 4u) % 16u];  // elements 0..15 are never written
  o[6u * i + 1u] = bufs[uniformBuf].v[i % 16u];
  o[6u * i + 2u] = uint(bufs[nonuniformEXT(b)].v.length());
  o[6u * i + 3u] = dyn.d[i % 32u];
  o[6u * i + 4u] = bufs[nonuniformEXT(b)].v[k];          // k may be out of range
  o[6u * i + 5u] = atomicAdd(bufs[nonuniformEXT(b)].v[k], 0u);
  bufs[nonuniformEXT(b)].v[k] = 0xA0000000u + i;          // dropped when out of range
  atomicOr(bufs[nonuniformEXT(b)].v[k], 0x01000000u);
}
