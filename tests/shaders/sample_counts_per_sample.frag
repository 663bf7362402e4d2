// sample_counts_test.cpp, "Sample Shading": reading gl_SampleID runs one invocation per sample.
// The colour weighs the sample's position by its index (so a table in another order shows in
// the resolved mean) and gives the index itself; kSamples is the pipeline's sample count.
#version 450
layout(constant_id = 0) const int kSamples = 1;
layout(location = 0) out vec4 outColor;
void main() {
  const float weight = float(gl_SampleID + 1) / float(kSamples);
  outColor = vec4(gl_SamplePosition * weight, float(gl_SampleID) / float(kSamples), 1.0);
}
