// A constant colour: the fragment stage of draws whose coverage alone matters (huge_draw_test).
#version 450
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(1.0, 0.0, 0.0, 1.0); }
