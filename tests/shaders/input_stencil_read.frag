// depth_stencil_input_test.cpp: writes the stencil attachment's value at this pixel, read as
// an input attachment, to a float colour attachment.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform usubpassInput stencilInput;
layout(location = 0) out float outValue;
void main() { outValue = float(subpassLoad(stencilInput).r); }
