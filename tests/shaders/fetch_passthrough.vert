#version 450
// Every input location read whole and written to the same output location, so a test can see
// what the kernel's own vertex fetch decoded (vertex_fetch_jit_test.cpp).
layout(location = 0) in vec4 floatInput;
layout(location = 1) in uvec4 uintInput;
layout(location = 2) in ivec4 sintInput;
layout(location = 3) in vec4 instanceInput;
layout(location = 0) out vec4 floatOutput;
layout(location = 1) flat out uvec4 uintOutput;
layout(location = 2) flat out ivec4 sintOutput;
layout(location = 3) out vec4 instanceOutput;
void main() {
  floatOutput = floatInput;
  uintOutput = uintInput;
  sintOutput = sintInput;
  instanceOutput = instanceInput;
  gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
}
