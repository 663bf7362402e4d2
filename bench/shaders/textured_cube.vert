#version 450
// A pixel rectangle [x0, x1) x [y0, y1) (as rect.vert) whose cube-map direction is an affine
// function of the pixel position, dir = origin + x * dx + y * dy (a pinhole camera: exact under
// linear interpolation), interpolated to every fragment (tex_cube).
layout(push_constant) uniform Push {
  ivec4 rect;  // x0, y0, x1, y1
  vec4 origin;
  vec4 dx;
  vec4 dy;
} pc;

layout(location = 0) out vec3 dir;

void main() {
  const ivec2 corners[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(0, 1), ivec2(1, 0), ivec2(1, 1), ivec2(0, 1));
  ivec2 c = corners[gl_VertexIndex % 6];
  vec2 p = vec2(c.x == 0 ? pc.rect.x : pc.rect.z, c.y == 0 ? pc.rect.y : pc.rect.w);
  dir = pc.origin.xyz + p.x * pc.dx.xyz + p.y * pc.dy.xyz;
  gl_Position = vec4(p / 1024.0 - 1.0, 0.0, 1.0);
}
