// Implicit-LOD sampling in a fragment kernel (graphics_stage_test.cpp): the level chosen from
// the quad's derivatives of the coordinates.
#version 450
layout(location = 0) in vec2 uv;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
void main() { color = texture(tex, uv); }
