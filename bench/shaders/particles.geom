#version 450
// gs_particles: each point becomes a square of 2 x halfSize pixels (a triangle strip of four
// vertices) in the particle's colour. Centres and half sizes are multiples of 1/8 pixel, so
// the corners reach NDC exactly (p / 1024 - 1 under the 2048x2048 viewport).
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(push_constant) uniform Push {
  float halfSize;  // pixels
} pc;
layout(location = 0) in vec4 color[];
layout(location = 0) flat out vec4 outColor;

void main() {
  const vec2 c = gl_in[0].gl_Position.xy;
  for (int k = 0; k < 4; ++k) {
    const vec2 corner = c + vec2(k & 1, k >> 1) * (2.0 * pc.halfSize) - pc.halfSize;
    gl_Position = vec4(corner / 1024.0 - 1.0, 0.5, 1.0);
    outColor = color[0];
    EmitVertex();
  }
  EndPrimitive();
}
