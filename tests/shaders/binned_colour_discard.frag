// The binned draw tests' discarding fragment shader, as colourFragment<W, true>: red above 0.75
// discards, FragDepth is green.
#version 450
layout(location = 0) in vec4 inColour;
layout(location = 0) out vec4 outColour;
void main() {
  if (inColour.r > 0.75) discard;
  outColour = inColour;
  gl_FragDepth = clamp(inColour.g, 0.0, 1.0);
}
