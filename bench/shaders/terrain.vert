#version 450
// tess_terrain: the corners of a grid of square patches (4 control points each, from
// gl_VertexIndex: no vertex buffer), in pixels; the tessellation stages do the rest.
layout(push_constant) uniform Push {
  vec2 origin;       // pixel position of patch (0, 0)'s first corner
  float patchSize;   // pixels
  uint patchesX;     // patches per row
  float level;       // tessellation level, every edge and both inner levels
  float relief;      // pixels of vertical displacement per unit of height
} pc;
layout(location = 0) out vec2 corner;

void main() {
  const uint patchIndex = uint(gl_VertexIndex) / 4u, c = uint(gl_VertexIndex) % 4u;
  // Corner order: (0,0), (1,0), (1,1), (0,1), counter-clockwise on screen.
  const uvec2 offset = uvec2(c == 1u || c == 2u ? 1u : 0u, c >= 2u ? 1u : 0u);
  corner = pc.origin + vec2(uvec2(patchIndex % pc.patchesX, patchIndex / pc.patchesX) + offset) * pc.patchSize;
}
