// tests/api/pipeline_robustness_test.cpp: buffer accesses out of their descriptors' ranges on a
// device with no robustness feature enabled, the pipeline asking for robustBufferAccess2
// behaviour (VK_EXT_pipeline_robustness) or asking nothing. See the test for the expected values.
#version 450
layout(local_size_x = 1) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
layout(set = 0, binding = 1) buffer Ssbo { uint s[]; };   // range: 4 uints of 16
layout(set = 0, binding = 2) uniform Ubo { uvec4 u[4]; };  // range: one uvec4 of 4
void main() {
  o[0] = uvec4(s[3], s[4], s[1000], s.length());
  s[5] = 0xBADu;  // out of range: dropped
  o[1] = u[0];
  o[2] = u[1];
  o[3] = u[3];
}
