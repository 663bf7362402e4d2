// A fragment shader that writes nothing: draws whose only effect is what the fixed function
// counts (occlusion queries), e.g. sample_counts_test.cpp's subpasses without attachments.
#version 450
void main() {}
