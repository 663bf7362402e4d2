#version 450
// Transform feedback layout tests (tests/unit/spirv_jit/feedback_layout_test.cpp): an arrayed
// output block captured into consecutive buffers, one per element (GLSL's xfb_buffer rule for
// block arrays, which glslang emits as one XfbBuffer on the array variable).
layout(location = 2, xfb_buffer = 1, xfb_offset = 4, xfb_stride = 12) out Block {
  vec2 pair;
} blocks[2];
void main() {
  blocks[0].pair = vec2(1.0, 2.0);
  blocks[1].pair = vec2(3.0, 4.0);
  gl_Position = vec4(0.0);
}
