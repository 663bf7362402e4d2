#version 450
// Transform feedback of 64-bit members inside a structure that carries no Offset of its own
// (as the CTS's transform_feedback.fuzz cases declare them): a member holding doubles starts
// at the next multiple of 8 bytes, so mB is at byte 16, after mA's 12 bytes.
struct S {
  uvec3 mA;
  dmat4x3 mB;  // locations 1-8: two per column
};
layout(location = 0, xfb_buffer = 0, xfb_offset = 0) out Block {
  layout(xfb_offset = 0) S s;
} blockOut;
layout(location = 9, xfb_buffer = 1, xfb_offset = 8) out dvec3 after;

void main() {
  blockOut.s.mA = uvec3(1u, 2u, 3u);
  blockOut.s.mB = dmat4x3(1.0);
  after = dvec3(0.5);
  gl_Position = vec4(0.0);
}
