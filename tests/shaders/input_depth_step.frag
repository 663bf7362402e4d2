// depth_stencil_input_test.cpp, rasterization order: reads the depth attachment at this pixel
// (subpassLoad without a barrier: VK_EXT_rasterization_order_attachment_access), writes what it
// read to a float colour attachment and a depth 1/16 deeper as FragDepth.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput depthInput;
layout(location = 0) out float outValue;
void main() {
  float d = subpassLoad(depthInput).r;
  outValue = d;
  gl_FragDepth = d + 1.0 / 16.0;
}
