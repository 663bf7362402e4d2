// tests/api/view_index_from_device_index_test.cpp's vertex shader: a triangle over the whole
// target from the vertex index alone, and this stage's ViewIndex for the fragment stage.
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat out uint vertexView;
void main() {
  const vec2 corners[3] = vec2[](vec2(-1, -1), vec2(3, -1), vec2(-1, 3));
  gl_Position = vec4(corners[gl_VertexIndex], 0, 1);
  vertexView = gl_ViewIndex;
}
