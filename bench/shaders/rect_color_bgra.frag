#version 450
// many_draws, pipeline B: the pushed colour with red and blue swapped (another shader, so that
// switching pipelines switches code).
layout(push_constant) uniform Push {
  ivec4 rect;
  vec4 color;
} pc;
layout(location = 0) out vec4 outColor;

void main() { outColor = pc.color.bgra; }
