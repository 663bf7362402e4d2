#version 450
// One implicit-LOD sample of a 2D texture per fragment (the textured workloads).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;

void main() { color = texture(tex, uv); }
