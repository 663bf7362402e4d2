#version 450
// Passes the patch through at level 1: one triangle with the patch's three corners.
layout(vertices = 3) out;
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = 1.0;
  gl_TessLevelInner[0] = 1.0;
}
