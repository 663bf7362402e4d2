// Anisotropic filtering (tests/api/anisotropic_filtering_test.cpp): the texture coordinates are
// an affine map of the pixel position given by push constants, so that their derivatives (and
// with them the footprint of every pixel, "Scale Factor Operation") are the same everywhere and
// known exactly: u may move 16 texels per pixel along one screen axis and v one along the
// other. Implicit LOD, drawn with fullscreen.vert.
#version 450
layout(push_constant) uniform Mapping {
  vec4 u;  // s = u.x * x + u.y * y + u.z
  vec4 v;  // t = v.x * x + v.y * y + v.z
} mapping;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;
void main() {
  const vec2 p = gl_FragCoord.xy;
  const vec2 st = vec2(dot(mapping.u.xy, p) + mapping.u.z, dot(mapping.v.xy, p) + mapping.v.z);
  color = texture(tex, st);
}
