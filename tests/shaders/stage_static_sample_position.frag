// "Sample Shading" by static use (tests/unit/spirv_jit/graphics_stage_test.cpp): gl_SamplePosition
// is only named, never read, as in the CTS's implicit_sample_shading.sample_position_static_use.
#version 450
layout(location = 0) out vec4 outColor;
void main() {
  gl_SamplePosition;
  outColor = vec4(1.0, 1.0, 0.0, 1.0);
}
