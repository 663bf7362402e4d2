// Vectors and matrices: products (matrix * vector, vector * matrix, matrix * matrix,
// non-square), transpose, determinant and inverse (4x4, 3x3, 2x2), outer products, dot,
// cross, swizzles and dynamic indexing. Inputs are small integers so products are exact.
#version 450
layout(local_size_x = 16) in;
struct In { mat4 a; mat4 b; vec4 v; ivec4 idx; };
layout(std430, set = 0, binding = 0) readonly buffer Inputs { In items[]; };
layout(std430, set = 0, binding = 1) writeonly buffer Outputs { float o[]; };
layout(push_constant) uniform P { uint n; };
const uint K = 200;
uint b;
void put(float x) { o[b++] = x; }
void put(vec4 x) { for (int k = 0; k < 4; ++k) put(x[k]); }
void put(vec3 x) { for (int k = 0; k < 3; ++k) put(x[k]); }
void put(vec2 x) { put(x.x); put(x.y); }
void put(mat4 m) { for (int c = 0; c < 4; ++c) put(m[c]); }
void put(mat3 m) { for (int c = 0; c < 3; ++c) put(m[c]); }
void put(mat2 m) { for (int c = 0; c < 2; ++c) put(m[c]); }
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  b = i * K;
  mat4 a = items[i].a, m = items[i].b;
  vec4 v = items[i].v;
  ivec4 idx = items[i].idx;
  put(a * v);                          // 0
  put(v * a);                          // 4
  put(a * m);                          // 8
  put(transpose(a));                   // 24
  put(determinant(a));                 // 40
  put(inverse(a));                     // 41
  mat3 a3 = mat3(a);
  put(determinant(a3));                // 57
  put(inverse(a3));                    // 58
  mat2 a2 = mat2(a);
  put(determinant(a2));                // 67
  put(inverse(a2));                    // 68
  mat3x4 op = outerProduct(v, v.zyx);  // 72: 3 columns of vec4
  for (int c = 0; c < 3; ++c) put(op[c]);
  mat2x3 n23 = mat2x3(a[0].xyz, a[1].xyz);
  mat3x2 n32 = mat3x2(m[0].xy, m[1].xy, m[2].xy);
  mat3 p33 = n23 * n32;                // 84
  put(p33);
  mat2 p22 = n32 * n23;                // 93
  put(p22);
  put(n23 * v.xy);                     // 97
  put(v.xyz * n23);                    // 100
  put(matrixCompMult(a, m));           // 102
  put(dot(v, m[1]));                   // 118
  put(cross(v.xyz, m[2].xyz));         // 119
  put(v.wzyx + v.xxyy * 2.0);          // 122
  put(v[idx.x & 3]);                   // 126: dynamic component
  put(a[idx.y & 3][idx.z & 3]);        // 127: dynamic column and component
  vec4 w = v;
  w[idx.w & 3] = 100.0;                // 128: dynamic insert
  put(w);
  mat4 am = a;
  am[idx.x & 3] = v;                   // 132: dynamic column store
  am[idx.y & 3][idx.z & 3] = -1.0;
  put(am);
  put(a * 2.0 - m);                    // 148
  put(vec4(equal(v, m[0])) + vec4(lessThan(v, m[3])) * 2.0);  // 164
  put(float(any(greaterThan(v, vec4(5.0)))) + float(all(notEqual(v, vec4(0.0)))) * 2.0);  // 168
}
