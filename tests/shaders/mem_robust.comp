// Out-of-bounds accesses through storage-buffer descriptors whose range is smaller than the
// indices: loads must give zero (or a value from the bound range), stores and atomics must
// not touch memory outside the range, and nothing may crash. Indices come from a buffer
// (lane-varying) and from push constants (uniform), negative and past the end.
#version 450
layout(local_size_x = 64) in;
struct Pair { uint a; uint b; };
layout(set = 0, binding = 0) buffer Data { uint d[]; };
layout(set = 0, binding = 1) buffer Vecs { uvec4 v[]; };
layout(set = 0, binding = 2) buffer Pairs { Pair p[]; };
layout(set = 0, binding = 3) readonly buffer Idx { int idx[]; };
layout(set = 0, binding = 4) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform P { int uniformIndex; };
shared uint before[4];
shared uint s[16];
shared uint after[4];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationIndex;
  if (l < 4u) { before[l] = 0xB0B0B0B0u; after[l] = 0xAFAFAFAFu; }
  if (l < 16u) s[l] = l;
  barrier();
  int k = idx[i];  // n is a multiple of the workgroup size: every invocation reaches the barriers
  o[8u * i + 0u] = d[k];
  o[8u * i + 1u] = v[k].y;
  uvec4 whole = v[k];
  o[8u * i + 2u] = whole.x ^ whole.y ^ whole.z ^ whole.w;
  o[8u * i + 3u] = p[k].b;
  o[8u * i + 4u] = d[uniformIndex];
  o[8u * i + 5u] = s[k];
  barrier();  // every read above happens before any write below
  d[k] = 0xD0000000u + i;
  v[k] = uvec4(0xE0000000u + i);
  p[k].a = 0xF0000000u + i;
  atomicAdd(d[k], 1u);
  if (i == 0u) {
    d[uniformIndex] = 0xC0000000u;
    atomicOr(d[uniformIndex], 1u);
  }
  s[k] = 0x50000000u + i;
  barrier();
  // The shared arrays around s must be intact.
  o[8u * i + 6u] = before[l & 3u];
  o[8u * i + 7u] = after[l & 3u];
}
