#version 450
// Geometry shader tests: the words and the fragment's Layer (the layer the geometry stage chose).
layout(location = 0) flat in uvec4 words;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(words.x, uint(gl_Layer), 0u, 1u); }
