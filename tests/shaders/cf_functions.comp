// Function calls (also compiled without the inliner): early return from main and from callees,
// returns from inside loops, inout parameters, struct and array parameters and results.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };

struct Pair { int lo; int hi; };

int classify(int x) {
  if (x < 0) return -1;
  for (int k = 0; k < 64; ++k) {
    if (k * k > x) return k;  // return from inside a loop, lane-dependent iteration
  }
  return 1000;
}

void addUnlessThree(inout int acc, int v) {
  if (v == 3) return;
  acc += v;
}

Pair split(int x) {
  Pair p;
  p.lo = x & 0xff;
  p.hi = x >> 8;
  if (p.lo > 200) return Pair(p.hi, p.lo);  // early return of a struct
  return p;
}

int sumArray(int v[4]) {
  int s = 0;
  for (int k = 0; k < 4; ++k) {
    if (v[k] < 0) break;
    s += v[k];
  }
  return s;
}

int nested(int x) {
  // A callee calling callees.
  int c = classify(x);
  addUnlessThree(c, x & 3);
  return c;
}

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = a[i];
  if (x == 13) {
    o[4 * i] = 777;
    o[4 * i + 1] = 777;
    o[4 * i + 2] = 777;
    o[4 * i + 3] = 777;
    return;  // early return from main for some lanes
  }
  int acc = 0;
  for (int k = 0; k < 5; ++k) addUnlessThree(acc, abs(x + k) % 5);
  Pair p = split(x);
  int arr[4] = int[4](x & 7, (x >> 3) & 7, (x & 3) - 1, 5);
  o[4 * i] = nested(x);
  o[4 * i + 1] = acc;
  o[4 * i + 2] = p.lo * 100000 + p.hi;
  o[4 * i + 3] = sumArray(arr);
}
