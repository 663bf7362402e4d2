// Implicit-LOD cube sampling in a fragment kernel (inline_sampling_test.cpp): each lane's face
// and level from its direction and the quad's derivatives of it.
#version 450
layout(location = 0) in vec3 dir;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform samplerCube tex;
void main() { color = texture(tex, dir); }
