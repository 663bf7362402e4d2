// Physical storage buffer pointers (GL_EXT_buffer_reference): addresses in push constants,
// a linked list walked through pointers stored in memory, pointer arithmetic.
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_buffer_reference_uvec2 : require
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 4) buffer Floats { float v[]; };
layout(buffer_reference) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 8) buffer Node { Node next; uint value; };
layout(push_constant) uniform P { Floats src; Floats dst; Node list; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  // Sum of the first (i % 5) + 1 list values.
  uint sum = 0;
  Node node = list;
  for (uint k = 0; k <= i % 5; ++k) {
    sum += node.value;
    node = node.next;
  }
  uvec2 a = uvec2(src);  // &src.v[i], with 64-bit arithmetic done on two words
  uint lo = a.x + 4u * i;
  Floats shifted = Floats(uvec2(lo, a.y + (lo < a.x ? 1u : 0u)));
  dst.v[i] = shifted.v[0] * 2.0 + float(sum);
}
