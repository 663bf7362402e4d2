#version 450
// A pixel rectangle [x0, x1) x [y0, y1) (as rect.vert) whose texture coordinates are an affine
// function of the pixel position: uv = origin + x * du + y * dv (rotation and scale of the
// textured workloads), interpolated to every fragment.
layout(push_constant) uniform Push {
  ivec4 rect;  // x0, y0, x1, y1
  vec2 origin;
  vec2 du;
  vec2 dv;
} pc;

layout(location = 0) out vec2 uv;

void main() {
  const ivec2 corners[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  ivec2 c = corners[gl_VertexIndex % 6];
  vec2 p = vec2(c.x == 0 ? pc.rect.x : pc.rect.z, c.y == 0 ? pc.rect.y : pc.rect.w);
  uv = pc.origin + p.x * pc.du + p.y * pc.dv;
  gl_Position = vec4(p / 1024.0 - 1.0, 0.0, 1.0);
}
