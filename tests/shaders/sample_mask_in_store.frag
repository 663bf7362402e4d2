// post_depth_coverage_test.cpp: post_depth_coverage.frag without PostDepthCoverage, so
// SampleMaskIn is the rasterized coverage whatever the early depth test decides.
#version 450
layout(early_fragment_tests) in;
layout(set = 0, binding = 0) buffer Masks { uint masks[]; };
layout(push_constant) uniform Size { uint width; } size;
void main() { masks[uint(gl_FragCoord.y) * size.width + uint(gl_FragCoord.x)] = uint(gl_SampleMaskIn[0]); }
