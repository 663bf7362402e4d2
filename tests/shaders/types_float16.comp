// Half floats (explicit arithmetic type float16 with 16-bit storage): arithmetic, comparisons
// and conversions to and from float, double and integers.
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { f16vec2 p[]; };
layout(set = 0, binding = 1) writeonly buffer OutH { float16_t oh[]; };
layout(set = 0, binding = 2) writeonly buffer OutF { float of[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  float16_t x = p[i].x, y = p[i].y;
  oh[6 * i + 0] = x + y;
  oh[6 * i + 1] = x - y;
  oh[6 * i + 2] = x * y;
  oh[6 * i + 3] = x / y;
  oh[6 * i + 4] = float16_t(float(x) * 3.0);  // float -> half rounds to nearest even
  oh[6 * i + 5] = -abs(x);
  of[4 * i + 0] = float(x);
  of[4 * i + 1] = float(double(y));
  of[4 * i + 2] = float(int(x));
  of[4 * i + 3] = float(int(x < y) | int(x == y) << 1 | int(x >= y) << 2);
}
