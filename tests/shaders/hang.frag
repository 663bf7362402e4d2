// The watchdog test: a fragment shader whose loop never ends while the pushed word is not
// 12345 (the test pushes 0).
#version 450
layout(push_constant) uniform P { uint stop; } pc;
layout(location = 0) out vec4 color;
void main() {
  uint rounds = 0u;
  while (pc.stop != 12345u) rounds += 1u;
  color = vec4(float(rounds));
}
