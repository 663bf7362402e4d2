#version 450
#extension GL_EXT_multiview : require
// Multiview with a geometry stage (multiviewGeometryShader): each input point becomes a 6x6
// square carrying VertexIndex + 1 and the ViewIndex the geometry stage sees, moved right by
// 8 pixels per view.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in uvec4 id[];
layout(location = 0) flat out uvec4 words;
void main() {
  vec2 c = (gl_in[0].gl_Position.xy + 1.0) * 16.0 + vec2(8.0 * float(gl_ViewIndex), 0.0);
  for (int k = 0; k < 4; ++k) {
    vec2 p = c + vec2(k < 2 ? -3.0 : 3.0, (k & 1) == 0 ? -3.0 : 3.0);
    gl_Position = vec4(p / 16.0 - 1.0, 0.0, 1.0);
    words = uvec4(id[0].x + 1u, uint(gl_ViewIndex), 0u, 1u);
    EmitVertex();
  }
}
