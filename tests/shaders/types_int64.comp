// 64-bit integers (GL_EXT_shader_explicit_arithmetic_types_int64): arithmetic, shifts, bit
// operations, comparisons and conversions to and from 32-bit integers and doubles.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { i64vec2 p[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int64_t o[]; };
layout(push_constant) uniform P { uint n; };
const uint K = 24;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int64_t x = p[i].x, y = p[i].y;
  uint64_t ux = uint64_t(x), uy = uint64_t(y);
  uint b = i * K;
  o[b + 0] = x + y;
  o[b + 1] = x - y;
  o[b + 2] = x * y;
  o[b + 3] = x / y;  // undefined for y == 0 and INT64_MIN / -1
  o[b + 4] = int64_t(ux / uy);
  o[b + 5] = int64_t(ux % uy);
  o[b + 6] = x << (uy & 63ul);
  o[b + 7] = x >> (uy & 63ul);
  o[b + 8] = int64_t(ux >> (uy & 63ul));
  o[b + 9] = (x & y) ^ (x | ~y);
  o[b + 10] = -x;
  o[b + 11] = int64_t(x < y) | int64_t(ux < uy) << 1 | int64_t(x == y) << 2 | int64_t(x >= y) << 3;
  o[b + 12] = int64_t(int(x));        // truncation to 32 bits, sign-extended back
  o[b + 13] = int64_t(uint(ux));      // truncation, zero-extended
  o[b + 14] = int64_t(int(y >> 32));
  o[b + 15] = int64_t(double(x >> 11));  // exactly representable
  o[b + 16] = int64_t(double(int(x)) * 1024.0);
  o[b + 17] = abs(x);
  o[b + 18] = min(x, y);
  o[b + 19] = int64_t(max(ux, uy));
  o[b + 20] = clamp(x, -1000000000000l, 1000000000000l);
  uvec2 halves = unpackUint2x32(ux);
  o[b + 21] = int64_t(halves.x) * 3 + int64_t(halves.y);
  o[b + 22] = int64_t(packUint2x32(uvec2(halves.y, halves.x)));
  o[b + 23] = int64_t(uint64_t(uint(x)) * uint64_t(uint(y)));  // 32x32 -> 64 product
}
