// Fragment kernel test (graphics_stage_test.cpp): multisampling in the shader interface. A
// Centroid input ("Interpolation Decorations") is reported to the draw loop, which interpolates
// it; gl_SampleMaskIn reads the fragment's covered samples and gl_SampleMask removes samples.
#version 450
layout(location = 0) centroid in vec4 inCentroid;
layout(location = 1) in vec4 inCenter;
layout(location = 0) out vec4 outColor;
void main() {
  outColor = inCentroid + inCenter;
  gl_SampleMask[0] = gl_SampleMaskIn[0] & 0x5;
}
