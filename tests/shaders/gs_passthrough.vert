#version 450
// Geometry shader tests (tests/api/geometry_shader_test.cpp): the vertex stage passes its
// position (binding 0) and its VertexIndex on to the geometry stage (or the fragment stage).
layout(location = 0) in vec4 position;
layout(location = 0) out uvec4 id;
void main() {
  gl_Position = position;
  gl_PointSize = 1.0;
  id = uvec4(gl_VertexIndex, 0, 0, 1);
}
