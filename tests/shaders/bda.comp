// Buffer device addresses (GL_EXT_buffer_reference): a linked list walked a lane-dependent
// number of steps (a phi of pointers once optimized), pointer arithmetic on references, a
// select between references, references passed to and returned from a function, structs,
// loads, stores and atomics through references, null checks. Addresses come in push constants.
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
layout(local_size_x = 64) in;
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node { vec3 pos; int value; Node next; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Counter { uint count; uint slots[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer OneFloat { float v; };
layout(push_constant) uniform P { Node head; Counter counter; OneFloat floats; uint n; };
layout(set = 0, binding = 0) writeonly buffer Out { vec4 o[]; };
Node skip(Node p, uint count) {
  for (uint k = 0u; k < count; ++k) {
    if (uint64_t(p.next) == 0ul) return p;
    p = p.next;
  }
  return p;
}
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  Node p = head;
  uint steps = 0u;
  for (uint k = 0u; k < i % 5u; ++k) {
    if (uint64_t(p.next) == 0ul) break;  // end of the list
    p = p.next;
    steps++;
  }
  Node q = head + int(i % 8u);            // pointer arithmetic in units of the block (32 bytes)
  Node r = (i & 1u) != 0u ? q : skip(head, i % 3u);
  OneFloat f = floats + int(i);
  f.v = f.v * 2.0 + float(q.value);       // load and store through a reference
  uint slot = atomicAdd(counter.count, 1u);
  counter.slots[slot] = i;
  o[i] = vec4(p.pos.x + p.pos.y, float(p.value), float(q.pos.z), float(steps) + 1000.0 * float(r.value));
}
