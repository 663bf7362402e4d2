#version 450
// Tessellation tests: point mode over quads (equal spacing): one point per distinct vertex.
layout(quads, equal_spacing, point_mode) in;
layout(location = 0) in vec4 point[];
layout(location = 1) patch in uint patchWord;
layout(location = 0) flat out uvec4 words;
void main() {
  vec2 uv = gl_TessCoord.xy;
  gl_Position = mix(mix(point[0], point[1], uv.x), mix(point[3], point[2], uv.x), uv.y);
  words = uvec4(patchWord, uint(gl_PrimitiveID), 4u, 1u);
}
