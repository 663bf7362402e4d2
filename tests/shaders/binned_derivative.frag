// The binned draw tests' derivative shader (tests/unit/raster/binned_draw_test.cpp): a product
// of interpolated colour components, quadratic over the screen, differentiated across the 2x2
// quad ("Derivative Operations": fine derivatives are differences within the quad). A batch
// that paired other pixels than the quads at even coordinates would give other colours.
#version 450
layout(location = 0) in vec4 inColour;
layout(location = 0, index = 0) out vec4 outColour;
layout(location = 0, index = 1) out vec4 outSecond;
void main() {
  float f = inColour.r * inColour.g * 256.0;
  outColour = vec4(clamp(0.5 + dFdxFine(f), 0.0, 1.0), clamp(0.5 + dFdyFine(f), 0.0, 1.0), inColour.b, inColour.a);
  outSecond = inColour.wzyx;
}
