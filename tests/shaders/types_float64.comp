// Doubles: arithmetic (correctly rounded), sqrt, fma, comparisons and conversions.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { dvec2 p[]; };
layout(set = 0, binding = 1) writeonly buffer Out { double o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  double x = p[i].x, y = p[i].y;
  uint b = 12 * i;
  o[b + 0] = x + y;
  o[b + 1] = x - y;
  o[b + 2] = x * y;
  o[b + 3] = x / y;
  o[b + 4] = sqrt(abs(x));
  o[b + 5] = fma(x, y, 1.0);
  o[b + 6] = double(float(x));          // rounds to float
  o[b + 7] = double(int(clamp(x, -1e9, 1e9)));  // truncates toward zero
  o[b + 8] = double(uint(clamp(y, 0.0, 4e9)));
  o[b + 9] = floor(x) - ceil(y);
  o[b + 10] = min(x, y) - max(x, y);
  o[b + 11] = double(int(x < y) | int(x <= y) << 1 | int(x == y) << 2);
}
