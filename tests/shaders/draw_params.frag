// The draw-parameter tests' fragment shader: the vertex's value, unchanged, into an RGBA32_UINT target.
#version 460
layout(location = 0) flat in uvec4 value;
layout(location = 0) out uvec4 outValue;
void main() { outValue = value; }
