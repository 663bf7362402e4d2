#version 450
// Tessellation tests: a geometry stage after tessellation, passing each tessellated triangle
// on with word 2 replaced by 9.
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) flat in uvec4 words[];
layout(location = 0) flat out uvec4 outWords;
void main() {
  for (int i = 0; i < 3; ++i) {
    gl_Position = gl_in[i].gl_Position;
    outWords = uvec4(words[i].x, words[i].y, 9u, 1u);
    EmitVertex();
  }
}
