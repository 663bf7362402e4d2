// Polygon mode tests (tests/api/draw_test.cpp): the interpolated colour on front faces, its
// complement on back faces, so that the facing of each drawn edge or vertex shows.
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outColor;
void main() { outColor = gl_FrontFacing ? color : vec4(1.0 - color.rgb, 1.0); }
