// Fragment kernel test (graphics_stage_test.cpp): the shader side of sample shading.
// gl_SampleID and gl_SamplePosition read the batch's sample (and make the shader run per
// sample); interpolateAtOffset, interpolateAtSample and interpolateAtCentroid evaluate inputs
// elsewhere in the pixel from the quad: without perspective, with perspective, of a Centroid
// input (whose batch values lie at the centroids), through access chains, with uniform and
// per-lane offsets and sample numbers; a flat input is the same everywhere.
#version 450
layout(location = 0) noperspective in vec2 inLinear;
layout(location = 1) in float inSmooth;
layout(location = 2) centroid noperspective in float inCentroid;
layout(location = 3) flat in float inFlat;
layout(location = 0) out vec4 outSample;
layout(location = 1) out vec4 outLinear;
layout(location = 2) out vec4 outSmooth;
layout(location = 3) out vec4 outVarying;
void main() {
  const vec2 off = vec2(0.25, -0.375);
  outSample = vec4(float(gl_SampleID), gl_SamplePosition, interpolateAtOffset(inFlat, off));
  outLinear = vec4(interpolateAtOffset(inLinear, off), interpolateAtSample(inLinear, 1).x,
                   interpolateAtCentroid(inLinear).y);
  outSmooth = vec4(interpolateAtOffset(inSmooth, off), interpolateAtSample(inSmooth, 2),
                   interpolateAtCentroid(inSmooth), interpolateAtSample(inSmooth, 7));
  int k = int(gl_FragCoord.x) & 3;
  vec2 laneOffset = vec2(fract(gl_FragCoord.x * 0.25) - 0.5, 0.125);
  outVarying = vec4(interpolateAtSample(inLinear.y, k), interpolateAtOffset(inLinear.x, laneOffset),
                    interpolateAtOffset(inCentroid, off), interpolateAtSample(inCentroid, 3));
}
