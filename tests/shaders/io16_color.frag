// tests/api/io16_test.cpp: 16-bit inputs (storageInputOutput16), written out as 32-bit floats.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location = 0) flat in f16vec3 flatHalves;
layout(location = 1) in float16_t smoothHalf;
layout(location = 0) out vec4 color;
void main() {
  color = vec4(flatHalves, smoothHalf);
}
