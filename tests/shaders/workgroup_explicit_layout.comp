// VK_KHR_workgroup_memory_explicit_layout (GL_EXT_shared_memory_block): three Block-decorated
// shared blocks alias the same workgroup memory, each with its own explicit (std430) layout.
// Invocation i of a workgroup of 64:
//   a.words[i] = 3i + 1, barrier, out[2g + 0] = b.pairs[i / 2][i % 2]  (the same bytes: 3i + 1)
//   invocation 0 writes c = { 7, uvec3(8, 9, 10), 11 }: std430 puts v at byte 16 and tail at 28,
//   barrier, out[2g + 1] = a.words[i]: 7, 4, 7, 10, 8, 9, 10, 11, then 3i + 1
// (g = the global invocation index).
#version 450
#extension GL_EXT_shared_memory_block : require
layout(local_size_x = 64) in;
layout(std430) shared A { uint words[64]; } a;
layout(std430) shared B { uvec2 pairs[32]; } b;
layout(std430) shared C { uint x; uvec3 v; uint tail; } c;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
void main() {
  const uint i = gl_LocalInvocationIndex, g = gl_GlobalInvocationID.x;
  a.words[i] = i * 3u + 1u;
  barrier();
  o[2u * g] = b.pairs[i / 2u][i % 2u];
  barrier();
  if (i == 0u) {
    c.x = 7u;
    c.v = uvec3(8u, 9u, 10u);
    c.tail = 11u;
  }
  barrier();
  o[2u * g + 1u] = a.words[i];
}
