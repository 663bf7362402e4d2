// multisampled_render_to_single_sampled_test.cpp: the interpolated colour into a UNORM attachment,
// scaled past [0, 1] into a float one (so its resolve averages values a UNORM format would
// clamp), and with red and blue swapped into a third (a DONT_CARE attachment).
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outUnorm;
layout(location = 1) out vec4 outFloat;
layout(location = 2) out vec4 outSwapped;
void main() {
  outUnorm = color;
  outFloat = color * 4.0 - vec4(1.0);
  outSwapped = color.bgra;
}
