// Dual-source blending (tests/api/dual_source_blend_test.cpp): both inputs of attachment 0's
// blender (Location 0 Index 0 and Index 1) from the pixel's position alone, so that the test
// can compute them too.
#version 450
layout(location = 0, index = 0) out vec4 colour;
layout(location = 0, index = 1) out vec4 second;
void main() {
  vec2 p = floor(gl_FragCoord.xy) / 63.0;
  colour = vec4(p.x, p.y, 0.75, 1.0 - p.x);
  second = vec4(1.0 - p.y, 0.25, p.x * p.y, p.y);
}
