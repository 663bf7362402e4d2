// sample_counts_test.cpp, coverage: every covered sample white, so a resolved pixel is the
// share of its samples the triangles cover.
#version 450
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(1.0); }
