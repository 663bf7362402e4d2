#version 450
// Geometry shader tests: a smooth input, times 1000 and rounded into an RGBA32_UINT target.
layout(location = 1) in vec4 colour;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(round(colour * 1000.0)); }
