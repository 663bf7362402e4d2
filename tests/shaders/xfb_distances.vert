#version 450
// Transform feedback layout test (tests/unit/spirv_jit/feedback_layout_test.cpp): Position,
// ClipDistance[2] and CullDistance[1] captured from gl_PerVertex at their xfb offsets.
layout(xfb_buffer = 0) out gl_PerVertex {
  layout(xfb_offset = 0) vec4 gl_Position;
  layout(xfb_offset = 16) float gl_ClipDistance[2];
  layout(xfb_offset = 24) float gl_CullDistance[1];
};
void main() {
  gl_Position = vec4(float(gl_VertexIndex), 0.0, 0.0, 1.0);
  gl_ClipDistance[0] = 1.0;
  gl_ClipDistance[1] = -1.0;
  gl_CullDistance[0] = 2.0;
}
