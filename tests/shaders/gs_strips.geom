#version 450
// Three strips from one point, split by EndPrimitive: a 6-vertex zigzag (4 triangles, x 2..14,
// y 2..8), a 4-vertex quad (x 2..8, y 10..16) and a 2-vertex strip (no triangle). Every
// triangle of a strip keeps the first one's winding only with "Triangle Strips"' vertex order,
// which the test checks with back-face culling.
layout(points) in;
layout(triangle_strip, max_vertices = 12) out;
layout(location = 0) flat out uvec4 words;
void vertex(vec2 pixel, uint strip) {
  gl_Position = vec4(pixel / 16.0 - 1.0, 0.0, 1.0);
  words = uvec4(strip, 0u, 0u, 1u);
  EmitVertex();
}
void main() {
  for (int k = 0; k < 6; ++k) vertex(vec2(2.0 + 6.0 * float(k / 2), (k & 1) == 0 ? 2.0 : 8.0), 1u);
  EndPrimitive();
  for (int k = 0; k < 4; ++k) vertex(vec2(2.0 + 6.0 * float(k / 2), (k & 1) == 0 ? 10.0 : 16.0), 2u);
  EndPrimitive();
  vertex(vec2(20.0, 20.0), 3u);
  vertex(vec2(30.0, 30.0), 3u);
}
