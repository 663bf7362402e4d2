#version 450
// C = A * B for n x n row-major matrices (n a multiple of 16): the classic shared-memory tiled
// SGEMM, one 16x16 tile of C per workgroup, two barriers per step along k.
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform Push {
  uint n;
} pc;

shared float tileA[16][16];
shared float tileB[16][16];

void main() {
  uint n = pc.n;
  uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  float acc = 0.0;
  for (uint k0 = 0u; k0 < n; k0 += 16u) {
    tileA[ty][tx] = a[row * n + k0 + tx];
    tileB[ty][tx] = b[(k0 + ty) * n + col];
    barrier();
    for (uint k = 0u; k < 16u; ++k) acc += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  c[row * n + col] = acc;
}
