// sample_counts_test.cpp, interpolateAtSample ("Interpolation Functions"): windowPos evaluated
// at sample 1 and at the last sample, less the pixel's corner: their standard locations.
#version 450
layout(constant_id = 0) const int kSamples = 2;
layout(location = 0) noperspective in vec2 windowPos;
layout(location = 0) out vec4 outColor;
void main() {
  const vec2 corner = floor(gl_FragCoord.xy);
  outColor = vec4(interpolateAtSample(windowPos, 1) - corner, interpolateAtSample(windowPos, kSamples - 1) - corner);
}
