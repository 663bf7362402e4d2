// Colour write enable (tests/api/color_write_enable_test.cpp): two colour attachments, both
// written with values of the pixel position alone, so that the test can compute them too.
#version 450
layout(location = 0) out vec4 colour0;
layout(location = 1) out vec4 colour1;
void main() {
  vec2 p = floor(gl_FragCoord.xy) / 63.0;
  colour0 = vec4(p.x, p.y, 0.25, 1.0);
  colour1 = vec4(0.5, p.x, p.y, 0.75);
}
