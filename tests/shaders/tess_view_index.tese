#version 450
#extension GL_EXT_multiview : require
// Tessellation tests: quads (equal spacing) over the control points as tess_quad_*.tese, the
// words carrying the patch word and ViewIndex (multiview).
layout(quads, equal_spacing, ccw) in;
layout(location = 0) in vec4 point[];
layout(location = 1) patch in uint patchWord;
layout(location = 0) flat out uvec4 words;
void main() {
  vec2 uv = gl_TessCoord.xy;
  gl_Position = mix(mix(point[0], point[1], uv.x), mix(point[3], point[2], uv.x), uv.y);
  words = uvec4(patchWord, uint(gl_ViewIndex), 5u, 1u);
}
