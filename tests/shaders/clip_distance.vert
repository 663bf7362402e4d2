#version 450
// Clip and cull distances (tests/api/clip_distance_test.cpp): instance b draws band b of three
// horizontal bands of the viewport as two triangles (6 vertices, no vertex buffer), w = 1.
//   band 0: ClipDistance = (x + 0.5, 0.6 - x): only -0.5 <= x_d <= 0.6 survives clipping;
//   band 1: CullDistance[0] = -1 at every vertex: culled whole;
//   band 2: CullDistance[0] = x: negative at the left vertices only, so nothing is culled.
out gl_PerVertex {
  vec4 gl_Position;
  float gl_ClipDistance[2];
  float gl_CullDistance[1];
};
void main() {
  const vec2 corners[6] = vec2[6](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, -1), vec2(1, 1), vec2(-1, 1));
  vec2 c = corners[gl_VertexIndex % 6];
  int band = gl_InstanceIndex;
  float y = -1.0 + (float(band) + (c.y < 0.0 ? 0.0 : 1.0)) * (2.0 / 3.0);
  gl_Position = vec4(c.x, y, 0.5, 1.0);
  if (band == 0) {
    gl_ClipDistance[0] = c.x + 0.5;
    gl_ClipDistance[1] = 0.6 - c.x;
    gl_CullDistance[0] = 1.0;
  } else {
    gl_ClipDistance[0] = 1.0;
    gl_ClipDistance[1] = 1.0;
    gl_CullDistance[0] = band == 1 ? -1.0 : c.x;
  }
}
