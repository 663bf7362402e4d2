// The binned draw tests' fragment shader (tests/unit/raster/binned_draw_test.cpp): the colour
// input as the output and, as the second blend source ("Dual-Source Blending"), its components
// reversed, as the test's C++ kernel colourFragment<W, false> does.
#version 450
layout(location = 0) in vec4 inColour;
layout(location = 0, index = 0) out vec4 outColour;
layout(location = 0, index = 1) out vec4 outSecond;
void main() {
  outColour = inColour;
  outSecond = inColour.wzyx;
}
