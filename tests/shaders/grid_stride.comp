#version 450
// A grid-stride loop (the index starts at the invocation's lane and steps by a uniform amount:
// kept as lane 0's scalar plus the lane pattern, translator.cpp's stepping phis), a loop whose
// varying exit leaves its index per lane for use after it (must stay per lane), and a value
// with a lane pattern used in later blocks (kept as lane 0's scalar), and one redefined in a
// loop with a varying exit and read after it (must stay per lane).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1) readonly buffer Limits { uint lim[]; };
layout(set = 0, binding = 2) writeonly buffer Out { uint o[]; };
layout(push_constant) uniform P {
  uint n;
  uint step;
};
void main() {
  uint l = gl_LocalInvocationID.x;
  uint k = gl_WorkGroupID.x * 64u + l;
  uint sum = 0u;
  for (uint i = l; i < n; i += 64u) sum += a[i] * 3u + a[i / 4u];
  uint j = l;
  while (j < lim[k]) j += step;
  // A lane-pattern value redefined each iteration of a loop with a varying exit, read after it:
  // each lane must see its own last iteration's value.
  uint t = 0u, it = 0u;
  while (true) {
    t = l + it * 64u;
    if (t >= lim[k] + l) break;
    ++it;
  }
  o[k] = sum;
  if (j != 12345u) o[256u + k] = j;
  o[512u + k] = t;
}
