// Tiled matrix multiply C = A * B (row-major, M x K times K x Nc) through 16x16 shared tiles
// with barriers in the tile loop; dimensions need not be multiples of the tile.
#version 450
layout(local_size_x = 16, local_size_y = 16) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer C { float c[]; };
layout(push_constant) uniform P { uint M; uint K; uint Nc; };
shared float tileA[16][16];
shared float tileB[16][17];  // padded row
void main() {
  uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
  uint ty = gl_LocalInvocationID.y, tx = gl_LocalInvocationID.x;
  float acc = 0.0;
  for (uint t = 0u; t < (K + 15u) / 16u; ++t) {
    uint ka = t * 16u + tx, kb = t * 16u + ty;
    tileA[ty][tx] = row < M && ka < K ? a[row * K + ka] : 0.0;
    tileB[ty][tx] = kb < K && col < Nc ? b[kb * Nc + col] : 0.0;
    barrier();
    for (uint k = 0u; k < 16u; ++k) acc += tileA[ty][k] * tileB[k][tx];
    barrier();
  }
  if (row < M && col < Nc) c[row * Nc + col] = acc;
}
