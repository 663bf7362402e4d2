#version 450
// Geometry shader tests: PrimitiveId as the geometry stage wrote it ("Built-In Variables":
// with a geometry stage, the value it wrote for the provoking vertex).
layout(location = 0) flat in uvec4 words;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(uint(gl_PrimitiveID) + 100u, words.x, 0u, 1u); }
