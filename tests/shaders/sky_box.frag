// Cube-map sampling in a draw (tests/api/cube_map_draw_test.cpp): each pixel's direction is an
// affine function of its position given by push constants (a pinhole camera), sampled with
// implicit LOD from a samplerCube. Drawn with fullscreen.vert.
#version 450
layout(push_constant) uniform Camera {
  vec4 origin;  // the direction through pixel (0, 0)'s corner
  vec4 dx;      // its change per pixel along x
  vec4 dy;      // and along y
} camera;
layout(set = 0, binding = 0) uniform samplerCube tex;
layout(location = 0) out vec4 color;
void main() {
  const vec3 direction = camera.origin.xyz + gl_FragCoord.x * camera.dx.xyz + gl_FragCoord.y * camera.dy.xyz;
  color = texture(tex, direction);
}
