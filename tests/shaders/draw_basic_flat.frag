// extended_dynamic_state3_test.cpp: draw_basic.frag with the colour flat, from the provoking
// vertex ("Flat Shading").
#version 450
layout(location = 0) flat in vec4 color;
layout(location = 0) out vec4 outColor;
void main() { outColor = color; }
