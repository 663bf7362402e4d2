#version 450
// many_draws, pipeline A: the colour pushed with the draw.
layout(push_constant) uniform Push {
  ivec4 rect;
  vec4 color;
} pc;
layout(location = 0) out vec4 outColor;

void main() { outColor = pc.color; }
