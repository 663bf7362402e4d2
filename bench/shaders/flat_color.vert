#version 450
// Triangles from a vertex buffer (bench::ColorVertex): NDC position with depth, and a colour the
// whole primitive takes from its first vertex (flat), so it reaches the framebuffer exactly.
layout(location = 0) in vec3 inPosition;
layout(location = 1) in vec4 inColor;
layout(location = 0) flat out vec4 color;

void main() {
  gl_Position = vec4(inPosition, 1.0);
  color = inColor;
}
