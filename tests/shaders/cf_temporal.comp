// Temporal divergence: values computed inside a loop (from values that are the same for every
// lane still in the loop) and used after it, when lanes leave in different iterations.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint limit = a[i];
  uint k = 0u;
  uint sq;
  uint tripled;
  while (true) {
    sq = k * k + 7u;
    tripled = k * 3u;
    if (k >= limit) break;
    k++;
  }
  // Nested: the inner loop's exit is per lane; its values are used in the outer loop.
  uint acc = 0u;
  for (uint outer = 0u; outer < 3u; ++outer) {
    uint j = 0u;
    uint seen;
    for (;;) {
      seen = j * 10u + outer;
      if (j >= ((limit + outer) % 5u)) break;
      j++;
    }
    acc += seen;
  }
  o[3u * i + 0u] = sq;
  o[3u * i + 1u] = tripled;
  o[3u * i + 2u] = acc;
}
