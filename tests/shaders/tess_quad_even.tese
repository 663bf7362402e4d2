#version 450
// Tessellation tests: quads with fractional_even_spacing; the patch's four control points (0: top left,
// 1: top right, 2: bottom right, 3: bottom left) bilinearly, then shifted down by
// displacement * sin(pi u) pixels (the push constant), so the outline follows the outer
// edges' vertices. Flat words: the patch word, PrimitiveId, 0, 1.
layout(quads, fractional_even_spacing, ccw) in;
layout(push_constant) uniform Displacement {
  layout(offset = 32) float pixels;
} displacement;
layout(location = 0) in vec4 point[];
layout(location = 1) patch in uint patchWord;
layout(location = 0) flat out uvec4 words;
void main() {
  vec2 uv = gl_TessCoord.xy;
  vec4 top = mix(point[0], point[1], uv.x), bottom = mix(point[3], point[2], uv.x);
  vec4 p = mix(top, bottom, uv.y);
  p.y += displacement.pixels / 16.0 * sin(3.14159265 * uv.x);
  gl_Position = p;
  words = uvec4(patchWord, uint(gl_PrimitiveID), 0u, 1u);
}
