// The draw-parameter tests' vertex shader (tests/api/draw_parameters_test.cpp): one point per
// vertex and instance, at pixel (VertexIndex % 32, InstanceIndex % 32) of a 32x32 target, whose
// value is (BaseVertex, BaseInstance, DrawIndex, VertexIndex): a wrong built-in is a wrong texel.
// GLSL 4.60 names SPV_KHR_shader_draw_parameters' built-ins gl_BaseVertex, gl_BaseInstance and
// gl_DrawID (SPIR-V capability DrawParameters).
#version 460
layout(location = 0) flat out uvec4 value;
void main() {
  vec2 pixel = vec2(gl_VertexIndex & 31, gl_InstanceIndex & 31) + 0.5;
  gl_Position = vec4(pixel / 16.0 - 1.0, 0.0, 1.0);
  gl_PointSize = 1.0;
  value = uvec4(gl_BaseVertex, gl_BaseInstance, gl_DrawID, gl_VertexIndex);
}
