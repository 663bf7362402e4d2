// Specialization-constant expressions on 64- and 16-bit integers (and conversions between
// widths), which SPIRV-Tools 2023.1 leaves unfolded: the JIT evaluates them itself.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
layout(local_size_x = 8) in;
layout(set = 0, binding = 0) buffer Out { int64_t o[]; };
layout(constant_id = 0) const int64_t x = 1l;
layout(constant_id = 1) const int y = 3;
layout(constant_id = 2) const int16_t z = int16_t(2);
const int64_t a = x * 3l + 7l;
const int64_t b = a >> 1;
const bool c = a > 10l;
const int64_t d = c ? a : b;
const int e = int(x) + y;
const int16_t f = z * int16_t(3);
const int64_t g = int64_t(y) << 33;
void main() {
  uint i = gl_GlobalInvocationID.x;
  o[8u * i] = a; o[8u * i + 1u] = b; o[8u * i + 2u] = d; o[8u * i + 3u] = int64_t(e);
  o[8u * i + 4u] = int64_t(f); o[8u * i + 5u] = g; o[8u * i + 6u] = int64_t(uint64_t(x) / 3ul); o[8u * i + 7u] = -x;
}
