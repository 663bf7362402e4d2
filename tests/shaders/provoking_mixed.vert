#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): the flat word is the vertex's
// VertexIndex (location 0, as gs_passthrough.vert), and a smooth value that differs from vertex
// to vertex (location 1), so that the fragment stage shows what interpolation gave it.
layout(location = 0) in vec4 position;
layout(location = 0) out uvec4 id;
layout(location = 1) out vec4 smoothValue;
void main() {
  gl_Position = position;
  gl_PointSize = 1.0;
  id = uvec4(gl_VertexIndex, 0, 0, 1);
  smoothValue = vec4(0.37 * position.x + 0.11 * float(gl_VertexIndex), 0.61 * position.y - 0.07 * float(gl_VertexIndex),
                     0.0, 1.0);
}
