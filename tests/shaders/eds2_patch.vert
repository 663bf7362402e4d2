#version 450
// Dynamic patch control points (tests/api/extended_dynamic_state2_test.cpp): each control point
// carries its VertexIndex to the control stage; the tessellation stages place the patches.
layout(location = 0) out uvec4 id;
void main() {
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
  id = uvec4(uint(gl_VertexIndex), 0u, 0u, 0u);
}
