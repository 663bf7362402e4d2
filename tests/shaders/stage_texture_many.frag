// Nine implicit-LOD samples of nine textures in one fragment kernel (inline_sampling_test.cpp):
// more sampling instructions than FragmentBatch::inlineSampling has entries.
#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex[9];
void main() {
  vec4 sum = vec4(0.0);
  sum += texture(tex[0], uv) * 1.0;
  sum += texture(tex[1], uv) * 2.0;
  sum += texture(tex[2], uv) * 4.0;
  sum += texture(tex[3], uv) * 8.0;
  sum += texture(tex[4], uv) * 16.0;
  sum += texture(tex[5], uv) * 32.0;
  sum += texture(tex[6], uv) * 64.0;
  sum += texture(tex[7], uv) * 128.0;
  sum += texture(tex[8], uv) * 256.0;
  color = sum;
}
