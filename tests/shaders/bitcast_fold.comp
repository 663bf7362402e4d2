#version 450
// Bit casts of narrow vectors to wider scalars (packFloat2x16 and friends are OpBitcast) on
// values the SPIR-V optimizer can see. SPIRV-Tools 2023.1 folds them into a constant with one
// word per component (spirv_tools_stage.cpp, bitcastsNarrowVectorToScalar). Expected words: see
// types_test.cpp, BitcastsOfConstantNarrowVectorsPackTheirComponents.
#extension GL_EXT_shader_explicit_arithmetic_types : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer Out { uint o[]; };
void main() {
  f16vec2 h = f16vec2(1.0, 2.0);
  i16vec2 s = i16vec2(-2, 3);
  u16vec4 q = u16vec4(1, 2, 0xfffe, 4);
  i8vec4 b = i8vec4(-1, 2, -3, 4);
  o[0] = packFloat2x16(h);
  o[1] = uint(packInt2x16(s));
  uint64_t l = packUint4x16(q);
  o[2] = uint(l);
  o[3] = uint(l >> 32);
  o[4] = uint(pack32(b));
}
