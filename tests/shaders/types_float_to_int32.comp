// int(f) and uint(f) of 32-bit floats (OpConvertFToS, OpConvertFToU), two outputs per input.
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float f[]; };
layout(set = 0, binding = 1) writeonly buffer Out { int o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= n) return;
  o[2 * i] = int(f[i]);
  o[2 * i + 1] = int(uint(f[i]));
}
