// A sliver from gl_VertexIndex alone: from the bottom-left corner to the top-right one, at
// most 0.1 (2 pixels of a 40-pixel target) thick, so no 4x4 block of pixels is wholly inside
// it (sample_mask_in_test.cpp).
#version 450
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, -0.9));
  gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
}
