#version 450
// Transform feedback tests: the geometry stage emits, per input point, a strip of four
// vertices (two triangles) ended by EndPrimitive and then a strip of one vertex (no
// primitive), capturing each vertex's position and a word into 20-byte records of buffer 0.
layout(points) in;
layout(triangle_strip, max_vertices = 5) out;
layout(location = 0) in uvec4 id[];
layout(location = 0, xfb_buffer = 0, xfb_offset = 16, xfb_stride = 20) out uint word;
layout(xfb_buffer = 0) out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
};
void main() {
  for (int k = 0; k < 5; ++k) {
    gl_Position = gl_in[0].gl_Position + vec4(float(k), float(k * k), 0.0, 0.0);
    word = id[0].x * 16u + uint(k);
    EmitVertex();
    if (k == 3) EndPrimitive();
  }
  EndPrimitive();
}
