// stencil_export_test.cpp: the stencil reference from the shader (VK_EXT_shader_stencil_export).
// Mode 0 exports v(x, y) = (8 x + 3 y) mod 256; mode 1 exports v(x, y), plus one where x + y is
// odd. The colour is green.
#version 450
#extension GL_ARB_shader_stencil_export : require
layout(location = 0) out vec4 color;
layout(push_constant) uniform Mode { uint mode; } pc;
void main() {
  uint x = uint(gl_FragCoord.x), y = uint(gl_FragCoord.y);
  uint v = (x * 8u + y * 3u) & 255u;
  if (pc.mode == 1u && ((x + y) & 1u) == 1u) v = (v + 1u) & 255u;
  gl_FragStencilRefARB = int(v);
  color = vec4(0.0, 1.0, 0.0, 1.0);
}
