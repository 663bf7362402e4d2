// Large point tests (tests/api/draw_test.cpp): PointCoord as red and green, the colour's blue.
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(gl_PointCoord, color.b, 1.0); }
