// switch on per-lane data: fallthrough, default in the middle, several labels per case,
// a conditional break inside a case, and a switch inside a loop with continue.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = a[i];
  int r = 0;
  switch (x & 7) {
    case 0:
      r += 1;  // falls through
    case 1:
      r += 10;
      break;
    case 2:
    case 3:
      r += 100;  // falls through into default
    default:
      r += 1000;
      break;
    case 5:
      r += 10000;
      if (x > 20) break;
      r += 5;  // falls through
    case 6:
      r += 100000;
  }
  int t = 0;
  for (int k = 0; k < 6; ++k) {
    switch ((x + k) & 3) {
      case 0: continue;
      case 1: t += 1; break;
      case 2: t += 20; if ((x & 16) != 0) continue; t += 300; break;
      default: t += 4000;
    }
    t += 1;
  }
  o[2 * i] = r;
  o[2 * i + 1] = t;
}
