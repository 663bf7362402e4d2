// tests/api/robustness2_test.cpp: what each vertex's attributes read, stored per vertex.
#version 450
layout(location = 0) in vec4 rg;    // R32G32_SFLOAT, binding 0: 2 vertices of data
layout(location = 1) in vec4 rgba;  // R8G8B8A8_UNORM, binding 1: 2 vertices of data
layout(location = 2) in vec4 r;     // R32_SFLOAT, binding 2: a null vertex buffer
layout(set = 0, binding = 0) buffer Out { vec4 o[]; };
void main() {
  o[gl_VertexIndex * 3 + 0] = rg;
  o[gl_VertexIndex * 3 + 1] = rgba;
  o[gl_VertexIndex * 3 + 2] = r;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  gl_PointSize = 1.0;
}
