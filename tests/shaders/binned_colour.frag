// The binned draw tests' fragment shader (tests/unit/raster/binned_draw_test.cpp): the colour
// input as the output, as the test's C++ kernel colourFragment<W, false> does.
#version 450
layout(location = 0) in vec4 inColour;
layout(location = 0) out vec4 outColour;
void main() { outColour = inColour; }
