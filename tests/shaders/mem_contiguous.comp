#version 450
// Contiguous accesses (lane i at element base + i) that straddle the ends of their ranges:
// buffers bound with ranges that are not a multiple of W, a shift that moves the first
// element before the start (wrapping round as uint) or past the end, a store under a varying
// condition, and workgroup memory read past the end of its array. The vector fast path
// (lane_affine.h), the load-and-shuffle path for lanes a few elements apart, and the per-lane
// path must agree with the spec's robust results.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) buffer Out1 { uint o1[]; };
layout(set = 0, binding = 2) writeonly buffer Out2 { uint o2[]; };
layout(set = 0, binding = 3) writeonly buffer Out3 { uint o3[]; };
layout(push_constant) uniform P { int shift; uint count; };
shared uint s[80];
void main() {
  uint i = gl_GlobalInvocationID.x;
  uint l = gl_LocalInvocationID.x;
  uint v = a[i + uint(shift)];
  if (i < count) o1[i + uint(shift)] = v + 1u;
  s[l + 16u] = v;  // s[16..79]: in bounds
  barrier();
  o2[i] = s[l + 16u + uint(shift & 31)];  // past s's end for the last lanes
  // Lanes reading within a few elements of each other (a block index; all one element): one
  // load and a shuffle when lane 0's index has its low bits clear, else per lane.
  o3[i] = a[(i + uint(shift)) / 4u] + a[l / 64u + uint(shift & 7)];
}
