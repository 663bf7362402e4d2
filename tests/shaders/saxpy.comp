// y = a * x + y over n elements (n need not be a multiple of the workgroup size).
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
