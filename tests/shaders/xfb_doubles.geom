#version 450
// Passes xfb_doubles.vert's 64-bit outputs through the geometry stage's 64-bit inputs into a
// captured block whose structure member carries no Offsets of its own: id at byte 0, v at the
// next multiple of 8 (byte 8), s at byte 32, 40-byte records.
layout(points) in;
layout(points, max_vertices = 1) out;
layout(location = 0) flat in dvec3 scaled[];
layout(location = 2) flat in double shifted[];
struct Record {
  uint id;
  dvec3 v;
};
layout(location = 0, xfb_buffer = 0, xfb_stride = 40) out Captured {
  layout(xfb_offset = 0) Record r;
  layout(xfb_offset = 32) double s;
} captured;
void main() {
  captured.r.id = uint(gl_PrimitiveIDIn);
  captured.r.v = scaled[0];
  captured.s = shifted[0];
  gl_Position = gl_in[0].gl_Position;
  EmitVertex();
}
