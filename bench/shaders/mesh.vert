#version 450
// vertex_heavy: a grid vertex (integer coordinates) transformed by a 4x4 matrix. The matrix's
// entries are powers of two and small dyadic offsets, so every product and sum is exact and
// positions agree bit for bit on every driver (with or without FMA contraction).
layout(location = 0) in vec2 grid;
layout(push_constant) uniform Push {
  mat4 transform;
  vec2 colorScale;
} pc;
layout(location = 0) out vec4 color;

void main() {
  gl_Position = pc.transform * vec4(grid, 0.0, 1.0);
  color = vec4(grid * pc.colorScale, 0.75, 1.0);
}
