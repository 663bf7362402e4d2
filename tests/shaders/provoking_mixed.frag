#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): the flat word (the provoking
// vertex's), the bits of the interpolated smooth value and of the fragment's depth, and 1 (a
// fragment was written), so that a test can tell the flat value from everything the
// provoking vertex mode must leave alone.
layout(location = 0) flat in uvec4 words;
layout(location = 1) in vec4 smoothValue;
layout(location = 0) out uvec4 color;
void main() { color = uvec4(words.x, floatBitsToUint(smoothValue.x + smoothValue.y), floatBitsToUint(gl_FragCoord.z), 1u); }
