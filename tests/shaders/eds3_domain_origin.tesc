#version 450
// Tessellation domain origin (tests/api/extended_dynamic_state3_draws_test.cpp): each patch's
// three control points and colours passed through, every level 2.
layout(vertices = 3) out;
layout(location = 0) in vec4 color[];
layout(location = 0) out vec4 patchColor[];
void main() {
  gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
  patchColor[gl_InvocationID] = color[gl_InvocationID];
  gl_TessLevelOuter[0] = 2.0;
  gl_TessLevelOuter[1] = 2.0;
  gl_TessLevelOuter[2] = 2.0;
  gl_TessLevelInner[0] = 2.0;
}
