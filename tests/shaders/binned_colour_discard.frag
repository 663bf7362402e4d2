// The binned draw tests' discarding fragment shader, as colourFragment<W, true>: red above 0.75
// discards, FragDepth is green; the second blend source is the colour reversed.
#version 450
layout(location = 0) in vec4 inColour;
layout(location = 0, index = 0) out vec4 outColour;
layout(location = 0, index = 1) out vec4 outSecond;
void main() {
  if (inColour.r > 0.75) discard;
  outColour = inColour;
  outSecond = inColour.wzyx;
  gl_FragDepth = clamp(inColour.g, 0.0, 1.0);
}
