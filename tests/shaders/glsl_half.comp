// GLSL.std.450 on 16-bit floats (explicit arithmetic types): one value per invocation through
// the functions GLSL offers for float16_t, including frexp and ldexp.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float16_t x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float16_t o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float16_t v = x[i];
  uint b = 20u * i;
  int e;
  float16_t whole;
  o[b + 0] = sqrt(abs(v));
  o[b + 1] = sin(v);
  o[b + 2] = exp(v);
  o[b + 3] = log(abs(v));
  o[b + 4] = frexp(v, e);
  o[b + 5] = float16_t(e);
  o[b + 6] = ldexp(v, 3);
  o[b + 7] = modf(v, whole);
  o[b + 8] = whole;
  o[b + 9] = roundEven(v);
  o[b + 10] = floor(v);
  o[b + 11] = fract(v);
  o[b + 12] = inversesqrt(abs(v));
  o[b + 13] = atan(v, float16_t(2.0));
  o[b + 14] = clamp(v, float16_t(-1.0), float16_t(1.0));
  o[b + 15] = sign(v);
  o[b + 16] = step(float16_t(0.5), v);
  o[b + 17] = exp2(v);
  o[b + 18] = log2(abs(v));
  o[b + 19] = cos(v);
}
