// Nested if/else chains on per-lane data; values merge through phis at divergent joins.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = a[i];
  int r;
  float f = 0.0;
  if (x < 0) {
    if (x < -100) r = 1;
    else if (x < -10) { r = 2; f = 0.5; }
    else r = 3;
  } else if (x == 0) {
    r = 4;
  } else {
    if ((x & 1) == 0) {
      r = 5;
      if (x > 50) { r += 10; f = 2.0; }
    } else {
      r = 6;
      f = x > 7 ? 1.0 : -1.0;
    }
  }
  // A second chain whose conditions mix the first chain's results (phis feeding branches).
  if (r > 4 && f > 0.0) r += 100;
  else if (r <= 2 || f < 0.0) r -= 100;
  o[i] = r * 1000 + x;
}
