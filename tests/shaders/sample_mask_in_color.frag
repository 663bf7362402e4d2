// sample_mask_in_test.cpp: red shows SampleMaskIn[0] (255 where it is 1, sample 0 alone
// covered, as at one sample per pixel; 128 otherwise), green marks a shaded pixel. A flat
// colour written to an RGBA8 target: the fragment kernel writes the attachment itself.
#version 450
layout(location = 0) out vec4 color;
void main() { color = vec4(gl_SampleMaskIn[0] == 1 ? 1.0 : 128.0 / 255.0, 1.0, 0.0, 1.0); }
