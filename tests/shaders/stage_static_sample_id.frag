// "Sample Shading" by static use (tests/unit/spirv_jit/graphics_stage_test.cpp): gl_SampleID
// is only named, never read, as in the CTS's implicit_sample_shading.sample_id_static_use.
#version 450
layout(location = 0) out vec4 outColor;
void main() {
  gl_SampleID;
  outColor = vec4(1.0, 1.0, 0.0, 1.0);
}
