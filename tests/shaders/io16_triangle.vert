// tests/api/io16_test.cpp: 16-bit outputs (storageInputOutput16): a triangle covering the whole
// target from gl_VertexIndex; a flat f16vec3 whose components need rounding to half precision
// (0.1, 1/3 and -2^-24, the smallest denormal, as halves) and a smooth float16_t that is 0.375
// at every vertex.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
layout(location = 0) flat out f16vec3 flatHalves;
layout(location = 1) out float16_t smoothHalf;
void main() {
  const vec2 corners[3] = vec2[3](vec2(-1.0, -1.0), vec2(3.0, -1.0), vec2(-1.0, 3.0));
  gl_Position = vec4(corners[gl_VertexIndex], 0.0, 1.0);
  flatHalves = f16vec3(float16_t(0.1), float16_t(1.0 / 3.0), float16_t(-5.9604644775390625e-8));
  smoothHalf = float16_t(0.375);
}
