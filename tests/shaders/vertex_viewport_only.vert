#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// vertex_layer_viewport.vert without Layer: every triangle goes to the first layer ("Layer":
// an interface without it uses the first layer), only the viewport is chosen.
layout(location = 0) flat out uint tag;
void main() {
  const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(1.1, -1.0), vec2(-1.0, 1.1));
  const uint t = uint(gl_VertexIndex) / 3u;
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
  gl_ViewportIndex = int(t % 4u);
  tag = t + 1u;
}
