// draw_test.cpp, per-sample shading ("Sample Shading"): reading gl_SampleID runs the shader once
// per covered sample. Red is SampleId / 3 and blue the sample's x position, so a resolved,
// fully covered pixel averages to 0.5 in both (standard 4-sample locations: x = 0.375, 0.875,
// 0.125, 0.625); shading once per pixel would give red 0.
#version 450
layout(location = 0) in vec4 color;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(float(gl_SampleID) / 3.0, color.g, gl_SamplePosition.x, 1.0); }
