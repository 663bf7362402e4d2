#version 450
// The control points of tess_layer_viewport.tese's patches: patch t's three corners.
void main() {
  const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(1.1, -1.0), vec2(-1.0, 1.1));
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
}
