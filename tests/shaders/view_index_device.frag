// tests/api/view_index_from_device_index_test.cpp's fragment shader: the vertex stage's
// ViewIndex and this stage's, side by side.
#version 450
#extension GL_EXT_multiview : require
layout(location = 0) flat in uint vertexView;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(vertexView, gl_ViewIndex, 7, 1); }
