#version 450
// A smooth (perspective-interpolated) output at a location the vertex stage does not write:
// each input point becomes a 6x6-pixel square whose colour's x goes from 0.25 (left) to 0.75
// (right) and z from 0.25 (top) to 0.75 (bottom); y = 0.5, w = 1.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 1) out vec4 colour;
void main() {
  vec2 c = (gl_in[0].gl_Position.xy + 1.0) * 16.0;
  for (int k = 0; k < 4; ++k) {
    vec2 p = c + vec2(k < 2 ? -3.0 : 3.0, (k & 1) == 0 ? -3.0 : 3.0);
    gl_Position = vec4(p / 16.0 - 1.0, 0.0, 1.0);
    colour = vec4(k < 2 ? 0.25 : 0.75, 0.5, (k & 1) == 0 ? 0.25 : 0.75, 1.0);
    EmitVertex();
  }
}
