#version 450
// One point per input primitive (lines_adjacency) at pixel (PrimitiveIdIn, row) holding the VertexIndex
// of each of its 4 input vertices (8 bits each, in the input array's order) and PrimitiveIdIn:
// the test checks the input assembly ("Primitive Topologies") against the spec's tables.
layout(lines_adjacency) in;
layout(points, max_vertices = 1) out;
layout(push_constant) uniform Row { uint row; };
layout(location = 0) in uvec4 id[];
layout(location = 0) flat out uvec4 words;
void main() {
  uvec4 w = uvec4(0u, 0u, uint(gl_PrimitiveIDIn), 1u);
  for (int k = 0; k < 4; ++k) w[k / 3] |= (id[k].x & 255u) << (8 * (k % 3));
  gl_Position = vec4((vec2(float(gl_PrimitiveIDIn), float(row)) + 0.5) / 16.0 - 1.0, 0.0, 1.0);
  words = w;
  EmitVertex();
}
