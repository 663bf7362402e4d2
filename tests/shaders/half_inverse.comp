// inverse() of 16-bit float matrices ("Precision and Operation of SPIR-V Instructions"): one
// mat3 and one mat4 per invocation, read and written as 9 and 16 column-major scalars.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 16) in;
layout(set = 0, binding = 0) readonly buffer In { float16_t x[]; };
layout(set = 0, binding = 1) writeonly buffer Out { float16_t o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  uint b = 25u * i;
  f16mat3 m3;
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) m3[c][r] = x[b + uint(3 * c + r)];
  f16mat4 m4;
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) m4[c][r] = x[b + 9u + uint(4 * c + r)];
  f16mat3 i3 = inverse(m3);
  f16mat4 i4 = inverse(m4);
  for (int c = 0; c < 3; ++c)
    for (int r = 0; r < 3; ++r) o[b + uint(3 * c + r)] = i3[c][r];
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r) o[b + 9u + uint(4 * c + r)] = i4[c][r];
}
