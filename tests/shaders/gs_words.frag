#version 450
// Geometry shader tests: the geometry stage's words straight into an RGBA32_UINT target.
layout(location = 0) flat in uvec4 words;
layout(location = 0) out uvec4 color;
void main() { color = words; }
