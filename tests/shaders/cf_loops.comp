// Loops with break and continue: divergent and uniform trip counts, nested loops, exits that
// depend on the lane, do-while.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; int uniformTrips; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int x = a[i];
  int s = 0;
  // Divergent trip count with continue, break and a nested loop with its own break.
  for (int k = 0; k < (x & 15); ++k) {
    if (k % 3 == 1) continue;
    if (k * x > 300) break;
    for (int j = 0; j < k; ++j) {
      if (j == (x & 7)) break;
      s += j;
    }
    s += k;
  }
  // Uniform trip count (push constant), divergent continue.
  for (int k = 0; k < uniformTrips; ++k) {
    if (((x >> k) & 1) == 0) continue;
    s += 100 * k;
  }
  // Exit depends on the lane: the Collatz sequence.
  uint v = uint(x & 255) + 1u;
  int steps = 0;
  while (v != 1u) {
    v = (v & 1u) != 0u ? 3u * v + 1u : v / 2u;
    steps++;
  }
  // do-while with a lane-dependent condition.
  int d = 0;
  do { d += 7; } while (d < (x & 63));
  o[3 * i + 0] = s;
  o[3 * i + 1] = steps;
  o[3 * i + 2] = d;
}
