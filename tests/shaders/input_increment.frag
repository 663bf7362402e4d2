// feedback_loop_test.cpp, rasterization order: reads the colour attachment being rendered at
// this pixel (subpassLoad without a barrier: VK_EXT_rasterization_order_attachment_access) and
// writes it back one step (1/255) brighter in every component but alpha.
#version 450
layout(input_attachment_index = 0, set = 0, binding = 0) uniform subpassInput previous;
layout(location = 0) out vec4 outColor;
void main() { outColor = subpassLoad(previous) + vec4(vec3(1.0 / 255.0), 0.0); }
