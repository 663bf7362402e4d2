// Fragment kernel test (graphics_stage_test.cpp): an input block member with the sample
// qualifier (Sample decoration) is enough to make the shader run per sample.
#version 450
layout(location = 0) in Block {
  vec4 color;
  sample vec2 uv;
} blk;
layout(location = 0) out vec4 outColor;
void main() { outColor = blk.color + vec4(blk.uv, 0.0, 0.0); }
