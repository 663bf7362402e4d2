#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): each vertex's VertexIndex is
// captured into 4-byte records of buffer 0, so the buffer shows the order in which transform
// feedback wrote every primitive's vertices.
layout(location = 0) in vec4 position;
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 4) out uint index;
void main() {
  gl_Position = position;
  gl_PointSize = 1.0;
  index = uint(gl_VertexIndex);
}
