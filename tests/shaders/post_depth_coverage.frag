// post_depth_coverage_test.cpp: each fragment stores its SampleMaskIn at its pixel. With
// early fragment tests and PostDepthCoverage (VK_EXT_post_depth_coverage) the mask holds only
// the samples that passed the depth test.
#version 450
#extension GL_ARB_post_depth_coverage : require
layout(early_fragment_tests) in;
layout(post_depth_coverage) in;
layout(set = 0, binding = 0) buffer Masks { uint masks[]; };
layout(push_constant) uniform Size { uint width; } size;
void main() { masks[uint(gl_FragCoord.y) * size.width + uint(gl_FragCoord.x)] = uint(gl_SampleMaskIn[0]); }
