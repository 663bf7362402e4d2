// Per-invocation (Function and Private) memory: arrays written and read at lane-varying
// indices, out-of-range indices (clamped, must not crash), bool arrays, arrays of structs and
// vectors with dynamic components, a Private variable with an initializer, constant tables.
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
struct S { int a; float b[3]; };
int privateCounter = 5;
const int table[8] = int[8](3, 1, 4, 1, 5, 9, 2, 6);
void bump(inout int arr[16], int at) { arr[at & 15] += 1000; privateCounter++; }
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = a[i];
  int arr[16];
  for (int k = 0; k < 16; ++k) arr[k] = k * x;
  arr[x & 15] = -1;                 // store at a varying index
  bump(arr, x >> 4);
  bool flags[10];
  for (int k = 0; k < 10; ++k) flags[k] = ((x >> k) & 1) != 0;
  flags[(x >> 2) % 10] = !flags[(x >> 2) % 10];
  int flagBits = 0;
  for (int k = 0; k < 10; ++k) flagBits |= flags[k] ? 1 << k : 0;
  vec3 vs[4];
  for (int k = 0; k < 4; ++k) vs[k] = vec3(k, 2 * k, 3 * k);
  vs[x & 3][(x >> 2) % 3] = 100.0;  // dynamic array element and component
  S ss[3];
  for (int k = 0; k < 3; ++k) { ss[k].a = k; ss[k].b = float[3](1.0, 2.0, 3.0); }
  ss[x % 3].b[(x >> 3) % 3] = -7.0;
  ss[(x >> 1) % 3].a += 10;
  float vsum = 0.0, ssum = 0.0;
  for (int k = 0; k < 4; ++k) vsum += vs[k].x + vs[k].y * 10.0 + vs[k].z * 100.0;
  for (int k = 0; k < 3; ++k) ssum += float(ss[k].a) + ss[k].b[0] + ss[k].b[1] * 10.0 + ss[k].b[2] * 100.0;
  int oob = arr[x] + arr[-x - 1];   // out of range for most x: any value, no crash
  o[6u * i + 0u] = arr[(x >> 4) & 15] + arr[(x >> 8) & 15] * 3;
  o[6u * i + 1u] = flagBits;
  o[6u * i + 2u] = int(vsum);
  o[6u * i + 3u] = int(ssum);
  o[6u * i + 4u] = table[x & 7] + table[(x >> 3) & 7] * 10 + privateCounter * 100;
  o[6u * i + 5u] = oob;             // not checked
}
