#version 450
// Transform feedback tests (tests/api/transform_feedback_test.cpp): the vertex stage captures
// its position and a derived value into buffer 0 (32-byte records) and its VertexIndex and
// InstanceIndex into buffer 1 (12-byte records from byte 4; location 1 is read by no stage).
layout(location = 0) in vec4 position;
layout(location = 0, xfb_buffer = 0, xfb_offset = 16, xfb_stride = 32) out vec4 scaled;
layout(location = 1, xfb_buffer = 1, xfb_offset = 4, xfb_stride = 12) out uvec2 ids;
layout(xfb_buffer = 0) out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
  float gl_PointSize;
};
void main() {
  gl_Position = position;
  gl_PointSize = 1.0;
  scaled = position * 2.0 + vec4(float(gl_VertexIndex));
  ids = uvec2(gl_VertexIndex, gl_InstanceIndex);
}
