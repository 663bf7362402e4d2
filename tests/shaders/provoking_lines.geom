#version 450
// Provoking vertex tests (tests/api/provoking_vertex_test.cpp): from each input point, a line
// strip of three vertices (right 12.1 pixels, then down 10.2) whose vertices' flat words are
// 200 + their number in the strip ("Flat Shading": the output topology's provoking vertex).
layout(points) in;
layout(line_strip, max_vertices = 3) out;
layout(location = 0) flat out uvec4 words;
void main() {
  const vec2 offsets[3] = vec2[3](vec2(0.0, 0.0), vec2(12.1, 0.0), vec2(12.1, 10.2));
  for (int k = 0; k < 3; ++k) {
    gl_Position = gl_in[0].gl_Position + vec4(offsets[k] / 16.0, 0.0, 0.0);
    words = uvec4(200u + uint(k), 0u, 0u, 1u);
    EmitVertex();
  }
  EndPrimitive();
}
