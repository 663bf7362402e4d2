// Signed divisions whose operands the optimizer sees as constants: INT_MIN / -1 (and
// remainders, vectors, 64-bit) after SSA rewriting, and specialization-constant operations
// (32-bit: SPIRV-Tools 2023.1 does not fold 64-bit ones at all).
// The overflowing results are undefined; compiling them must not crash the compiler.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { int o[]; };
layout(constant_id = 0) const int sa = 5;
layout(constant_id = 1) const int sb = 1;
const int q = sa / sb;
const int r = sa % sb;
const int q2 = (sa + 1) / (sb * 1);     // nested specialization-constant operations
void main() {
  uint i = gl_GlobalInvocationID.x;
  int a = -2147483647 - 1;
  int b = -1;
  ivec2 va = ivec2(a, 7), vb = ivec2(b, 2);
  int64_t a64 = -9223372036854775807l - 1l, b64 = -1l;
  ivec2 vq = va / vb;
  ivec2 vr = va % vb;
  o[12u * i + 0u] = a / b;                 // undefined
  o[12u * i + 1u] = a % b;                 // undefined
  o[12u * i + 2u] = vq.x;                  // undefined
  o[12u * i + 3u] = vq.y;                  // 3
  o[12u * i + 4u] = vr.y;                  // 1
  o[12u * i + 5u] = int(a64 / b64);        // undefined
  o[12u * i + 6u] = int(a64 % b64);        // undefined
  o[12u * i + 7u] = q;
  o[12u * i + 8u] = r;
  o[12u * i + 9u] = q2;
  o[12u * i + 10u] = (a + 8) / -2;         // 1073741820
  o[12u * i + 11u] = int(i) / sb;
}
