#version 450
// tess_terrain: each tessellated vertex of the ground grid takes a height from a sum of
// waves, is lifted on screen by `relief` pixels per unit of height (a 2.5D view from above whose
// rows stay in order: no fold hides another) and coloured by its height (interpolated).
// The ground position corner + (u, v) size is exact (u, v are multiples of 1/level, level a
// power of two), so neighbouring patches compute the same heights for their shared vertices.
// bench/worker/workloads/tess_terrain.cpp computes the same function on the CPU.
layout(quads, equal_spacing, ccw) in;
layout(push_constant) uniform Push {
  vec2 origin;
  float patchSize;
  uint patchesX;
  float level;
  float relief;
} pc;
layout(location = 0) in vec2 corner[];
layout(location = 0) out vec4 color;

// A smooth periodic wave in [-1, 1] of period 1: two parabolic arcs (4 s (1 - |s|) for
// s = 2 fract(t) - 1), exact arithmetic up to rounding, no transcendental function.
float wave(float t) {
  const float s = 2.0 * fract(t) - 1.0;
  return 4.0 * s * (1.0 - abs(s));
}

void main() {
  const vec2 ground = corner[0] + gl_TessCoord.xy * pc.patchSize;
  const float h = 0.5 + 0.25 * wave(ground.x / 512.0) * wave(ground.y / 384.0 + 0.25) + 0.125 * wave((ground.x + ground.y) / 640.0);
  const vec2 screen = vec2(ground.x, ground.y - pc.relief * (h - 0.5));
  gl_Position = vec4(screen / 1024.0 - 1.0, 0.5 - 0.25 * h, 1.0);
  color = vec4(h, 1.0 - h, 0.25 + 0.5 * h * h, 1.0);
}
