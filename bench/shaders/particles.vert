#version 450
// gs_particles: one point per particle (its centre in pixels and its colour); the geometry
// shader makes the quad.
layout(location = 0) in vec2 centre;
layout(location = 1) in vec4 inColor;
layout(location = 0) out vec4 color;

void main() {
  gl_Position = vec4(centre, 0.0, 1.0);
  color = inColor;
}
