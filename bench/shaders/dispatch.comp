#version 450
// Dispatch overhead: one tiny workgroup per dispatch; each lane counts how often its dispatch
// ran, so the result proves every dispatch executed exactly once per repetition.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counts { uint count[]; };
layout(push_constant) uniform Push {
  uint index;
} pc;

void main() {
  count[pc.index * 64u + gl_LocalInvocationID.x] += 1u;
}
