// feedback_loop_test.cpp: samples the colour attachment being rendered at this pixel
// (VK_EXT_attachment_feedback_loop_layout) and writes its inverse.
#version 450
layout(set = 0, binding = 0) uniform sampler2D previous;
layout(location = 0) out vec4 outColor;
void main() { outColor = vec4(1.0) - texelFetch(previous, ivec2(gl_FragCoord.xy), 0); }
