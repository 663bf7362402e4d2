#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): from each input point, a
// triangle strip of five vertices (three triangles: a zigzag 6 pixels per step, 12 high) whose
// vertices' flat words are 100 + their number in the strip, so the fragment stage shows which
// vertex of each triangle provoked it ("Flat Shading": the output topology's provoking vertex).
layout(points) in;
layout(triangle_strip, max_vertices = 5) out;
layout(location = 0) flat out uvec4 words;
void main() {
  for (int k = 0; k < 5; ++k) {
    gl_Position = gl_in[0].gl_Position + vec4(6.0 * float(k) / 16.0, (k & 1) == 0 ? 0.0 : 12.0 / 16.0, 0.0, 0.0);
    words = uvec4(100u + uint(k), 0u, 0u, 1u);
    EmitVertex();
  }
  EndPrimitive();
}
