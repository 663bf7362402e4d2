// input_attachment_test.cpp, second subpass: reads the first subpass's colour at this pixel
// (subpassLoad, "Input Attachments") and writes its inverse.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(1.0) - subpassLoad(previous); }
