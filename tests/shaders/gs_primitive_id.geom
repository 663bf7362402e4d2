#version 450
// Triangles passed through; PrimitiveId written as 2 * PrimitiveIdIn + 1 (an input primitive's
// number is not what the fragment stage sees unless the geometry stage says so).
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 0) in uvec4 id[];
layout(location = 0) flat out uvec4 words;
void main() {
  for (int k = 0; k < 3; ++k) {
    gl_Position = gl_in[k].gl_Position;
    gl_PrimitiveID = 2 * gl_PrimitiveIDIn + 1;
    words = uvec4(id[k].x, 0u, 0u, 1u);
    EmitVertex();
  }
}
