// A per-invocation array far larger than a usual stack frame (W copies of it per batch), with
// and without a barrier between writing and reading it (spec constants pick both).
#version 450
layout(local_size_x_id = 2) in;
layout(set = 0, binding = 0) writeonly buffer Out { uint o[]; };
layout(constant_id = 0) const uint N = 1000;
layout(constant_id = 1) const bool withBarrier = false;
void main() {
  uint l = gl_LocalInvocationIndex;
  uint big[N];
  for (uint k = 0u; k < N; ++k) big[k] = k * (l + 1u);
  if (withBarrier) barrier();
  uint s = 0u;
  for (uint k = 0u; k < N; k += 7u) s += big[(k * 13u + l) % N];
  o[gl_GlobalInvocationID.x] = s;
}
