#version 450
// One implicit-LOD cube-map sample per fragment (tex_cube: a sky box).
layout(set = 0, binding = 0) uniform samplerCube tex;
layout(location = 0) in vec3 dir;
layout(location = 0) out vec4 color;

void main() { color = texture(tex, dir); }
