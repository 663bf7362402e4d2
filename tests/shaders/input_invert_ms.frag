// input_attachment_test.cpp, second subpass with 4 samples: reads every sample of the first
// subpass's colour at this pixel (subpassLoad with a sample index) and writes their mean,
// inverted.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInputMS previous;
layout(location = 0) out vec4 outColor;
void main() {
  vec4 c = vec4(0.0);
  for (int s = 0; s < 4; ++s) c += subpassLoad(previous, s);
  outColor = vec4(1.0) - c * 0.25;
}
