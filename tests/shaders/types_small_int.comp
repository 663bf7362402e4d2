// 8- and 16-bit integers (explicit arithmetic types with 8/16-bit storage): wrap-around,
// sign and zero extension, truncation, shifts, division, comparisons; loads and stores of
// 8- and 16-bit values in buffers.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In8 { i8vec2 b8[]; };
layout(set = 0, binding = 1) readonly buffer In16 { i16vec2 b16[]; };
layout(set = 0, binding = 2) writeonly buffer Out8 { int8_t o8[]; };
layout(set = 0, binding = 3) writeonly buffer Out16 { uint16_t o16[]; };
layout(set = 0, binding = 4) writeonly buffer Out32 { int o32[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  int8_t a = b8[i].x, c = b8[i].y;
  int16_t s = b16[i].x, t = b16[i].y;
  uint8_t ua = uint8_t(a), uc = uint8_t(c);
  uint16_t us = uint16_t(s), ut = uint16_t(t);
  o8[8 * i + 0] = a + c;            // wraps
  o8[8 * i + 1] = a * c;
  o8[8 * i + 2] = int8_t(ua >> (uc & uint8_t(7)));
  o8[8 * i + 3] = a >> int8_t(uc & uint8_t(7));
  o8[8 * i + 4] = c != int8_t(0) ? a / c : int8_t(99);
  o8[8 * i + 5] = int8_t(ua / max(uc, uint8_t(1)));
  o8[8 * i + 6] = int8_t(s);        // truncation
  o8[8 * i + 7] = -a;
  o16[4 * i + 0] = us + ut;
  o16[4 * i + 1] = us * ut;
  o16[4 * i + 2] = uint16_t(s >> int16_t(ut & uint16_t(15)));
  o16[4 * i + 3] = uint16_t(int16_t(a) * int16_t(c));  // sign-extended product, no wrap
  o32[6 * i + 0] = int(a);          // sign extension
  o32[6 * i + 1] = int(ua);         // zero extension
  o32[6 * i + 2] = int(s);
  o32[6 * i + 3] = int(us);
  o32[6 * i + 4] = int(a < c) | int(ua < uc) << 1 | int(s < t) << 2 | int(us < ut) << 3 | int(a == c) << 4;
  o32[6 * i + 5] = int(uint8_t(us)) + (int(int16_t(ua)) << 16);
}
