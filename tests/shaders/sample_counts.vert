// sample_counts_test.cpp: a triangle whose NDC corners come from push constants, z 0.5, w 1;
// windowPos is the framebuffer position of a 32x32 viewport at (0, 0) ("Controlling the
// Viewport": x_f = 16 x_d + 16), interpolated without perspective.
#version 450
layout(push_constant) uniform Corners { vec2 ndc[3]; } corners;
layout(location = 0) noperspective out vec2 windowPos;
void main() {
  const vec2 v = corners.ndc[gl_VertexIndex];
  gl_Position = vec4(v, 0.5, 1.0);
  windowPos = v * 16.0 + 16.0;
}
