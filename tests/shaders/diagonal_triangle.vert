// A triangle below the diagonal from (1, -1) to (-1, 0.6) in clip space, from gl_VertexIndex
// alone: its slanted edge cuts 2x2 quads, so partly covered quads shade helper invocations
// (fragment_image_store_test.cpp).
#version 450
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 0.6));
  gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
}
