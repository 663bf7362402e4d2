// Workgroup reduction and inclusive prefix sum through shared memory, with barrier() inside
// loops: a tree reduction (sum, min, max) and a Hillis-Steele scan over the whole workgroup.
// The workgroup size is a specialization constant (256 or 1024 in the tests): many SIMD batches.
#version 450
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint N = 256;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Sums { ivec4 totals[]; };  // sum, min, max, scan check
layout(set = 0, binding = 2) writeonly buffer Scan { int scanned[]; };
shared int sSum[N];
shared int sMin[N];
shared int sMax[N];
shared int buf[2][N];
void main() {
  uint l = gl_LocalInvocationIndex;
  uint g = gl_WorkGroupID.x;
  int x = a[g * N + l];
  sSum[l] = x;
  sMin[l] = x;
  sMax[l] = x;
  barrier();
  for (uint stride = N / 2u; stride > 0u; stride /= 2u) {
    if (l < stride) {
      sSum[l] += sSum[l + stride];
      sMin[l] = min(sMin[l], sMin[l + stride]);
      sMax[l] = max(sMax[l], sMax[l + stride]);
    }
    barrier();
  }
  // Inclusive scan, double-buffered.
  uint src = 0u;
  buf[0][l] = x;
  barrier();
  for (uint offset = 1u; offset < N; offset *= 2u) {
    int v = buf[src][l];
    if (l >= offset) v += buf[src][l - offset];
    buf[1u - src][l] = v;
    src = 1u - src;
    barrier();
  }
  scanned[g * N + l] = buf[src][l];
  if (l == 0u) totals[g] = ivec4(sSum[0], sMin[0], sMax[0], buf[src][N - 1u]);
}
