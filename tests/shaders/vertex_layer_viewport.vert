#version 450
#extension GL_ARB_shader_viewport_layer_array : require
// Layer and ViewportIndex written by the vertex stage (shaderOutputLayer,
// shaderOutputViewportIndex; tests/api/vertex_layer_viewport_test.cpp): triangle t =
// VertexIndex / 3 of a list covers the lower-left part of viewport t % 4 and goes to layer
// (t / 4 + t) % 4, so every (layer, viewport) pair is drawn once and the lanes of one batch
// disagree; its three vertices agree, as the spec requires of a primitive's vertices.
layout(location = 0) flat out uint tag;
void main() {
  const vec2 corners[3] = vec2[](vec2(-1.0, -1.0), vec2(1.1, -1.0), vec2(-1.0, 1.1));
  const uint t = uint(gl_VertexIndex) / 3u;
  gl_Position = vec4(corners[gl_VertexIndex % 3], 0.0, 1.0);
  gl_ViewportIndex = int(t % 4u);
  gl_Layer = int((t / 4u + t) % 4u);
  tag = t + 1u;
}
