#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): per input point, a triangle
// strip of four vertices (two triangles); each vertex's word (16 x the point's VertexIndex + its
// number k in the strip) is captured into 4-byte records of buffer 0.
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
layout(location = 0) in uvec4 id[];
layout(location = 0, xfb_buffer = 0, xfb_offset = 0, xfb_stride = 4) out uint word;
void main() {
  for (int k = 0; k < 4; ++k) {
    gl_Position = gl_in[0].gl_Position + vec4(float(k), float(k * k), 0.0, 0.0);
    word = id[0].x * 16u + uint(k);
    EmitVertex();
  }
  EndPrimitive();
}
