#version 450
// Vertex streams with transform feedback (tests/api/geometry_streams_test.cpp): per input point
// of VertexIndex v (id[0].x) the shader emits points to four streams, interleaved and with
// EndStreamPrimitive calls that change nothing for points: stream s gets s + 1 points, stream
// 3 gets v % 3. Each stream's outputs go to the buffer of the same number:
//   buffer 0 (stream 0, 20-byte records): gl_Position at 0, (v * 16 + k) at 16; the point is
//     at pixel (2 v + 1, 1) of a 16 x 16 target, and is the only thing rasterized;
//   buffer 1 (stream 1, 8 bytes): uvec2(v, k) at 0;
//   buffer 2 (stream 2, 12 bytes): v * 10 + k + 0.5 at 4 (bytes 0..3 and 8..11 not written);
//   buffer 3 (stream 3, 16 bytes): vec4(v, k, -1, 2^k) at 0.
// Before each emission to streams 1..3 gl_Position is moved to row 9: were those streams
// rasterized, pixels there would be covered.
layout(points) in;
layout(points, max_vertices = 8) out;
layout(location = 0) in uvec4 id[];
layout(stream = 0, xfb_buffer = 0, xfb_stride = 20) out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
  float gl_PointSize;
};
layout(stream = 0, location = 0, xfb_buffer = 0, xfb_offset = 16) flat out uint word0;
layout(stream = 1, location = 1, xfb_buffer = 1, xfb_offset = 0, xfb_stride = 8) flat out uvec2 word1;
layout(stream = 2, location = 2, xfb_buffer = 2, xfb_offset = 4, xfb_stride = 12) out float value2;
layout(stream = 3, location = 3, xfb_buffer = 3, xfb_offset = 0, xfb_stride = 16) out vec4 value3;

vec4 pixel(uint x, uint y) { return vec4((float(x) + 0.5) / 8.0 - 1.0, (float(y) + 0.5) / 8.0 - 1.0, 0.0, 1.0); }

void main() {
  const uint v = id[0].x;
  for (uint k = 0u; k < 4u; ++k) {
    if (k < 1u) {
      gl_Position = pixel(2u * v + 1u, 1u);
      gl_PointSize = 1.0;
      word0 = v * 16u + k;
      EmitStreamVertex(0);
      EndStreamPrimitive(0);
    }
    gl_Position = pixel(2u * v + 1u, 9u);
    if (k < 2u) {
      word1 = uvec2(v, k);
      EmitStreamVertex(1);
    }
    if (k < 3u) {
      value2 = float(v * 10u + k) + 0.5;
      EmitStreamVertex(2);
      EndStreamPrimitive(2);
    }
    if (k < v % 3u) {
      value3 = vec4(float(v), float(k), -1.0, float(1u << k));
      EmitStreamVertex(3);
    }
  }
}
