// depth_stencil_input_test.cpp: the full-viewport triangle of fullscreen.vert at depth pc.z,
// its x range scaled by pc.xScale from the left edge (1: the whole viewport; 0.5: the triangle
// (-1,-1), (1,-1), (-1,3), the part of the viewport left of its diagonal).
#version 450
layout(push_constant) uniform Push { float z; float xScale; } pc;
void main() {
  vec2 p = vec2(float((gl_VertexIndex << 1) & 2), float(gl_VertexIndex & 2)) * 2.0 - 1.0;
  gl_Position = vec4(-1.0 + (p.x + 1.0) * pc.xScale, p.y, pc.z, 1.0);
}
