#version 450
// A pixel rectangle [x0, x1) x [y0, y1) from push constants, as two triangles (6 vertices, no
// vertex buffer). NDC = pixel / 1024 - 1 under the benchmarks' 2048x2048 viewport: exact.
layout(push_constant) uniform Push {
  ivec4 rect;  // x0, y0, x1, y1
} pc;

void main() {
  const ivec2 corners[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  ivec2 c = corners[gl_VertexIndex % 6];
  vec2 p = vec2(c.x == 0 ? pc.rect.x : pc.rect.z, c.y == 0 ? pc.rect.y : pc.rect.w);
  gl_Position = vec4(p / 1024.0 - 1.0, 0.0, 1.0);
}
