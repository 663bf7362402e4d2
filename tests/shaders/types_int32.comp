// 32-bit integer arithmetic, shifts and bit operations on pairs (x, y). Division and remainder
// by zero, INT_MIN / -1 and oversized shifts are computed too (their values are undefined but
// must not crash); the reference checks only defined results.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { ivec2 p[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
const uint K = 40;
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = p[i].x, y = p[i].y;
  uint ux = uint(x), uy = uint(y);
  uint b = i * K;
  o[b + 0] = x + y;
  o[b + 1] = x - y;
  o[b + 2] = x * y;
  o[b + 3] = x / y;             // undefined for y == 0 and INT_MIN / -1
  o[b + 4] = x % y;             // undefined for y == 0 or negative operands
  o[b + 5] = int(ux / uy);      // undefined for uy == 0
  o[b + 6] = int(ux % uy);
  o[b + 7] = x << (uy & 31u);
  o[b + 8] = x >> (uy & 31u);   // arithmetic
  o[b + 9] = int(ux >> (uy & 31u));
  o[b + 10] = x << uy;          // undefined for uy >= 32
  o[b + 11] = x & y;
  o[b + 12] = x | y;
  o[b + 13] = x ^ y;
  o[b + 14] = ~x;
  o[b + 15] = -x;
  int off = int(uy % 32u);
  int cnt = int((uy >> 5) % uint(33 - off));
  o[b + 16] = bitfieldExtract(x, off, cnt);
  o[b + 17] = int(bitfieldExtract(ux, off, cnt));
  o[b + 18] = bitfieldInsert(x, y, off, cnt);
  o[b + 19] = bitCount(x);
  o[b + 20] = findLSB(x);
  o[b + 21] = findMSB(x);
  o[b + 22] = findMSB(ux);
  o[b + 23] = bitfieldReverse(x);
  uint carry, borrow, hi, lo;
  o[b + 24] = int(uaddCarry(ux, uy, carry));
  o[b + 25] = int(carry);
  o[b + 26] = int(usubBorrow(ux, uy, borrow));
  o[b + 27] = int(borrow);
  umulExtended(ux, uy, hi, lo);
  o[b + 28] = int(hi);
  o[b + 29] = int(lo);
  int shi, slo;
  imulExtended(x, y, shi, slo);
  o[b + 30] = shi;
  o[b + 31] = slo;
  o[b + 32] = abs(x);
  o[b + 33] = sign(x);
  o[b + 34] = min(x, y) * 3 + max(x, y);
  o[b + 35] = int(min(ux, uy) ^ max(ux, uy));
  o[b + 36] = clamp(x, min(y, 7), max(y, 7));
  o[b + 37] = int(clamp(ux, min(uy, 1000u), max(uy, 1000u)));
  o[b + 38] = int(x < y) | int(x <= y) << 1 | int(x > y) << 2 | int(x >= y) << 3 | int(x == y) << 4 |
              int(x != y) << 5 | int(ux < uy) << 6 | int(ux <= uy) << 7 | int(ux > uy) << 8 | int(ux >= uy) << 9;
  o[b + 39] = (x & 0xffff) % 7 + (y & 0x7fffffff) % 13 * 100;  // remainders of non-negative values
}
