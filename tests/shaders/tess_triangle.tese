#version 450
// Tessellation tests: triangles (fractional odd, cw) over control points 0..2, barycentrically.
layout(triangles, fractional_odd_spacing, cw) in;
layout(location = 0) in vec4 point[];
layout(location = 1) patch in uint patchWord;
layout(location = 0) flat out uvec4 words;
void main() {
  gl_Position = gl_TessCoord.x * point[0] + gl_TessCoord.y * point[1] + gl_TessCoord.z * point[2];
  words = uvec4(patchWord, uint(gl_PrimitiveID), 2u, 1u);
}
