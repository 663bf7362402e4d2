// A std140 uniform block (vec3 and array strides of 16, column- and row-major matrices, an
// array of structs), read by every invocation and copied out flat.
#version 450
layout(local_size_x = 8) in;
struct S { float x; vec2 y; };
layout(std140, set = 0, binding = 0) uniform U {
  float a;
  vec3 b;
  float c[3];
  mat3 m;
  layout(row_major) mat3 rm;
  vec2 d;
  ivec4 e;
  S s[2];
  layout(row_major) mat2x3 r23;
};
layout(std430, set = 0, binding = 1) writeonly buffer Out { float o[]; };
void main() {
  uint k = gl_LocalInvocationIndex;
  uint base = k * 48u;
  o[base + 0] = a;
  o[base + 1] = b.x; o[base + 2] = b.y; o[base + 3] = b.z;
  for (int j = 0; j < 3; ++j) o[base + 4u + uint(j)] = c[j];
  for (int col = 0; col < 3; ++col)
    for (int row = 0; row < 3; ++row) {
      o[base + 7u + uint(col * 3 + row)] = m[col][row];
      o[base + 16u + uint(col * 3 + row)] = rm[col][row];
    }
  o[base + 25] = d.x; o[base + 26] = d.y;
  for (int j = 0; j < 4; ++j) o[base + 27u + uint(j)] = float(e[j]);
  o[base + 31] = s[0].x; o[base + 32] = s[0].y.x; o[base + 33] = s[0].y.y;
  o[base + 34] = s[1].x; o[base + 35] = s[1].y.x; o[base + 36] = s[1].y.y;
  for (int col = 0; col < 2; ++col)
    for (int row = 0; row < 3; ++row) o[base + 37u + uint(col * 3 + row)] = r23[col][row];
  // A lane-dependent index into the uniform array and matrix.
  o[base + 43] = c[k % 3u];
  o[base + 44] = rm[k % 3u][(k + 1u) % 3u];
  vec3 prod = rm * b;
  o[base + 45] = prod.x; o[base + 46] = prod.y; o[base + 47] = prod.z;
}
