#version 450
// tess_terrain: every edge and the interior at the same level, so patches meet without cracks.
layout(vertices = 4) out;
layout(push_constant) uniform Push {
  vec2 origin;
  float patchSize;
  uint patchesX;
  float level;
  float relief;
} pc;
layout(location = 0) in vec2 corner[];
layout(location = 0) out vec2 outCorner[];

void main() {
  outCorner[gl_InvocationID] = corner[gl_InvocationID];
  if (gl_InvocationID == 0) {
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = gl_TessLevelOuter[3] = pc.level;
    gl_TessLevelInner[0] = gl_TessLevelInner[1] = pc.level;
  }
}
