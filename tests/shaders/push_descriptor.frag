// Push descriptors in a fragment shader (tests/api/push_descriptor_test.cpp): set 0 is an
// ordinary descriptor set, set 1 the push descriptor set; the colour is the sum of the three.
#version 450
layout(set = 0, binding = 0) uniform Base { vec4 base; };
layout(set = 1, binding = 0) uniform PushedA { vec4 a; };
layout(set = 1, binding = 1) uniform PushedB { vec4 b; };
layout(location = 0) out vec4 color;
void main() { color = base + a + b; }
